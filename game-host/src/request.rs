//! Requests: the operations and their fields, and the strict reader of one request line.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::reply::{Fail, bad_request, not_a_count};

/// The longest match id, in bytes (as for player ids).
pub const MAX_ID: usize = 128;

/// What a request field holds; it decides how the field is read and its schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An id (game, match, player): a string of 1 to [`MAX_ID`] bytes.
    Id,
    /// Player ids in seat order.
    Players,
    /// A JSON object in a game's wire format (options, action).
    Object,
    /// A time, a seed or a `turnSeq`: an integer from 0 to 2^53 − 1
    /// ([`MAX_SAFE_INTEGER`](game_core::MAX_SAFE_INTEGER)), exact in JavaScript.
    Count,
    /// `true` or `false`.
    Flag,
    /// A [`MatchRecord`](game_core::MatchRecord).
    Record,
    /// A stored state, as `state_json` gave it.
    State,
}

/// One request field: its name, what it holds, whether it must be there.
pub type Field = (&'static str, Kind, bool);

/// Every operation with its fields (besides `op` and `id`): the one list that the reader
/// checks requests against and that the request schema is made from.
pub const OPS: [(&str, &[Field]); 14] = [
    ("games", &[]),
    ("schemas", &[("game", Kind::Id, true)]),
    (
        "create",
        &[
            ("game", Kind::Id, true),
            ("players", Kind::Players, true),
            ("options", Kind::Object, false),
            ("seed", Kind::Count, false),
            ("now", Kind::Count, false),
            ("match", Kind::Id, false),
        ],
    ),
    (
        "act",
        &[
            ("match", Kind::Id, true),
            ("player", Kind::Id, true),
            ("action", Kind::Object, true),
            ("turnSeq", Kind::Count, false),
            ("now", Kind::Count, false),
        ],
    ),
    (
        "view",
        &[("match", Kind::Id, true), ("player", Kind::Id, false)],
    ),
    (
        "legal",
        &[("match", Kind::Id, true), ("player", Kind::Id, true)],
    ),
    (
        "tick",
        &[
            ("match", Kind::Id, true),
            ("now", Kind::Count, true),
            ("player", Kind::Id, false),
        ],
    ),
    (
        "presence",
        &[
            ("match", Kind::Id, true),
            ("player", Kind::Id, true),
            ("connected", Kind::Flag, true),
            ("now", Kind::Count, false),
        ],
    ),
    ("record", &[("match", Kind::Id, true)]),
    (
        "load",
        &[("record", Kind::Record, true), ("match", Kind::Id, false)],
    ),
    (
        "restore",
        &[
            ("game", Kind::Id, true),
            ("state", Kind::State, true),
            ("match", Kind::Id, false),
        ],
    ),
    (
        "events",
        &[("match", Kind::Id, true), ("player", Kind::Id, false)],
    ),
    ("outcome", &[("match", Kind::Id, true)]),
    ("drop", &[("match", Kind::Id, true)]),
];

/// A request's fields, read against its operation's entry in [`OPS`]: unknown fields,
/// `null` and ill-typed values are refused naming the field. Public so that a transport
/// with operations of its own (a server's `hello`) reads them with the host's rules.
///
/// ```
/// use game_host::Request;
/// let req = Request::parse(r#"{"op":"hello","match":"m1","token":7}"#).unwrap();
/// assert_eq!(req.id_field("match").unwrap(), "m1");
/// let refused = req.id_field("token").unwrap_err();
/// assert_eq!(refused.error.code, "BAD_REQUEST");
/// ```
pub struct Request<'a> {
    fields: BTreeMap<String, &'a RawValue>,
}

impl<'a> Request<'a> {
    /// Parses `line` into fields without building a JSON tree of the whole request (a
    /// `load` line holds a whole record). A key given twice in one object, at any depth,
    /// is refused: JSON leaves duplicates to the reader, and one that kept the last would
    /// let `"seed":null,"seed":1` past the check of the first. So is an `id` the reply
    /// cannot echo as it was sent (see [`Request::id`]).
    pub fn parse(line: &'a str) -> Result<Self, Fail> {
        let Fields { fields, twice } = serde_json::from_str(line).map_err(|e| {
            let detail = if e.is_data() {
                "a request must be a JSON object".to_owned()
            } else {
                format!("not JSON: {e}")
            };
            bad_request(None, detail)
        })?;
        if let Some(name) = twice {
            let detail = format!("the field `{name}` is given twice");
            return Err(bad_request(Some(&name), game_core::cap_detail(detail)));
        }
        for (name, raw) in &fields {
            if let Err(e) = serde_json::from_str::<Unique>(raw.get()) {
                let detail = game_core::cap_detail(format!("`{name}`: {e}"));
                return Err(bad_request(Some(name), detail));
            }
        }
        if let Some(raw) = fields.get("id")
            && !echoes(raw.get())
        {
            return Err(bad_request(
                Some("id"),
                "`id` must be a JSON value the reply echoes as sent: integers within 64 \
                 bits, numbers within a double's range, strings of whole characters"
                    .to_owned(),
            ));
        }
        Ok(Self { fields })
    }

    /// Whether the request has the field `name`.
    pub fn has(&self, name: &str) -> bool {
        self.fields.contains_key(name)
    }

    /// The request's `id`, echoed back (null if absent; [`Request::parse`] refuses one that
    /// would not come back as sent).
    pub fn id(&self) -> Value {
        self.fields
            .get("id")
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or(Value::Null)
    }

    /// Checks the fields against the operation's list: every field known, none `null`,
    /// every required one there.
    pub fn check(&self, op: &str, spec: &[Field]) -> Result<(), Fail> {
        for (name, raw) in &self.fields {
            if name == "op" || name == "id" {
                continue;
            }
            if !spec.iter().any(|(n, _, _)| n == name) {
                return Err(bad_request(
                    Some(name),
                    format!("unknown field `{name}` for op `{op}`"),
                ));
            }
            if raw.get() == "null" {
                return Err(bad_request(
                    Some(name),
                    format!("`{name}` must not be null (leave it out instead)"),
                ));
            }
        }
        match spec
            .iter()
            .find(|(name, _, required)| *required && !self.fields.contains_key(*name))
        {
            Some((name, _, _)) => Err(bad_request(Some(name), format!("`{name}` is required"))),
            None => Ok(()),
        }
    }

    /// A field's raw JSON text, if present.
    pub fn raw(&self, name: &str) -> Option<&'a RawValue> {
        self.fields.get(name).copied()
    }

    /// A field read as `T`, refused as `BAD_REQUEST` saying it must be `what`.
    pub fn read<T: DeserializeOwned>(&self, name: &str, what: &str) -> Result<Option<T>, Fail> {
        self.raw(name)
            .map(|raw| {
                serde_json::from_str(raw.get())
                    .map_err(|_| bad_request(Some(name), format!("`{name}` must be {what}")))
            })
            .transpose()
    }

    /// [`Self::read`] of a required field.
    pub fn need<T: DeserializeOwned>(&self, name: &str, what: &str) -> Result<T, Fail> {
        self.read(name, what)?
            .ok_or_else(|| bad_request(Some(name), format!("`{name}` is required")))
    }

    /// An optional id field (1 to [`MAX_ID`] bytes).
    pub fn opt_id(&self, name: &str) -> Result<Option<String>, Fail> {
        let id: Option<String> = self.read(name, "a string")?;
        match id {
            Some(id) if id.is_empty() || id.len() > MAX_ID => Err(bad_request(
                Some(name),
                format!("`{name}` must be 1 to {MAX_ID} bytes"),
            )),
            id => Ok(id),
        }
    }

    /// A required id field.
    pub fn id_field(&self, name: &str) -> Result<String, Fail> {
        self.opt_id(name)?
            .ok_or_else(|| bad_request(Some(name), format!("`{name}` is required")))
    }

    /// An optional count field ([`Kind::Count`]): an integer from 0 to 2^53 − 1, refused
    /// otherwise as the Node package refuses it ([`not_a_count`]). Past 2^53 − 1 a
    /// JavaScript host could not send or read the value exactly.
    ///
    /// ```
    /// use game_host::Request;
    /// let req = Request::parse(r#"{"op":"create","seed":9007199254740991,"now":9007199254740992}"#).unwrap();
    /// assert_eq!(req.count("seed").unwrap(), Some(9007199254740991));
    /// assert_eq!(req.count("now").unwrap_err().error.reason["field"], "now");
    /// assert_eq!(req.count("turnSeq").unwrap(), None);
    /// ```
    pub fn count(&self, name: &str) -> Result<Option<u64>, Fail> {
        let Some(raw) = self.raw(name) else {
            return Ok(None);
        };
        match serde_json::from_str::<u64>(raw.get()) {
            Ok(n) if n <= game_core::MAX_SAFE_INTEGER => Ok(Some(n)),
            _ => Err(not_a_count(name, raw.get())),
        }
    }

    /// A required count field ([`Request::count`]).
    pub fn need_count(&self, name: &str) -> Result<u64, Fail> {
        self.count(name)?
            .ok_or_else(|| bad_request(Some(name), format!("`{name}` is required")))
    }

    /// An optional JSON object field.
    pub fn object(&self, name: &str) -> Result<Option<Value>, Fail> {
        match self.read::<Value>(name, "a JSON object")? {
            Some(v) if !v.is_object() => Err(bad_request(
                Some(name),
                format!("`{name}` must be a JSON object"),
            )),
            v => Ok(v),
        }
    }
}

/// A request's top-level fields, each kept as its raw text, and the first field given
/// twice, if one was.
struct Fields<'a> {
    fields: BTreeMap<String, &'a RawValue>,
    twice: Option<String>,
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Fields<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Fields<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let (mut fields, mut twice) = (BTreeMap::new(), None);
                while let Some(name) = map.next_key::<String>()? {
                    let raw: &'a RawValue = map.next_value()?;
                    match fields.entry(name) {
                        std::collections::btree_map::Entry::Vacant(slot) => {
                            slot.insert(raw);
                        }
                        std::collections::btree_map::Entry::Occupied(slot) => {
                            twice.get_or_insert_with(|| slot.key().clone());
                        }
                    }
                }
                Ok(Fields { fields, twice })
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// Any JSON value whose objects have no key twice (read only to be checked).
struct Unique;

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Unique)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique {
    type Value = Unique;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }

    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<Unique, S::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Unique, M::Error> {
        // A set, not a list: a 1 MiB line holds 100,000 keys, pair by pair a DoS.
        let mut keys = std::collections::BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if keys.contains(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "the key `{}` is given twice in one object",
                    game_core::cap_detail(key)
                )));
            }
            map.next_value::<Unique>()?;
            keys.insert(key);
        }
        Ok(Unique)
    }
}

/// Whether the JSON text `raw` comes back as the same value once read and written again:
/// it reads, and an integer is not one past 64 bits (which would come back as a double).
fn echoes(raw: &str) -> bool {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Number(n)) => {
            let integer = !raw.contains(['.', 'e', 'E']);
            !integer || n.is_i64() || n.is_u64()
        }
        Ok(_) => true,
        Err(_) => false,
    }
}
