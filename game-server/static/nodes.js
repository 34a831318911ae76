// The 29 nodes of the Yut board (yut/src/board.rs): where each is drawn in a 600×600
// SVG, how large, its Korean name and its romanized one, as the terminal game labels them.
const K = [
  ["참먹이", "chammeogi"], ["도", "do"], ["개", "gae"], ["걸", "geol"], ["윷", "yut"],
  ["모", "mo"], ["뒷도", "dwitdo"], ["뒷개", "dwitgae"], ["뒷걸", "dwitgeol"],
  ["뒷윷", "dwityut"], ["뒷모", "dwitmo"], ["찌도", "jjido"], ["찌개", "jjigae"],
  ["찌걸", "jjigeol"], ["찌윷", "jjiyut"], ["찌모", "jjimo"], ["날도", "naldo"],
  ["날개", "nalgae"], ["날걸", "nalgeol"], ["날윷", "nalyut"], ["앞모도", "apmodo"],
  ["앞모개", "apmogae"], ["방", "bang"], ["속윷", "sogyut"], ["속모", "sokmo"],
  ["뒷모도", "dwitmodo"], ["뒷모개", "dwitmogae"], ["사려", "saryeo"], ["안찌", "anjji"],
];
const lo = 50, hi = 550, step = (hi - lo) / 5;
function pos(n) {
  if (n === 0) return [hi, hi];
  if (n <= 5) return [hi, hi - step * n];
  if (n <= 10) return [hi - step * (n - 5), lo];
  if (n <= 15) return [lo, lo + step * (n - 10)];
  if (n <= 19) return [lo + step * (n - 15), hi];
  const c = 300, d = (hi - lo) / 6;
  // 5 → 20 → 21 → 22 → 23 → 24 → 15 and 10 → 25 → 26 → 22 → 27 → 28 → 0.
  const diag = { 20: [2, -2], 21: [1, -1], 22: [0, 0], 23: [-1, 1], 24: [-2, 2],
    25: [-2, -2], 26: [-1, -1], 27: [1, 1], 28: [2, 2] };
  const [x, y] = diag[n];
  return [c + x * d, c + y * d];
}
// The corners and the centre (방) are larger: a move turns only when it stops there.
export const BIG = new Set([0, 5, 10, 15, 22]);
// Radii in the SVG's units: on a 390 px phone the board is about 370 px wide, so a
// plain node is at least 48 px across.
export const radius = (n) => (BIG.has(n) ? 48 : 40);
export const NODES = K.map(([ko, ro], id) => ({ id, ko, ro, xy: pos(id), r: radius(id) }));
export const LINES = [
  [0, 5], [5, 10], [10, 15], [15, 0],
];
export const DIAGONALS = [[5, 20, 21, 22, 23, 24, 15], [10, 25, 26, 22, 27, 28, 0]];
export const THROWS = {
  backdo: ["빽도", "backdo", -1], do: ["도", "do", 1], gae: ["개", "gae", 2],
  geol: ["걸", "geol", 3], yut: ["윷", "yut", 4], mo: ["모", "mo", 5],
};
