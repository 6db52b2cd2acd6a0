//! The tables of a Swiss (its final table with the tie-breaks, then each
//! round's pairings and results) and of a knockout (one table per bracket
//! round, and the winner), as plain rows of text: the terminal aligns
//! them ([`render_tables`]), report.html draws them as HTML tables. Their
//! numbers come from [`arena_tournament::swiss`] and
//! [`arena_tournament::knockout`].

use serde::Serialize;

use super::comparison::render_aligned;
use arena_referee::GameRow;
use arena_stats::points_text;
use arena_tournament::knockout::{Bracket, BracketMatch, Knockout};
use arena_tournament::manifest::{Manifest, Plan};
use arena_tournament::progress::PairedRound;
use arena_tournament::swiss::Swiss;
use arena_tournament::swiss::{SwissRow, SwissSummary};

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

/// `Round 2 of 5: a - c, b - d; bye: e`.
pub fn paired_line(round: &PairedRound) -> String {
    let boards: Vec<String> = round
        .boards
        .iter()
        .map(|[a, b]| format!("{a} - {b}"))
        .collect();
    let mut line = format!("{}: {}", round.title, boards.join(", "));
    if !round.byes.is_empty() {
        line.push_str(&format!("; bye: {}", round.byes.join(", ")));
    }
    line
}

/// The final table (after the complete rounds), then each round.
pub fn swiss_tables(summary: &SwissSummary) -> Vec<TextTable> {
    let title = if summary.complete == summary.rounds as usize {
        format!(
            "Swiss table after {} rounds (score, then Buchholz, then game points among the tied, then all game points)",
            summary.rounds
        )
    } else {
        format!(
            "Swiss table after {} of {} rounds (score, then Buchholz, then game points among the tied, then all game points)",
            summary.complete, summary.rounds
        )
    };
    let columns = [
        "#",
        "Bot",
        "Score",
        "Buchholz",
        "Tied",
        "Game points",
        "Byes",
    ];
    let mut tables = vec![TextTable {
        title,
        columns: columns.map(String::from).to_vec(),
        rows: summary.table.iter().map(swiss_row).collect(),
        left: vec![1],
    }];
    for round in &summary.played {
        let mut rows: Vec<Vec<String>> = round
            .boards
            .iter()
            .enumerate()
            .map(|(k, board)| {
                let [a, b] = &board.bots;
                let [pa, pb] = board.points;
                let result = if board.finished == board.games {
                    format!("{} - {}", points_text(pa), points_text(pb))
                } else {
                    format!(
                        "{} - {} ({} of {} games)",
                        points_text(pa),
                        points_text(pb),
                        board.finished,
                        board.games
                    )
                };
                vec![(k + 1).to_string(), a.clone(), result, b.clone()]
            })
            .collect();
        if let Some(bye) = &round.bye {
            rows.push(vec![
                String::new(),
                bye.clone(),
                "bye (1 point)".into(),
                String::new(),
            ]);
        }
        tables.push(TextTable {
            title: format!("Swiss round {}", round.round),
            columns: ["Board", "Bot", "Game points", "Bot"]
                .map(String::from)
                .to_vec(),
            rows,
            left: vec![1, 2, 3],
        });
    }
    tables
}

fn swiss_row(row: &SwissRow) -> Vec<String> {
    vec![
        row.rank.to_string(),
        row.bot.clone(),
        points_text(row.score),
        points_text(row.buchholz),
        row.tied_points.map_or("-".into(), points_text),
        points_text(row.game_points),
        row.byes.to_string(),
    ]
}

/// One table per bracket round ([`winner_line`] says who won).
pub fn bracket_tables(bracket: &Bracket) -> Vec<TextTable> {
    let rounds = bracket.size.trailing_zeros();
    let columns = ["Seed", "Bot", "Game points", "Seed", "Bot", "Advances"];
    bracket
        .rounds
        .iter()
        .map(|round| TextTable {
            title: format!("Knockout round {} of {rounds}", round.round),
            columns: columns.map(String::from).to_vec(),
            rows: round.matches.iter().map(bracket_row).collect(),
            left: vec![1, 2, 4, 5],
        })
        .collect()
}

/// `Winner: a`, or that the bracket is not decided yet.
pub fn winner_line(bracket: &Bracket) -> String {
    match &bracket.winner {
        Some(winner) => format!("Winner: {winner}"),
        None => "No winner yet: the bracket is not decided.".into(),
    }
}

fn bracket_row(m: &BracketMatch) -> Vec<String> {
    if m.bye {
        let winner = m.winner.clone().unwrap_or_default();
        return vec![
            m.seeds[0].to_string(),
            m.bots[0].clone(),
            "bye".into(),
            String::new(),
            String::new(),
            winner,
        ];
    }
    let [pa, pb] = m.points;
    let mut result = format!("{} - {}", points_text(pa), points_text(pb));
    if m.tiebreak_pairs > 0 {
        let pairs = if m.tiebreak_pairs == 1 {
            "pair"
        } else {
            "pairs"
        };
        result.push_str(&format!(" (with {} tie-break {pairs})", m.tiebreak_pairs));
    }
    let advances = match &m.winner {
        Some(w) if m.by_seed => format!("{w} (tied: higher seed)"),
        Some(w) => w.clone(),
        None => format!("({} games so far)", m.finished),
    };
    vec![
        m.seeds[0].to_string(),
        m.bots[0].clone(),
        result,
        m.seeds[1].to_string(),
        m.bots[1].clone(),
        advances,
    ]
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

/// A Swiss or knockout rebuilt from a directory's games, for report.html.
pub enum Replay {
    Swiss(Box<Swiss>),
    Knockout(Box<Knockout>),
}

/// A format's tables and its last line (the knockout's winner, or why the
/// games could not be replayed).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormatTables {
    pub tables: Vec<TextTable>,
    pub note: Option<String>,
}

impl Replay {
    /// The replay of `manifest`'s run when it is a Swiss or a knockout.
    pub fn of(manifest: &Manifest) -> Option<anyhow::Result<Replay>> {
        Some(match manifest.plan {
            Plan::Swiss(plan) => Swiss::new(manifest, plan).map(|s| Replay::Swiss(Box::new(s))),
            Plan::Knockout(plan) => {
                Knockout::new(manifest, plan).map(|k| Replay::Knockout(Box::new(k)))
            }
            _ => return None,
        })
    }

    /// A finished game of the directory.
    pub fn record(&mut self, row: &GameRow) {
        match self {
            Replay::Swiss(s) => s.record(row),
            Replay::Knockout(k) => k.record(row),
        }
    }

    /// The tables, once every game is recorded.
    pub fn tables(mut self) -> FormatTables {
        let caught_up = match &mut self {
            Replay::Swiss(s) => s.catch_up(),
            Replay::Knockout(k) => k.catch_up(),
        };
        let error = caught_up
            .err()
            .map(|e| format!("the games do not follow the plan: {e:#}"));
        match self {
            Replay::Swiss(s) => FormatTables {
                tables: swiss_tables(&s.summary()),
                note: error,
            },
            Replay::Knockout(k) => {
                let bracket = k.bracket();
                FormatTables {
                    tables: bracket_tables(&bracket),
                    note: Some(error.unwrap_or_else(|| winner_line(&bracket))),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_tournament::knockout::BracketRound;
    use arena_tournament::swiss::{BoardResult, SwissRound};

    #[test]
    fn a_swiss_shows_its_table_then_each_round() {
        let summary = SwissSummary {
            rounds: 2,
            complete: 1,
            played: vec![SwissRound {
                round: 1,
                boards: vec![BoardResult {
                    bots: ["a".into(), "b".into()],
                    points: [3, 1],
                    finished: 2,
                    games: 2,
                }],
                bye: Some("c".into()),
            }],
            table: vec![SwissRow {
                rank: 1,
                bot: "a".into(),
                score: 2,
                buchholz: 0,
                tied_points: None,
                game_points: 3,
                byes: 0,
            }],
        };
        let text = render_tables(&swiss_tables(&summary));
        assert!(
            text.starts_with("Swiss table after 1 of 2 rounds"),
            "{text}"
        );
        assert!(
            text.contains("1  a        1         0     -          1.5     0"),
            "{text}"
        );
        assert!(text.contains("    1  a    1.5 - 0.5      b"), "{text}");
        assert!(text.contains("c    bye (1 point)"), "{text}");
    }

    #[test]
    fn a_bracket_shows_byes_tie_breaks_and_the_seed_decision() {
        let m = |bye: bool, by_seed: bool| BracketMatch {
            seeds: [1, if bye { 0 } else { 4 }],
            bots: ["a".into(), if bye { "" } else { "d" }.into()],
            points: [4, 4],
            finished: 4,
            tiebreak_pairs: 1,
            winner: Some("a".into()),
            by_seed,
            bye,
        };
        let bracket = Bracket {
            size: 4,
            tiebreak_pairs: 1,
            rounds: vec![BracketRound {
                round: 1,
                matches: vec![m(true, false), m(false, true)],
            }],
            winner: None,
        };
        let text = render_tables(&bracket_tables(&bracket));
        assert!(text.starts_with("Knockout round 1 of 2:"), "{text}");
        assert!(text.contains("a    bye"), "{text}");
        assert!(
            text.contains("2 - 2 (with 1 tie-break pair)     4  d    a (tied: higher seed)"),
            "{text}"
        );
        assert_eq!(
            winner_line(&bracket),
            "No winner yet: the bracket is not decided."
        );
        let paired = PairedRound {
            title: "Round 1 of 2".into(),
            boards: vec![["d".into(), "e".into()]],
            byes: vec!["a".into()],
        };
        assert_eq!(paired_line(&paired), "Round 1 of 2: d - e; bye: a");
    }
}
