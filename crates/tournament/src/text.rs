//! What a format says, as data a front end shows: lines and tables of
//! text ([`Said`], [`TextTable`]), aligned for the terminal
//! ([`render_tables`]) or drawn as HTML by report.html; and the words every
//! format's first line shares about the run's settings ([`run_settings`]).

use serde::Serialize;

use super::config::TournamentConfig;
use arena_referee::format_time_control;

/// One piece of what a format says at the end of a run.
#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    /// A line (empty: a blank line).
    Line(String),
    /// Tables, one after another with a blank line between.
    Tables(Vec<TextTable>),
}

/// A titled table of text cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextTable {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Columns read left-aligned (names); the others are numbers.
    #[serde(skip)]
    pub left: Vec<usize>,
}

/// A format's tables for report.html and its last line (a knockout's
/// winner, or why the games could not be replayed).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormatTables {
    pub tables: Vec<TextTable>,
    pub note: Option<String>,
}

/// The tables for the terminal: each title, then its aligned rows, with a
/// blank line between tables.
pub fn render_tables(tables: &[TextTable]) -> String {
    let mut out = String::new();
    for (i, table) in tables.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&table.title);
        out.push_str(":\n");
        let mut lines = vec![table.columns.clone()];
        lines.extend(table.rows.iter().cloned());
        out.push_str(&render_aligned(&lines, &table.left));
    }
    out
}

/// Aligned columns separated by two spaces; the columns in `left` read
/// left-aligned (names), the others right-aligned (numbers).
pub fn render_aligned(lines: &[Vec<String>], left: &[usize]) -> String {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for line in lines {
        for (w, c) in widths.iter_mut().zip(line) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    for line in lines {
        let mut text = String::new();
        for (col, field) in line.iter().enumerate() {
            let pad = " ".repeat(widths[col] - field.chars().count());
            if col > 0 {
                text.push_str("  ");
            }
            if left.contains(&col) {
                text.push_str(field);
                text.push_str(&pad);
            } else {
                text.push_str(&pad);
                text.push_str(field);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

/// `, shard 2/3 (its part of each round)` for a staged run's shard, else
/// nothing.
pub fn shard_words(config: &TournamentConfig) -> String {
    match config.shard {
        Some(shard) => format!(", shard {shard} (its part of each round)"),
        None => String::new(),
    }
}

/// What every format's first line says of the run's settings after its
/// own words: `per-move=1000 (+100 ms grace), 1 at a time, seed 4, openings
/// of 2 plies`, then the time odds and `; idle bots suspended` when there
/// are any (`odds`: false leaves the time odds out).
pub fn run_settings(config: &TournamentConfig, odds: bool) -> String {
    format!(
        "{} (+{} ms grace), {} at a time, seed {}, {}{}",
        format_time_control(&config.time_control),
        config.grace_ms,
        config.concurrency,
        config.seed,
        describe_openings(config),
        if odds {
            describe_time_odds(config)
        } else {
            String::new()
        },
    )
}

/// "; idle bots suspended" with `suspend_idle`, else nothing.
pub fn describe_suspension(config: &TournamentConfig) -> &'static str {
    if config.suspend_idle {
        "; idle bots suspended"
    } else {
        ""
    }
}

/// "; time odds: a 5+0.05, b per-move=100" for bots with their own time
/// control, else nothing.
fn describe_time_odds(config: &TournamentConfig) -> String {
    let odds = config.time_odds();
    if odds.is_empty() {
        String::new()
    } else {
        format!("; time odds: {}", odds.join(", "))
    }
}

/// "openings of 2 plies", or "openings from FILE (N, sequential from 0)".
fn describe_openings(config: &TournamentConfig) -> String {
    match &config.openings {
        None => format!("openings of {} plies", config.opening_plies),
        Some(suite) => format!(
            "openings from {} ({}, {} from {})",
            suite.file.display(),
            suite.openings.len(),
            suite.order.name(),
            suite.start
        ),
    }
}
