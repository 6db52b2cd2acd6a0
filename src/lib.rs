//! arena: a referee and tournament runner for Qango and Quinque bots.
//!
//! Modules follow the data:
//! - [`games`]: the rules engine (variants as tables, pure move/outcome functions).
//! - [`protocol`]: the line-JSON messages exchanged with bots.
//! - [`referee`]: bot processes, clocks, and playing one game.
//! - [`tournament`]: schedule, runner and the on-disk journal.
//! - [`stats`]: ratings, intervals and sequential tests.
//! - [`report`]: CSV and terminal outputs.
//! - [`cli`]: the command-line front end.

pub mod cli;
pub mod games;
pub mod protocol;
pub mod referee;
pub mod report;
pub mod stats;
pub mod tournament;
