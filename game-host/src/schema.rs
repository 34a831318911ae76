//! The host protocol's JSON Schemas, made from the request table and the reply types.

use game_core::{AppliedJson, MatchRecord};
use serde_json::{Map, Value, json};

use crate::reply::{self, Status};
use crate::request::{Kind, MAX_ID, OPS};

/// The JSON Schemas of the host protocol, as `(name, schema)` pairs: `request` (every
/// operation, a union tagged by `op`, made from [`OPS`]), `reply-OP` for each operation's
/// successful reply and `reply-error` for a refused one (each with `id` and `ok`),
/// `status`, `applied` (a timeout taken) and `record`. The games' own parts
/// (options, actions, views, events) are plain objects here; their schemas are the game's.
///
/// ```
/// let schemas = game_host::schemas();
/// let names: Vec<&str> = schemas.iter().map(|(n, _)| *n).collect();
/// assert!(names.contains(&"request") && names.contains(&"reply-act"));
/// let request = &schemas[0].1;
/// assert_eq!(request["oneOf"].as_array().unwrap().len(), game_host::OPS.len());
/// ```
pub fn schemas() -> Vec<(&'static str, Value)> {
    use game_core::schema::{Direction::Outgoing, wire_schema};
    let mut out = vec![("request", request_schema())];
    let replies: [(&'static str, Value); 14] = [
        (
            "reply-games",
            wire_schema::<reply::Games>(Outgoing, "GamesReply"),
        ),
        (
            "reply-schemas",
            wire_schema::<reply::Schemas>(Outgoing, "SchemasReply"),
        ),
        (
            "reply-create",
            wire_schema::<Status>(Outgoing, "CreateReply"),
        ),
        (
            "reply-act",
            wire_schema::<reply::Played>(Outgoing, "ActReply"),
        ),
        (
            "reply-view",
            wire_schema::<reply::View>(Outgoing, "ViewReply"),
        ),
        (
            "reply-legal",
            wire_schema::<reply::Legal>(Outgoing, "LegalReply"),
        ),
        (
            "reply-tick",
            wire_schema::<reply::Ticked>(Outgoing, "TickReply"),
        ),
        (
            "reply-presence",
            wire_schema::<reply::Played>(Outgoing, "PresenceReply"),
        ),
        (
            "reply-record",
            wire_schema::<reply::Record>(Outgoing, "RecordReply"),
        ),
        ("reply-load", wire_schema::<Status>(Outgoing, "LoadReply")),
        (
            "reply-restore",
            wire_schema::<Status>(Outgoing, "RestoreReply"),
        ),
        (
            "reply-events",
            wire_schema::<reply::Played>(Outgoing, "EventsReply"),
        ),
        (
            "reply-outcome",
            wire_schema::<reply::Outcome>(Outgoing, "OutcomeReply"),
        ),
        (
            "reply-drop",
            wire_schema::<reply::Dropped>(Outgoing, "DropReply"),
        ),
    ];
    out.extend(
        replies
            .into_iter()
            .map(|(name, s)| (name, envelope(s, true))),
    );
    out.push((
        "reply-error",
        envelope(wire_schema::<reply::Refused>(Outgoing, "ErrorReply"), false),
    ));
    out.push(("status", wire_schema::<Status>(Outgoing, "Status")));
    out.push(("applied", wire_schema::<AppliedJson>(Outgoing, "Applied")));
    out.push((
        "record",
        wire_schema::<MatchRecord>(Outgoing, "MatchRecord"),
    ));
    out
}

/// A reply body's schema with the envelope every reply has: the request's `id` echoed and
/// `ok`.
fn envelope(mut schema: Value, ok: bool) -> Value {
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        props.insert(
            "id".into(),
            json!({
                "description": "The request's `id`, echoed (null without one).",
                "type": ANY_JSON,
            }),
        );
        props.insert(
            "ok".into(),
            json!({ "description": "Whether the request succeeded.", "type": "boolean", "const": ok }),
        );
    }
    if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
        required.splice(0..0, [json!("id"), json!("ok")]);
    } else {
        schema["required"] = json!(["id", "ok"]);
    }
    schema
}

/// Every JSON type, spelled out: a schema without `type` reads as an object to some code
/// generators.
const ANY_JSON: [&str; 6] = ["string", "number", "boolean", "null", "object", "array"];

/// The schema of one request field's value.
fn field_schema(kind: Kind) -> Value {
    let id = json!({ "type": "string", "minLength": 1, "maxLength": MAX_ID });
    match kind {
        Kind::Id => id,
        Kind::Players => json!({ "type": "array", "items": id }),
        Kind::Object => json!({
            "type": "object",
            "description": "In the game's wire format (see the game's schemas)."
        }),
        Kind::Count => json!({
            "type": "integer",
            "minimum": 0,
            "maximum": game_core::MAX_SAFE_INTEGER,
        }),
        Kind::Flag => json!({ "type": "boolean" }),
        Kind::Record => json!({ "$ref": "#/$defs/MatchRecord" }),
        Kind::State => json!({
            "description": "A stored state as `state_json` gave it, or that JSON as text.",
            "anyOf": [{ "type": "object" }, { "type": "string" }]
        }),
    }
}

/// The request schema: one closed object per operation of [`OPS`], tagged by `op`.
fn request_schema() -> Value {
    use game_core::schema::{Direction::Incoming, wire_schema};
    let branches: Vec<Value> = OPS
        .iter()
        .map(|(op, fields)| {
            let mut properties = Map::new();
            properties.insert("op".into(), json!({ "type": "string", "const": op }));
            properties.insert(
                "id".into(),
                json!({ "description": "Any JSON value, echoed in the reply.", "type": ANY_JSON }),
            );
            let mut required = vec![json!("op")];
            for &(name, kind, needed) in *fields {
                properties.insert(name.into(), field_schema(kind));
                if needed {
                    required.push(json!(name));
                }
            }
            json!({
                "type": "object",
                "title": format!("{}Request", pascal(op)),
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        })
        .collect();
    let mut record = wire_schema::<MatchRecord>(Incoming, "MatchRecord");
    let mut defs = record
        .as_object_mut()
        .and_then(|r| r.remove("$defs"))
        .unwrap_or_else(|| json!({}));
    if let Some(r) = record.as_object_mut() {
        r.remove("$schema");
    }
    defs["MatchRecord"] = record;
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "HostRequest",
        "description": "One request line of the JSON-lines host.",
        "oneOf": branches,
        "$defs": defs,
    })
}

/// `presence` → `Presence`.
fn pascal(op: &str) -> String {
    let mut chars = op.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}
