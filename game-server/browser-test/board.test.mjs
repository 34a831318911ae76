// The board in a real browser: Debian's Chromium driven by playwright-core opens the
// page served by the release server binary, creates a match against a bot, plays it to
// the end by clicking, and saves screenshots under the workspace's target/.
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

test("a match against a bot, played to the end by clicking", { timeout: 300_000 }, async () => {
  const { child, url } = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e));
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
