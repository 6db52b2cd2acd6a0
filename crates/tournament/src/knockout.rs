//! The knockout (`format = "knockout"`) as a [`Format`] of the driver: a
//! seeded single-elimination bracket. Seeds follow the config's bot order
//! (the first bot is seed 1); the bracket has the next power of two of
//! places, in the usual order (seed 1 meets seed 2 in the final at the
//! earliest: 1-8, 4-5, 2-7, 3-6 in eight places), and the places beyond
//! the field are byes, so the top seeds advance from round 1 unplayed.
//!
//! A match is `games_per_pairing` games in each variant, in colour-swapped
//! pairs; the bot with more game points in its played games advances (a
//! game neither bot played counts for nobody). On a tie the match goes
//! on, one more colour-swapped pair at a time (a new opening each), at most
//! `tiebreak_pairs` pairs; still tied, the higher seed advances. Losers
//! play no more; the winner of the last round wins. A round (and each of
//! its tie-break pairs) starts when every game before it has finished, and
//! follows from those results alone ([`crate::paired`]), so a resumed run
//! plays what an uninterrupted one plays. `round` in games.csv is the
//! bracket round, 1 for the first.

use std::any::Any;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::config::TournamentConfig;
use super::format::{resume_hint, Format, FormatRow, RunState, Verdict};
use super::manifest::{FormatPlan, Manifest, Plan};
use super::paired::{
    check_owned, finished_staged, next_staged_game, unplayed_words, Staged, Stages,
};
use super::progress::{PairedRound, RunOutcome, RunOutput};
use super::runner::Flow;
use super::schedule::ScheduledGame;
use super::settings::resolve::Resolved;
use super::shard::Shard;
use super::stage_shards::ShardDone;
use super::text::{describe_suspension, run_settings, shard_words, FormatTables, Said, TextTable};
use arena_referee::GameRow;
use arena_stats::points_text;

/// The knockout's line in the registry.
pub const FORMAT: FormatRow = FormatRow {
    kind: KnockoutPlan::KIND,
    plan: plan_of,
    open: |manifest| Ok(Box::new(Knockout::new(manifest, manifest.plan.read()?)?)),
};

/// A knockout's plan: how long a tied match goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutPlan {
    /// Extra game pairs a tied match plays, one at a time, before the
    /// higher seed advances.
    pub tiebreak_pairs: u32,
}

impl FormatPlan for KnockoutPlan {
    const KIND: &'static str = "knockout";
}

/// The knockout's plan when the settings choose it (`format =
/// "knockout"`): its `tiebreak_pairs` (given only then), a shard plays its part of each stage.
fn plan_of(r: &Resolved, _config: &TournamentConfig) -> anyhow::Result<Option<Plan>> {
    let v = &r.values;
    check_owned(r, &v.tiebreak_pairs.origin, KnockoutPlan::KIND)?;
    if v.format.value != KnockoutPlan::KIND {
        return Ok(None);
    }
    Ok(Some(Plan::of(&KnockoutPlan {
        tiebreak_pairs: v.tiebreak_pairs.value as u32,
    })))
}

/// The bracket's places in order, as 0-based seeds: for eight places
/// 0, 7, 3, 4, 1, 6, 2, 5 (seeds 1-8, 4-5, 2-7, 3-6).
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let k = 2 * order.len();
        order = order.iter().flat_map(|&s| [s, k - 1 - s]).collect();
    }
    order
}

/// One match: its bots (the higher seed first), the stages and boards
/// its games are on, and how it was decided.
#[derive(Debug, Clone)]
struct Match {
    bots: [usize; 2],
    /// (stage, board) of each part of the match: its games, then each
    /// tie-break pair.
    boards: Vec<(usize, usize)>,
    winner: Option<usize>,
    by_seed: bool,
}

/// The knockout of a run: the rounds so far, and the finished games.
#[derive(Clone)]
pub struct Knockout {
    plan: KnockoutPlan,
    stages: Stages,
    size: usize,
    /// Who enters each round, by place (`None`: an empty place).
    entrants: Vec<Vec<Option<usize>>>,
    /// Each round's matches, by place; a bye is `None`.
    matches: Vec<Vec<Option<Match>>>,
    /// Tie-break pairs the current round has played.
    level: u32,
    /// Game pairs of a match before a tie-break: `games_per_pairing / 2`
    /// in each variant.
    pairs: u64,
    first: PairedRound,
    winner: Option<usize>,
    /// What computing a stage failed on, said by the next `next_game`.
    error: Option<String>,
}

impl Knockout {
    /// The knockout `manifest` plans, its first round computed; fails when
    /// it cannot be played (an impossible opening length).
    pub fn new(manifest: &Manifest, plan: KnockoutPlan) -> anyhow::Result<Knockout> {
        let config = &manifest.config;
        let n = config.bots.len();
        let size = n.next_power_of_two();
        let places = bracket_order(size)
            .into_iter()
            .map(|seed| (seed < n).then_some(seed))
            .collect();
        let mut knockout = Knockout {
            plan,
            stages: Stages::new(config),
            size,
            entrants: vec![places],
            matches: Vec::new(),
            level: 0,
            pairs: u64::from(config.games_per_pairing / 2) * config.variants().len() as u64,
            first: PairedRound::default(),
            winner: None,
            error: None,
        };
        knockout.start_round()?;
        knockout.first = knockout.paired(0);
        Ok(knockout)
    }

    /// A finished game, before this run or in it.
    pub fn record(&mut self, row: &GameRow) {
        self.stages.record(row);
    }

    /// Starts the next round from its entrants: byes advance, the matches
    /// get their first stage. A round without a match (one entrant left)
    /// is the end.
    fn start_round(&mut self) -> anyhow::Result<()> {
        let entrants = self.entrants.last().expect("a round has entrants").clone();
        if entrants.len() == 1 {
            self.winner = entrants[0];
            return Ok(());
        }
        let stage = self.stages.stages().len();
        let mut matches = Vec::new();
        let mut boards = Vec::new();
        for place in entrants.chunks(2) {
            matches.push(match (place[0], place[1]) {
                (Some(a), Some(b)) => {
                    let bots = [a.min(b), a.max(b)];
                    let board = (stage, boards.len());
                    boards.push(bots);
                    Some(Match {
                        bots,
                        boards: vec![board],
                        winner: None,
                        by_seed: false,
                    })
                }
                _ => None,
            });
        }
        self.matches.push(matches);
        self.level = 0;
        if boards.is_empty() {
            return self.end_round();
        }
        let round = self.entrants.len() as u64;
        self.stages.push(round, boards, 0, self.pairs)
    }

    /// The round's winners enter the next round.
    fn end_round(&mut self) -> anyhow::Result<()> {
        let r = self.matches.len() - 1;
        let next = self.entrants[r]
            .chunks(2)
            .zip(&self.matches[r])
            .map(|(place, m)| match m {
                Some(m) => m.winner,
                None => place[0].or(place[1]),
            })
            .collect();
        self.entrants.push(next);
        self.start_round()
    }

    /// The last stage is complete: its matches decided or given one more
    /// tie-break pair; `true` when a stage follows (or the next round).
    fn settle(&mut self) -> anyhow::Result<bool> {
        let r = self.matches.len() - 1;
        let stage = self.stages.stages().len();
        let mut tied = Vec::new();
        for m in self.matches[r].iter_mut().flatten() {
            if m.winner.is_some() {
                continue;
            }
            let [pa, pb] = points(&self.stages, &m.boards);
            if pa != pb {
                m.winner = Some(if pa > pb { m.bots[0] } else { m.bots[1] });
            } else if self.level < self.plan.tiebreak_pairs {
                m.boards.push((stage, tied.len()));
                tied.push(m.bots);
            } else {
                m.winner = Some(m.bots[0]);
                m.by_seed = true;
            }
        }
        if !tied.is_empty() {
            let round = self.entrants.len() as u64;
            self.stages
                .push(round, tied, self.pairs + u64::from(self.level), 1)?;
            self.level += 1;
            return Ok(true);
        }
        self.end_round()?;
        Ok(self.winner.is_none())
    }

    /// When the last stage is complete: the next one computed (`true`), or
    /// at the end the games checked (`false`).
    fn advance_stage(&mut self) -> anyhow::Result<bool> {
        if !self.stages.last_complete() {
            return Ok(false);
        }
        self.stages.check_last()?;
        if self.winner.is_some() {
            self.stages.check_no_more()?;
            return Ok(false);
        }
        self.settle()
    }

    /// Computes every stage the recorded games allow, for a reader of a
    /// finished or stopped run.
    pub fn catch_up(&mut self) -> anyhow::Result<()> {
        while self.advance_stage()? {}
        Ok(())
    }

    /// Stage `s` as it is announced.
    fn paired(&self, s: usize) -> PairedRound {
        let names = self.stages.names();
        let stage = &self.stages.stages()[s];
        let rounds = self.size.trailing_zeros();
        let mut title = format!("Round {} of {rounds}", stage.round);
        if stage.from > 0 {
            title.push_str(&format!(
                ", tie-break pair {} of at most {}",
                stage.from - self.pairs + 1,
                self.plan.tiebreak_pairs
            ));
        }
        let r = stage.round as usize - 1;
        let byes = if stage.from > 0 {
            Vec::new()
        } else {
            self.entrants[r]
                .chunks(2)
                .filter(|place| place[0].is_none() != place[1].is_none())
                .filter_map(|place| place[0].or(place[1]))
                .map(|b| names[b].clone())
                .collect()
        };
        PairedRound {
            title,
            boards: stage
                .boards
                .iter()
                .map(|&[a, b]| [names[a].clone(), names[b].clone()])
                .collect(),
            byes,
        }
    }

    /// The bracket so far.
    pub fn bracket(&self) -> Bracket {
        let names = self.stages.names();
        let rounds = self
            .matches
            .iter()
            .enumerate()
            .map(|(r, matches)| BracketRound {
                round: r as u64 + 1,
                matches: self.entrants[r]
                    .chunks(2)
                    .zip(matches)
                    .filter_map(|(place, m)| self.bracket_match(place, m.as_ref()))
                    .collect(),
            })
            .collect();
        Bracket {
            size: self.size,
            tiebreak_pairs: self.plan.tiebreak_pairs,
            rounds,
            winner: self.winner.map(|b| names[b].clone()),
        }
    }

    fn bracket_match(&self, place: &[Option<usize>], m: Option<&Match>) -> Option<BracketMatch> {
        let names = self.stages.names();
        let Some(m) = m else {
            let bot = place[0].or(place[1])?;
            return Some(BracketMatch {
                seeds: [bot + 1, 0],
                bots: [names[bot].clone(), String::new()],
                points: [0, 0],
                finished: 0,
                unplayed: 0,
                tiebreak_pairs: 0,
                winner: Some(names[bot].clone()),
                by_seed: false,
                bye: true,
            });
        };
        let count = |of: fn(&Stages, usize, usize) -> u64| {
            m.boards.iter().map(|&(s, k)| of(&self.stages, s, k)).sum()
        };
        let (finished, unplayed) = (count(Stages::board_finished), count(Stages::board_unplayed));
        Some(BracketMatch {
            seeds: [m.bots[0] + 1, m.bots[1] + 1],
            bots: m.bots.map(|b| names[b].clone()),
            points: points(&self.stages, &m.boards),
            finished,
            unplayed,
            tiebreak_pairs: m.boards.len() as u32 - 1,
            winner: m.winner.map(|b| names[b].clone()),
            by_seed: m.by_seed,
            bye: false,
        })
    }
}

/// Each bot's half points over the boards of a match (its played games).
fn points(stages: &Stages, boards: &[(usize, usize)]) -> [u32; 2] {
    boards.iter().fold([0, 0], |[a, b], &(s, k)| {
        let [pa, pb] = stages.board_points(s, k);
        [a + pa, b + pb]
    })
}

/// A knockout so far, for the terminal and the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bracket {
    /// Places: the field filled with byes to a power of two.
    pub size: usize,
    pub tiebreak_pairs: u32,
    pub rounds: Vec<BracketRound>,
    /// `None` until the final is decided.
    pub winner: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketRound {
    /// 1 for the first.
    pub round: u64,
    /// In bracket order.
    pub matches: Vec<BracketMatch>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketMatch {
    /// 1-based seeds, the higher first (0 for a bye's empty place).
    pub seeds: [usize; 2],
    /// The second is empty for a bye.
    pub bots: [String; 2],
    /// Game points in half points, tie-break pairs included.
    pub points: [u32; 2],
    pub finished: u64,
    /// Finished games neither bot played (they count for nobody).
    pub unplayed: u64,
    /// Tie-break pairs played (or started).
    pub tiebreak_pairs: u32,
    pub winner: Option<String>,
    /// Still tied after the tie-break pairs: the higher seed advanced.
    pub by_seed: bool,
    pub bye: bool,
}

impl Bracket {
    /// One table per bracket round ([`Bracket::winner_line`] says who won).
    pub fn tables(&self) -> Vec<TextTable> {
        let rounds = self.size.trailing_zeros();
        let columns = ["Seed", "Bot", "Game points", "Seed", "Bot", "Advances"];
        self.rounds
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
    pub fn winner_line(&self) -> String {
        match &self.winner {
            Some(winner) => format!("Winner: {winner}"),
            None => "No winner yet: the bracket is not decided.".into(),
        }
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
    result.push_str(&unplayed_words(m.unplayed, m.finished));
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

impl Verdict for Bracket {
    fn summary(&self, run: &RunOutcome) -> Vec<Said> {
        let mut said = vec![
            Said::Line(String::new()),
            Said::Tables(self.tables()),
            Said::Line(self.winner_line()),
        ];
        said.extend(resume_hint(run));
        said
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Staged for Knockout {
    fn stages(&self) -> &Stages {
        &self.stages
    }

    fn stages_mut(&mut self) -> &mut Stages {
        &mut self.stages
    }

    fn error_mut(&mut self) -> &mut Option<String> {
        &mut self.error
    }

    fn advance(&mut self) -> anyhow::Result<bool> {
        self.advance_stage()
    }

    fn more_to_come(&self) -> bool {
        self.winner.is_none()
    }

    fn compute_next(&mut self) -> anyhow::Result<()> {
        self.settle().map(drop)
    }

    fn announced(&self, s: usize) -> PairedRound {
        self.paired(s)
    }
}

impl Format for Knockout {
    fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String> {
        vec![
            format!(
                "Knockout of {} places: {} bots, {}, {} games per match, then while tied at most {} tie-break pairs{}, {}{}",
                self.size,
                config.bots.len(),
                config.variant_ids().join(", "),
                config.games_per_pairing,
                self.plan.tiebreak_pairs,
                shard_words(config),
                run_settings(config, true),
                describe_suspension(config),
            ),
            format!("Output: {}", dir.display()),
            self.first.line(),
        ]
    }

    /// Open-ended: tie-breaks add games.
    fn total(&self) -> Option<u64> {
        None
    }

    fn recorded(&mut self, row: &GameRow) -> anyhow::Result<()> {
        self.record(row);
        Ok(())
    }

    fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>> {
        next_staged_game(self, &run.done)
    }

    fn finished(&mut self, row: &GameRow, _run: &RunState, output: &mut dyn RunOutput) -> Flow {
        finished_staged(self, row, output);
        Flow::Continue
    }

    fn verdict(&self, _run: &RunState) -> Box<dyn Verdict> {
        if self.stages.shard() != Shard::WHOLE {
            return Box::new(ShardDone::of(self));
        }
        Box::new(self.bracket())
    }

    fn as_staged(&mut self) -> Option<&mut dyn Staged> {
        Some(self)
    }

    fn report_tables(&mut self) -> Option<FormatTables> {
        let error = self
            .catch_up()
            .err()
            .map(|e| format!("the games do not follow the plan: {e:#}"));
        let bracket = self.bracket();
        Some(FormatTables {
            tables: bracket.tables(),
            note: Some(error.unwrap_or_else(|| bracket.winner_line())),
        })
    }

    fn describe(&self, _config: &TournamentConfig, _dir: &Path) -> String {
        format!(
            "knockout, at most {} tie-break pairs per match",
            self.plan.tiebreak_pairs
        )
    }
}

#[cfg(test)]
#[path = "knockout_tests.rs"]
mod tests;
