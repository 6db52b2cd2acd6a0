//! A Swiss's results: the [`Field`] its next round is paired from, and the
//! [`SwissSummary`] the terminal and the report show (each round's boards
//! with their game points, and the table with its tie-breaks, in the order
//! `crate::swiss` documents). Only complete rounds count in the table.
//! The summary is the Swiss's verdict: its tables ([`SwissSummary::tables`])
//! follow the standings on the terminal and make its section of report.html.

use std::any::Any;

use serde::Serialize;

use super::format::{resume_hint, Verdict};
use super::paired::{unplayed_words, Stages};
use super::progress::RunOutcome;
use super::text::{Said, TextTable};
use arena_stats::points_text;

/// A Swiss so far.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SwissSummary {
    /// Rounds planned.
    pub rounds: u32,
    /// Rounds whose every game has finished (the table counts these).
    pub complete: usize,
    /// Every round paired, with the results of its finished games.
    pub played: Vec<SwissRound>,
    /// The table, first place first.
    pub table: Vec<SwissRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SwissRound {
    /// 1 for the first.
    pub round: u64,
    pub boards: Vec<BoardResult>,
    pub bye: Option<String>,
}

/// One pairing of a round and its game points so far.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardResult {
    /// The higher-ranked bot first.
    pub bots: [String; 2],
    /// Each bot's game points, in half points.
    pub points: [u32; 2],
    /// Games finished, of `games`.
    pub finished: u64,
    /// Finished games neither bot played (they count for nobody).
    pub unplayed: u64,
    pub games: u64,
}

/// A line of the table; points are in half points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SwissRow {
    pub rank: usize,
    pub bot: String,
    /// Won pairings and byes 2, drawn pairings 1.
    pub score: u32,
    /// The scores of every opponent met, summed.
    pub buchholz: u32,
    /// Game points against the bots tied with this one on score and
    /// Buchholz (`None` when none is).
    pub tied_points: Option<u32>,
    /// Game points of every game.
    pub game_points: u32,
    pub byes: u32,
}

/// What pairing a round knows: each bot's score and meetings so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// Score in half points (a won pairing or a bye 2, a drawn one 1).
    pub score: Vec<u32>,
    /// `met[a][b]`: how often `a` and `b` were paired.
    pub met: Vec<Vec<u32>>,
    /// Byes each bot has had.
    pub byes: Vec<u32>,
}

impl Field {
    /// `bots` bots before any round.
    pub fn new(bots: usize) -> Field {
        Field {
            score: vec![0; bots],
            met: vec![vec![0; bots]; bots],
            byes: vec![0; bots],
        }
    }
}

/// The field after the first `complete` rounds of `stages`.
pub fn field(stages: &Stages, byes: &[Option<usize>], complete: usize) -> Field {
    let mut field = Field::new(stages.names().len());
    for (s, stage) in stages.stages().iter().enumerate().take(complete) {
        for (k, &[a, b]) in stage.boards.iter().enumerate() {
            let [pa, pb] = stages.board_points(s, k);
            let played = stages.board_finished(s, k) - stages.board_unplayed(s, k);
            let (sa, sb) = match pa.cmp(&pb) {
                // Neither bot played a game of it: neither scores.
                _ if played == 0 => (0, 0),
                std::cmp::Ordering::Greater => (2, 0),
                std::cmp::Ordering::Equal => (1, 1),
                std::cmp::Ordering::Less => (0, 2),
            };
            field.score[a] += sa;
            field.score[b] += sb;
            field.met[a][b] += 1;
            field.met[b][a] += 1;
        }
        if let Some(bye) = byes[s] {
            field.score[bye] += 2;
            field.byes[bye] += 1;
        }
    }
    field
}

/// The rounds of `stages` and the table of the first `complete`.
pub fn summary(
    stages: &Stages,
    byes: &[Option<usize>],
    complete: usize,
    rounds: u32,
) -> SwissSummary {
    let names = stages.names();
    let n = names.len();
    let field = field(stages, byes, complete);
    let mut game_points = vec![0u32; n];
    let mut buchholz = vec![0u32; n];
    // (a, b, a's points, b's points) of every board of the complete rounds.
    let mut meetings = Vec::new();
    let mut played = Vec::new();
    for (s, stage) in stages.stages().iter().enumerate() {
        let mut boards = Vec::new();
        for (k, &[a, b]) in stage.boards.iter().enumerate() {
            let points = stages.board_points(s, k);
            if s < complete {
                game_points[a] += points[0];
                game_points[b] += points[1];
                buchholz[a] += field.score[b];
                buchholz[b] += field.score[a];
                meetings.push((a, b, points));
            }
            boards.push(BoardResult {
                bots: [names[a].clone(), names[b].clone()],
                points,
                finished: stages.board_finished(s, k),
                unplayed: stages.board_unplayed(s, k),
                games: 2 * stage.pairs,
            });
        }
        played.push(SwissRound {
            round: stage.round,
            boards,
            bye: byes[s].map(|b| names[b].clone()),
        });
    }
    let order = rank(&field, &buchholz, &game_points, &meetings);
    let table = order
        .iter()
        .enumerate()
        .map(|(i, &(b, tied))| SwissRow {
            rank: i + 1,
            bot: names[b].clone(),
            score: field.score[b],
            buchholz: buchholz[b],
            tied_points: tied,
            game_points: game_points[b],
            byes: field.byes[b],
        })
        .collect();
    SwissSummary {
        rounds,
        complete,
        played,
        table,
    }
}

/// The bots in table order, each with its game points against the bots
/// tied with it on score and Buchholz (`None` when untied).
pub fn rank(
    field: &Field,
    buchholz: &[u32],
    game_points: &[u32],
    meetings: &[(usize, usize, [u32; 2])],
) -> Vec<(usize, Option<u32>)> {
    let n = field.score.len();
    let key = |b: usize| (field.score[b], buchholz[b]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&b| (std::cmp::Reverse(key(b)), b));
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    while start < n {
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&b| key(b) == key(order[start]))
                .count();
        let group = &order[start..end];
        if group.len() == 1 {
            out.push((group[0], None));
        } else {
            let mut tied: Vec<(usize, u32)> = group
                .iter()
                .map(|&b| {
                    let points = meetings
                        .iter()
                        .map(|&(x, y, [px, py])| match () {
                            _ if x == b && group.contains(&y) => px,
                            _ if y == b && group.contains(&x) => py,
                            _ => 0,
                        })
                        .sum();
                    (b, points)
                })
                .collect();
            tied.sort_by_key(|&(b, points)| (std::cmp::Reverse((points, game_points[b])), b));
            out.extend(tied.into_iter().map(|(b, p)| (b, Some(p))));
        }
        start = end;
    }
    out
}

impl SwissSummary {
    /// The final table (after the complete rounds), then each round.
    pub fn tables(&self) -> Vec<TextTable> {
        let title = if self.complete == self.rounds as usize {
            format!(
                "Swiss table after {} rounds (score, then Buchholz, then game points among the tied, then all game points)",
                self.rounds
            )
        } else {
            format!(
                "Swiss table after {} of {} rounds (score, then Buchholz, then game points among the tied, then all game points)",
                self.complete, self.rounds
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
            rows: self.table.iter().map(table_row).collect(),
            left: vec![1],
        }];
        tables.extend(self.played.iter().map(round_table));
        tables
    }
}

/// A round's boards with their game points, and its bye.
fn round_table(round: &SwissRound) -> TextTable {
    let mut rows: Vec<Vec<String>> = round
        .boards
        .iter()
        .enumerate()
        .map(|(k, board)| {
            let [a, b] = &board.bots;
            let [pa, pb] = board.points;
            let mut result = format!("{} - {}", points_text(pa), points_text(pb));
            if board.finished < board.games {
                result.push_str(&format!(" ({} of {} games)", board.finished, board.games));
            }
            result.push_str(&unplayed_words(board.unplayed, board.games));
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
    TextTable {
        title: format!("Swiss round {}", round.round),
        columns: ["Board", "Bot", "Game points", "Bot"]
            .map(String::from)
            .to_vec(),
        rows,
        left: vec![1, 2, 3],
    }
}

fn table_row(row: &SwissRow) -> Vec<String> {
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

impl Verdict for SwissSummary {
    fn summary(&self, run: &RunOutcome) -> Vec<Said> {
        let mut said = vec![Said::Line(String::new()), Said::Tables(self.tables())];
        said.extend(resume_hint(run));
        said
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
