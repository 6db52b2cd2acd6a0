//! arena-engine: the reference alpha-beta bot for arena.
//!
//! The bot rebuilds every position from the move history with the same rules
//! engine the referee uses ([`arena_rules::games`]), so it can never disagree with
//! the referee about what is legal. Modules:
//! - [`session`]: the protocol loop (stdin/stdout lines, one game after another).
//! - [`budget`]: how much of the clock one move may use.
//! - [`search`]: limits, the timer, scores and the per-family dispatch.
//! - [`negamax`]: the search both families share (iterative deepening,
//!   alpha-beta with PVS, transposition table, killer moves).
//! - [`qango_search`] / [`quinque_search`]: each family as a searchable
//!   position (rules shortcuts, evaluation, move ordering).
//! - [`table`]: the transposition table both searches share.
//! - [`perfect`]: the solver's share of each move: proven positions played perfectly.
//! - [`greedy`]: the one-ply baseline player used to measure strength.
//! - [`matchplay`]: in-process games and colour-swapped matches between players.
//! - [`rating`]: match statistics (Elo with a 95% interval, LOS) for the harness.
//! - [`flags`]: the engine's and the examples' `--name VALUE` flags.

pub mod budget;
pub mod flags;
pub mod greedy;
pub mod matchplay;
pub mod negamax;
pub mod perfect;
pub mod qango_search;
pub mod quinque_search;
pub mod rating;
pub mod search;
pub mod session;
pub mod table;
