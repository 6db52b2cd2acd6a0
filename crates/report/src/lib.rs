//! Outputs: CSV files that people plot, and tables for the terminal, computed
//! from `games.csv` rows ([`arena_referee::GameRow`], read by [`arena_tournament::games_reader`]).

pub mod comparison;
pub mod game_ids;
pub mod gauntlet;
pub mod html;
pub mod pairwise;
pub mod rating;
pub mod rating_input;
pub mod results;
pub mod standings;
