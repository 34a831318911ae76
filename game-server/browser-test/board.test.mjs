// The board in a real browser: Debian's Chromium driven by playwright-core opens the
// page served by the release server binary, creates a match against a bot, plays it to
// the end by clicking, and saves screenshots under the workspace's target/. Then a match
// whose player ids are HTML and script: shown as text, nothing run. Any violation of the
// page's Content-Security-Policy fails either test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.SERVER_BIN ?? path.join(root, "target/release/examples/server");
const out = path.join(root, "target");

function startServer() {
  const child = spawn(bin, ["--addr", "127.0.0.1:0", "--db", ":memory:", "--bot-delay-ms", "50"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    createInterface({ input: child.stdout }).once("line", (line) => {
      const m = /^listening on (http:\/\/\S+)$/.exec(line);
      if (m) resolve({ child, url: m[1] });
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
}

function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

// A page that records, in `trouble`, every CSP violation (the page's own event and the
// console's report of it), every dialog (dismissed) and every console error.
async function watchedPage(browser, trouble, viewport = { width: 390, height: 844 }) {
  const page = await browser.newPage({ viewport });
  await page.exposeFunction("__reportViolation", (v) => trouble.push(`CSP violation: ${v}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__reportViolation(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  });
  page.on("console", (m) => {
    // Chromium asks for /favicon.ico on its own; the server has none (404).
    if (m.location().url?.endsWith("/favicon.ico")) return;
    if (m.type() === "error" || /Content.Security.Policy/i.test(m.text())) trouble.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("dialog", (d) => { trouble.push(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
  page.on("pageerror", (e) => trouble.push(`page error: ${e}`));
  return page;
}

test("a match against a bot, played to the end by clicking", { timeout: 300_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await launch();
  try {
    const errors = [];
    const page = await watchedPage(browser, errors);
    await page.goto(url);
    assert.equal(await page.title(), "윷놀이 Yut Nori");
    // The app preset (with the draft), me against a policy bot: the form's defaults.
    await page.click("button[type=submit]");
    await page.click("a.seat-link");
    await page.waitForSelector("#board .node");
    let clicks = 0, drafted = 0, thrown = 0, moved = 0, shotMid = false;
    const deadline = Date.now() + (Number(process.env.PLAY_MS) || 240_000);
    while (Date.now() < deadline) {
      if (await page.isVisible("#result")) break;
      const target = await page.$("button.card:not([disabled]), #throw, button.move");
      if (!target) { await page.waitForTimeout(30); continue; }
      const kind = await target.evaluate((b) => b.id === "throw" ? "throw" : b.className);
      if (kind === "move" && !shotMid && moved >= 3) {
        // A position with the legal moves highlighted and one path previewed.
        await target.hover({ timeout: 2_000 }).catch(() => {});
        await page.screenshot({ path: path.join(out, "board-moves.png") });
        shotMid = true;
      }
      await target.click({ timeout: 2_000 }).catch(() => {});
      clicks++;
      if (kind === "card") drafted++;
      else if (kind === "throw") thrown++;
      else moved++;
      await page.waitForTimeout(20);
    }
    if (!(await page.isVisible("#result"))) {
      await page.screenshot({ path: path.join(out, "board-failed.png"), fullPage: true });
    }
    assert.ok(await page.isVisible("#result"), `the result screen shows (${clicks} clicks; target/board-failed.png)`);
    assert.match(await page.textContent("#result"), /게임 끝/);
    assert.ok(drafted >= 1 && thrown >= 5 && moved >= 5, `drafted ${drafted}, thrown ${thrown}, moved ${moved}`);
    assert.ok((await page.$$("#log li")).length > 10, "the log lists the events");
    assert.deepEqual(errors, []);
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: path.join(out, "board.png"), fullPage: true });
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.screenshot({ path: path.join(out, "board-desktop.png") });
    console.log(`played in ${clicks} clicks (${drafted} draft, ${thrown} throws, ${moved} moves)`);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});

test("a One Card game against bots, played to the end by clicking", { timeout: 300_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await launch();
  try {
    const errors = [];
    const page = await watchedPage(browser, errors);
    await page.goto(url);
    // One Card, me against two bots of the game's preferred kind (the form's defaults).
    await page.selectOption("[name=game]", "one-card");
    await page.selectOption("[name=count]", "3");
    const kinds = await page.$$eval("[name=k1] option", (os) => os.map((o) => o.value));
    assert.ok(kinds.includes("random"), JSON.stringify(kinds));
    await page.click("button[type=submit]");
    const watchHref = await page.getAttribute("a.watch-link", "href");
    await page.click("a.seat-link");
    await page.waitForSelector("#table .oc-seat");
    assert.equal(await page.title(), "원카드 One Card");
    // A spectator sees the counts and the pile, and no hand.
    const watcher = await watchedPage(browser, errors);
    await watcher.goto(watchHref);
    await watcher.waitForSelector("#table .oc-seat");
    assert.equal(await watcher.textContent("#status"), "관전 중 (watching)");
    assert.equal(await watcher.$("#hand"), null);
    assert.equal((await watcher.$$(".oc-seat")).length, 3);
    await watcher.close();
    assert.ok(await page.isHidden("#board"), "no Yut board");
    const hand = await page.$$eval("#hand button.oc-card", (bs) => bs.map((b) => b.textContent));
    assert.equal(hand.length, 7, JSON.stringify(hand));
    const counts = await page.$$eval(".oc-seat .oc-count", (ss) => ss.map((s) => s.textContent));
    assert.deepEqual(counts, ["7장", "7장", "7장"]);
    assert.match(await page.textContent("#discard-top"), /\S/);
    assert.match(await page.textContent("#direction"), /forward/);
    const done = { card: 0, suit: 0, draw: 0, call: 0, catch: 0 };
    let shotMid = false;
    const deadline = Date.now() + (Number(process.env.PLAY_MS) || 240_000);
    while (Date.now() < deadline) {
      if (await page.isVisible("#result")) break;
      // A call first (it closes when anyone moves), then a 7's suit, a card, a draw.
      let target = null;
      for (const sel of ["#one-card", "#catch", "#suit-pick:not([hidden]) button.oc-suit", "#hand button.oc-card:not([disabled])", "#draw"]) {
        target = await page.$(sel);
        if (target) break;
      }
      if (!target) { await page.waitForTimeout(30); continue; }
      const kind = await target.evaluate((b) => b.id === "one-card" ? "call" : b.id || (b.classList.contains("oc-suit") ? "suit" : "card"));
      if (kind === "card" && !shotMid && done.card >= 2) {
        await page.screenshot({ path: path.join(out, "one-card-table.png") });
        shotMid = true;
      }
      await target.click({ timeout: 2_000 }).catch(() => {});
      done[kind] = (done[kind] ?? 0) + 1;
      // A card with a suit to pick answers at once; a move waits for its update.
      await page.waitForTimeout(kind === "card" || kind === "draw" ? 150 : 20);
    }
    if (!(await page.isVisible("#result"))) {
      await page.screenshot({ path: path.join(out, "one-card-failed.png"), fullPage: true });
    }
    assert.ok(await page.isVisible("#result"), `the result screen shows (${JSON.stringify(done)}; target/one-card-failed.png)`);
    assert.match(await page.textContent("#result"), /게임 끝/);
    const winners = await page.textContent("#result .winners");
    assert.ok(["나", "p2", "p3"].some((p) => winners.includes(p)), `winner ${winners}`);
    assert.ok(done.card + done.draw >= 3, JSON.stringify(done));
    const log0 = await page.$$eval("#log li", (lis) => lis.length);
    assert.ok(log0 > 5, `${log0} log lines`);
    const log = await page.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
    assert.ok(log.some((l) => l.includes("(played)")), JSON.stringify(log.slice(0, 5)));
    assert.ok(log.some((l) => l.includes("게임 끝")), JSON.stringify(log.slice(0, 5)));
    assert.deepEqual(errors, []);
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: path.join(out, "one-card.png"), fullPage: true });
    console.log(`One Card played: ${JSON.stringify(done)}`);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});

// Player ids that run script if the page ever parses wire text as HTML.
const HOSTILE = [
  `<img src=x onerror="window.__pwned=1">`,
  `<script>window.__pwned=2</script>`,
  `"><svg onload="window.__pwned=3">`,
];

// Nothing of the hostile ids ran or became an element on `page`.
async function assertInert(page, where) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    imgs: document.querySelectorAll("img").length,
    inlineScripts: [...document.querySelectorAll("script")].filter((s) => !s.src).length,
    handlers: [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length,
  }));
  assert.deepEqual(found, { pwned: undefined, imgs: 0, inlineScripts: 0, handlers: 0 }, where);
}

// Creates a match from the lobby's form on `page` (the standard game): `kinds[i]` is
// seat i's select value ("" for a person). Returns the links it lists, as text and href.
async function createFromLobby(page, url, players, kinds) {
  await page.goto(url);
  await page.selectOption("[name=game]", "yut");
  await page.selectOption("[name=count]", String(players.length));
  for (const [i, p] of players.entries()) {
    await page.fill(`[name=p${i}]`, p);
    await page.selectOption(`[name=k${i}]`, kinds[i]);
  }
  await page.click("button[type=submit]");
  await page.waitForSelector("#linklist li");
  return page.$$eval("#linklist li", (lis) => lis.map((li) => ({ text: li.textContent, href: li.querySelector("a").href })));
}

test("player ids that are HTML and script show as text and run nothing", { timeout: 300_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await launch();
  const trouble = [];
  try {
    const lobby = await watchedPage(browser, trouble);
    const links = await createFromLobby(lobby, url, HOSTILE, ["", "policy", "policy"]);
    // One seat (the person's) and the watch link; the player's id is text in the list.
    assert.equal(links.length, 2, JSON.stringify(links));
    assert.ok(links[0].text.startsWith(`${HOSTILE[0]}: `), links[0].text);
    const seat = new URL(links[0].href), watch = new URL(links[1].href);
    // The token rides in the fragment, which no request (nor Referer) carries.
    assert.ok(seat.hash.startsWith("#token="), seat.href);
    assert.ok(!seat.search.includes("token"), seat.href);
    assert.equal(watch.hash, "");
    await assertInert(lobby, "lobby");

    // The seat: its id in the status line, every id beside its side, and the bots'
    // moves logged under their ids once the person has thrown.
    const player = await watchedPage(browser, trouble);
    await player.goto(seat.href);
    await player.waitForSelector("#board .node");
    assert.equal(await player.textContent("#status"), `나 (me): ${HOSTILE[0]}`);
    const sides = await player.$$eval("#controls > div", (ds) => ds.map((d) => d.textContent));
    for (const [i, id] of HOSTILE.entries()) assert.ok(sides[i]?.startsWith(`● ${id}: `), JSON.stringify(sides));
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const log = await player.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
      if (log.some((l) => l.startsWith(`${HOSTILE[1]} · `)) && log.some((l) => l.startsWith(`${HOSTILE[2]} · `))) break;
      const mine = await player.$("#throw, button.move");
      if (mine) await mine.click({ timeout: 2_000 }).catch(() => {});
      await player.waitForTimeout(50);
    }
    const log = await player.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
    for (const id of HOSTILE) assert.ok(log.some((l) => l.startsWith(`${id} · `)), `${id} in the log: ${JSON.stringify(log)}`);
    await assertInert(player, "seat");

    // The watch link: the same ids, as text.
    const watcher = await watchedPage(browser, trouble);
    await watcher.goto(watch.href);
    await watcher.waitForSelector("#board .node");
    assert.equal(await watcher.textContent("#status"), "관전 중 (watching)");
    const watched = await watcher.$$eval("#controls > div", (ds) => ds.map((d) => d.textContent));
    for (const [i, id] of HOSTILE.entries()) assert.ok(watched[i]?.startsWith(`● ${id}: `), JSON.stringify(watched));
    assert.match(await watcher.textContent("#turn"), /차례 \(turn\): /);
    await assertInert(watcher, "watch");

    // An old link with the token in the query still seats its player; the address bar
    // then holds the token in the fragment only.
    const old = await watchedPage(browser, trouble);
    await old.goto(`${watch.href}&${seat.hash.slice(1)}`);
    await old.waitForSelector("#board .node");
    assert.equal(await old.textContent("#status"), `나 (me): ${HOSTILE[0]}`);
    const moved = new URL(old.url());
    assert.ok(!moved.search.includes("token") && moved.hash === seat.hash, moved.href);

    // Bots only, watched to the end: the winner's id on the result screen.
    const names = [HOSTILE[0], HOSTILE[2]];
    const [botsWatch] = await createFromLobby(lobby, url, names, ["policy", "policy"]);
    const ending = await watchedPage(browser, trouble);
    await ending.goto(botsWatch.href);
    await ending.waitForSelector("#result:not([hidden])", { timeout: 240_000 });
    const winners = await ending.textContent("#result .winners");
    assert.ok(names.includes(winners), `winner ${winners}`);
    await assertInert(ending, "result");

    assert.deepEqual(trouble, []);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});
