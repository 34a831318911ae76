//! The host: the matches in progress over a registry, and the dispatch of requests.

use std::collections::BTreeMap;

use game_core::{
    AppliedJson, DynEvents, DynMatch, GameError, MatchRecord, PlayedJson, Registry, Rejection,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::reply::{self, Body, Fail, Reply, Status, body, fail, unknown_match};
use crate::request::{OPS, Request as Req};

/// The host: a registry of games and the matches in progress.
pub struct Host {
    registry: Registry,
    matches: BTreeMap<String, Box<dyn DynMatch>>,
    // Each match's last change, for every viewer's projection (`events`).
    changes: BTreeMap<String, Change>,
    counter: u64,
}

/// The last change of a match: the timeouts taken and the request's own events, typed
/// inside, so that each viewer gets their projection ([`game_core::Game::event_for`]). A
/// transport sends every socket of a match its own: [`Change::events_for`] and
/// [`Change::applied_for`] with the socket's player, `None` for a spectator.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Change {
    /// The timeouts taken (their `events` the spectator's projection).
    pub applied: Vec<AppliedJson>,
    /// The request's own events (none for a `tick` or a refused request).
    pub events: DynEvents,
}

impl Change {
    /// The request's events as `viewer` sees them.
    pub fn events_for(&self, viewer: Option<&str>) -> Vec<Value> {
        self.events.for_viewer(viewer)
    }

    /// The timeouts taken, their events as `viewer` sees them.
    pub fn applied_for(&self, viewer: Option<&str>) -> Vec<AppliedJson> {
        self.applied.iter().map(|a| a.for_viewer(viewer)).collect()
    }

    fn is_empty(&self) -> bool {
        self.applied.is_empty() && self.events.is_empty()
    }
}

#[cfg(feature = "builtin")]
impl Default for Host {
    /// A host over the built-in games ([`crate::registry`]).
    fn default() -> Self {
        Self::new(crate::registry())
    }
}

impl Host {
    /// A host over `registry`, with no matches.
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            matches: BTreeMap::new(),
            changes: BTreeMap::new(),
            counter: 0,
        }
    }

    /// Answers one input line (a JSON object). Never panics on any input.
    pub fn handle_line(&mut self, line: &str) -> Reply {
        let req = match Req::parse(line) {
            Ok(req) => req,
            Err(fail) => return Self::reply(Value::Null, Err(fail)),
        };
        let id = req.id();
        let body = self.handle(&req);
        Self::reply(id, body)
    }

    /// The reply to a line longer than the cap (read and dropped without being kept).
    pub fn too_large(len: usize, max: usize) -> Reply {
        Self::reply(
            Value::Null,
            Err(fail(
                "TOO_LARGE",
                "요청이 너무 커요.",
                json!({ "bytes": len, "max": max }),
            )),
        )
    }

    /// The reply line to the request `id`: the body, or the refusal in the host's shape.
    pub fn reply(id: Value, answer: Body) -> Reply {
        match answer {
            Ok(body) => Reply { id, ok: true, body },
            Err(Fail { error, applied }) => Reply {
                id,
                ok: false,
                body: body(&reply::Refused { error, applied }),
            },
        }
    }

    /// Dispatches a parsed request.
    fn handle(&mut self, req: &Req<'_>) -> Body {
        let op: String = req.need("op", "a string")?;
        let Some((op, spec)) = OPS.iter().find(|(name, _)| *name == op) else {
            return Err(fail(
                "UNKNOWN_OP",
                "알 수 없는 요청이에요.",
                json!({ "op": op, "ops": OPS.map(|(name, _)| name) }),
            ));
        };
        req.check(op, spec)?;
        match *op {
            "games" => Ok(body(&reply::Games {
                games: self.registry.ids().map(str::to_owned).collect(),
            })),
            "schemas" => {
                let game = self.registry.get(&req.id_field("game")?)?;
                let schemas = game.schemas();
                Ok(body(&reply::Schemas {
                    game: game.id().to_owned(),
                    schemas: schemas
                        .entries()
                        .into_iter()
                        .map(|(name, schema)| (name.to_owned(), schema.clone()))
                        .collect(),
                    default_options: game.default_options(),
                }))
            }
            "create" => self.create(req),
            "act" => {
                let id = req.id_field("match")?;
                let player = req.id_field("player")?;
                let action = req.object("action")?.unwrap_or_default();
                let turn_seq = req.count("turnSeq")?;
                let now = req.count("now")?;
                let m = self.get_mut(&id)?;
                let now = now.unwrap_or_else(|| m.clock());
                let result = m.act(&player, action, turn_seq, now);
                self.played(&id, &player, result)
            }
            "view" => {
                let m = self.get(&req.id_field("match")?)?;
                let player = req.opt_id("player")?;
                Ok(body(&reply::View {
                    view: m.view(player.as_deref())?,
                }))
            }
            "legal" => {
                let m = self.get(&req.id_field("match")?)?;
                let actions = m.legal_actions(&req.id_field("player")?)?;
                Ok(body(&reply::Legal { actions }))
            }
            "tick" => {
                let id = req.id_field("match")?;
                let now = req.need_count("now")?;
                let viewer = req.opt_id("player")?;
                let m = self.get_mut(&id)?;
                seated(m.as_ref(), viewer.as_deref())?;
                let change = Change {
                    applied: m.tick(now),
                    events: DynEvents::default(),
                };
                let ticked = reply::Ticked {
                    status: Status::of(&id, m.as_ref()),
                    applied: change.applied_for(viewer.as_deref()),
                };
                self.remember(&id, change);
                Ok(body(&ticked))
            }
            "events" => {
                let id = req.id_field("match")?;
                let viewer = req.opt_id("player")?;
                let m = self.get(&id)?;
                seated(m, viewer.as_deref())?;
                let change = self.changes.get(&id).cloned().unwrap_or_default();
                Ok(body(&reply::Played {
                    status: Status::of(&id, m),
                    events: change.events_for(viewer.as_deref()),
                    applied: change.applied_for(viewer.as_deref()),
                }))
            }
            "presence" => {
                let id = req.id_field("match")?;
                let player = req.id_field("player")?;
                let connected = req.need("connected", "true or false")?;
                let now = req.count("now")?;
                let m = self.get_mut(&id)?;
                let now = now.unwrap_or_else(|| m.clock());
                let result = m.set_connected(&player, connected, now);
                self.played(&id, &player, result)
            }
            "record" => {
                let m = self.get_mut(&req.id_field("match")?)?;
                Ok(body(&reply::Record {
                    record: m.record().clone(),
                }))
            }
            "load" => {
                let record: MatchRecord = req.need("record", "a match record")?;
                let requested = req.opt_id("match")?;
                self.check_free(requested.as_deref())?;
                let m = self.registry.replay(&record)?;
                drop(record);
                Ok(self.insert(requested, m))
            }
            "restore" => {
                let game = req.id_field("game")?;
                let requested = req.opt_id("match")?;
                self.check_free(requested.as_deref())?;
                // The state as `state_json` gave it, or that JSON as one string (a host that
                // stored the text).
                let raw = req.raw("state").map(RawValue::get).unwrap_or_default();
                let text: Option<String> = match raw.starts_with('"') {
                    true => req.read("state", "a JSON object or its text")?,
                    false => None,
                };
                let m = self
                    .registry
                    .restore(&game, text.as_deref().unwrap_or(raw))?;
                Ok(self.insert(requested, m))
            }
            "outcome" => {
                let outcome = self.get(&req.id_field("match")?)?.outcome();
                Ok(body(&reply::Outcome {
                    over: outcome.is_some(),
                    outcome,
                }))
            }
            "drop" => {
                let id = req.id_field("match")?;
                self.matches.remove(&id).ok_or_else(|| unknown_match(&id))?;
                self.changes.remove(&id);
                Ok(body(&reply::Dropped { match_id: id }))
            }
            other => Err(fail(
                "UNKNOWN_OP",
                "알 수 없는 요청이에요.",
                json!({ "op": other }),
            )),
        }
    }

    fn create(&mut self, req: &Req<'_>) -> Body {
        let game_id = req.id_field("game")?;
        let players: Vec<String> = req.need("players", "an array of strings")?;
        let seed = req.count("seed")?;
        let now = req.count("now")?.unwrap_or(0);
        let requested = req.opt_id("match")?;
        self.check_free(requested.as_deref())?;
        let options = match req.object("options")? {
            Some(o) => o,
            None => self.registry.get(&game_id)?.default_options(),
        };
        let m = self
            .registry
            .create(&game_id, &options, players, seed, now)?;
        Ok(self.insert(requested, m))
    }

    /// Refuses a requested match id that is taken.
    fn check_free(&self, requested: Option<&str>) -> Result<(), Fail> {
        match requested {
            Some(id) if self.matches.contains_key(id) => Err(reply::match_exists(id)),
            _ => Ok(()),
        }
    }

    /// Stores a new match under the requested id (checked free) or the next free `m<N>`.
    fn insert(&mut self, requested: Option<String>, m: Box<dyn DynMatch>) -> Map<String, Value> {
        let id = requested.unwrap_or_else(|| {
            loop {
                self.counter += 1;
                let id = format!("m{}", self.counter);
                if !self.matches.contains_key(&id) {
                    break id;
                }
            }
        });
        let status = body(&Status::of(&id, m.as_ref()));
        self.changes.remove(&id);
        self.matches.insert(id, m);
        status
    }

    /// The last change of match `id` (the last `act`, `presence` or `tick` that took a
    /// timeout or had events), for each viewer's projection: what a transport pushes to
    /// every socket of the match, each its own. `None` before the first change.
    ///
    /// ```
    /// let mut host = game_host::Host::default();
    /// host.handle_line(r#"{"op":"create","game":"rps","players":["a","b"],"seed":1}"#);
    /// assert!(host.last_change("m1").is_none());
    /// host.handle_line(r#"{"op":"act","match":"m1","player":"a","action":{"type":"PICK","hand":"rock"}}"#);
    /// let change = host.last_change("m1").unwrap();
    /// assert_eq!(change.events_for(Some("b")), change.events_for(None)); // rps hides nothing
    /// ```
    pub fn last_change(&self, id: &str) -> Option<&Change> {
        self.changes.get(id)
    }

    /// Keeps `change` as match `id`'s last, unless nothing changed.
    fn remember(&mut self, id: &str, change: Change) {
        if !change.is_empty() {
            self.changes.insert(id.to_owned(), change);
        }
    }

    /// The reply to an `act` or `presence` of `player`: the status, the request's `events`
    /// and the due timeouts taken first (`applied`), as `player` sees them; when refused,
    /// the error with those timeouts. The change is kept for the other viewers.
    fn played(&mut self, id: &str, player: &str, played: PlayedJson) -> Body {
        let change = Change {
            applied: played.applied.clone(),
            events: played.events().clone(),
        };
        let applied = played.applied_for(Some(player));
        let answer = match played.result {
            Ok(events) => {
                let m = self.get(id)?;
                Ok(body(&reply::Played {
                    status: Status::of(id, m),
                    events,
                    applied,
                }))
            }
            Err(e) => Err(Fail {
                error: e.body(),
                applied,
            }),
        };
        self.remember(id, change);
        answer
    }

    /// The match `id`, if the host holds it: what a transport reads after a request (its
    /// record's new entries to store, the views it pushes) without another request.
    pub fn get_match(&self, id: &str) -> Option<&dyn DynMatch> {
        self.matches.get(id).map(|m| m.as_ref())
    }

    /// The match with this id, to change or to read its record ([`DynMatch::record`]
    /// takes `&mut`).
    pub fn get_match_mut(&mut self, id: &str) -> Option<&mut (dyn DynMatch + 'static)> {
        self.matches.get_mut(id).map(|m| m.as_mut())
    }

    fn get(&self, id: &str) -> Result<&dyn DynMatch, Fail> {
        self.matches
            .get(id)
            .map(|m| m.as_ref())
            .ok_or_else(|| unknown_match(id))
    }

    fn get_mut(&mut self, id: &str) -> Result<&mut Box<dyn DynMatch>, Fail> {
        self.matches.get_mut(id).ok_or_else(|| unknown_match(id))
    }
}

/// Refuses a viewer who is not seated at `m` (`NOT_SEATED`, as `view` does), rather than
/// showing them what a player sees.
fn seated(m: &dyn DynMatch, viewer: Option<&str>) -> Result<(), Fail> {
    match viewer {
        Some(p) if !m.players().iter().any(|q| q == p) => Err(Rejection::NotSeated {
            player: game_core::cap_detail(p.to_owned()),
        }
        .into()),
        _ => Ok(()),
    }
}
