// One Card's table (원카드): the seats with their hand counts, the discard pile's top,
// the draw pile, the attack, the declared suit and the direction; the viewer's hand as
// buttons, the suit a 7 asks for, and DRAW / ONE_CARD / CATCH. Drawn from the viewer's
// own view only (the server never sends another player's cards). Every text from the
// wire is set as text.

const SUITS = { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] };
const RANKS = { A: "A", J: "J", Q: "Q", K: "K" };

// An HTML element with its attributes (as values) and children (nodes or text).
function h(name, attrs = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

// A card's wire name (`"7H"`, `"10S"`, `"BJ"`) as a label: rank and suit symbol.
export function cardLabel(card) {
  if (card === "BJ") return "흑백 조커 (B&W joker)";
  if (card === "CJ") return "컬러 조커 (colour joker)";
  if (typeof card !== "string" || card.length < 2) return String(card);
  const suit = card.slice(-1), rank = card.slice(0, -1);
  return `${RANKS[rank] ?? rank}${SUITS[suit]?.[0] ?? suit}`;
}

// Red for hearts, diamonds and the colour joker.
function cardClass(card) {
  const suit = typeof card === "string" ? card.slice(-1) : "";
  return "card-face" + (suit === "H" || suit === "D" || card === "CJ" ? " red" : "");
}

const suitLabel = (s) => SUITS[s] ? `${SUITS[s][0]} (${SUITS[s][1]})` : String(s);
const STANDING = { playing: "", finished: "끝냄 (out of cards)", bankrupt: "파산 (bankrupt)", conceded: "기권 (conceded)" };

// The player id of `seat` in `view` (the seat number if the view has no such seat).
const name = (view, seat) => view.players?.[seat] ?? `#${seat}`;

// One log line for an event of the match.
export function logLine(e) {
  const who = e.player ?? "";
  switch (e.type) {
    case "played": return `${who} · 냄 (played) ${cardLabel(e.card)}` +
      (e.suit ? ` · 무늬 (suit) ${suitLabel(e.suit)}` : "") + (e.attack ? ` · 공격 (attack) ${e.attack}` : "");
    case "drew": return `${who} · 먹음 (drew) ` + (Array.isArray(e.cards) ? e.cards.map(cardLabel).join(" ") : `${e.count}장 (cards)`);
    case "reshuffled": return `더미를 섞음 (reshuffled) · ${e.count}장`;
    case "skipped": return `${who} · 건너뜀 (skipped)`;
    case "reversed": return `방향 바뀜 (reversed) · ${e.direction}`;
    case "oneCardCalled": return `${who} · 원카드! (one card)`;
    case "caught": return `${who} · 잡힘 (caught) ← ${e.by}`;
    case "finished": return `${who} · ${e.rank}등 (rank ${e.rank})`;
    case "bankrupt": return `${who} · 파산 (bankrupt) · ${e.count}장`;
    case "conceded": return `${who} · 기권 (conceded)`;
    case "gameOver": return `게임 끝 (game over) · ${(e.ranking ?? []).join(" > ")}`;
    default: return [who, e.type].filter(Boolean).join(" · ");
  }
}

// The "turn" line above the table.
export function turnLine(view, me) {
  if (view.ranks) return "게임 끝 (game over)";
  const turn = view.turn === null || view.turn === undefined ? "-" : name(view, view.turn);
  return `차례 (turn): ${turn}${turn === me ? " — 내 차례 (your turn)" : ""}`;
}

// Draws the table into `root`. `actions` are the viewer's legal actions; `act` sends one.
export function drawTable(root, view, actions, act) {
  const seats = h("ol", { class: "oc-seats" });
  (view.players ?? []).forEach((p, s) => {
    const li = h("li", { class: "oc-seat" + (s === view.turn ? " turn" : "") + (s === view.you ? " you" : "") + (s === view.call ? " call" : "") },
      h("span", { class: "oc-name" }, String(p)),
      h("span", { class: "oc-count" }, `${view.handCounts?.[s] ?? 0}장`));
    const standing = STANDING[view.status?.[s]] ?? "";
    if (standing) li.append(h("small", {}, standing));
    if (view.ranks) li.append(h("small", {}, `${view.ranks[s]}등`));
    if (view.connected && view.connected[s] === false) li.append(h("small", {}, "연결 끊김 (away)"));
    if (s === view.call) li.append(h("small", {}, "한 장! (one card)"));
    seats.append(li);
  });

  const top = view.discardTop;
  const pile = h("div", { class: "oc-pile" },
    h("div", { class: "oc-top" }, h("small", {}, "맨 위 (top)"), h("span", { class: top ? cardClass(top) : "card-face", id: "discard-top" }, top ? cardLabel(top) : "-")),
    h("div", { class: "oc-facts" },
      h("span", { id: "draw-count" }, `더미 (draw pile): ${view.drawPileCount}장`),
      h("span", { id: "attack", class: view.attack ? "hot" : "" }, `공격 (attack): ${view.attack ? "+" + view.attack : "없음 (none)"}`),
      h("span", { id: "suit" }, `무늬 (suit): ${view.suit ? suitLabel(view.suit) : "-"}`),
      h("span", { id: "direction" }, `방향 (direction): ${view.direction === "backward" ? "← backward" : "→ forward"}`)));

  const plays = actions.filter((a) => a.type === "PLAY");
  const hand = h("div", { class: "oc-hand", id: "hand" });
  const suitRow = h("div", { class: "oc-suits", id: "suit-pick", hidden: "" });
  if (Array.isArray(view.hand)) {
    for (const card of view.hand) {
      const mine = plays.filter((a) => a.card === card);
      const b = h("button", { class: "oc-card " + cardClass(card), "data-card": String(card) }, cardLabel(card));
      b.disabled = mine.length === 0;
      b.onclick = () => {
        if (mine.length === 1 && !mine[0].suit) return act(mine[0]);
        // A 7: the suit to follow, asked for next to the hand.
        suitRow.replaceChildren(h("span", {}, "무늬를 고르세요 (pick a suit):"));
        for (const a of mine) {
          const s = h("button", { class: "oc-suit", "data-suit": String(a.suit) }, suitLabel(a.suit));
          s.onclick = () => act(a);
          suitRow.append(s);
        }
        suitRow.hidden = false;
      };
      hand.append(b);
    }
  }

  const calls = h("div", { class: "oc-calls" });
  for (const a of actions) {
    let b = null;
    if (a.type === "DRAW") b = h("button", { id: "draw", class: "primary" }, view.attack ? `${view.attack}장 먹기 (take ${view.attack})` : "한 장 먹기 (draw)");
    else if (a.type === "ONE_CARD") b = h("button", { id: "one-card", class: "primary" }, "원카드! (one card)");
    else if (a.type === "CATCH") b = h("button", { id: "catch", class: "primary" }, `잡기 (catch) ${a.player}`);
    if (!b) continue;
    b.onclick = () => act(a);
    calls.append(b);
  }

  const parts = [seats, pile];
  if (Array.isArray(view.hand)) parts.push(h("h3", {}, "내 패 ", h("small", {}, "your hand")), hand, suitRow);
  parts.push(calls);
  root.replaceChildren(...parts);
}

// The winners' ids once the game is over (rank 1), or null.
export function winners(view) {
  if (!view.ranks) return null;
  return (view.players ?? []).filter((_, s) => view.ranks[s] === 1);
}
