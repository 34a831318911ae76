//! The engine in-process for Node: a napi-rs native module (`cdylib`) over the built-in
//! games, loaded by the `party-games` npm package in this folder (see its README section
//! "From TypeScript" in the repository's README). Values cross as JSON text, which
//! `index.js` parses; errors cross as the JSON host's error bodies.
//!
//! [`engine`] holds all the logic and forbids `unsafe`; `js` is the Node-API surface,
//! the one module with `#[napi]` items, whose expansion is `unsafe` glue that the macros
//! mark `#[allow(unsafe_code)]` themselves. The crate denies `unsafe_code` rather than
//! forbidding it (a forbid would refuse the macros' allow, E0453), so hand-written
//! `unsafe` is an error here too.

#![deny(unsafe_code)]

pub mod engine;
pub use engine::use_registry;
// The `#[napi]` functions are reached only through the module's registration, which the
// macros leave out of test builds: there they look unused.
#[cfg_attr(test, allow(dead_code))]
mod js;
