//! Drawing the 29-node board (`yut/RULES.md`, "The board") in a terminal, with a side panel.
//!
//! The outer ring is a square of 20 nodes, counter-clockwise from 참먹이 (0, bottom right)
//! through 모 (5, top right), 뒷모 (10, top left) and 찌모 (15, bottom left); the diagonals
//! 5→20→21→22→23→24→15 and 10→25→26→22→27→28→0 cross at 방 (22). A node always shows its
//! number, because the move list names nodes by number; an occupied node shows its side's
//! shape before it (`●19`), and the panel lists each side's stacks with their sizes
//! (`판 위(on board): ●19 무더기 2개(stack of 2) · ●5`).
//!
//! ```text
//! 10 ─── 9 ─── 8 ─── 7 ─── 6 ─── 5
//!  │ \                        /  │
//! 11   25                  20    4
//!  │      \              /       │
//!  │        26        21         │
//! 12           \    /            3
//!  │             22              │
//! 13           /    \            2
//!  │        23        27         │
//!  │      /              \       │
//! 14   24                  28    1
//!  │ /                        \  │
//! 15 ── 16 ── 17 ── 18 ── 19 ─── 0
//! ```

use yut::graph::NODE_COUNT;
use yut::{PieceStatus, YutView};

use crate::style::{Style, display_width, pad, shape};

/// Rows of the drawn board.
pub const BOARD_ROWS: usize = 13;
/// Columns of the drawn board.
pub const BOARD_COLS: usize = 33;

/// Columns the panel may take beside the board, so that no line passes 120.
pub const PANEL_WIDTH: usize = 120 - BOARD_COLS - 3;

/// Where each node's three-column cell starts: `(column, row)`. The ring's sides have five
/// gaps over twelve rows (2, 3, 2, 3, 2), the diagonals six gaps of two rows.
const POS: [(usize, usize); NODE_COUNT] = [
    (30, 12), // 0 참먹이
    (30, 10),
    (30, 7),
    (30, 5),
    (30, 2),
    (30, 0), // 5 모
    (24, 0),
    (18, 0),
    (12, 0),
    (6, 0),
    (0, 0), // 10 뒷모
    (0, 2),
    (0, 5),
    (0, 7),
    (0, 10),
    (0, 12), // 15 찌모
    (6, 12),
    (12, 12),
    (18, 12),
    (24, 12),
    (25, 2), // 20 앞모도
    (20, 4),
    (15, 6), // 22 방
    (10, 8),
    (5, 10),
    (5, 2), // 25 뒷모도
    (10, 4),
    (20, 8),
    (25, 10),
];

/// The lines of the board: the ring's sides and the diagonals, `(column, row, text)`.
const LINES: &[(usize, usize, &str)] = &[
    (1, 1, "│"),
    (1, 3, "│"),
    (1, 4, "│"),
    (1, 6, "│"),
    (1, 8, "│"),
    (1, 9, "│"),
    (1, 11, "│"),
    (31, 1, "│"),
    (31, 3, "│"),
    (31, 4, "│"),
    (31, 6, "│"),
    (31, 8, "│"),
    (31, 9, "│"),
    (31, 11, "│"),
    // 10 → 25 → 26 → 22 → 27 → 28 → 0
    (3, 1, "\\"),
    (8, 3, "\\"),
    (13, 5, "\\"),
    (18, 7, "\\"),
    (23, 9, "\\"),
    (28, 11, "\\"),
    // 5 → 20 → 21 → 22 → 23 → 24 → 15
    (28, 1, "/"),
    (23, 3, "/"),
    (18, 5, "/"),
    (13, 7, "/"),
    (8, 9, "/"),
    (3, 11, "/"),
];

/// The rows of the ring's top and bottom edges, whose gaps (columns 3–5, 9–11, ...) are
/// drawn after the nodes so that a label never touches its edge.
const EDGE_ROWS: [usize; 2] = [0, BOARD_ROWS - 1];

/// One terminal column of the grid: a character and an optional ANSI code.
#[derive(Clone, Copy)]
struct Cell {
    ch: char,
    code: Option<&'static str>,
}

/// Who stands on each node: `(side, pieces)`.
pub fn occupancy<V, E, A>(view: &YutView<V, E, A>) -> [Option<(u8, u8)>; NODE_COUNT] {
    let mut nodes = [None; NODE_COUNT];
    for side in &view.sides {
        for piece in &side.pieces {
            if piece.status == PieceStatus::Board
                && let Some(n) = piece.node
                && let Some(slot) = nodes.get_mut(usize::from(n))
            {
                let count = slot.map_or(0, |(_, c)| c);
                *slot = Some((side.id, count + 1));
            }
        }
    }
    nodes
}

/// The board alone: [`BOARD_ROWS`] lines, each [`BOARD_COLS`] columns wide (trailing spaces
/// trimmed when plain).
pub fn draw_board<V, E, A>(view: &YutView<V, E, A>, style: Style) -> Vec<String> {
    let blank = Cell {
        ch: ' ',
        code: None,
    };
    let mut grid = vec![vec![blank; BOARD_COLS]; BOARD_ROWS];
    let mut put = |col: usize, row: usize, text: &str, code: Option<&'static str>| {
        for (i, ch) in text.chars().enumerate() {
            if let Some(cell) = grid.get_mut(row).and_then(|r| r.get_mut(col + i)) {
                *cell = Cell { ch, code };
            }
        }
    };
    for &(col, row, text) in LINES {
        put(col, row, text, Some("2"));
    }
    let occupied = occupancy(view);
    for (node, &(col, row)) in POS.iter().enumerate() {
        // One-digit numbers keep their column when a shape joins them, so the ring's
        // vertical lines stay under them.
        match occupied[node] {
            Some((side, _)) if node < 10 => put(
                col,
                row,
                &format!("{}{node} ", shape(side)),
                Some(colour(side)),
            ),
            Some((side, _)) => put(
                col,
                row,
                &format!("{}{node}", shape(side)),
                Some(colour(side)),
            ),
            None if node < 10 => put(col, row, &format!(" {node} "), Some("2")),
            None => put(col, row, &format!("{node} "), Some("2")),
        }
    }
    for row in EDGE_ROWS {
        for gap in (3..BOARD_COLS - 3).step_by(6) {
            let left_free = grid[row][gap - 1].ch == ' ';
            let right_free = grid[row][gap + 3].ch == ' ';
            for (i, col) in (gap..gap + 3).enumerate() {
                let free = match i {
                    0 => left_free,
                    2 => right_free,
                    _ => true,
                };
                let ch = if free { '─' } else { ' ' };
                grid[row][col] = Cell {
                    ch,
                    code: Some("2"),
                };
            }
        }
    }
    grid.iter()
        .map(|row| {
            let mut line = String::new();
            let mut run: Option<&'static str> = None;
            let mut text = String::new();
            for cell in row {
                if cell.code != run {
                    flush(&mut line, &mut text, run, style);
                    run = cell.code;
                }
                text.push(cell.ch);
            }
            flush(&mut line, &mut text, run, style);
            if style.ansi {
                line
            } else {
                line.trim_end().to_owned()
            }
        })
        .collect()
}

fn colour(side: u8) -> &'static str {
    crate::style::side_colour(side)
}

/// Appends the pending `text` to `line`, painted with `code` unless it is only spaces.
fn flush(line: &mut String, text: &mut String, code: Option<&str>, style: Style) {
    match code {
        Some(code) if !text.trim().is_empty() => line.push_str(&style.paint(code, text)),
        _ => line.push_str(text),
    }
    text.clear();
}

/// The name of `side` with its shape, in its colour (`● P1`, `▲ 홍팀`).
pub fn side_tag<V, E, A>(view: &YutView<V, E, A>, side: u8, style: Style) -> String {
    let name = view
        .sides
        .get(usize::from(side))
        .map_or_else(|| format!("side {side}"), |s| s.name.clone());
    style.side(side, &format!("{} {name}", shape(side)))
}

/// The panel beside the board: title, each side's waiting and finished pieces and its
/// stacks on the board, whose turn it is, the pending results and the last throw. `humans` marks seats played by people.
pub fn panel<V, E, A>(view: &YutView<V, E, A>, humans: &[usize], style: Style) -> Vec<String> {
    let mut lines = Vec::with_capacity(BOARD_ROWS);
    let occupied = occupancy(view);
    let mode = match view.options.mode {
        yut::Mode::Individual => "개인전 individual",
        yut::Mode::Team => "팀전 team",
        other => other.word(),
    };
    lines.push(style.bold(&format!(
        "윷놀이 Yut Nori · {mode} · {n}인({n} players) · 말 {p}개({p} pieces each)",
        n = view.players.len(),
        p = view.options.pieces
    )));
    lines.push(String::new());
    let width = view
        .sides
        .iter()
        .map(|s| display_width(&s.name))
        .max()
        .unwrap_or(2);
    for side in &view.sides {
        let sh = shape(side.id);
        let home = usize::from(side.home);
        let done = usize::from(side.finished);
        let name = pad(&side.name, width);
        let pieces = |n: usize| {
            if n == 0 {
                pad("-", 6)
            } else {
                pad(&style.side(side.id, &sh.repeat(n)), 6)
            }
        };
        let mut line = format!(
            "{}  {} {}  {} {} {}/{}",
            style.side(side.id, &format!("{sh} {name}")),
            crate::narrate::WAITING,
            pieces(home),
            crate::narrate::FINISHED,
            pieces(done),
            done,
            side.pieces.len(),
        );
        if let Some(rank) = side.finished_rank {
            line.push_str(&style.highlight(&format!("  {rank}등")));
        }
        if side.conceded {
            line.push_str("  기권(conceded)");
        }
        let people: Vec<&str> = side
            .members
            .iter()
            .filter(|m| {
                view.players
                    .iter()
                    .position(|p| p == *m)
                    .is_some_and(|seat| humans.contains(&seat))
            })
            .map(String::as_str)
            .collect();
        let mut extra = String::new();
        if view.options.mode == yut::Mode::Team {
            extra.push_str(&format!("  ({})", side.members.join("·")));
        }
        if !people.is_empty() {
            extra.push_str(&format!("  사람(human): {}", people.join("·")));
        }
        // Eight players' names do not fit beside the counts: they get a line of their own.
        if display_width(&line) + display_width(&extra) > PANEL_WIDTH {
            lines.push(line);
            lines.push(format!("{}{}", " ".repeat(width + 2), extra));
        } else {
            lines.push(line + &extra);
        }
        let stacks: Vec<String> = occupied
            .iter()
            .enumerate()
            .filter_map(|(node, o)| match *o {
                Some((s, 1)) if s == side.id => Some(format!("{sh}{node}")),
                Some((s, n)) if s == side.id => {
                    Some(format!("{sh}{node} 무더기 {n}개(stack of {n})"))
                }
                _ => None,
            })
            .collect();
        if !stacks.is_empty() {
            lines.push(format!(
                "{}판 위(on board): {}",
                " ".repeat(width + 4),
                style.side(side.id, &stacks.join(" · "))
            ));
        }
    }
    lines.push(String::new());
    match &view.turn {
        Some(turn) => {
            let what = match view.phase {
                yut::Phase::Throw => "던지기(throw)",
                yut::Phase::Move => "말 옮기기(move)",
                yut::Phase::Rule => "규칙 선택(rule)",
                yut::Phase::Finished => "끝(over)",
                _ => "?",
            };
            let who = if view.options.mode == yut::Mode::Team {
                format!("{} {}", side_tag(view, turn.side, style), turn.player)
            } else {
                side_tag(view, turn.side, style)
            };
            lines.push(format!("차례(turn): {who} · {what}"));
        }
        None => lines.push(style.bold("게임 끝(game over)")),
    }
    if !view.pending.is_empty() {
        let pending: Vec<String> = view
            .pending
            .iter()
            .map(|t| crate::narrate::throw_label(*t))
            .collect();
        lines.push(format!("모아 둔 결과(pending): {}", pending.join(" · ")));
    }
    if let Some(last) = &view.last_throw {
        let shown = match (last.sticks, last.result.result()) {
            (Some(sticks), Some(result)) => format!(
                "{} → {}",
                crate::narrate::sticks_label(sticks),
                crate::narrate::throw_label(result)
            ),
            _ => "낙(nak)".to_owned(),
        };
        lines.push(format!("윷가락(sticks): {shown}"));
    }
    lines
}

/// The board with the panel to its right, ready to print.
pub fn render<V, E, A>(view: &YutView<V, E, A>, humans: &[usize], style: Style) -> Vec<String> {
    render_with(view, humans, style, &[])
}

/// [`render`] with `extra` lines at the end of the panel (a rule layer's: each side's
/// augments, the house rules, the draft in progress).
pub fn render_with<V, E, A>(
    view: &YutView<V, E, A>,
    humans: &[usize],
    style: Style,
    extra: &[String],
) -> Vec<String> {
    let board = draw_board(view, style);
    let mut panel = panel(view, humans, style);
    if !extra.is_empty() {
        panel.push(String::new());
        panel.extend(extra.iter().cloned());
    }
    let rows = board.len().max(panel.len());
    (0..rows)
        .map(|i| {
            let left = board.get(i).map_or("", String::as_str);
            match panel.get(i) {
                Some(right) if !right.is_empty() => {
                    format!("{}   {right}", pad(left, BOARD_COLS))
                }
                _ => left.to_owned(),
            }
        })
        .collect()
}
