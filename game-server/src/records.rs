//! Finished matches' records, kept once each, compressed: every `record` of a finished
//! match after the first is served from that copy, without the match's task, the store
//! or the record's JSON tree.

use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};

use game_core::MatchRecord;
use serde_json::Value;

use crate::lock;

/// The most bytes of compressed records kept in memory: the oldest leave first. A record
/// compresses to about a tenth of its JSON (a 2.9 MB record of presence flips: 0.1 MB).
pub const RECORD_CACHE_BYTES: usize = 32 << 20;

/// A finished match's record: its JSON, deflated.
pub(crate) struct Packed {
    deflated: Vec<u8>,
    /// The JSON's length, so a reply is written into one allocation of its size.
    len: usize,
}

impl Packed {
    /// Serializes and compresses `record`: as a reply built over a `Value` writes it
    /// (its keys in that order), so a reply from the kept copy is the very text the match
    /// or the store would have given.
    fn pack(record: &MatchRecord) -> Option<Self> {
        let json = serde_json::to_vec(&serde_json::to_value(record).ok()?).ok()?;
        let mut z = flate2::write::DeflateEncoder::new(
            Vec::with_capacity(json.len() / 8),
            flate2::Compression::fast(),
        );
        z.write_all(&json).ok()?;
        Some(Self {
            deflated: z.finish().ok()?,
            len: json.len(),
        })
    }

    /// The reply line to a `record` with request id `id`, as the host writes it
    /// (`{"id", "ok": true, "record"}`).
    pub(crate) fn reply(&self, id: &Value) -> Option<String> {
        let id = serde_json::to_string(id).ok()?;
        let mut line = String::with_capacity(self.len + id.len() + 32);
        line.push_str("{\"id\":");
        line.push_str(&id);
        line.push_str(",\"ok\":true,\"record\":");
        flate2::read::DeflateDecoder::new(&self.deflated[..])
            .read_to_string(&mut line)
            .ok()?;
        line.push('}');
        Some(line)
    }
}

/// The compressed records of the finished matches asked for lately.
pub(crate) struct Cache {
    inner: Mutex<Inner>,
    /// The most bytes kept ([`RECORD_CACHE_BYTES`]).
    cap: usize,
}

impl Default for Cache {
    fn default() -> Self {
        Self::with_cap(RECORD_CACHE_BYTES)
    }
}

#[derive(Default)]
struct Inner {
    map: HashMap<String, Arc<Packed>>,
    /// The ids in the order they came: the first leaves first.
    order: VecDeque<String>,
    bytes: usize,
}

impl Cache {
    /// A cache of at most `cap` bytes.
    fn with_cap(cap: usize) -> Self {
        Self {
            inner: Mutex::default(),
            cap,
        }
    }

    /// The kept record of match `id`.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<Packed>> {
        lock(&self.inner).map.get(id).cloned()
    }

    /// Keeps the record of the finished match `id` (once: a record kept already is not
    /// packed again), and gives the kept copy.
    pub(crate) fn keep(&self, id: &str, record: &MatchRecord) -> Option<Arc<Packed>> {
        if let Some(kept) = self.get(id) {
            return Some(kept);
        }
        // Packed outside the lock: another socket's reply does not wait for it.
        let packed = Arc::new(Packed::pack(record)?);
        let size = packed.deflated.len() + id.len();
        if size > self.cap {
            return Some(packed);
        }
        let mut inner = lock(&self.inner);
        if let Some(kept) = inner.map.get(id) {
            return Some(kept.clone());
        }
        while inner.bytes + size > self.cap {
            let Some(old) = inner.order.pop_front() else {
                break;
            };
            if let Some(p) = inner.map.remove(&old) {
                inner.bytes -= p.deflated.len() + old.len();
            }
        }
        inner.bytes += size;
        inner.order.push_back(id.to_owned());
        inner.map.insert(id.to_owned(), packed.clone());
        Some(packed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::RecordEntry;

    fn record(n: usize) -> MatchRecord {
        MatchRecord {
            game: "rps".into(),
            version: 1,
            options: Value::Null,
            players: vec!["a".into(), "b".into()],
            seed: 7,
            started_at: 0,
            base: None,
            entries: (0..n)
                .map(|i| RecordEntry::Presence {
                    at: i as u64,
                    player: "a".into(),
                    connected: i % 2 == 0,
                })
                .collect(),
        }
    }

    #[test]
    fn a_kept_record_replies_as_the_host_writes_it_and_is_small() {
        let cache = Cache::default();
        let r = record(40_000);
        let packed = cache.keep("m1", &r).unwrap();
        let id = serde_json::json!(3);
        let line = packed.reply(&id).unwrap();
        let host = serde_json::to_string(&game_host::Host::reply(
            id,
            Ok(game_host::reply::body(&game_host::reply::Record {
                record: r,
            })),
        ))
        .unwrap();
        assert_eq!(line, host);
        assert!(
            packed.deflated.len() * 10 < line.len(),
            "{}",
            packed.deflated.len()
        );
        assert!(Arc::ptr_eq(&packed, &cache.get("m1").unwrap()));
    }

    #[test]
    fn the_cache_stays_under_its_bytes() {
        let cache = Cache::with_cap(64 << 10);
        let r = record(200);
        for i in 0..2_000 {
            cache.keep(&format!("m{i}"), &r);
        }
        let inner = lock(&cache.inner);
        assert!(inner.bytes <= 64 << 10, "{}", inner.bytes);
        assert_eq!(inner.map.len(), inner.order.len());
        assert!(inner.map.len() > 10, "{}", inner.map.len());
        assert!(inner.map.contains_key("m1999"));
        assert!(!inner.map.contains_key("m0"));
    }
}
