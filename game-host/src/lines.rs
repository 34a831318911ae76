//! The JSON-lines transport: requests read line by line with a cap on the length, one
//! reply line each.

use std::io::{self, BufRead, Write};

use serde_json::Value;

use crate::Host;
use crate::reply::bad_request;

/// The longest request line served by default, in bytes (`--max-line` changes it).
pub const DEFAULT_MAX_LINE: usize = 1 << 20;

/// One line read with a cap on its length.
enum Line {
    /// The line's bytes (without the newline).
    Text,
    /// The line was longer than the cap; its bytes were read and dropped.
    TooLarge(usize),
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes: a longer line
/// is consumed to its end without being kept, so one huge line costs no memory. `None` at
/// the end of the input.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<Line>> {
    buf.clear();
    let mut len = 0usize;
    let mut started = false;
    loop {
        let chunk = input.fill_buf()?;
        // A newline ends the line, and so does the end of the input (an empty chunk).
        let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), chunk.is_empty()),
        };
        if used == 0 && !started {
            return Ok(None);
        }
        started = true;
        len = len.saturating_add(part.len());
        if len <= max {
            buf.extend_from_slice(part);
        } else {
            buf.clear();
        }
        input.consume(used);
        if ended {
            return Ok(Some(if len > max {
                Line::TooLarge(len)
            } else {
                Line::Text
            }));
        }
    }
}

/// [`serve_with`] with the default line cap ([`DEFAULT_MAX_LINE`]).
#[cfg(feature = "builtin")]
pub fn serve(input: impl BufRead, output: impl Write) -> io::Result<()> {
    serve_with(input, output, DEFAULT_MAX_LINE)
}

/// [`serve_lines`] with a new host over the built-in games.
#[cfg(feature = "builtin")]
pub fn serve_with(input: impl BufRead, output: impl Write, max_line: usize) -> io::Result<()> {
    serve_lines(&mut Host::default(), input, output, max_line)
}

/// Serves requests from `input` to `host` until the input ends, one reply line to
/// `output` per request (flushed at once, so a client can talk to the host through pipes).
/// Lines that are not UTF-8 or not JSON get a `BAD_REQUEST` reply, lines over `max_line`
/// bytes `TOO_LARGE`; only a failing `input` or `output` stops it.
///
/// ```
/// let mut host = game_host::Host::new(game_host::registry());
/// let mut out = Vec::new();
/// game_host::serve_lines(&mut host, &b"{\"op\":\"games\"}\n\n"[..], &mut out, 1024).unwrap();
/// assert!(String::from_utf8(out).unwrap().starts_with(r#"{"id":null,"ok":true,"games":"#));
/// ```
pub fn serve_lines(
    host: &mut Host,
    mut input: impl BufRead,
    mut output: impl Write,
    max_line: usize,
) -> io::Result<()> {
    let mut buf = Vec::new();
    while let Some(line) = read_line(&mut input, &mut buf, max_line)? {
        let reply = match line {
            Line::TooLarge(len) => Host::too_large(len, max_line),
            Line::Text => match std::str::from_utf8(&buf) {
                // Blank by JSON's whitespace only: a line of other spaces (U+00A0, U+3000)
                // is a request that gets its `BAD_REQUEST`, not silence.
                Ok(text) if text.trim_matches([' ', '\t', '\r', '\n']).is_empty() => continue,
                Ok(text) => host.handle_line(text),
                Err(e) => Host::reply(
                    Value::Null,
                    Err(bad_request(None, format!("the line is not UTF-8: {e}"))),
                ),
            },
        };
        serde_json::to_writer(&mut output, &reply)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}
