//! Integration tests of the rules: every game and variant, `arena judge`,
//! `arena solve` and solved adjudication, and the protocol's documented
//! examples and line sizes. One test binary, one module per former file
//! (cargo-nextest's `integration/main.rs` layout); helpers in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod adjudication;
mod games_props;
mod games_qango;
mod games_quinque;
mod judge_cli;
mod line_sizes;
mod protocol_examples;
mod solve_cli;
mod solver;
