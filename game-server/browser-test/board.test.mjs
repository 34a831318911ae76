// The board in a real browser: Debian's Chromium driven by playwright-core opens the
// page served by the release server binary. Whole games against a bot by the two-step
// taps (phone and desktop sizes), a capture's badge and animation, reduced motion, the
// keyboard alone, two browsers playing each other, a dropped socket reconnecting, axe-core
// on the lobby, the board and the result, the sizes the design asks for; then One Card,
// and player ids that are HTML and script. Screenshots go under the workspace's target/.
// Any violation of the page's Content-Security-Policy fails the test it happens in.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const bin = process.env.SERVER_BIN ?? path.join(root, "target/release/party-games-server");
const out = path.join(root, "target");
mkdirSync(out, { recursive: true });
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

function startServer({ addr = "127.0.0.1:0", db = ":memory:", flags = [] } = {}) {
  const child = spawn(bin, ["--addr", addr, "--db", db, "--bot-delay-ms", "50", ...flags], {
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
// Motion is reduced unless asked for: the throws' 0.8 s animations are tested where they
// are the point, and would only lengthen the other games.
async function watchedPage(browser, trouble, viewport = PHONE, options = {}) {
  const page = await browser.newPage({ viewport, reducedMotion: "reduce", ...options });
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


// Serious and critical axe-core violations on `page` as it stands (axe runs through the
// DevTools protocol, as a test's evaluation: not subject to the page's CSP).
async function axe(page, where) {
  const found = await page.evaluate(`${AXE}; axe.run(document, { resultTypes: ["violations"] }).then((r) =>
    r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) })))`);
  assert.deepEqual(found, [], `${where}: ${JSON.stringify(found, null, 1)}`);
}

// Sets the lobby's form: the game, the number of players, each seat's kind ("" a
// person) and, optionally, some options by field name.
async function fillLobby(page, { game = "yut", kinds = ["", "policy"], names, options = {} }) {
  await page.selectOption("[name=game]", game);
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === "boolean") await page.setChecked(`[name=${name}]`, value);
    else await page.selectOption(`[name=${name}]`, String(value));
  }
  await page.selectOption("[name=count]", String(kinds.length));
  for (const [i, k] of kinds.entries()) {
    if (names) await page.fill(`[name=p${i}]`, names[i]);
    await page.selectOption(`[name=k${i}]`, k);
  }
}

// Creates a match from the lobby and returns the seat links and the watch link.
async function createMatch(page, url, form) {
  await page.goto(url);
  await fillLobby(page, form);
  await page.click("button[type=submit]");
  await page.waitForSelector("#linklist li");
  return {
    seats: await page.$$eval("a.seat-link", (as) => as.map((a) => a.href)),
    watch: await page.getAttribute("a.watch-link", "href"),
  };
}

// One decision of the seat on `page` by taps: a draft card, the throw button, or a move
// in two steps (a result chip, a glowing piece, the same piece again). Returns what it
// did, "over" once the result shows, or null when nothing is the seat's to do.
async function step(page, hook) {
  if (await page.isVisible("#result")) return "over";
  const card = page.locator("button.card:not([disabled])");
  if (await card.count()) { await card.first().click({ timeout: 2_000 }).catch(() => {}); return "card"; }
  const throwButton = page.locator("#throw:visible");
  if (await throwButton.count()) { await throwButton.click({ timeout: 2_000 }).catch(() => {}); return "throw"; }
  const chips = page.locator("button.chip:not([disabled])");
  if (!(await chips.count())) return null;
  try {
    await chips.first().click({ timeout: 2_000 });
    const piece = page.locator("#board .piece.glow, button.waiting.glow").first();
    await piece.click({ timeout: 2_000 });
    await page.waitForSelector("#confirm:visible", { timeout: 2_000 });
  } catch {
    // The position changed under the taps (a push): the next step looks again.
    return null;
  }
  if (hook) await hook(page);
  await page.locator("#board .piece.chosen, button.waiting.chosen").first().click({ timeout: 2_000 });
  return "move";
}

// Plays the seat on `page` until the result shows or `until()` holds, within `ms`.
async function playOut(page, { ms = 120_000, until, hook } = {}) {
  const done = { card: 0, throw: 0, move: 0 };
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (until && (await until(done))) break;
    const did = await step(page, hook);
    if (did === "over") break;
    if (did) done[did]++;
    else await page.waitForTimeout(25);
  }
  return done;
}

// The page's measured sizes: the node circles (plain and large), the chips.
async function sizes(page) {
  return page.evaluate(() => {
    const w = (els) => els.map((e) => e.getBoundingClientRect()).map((r) => Math.min(r.width, r.height));
    const plain = w([...document.querySelectorAll("#board .node:not(.corner) circle")]);
    const big = w([...document.querySelectorAll("#board .node.corner circle")]);
    const chips = w([...document.querySelectorAll("button.chip")]);
    const board = document.getElementById("board").getBoundingClientRect();
    const panel = document.getElementById("yut-panel").getBoundingClientRect();
    return { plain: Math.min(...plain), big: Math.min(...big), chips: chips.length ? Math.min(...chips) : null,
      board: { top: board.top + scrollY, bottom: board.bottom + scrollY, left: board.left, right: board.right, width: board.width, height: board.height },
      panel: { left: panel.left, top: panel.top + scrollY } };
  });
}

async function wholeGame(viewport, name, { reducedMotion = "no-preference", pieces = 4 } = {}) {
  const { child, url } = await startServer();
  const browser = await launch();
  try {
    const trouble = [];
    const page = await watchedPage(browser, trouble, viewport, { reducedMotion });
    await page.goto(url);
    assert.equal(await page.title(), "윷놀이 Yut Nori");
    await page.waitForSelector("#lobby:not([hidden])");
    // The lobby alone: nothing of the board shows before a match is joined.
    assert.ok(await page.isHidden("#game") && await page.isHidden("#help-open") && await page.isHidden("#board"));
    // The rules in force, in one line, before the match is created; it follows the form.
    const before = await page.textContent("#rules-summary");
    assert.match(before, /^규칙\(rules\): .*남\(finish\) 참먹이를 지나야\(pass\)/);
    await page.selectOption("[name=finishRule]", "reach");
    assert.match(await page.textContent("#rules-summary"), /참먹이에 닿으면\(reach\)/);
    await page.selectOption("[name=finishRule]", "pass");
    await page.selectOption("[name=pieces]", String(pieces));
    await axe(page, `${name} lobby`);
    await page.screenshot({ path: path.join(out, `${name}-lobby.png`), fullPage: true });
    // The app preset (with the draft), me against a policy bot: the form's defaults.
    await page.click("button[type=submit]");
    await page.click("a.seat-link");
    await page.waitForSelector("#board .node");
    assert.match(await page.textContent("#rules-line"), /^규칙\(rules\): /);
    // 규칙 보기: the six stick patterns drawn, the shortcuts, the finish rule in force.
    await page.click("#help-open");
    await page.waitForSelector("#help[open]");
    assert.equal(await page.locator("#help .patterns li").count(), 6);
    assert.equal(await page.locator("#help .patterns .stick").count(), 24);
    assert.match(await page.textContent("#help .finish-rule"), /^pass — /);
    assert.ok(await page.locator("#help svg.mini").count() >= 4);
    await axe(page, `${name} help`);
    await page.screenshot({ path: path.join(out, `${name}-help.png`) });
    await page.click("#help button");
    await page.waitForSelector("#help", { state: "hidden" });
    // The app preset's house rules, while they apply, and the turn's countdown.
    await page.waitForSelector("#augments:not([hidden])");
    assert.match(await page.textContent("#augments"), /첫 잡힘 완충\(cushion\) 1/);
    assert.match(await page.textContent("#augments"), /쉼 약속\(truce\) ○/);
    assert.match(await page.textContent("#timer"), /^남은 시간\(time left\) \d+초/);
    // The hint switch: the timeout policy's move, marked faintly, named in words.
    await page.check("#hint-switch");
    let shot = false, axed = false, measured = null, motion = [], hinted = 0;
    const done = await playOut(page, {
      ms: 150_000,
      hook: async (p) => {
        // A move chosen: the destination and the dashed path shown, then confirmed.
        assert.ok(await p.locator("#board .node.dest").count() + await p.locator("#board .badge.finish").count() > 0);
        if (!measured) measured = await sizes(p);
        if (/^추천\(hint\): /.test(await p.textContent("#hint-text"))) hinted++;
        if (!shot && await p.locator("#board .piece.chosen").count()) {
          // A piece on the board chosen: its destination and dashed path, the chips below.
          await p.evaluate(() => scrollTo(0, 0));
          await p.waitForTimeout(900);
          await p.screenshot({ path: path.join(out, `${name}-move.png`) });
          shot = true;
        }
        if (!axed) { await axe(p, `${name} board`); axed = true; }
        motion.push(await p.evaluate(() => document.getAnimations().length));
      },
    });
    await page.waitForSelector("#result:not([hidden])", { timeout: 10_000 }).catch(() => {});
    if (!(await page.isVisible("#result"))) await page.screenshot({ path: path.join(out, `${name}-failed.png`), fullPage: true });
    assert.ok(await page.isVisible("#result"), `the result shows (${JSON.stringify(done)}; target/${name}-failed.png)`);
    assert.match(await page.textContent("#result"), /게임 끝/);
    assert.ok(done.card >= 1 && done.throw >= 5 && done.move >= 5, JSON.stringify(done));
    assert.ok(hinted >= done.move / 2, `a hint at ${hinted} of ${done.move} moves`);
    const log = await page.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
    assert.ok(log.length > 10, "the log lists the events");
    // The log in words: no raw event name.
    for (const raw of ["gameOver", "sideFinished", "augmentFired", "augmentChosen", "augmentOffered", "turnChanged", "finishedPieces", "presenceChanged"]) {
      assert.ok(!log.some((l) => l.includes(raw)), `${raw} in ${JSON.stringify(log.slice(0, 5))}`);
    }
    assert.ok(log.some((l) => l.includes("윷 던지기(throw)")) && log.some((l) => l.includes("차례(turn) →")), JSON.stringify(log.slice(0, 5)));
    assert.ok(log.some((l) => l.startsWith("게임 끝!")), JSON.stringify(log.slice(0, 3)));
    assert.match(await page.textContent("#announce"), /\S/);
    await axe(page, `${name} result`);
    await page.screenshot({ path: path.join(out, `${name}-result.png`), fullPage: true });
    const animations = await page.evaluate(() => ({ ...document.body.dataset }));
    assert.deepEqual(trouble, []);
    console.log(`${name}: ${JSON.stringify(done)}; hints shown at ${hinted} moves; sizes ${JSON.stringify(measured)}; animations ${JSON.stringify(animations)}`);
    return { measured, animations, motion };
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
}

test("a whole game against a bot by two-step taps on a 390×844 phone", { timeout: 200_000 }, async () => {
  const { measured, animations } = await wholeGame(PHONE, "board-phone");
  // Node circles at least 48 px across, corners and the centre larger; chips 64 px.
  assert.ok(measured.plain >= 48 && measured.big > measured.plain, JSON.stringify(measured));
  assert.ok(measured.chips >= 64, JSON.stringify(measured));
  // A square board in the top two thirds of the screen.
  assert.ok(Math.abs(measured.board.width - measured.board.height) < 1, JSON.stringify(measured));
  assert.ok(measured.board.bottom <= (PHONE.height * 2) / 3 + 60, JSON.stringify(measured));
  // The sticks spun and pieces hopped.
  assert.ok(Number(animations.animThrow) > 0 && Number(animations.animHop) > 0, JSON.stringify(animations));
});

test("a whole game at 1280×800 with prefers-reduced-motion: no animation", { timeout: 200_000 }, async () => {
  const { measured, animations, motion } = await wholeGame(DESKTOP, "board-desktop", { reducedMotion: "reduce", pieces: 3 });
  assert.ok(measured.plain >= 48 && measured.big > measured.plain && measured.chips >= 64, JSON.stringify(measured));
  // Desktop: the board on the left, the panel on its right.
  assert.ok(measured.board.width >= 500 && measured.panel.left >= measured.board.right, JSON.stringify(measured));
  assert.equal(animations.animations, undefined, JSON.stringify(animations));
  assert.ok(motion.every((n) => n === 0), `running animations: ${motion}`);
});

// Tries every result chip and every glowing piece of the seat on `page` until a
// destination shows the capture badge; true if one does (left chosen).
async function findCapture(page) {
  const chips = page.locator("button.chip:not([disabled])");
  const n = await chips.count();
  for (let i = 0; i < n; i++) {
    await chips.nth(i).click({ timeout: 2_000 });
    const pieces = page.locator("#board .piece.glow, button.waiting.glow");
    const k = await pieces.count();
    for (let j = 0; j < k; j++) {
      await pieces.nth(j).click({ timeout: 2_000 });
      if (await page.locator("#board .badge.capture").count()) return true;
    }
  }
  return false;
}

// A match created by a request on the page's own socket, as a client would send it (the
// lobby offers no seed); returns the reply with the seat links.
async function createByRequest(page, url, req) {
  await page.goto(url);
  const created = await page.evaluate((req) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    ws.onopen = () => ws.send(JSON.stringify({ ...req, op: "create", id: 1 }));
    ws.onmessage = (e) => { const r = JSON.parse(e.data); if (r.id === 1) { ws.close(); resolve(r); } };
    ws.onerror = () => reject(new Error("socket error"));
  }), req);
  assert.equal(created.ok, true, JSON.stringify(created));
  const seat = (s) => `${new URL("/", url).href}?${new URLSearchParams({ match: created.match })}#${new URLSearchParams({ token: s.token })}`;
  return { ...created, links: Object.fromEntries(created.seats.map((s) => [s.player, seat(s)])) };
}

test("a capture shows 잡기! with a red ring, and the captured stack flies back", { timeout: 200_000 }, async () => {
  // Seed 2 with these options (the policy bot draws nothing at random): "me" throws 걸 and
  // enters a piece, the bot throws 개 and enters one, "me" throws 개: entering captures.
  const { child, url } = await startServer({ flags: ["--allow-seed"] });
  const browser = await launch();
  try {
    const trouble = [];
    const page = await watchedPage(browser, trouble, PHONE, { reducedMotion: "no-preference" });
    const { links } = await createByRequest(page, url, {
      game: "yut", players: ["me", "bot"], bots: { bot: "policy" }, seed: 2,
      options: { pieces: 5, turnSeconds: null },
    });
    await page.goto(links.me);
    await page.waitForSelector("#board .node");
    // Each throw waits for its result chips, so that no tap lands on a board still
    // animating the throw (a step counted then would play the capture itself).
    const chips = page.locator("button.chip:not([disabled])");
    const throwAndWait = async () => {
      await page.locator("#throw:visible").click({ timeout: 20_000 });
      await chips.first().waitFor({ timeout: 10_000 });
    };
    await throwAndWait();
    await chips.first().click({ timeout: 2_000 });
    await page.locator("#board .piece.glow, button.waiting.glow").first().click({ timeout: 2_000 });
    await page.waitForSelector("#confirm:visible", { timeout: 2_000 });
    await page.locator("#board .piece.chosen, button.waiting.chosen").first().click({ timeout: 2_000 });
    // The bot throws and enters; then "me" throws again.
    await throwAndWait();
    const found = await findCapture(page);
    assert.ok(found, "the seeded position offers a capture after the second throw");
    assert.equal(await page.textContent("#board .badge.capture"), "잡기!");
    assert.equal(await page.locator("#board .node.dest.capture").count(), 1);
    const ring = await page.$eval("#board .node.dest.capture circle", (c) => getComputedStyle(c).stroke);
    assert.equal(ring, "rgb(179, 38, 30)");
    await page.screenshot({ path: path.join(out, "board-capture.png") });
    await page.locator("#board .piece.chosen, button.waiting.chosen").first().click();
    await page.waitForFunction(() => Number(document.body.dataset.animCapture) > 0, null, { timeout: 5_000 });
    // Mid-flight: the captured stack on its way back to waiting.
    assert.ok(await page.locator("#board .piece.ghost.captured").count() >= 1);
    await page.screenshot({ path: path.join(out, "board-capture-flying.png") });
    const log = await page.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
    assert.ok(log.some((l) => l.startsWith("잡기!")), JSON.stringify(log.slice(0, 6)));
    assert.match(await page.textContent("#announce"), /잡기!/);
    assert.deepEqual(trouble, []);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});

// Presses Tab until the focused element matches `selector` (at most `most` presses).
async function tabTo(page, selector, most = 80) {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}

test("the keyboard alone throws and makes a move", { timeout: 120_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await launch();
  try {
    const trouble = [];
    const page = await watchedPage(browser, trouble, DESKTOP);
    const { seats } = await createMatch(page, url, { game: "yut", kinds: ["", "policy"] });
    await page.goto(seats[0]);
    await page.waitForSelector("#board .node");
    const movedBefore = () => page.$$eval("#log li", (lis) => lis.filter((li) => / 나 .*: 말/.test(li.textContent)).length);
    const deadline = Date.now() + 60_000;
    let moved = false;
    while (Date.now() < deadline && !moved) {
      if (await page.locator("#throw:visible").count()) {
        assert.ok(await tabTo(page, "#throw"), "Tab reaches the throw button");
        await page.keyboard.press("Enter");
        await page.waitForTimeout(150);
        // The sticks shown are those of the latest throw the log words.
        const [shown, logged] = await page.evaluate(() => [
          [...document.querySelectorAll("#sticks svg.stick")].map((s, i) => (s.classList.contains("flat") ? "배" : "등") + (i ? "" : "*")).join(" "),
          /윷 던지기\(throw\) \[([^\]]*)\]/.exec([...document.querySelectorAll("#log li")].map((li) => li.textContent).find((l) => /윷 던지기\(throw\) \[/.test(l)) ?? "")?.[1],
        ]);
        assert.equal(shown, logged);
        continue;
      }
      if (!(await page.locator("button.chip:not([disabled])").count())) { await page.waitForTimeout(50); continue; }
      const before = await movedBefore();
      assert.ok(await tabTo(page, "button.chip:not([disabled])"), "Tab reaches a result chip");
      await page.keyboard.press("Enter");
      assert.ok(await tabTo(page, ".piece.glow, button.waiting.glow"), "Tab reaches a glowing piece");
      await page.keyboard.press("Enter");
      await page.waitForSelector("#confirm:visible");
      await page.screenshot({ path: path.join(out, "board-keyboard.png") });
      // The focus stays on the chosen piece: Enter again confirms.
      assert.ok(await page.evaluate(() => document.activeElement?.matches(".chosen")), "the chosen piece keeps the focus");
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => [...document.querySelectorAll("#log li")].filter((li) => / 나 .*: 말/.test(li.textContent)).length > n, before, { timeout: 5_000 });
      moved = true;
    }
    assert.ok(moved, "a move made by the keyboard");
    assert.deepEqual(trouble, []);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});

test("two browsers play each other through their seat links", { timeout: 200_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await launch();
  try {
    const trouble = [];
    const lobby = await watchedPage(browser, trouble);
    const { seats, watch } = await createMatch(lobby, url, { game: "yut", kinds: ["", ""], names: ["ann", "bo"], options: { pieces: 2 } });
    // A spectator, on the lobby's page: the grace shows there as well.
    await lobby.goto(watch);
    await lobby.waitForSelector("#board .node");
    // Two contexts: two separate browsers' worth of state.
    const pages = [];
    for (const [i, href] of seats.entries()) {
      const context = await browser.newContext({ viewport: i ? DESKTOP : PHONE, reducedMotion: "reduce" });
      const page = await context.newPage();
      page.on("pageerror", (e) => trouble.push(`page error: ${e}`));
      await page.goto(href);
      await page.waitForSelector("#board .node");
      pages.push(page);
    }
    assert.equal(await pages[0].textContent("#status"), "나 (me): ann");
    assert.equal(await pages[1].textContent("#status"), "나 (me): bo");
    const done = [{ card: 0, throw: 0, move: 0 }, { card: 0, throw: 0, move: 0 }];
    const deadline = Date.now() + 150_000;
    let left = false;
    while (Date.now() < deadline) {
      if (!left && done[0].move + done[1].move >= 4 && await pages[1].locator("#throw:visible").count()) {
        // bo closes the page on their turn: ann sees them away and the grace before the
        // engine plays for them; bo's link brings them back.
        left = true;
        await pages[1].context().close();
        await pages[0].waitForFunction(() => /bo: 연결 끊김\(disconnected\)/.test(document.getElementById("tray").textContent), null, { timeout: 10_000 });
        assert.match(await pages[0].textContent("#timer"), /bo 연결 끊김 — 유예\(grace\) [1-5]초/);
        await lobby.waitForFunction(() => /bo 연결 끊김 — 유예\(grace\) [1-5]초/.test(document.getElementById("timer").textContent), null, { timeout: 5_000 });
        await pages[0].screenshot({ path: path.join(out, "board-away.png") });
        const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: "reduce" });
        pages[1] = await context.newPage();
        pages[1].on("pageerror", (e) => trouble.push(`page error: ${e}`));
        await pages[1].goto(seats[1]);
        await pages[1].waitForSelector("#board .node");
        await pages[0].waitForFunction(() => !/연결 끊김/.test(document.getElementById("tray").textContent), null, { timeout: 10_000 });
        assert.ok((await pages[0].$$eval("#log li", (lis) => lis.map((li) => li.textContent))).some((l) => l === "bo: 돌아왔어요(back)"));
      }
      if (await pages[0].isVisible("#result") && await pages[1].isVisible("#result")) break;
      let any = false;
      for (const [i, page] of pages.entries()) {
        const did = await step(page);
        if (did && did !== "over") { done[i][did]++; any = true; }
      }
      if (!any) await pages[0].waitForTimeout(25);
    }
    assert.ok(await pages[0].isVisible("#result") && await pages[1].isVisible("#result"), JSON.stringify(done));
    assert.ok(left, "bo left mid-game and came back");
    assert.equal(await pages[0].textContent("#result .winners"), await pages[1].textContent("#result .winners"));
    assert.ok(done[0].move >= 2 && done[1].move >= 2, JSON.stringify(done));
    await pages[1].screenshot({ path: path.join(out, "board-two-players.png") });
    assert.deepEqual(trouble, []);
    console.log(`two players: ${JSON.stringify(done)}`);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});

test("two teams of two, and three players ranked to the last, drawn and played", { timeout: 200_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await launch();
  try {
    const trouble = [];
    const page = await watchedPage(browser, trouble);
    // Teams: 청팀 and 홍팀, seats alternating; the person plays for 청팀 with a bot.
    const team = await createMatch(page, url, { game: "yut", kinds: ["", "policy", "policy", "policy"], options: { mode: "team", pieces: 2 } });
    assert.match(await page.textContent("#rules-summary"), /팀전\(team\)/);
    await page.goto(team.seats[0]);
    await page.waitForSelector("#board .node");
    assert.deepEqual(await page.$$eval("#tray .side-name", (ns) => ns.map((n) => n.textContent)), ["청팀", "홍팀"]);
    const members = await page.$$eval("#tray .side-row small", (ns) => ns.map((n) => n.textContent));
    assert.ok(members[0].includes("나") && members.length >= 2, JSON.stringify(members));
    const teamDone = await playOut(page, { ms: 90_000 });
    assert.ok(await page.isVisible("#result"), JSON.stringify(teamDone));
    await page.screenshot({ path: path.join(out, "board-teams.png"), fullPage: true });

    // Three players, every place played out: three shapes, three places.
    const three = await createMatch(page, url, { game: "yut", kinds: ["", "policy", "policy"], options: { ranking: "all", pieces: 2 } });
    await page.goto(three.seats[0]);
    await page.waitForSelector("#board .node");
    assert.deepEqual(await page.$$eval("#tray svg.shape", (ss) => ss.map((s) => s.getAttribute("class"))), ["shape side0", "shape side1", "shape side2"]);
    const threeDone = await playOut(page, { ms: 90_000 });
    assert.ok(await page.isVisible("#result"), JSON.stringify(threeDone));
    assert.equal(await page.locator("#result .ranking li").count(), 3);
    await page.screenshot({ path: path.join(out, "board-three.png"), fullPage: true });
    assert.deepEqual(trouble, []);
  } finally {
    await browser.close();
    child.kill("SIGTERM");
  }
});

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

test("a socket dropped mid-game reconnects by itself and the game goes on", { timeout: 200_000 }, async () => {
  const db = path.join(out, "browser-reconnect.sqlite");
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  const addr = `127.0.0.1:${await freePort()}`;
  let server = await startServer({ addr, db });
  const browser = await launch();
  try {
    const trouble = [];
    const page = await watchedPage(browser, trouble);
    const { seats } = await createMatch(page, server.url, { game: "yut", kinds: ["", "policy"], options: { pieces: 2 } });
    await page.goto(seats[0]);
    await page.waitForSelector("#board .node");
    const first = await playOut(page, { until: (d) => d.move >= 2 });
    assert.ok(first.move >= 2, JSON.stringify(first));
    // The server goes away (every socket closed) and comes back on the same address and
    // database: the page reconnects with its seat's token and resumes from the view.
    const exited = new Promise((r) => server.child.once("exit", r));
    server.child.kill("SIGTERM");
    await exited;
    await page.waitForFunction(() => document.body.dataset.connection === "reconnecting", null, { timeout: 10_000 });
    assert.match(await page.textContent("#connection"), /다시 연결/);
    await page.screenshot({ path: path.join(out, "board-reconnecting.png") });
    server = await startServer({ addr, db });
    await page.waitForFunction(() => document.body.dataset.connection === "open", null, { timeout: 20_000 });
    assert.ok(await page.isHidden("#connection"));
    const rest = await playOut(page, { ms: 120_000 });
    assert.ok(await page.isVisible("#result"), `the game went on to its end (${JSON.stringify(rest)})`);
    // The browser reports the failed tries to connect while the server was down.
    assert.deepEqual(trouble.filter((t) => !/WebSocket connection to .* failed/.test(t)), []);
  } finally {
    await browser.close();
    server.child.kill("SIGTERM");
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
    const sides = await player.$$eval("#tray .side-name", (ds) => ds.map((d) => d.textContent));
    assert.deepEqual(sides, HOSTILE);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const log = await player.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
      if (log.some((l) => l.includes(`${HOSTILE[1]} 윷 던지기`)) && log.some((l) => l.includes(`${HOSTILE[2]} 윷 던지기`))) break;
      if (!(await step(player))) await player.waitForTimeout(50);
    }
    const log = await player.$$eval("#log li", (lis) => lis.map((li) => li.textContent));
    for (const id of HOSTILE) assert.ok(log.some((l) => l.includes(` ${id} 윷 던지기`)), `${id} in the log: ${JSON.stringify(log)}`);
    await assertInert(player, "seat");

    // The watch link: the same ids, as text.
    const watcher = await watchedPage(browser, trouble);
    await watcher.goto(watch.href);
    await watcher.waitForSelector("#board .node");
    assert.equal(await watcher.textContent("#status"), "관전 중 (watching)");
    const watched = await watcher.$$eval("#tray .side-name", (ds) => ds.map((d) => d.textContent));
    assert.deepEqual(watched, HOSTILE);
    assert.match(await watcher.textContent("#turn"), /차례\(turn\): /);
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
