//! Who scored what against whom, and who lost how: the crosstable and the
//! failure summary of a set of games, as data (for the terminal, the CSV
//! files and any other report).
//!
//! - [`Crosstable`]: per ordered pair of bots that met, the row bot's wins,
//!   draws and losses against the column bot (both colours together), in the
//!   standings order. `crosstable.csv` holds it in long form, one line per
//!   (bot, opponent) that met, both directions, so a pivot gives the square
//!   table: `variant,bot,opponent,games,wins,draws,losses,points,score_pct`,
//!   rows in standings order of `bot`, then of `opponent`, one block per fit
//!   (`variant`: see [`super::rating`]).
//! - [`LostBy`] (counted by the tally): per bot, games lost by each
//!   [`FailureReason`] (the failing bot is always the loser). Its columns
//!   come from [`FailureReason::ALL`], so a new reason is a new column
//!   (`lost_<reason>`, [`lost_by_columns`]) by itself; [`render_failures`]
//!   is the terminal's summary.

use arena_rules::protocol::FailureReason;
use arena_stats::{PairCounts, Wdl};

use super::rounded;
pub(crate) use arena_tournament::text::render_aligned;

/// Games one bot lost per failure reason, counted by the tally.
pub use arena_stats::LostBy;

/// The CSV column names of [`LostBy`]: `lost_timeout`, `lost_crash`, ...
pub fn lost_by_columns() -> Vec<String> {
    FailureReason::ALL
        .iter()
        .map(|r| format!("lost_{r}"))
        .collect()
}

/// The bot × bot table of results, in standings order.
#[derive(Debug, Clone, PartialEq)]
pub struct Crosstable {
    /// Names in standings order.
    pub bots: Vec<String>,
    /// `cells[i][j]`: bot `i`'s results against bot `j` (positions in
    /// `bots`); `None` where they did not meet (and on the diagonal).
    pub cells: Vec<Vec<Option<Wdl>>>,
}

/// The header of `crosstable.csv`, in the field order of [`CrosstableRow`].
pub const CROSSTABLE_COLUMNS: [&str; 9] = [
    "variant",
    "bot",
    "opponent",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "score_pct",
];

/// One line of `crosstable.csv`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CrosstableRow {
    pub bot: String,
    pub opponent: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: f64,
    #[serde(serialize_with = "rounded::dp2")]
    pub score_pct: f64,
}

impl Crosstable {
    /// The crosstable of `counts` (bots by index, names in `bots`), in the
    /// order `order` (indices, best first).
    pub fn new(bots: &[String], counts: &PairCounts, order: &[usize]) -> Crosstable {
        let cell = |a: usize, b: usize| {
            let wdl = counts.head_to_head(a, b);
            (a != b && wdl.games() > 0).then_some(wdl)
        };
        Crosstable {
            bots: order.iter().map(|&i| bots[i].clone()).collect(),
            cells: order
                .iter()
                .map(|&a| order.iter().map(|&b| cell(a, b)).collect())
                .collect(),
        }
    }

    /// The lines of `crosstable.csv`.
    pub fn rows(&self) -> Vec<CrosstableRow> {
        let mut rows = Vec::new();
        for (i, line) in self.cells.iter().enumerate() {
            for (j, cell) in line.iter().enumerate() {
                let Some(wdl) = cell else { continue };
                rows.push(CrosstableRow {
                    bot: self.bots[i].clone(),
                    opponent: self.bots[j].clone(),
                    games: wdl.games(),
                    wins: wdl.wins,
                    draws: wdl.draws,
                    losses: wdl.losses,
                    points: wdl.points(),
                    score_pct: 50.0 * wdl.half_points() as f64 / wdl.games() as f64,
                });
            }
        }
        rows
    }

    /// The table for the terminal: one line per bot in standings order, one
    /// column per opponent (numbered by rank), cells `points/games W-D-L`.
    pub fn render_table(&self) -> String {
        let mut header = vec!["#".to_string(), "Bot".to_string()];
        header.extend((1..=self.bots.len()).map(|rank| rank.to_string()));
        let mut lines = vec![header];
        for (i, line) in self.cells.iter().enumerate() {
            let mut fields = vec![(i + 1).to_string(), self.bots[i].clone()];
            fields.extend(line.iter().enumerate().map(|(j, cell)| match cell {
                Some(w) => format!(
                    "{}/{} {}-{}-{}",
                    w.points_text(),
                    w.games(),
                    w.wins,
                    w.draws,
                    w.losses
                ),
                None if i == j => "x".to_string(),
                None => "-".to_string(),
            }));
            lines.push(fields);
        }
        render_aligned(&lines, &[1])
    }
}

/// The failure summary for the terminal: `bot  timeout 2, crash 1` per bot
/// that lost any game by a failure, in the order given; empty when none did.
pub fn render_failures(bots: &[(String, LostBy)]) -> String {
    render_failures_top(bots, usize::MAX)
}

/// [`render_failures`] with at most `max_rows` bots, those that lost most
/// games by failures (in the order given among equals), and a line saying
/// how many more there are: what a terminal shows of a big field.
pub fn render_failures_top(bots: &[(String, LostBy)], max_rows: usize) -> String {
    let mut failing: Vec<&(String, LostBy)> = bots.iter().filter(|(_, l)| l.total() > 0).collect();
    if failing.is_empty() {
        return String::new();
    }
    let more = failing.len().saturating_sub(max_rows);
    if more > 0 {
        failing.sort_by_key(|(_, l)| std::cmp::Reverse(l.total()));
        failing.truncate(max_rows);
    }
    let width = failing
        .iter()
        .map(|(name, _)| name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Games lost by failures:\n");
    for (name, lost) in failing {
        let pad = width - name.chars().count();
        out.push_str(&format!(
            "  {name}{}  {} ({})\n",
            " ".repeat(pad),
            lost.total(),
            lost.text()
        ));
    }
    if more > 0 {
        out.push_str(&format!(
            "  … and {more} more bots: the lost_* columns of standings.csv count them all.\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_by_columns_follow_the_failure_reasons() {
        let columns = lost_by_columns();
        assert_eq!(columns.len(), FailureReason::ALL.len());
        assert_eq!(columns[0], "lost_timeout");
        assert!(columns.contains(&"lost_illegal_move".to_string()));
        let mut lost = LostBy::default();
        lost.add(FailureReason::Crash);
        lost.add(FailureReason::Crash);
        lost.add(FailureReason::Timeout);
        assert_eq!(lost.text(), "timeout 1, crash 2");
        assert_eq!(lost.total(), 3);
    }
}
