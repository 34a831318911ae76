// The board: talks the server's WebSocket protocol (games, create, hello, watch, act,
// legal) and draws the match from each `update` push's view: the Yut board, or One
// Card's table (onecard.js). Every text from the wire
// (player ids, match ids, events, errors, augments) is set as text, never parsed as
// HTML: a player may be named `<img onerror=...>`.
import { NODES, LINES, DIAGONALS, THROWS } from "/nodes.js";
import { drawTable, logLine, turnLine, winners as oneCardWinners } from "/onecard.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const params = new URLSearchParams(location.search);
// A seat's token rides in the fragment (`#token=`), which no request carries: not to the
// server, not in a Referer. Links with `?token=` keep working.
const fragment = new URLSearchParams(location.hash.slice(1));
let ws, nextId = 1, waiting = new Map(), view = null, actions = [], me = null, matchId = null;
let selected = null, game = null;
// The bot kinds each game offers (the server's `games` reply), its preferred first.
let botKinds = {};
// The lobby's games: what the form sends for each, and how many players it takes.
const GAMES = {
  app: { game: "yut-augments", options: { stickModel: "fair", backdoFromDo: "home" }, players: [2, 3, 4] },
  yut: { game: "yut", players: [2, 3, 4] },
  "one-card": { game: "one-card", players: [2, 3, 4, 5] },
};

function connect() {
  return new Promise((resolve) => {
    ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    ws.onopen = () => resolve();
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.push === "update") return onUpdate(msg);
      const done = waiting.get(msg.id);
      if (done) { waiting.delete(msg.id); done(msg); }
    };
    ws.onclose = () => status("연결 끊김 (disconnected) — 새로고침하세요 (reload)");
  });
}

function request(req) {
  const id = nextId++;
  return new Promise((resolve) => { waiting.set(id, resolve); ws.send(JSON.stringify({ ...req, id })); });
}

function status(text) { $("status").textContent = text; }

// An HTML element with its attributes (set as values, not markup) and children (nodes,
// or strings appended as text).
function h(name, attrs = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}
const throwLabel = (t) => { const [ko, ro, n] = THROWS[t] ?? [t, t, 0]; return `${ko}(${ro} ${n > 0 ? "+" : ""}${n})`; };
const nodeLabel = (n) => typeof n === "number" && NODES[n] ? `${NODES[n].ko}(${NODES[n].ro})` :
  n === null || n === undefined || n === "home" ? "대기(waiting)" : n === "finished" || n === "goal" ? "남(finished)" : String(n);

// ---- lobby ---------------------------------------------------------------------------
// The player counts the chosen game takes (the count kept when it still fits).
function countForm() {
  const count = document.querySelector("[name=count]");
  const chosen = GAMES[document.querySelector("[name=game]").value] ?? GAMES.yut;
  const was = count.value;
  count.replaceChildren(...chosen.players.map((n) => h("option", {}, String(n))));
  if (chosen.players.map(String).includes(was)) count.value = was;
  seatsForm();
}

function seatsForm() {
  const n = Number(document.querySelector("[name=count]").value);
  const chosen = GAMES[document.querySelector("[name=game]").value] ?? GAMES.yut;
  const kinds = botKinds[chosen.game] ?? ["random"];
  // The seats after the first are bots of the game's preferred kind (policy where there
  // is one).
  const preferred = kinds.includes("policy") ? "policy" : kinds[0];
  const was = [...$("seats").querySelectorAll("input")].map((i) => i.value);
  $("seats").replaceChildren();
  for (let i = 0; i < n; i++) {
    const options = kinds.map((k) => {
      const o = h("option", { value: k }, `봇 ${k}`);
      o.selected = i > 0 && k === preferred;
      return o;
    });
    const row = h("div", { class: "seat" },
      h("input", { name: `p${i}`, value: was[i] ?? (i === 0 ? "나" : "p" + (i + 1)), "aria-label": `player ${i + 1}` }),
      h("select", { name: `k${i}`, "aria-label": `seat ${i + 1} kind` },
        h("option", { value: "" }, "사람 (human)"), ...options));
    $("seats").append(row);
  }
}

async function lobby() {
  const g = await request({ op: "games" });
  if (g.ok) botKinds = g.bots ?? {};
  const select = document.querySelector("[name=game]");
  for (const option of [...select.options]) {
    if (g.ok && !g.games.includes(GAMES[option.value]?.game)) option.remove();
  }
  countForm();
  select.onchange = countForm;
  document.querySelector("[name=count]").onchange = seatsForm;
  $("create").onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const n = Number(f.get("count"));
    const players = [], bots = {};
    for (let i = 0; i < n; i++) {
      const p = String(f.get("p" + i)).trim() || "p" + (i + 1);
      players.push(p);
      if (f.get("k" + i)) bots[p] = f.get("k" + i);
    }
    const chosen = GAMES[f.get("game")] ?? GAMES.yut;
    const req = { op: "create", game: chosen.game, players, bots };
    if (chosen.options) req.options = chosen.options;
    const r = await request(req);
    if (!r.ok) return status(`${r.error.message} (${r.error.code})`);
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
  const token = fragment.get("token") ?? params.get("token");
  if (params.has("token")) {
    // An old `?token=` link: the address bar (and so a reload or a bookmark) gets the
    // fragment form, which sends the token nowhere.
    params.delete("token");
    history.replaceState(null, "", `?${params}#${new URLSearchParams({ token })}`);
  }
  const r = token ? await request({ op: "hello", match: matchId, token }) : await request({ op: "watch", match: matchId });
  if (!r.ok) return status(`${r.error.message} (${r.error.code})`);
  me = r.player ?? null;
  game = r.game;
  if (game === "one-card") {
    document.title = "원카드 One Card";
    $("title").replaceChildren("원카드 ", h("small", {}, "One Card"));
    // An SVG element has no `hidden` property: its style, through the CSSOM.
    $("board").style.display = "none";
    $("table").hidden = false;
  }
  $("game").hidden = false;
  await onUpdate({ view: r.view, events: [], over: r.over });
}

let updates = 0;
async function onUpdate(msg) {
  // The view and the legal actions change together, and only for the latest update: a
  // click then always sends an action of the position it was drawn from, with its turnSeq.
  const mine = ++updates;
  for (const e of msg.events ?? []) {
    // An event the log cannot word must not stop the board from following the match.
    try { logEvent(e, msg.view); } catch (err) { console.warn(err); }
  }
  let next = [];
  if (me && !msg.over) {
    const l = await request({ op: "legal", match: matchId });
    if (l.ok) next = l.actions;
  }
  if (mine !== updates) return;
  view = msg.view;
  actions = next;
  selected = null;
  render();
}

function logEvent(e, v) {
  const li = document.createElement("li");
  if (game === "one-card") {
    li.textContent = logLine(e);
    $("log").prepend(li);
    return;
  }
  const who = e.side !== undefined && v?.sides?.[e.side] ? v.sides[e.side].name : "";
  const parts = [who, e.type];
  if (e.result) parts.push(throwLabel(e.result));
  if (e.to !== undefined) parts.push("→ " + (e.to === null ? "남(finished)" : nodeLabel(e.to)));
  li.textContent = parts.filter(Boolean).join(" · ");
  $("log").prepend(li);
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
  const turn = view.turn?.player;
  status(me ? `나 (me): ${me}` : "관전 중 (watching)");
  $("turn").textContent = view.result ? "게임 끝 (game over)" :
    `차례 (turn): ${turn ?? "-"}${turn === me ? " — 내 차례 (your turn)" : ""}` +
    (view.pending?.length ? ` · 모아 둔 결과(pending): ${view.pending.map(throwLabel).join(" · ")}` : "") +
    (view.lastThrow ? ` · 마지막 던지기(last throw): ${throwLabel(view.lastThrow.result)}` : "");
  drawBoard();
  drawControls();
  drawDraft();
  drawResult();
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent?.append(e);
  return e;
}

function moves() {
  // The legal MOVE actions with their path preview from the view's legalMoves.
  return actions.filter((a) => a.type === "MOVE").map((a) => ({
    action: a,
    info: (view.legalMoves ?? []).find((m) => m.throwIndex === a.throwIndex && JSON.stringify(m.from) === JSON.stringify(a.from)),
  }));
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const xy = (n) => NODES[n].xy;
  for (const [a, b] of LINES) { const [x1, y1] = xy(a), [x2, y2] = xy(b); el("line", { class: "edge", x1, y1, x2, y2 }, svg); }
  for (const d of DIAGONALS) { const [x1, y1] = xy(d[0]), [x2, y2] = xy(d[d.length - 1]); el("line", { class: "edge", x1, y1, x2, y2 }, svg); }
  const ms = moves();
  const shown = selected ?? (ms.length === 1 ? ms[0] : null);
  if (shown?.info?.path?.length) {
    const from = typeof shown.info.from === "number" ? [shown.info.from] : [];
    const pts = [...from, ...shown.info.path].map((n) => xy(n).join(",")).join(" ");
    el("polyline", { class: "path", points: pts }, svg);
  }
  const targets = new Map();
  for (const m of ms) if (m.info && typeof m.info.to === "number") targets.set(m.info.to, m);
  for (const n of NODES) {
    const g = el("g", { class: "node" + ([0, 5, 10, 15, 22].includes(n.id) ? " corner" : "") + (targets.has(n.id) ? " target" : ""), "data-node": n.id }, svg);
    const [x, y] = n.xy;
    el("circle", { cx: x, cy: y, r: [0, 5, 10, 15, 22].includes(n.id) ? 26 : 20 }, g);
    // Ring nodes carry their names above and below; a diagonal node's would touch the
    // ring's, so they stand beside it, on the side away from the ring's nearest edge.
    const side = { 20: -1, 21: -1, 27: -1, 28: -1, 23: 1, 24: 1, 25: 1, 26: 1 }[n.id];
    if (side) {
      const anchor = side > 0 ? "start" : "end", tx = x + side * 24;
      // Through the CSSOM, not a `style` attribute: the page's CSP allows no inline style.
      const ko = el("text", { x: tx, y: y - 2 }, g), ro = el("text", { x: tx, y: y + 12, class: "ro" }, g);
      ko.textContent = n.ko;
      ro.textContent = n.ro;
      ko.style.textAnchor = ro.style.textAnchor = anchor;
    } else {
      el("text", { x, y: y - 30 }, g).textContent = n.ko;
      el("text", { x, y: y + 40, class: "ro" }, g).textContent = n.ro;
    }
    if (targets.has(n.id)) {
      g.onclick = () => act(targets.get(n.id).action);
      g.onmouseenter = () => { selected = targets.get(n.id); drawBoard(); };
    }
  }
  (view.sides ?? []).forEach((side, s) => {
    const at = new Map();
    for (const p of side.pieces) if (p.status === "board" || typeof p.node === "number") at.set(p.node, (at.get(p.node) ?? 0) + 1);
    for (const [node, count] of at) {
      const [x, y] = xy(node);
      const dx = (s % 2 ? 8 : -8), dy = (s > 1 ? 8 : -8);
      el("circle", { class: `piece side${s}`, cx: x + dx, cy: y + dy, r: 13 }, svg);
      el("text", { class: "piece-count", x: x + dx, y: y + dy + 5 }, svg).textContent = count > 1 ? count : "";
    }
  });
}

function drawControls() {
  const c = $("controls");
  c.replaceChildren();
  (view.sides ?? []).forEach((side, s) => {
    const span = document.createElement("div");
    span.className = `side${s}`;
    span.style.width = "100%";
    span.textContent = `● ${side.name}: 대기(waiting) ${side.home} · 남(finished) ${side.finished}`;
    c.append(span);
  });
  for (const a of actions) {
    if (a.type === "CHOOSE_AUGMENT") continue;
    const b = document.createElement("button");
    if (a.type === "THROW") { b.className = "primary"; b.textContent = "윷 던지기 (throw)"; b.id = "throw"; }
    else if (a.type === "MOVE") {
      const info = moves().find((m) => m.action === a)?.info;
      b.className = "move";
      b.textContent = `${nodeLabel(a.from === "home" ? null : a.from)} → ${info ? (info.finishes ? "남(finished)" : nodeLabel(info.to)) : "?"} · ${info ? throwLabel(info.result) : ""}`;
      b.onmouseenter = () => { selected = { action: a, info }; drawBoard(); };
    } else b.textContent = a.type;
    b.onclick = () => act(a);
    c.append(b);
  }
}

function drawDraft() {
  const d = $("draft");
  d.replaceChildren();
  const draft = view.draft;
  if (!draft?.candidates) return;
  const mine = actions.some((a) => a.type === "CHOOSE_AUGMENT");
  d.append(h("strong", {}, `증강 고르기 (draft)${mine ? "" : " — 상대가 고르는 중 (opponent choosing)"}`));
  draft.candidates.forEach((card, index) => {
    const b = h("button", { class: "card" }, h("strong", {}, String(card.name)), h("br"), h("small", {}, String(card.text)));
    b.disabled = !mine;
    b.onclick = () => act({ type: "CHOOSE_AUGMENT", index });
    d.append(b);
  });
}

function drawResult() {
  const r = $("result");
  const oneCard = game === "one-card" ? oneCardWinners(view) : null;
  r.hidden = !view.result && !oneCard;
  if (r.hidden) return;
  const res = view.result ?? {};
  const winners = oneCard ?? (res.winners ?? res.ranking ?? []).map((w) => typeof w === "number" ? view.sides[w]?.name : w);
  r.replaceChildren(
    h("h2", {}, "게임 끝 ", h("small", {}, "Game over")),
    h("p", {}, "이긴 쪽 (winner): ", h("strong", { class: "winners" }, winners.join(", ") || JSON.stringify(res))),
    h("p", {}, h("a", { href: "/" }, "새 게임 (new match)")));
}

async function act(action) {
  const r = await request({ op: "act", match: matchId, action, turnSeq: view.turnSeq });
  if (!r.ok) status(`${r.error.message} (${r.error.code})`);
}

await connect();
if (params.get("match")) join(); else lobby();
