//! Terminal styling: optional ANSI colours, one colour and one shape per side, and display
//! widths for aligning Korean text.

/// The shape of each side's pieces (side id modulo 4), so the board reads without colour.
pub const SHAPES: [&str; 4] = ["●", "▲", "■", "★"];

/// ANSI colour codes per side (blue 청, red 홍, green, yellow).
const SIDE_COLOURS: [&str; 4] = ["1;34", "1;31", "1;32", "1;33"];

/// How to style text: with ANSI escape codes or as plain text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Whether to emit ANSI escape codes (colours, screen clearing).
    pub ansi: bool,
}

impl Style {
    /// Plain text, no escape codes.
    pub const PLAIN: Style = Style { ansi: false };

    /// `text` wrapped in the ANSI code `code` (`"1;34"`), or unchanged without ANSI.
    ///
    /// ```
    /// use examples::style::Style;
    /// assert_eq!(Style::PLAIN.paint("1", "x"), "x");
    /// assert_eq!(Style { ansi: true }.paint("1", "x"), "\x1b[1mx\x1b[0m");
    /// ```
    pub fn paint(&self, code: &str, text: &str) -> String {
        if self.ansi && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    /// `text` in the colour of `side`.
    pub fn side(&self, side: u8, text: &str) -> String {
        self.paint(side_colour(side), text)
    }

    /// Bold.
    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    /// Dim (board lines, empty nodes).
    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    /// Red, for errors.
    pub fn error(&self, text: &str) -> String {
        self.paint("1;31", text)
    }

    /// Yellow, for highlights (captures, finishing).
    pub fn highlight(&self, text: &str) -> String {
        self.paint("1;33", text)
    }
}

/// The shape of `side`'s pieces.
///
/// ```
/// assert_eq!(examples::style::shape(1), "▲");
/// ```
pub fn shape(side: u8) -> &'static str {
    SHAPES[usize::from(side) % SHAPES.len()]
}

/// The ANSI colour code of `side`.
pub fn side_colour(side: u8) -> &'static str {
    SIDE_COLOURS[usize::from(side) % SIDE_COLOURS.len()]
}

/// The width of `text` in terminal columns: Hangul and other wide East Asian characters
/// count two, ANSI escape sequences count nothing, everything else one.
///
/// ```
/// use examples::style::display_width;
/// assert_eq!(display_width("P1"), 2);
/// assert_eq!(display_width("청팀"), 4);
/// assert_eq!(display_width("\x1b[1mab\x1b[0m"), 2);
/// ```
pub fn display_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Skip a CSI sequence: ESC [ ... final byte in @..~.
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) && d != '[' {
                    break;
                }
            }
            continue;
        }
        width += if is_wide(c) { 2 } else { 1 };
    }
    width
}

/// Whether `c` takes two terminal columns (Hangul, CJK, full-width forms).
fn is_wide(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA960..=0xA97F
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6)
}

/// `text` padded with spaces on the right to `width` terminal columns.
///
/// ```
/// assert_eq!(examples::style::pad("청팀", 6), "청팀  ");
/// ```
pub fn pad(text: &str, width: usize) -> String {
    let w = display_width(text);
    format!("{text}{}", " ".repeat(width.saturating_sub(w)))
}
