//! Outputs: CSV files that people plot, and tables for the terminal.

pub mod games_csv;
