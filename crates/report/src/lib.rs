//! Outputs: CSV files that people plot, tables for the terminal and
//! report.html, computed from the tally of a set of games
//! ([`arena_stats::Tally`]: the run's own, or one built in one pass over
//! `games.csv` files by `arena rate` and over games files by `arena report`).
//!
//! - `rating`: everything written after rating a tally (standings, tables,
//!   report.html); `fits`: the fits of a set of games and the four rating
//!   files; `standings`: the standings rows and model parameters.
//! - `comparison`: the crosstable and the failure summary; `pairwise`:
//!   `pairwise.csv`; `gauntlet`: a gauntlet's view from its seeds.
//! - A format's own section of report.html and its settings line come from
//!   the format (`arena_tournament::format::Format`), as does an adaptive
//!   ranking's `certificate.csv` (`arena_tournament::certificate`).
//! - `analyse`: every move of games judged against perfect play (the
//!   solver); `analysis`: its rows, `analysis.csv` and their summaries.
//! - `rounded`: numbers rounded as the CSV files write them.
//! - `game_ids`: which games `arena rate` has counted (repeats are errors).
//! - `league`: a league's standings (every version; the latest).
//! - `html`: report.html.

pub mod analyse;
pub mod analysis;
pub mod comparison;
pub mod fits;
pub mod game_ids;
pub mod gauntlet;
pub mod html;
pub mod league;
pub mod pairwise;
pub mod rating;
mod rounded;
pub mod standings;
