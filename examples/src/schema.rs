//! The `schema` example: the JSON Schemas of every registered game's wire types, one file
//! each, for hosts that generate their types from them (TypeScript, for instance).
//!
//! `cargo run --release --example schema -- DIR` writes `DIR/GAME/TYPE.json` for every game
//! of [`game_host::registry`] and every type of [`game_core::GameSchemas::entries`]: `options`,
//! `action`, `view`, `event`, `outcome` and `error` (for example `DIR/yut/view.json`). The
//! files are pretty-printed JSON with a final newline; the same engine gives the same bytes.
//! The host protocol's schemas go to `DIR/host/NAME.json` (see `game_host::schemas`, plus the trace mode's `trace-line`:
//! `request`, `reply-OP` per operation, `reply-error`, `status`, `applied`, `record`,
//! `trace-line`).
//! The schemas are normalised for code generators (closed unions and objects, exact option
//! values, titles after the game: see [`game_core::schema`]).
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("schema-doc-{}", std::process::id()));
//! let files = examples::schema::write_schemas(&game_host::registry(), &dir).unwrap();
//! assert!(files.contains(&dir.join("yut").join("view.json")));
//! assert!(files.contains(&dir.join("host").join("request.json")));
//! // one-card, rps, yut and yut-augments, six types each, then the host protocol's
//! assert_eq!(files.len(), 4 * 6 + examples::schema::host_schemas().len());
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use game_core::Registry;
use serde_json::Value;

/// The wire types written for each game, in file order.
pub const TYPES: [&str; 6] = ["options", "action", "view", "event", "outcome", "error"];

/// Schema files written under one directory.
struct Files {
    dir: PathBuf,
    written: Vec<PathBuf>,
}

impl Files {
    /// Writes `schema` to `DIR/FOLDER/NAME.json`, creating the folder if needed.
    fn write(&mut self, folder: &str, name: &str, schema: &Value) -> io::Result<()> {
        let folder = self.dir.join(folder);
        fs::create_dir_all(&folder)?;
        let path = folder.join(format!("{name}.json"));
        let mut text = serde_json::to_string_pretty(schema).map_err(io::Error::other)?;
        text.push('\n');
        fs::write(&path, text)?;
        self.written.push(path);
        Ok(())
    }
}

/// Writes the schemas of every game in `registry` under `dir` (created if needed) and
/// returns the files written, sorted by game id then in [`TYPES`] order, then the host
/// protocol's.
pub fn write_schemas(registry: &Registry, dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Files {
        dir: dir.to_owned(),
        written: Vec::new(),
    };
    for id in registry.ids() {
        let game = registry.get(id).map_err(io::Error::other)?;
        for (name, schema) in game.schemas().entries() {
            files.write(id, name, schema)?;
        }
    }
    for (name, schema) in host_schemas() {
        files.write("host", name, &schema)?;
    }
    Ok(files.written)
}

/// The host protocol's schemas ([`game_host::schemas`]) and the trace mode's line
/// (`trace-line`, [`crate::trace::line_schema`]): what `write_schemas` puts in `DIR/host/`.
///
/// ```
/// let names: Vec<&str> = examples::schema::host_schemas().iter().map(|(n, _)| *n).collect();
/// assert!(names.contains(&"request") && names.contains(&"trace-line"));
/// ```
pub fn host_schemas() -> Vec<(&'static str, serde_json::Value)> {
    let mut all = game_host::schemas();
    all.push(("trace-line", crate::trace::line_schema()));
    all
}
