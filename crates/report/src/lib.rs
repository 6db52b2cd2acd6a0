//! Outputs: CSV files that people plot, tables for the terminal and
//! report.html, computed from the tally of a set of games
//! ([`arena_stats::Tally`]: the run's own, or one built in one pass over
//! `games.csv` files by `arena rate` and over games files by `arena report`).

pub mod analysis;
pub mod comparison;
pub mod game_ids;
pub mod gauntlet;
pub mod html;
pub mod pairwise;
pub mod rating;
pub mod standings;
