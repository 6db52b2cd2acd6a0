//! The rules layer of arena: every game and the protocol's messages, as
//! data and pure functions. It depends on no other arena crate, so bots
//! written in Rust (the reference engine) build on it alone.
//!
//! - [`games`]: the rules engine (variants as tables, pure move/outcome
//!   functions, the one game result and rule-reason types).
//! - [`protocol`]: the line-JSON messages exchanged with bots, and time
//!   controls with their command-line spelling.

pub mod games;
pub mod protocol;
