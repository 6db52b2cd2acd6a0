//! The engine's integration tests, one test binary (cargo-nextest's
//! `integration/main.rs` layout): its search allocates a bounded number of
//! times, whole games on every variant, the solver share, the protocol
//! against the built `arena-engine` binary, and tactics.

mod allocations;
mod games;
mod perfect;
mod protocol;
mod tactics;
