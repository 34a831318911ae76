// The board: talks the server's WebSocket protocol (games, create, hello, watch, act,
// legal, hint) and draws the match from each `update` push's view: the Yut board, or One
// Card's table (onecard.js). Every text from the wire (player ids, match ids, events,
// errors, augments) is set as text, never parsed as HTML: a player may be named
// `<img onerror=...>`.
import { NODES, LINES, DIAGONALS, THROWS } from "/nodes.js";
import * as W from "/words.js";
import { drawTable, logLine, turnLine, winners as oneCardWinners } from "/onecard.js";
import { helpDialog, stickFace } from "/help.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const params = new URLSearchParams(location.search);
// A seat's token rides in the fragment (`#token=`), which no request carries: not to the
// server, not in a Referer. Links with `?token=` keep working.
const fragment = new URLSearchParams(location.hash.slice(1));
let ws = null, nextId = 1;
const waiting = new Map();
let view = null, actions = [], me = null, matchId = null, token = null, game = null;
// The match's status as the last `hello`, `watch` or `hint` reply or push gave it (its
// turnSeq and nextTickAt: a disconnected player's grace).
let matchStatus = null;
// The timeout policy's choice for this seat (the `hint` op), shown when the switch is on.
let hint = null;
// The two-step move: the result chip chosen (its index in `pending`), then the piece
// (its origin: a node or "home"); the same piece again confirms.
const sel = { chip: null, from: null };
// The bot kinds each game offers (the server's `games` reply), its preferred first.
let botKinds = {};
const reduced = matchMedia("(prefers-reduced-motion: reduce)");

// ---- the socket ------------------------------------------------------------------------
// Opens a socket; resolves true once open, false if it closed first.
function connect() {
  return new Promise((resolve) => {
    const s = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    let opened = false;
    s.onopen = () => { opened = true; ws = s; resolve(true); };
    s.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.push === "update") return onUpdate(msg);
      if (msg.push === "closed") return connection(`게임이 닫혔어요 (match closed: ${msg.why})`);
      const done = waiting.get(msg.id);
      if (done) { waiting.delete(msg.id); done(msg); }
    };
    s.onclose = () => {
      if (!opened) return resolve(false);
      if (ws !== s) return;
      ws = null;
      // Requests that will never be answered fail now, so nothing waits for ever.
      for (const done of waiting.values()) done({ ok: false, error: { code: "DISCONNECTED", message: "연결 끊김 (disconnected)" } });
      waiting.clear();
      reconnect();
    };
  });
}

function request(req) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    return Promise.resolve({ ok: false, error: { code: "DISCONNECTED", message: "연결 끊김 (disconnected)" } });
  }
  const id = nextId++;
  return new Promise((resolve) => { waiting.set(id, resolve); ws.send(JSON.stringify({ ...req, id })); });
}

let reconnecting = false;
// A dropped socket opens again by itself, waiting longer after each failed try, and
// takes its seat back with its token (or watches again): the server's reply carries the
// current view, from which the board goes on.
async function reconnect() {
  if (reconnecting) return;
  reconnecting = true;
  document.body.dataset.connection = "reconnecting";
  connection("연결 끊김 — 다시 연결하는 중 (disconnected — reconnecting…)");
  let wait = 250;
  for (;;) {
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 4000);
    if (!(await connect())) continue;
    if (!matchId) {
      document.body.dataset.connection = "open";
      connection("");
      break;
    }
    const r = await rejoin();
    if (r.ok || r.error?.code !== "DISCONNECTED" && r.error?.code !== "UNAVAILABLE") break;
  }
  reconnecting = false;
}

function connection(text) {
  $("connection").textContent = text;
  $("connection").hidden = !text;
}

// `hello` with the seat's token, or `watch`; the reply's view is drawn as an update.
async function rejoin() {
  const r = token ? await request({ op: "hello", match: matchId, token }) : await request({ op: "watch", match: matchId });
  if (!r.ok) {
    connection(`${r.error.message} (${r.error.code})`);
    return r;
  }
  document.body.dataset.connection = "open";
  connection("");
  me = r.player ?? null;
  game = r.game;
  matchStatus = r;
  await onUpdate({ view: r.view, events: [], over: r.over });
  return r;
}

// ---- small helpers ---------------------------------------------------------------------
// An HTML element with its attributes (set as values, not markup) and children (nodes,
// or strings appended as text).
function h(name, attrs = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent?.append(e);
  return e;
}

function status(text) { $("status").textContent = text; }

// An SVG path of a side's shape around (x, y): circle, triangle, square, star.
function shapePath(side, x, y, r) {
  const pts = (n, inner) => {
    const out = [];
    for (let i = 0; i < n * (inner ? 2 : 1); i++) {
      const a = -Math.PI / 2 + (i * Math.PI * 2) / (n * (inner ? 2 : 1));
      const rr = inner && i % 2 ? r * inner : r;
      out.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
    }
    return `M${out.join("L")}Z`;
  };
  switch (side % 4) {
    case 0: return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
    case 1: return pts(3);
    case 2: return `M${x - r * 0.85},${y - r * 0.85}h${r * 1.7}v${r * 1.7}h${-r * 1.7}Z`;
    default: return pts(5, 0.45);
  }
}

// A small SVG of a side's shape, for the HTML panels.
function shapeIcon(side, size = 22) {
  const svg = el("svg", { class: `shape side${side % 4}`, viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true" });
  el("path", { d: shapePath(side, 12, 13, 10) }, svg);
  return svg;
}

const sideOf = (v, player) => (v?.sides ?? []).findIndex((s) => s.members?.includes(player));
const animating = () => !reduced.matches;

// ---- lobby -----------------------------------------------------------------------------
// The lobby's games: the game id, the base options the form starts from, player counts.
const GAMES = {
  // The app preset: fair sticks, a backdo from 도 goes home, the whole augment pack.
  app: { game: "yut-augments", yut: true, augments: true, base: { stickModel: "fair", backdoFromDo: "home", cushion: true, truce: true } },
  yut: { game: "yut", yut: true, base: {} },
  "one-card": { game: "one-card", players: [2, 3, 4, 5] },
};
const DEFAULTS = {
  mode: "individual", pieces: 4, stickModel: "realistic", backdo: true, backdoFromDo: "chammeogi",
  finishRule: "pass", nakPercent: 0, backdoCaptureBonus: true, ranking: "first", turnSeconds: 30,
};
const form = () => $("create");
const chosenGame = () => GAMES[form().elements.game.value] ?? GAMES.yut;

// The options the form sets, in the wire format (null for a game without options).
function formOptions() {
  const g = chosenGame();
  if (!g.yut) return null;
  const f = form().elements;
  const o = {
    mode: f.mode.value,
    pieces: Number(f.pieces.value),
    stickModel: f.stickModel.value,
    backdo: f.backdo.checked,
    backdoFromDo: f.backdoFromDo.value,
    finishRule: f.finishRule.value,
    nakPercent: Number(f.nakPercent.value),
    backdoCaptureBonus: f.backdoCaptureBonus.checked,
    ranking: f.ranking.value,
    turnSeconds: f.turnSeconds.value ? Number(f.turnSeconds.value) : null,
  };
  if (g.augments) {
    o.augments = [...form().querySelectorAll("[name=augment]:checked")].map((c) => c.value);
    o.cushion = f.cushion.checked;
    o.truce = f.truce.checked;
  }
  return o;
}

// The form's option fields at the defaults of the chosen game (the app preset's base).
function resetOptions() {
  const g = chosenGame();
  const f = form().elements;
  const o = { ...DEFAULTS, ...(g.base ?? {}) };
  for (const [k, v] of Object.entries(o)) {
    if (!f[k]) continue;
    if (f[k].type === "checkbox") f[k].checked = v;
    else f[k].value = v === null ? "" : String(v);
  }
  $("yut-options").hidden = !g.yut;
  $("augment-options").hidden = !g.augments;
  countForm();
}

// The player counts the chosen game and mode take (the count kept when it still fits).
function countForm() {
  const count = form().elements.count;
  const g = chosenGame();
  const counts = g.players ?? (form().elements.mode.value === "team" ? [4, 6, 8] : [2, 3, 4]);
  const was = count.value;
  count.replaceChildren(...counts.map((n) => h("option", {}, String(n))));
  if (counts.map(String).includes(was)) count.value = was;
  seatsForm();
}

function seatsForm() {
  const n = Number(form().elements.count.value);
  const kinds = botKinds[chosenGame().game] ?? ["random"];
  // The seats after the first are bots of the game's preferred kind (policy where there
  // is one).
  const preferred = kinds.includes("policy") ? "policy" : kinds[0];
  const was = [...$("seats").querySelectorAll("input")].map((i) => i.value);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const options = kinds.map((k) => {
      const o = h("option", { value: k }, `봇(bot) ${k}`);
      o.selected = i > 0 && k === preferred;
      return o;
    });
    rows.push(h("div", { class: "seat" },
      h("input", { name: `p${i}`, value: was[i] ?? (i === 0 ? "나" : "p" + (i + 1)), "aria-label": `자리 ${i + 1} 이름 (seat ${i + 1} name)` }),
      h("select", { name: `k${i}`, "aria-label": `자리 ${i + 1} 종류 (seat ${i + 1} kind)` },
        h("option", { value: "" }, "사람 (human)"), ...options)));
  }
  $("seats").replaceChildren(...rows);
  summary();
}

// The rules in force, in one line, before the match is created.
function summary() {
  const o = formOptions();
  $("rules-summary").textContent = o
    ? W.rulesLine(o, chosenGame().augments ? o : null)
    : "원카드 (One Card): 규칙은 게임에 정해져 있어요 (the game's own rules)";
}

function augmentChoices() {
  const boxes = Object.entries(W.AUGMENTS).map(([id, [ko, gloss]]) => {
    const box = h("input", { type: "checkbox", name: "augment", value: id });
    box.checked = true;
    return h("label", { class: "check" }, box, ` ${ko} `, h("small", {}, `(${gloss})`));
  });
  $("augment-list").replaceChildren(...boxes);
}

async function lobby() {
  const g = await request({ op: "games" });
  if (g.ok) botKinds = g.bots ?? {};
  const select = form().elements.game;
  for (const option of [...select.options]) {
    if (g.ok && !g.games.includes(GAMES[option.value]?.game)) option.remove();
  }
  augmentChoices();
  resetOptions();
  select.onchange = resetOptions;
  form().elements.mode.onchange = countForm;
  form().elements.count.onchange = seatsForm;
  form().oninput = summary;
  form().onchange = (e) => { if (e.target.name !== "game" && e.target.name !== "mode" && e.target.name !== "count") summary(); };
  form().onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(form());
    const n = Number(f.get("count"));
    const players = [], bots = {};
    for (let i = 0; i < n; i++) {
      const p = String(f.get("p" + i)).trim() || "p" + (i + 1);
      players.push(p);
      if (f.get("k" + i)) bots[p] = f.get("k" + i);
    }
    const req = { op: "create", game: chosenGame().game, players, bots };
    const options = formOptions();
    if (options) req.options = options;
    const r = await request(req);
    if (!r.ok) return status(`${r.error.message} (${r.error.code})`);
    status("");
    $("links").hidden = false;
    const watch = `${location.origin}/?${new URLSearchParams({ match: r.match })}`;
    const items = r.seats.map((s) => {
      const url = `${watch}#${new URLSearchParams({ token: s.token })}`;
      return h("li", {}, `${s.player}: `, h("a", { class: "seat-link", href: url }, url));
    });
    items.push(h("li", {}, "관전 (watch): ", h("a", { class: "watch-link", href: watch }, watch)));
    $("linklist").replaceChildren(...items);
  };
  // Shown once the form works: a click before would submit it as a plain form.
  $("lobby").hidden = false;
}

// ---- the game --------------------------------------------------------------------------
async function join() {
  matchId = params.get("match");
  token = fragment.get("token") ?? params.get("token");
  if (params.has("token")) {
    // An old `?token=` link: the address bar (and so a reload or a bookmark) gets the
    // fragment form, which sends the token nowhere.
    params.delete("token");
    history.replaceState(null, "", `?${params}#${new URLSearchParams({ token })}`);
  }
  const r = await rejoin();
  if (!r.ok) return status(`${r.error.message} (${r.error.code})`);
  if (game === "one-card") {
    document.title = "원카드 One Card";
    $("title").replaceChildren("원카드 ", h("small", {}, "One Card"));
    // An SVG element has no `hidden` property: its style, through the CSSOM.
    $("board").style.display = "none";
    $("table").hidden = false;
    $("yut-panel").hidden = true;
  } else {
    $("help-open").onclick = () => helpDialog($("help"), view);
    $("hint-switch").onchange = () => render();
    setInterval(tickClock, 250);
  }
  $("game").hidden = false;
}

let updates = 0;
async function onUpdate(msg) {
  // The view and the legal actions change together, and only for the latest update: a
  // click then always sends an action of the position it was drawn from, with its turnSeq.
  const mine = ++updates;
  const before = view;
  for (const e of msg.events ?? []) {
    // An event the log cannot word must not stop the board from following the match.
    try { logEvent(e, msg.view); } catch (err) { console.warn(err); }
  }
  if (game !== "one-card") announce(msg.events ?? [], msg.view);
  let next = [], st = null;
  if (me && !msg.over) {
    const asks = [request({ op: "legal", match: matchId })];
    if (game !== "one-card") asks.push(request({ op: "hint", match: matchId }));
    const [l, hi] = await Promise.all(asks);
    if (l.ok) next = l.actions;
    if (hi?.ok) st = hi;
  }
  if (mine !== updates) return;
  view = msg.view;
  actions = next;
  // A push says when the engine acts next by itself (a spectator asks no hint).
  if (msg.push === "update") matchStatus = { ...matchStatus, turnSeq: msg.turnSeq, nextTickAt: msg.nextTickAt ?? null };
  if (st) { matchStatus = st; hint = st.hint ?? null; } else hint = null;
  sel.chip = null;
  sel.from = null;
  render();
  if (game !== "one-card" && before) play(msg.events ?? []);
}

function logEvent(e, v) {
  const li = document.createElement("li");
  li.textContent = game === "one-card" ? logLine(e) : W.eventLine(e, v);
  $("log").prepend(li);
  // The log keeps its latest lines: a long match must not grow the page without bound.
  while ($("log").childElementCount > 300) $("log").lastElementChild.remove();
}

// Events worth saying aloud, in words, through the page's `aria-live` region.
const SPOKEN = new Set(["thrown", "nak", "moved", "captured", "stacked", "finishedPieces", "turnChanged",
  "sideFinished", "gameOver", "augmentChosen", "augmentFired", "discarded", "presenceChanged"]);
function announce(events, v) {
  const lines = events.filter((e) => SPOKEN.has(e.type)).map((e) => {
    if (e.type === "turnChanged" && me && v?.players?.[e.seat] === me) return "내 차례예요 (your turn)";
    return W.eventLine(e, v);
  });
  if (lines.length) $("announce").textContent = lines.slice(-4).join(" / ");
}

function render() {
  if (!view) return;
  if (game === "one-card") {
    status(me ? `나 (me): ${me}` : "관전 중 (watching)");
    $("turn").textContent = turnLine(view, me);
    drawTable($("table"), view, actions, act);
    drawResult();
    return;
  }
  // A rebuilt board keeps the keyboard's place: the element with the same key regains
  // the focus.
  const focused = document.activeElement?.dataset?.key;
  status(me ? `나 (me): ${me}` : "관전 중 (watching)");
  $("rules-line").textContent = W.rulesLine(view.options, null);
  const turn = view.turn;
  const mySide = sideOf(view, me);
  $("turn").replaceChildren();
  if (view.result) $("turn").append("게임 끝 (game over)");
  else if (turn) {
    $("turn").append("차례(turn): ", shapeIcon(turn.side, 18), ` ${view.sides[turn.side]?.name ?? ""}`,
      view.options.mode === "team" ? ` · ${turn.player}` : "",
      turn.player === me ? " — 내 차례 (your turn)" : "");
  }
  drawBoard();
  drawChips(mySide);
  drawTray(mySide);
  drawDraft();
  drawAugments();
  drawResult();
  tickClock();
  if (focused) document.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

// The legal MOVE actions with their preview (destination, path, badges) from the view's
// legalMoves.
function moves() {
  return actions.filter((a) => a.type === "MOVE").map((a) => ({
    action: a,
    info: (view.legalMoves ?? []).find((m) => m.throwIndex === a.throwIndex && String(m.from) === String(a.from)),
  }));
}

// The chip in force: the one chosen, else the only result there is to use.
function activeChip() {
  if (sel.chip !== null) return sel.chip;
  const used = new Set(moves().map((m) => m.action.throwIndex));
  return used.size === 1 ? [...used][0] : null;
}

// The move the two steps have chosen so far (chip and piece), if any.
function chosenMove() {
  const chip = activeChip();
  if (chip === null || sel.from === null) return null;
  return moves().find((m) => m.action.throwIndex === chip && String(m.action.from) === sel.from) ?? null;
}

// The origins that can use the chip in force: they glow.
function glowing() {
  const chip = activeChip();
  return new Set(chip === null ? [] : moves().filter((m) => m.action.throwIndex === chip).map((m) => String(m.action.from)));
}

function choosePiece(from) {
  if (!glowing().has(from)) return;
  if (sel.from === from) return confirmMove();
  sel.chip = activeChip();
  sel.from = from;
  render();
}

function confirmMove() {
  const m = chosenMove();
  if (m) act(m.action);
}

// The point off the board where a finishing move leaves (beside 참먹이).
const EXIT = [585, 590];
const xy = (n) => (typeof n === "number" && NODES[n] ? NODES[n].xy : EXIT);

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  for (const [a, b] of LINES) { const [x1, y1] = xy(a), [x2, y2] = xy(b); el("line", { class: "edge", x1, y1, x2, y2 }, svg); }
  for (const d of DIAGONALS) { const [x1, y1] = xy(d[0]), [x2, y2] = xy(d[d.length - 1]); el("line", { class: "edge", x1, y1, x2, y2 }, svg); }
  const chosen = chosenMove();
  const hinted = $("hint-switch").checked ? hintMove() : null;
  const preview = (m, cls) => {
    const pts = m.info.path.map((n) => xy(n).join(","));
    if (m.info.to === "goal") pts.push(EXIT.join(","));
    if (pts.length > 1) el("polyline", { class: cls, points: pts.join(" ") }, svg);
  };
  const dest = chosen?.info ? chosen.info.to : undefined;
  for (const n of NODES) {
    const cls = ["node"];
    if (n.r > 40) cls.push("corner");
    if (dest === n.id) cls.push("dest");
    if (dest === n.id && chosen.info.captures > 0) cls.push("capture");
    if (hinted?.info?.to === n.id) cls.push("hinted");
    const g = el("g", { class: cls.join(" "), "data-node": n.id }, svg);
    const [x, y] = n.xy;
    el("circle", { cx: x, cy: y, r: n.r }, g);
    // The names are drawn for the eye; a node that can be pressed says them in its label.
    el("text", { x, y: y + 2, "aria-hidden": "true" }, g).textContent = n.ko;
    el("text", { x, y: y + 18, class: "ro", "aria-hidden": "true" }, g).textContent = n.ro;
    if (dest === n.id) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.dataset.key = `dest`;
      el("title", {}, g).textContent = `${n.ko} ${n.ro} (${n.id}) 도착 — 눌러서 확정 (destination: press to confirm)`;
      g.onclick = confirmMove;
      g.onkeydown = keyActivate(confirmMove);
    }
  }
  // Over the nodes, under the pieces: the path stays visible where it crosses a node.
  if (hinted?.info && hinted !== chosen) preview(hinted, "path hint");
  if (chosen?.info) preview(chosen, "path");
  drawPieces(svg);
  if (chosen?.info) drawBadges(svg, chosen.info);
}

function hintMove() {
  if (!hint || hint.type !== "MOVE") return null;
  return moves().find((m) => m.action.throwIndex === hint.throwIndex && String(m.action.from) === String(hint.from)) ?? null;
}

// The badges of a destination: 잡기! (a capture), 업기 (stacking), 날! (finishing).
function drawBadges(svg, info) {
  const words = [];
  if (info.captures > 0) words.push(["capture", "잡기!"]);
  if (info.stacks) words.push(["stack", "업기"]);
  if (info.finishes) words.push(["finish", "날!"]);
  const [x, y] = typeof info.to === "number" ? xy(info.to) : xy(0);
  words.forEach(([kind, word], i) => {
    const bx = Math.min(Math.max(x, 60), 540), by = Math.max(y - 62 - i * 34, 20);
    const g = el("g", { class: `badge ${kind}` }, svg);
    el("rect", { x: bx - 40, y: by - 16, width: 80, height: 30, rx: 15 }, g);
    el("text", { x: bx, y: by + 6 }, g).textContent = word;
  });
}

const keyActivate = (fn) => (e) => {
  if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); }
};

// Each side's board stacks, in its shape and colour, with the stack's size.
function drawPieces(svg) {
  const glow = glowing();
  const chosen = chosenMove();
  const hinted = $("hint-switch").checked ? hintMove() : null;
  (view.sides ?? []).forEach((side, s) => {
    const at = new Map();
    for (const p of side.pieces) if (p.status === "board" && typeof p.node === "number") at.set(p.node, (at.get(p.node) ?? 0) + 1);
    for (const [node, count] of at) {
      const [x, y] = xy(node);
      // Two sides on one node (a truce forbids the capture) stand apart.
      const others = (view.sides ?? []).filter((o, j) => j !== s && o.pieces.some((p) => p.status === "board" && p.node === node)).length;
      const dx = others ? (s % 2 ? 14 : -14) : 0;
      const movable = s === sideOf(view, me) && glow.has(String(node));
      const cls = ["piece", `side${s % 4}`];
      if (movable) cls.push("glow");
      if (chosen && String(chosen.action.from) === String(node) && movable) cls.push("chosen");
      if (hinted && String(hinted.action.from) === String(node) && s === sideOf(view, me)) cls.push("hinted");
      const g = el("g", { class: cls.join(" "), "data-node": node, "data-side": s, "data-count": count }, svg);
      el("path", { d: shapePath(s, x + dx, y, 24) }, g);
      if (count > 1) el("text", { x: x + dx, y: y + 7, "aria-hidden": "true" }, g).textContent = String(count);
      const label = `${W.shape(s)} ${side.name} 말 ${count}개 (${count} piece${count > 1 ? "s" : ""}) · ${W.nodeLabel(node)}`;
      if (movable) {
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.dataset.key = `piece-${node}`;
        el("title", {}, g).textContent = `${label} — ${sel.from === String(node) ? "다시 눌러 확정 (press again to confirm)" : "움직일 수 있어요 (can move)"}`;
        g.onclick = () => choosePiece(String(node));
        g.onkeydown = keyActivate(() => choosePiece(String(node)));
      } else {
        el("title", {}, g).textContent = label;
      }
    }
  });
}

// The pending results as chips (word and steps), the throw button, the auto-move and
// confirm buttons.
function drawChips(mySide) {
  const ms = moves();
  const chip = activeChip();
  const chips = (view.pending ?? []).map((t, i) => {
    const [ko, ro, n] = THROWS[t] ?? [t, t, 0];
    const usable = ms.some((m) => m.action.throwIndex === i);
    // The word and the steps shown, the romanization and the step count for a screen
    // reader.
    const b = h("button", {
      class: `chip${chip === i ? " on" : ""}`, "data-index": String(i), "data-key": `chip-${i}`,
      "aria-pressed": String(chip === i),
    }, h("span", { class: "chip-word" }, ko), h("span", { class: "chip-steps" }, n > 0 ? `+${n}` : "−1"),
    h("span", { class: "sr" }, ` (${ro}, ${n > 0 ? `${n}칸 앞으로 (${n} step${n > 1 ? "s" : ""})` : "1칸 뒤로 (one step back)"})`));
    b.disabled = !usable;
    b.onclick = () => { sel.chip = i; sel.from = null; render(); };
    return b;
  });
  $("chips").replaceChildren(...chips);
  $("chips-label").hidden = chips.length === 0;
  const throwAct = actions.find((a) => a.type === "THROW");
  $("throw").hidden = !throwAct;
  $("throw").onclick = throwAct ? () => act(throwAct) : null;
  // One result and one possible move: the move can be made in one press.
  const auto = ms.length === 1 && (view.pending ?? []).length === 1 ? ms[0] : null;
  $("auto").hidden = !auto;
  $("auto").onclick = auto ? () => act(auto.action) : null;
  const chosen = chosenMove();
  $("confirm").hidden = !chosen;
  if (chosen?.info) {
    $("confirm").textContent = `확정 (confirm): ${W.throwLabel(chosen.info.result)} ${W.nodeLabel(chosen.info.from)} → ${W.nodeLabel(chosen.info.to)}`;
    $("confirm").onclick = confirmMove;
  }
  const hm = $("hint-switch").checked ? hintMove() : null;
  $("hint-text").textContent = hm?.info ? `추천(hint): ${W.throwLabel(hm.info.result)} ${W.pathLabel(hm.info.from, hm.info.path, hm.info.to)}` :
    $("hint-switch").checked && hint?.type === "THROW" ? "추천(hint): 윷 던지기 (throw)" :
    $("hint-switch").checked && hint?.type === "CHOOSE_AUGMENT" ? `추천(hint): ${view.draft?.candidates?.[hint.index]?.name ?? ""}` : "";
  let prompt = "";
  if (me && mySide >= 0 && view.turn?.player === me) {
    if (throwAct) prompt = "윷을 던지세요 (throw the sticks)";
    else if (ms.length && chip === null) prompt = "결과를 고르세요 (choose a result)";
    else if (ms.length && !chosen) prompt = "빛나는 말을 고르세요 (choose a glowing piece)";
    else if (chosen) prompt = "같은 말이나 도착 자리를 다시 누르면 확정 (press the piece or its destination again to confirm)";
  }
  $("prompt").textContent = prompt;
}

// Each side's waiting and finished pieces, its presence, and the waiting pieces as a
// button when entering one is a move of the chosen result.
function drawTray(mySide) {
  const glow = glowing();
  const rows = (view.sides ?? []).map((side, s) => {
    const row = h("li", { class: `side-row side${s % 4}${view.turn?.side === s ? " turn" : ""}`, "data-side": String(s) });
    row.append(shapeIcon(s), h("span", { class: "sr" }, `${W.SHAPE_NAMES[s % 4]} `), h("span", { class: "side-name" }, side.name));
    if (view.options.mode === "team") row.append(h("small", {}, ` (${side.members.join("·")})`));
    const home = h("span", { class: "waiting-count" }, `${W.WAITING} ${side.home}`);
    if (s === mySide && glow.has("home")) {
      const b = h("button", { class: `waiting glow${sel.from === "home" ? " chosen" : ""}`, "data-key": "piece-home", "data-node": "home" },
        shapeIcon(s, 18), ` ${W.WAITING} ${side.home} — ${sel.from === "home" ? "다시 눌러 확정 (press again)" : "말 놓기 (enter a piece)"}`);
      b.onclick = () => choosePiece("home");
      row.append(b);
    } else row.append(home);
    row.append(h("span", { class: "finished-count" }, `${W.FINISHED} ${side.finished}`));
    if (side.finishedRank) row.append(h("strong", {}, ` ${side.finishedRank}등`));
    if (side.conceded) row.append(h("small", {}, " 기권(conceded)"));
    for (const p of view.presence ?? []) {
      if (!side.members.includes(p.player)) continue;
      if (p.away) row.append(h("small", { class: "away" }, ` ${p.player}: 자리 비움(away)`));
      else if (!p.connected) row.append(h("small", { class: "away" }, ` ${p.player}: 연결 끊김(disconnected)`));
    }
    return row;
  });
  $("tray").replaceChildren(...rows);
}

function drawDraft() {
  const d = $("draft");
  d.replaceChildren();
  const draft = view.draft;
  if (!draft?.candidates) return;
  const mine = actions.some((a) => a.type === "CHOOSE_AUGMENT");
  d.append(h("strong", {}, `${W.slotName(draft.slot)} 고르기 (augment draft)${mine ? "" : ` — ${view.sides[draft.side]?.name ?? ""} 고르는 중 (choosing)`}`));
  draft.candidates.forEach((card, index) => {
    const b = h("button", { class: "card", "data-key": `card-${index}` }, h("strong", {}, String(card.name)), h("br"),
      h("span", {}, String(card.text)), h("br"), h("small", {}, `(${W.augmentGloss(card.id)})`));
    b.disabled = !mine;
    // The hint switch marks the card the timeout policy would take.
    if ($("hint-switch").checked && hint?.type === "CHOOSE_AUGMENT" && hint.index === index) b.classList.add("hinted");
    b.onclick = () => act({ type: "CHOOSE_AUGMENT", index });
    d.append(b);
  });
}

// Each side's augments, and the cushion and the truce where they apply.
function drawAugments() {
  const list = view.augmentSides;
  const box = $("augments");
  box.hidden = !list?.length;
  if (!list?.length) return;
  const rows = list.map((a) => {
    const owned = a.augments.map((o) => `${W.AUGMENTS[o.id]?.[0] ?? o.id} ${o.usesLeft === null ? "∞" : `${o.usesLeft}회`}`);
    const parts = [h("span", {}, `증강(augments): ${owned.join(" · ") || "-"}`)];
    if (a.cushionsLeft > 0) parts.push(h("span", { class: "house" }, `첫 잡힘 완충(cushion) ${a.cushionsLeft}`));
    if (a.truceAvailable) parts.push(h("span", { class: "house" }, "쉼 약속(truce) ○"));
    if (a.noCaptureNow) parts.push(h("strong", { class: "house hot" }, "쉼 약속: 이번 차례 잡기 금지 (truce: no capture this turn)"));
    else if (a.noCaptureNextTurn) parts.push(h("span", { class: "house" }, "다음 차례 잡기 금지 (no capture next turn)"));
    if (a.paybackOwed) parts.push(h("span", {}, "되갚기 준비(payback armed)"));
    return h("li", {}, shapeIcon(a.side), ` ${view.sides[a.side]?.name ?? ""} `, ...parts);
  });
  box.replaceChildren(h("h3", {}, "증강과 집 규칙 ", h("small", {}, "augments and house rules")), h("ul", {}, ...rows));
}

function drawResult() {
  const r = $("result");
  const oneCard = game === "one-card" ? oneCardWinners(view) : null;
  r.hidden = !view.result && !oneCard;
  if (r.hidden) return;
  const res = view.result ?? {};
  const winners = oneCard ?? res.winners ?? [];
  const parts = [h("h2", {}, "게임 끝 ", h("small", {}, "Game over"))];
  if (res.summary) parts.push(h("p", {}, `결과(result): ${res.summary}`));
  parts.push(h("p", {}, "이긴 쪽 (winner): ", h("strong", { class: "winners" }, winners.join(", "))));
  if (res.ranking) {
    parts.push(h("ol", { class: "ranking" }, ...res.ranking.map((p) => h("li", {}, shapeIcon(p.side, 16),
      ` ${p.rank}등 ${view.sides[p.side]?.name ?? ""} · ${W.FINISHED} ${p.finishedPieces}/${view.options.pieces} · 갈 거리(steps to go) ${p.remainingDistance}`))));
  }
  parts.push(h("p", {}, h("a", { href: "/" }, "새 게임 (new match)")));
  r.replaceChildren(...parts);
}

// The turn's countdown (the view's deadline) and a disconnected player's grace (the
// status's next tick, when it comes first).
function tickClock() {
  const t = $("timer");
  if (!view || view.result || !view.turn) { t.textContent = ""; t.className = ""; return; }
  const now = Date.now();
  const deadline = view.deadlineAt ?? null;
  const away = (view.presence ?? []).find((p) => p.player === view.turn.player && !p.connected);
  const grace = away && matchStatus?.nextTickAt && matchStatus.turnSeq === view.turnSeq ? matchStatus.nextTickAt : null;
  const parts = [];
  if (deadline) {
    const left = Math.max(0, Math.ceil((deadline - now) / 1000));
    parts.push(`남은 시간(time left) ${left}초`);
    t.className = left <= 5 ? "low" : "";
  } else t.className = "";
  if (grace && (!deadline || grace < deadline)) {
    parts.push(`${view.turn.player} 연결 끊김 — 유예(grace) ${Math.max(0, Math.ceil((grace - now) / 1000))}초 뒤 자동 진행 (auto play)`);
  }
  t.textContent = parts.join(" · ");
}

async function act(action) {
  const r = await request({ op: "act", match: matchId, action, turnSeq: view.turnSeq });
  if (!r.ok) status(`${r.error.message} (${r.error.code})`);
}

// ---- animation ---------------------------------------------------------------------------
// What an update did, played over the board drawn from its view: the sticks of each
// `thrown` event spin and land (0.8 s), a moved stack hops node by node along its path,
// a captured stack flies back to waiting. With `prefers-reduced-motion` the board just
// changes.
function played(kind) {
  const b = document.body.dataset;
  b.animations = String(Number(b.animations ?? 0) + 1);
  b[`anim${kind}`] = String(Number(b[`anim${kind}`] ?? 0) + 1);
}

function play(events) {
  const svg = $("board");
  for (const e of events) {
    if (e.type === "thrown") throwSticks(e.sticks);
    else if (!animating()) continue;
    else if (e.type === "moved" && Array.isArray(e.path)) hop(svg, e);
    else if (e.type === "captured") flyHome(svg, e);
  }
}

let landing = null;
// The sticks as they fell; with motion, spinning in the air first.
function throwSticks(sticks) {
  const box = $("sticks");
  box.hidden = false;
  box.replaceChildren(...sticks.map((flat, i) => stickFace(flat, i === 0)));
  if (!animating()) return;
  // The result shows among the chips once the sticks have landed.
  $("chips").classList.add("landing");
  clearTimeout(landing);
  landing = setTimeout(() => $("chips").classList.remove("landing"), 800);
  played("Throw");
  [...box.children].forEach((s, i) => {
    s.animate([
      { transform: "translateY(0) rotate(0deg)" },
      { transform: `translateY(-70px) rotate(${360 + i * 90}deg)`, offset: 0.45 },
      { transform: "translateY(0) rotate(720deg)" },
    ], { duration: 800, easing: "ease-out" });
  });
}

function hop(svg, e) {
  const path = [...e.path];
  if (e.to === "goal") path.push("goal");
  if (e.from === "home") path.unshift("home");
  const start = trayPoint(svg, e.side);
  const pts = path.map((n) => (n === "home" ? start : xy(n)));
  if (pts.length < 2) return;
  const target = typeof e.to === "number" ? svg.querySelector(`.piece[data-node="${e.to}"][data-side="${e.side}"]`) : null;
  target?.classList.add("arriving");
  const ghost = el("g", { class: `piece ghost side${e.side % 4}` }, svg);
  el("path", { d: shapePath(e.side, 0, 0, 24) }, ghost);
  const frames = [];
  pts.forEach(([x, y], i) => {
    if (i > 0) {
      const [px, py] = pts[i - 1];
      frames.push({ transform: `translate(${(x + px) / 2}px, ${(y + py) / 2 - 30}px) scale(1.15)` });
    }
    frames.push({ transform: `translate(${x}px, ${y}px) scale(1)` });
  });
  played("Hop");
  const a = ghost.animate(frames, { duration: 160 * (pts.length - 1), easing: "linear" });
  a.onfinish = () => { ghost.remove(); target?.classList.remove("arriving"); };
}

// Where a side's waiting pieces are listed (its row under the board, or beside it on a
// desktop), in the board's own units.
function trayPoint(svg, side) {
  const row = document.querySelector(`#tray .side-row[data-side="${side}"]`);
  const box = svg.getBoundingClientRect();
  if (!row || !box.width) return [40, 660];
  const r = row.getBoundingClientRect();
  const k = 600 / box.width;
  return [(r.left + 20 - box.left) * k, (r.top + r.height / 2 - box.top) * k];
}

function flyHome(svg, e) {
  const [x, y] = xy(e.node);
  const [tx, ty] = trayPoint(svg, e.victimSide);
  const ghost = el("g", { class: `piece ghost captured side${e.victimSide % 4}` }, svg);
  el("path", { d: shapePath(e.victimSide, 0, 0, 24) }, ghost);
  played("Capture");
  const a = ghost.animate([
    { transform: `translate(${x}px, ${y}px) scale(1)`, opacity: 1 },
    { transform: `translate(${(x + tx) / 2}px, ${Math.min(y, ty) - 120}px) scale(1.4)`, opacity: 1, offset: 0.4 },
    { transform: `translate(${tx}px, ${ty}px) scale(0.6)`, opacity: 0.4 },
  ], { duration: 900, easing: "ease-in" });
  a.onfinish = () => ghost.remove();
}

await connect();
if (params.get("match")) join(); else lobby();
