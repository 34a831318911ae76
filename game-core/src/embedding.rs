//! The embedding guide: what a host does with a [`Registry`](crate::Registry) and what the
//! engine promises it (the clock, secrets, strict input, every error code).
//!
#![doc = include_str!("embedding.md")]
