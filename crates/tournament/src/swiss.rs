//! The Swiss (`format = "swiss"`, `rounds = N`) as a [`Format`] of the
//! driver: each round pairs every bot with one opponent of the same or the
//! nearest score, and is paired only when every game of the round before
//! has finished, from those results alone ([`crate::paired`]), so a resumed
//! run plays what an uninterrupted one plays.
//!
//! A pairing ("board") is `games_per_pairing` games in each variant, in
//! colour-swapped pairs. Its winner is the bot with more game points; it
//! scores 1 (a draw 1/2 each, a loss 0). A game neither bot played counts
//! for nobody, and a pairing none of whose games was played scores 0 for
//! both ([`crate::paired::Stages::board_points`]). In an odd field one bot per round
//! has a bye, scored 1 like a won pairing; it is no game (nothing in
//! games.csv or the ratings), and no bot gets a second bye while another
//! has had none.
//!
//! The pairing ([`pair_round`]): the bots ranked by score, then config
//! order, are paired top-down by score groups as the Dutch system pairs
//! them: the top half of a group against its bottom half in order (1-4,
//! 2-5, 3-6 in a group of six), a bot left over joining the next group
//! down; no two bots meet twice while a search of [`SEARCH_BUDGET`] steps
//! finds a pairing without, else each bot meets the one it has met least
//! often. The bye goes to the lowest-ranked bot of the fewest byes for
//! which the others can be paired without a rematch.
//!
//! The final table ([`SwissSummary`]) ranks by score, then Buchholz (the
//! sum of the scores of every opponent met; a bye adds nothing), then the
//! game points scored against the bots tied on both, then all game points,
//! then config order.

use std::path::Path;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use super::config::TournamentConfig;
use super::format::{Format, FormatRow, RunState, Verdict};
use super::manifest::{FormatPlan, Manifest, Plan};
use super::paired::{check_owned, finished_staged, next_staged_game, Staged, Stages};
use super::progress::{PairedRound, RunOutput};
use super::runner::Flow;
use super::schedule::ScheduledGame;
use super::settings::resolve::Resolved;
use super::shard::Shard;
use super::stage_shards::ShardDone;
use super::text::{describe_suspension, run_settings, shard_words, FormatTables};
use arena_referee::GameRow;

pub use super::swiss_table::{BoardResult, Field, SwissRound, SwissRow, SwissSummary};

/// The Swiss's line in the registry.
pub const FORMAT: FormatRow = FormatRow {
    kind: SwissPlan::KIND,
    plan: plan_of,
    open: |manifest| Ok(Box::new(Swiss::new(manifest, manifest.plan.read()?)?)),
};

/// A Swiss's plan: how many rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlan {
    pub rounds: u32,
}

impl FormatPlan for SwissPlan {
    const KIND: &'static str = "swiss";
}

/// The Swiss's plan when the settings choose it (`format = "swiss"`):
/// `rounds` given (and only then), a shard plays its part of each stage.
fn plan_of(r: &Resolved, _config: &TournamentConfig) -> anyhow::Result<Option<Plan>> {
    let v = &r.values;
    check_owned(r, &v.rounds.origin, SwissPlan::KIND)?;
    if v.format.value != SwissPlan::KIND {
        return Ok(None);
    }
    let Some(rounds) = v.rounds.value else {
        return Err(r.at(
            &v.format,
            "a swiss needs its number of rounds: give `rounds = N` (--rounds N)",
        ));
    };
    Ok(Some(Plan::of(&SwissPlan {
        rounds: rounds as u32,
    })))
}

/// Steps the search for a pairing without rematches may take (per round)
/// before the fewest-meetings choice takes over.
pub const SEARCH_BUDGET: u64 = 200_000;

/// One round's pairing: boards (the higher-ranked bot first) from the top,
/// and the bot with the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPairing {
    pub boards: Vec<[usize; 2]>,
    pub bye: Option<usize>,
}

/// Pairs a round of `field` (see the module docs).
pub fn pair_round(field: &Field) -> RoundPairing {
    let n = field.score.len();
    let mut rank: Vec<usize> = (0..n).collect();
    rank.sort_by_key(|&b| (std::cmp::Reverse(field.score[b]), b));
    let mut budget = SEARCH_BUDGET;
    if n.is_multiple_of(2) {
        let boards =
            search(&rank, field, &mut budget).unwrap_or_else(|| fewest_meetings(&rank, field));
        return RoundPairing { boards, bye: None };
    }
    let fewest = field.byes.iter().copied().min().unwrap_or(0);
    let candidates: Vec<usize> = rank
        .iter()
        .rev()
        .copied()
        .filter(|&b| field.byes[b] == fewest)
        .collect();
    let without =
        |bye: usize| -> Vec<usize> { rank.iter().copied().filter(|&b| b != bye).collect() };
    for &bye in &candidates {
        if let Some(boards) = search(&without(bye), field, &mut budget) {
            return RoundPairing {
                boards,
                bye: Some(bye),
            };
        }
    }
    let bye = candidates[0];
    RoundPairing {
        boards: fewest_meetings(&without(bye), field),
        bye: Some(bye),
    }
}

/// The opponents the top unpaired bot prefers among `rest` (the others,
/// in rank order), best first: in the score group of the next bots (its
/// own, or the next one down when it is left over) the one half the group
/// away, then those below it, then those above it; then the rest in rank
/// order.
fn preference(rest: &[usize], field: &Field) -> Vec<usize> {
    let Some(&top) = rest.first() else {
        return Vec::new();
    };
    let group = rest
        .iter()
        .take_while(|&&b| field.score[b] == field.score[top])
        .count();
    // In the group with the top bot first, its partner is half the group away.
    let partner = group.div_ceil(2) - 1;
    let mut order: Vec<usize> = rest[partner..group].to_vec();
    order.extend(rest[..partner].iter().rev());
    order.extend(&rest[group..]);
    order
}

/// A pairing of `unpaired` (rank order) without rematches, depth first in
/// [`preference`] order, or `None` when there is none (or the budget ran out).
fn search(unpaired: &[usize], field: &Field, budget: &mut u64) -> Option<Vec<[usize; 2]>> {
    let Some((&a, rest)) = unpaired.split_first() else {
        return Some(Vec::new());
    };
    for b in preference(rest, field) {
        if field.met[a][b] > 0 {
            continue;
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let others: Vec<usize> = rest.iter().copied().filter(|&c| c != b).collect();
        if let Some(mut boards) = search(&others, field, budget) {
            boards.insert(0, [a, b]);
            return Some(boards);
        }
    }
    None
}

/// A pairing of `unpaired` where, top-down, each bot meets the preferred
/// opponent it has met least often.
fn fewest_meetings(unpaired: &[usize], field: &Field) -> Vec<[usize; 2]> {
    let mut left = unpaired.to_vec();
    let mut boards = Vec::new();
    while left.len() >= 2 {
        let a = left.remove(0);
        let b = preference(&left, field)
            .into_iter()
            .min_by_key(|&b| field.met[a][b])
            .expect("two bots are left");
        left.retain(|&c| c != b);
        boards.push([a, b]);
    }
    boards
}

/// The Swiss of a run: its rounds so far, each round's bye, and the
/// finished games.
#[derive(Clone)]
pub struct Swiss {
    plan: SwissPlan,
    stages: Stages,
    byes: Vec<Option<usize>>,
    /// Game pairs per board: `games_per_pairing / 2` in each variant.
    pairs: u64,
    first: PairedRound,
    /// What pairing a round failed on, said by the next `next_game`.
    error: Option<String>,
}

impl Swiss {
    /// The Swiss `manifest` plans, its first round paired; fails when it
    /// cannot be played (no round, an impossible opening length).
    pub fn new(manifest: &Manifest, plan: SwissPlan) -> anyhow::Result<Swiss> {
        let config = &manifest.config;
        if plan.rounds == 0 {
            bail!("a swiss needs at least one round (rounds = 0)");
        }
        let mut swiss = Swiss {
            plan,
            stages: Stages::new(config),
            byes: Vec::new(),
            pairs: u64::from(config.games_per_pairing / 2) * config.variants().len() as u64,
            first: PairedRound::default(),
            error: None,
        };
        swiss.pair_next()?;
        swiss.first = swiss.paired_round(0);
        Ok(swiss)
    }

    /// A finished game, before this run or in it.
    pub fn record(&mut self, row: &GameRow) {
        self.stages.record(row);
    }

    /// Rounds paired so far.
    pub fn rounds_paired(&self) -> usize {
        self.byes.len()
    }

    /// The field after the rounds that are complete.
    pub fn field(&self) -> Field {
        super::swiss_table::field(&self.stages, &self.byes, self.complete_rounds())
    }

    /// Rounds every game of which has finished.
    fn complete_rounds(&self) -> usize {
        let paired = self.byes.len();
        if self.stages.last_complete() {
            paired
        } else {
            paired - 1
        }
    }

    /// Pairs the next round from the complete ones (all before it), after
    /// checking the last round's games against the plan.
    fn pair_next(&mut self) -> anyhow::Result<()> {
        self.stages.check_last()?;
        let pairing = pair_round(&self.field());
        let round = self.byes.len() as u64 + 1;
        self.stages.push(round, pairing.boards, 0, self.pairs)?;
        self.byes.push(pairing.bye);
        Ok(())
    }

    /// When the last round is complete: the next one paired (`true`), or,
    /// after the last round, the games checked (`false`).
    fn advance_stage(&mut self) -> anyhow::Result<bool> {
        if !self.stages.last_complete() {
            return Ok(false);
        }
        if self.byes.len() as u32 >= self.plan.rounds {
            self.stages.check_last()?;
            self.stages.check_no_more()?;
            return Ok(false);
        }
        self.pair_next()?;
        Ok(true)
    }

    /// Pairs every round the recorded games allow (as `next_game` would),
    /// for a reader of a finished or stopped run.
    pub fn catch_up(&mut self) -> anyhow::Result<()> {
        while self.advance_stage()? {}
        Ok(())
    }

    /// Round `r` (0-based) as its pairings are announced.
    fn paired_round(&self, r: usize) -> PairedRound {
        let names = self.stages.names();
        let stage = &self.stages.stages()[r];
        PairedRound {
            title: format!("Round {} of {}", r + 1, self.plan.rounds),
            boards: stage
                .boards
                .iter()
                .map(|&[a, b]| [names[a].clone(), names[b].clone()])
                .collect(),
            byes: self.byes[r].iter().map(|&b| names[b].clone()).collect(),
        }
    }

    /// Every game of the plan.
    fn planned_games(&self) -> u64 {
        let boards = self.stages.names().len() as u64 / 2;
        u64::from(self.plan.rounds) * boards * 2 * self.pairs
    }

    /// The rounds so far with their results, and the table of the complete ones.
    pub fn summary(&self) -> SwissSummary {
        super::swiss_table::summary(
            &self.stages,
            &self.byes,
            self.complete_rounds(),
            self.plan.rounds,
        )
    }
}

impl Staged for Swiss {
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
        (self.byes.len() as u32) < self.plan.rounds
    }

    fn compute_next(&mut self) -> anyhow::Result<()> {
        self.pair_next()
    }

    fn announced(&self, s: usize) -> PairedRound {
        self.paired_round(s)
    }
}

impl Format for Swiss {
    fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String> {
        vec![
            format!(
                "Swiss of {} rounds: {} bots, {}, {} games ({} per pairing){}, {}{}",
                self.plan.rounds,
                config.bots.len(),
                config.variant_ids().join(", "),
                self.planned_games(),
                config.games_per_pairing,
                shard_words(config),
                run_settings(config, true),
                describe_suspension(config),
            ),
            format!("Output: {}", dir.display()),
            self.first.line(),
        ]
    }

    /// Every game of the plan; a shard plays a part of it, open-ended.
    fn total(&self) -> Option<u64> {
        (self.stages.shard() == Shard::WHOLE).then(|| self.planned_games())
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
        Box::new(self.summary())
    }

    fn as_staged(&mut self) -> Option<&mut dyn Staged> {
        Some(self)
    }

    fn report_tables(&mut self) -> Option<FormatTables> {
        let note = self
            .catch_up()
            .err()
            .map(|e| format!("the games do not follow the plan: {e:#}"));
        Some(FormatTables {
            tables: self.summary().tables(),
            note,
        })
    }

    fn describe(&self, _config: &TournamentConfig, _dir: &Path) -> String {
        format!("swiss, {} rounds", self.plan.rounds)
    }
}

#[cfg(test)]
#[path = "swiss_tests.rs"]
mod tests;
