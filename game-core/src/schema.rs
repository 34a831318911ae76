//! JSON Schemas of the wire types, in the shape hosts generate code from.
//!
//! `schemars` describes what serde does; a code generator (json-schema-to-typescript, for
//! one) needs more than that to give exact types. One normalisation pass, the same for every
//! game and every type, bridges the two:
//!
//! - **the right contract**: what the engine reads (options, actions) is described as read,
//!   so fields with a default may be left out; what it writes (views, events, outcomes,
//!   errors) as written, so every field it always sends is `required`, `null` included;
//! - **closed unions**: a rule set without extensions has an empty action or event type,
//!   which `schemars` writes as a never-matching branch; generators read it as "any object"
//!   and the union stops refusing typos, so such branches are dropped. A union of tagged
//!   objects nested in another (a rule layer's actions or events inside the game's) is
//!   spliced into the outer one, and an object that flattens a tagged enum becomes one
//!   object per variant, so every branch is a plain object with its `type`;
//! - **closed objects**: every object without an explicit `additionalProperties` (a map
//!   has one) gets `additionalProperties: false`, or the generated types take any field;
//! - **names**: the root is titled after the game (`YutAugmentsView`), a definition of one
//!   of the game's other wire types takes that type's title, unused definitions go, and a
//!   `$ref` with a description beside it is wrapped in a one-branch `anyOf` (generators
//!   copy the referenced type once per different description otherwise: `Nodes1`,
//!   `Nodes2`, ...);
//! - **descriptions** come from doc comments: their code blocks (doctests) and intra-doc
//!   link brackets are dropped.
//!
//! ```
//! use game_core::{GameSchemas, rps::Rps};
//! let s = GameSchemas::of(&Rps);
//! assert_eq!(s.action["title"], "RpsAction");
//! // Every branch of the action union is a closed object tagged by `type`.
//! for branch in s.action["oneOf"].as_array().unwrap() {
//!     assert_eq!(branch["additionalProperties"], false);
//!     assert!(branch["properties"]["type"]["const"].is_string());
//! }
//! ```

use schemars::generate::SchemaSettings;
use schemars::transform::{Transform, transform_subschemas};
use schemars::{JsonSchema, Schema};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::{CodeSchemas, ErrorBody, ErrorCodes, Game, HostError, RecordError};

/// Which way a type crosses the wire, which decides what its schema requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Read by the engine (options, actions, requests): a field with a default may be
    /// left out.
    Incoming,
    /// Written by the engine (views, events, outcomes, errors, replies): every field it
    /// does not skip is present, `null` included.
    Outgoing,
}

/// The JSON Schemas of one game's wire types, normalised as the [module](self) describes.
#[derive(Clone, Debug, Serialize)]
pub struct GameSchemas {
    /// Options (incoming).
    pub options: Value,
    /// Actions (incoming).
    pub action: Value,
    /// Views (outgoing).
    pub view: Value,
    /// Events (outgoing).
    pub event: Value,
    /// Outcomes (outgoing).
    pub outcome: Value,
    /// Error bodies (outgoing): a `oneOf` with a branch per code the game's matches can
    /// give through the erased layer (the game's, the framework's, the host layer's and a
    /// record's), each `{code, message, reason}` with that code's reason.
    pub error: Value,
}

impl GameSchemas {
    /// The schemas of `game`'s wire types, titled after its id: game `yut-augments` gives
    /// `YutAugmentsOptions`, `YutAugmentsAction`, `YutAugmentsView`, `YutAugmentsEvent`,
    /// `YutAugmentsOutcome` and `YutAugmentsError`.
    pub fn of<G: Game>(game: &G) -> Self {
        Self::with_errors(game, &[])
    }

    /// [`GameSchemas::of`], the error schema listing the codes that `extra` adds too:
    /// those of a rule layer whose errors the game's error type carries type-erased (a
    /// Yut rule set's; see [`Erased::with_errors`](crate::Erased::with_errors)).
    pub fn with_errors<G: Game>(game: &G, extra: &[fn(&mut CodeSchemas)]) -> Self {
        let prefix = pascal_case(game.id());
        let title = |ty: &str| format!("{prefix}{ty}");
        // A view embeds the game's events (its log) and often its options; those
        // definitions take the titles the game's own schemas have.
        let renames = [
            (G::Options::schema_name().into_owned(), title("Options")),
            (G::Action::schema_name().into_owned(), title("Action")),
            (G::View::schema_name().into_owned(), title("View")),
            (G::Event::schema_name().into_owned(), title("Event")),
            (G::Outcome::schema_name().into_owned(), title("Outcome")),
            (ErrorBody::schema_name().into_owned(), title("Error")),
        ];
        let schema = |s: Value, ty: &str| normalise(s, &title(ty), &renames);
        use Direction::{Incoming, Outgoing};
        Self {
            options: schema(generate::<G::Options>(Incoming), "Options"),
            action: schema(generate::<G::Action>(Incoming), "Action"),
            view: schema(generate::<G::View>(Outgoing), "View"),
            event: schema(generate::<G::Event>(Outgoing), "Event"),
            outcome: schema(generate::<G::Outcome>(Outgoing), "Outcome"),
            // Not renamed to the error's title: a refused record entry's reason holds a
            // plain `ErrorBody`, which must not take the name of the union around it.
            error: normalise(error_body::<G>(extra), &title("Error"), &renames[..5]),
        }
    }

    /// The schemas as `(type name, schema)` pairs, in a fixed order.
    pub fn entries(&self) -> [(&'static str, &Value); 6] {
        [
            ("options", &self.options),
            ("action", &self.action),
            ("view", &self.view),
            ("event", &self.event),
            ("outcome", &self.outcome),
            ("error", &self.error),
        ]
    }
}

/// The error bodies of `G`'s matches through the erased layer: the game's codes (and
/// `extra`'s), those with the reason of a refused recorded input beside their own, the
/// host layer's and a record's own.
fn error_body<G: Game>(extra: &[fn(&mut CodeSchemas)]) -> Value {
    let mut codes = CodeSchemas::default();
    G::Error::codes(&mut codes);
    for add in extra {
        add(&mut codes);
    }
    let game: Vec<String> = codes.codes().into_iter().map(str::to_owned).collect();
    HostError::codes(&mut codes);
    RecordError::<G::Error>::codes(&mut codes);
    crate::record::refused_codes(&mut codes, &game);
    codes.body_schema()
}

/// The normalised schema of any wire type `T` (a host's requests and replies, say), titled
/// `title`.
///
/// ```
/// use game_core::schema::{Direction, wire_schema};
/// let s = wire_schema::<game_core::ErrorBody>(Direction::Outgoing, "HostError");
/// assert_eq!(s["title"], "HostError");
/// assert_eq!(s["additionalProperties"], false);
/// assert!(s["required"].as_array().unwrap().contains(&"code".into()));
/// ```
pub fn wire_schema<T: JsonSchema>(direction: Direction, title: &str) -> Value {
    normalise(generate::<T>(direction), title, &[])
}

/// `schemars`' schema of `T` under the contract of `direction`.
fn generate<T: JsonSchema>(direction: Direction) -> Value {
    let settings = SchemaSettings::draft2020_12();
    let settings = match direction {
        Direction::Incoming => settings.for_deserialize(),
        Direction::Outgoing => settings.for_serialize(),
    };
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// `yut-augments` → `YutAugments`.
fn pascal_case(id: &str) -> String {
    // Every character that cannot stand in a type name separates words: a composed id
    // (`yut-augments+hunters-step`) must still give a valid title in generated code.
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

const DEFS: &str = "$defs";
const DEFS_PREFIX: &str = "#/$defs/";

/// The normalisation pass of the [module](self) on a root schema.
fn normalise(root: Value, title: &str, renames: &[(String, String)]) -> Value {
    let Value::Object(mut root) = root else {
        // `schemars` writes `true` or `false` only for types that take anything or nothing;
        // neither is a wire type, and there is nothing to shape.
        return root;
    };
    let mut defs = match root.remove(DEFS) {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let mut root = Value::Object(root);

    for schema in std::iter::once(&mut root).chain(defs.values_mut()) {
        post_order(schema, &mut |s| {
            if let Some(Value::String(d)) = s.get_mut("description") {
                *d = clean_description(d);
                if d.is_empty() {
                    s.remove("description");
                }
            }
        });
    }
    let lookup = defs.clone();
    for schema in std::iter::once(&mut root).chain(defs.values_mut()) {
        post_order(schema, &mut |s| shape_union(s, &lookup));
        post_order(schema, &mut close_object);
    }

    for (from, to) in renames {
        if from != to
            && !defs.contains_key(to)
            && let Some(def) = defs.remove(from)
        {
            defs.insert(to.clone(), def);
            let (from, to) = (format!("{DEFS_PREFIX}{from}"), format!("{DEFS_PREFIX}{to}"));
            for schema in std::iter::once(&mut root).chain(defs.values_mut()) {
                post_order(schema, &mut |s| {
                    if s.get("$ref").and_then(Value::as_str) == Some(from.as_str()) {
                        s.insert("$ref".into(), to.clone().into());
                    }
                });
            }
        }
    }
    let used = reachable(&root, &defs);
    defs.retain(|name, _| used.contains(name));

    if let Value::Object(r) = &mut root {
        r.insert("title".into(), title.into());
        if !defs.is_empty() {
            r.insert(DEFS.into(), Value::Object(defs));
        }
    }
    post_order(&mut root, &mut wrap_ref);
    root
}

/// Moves a `$ref` that has words beside it (a field's description, its default) into a
/// one-branch `anyOf`. Generators copy the referenced type once per set of siblings
/// otherwise; `allOf` would do for validation too, but json-schema-to-typescript then
/// intersects the type with the default's (`Mode & string`).
fn wrap_ref(schema: &mut Map<String, Value>) {
    if schema.len() > 1
        && let Some(target) = schema.remove("$ref")
    {
        let key = if schema.contains_key("anyOf") {
            "allOf"
        } else {
            "anyOf"
        };
        match schema.entry(key).or_insert_with(|| json!([])) {
            Value::Array(branches) => branches.push(json!({ "$ref": target })),
            // Not a schema array: the keyword is broken already; keep the reference as it was.
            _ => {
                schema.insert("$ref".into(), target);
            }
        }
    }
}

/// Calls `f` on every object subschema of `schema`, children before their parent.
fn post_order(schema: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    struct PostOrder<'a>(&'a mut dyn FnMut(&mut Map<String, Value>));
    impl Transform for PostOrder<'_> {
        fn transform(&mut self, schema: &mut Schema) {
            transform_subschemas(self, schema);
            if let Some(object) = schema.as_object_mut() {
                (self.0)(object);
            }
        }
    }
    if let Ok(schema) = <&mut Schema>::try_from(schema) {
        PostOrder(f).transform(schema);
    }
}

/// A doc comment as a description: without code blocks (doctests mean nothing to a client
/// and would land in its generated comments) and with intra-doc links as plain code spans.
fn clean_description(doc: &str) -> String {
    let mut prose = String::new();
    let mut in_code = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let prose = unlink(&prose);
    // Paragraph breaks that enclosed a code block would otherwise pile up.
    let mut out = String::new();
    for paragraph in prose.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(paragraph);
    }
    out
}

/// ``[`GameExt::apply`]`` and ``[`Game`](crate::Game)`` → `` `GameExt::apply` ``, `` `Game` ``.
fn unlink(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        match after.find("`]") {
            Some(end) if !after[..end + 1].contains(['[', ']', '\n']) => {
                out.push_str(&after[..end + 1]);
                rest = &after[end + 2..];
                // A link target in parentheses goes with the brackets.
                if rest.starts_with('(')
                    && let Some(close) = rest.find(')')
                {
                    rest = &rest[close + 1..];
                }
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The keyword of `schema`'s union (`anyOf` or `oneOf`), if it is one.
fn union_key(schema: &Map<String, Value>) -> Option<&'static str> {
    ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| schema.get(*k).is_some_and(Value::is_array))
}

/// `schema`, or the definition it refers to.
fn resolve<'a>(schema: &'a Value, defs: &'a Map<String, Value>) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix(DEFS_PREFIX)
            .and_then(|name| defs.get(name))
            .unwrap_or(schema),
        None => schema,
    }
}

/// Whether nothing matches `schema`: `false`, `{"not": {}}` (an empty enum), or a union of
/// such.
fn is_never(schema: &Value, defs: &Map<String, Value>) -> bool {
    match resolve(schema, defs) {
        Value::Bool(b) => !b,
        Value::Object(s) => {
            let not_anything = matches!(s.get("not"), Some(Value::Bool(true)))
                || s.get("not")
                    .and_then(Value::as_object)
                    .is_some_and(Map::is_empty);
            let union_of_nothing = union_key(s).is_some_and(|k| {
                s[k].as_array()
                    .is_some_and(|b| b.iter().all(|b| is_never(b, defs)))
            });
            not_anything || union_of_nothing
        }
        _ => false,
    }
}

/// Whether `schema` (resolved) is an object schema.
fn is_object(schema: &Value, defs: &Map<String, Value>) -> bool {
    resolve(schema, defs).get("type").and_then(Value::as_str) == Some("object")
}

/// A union with nothing else but words about it.
fn is_bare_union(schema: &Map<String, Value>) -> bool {
    union_key(schema).is_some_and(|key| {
        schema
            .keys()
            .all(|k| k == key || k == "description" || k == "title")
    })
}

/// The object branches of `schema` when it is a bare union of objects (at any depth of
/// nesting), after shaping; `None` otherwise.
fn object_branches(schema: &Value, defs: &Map<String, Value>, depth: usize) -> Option<Vec<Value>> {
    // Recursive types could refer to themselves through unions; real nesting is shallow.
    if depth > 16 {
        return None;
    }
    let mut union = resolve(schema, defs).clone();
    if !union.as_object().is_some_and(is_bare_union) {
        return None;
    }
    // A definition is shaped on its own later; its copy here must be shaped first.
    post_order(&mut union, &mut |s| shape_union_at(s, defs, depth + 1));
    let union = union.as_object()?;
    let key = union_key(union)?;
    let branches = union[key].as_array()?;
    branches
        .iter()
        .all(|b| is_object(b, defs))
        .then(|| branches.clone())
}

fn shape_union(schema: &mut Map<String, Value>, defs: &Map<String, Value>) {
    shape_union_at(schema, defs, 0);
}

/// Closes and flattens a union: drops never-matching branches, splits an object that
/// flattens a union of objects into one object per branch, and splices nested unions of
/// objects into this one.
fn shape_union_at(schema: &mut Map<String, Value>, defs: &Map<String, Value>, depth: usize) {
    let Some(key) = union_key(schema) else {
        return;
    };
    let Some(Value::Array(branches)) = schema.remove(key) else {
        return;
    };
    let mut branches: Vec<Value> = branches
        .into_iter()
        .filter(|b| !is_never(b, defs))
        .collect();

    // An object with properties beside a union of objects (serde's `flatten` of an
    // internally tagged enum): the union of the object merged with each branch.
    if schema.contains_key("properties")
        && !branches.is_empty()
        && branches.iter().all(|b| is_object(b, defs))
    {
        let description = schema.remove("description");
        let title = schema.remove("title");
        let base = std::mem::take(schema);
        branches = branches
            .iter()
            .map(|b| merge_object(&base, resolve(b, defs)))
            .collect();
        schema.extend(description.map(|d| ("description".to_owned(), d)));
        schema.extend(title.map(|t| ("title".to_owned(), t)));
    }

    let mut spliced = Vec::with_capacity(branches.len());
    for branch in branches {
        match object_branches(&branch, defs, depth) {
            Some(inner) => spliced.extend(inner),
            None => spliced.push(branch),
        }
    }
    schema.insert(key.into(), Value::Array(spliced));
}

/// `branch` with the properties and requirements of `base` added in front of its own.
fn merge_object(base: &Map<String, Value>, branch: &Value) -> Value {
    let mut merged = base.clone();
    let Some(branch) = branch.as_object() else {
        return Value::Object(merged);
    };
    for (k, v) in branch {
        match (k.as_str(), merged.get_mut(k), v) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                mine.extend(theirs.clone());
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for name in theirs {
                    if !mine.contains(name) {
                        mine.push(name.clone());
                    }
                }
            }
            _ => {
                merged.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(merged)
}

/// Adds `additionalProperties: false` to an object schema that says nothing about other
/// properties.
fn close_object(schema: &mut Map<String, Value>) {
    let is_object = match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => schema.contains_key("properties"),
    };
    if is_object
        && !schema.contains_key("additionalProperties")
        && !schema.contains_key("unevaluatedProperties")
    {
        schema.insert("additionalProperties".into(), false.into());
    }
}

/// The definitions `root` uses, directly or through other definitions.
fn reachable(root: &Value, defs: &Map<String, Value>) -> std::collections::BTreeSet<String> {
    fn refs(schema: &Value, out: &mut Vec<String>) {
        match schema {
            Value::Object(o) => {
                if let Some(name) = o
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix(DEFS_PREFIX))
                {
                    out.push(name.to_owned());
                }
                o.values().for_each(|v| refs(v, out));
            }
            Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = Vec::new();
    refs(root, &mut todo);
    while let Some(name) = todo.pop() {
        if seen.insert(name.clone())
            && let Some(def) = defs.get(&name)
        {
            refs(def, &mut todo);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_lose_code_blocks_and_link_brackets() {
        let doc = "What [`GameExt::apply`] does, see [`Table`](crate::Table).\n\n```\nlet x = 1;\n\n```\n\nStrict: `[1]` stays.\n\n```text\nmore\n```";
        assert_eq!(
            clean_description(doc),
            "What `GameExt::apply` does, see `Table`.\n\nStrict: `[1]` stays."
        );
        assert_eq!(clean_description("```\nonly code\n```"), "");
        assert_eq!(clean_description("a [b] and [`c"), "a [b] and [`c");
    }

    #[test]
    fn ids_become_pascal_case() {
        assert_eq!(pascal_case("yut-augments"), "YutAugments");
        assert_eq!(pascal_case("rps"), "Rps");
        assert_eq!(pascal_case("a_b-c"), "ABC");
        assert_eq!(
            pascal_case("yut-augments+hunters-step"),
            "YutAugmentsHuntersStep"
        );
        assert_eq!(pascal_case("a+b.c d"), "ABCD");
    }

    #[test]
    fn never_branches_go_nested_unions_splice_and_flattened_unions_split() {
        let root = json!({
            "anyOf": [
                {"type": "object", "properties": {"type": {"const": "A"}}},
                {"$ref": "#/$defs/Nothing", "description": "An extension."},
                {"$ref": "#/$defs/Layer"},
            ],
            "$defs": {
                "Nothing": {"not": {}},
                "Layer": {"oneOf": [
                    {"type": "object", "properties": {"type": {"const": "B"}}, "required": ["type"]},
                    {
                        "type": "object",
                        "properties": {"type": {"const": "C"}},
                        "required": ["type"],
                        "oneOf": [
                            {"type": "object", "properties": {"k": {"const": "x"}}, "required": ["k"]},
                            {"type": "object", "properties": {"k": {"const": "y"}}, "required": ["k"]},
                        ],
                    },
                ]},
                "Unused": {"type": "object"},
            },
        });
        let s = normalise(root, "T", &[]);
        let branches = s["anyOf"].as_array().unwrap();
        let tags: Vec<_> = branches
            .iter()
            .map(|b| {
                let k = b["properties"].get("k").map(|k| k["const"].clone());
                (b["properties"]["type"]["const"].clone(), k)
            })
            .collect();
        assert_eq!(
            tags,
            [
                (json!("A"), None),
                (json!("B"), None),
                (json!("C"), Some(json!("x"))),
                (json!("C"), Some(json!("y"))),
            ]
        );
        assert_eq!(branches[3]["required"], json!(["type", "k"]));
        assert!(branches.iter().all(|b| b["additionalProperties"] == false));
        assert!(s.get("$defs").is_none(), "{s}");
        assert_eq!(s["title"], "T");
    }

    #[test]
    fn maps_stay_open_and_ref_siblings_move_into_any_of() {
        let root = json!({
            "type": "object",
            "properties": {
                "m": {"type": "object", "additionalProperties": {"type": "integer"}},
                "n": {"$ref": "#/$defs/Nodes", "description": "Where."},
                "u": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/Word"}]},
            },
            "$defs": {
                "Nodes": {"type": "array", "items": {"type": "integer"}},
                "Word": {"oneOf": [{"const": "home"}]},
            },
        });
        let s = normalise(root, "T", &[("Nodes".into(), "Path".into())]);
        assert_eq!(s["additionalProperties"], false);
        assert_eq!(
            s["properties"]["m"]["additionalProperties"]["type"],
            "integer"
        );
        assert_eq!(
            s["properties"]["n"],
            json!({"description": "Where.", "anyOf": [{"$ref": "#/$defs/Path"}]})
        );
        // A union of non-objects is left as it is.
        assert_eq!(s["properties"]["u"]["anyOf"][1]["$ref"], "#/$defs/Word");
        let defs: Vec<_> = s["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(defs, ["Path", "Word"]);
    }
}
