// The words of the Yut board: results, nodes, events and the rules in force, in Korean
// with the English gloss, worded as the terminal game words them (examples/src/narrate.rs,
// examples/src/layer.rs): one word per idea — a piece not yet on the board is
// 대기(waiting), one that has gone round and left is 남(finished).
import { NODES, THROWS } from "/nodes.js";

export const WAITING = "대기(waiting)";
export const FINISHED = "남(finished)";

// The shape of each side's pieces (side id modulo 4), as the terminal game draws them,
// so the board reads without colour.
export const SHAPES = ["●", "▲", "■", "★"];
export const SHAPE_NAMES = ["원(circle)", "세모(triangle)", "네모(square)", "별(star)"];
export const shape = (side) => SHAPES[side % 4];

// `개(gae +2)`, `빽도(backdo -1)`.
export function throwLabel(t) {
  const [ko, ro, n] = THROWS[t] ?? [String(t), String(t), 0];
  return `${ko}(${ro} ${n > 0 ? "+" : ""}${n})`;
}

// `5(모)`; `대기(waiting)` for home, `남(finished)` for the goal.
export function nodeLabel(n) {
  if (typeof n === "number" && NODES[n]) return `${n}(${NODES[n].ko})`;
  if (n === "goal") return FINISHED;
  return WAITING;
}

// `대기→1→2`, `27→28→0→남`: where a move starts, every node stepped on, where it ends.
export function pathLabel(from, path, to) {
  const parts = [];
  if (from === "home") parts.push("대기");
  for (const n of path ?? []) if (parts[parts.length - 1] !== String(n)) parts.push(String(n));
  if (to === "goal") parts.push("남");
  else if (to === "home") parts.push("대기");
  return parts.join("→");
}

// `[배* 등 배 등]`: flat (배) or round (등) side up, `*` on the marked (빽도) stick.
export function sticksLabel(sticks) {
  if (!Array.isArray(sticks)) return "";
  return `[${sticks.map((flat, i) => (flat ? "배" : "등") + (i === 0 ? "*" : "")).join(" ")}]`;
}

// The Korean name of each augment, by id (the draft's cards carry theirs; an event only
// the id), and its English gloss as the terminal game gives it.
export const AUGMENTS = {
  "first-step": ["첫걸음 한 칸", "a piece entering the board goes one step further"],
  "twin-entry": ["쌍둥이 입장", "once: two waiting pieces enter together as one stack"],
  "do-echo": ["도의 메아리", "once: a 도 earns one more throw"],
  "erase-backdo": ["뒷길 지우기", "a 빽도 counts as 도"],
  "walk-together": ["함께 걷는 힘", "a stack of two or more goes one step further"],
  "mo-bonus": ["모의 덤", "once: a 모 brings an extra 도"],
  "soft-landing": ["푹신한 깔개", "one more first-capture cushion"],
  payback: ["되갚을 손", "once: after a piece of yours is captured, one more throw next turn"],
  "piggyback-dash": ["업고 달리기", "a stack you make goes one step further on its next move"],
  "second-look": ["다시 보기", "twice: a 도 or 빽도 is thrown again"],
  "corner-clap": ["모서리 박수", "once: stopping on a corner (5, 10, 15) earns one more throw"],
  "double-hunt": ["사냥 두 번", "once: a capture earns two more throws, not one"],
  "low-threshold": ["문턱 낮추기", "a move one step short of finishing finishes"],
  "one-line-wind": ["한 줄 바람", "once: a 도 or 개 becomes 걸"],
  "goal-cheer": ["골인 환호", "twice: a finishing move earns one more throw"],
  "iron-stack": ["철벽 업기", "your stacks of three or more cannot be captured"],
  "comeback-wind": ["뒤집기 바람", "while you have finished fewer pieces: 도 counts as 개, 빽도 as 도"],
  "yut-leap": ["윷 도약", "a 윷 moves five steps"],
};
const HOUSE = { cushion: "첫 잡힘 완충", truce: "쉼 약속" };
export const augmentGloss = (id) => AUGMENTS[id]?.[1] ?? String(id);

// `「다시 보기」(second-look)`, `「첫 잡힘 완충」(cushion)`.
export function sourceLabel(id) {
  const ko = AUGMENTS[id]?.[0] ?? HOUSE[id];
  return ko ? `「${ko}」(${id})` : String(id);
}

// What an augment or a house rule did (`augmentFired`'s effect), in Korean with the gist.
function effectText(e, sideName) {
  switch (e.effect) {
    case "rethrow": return `${throwLabel(e.result)} — 다시 던져요 (rethrow)`;
    case "substituted": return `결과를 바꿔요: ${throwLabel(e.from)} → ${throwLabel(e.to)} (substituted)`;
    case "extraThrows": return e.throws === 1 ? "한 번 더 던져요 (+1 throw)" : `${e.throws}번 더 던져요 (+${e.throws} throws)`;
    case "extraResult": return `${throwLabel(e.result)} 하나를 더 얻었어요 (extra result)`;
    case "extraSteps": return `${nodeLabel(e.from)}에서 출발한 말이 ${e.steps}칸 더 갔어요 (+${e.steps} step)`;
    case "twinEntry": return `대기 말 ${e.count}개가 한 무더기로 함께 들어갔어요 (twin entry)`;
    case "marked": return `${nodeLabel(e.node)}의 무더기에 표시 — 다음 이동에 한 칸 더 가요 (marked)`;
    case "finishedShort": return `${nodeLabel(e.node)}에서 한 칸 모자랐지만 났어요 (finished one step short)`;
    case "armed": return "잡혔으니 다음 차례에 한 번 더 던져요 (payback armed)";
    case "cushioned":
      if (typeof e.to === "number") return `잡힌 말 ${e.count}개가 대기 대신 ${nodeLabel(e.to)}로 갔어요 (cushioned)`;
      if (e.blocked) return `1번 자리가 막혀 잡힌 말 ${e.count}개는 대기로 — 완충은 썼어요 (cushion blocked, spent)`;
      return `잡힌 말 ${e.count}개는 대기로 (cushion spent)`;
    case "truceCalled": return `두 번째 말을 잃어 쉼 약속 — ${sideName(e.barred)}은(는) 다음 차례에 잡을 수 없어요 (truce called)`;
    case "truceInForce": return "이번 차례에는 상대 말을 잡을 수 없어요 (truce in force)";
    default: return `(${e.effect})`;
  }
}

const SLOTS = { start: "시작 증강", middle: "중간 증강", finish: "마무리 증강" };
export const slotName = (slot) => SLOTS[slot] ?? String(slot);

// The log line of one event, or null for one that has no words (each event the server
// sends is worded; an unknown type is shown by its name rather than dropped).
// `view` names the sides and players.
export function eventLine(e, view) {
  const sideName = (s) => {
    const side = view?.sides?.[s];
    return side ? `${shape(s)} ${side.name}` : `#${s}`;
  };
  const who = sideName(e.side);
  switch (e.type) {
    case "thrown": {
      const again = e.result === "yut" || e.result === "mo" ? "  한 번 더!(throw again)" : "";
      return `${who} 윷 던지기(throw) ${sticksLabel(e.sticks)} → ${throwLabel(e.result)}${again}`;
    }
    case "nak": return `${who} 윷 던지기(throw) → 낙!(nak) 윷가락이 판 밖으로 떨어졌어요 (no result)`;
    case "moved": {
      const what = e.count > 1 ? `말 ${e.count}개 무더기(stack of ${e.count})` : "말(piece)";
      return `${who} ${throwLabel(e.result)}: ${what} ${nodeLabel(e.from)} → ${nodeLabel(e.to)}   [${pathLabel(e.from, e.path, e.to)}]`;
    }
    case "carried": return `말 ${e.count}개가 ${nodeLabel(e.from)} → ${nodeLabel(e.to)}로 더 갔어요 (carried on)`;
    case "stacked": return `업기! ${nodeLabel(e.node)}에서 ${e.count}개가 한 무더기 (stacked, ${e.count} pieces)`;
    case "captured": return `잡기! ${sideName(e.victimSide)}의 말 ${e.count}개를 ${nodeLabel(e.node)}에서 잡아 대기로 보냈어요 (captured ${e.count}: back to waiting)`;
    case "finishedPieces": return `남! ${who} 말 ${e.count}개가 났어요 (${e.count} finished)`;
    case "discarded": return `${who} 버림(discarded): ${(e.throws ?? []).map(throwLabel).join(" · ")} — 쓸 곳이 없어요 (no legal move)`;
    case "turnChanged": {
      const player = view?.players?.[e.seat] ?? "";
      const team = view?.options?.mode === "team" ? ` ${player}` : "";
      return `차례(turn) → ${who}${team}`;
    }
    case "sideFinished": return `${who} 말 ${view?.options?.pieces ?? ""}개 모두 남! ${e.rank}등 (all pieces finished: place ${e.rank})`;
    case "conceded": return `${who} ${view?.players?.[e.seat] ?? ""} 기권(conceded)${e.sideOut ? " — 탈락(out of the game)" : " — 팀은 계속해요(team plays on)"}`;
    case "gameOver": return `게임 끝! 승리(winners): ${(e.winners ?? []).join(", ")}`;
    case "presenceChanged": return `${e.player}: ${e.away ? "자리 비움(away)" : e.connected ? "돌아왔어요(back)" : "연결 끊김(disconnected)"}`;
    case "augmentOffered": return `${who} ${slotName(e.slot)} 고르기(augment draft) — 후보(candidates): ${(e.candidates ?? []).map(sourceLabel).join(" · ")}`;
    case "augmentChosen": return `${who} 증강 선택(chose): ${sourceLabel(e.id)} — ${augmentGloss(e.id)}`;
    case "augmentFired": return `✦ ${who} ${sourceLabel(e.id)} ${effectText(e, sideName)}`;
    default: return `${who} ${e.type}`;
  }
}

const onOff = (b) => (b ? "켬(on)" : "끔(off)");
const FROM_DO = { chammeogi: "참먹이로(chammeogi)", finish: "즉시 남(finish)", home: "대기로(waiting)" };
const FINISH = { pass: "참먹이를 지나야(pass)", reach: "참먹이에 닿으면(reach)" };
const STICKS = { realistic: "realistic(배 0.6)", fair: "fair(배 0.5)" };
const RANKING = { first: "first(1등이 나오면 끝)", all: "all(끝까지)" };

// The rules in force in one line (shown before a match is created and on the board):
// the options that differ between regions first, then the rest.
export function rulesLine(o, augments) {
  if (!o) return "";
  const parts = [
    `${o.mode === "team" ? "팀전(team)" : "개인전(individual)"}`,
    `말(pieces) ${o.pieces}개`,
    `빽도(backdo) ${onOff(o.backdo)}`,
    `도에서 빽도(backdo from 도) → ${FROM_DO[o.backdoFromDo] ?? o.backdoFromDo}`,
    `남(finish) ${FINISH[o.finishRule] ?? o.finishRule}`,
    `윷가락(sticks) ${STICKS[o.stickModel] ?? o.stickModel}`,
    `낙(nak) ${o.nakPercent}%`,
    `빽도 잡기 보너스(bonus) ${onOff(o.backdoCaptureBonus)}`,
    `순위(ranking) ${RANKING[o.ranking] ?? o.ranking}`,
    `시간(turn) ${o.turnSeconds ? `${o.turnSeconds}초` : "없음(none)"}`,
  ];
  if (augments) {
    const n = augments.augments?.length ?? 0;
    parts.push(`증강(augments) ${n ? `${n}개` : "없음(no draft)"}`,
      `첫 잡힘 완충(cushion) ${onOff(augments.cushion)}`, `쉼 약속(truce) ${onOff(augments.truce)}`);
  }
  return `규칙(rules): ${parts.join(" · ")}`;
}
