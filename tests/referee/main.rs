//! Integration tests of the referee and the bots it runs: bot processes
//! and their failures, whole games, fair clocks, suspension, late moves,
//! start-up diagnosis, the sandbox, wire traces, `arena play`,
//! `arena check-bot` and the starter bots. One test binary, one module per
//! area (cargo-nextest's `integration/main.rs` layout); helpers in `tests/common`.

#[path = "../common/mod.rs"]
mod common;

mod absurd_inputs;
mod bot_programs;
mod busy_machine;
mod check_bot;
mod cli_play;
mod failures;
mod fair_clocks;
mod game;
mod late_moves;
mod play_human;
mod process;
mod sandbox;
mod starter_bots;
mod starter_bots_compiled;
mod startup_diagnosis;
mod suspend_idle;
mod wire_trace;
