#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "builtin")]
mod builtin;
#[cfg(feature = "cli")]
pub mod cli;
mod host;
mod lines;
pub mod reply;
mod request;
mod schema;
pub mod trace;

#[cfg(feature = "builtin")]
pub use builtin::registry;
pub use host::{Change, Host};
pub use lines::{DEFAULT_MAX_LINE, serve_lines};
#[cfg(feature = "builtin")]
pub use lines::{serve, serve_with};
pub use reply::{Reply, Status};
pub use request::{Field, Kind, MAX_ID, OPS, Request};
pub use schema::schemas;
