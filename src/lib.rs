//! arena: a referee and tournament runner for Qango and Quinque bots.
//!
//! The workspace's crates are the layers, each depending only on the ones
//! before it (the compiler enforces it):
//! - `arena-files` (`crates/files`): atomic writes, UTC times, SHA-256.
//! - `arena-rules` (`crates/rules`): the rules engine ([`games`]) and the
//!   protocol messages ([`protocol`]). The reference engine bot uses this
//!   crate alone.
//! - `arena-solver` (`crates/solver`, [`solver`]): proves a position's value
//!   under perfect play; on the rules crate alone, used by the referee's
//!   adjudication, `arena solve`, `arena analyse` and the engine.
//! - `arena-stats` (`crates/stats`, [`stats`]): pure arithmetic on game
//!   results: ratings, intervals, pairs, the SPRT.
//! - `arena-referee` (`crates/referee`, [`referee`]): bot processes, clocks,
//!   playing one game, the game's record and `games.csv` row.
//! - `arena-tournament` (`crates/tournament`, [`tournament`]): settings,
//!   schedule, runner and the on-disk journal; it reports what happens
//!   through the `RunOutput` trait and returns how a run ended as data.
//! - `arena-report` (`crates/report`, [`report`]): standings, CSV tables,
//!   report.html and the analysis of games against perfect play.
//! - `arena-serve` (`crates/serve`): the live page of `arena serve`, on the
//!   report crate's renderer, and the play page of `arena serve --play`.
//! - this crate, `arena`: the command line ([`cli`]) and the binaries.
//!
//! The lower crates are re-exported here under their layer's name, so the
//! command line and the tests name everything as `arena::LAYER::...`.

pub mod cli;

pub use arena_files as files;
pub use arena_referee as referee;
pub use arena_report as report;
pub use arena_rules::{games, protocol};
pub use arena_solver as solver;
pub use arena_stats as stats;
pub use arena_tournament as tournament;
