// "규칙 보기" (the rules, with pictures): the stick patterns of 도 to 모 and 빽도, the
// shortcuts, stacking, capturing and the finish rule in force; and the stick drawing the
// throw's animation uses. Built with DOM calls only (the page's CSP allows no inline
// markup or style).
const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent?.append(e);
  return e;
}

function h(name, attrs = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

// One stick: flat side up (배, light, with its cross marks) or round side up (등, dark);
// the marked stick (the one whose flat side alone is 빽도) carries a dot.
export function stickFace(flat, marked) {
  const svg = el("svg", { class: `stick ${flat ? "flat" : "round"}`, viewBox: "0 0 24 96", width: 24, height: 96, role: "img",
    "aria-label": `${flat ? "배(flat)" : "등(round)"}${marked ? " — 표시 가락(marked stick)" : ""}` });
  el("rect", { x: 2, y: 2, width: 20, height: 92, rx: 10 }, svg);
  if (flat) {
    for (const y of [26, 48, 70]) {
      el("path", { class: "mark", d: `M7,${y - 5}L17,${y + 5}M17,${y - 5}L7,${y + 5}` }, svg);
    }
  }
  if (marked) el("circle", { class: "dot", cx: 12, cy: 10, r: 4 }, svg);
  return svg;
}

// The patterns: how many sticks show their flat side, and the marked one alone for 빽도.
const PATTERNS = [
  ["도", "do", 1, [false, true, false, false]],
  ["개", "gae", 2, [true, true, false, false]],
  ["걸", "geol", 3, [true, true, true, false]],
  ["윷", "yut", 4, [true, true, true, true]],
  ["모", "mo", 5, [false, false, false, false]],
  ["빽도", "backdo", -1, [true, false, false, false]],
];

// A small board: the ring, the two diagonals, the corners and the centre, the route a
// piece takes when it stops on a corner drawn over it.
function miniBoard(route, label) {
  const svg = el("svg", { class: "mini", viewBox: "0 0 120 120", width: 120, height: 120, role: "img", "aria-label": label });
  const p = { 0: [110, 110], 5: [110, 10], 10: [10, 10], 15: [10, 110], 22: [60, 60] };
  el("rect", { class: "edge", x: 10, y: 10, width: 100, height: 100, fill: "none" }, svg);
  el("line", { class: "edge", x1: 110, y1: 10, x2: 10, y2: 110 }, svg);
  el("line", { class: "edge", x1: 10, y1: 10, x2: 110, y2: 110 }, svg);
  for (const [, [x, y]] of Object.entries(p)) el("circle", { class: "corner", cx: x, cy: y, r: 7 }, svg);
  el("polyline", { class: "route", points: route.map((n) => p[n].join(",")).join(" ") }, svg);
  return svg;
}

function piecePic(kind) {
  const svg = el("svg", { class: "mini", viewBox: "0 0 160 60", width: 160, height: 60, role: "img",
    "aria-label": kind === "stack" ? "업기: 내 말 위에 서면 함께 가요 (stacking)" : "잡기: 상대 말 위에 서면 대기로 보내요 (capturing)" });
  el("circle", { class: "node", cx: 40, cy: 30, r: 18 }, svg);
  el("circle", { class: "node", cx: 120, cy: 30, r: 18 }, svg);
  el("path", { class: "route", d: "M58,30L100,30" }, svg);
  el("circle", { class: "side0", cx: 40, cy: 30, r: 11 }, svg);
  if (kind === "stack") {
    el("circle", { class: "side0", cx: 120, cy: 30, r: 11 }, svg);
    el("text", { x: 120, y: 35 }, svg).textContent = "2";
  } else {
    el("path", { class: "side1", d: "M120,18L131,38L109,38Z" }, svg);
    el("path", { class: "route cross", d: "M108,12L132,48M132,12L108,48" }, svg);
  }
  return svg;
}

const FINISH = {
  pass: "pass — 참먹이(0)를 지나야 남(finished): 0에 멈추면 아직 판 위예요 (a piece must step past node 0)",
  reach: "reach — 참먹이(0)에 닿으면 남(finished) (reaching node 0 finishes)",
};
const FROM_DO = {
  chammeogi: "도 자리(1)에서 빽도면 참먹이(0)로 가요 (backdo from node 1: to node 0)",
  finish: "도 자리(1)에서 빽도면 바로 남(finished) (backdo from node 1: finishes)",
  home: "도 자리(1)에서 빽도면 대기(waiting)로 돌아가요 (backdo from node 1: back to waiting)",
};

// Fills and opens the help dialog for the rules of `view` (its options).
export function helpDialog(dialog, view) {
  const o = view?.options ?? {};
  const sticks = h("ul", { class: "patterns" }, ...PATTERNS.filter(([, ro]) => ro !== "backdo" || o.backdo !== false)
    .map(([ko, ro, n, faces]) => h("li", {}, h("span", { class: "faces" }, ...faces.map((f, i) => stickFace(f, i === 0))),
      h("strong", {}, ` ${ko}`), ` (${ro}) ${n > 0 ? `${n}칸 (${n} step${n > 1 ? "s" : ""})` : "1칸 뒤로 (one step back)"}`)));
  const close = h("button", { class: "primary", type: "button" }, "닫기 (close)");
  close.onclick = () => dialog.close();
  dialog.replaceChildren(
    h("h2", {}, "규칙 보기 ", h("small", {}, "How to play")),
    h("h3", {}, "윷가락 (the sticks)"),
    h("p", {}, "배(flat side, 가위표)가 위로 온 가락 수가 결과예요; 하나도 없으면 모. 윷·모가 나오거나 상대 말을 잡으면 한 번 더 던져요. (Count the sticks showing their flat side; none is 모. 윷, 모 or a capture: throw again.)"),
    sticks,
    h("h3", {}, "지름길 (shortcuts)"),
    h("div", { class: "pics" }, miniBoard([0, 5, 22, 15], "모(5)에 멈추면 방(22)으로 꺾여요 (stop on 5: turn to the centre)"),
      miniBoard([5, 10, 22, 0], "뒷모(10)에 멈추면 방을 지나 참먹이로 (stop on 10: through the centre home)")),
    h("p", {}, "모서리(5·10)나 방(22)에 멈췄을 때만 안쪽 길로 꺾어요; 지나가기만 하면 곧장 가요. (A piece turns inward only when it stops on a corner or the centre; passing by, it goes straight on.)"),
    h("h3", {}, "업기와 잡기 (stacking and capturing)"),
    h("div", { class: "pics" }, piecePic("stack"), piecePic("capture")),
    h("p", {}, "내 말 위에 서면 업어 함께 가요(업기). 상대 말 위에 서면 잡아 대기로 보내고 한 번 더 던져요(잡기). 지나가는 칸의 말은 잡히지 않아요. (Stop on your own piece: they move together. Stop on a rival's: it goes back to waiting and you throw again. Pieces passed over are safe.)"),
    h("h3", {}, "남 (finishing) — 이 게임의 규칙 (the rule in force)"),
    h("p", { class: "finish-rule" }, FINISH[o.finishRule] ?? String(o.finishRule ?? "")),
    h("p", {}, FROM_DO[o.backdoFromDo] ?? ""),
    h("p", {}, "말을 모두 먼저 내면(남) 이겨요 (the first side to finish all its pieces wins)."),
    close);
  if (!dialog.open) dialog.showModal();
  close.focus();
}
