//! arena: a referee and tournament runner for Qango and Quinque bots.
//!
//! Modules follow the data, and each imports only from the ones before it:
//! - [`games`]: the rules engine (variants as tables, pure move/outcome functions,
//!   the one game result and rule-reason types).
//! - [`stats`]: pure arithmetic on game results (ratings, intervals, sequential
//!   tests); it needs only [`games`]' result type, so the tournament's SPRT
//!   stopping rule and the reports can both use it.
//! - [`protocol`]: the line-JSON messages exchanged with bots.
//! - [`referee`]: bot processes, clocks, playing one game, and the game's
//!   record and `games.csv` row.
//! - [`tournament`]: schedule, runner and the on-disk journal; it reports what
//!   happens through the `RunOutput` trait and returns how a run ended as data.
//! - [`report`]: ratings and CSV files computed from the journal's rows.
//! - [`cli`]: the command-line front end: the terminal output, exit codes.
//!
//! Checked with `grep -rhoE "crate::(games|protocol|...)" src/MODULE`: no
//! module names one later in this list.

pub mod cli;
pub mod games;
pub mod protocol;
pub mod referee;
pub mod report;
pub mod stats;
pub mod tournament;
