//! The engine in-process for Node: a napi-rs native module (`cdylib`) over the built-in
//! games, loaded by the `party-games` npm package in this folder (see its README section
//! "From TypeScript" in the repository's README). Values cross as JSON text, which
//! `index.js` parses; errors cross as the JSON host's error bodies.
//!
//! [`engine`] holds all the logic and forbids `unsafe`; `js` is the Node-API surface,
//! the one module whose `#[napi]` macros expand to `unsafe` glue.

#![deny(unsafe_code)]

pub mod engine;
// The `#[napi]` macros' expansion: extern "C" callbacks and raw Node-API calls.
#[allow(unsafe_code)]
mod js;
