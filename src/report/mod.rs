//! Outputs: CSV files that people plot, and tables for the terminal.

pub mod games_reader;
pub mod pairwise;
pub mod rating;
pub mod rating_input;
pub mod results;
pub mod standings;
