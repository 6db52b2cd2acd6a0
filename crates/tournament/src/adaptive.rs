//! The adaptive ranking (`format = "adaptive"`) as a [`Format`] of the
//! driver: rounds of game pairs chosen where the joint fit's order is not
//! yet certain, until the order is certified at the plan's `confidence` or
//! `max_games` are played. The method (certificate, choice of pairs, error
//! rate) is [`arena_stats::adaptive`]'s; this module turns its rounds into
//! games.
//!
//! Round 0 is the seeding: every pairing once, in the round robin's order
//! ([`pairings`]), up to 5 bots; from 6 bots the sparse seeding of the
//! run's seed ([`arena_stats::adaptive::seeding`]: `n (ceil(log2 n) - 1)`
//! pairings, 4,000 for 500 bots where the round robin has 124,750), so a
//! resumed run replays the same games. What the later rounds play and when
//! the run stops is the goal's (`certify`, [`arena_stats::certify`]). Round `r + 1` is decided when every game of round `r` is
//! finished, from the results of the games of rounds `0..=r` and nothing
//! else (counted by game id, whatever order they finished in), so the games
//! of a run are a function of its settings, seed and results: `--resume`
//! after a kill replays the decisions from the finished games, plays the
//! games of the decided rounds that are missing, and goes on exactly as an
//! uninterrupted run with the same results would; `concurrency` changes
//! only how many games of a round run at once (a round waits for the one
//! before it). Pairs are numbered on across rounds: pair `p` is games `2p`
//! (the pair's first bot white) and `2p + 1`, of variant `p mod V` with the
//! pair's seeded opening, as in a round robin; `round` in games.csv is the
//! adaptive round.

use std::any::Any;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use serde::{Deserialize, Serialize};

use super::certificate::{
    certificate_rows, certificate_sentence, read_certificate, write_certificate, CertificateRow,
};
use super::config::TournamentConfig;
use super::format::{resume_hint, Format, FormatRow, RunState, Verdict};
use super::manifest::{FormatPlan, Manifest, Plan};
use super::openings::Openings;
use super::progress::{RunOutcome, RunOutput};
use super::runner::Flow;
use super::schedule::{game_pair, pairings, ScheduledGame};
use super::settings::defs;
use super::settings::resolve::Resolved;
use super::text::{describe_suspension, run_settings, Said};
use arena_referee::GameRow;
use arena_rules::games::{GameResult, Variant};
use arena_stats::adaptive::{round_robin, seeding};
use arena_stats::{Assessment, Certifier, Goal, PairCounts, TalliedGame, Tally, Watch};

/// The adaptive ranking's line in the registry.
pub const FORMAT: FormatRow = FormatRow {
    kind: AdaptivePlan::KIND,
    plan: plan_of,
    open: |manifest| {
        Ok(Box::new(AdaptiveRanking::new(
            manifest,
            manifest.plan.read()?,
        )?))
    },
};

/// An adaptive ranking's plan (`format = "adaptive"`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AdaptivePlan {
    /// The certified order is wrong with at most `1 - confidence`.
    pub confidence: f64,
    /// Stop uncertified after this many games (rounded down to pairs).
    pub max_games: u64,
    /// What to certify (a plan from before `certify` certifies the order).
    #[serde(default)]
    pub certify: Goal,
}

impl FormatPlan for AdaptivePlan {
    const KIND: &'static str = "adaptive";
}

/// The adaptive ranking's plan when the run is one (`format =
/// "adaptive"`): `max_games` given, `confidence` in range, no games per
/// pairing and no shard; a run that is not one takes neither setting.
fn plan_of(r: &Resolved, _config: &TournamentConfig) -> anyhow::Result<Option<Plan>> {
    let v = &r.values;
    if r.sprt || v.format.value != "adaptive" {
        if let Some(setting) = r.first_given(&[&defs::MAX_GAMES, &defs::CONFIDENCE, &defs::CERTIFY])
        {
            return Err(r.at_setting(
                setting,
                "is a setting of an adaptive ranking (format = \"adaptive\")",
            ));
        }
        return Ok(None);
    }
    if v.games_per_pairing.given() {
        return Err(r.at(
            &v.games_per_pairing,
            "an adaptive ranking chooses its game pairs from the results; give `max_games` to limit it",
        ));
    }
    if v.shard.given() {
        return Err(r.at(
            &v.shard,
            "an adaptive ranking cannot be sharded: each round is chosen from all the games before it",
        ));
    }
    let Some(max_games) = v.max_games.value else {
        return Err(r.at(
            &v.max_games,
            "an adaptive ranking needs `max_games` (two bots of equal strength are never separated), e.g. max_games = 2000",
        ));
    };
    let plan = AdaptivePlan {
        confidence: v.confidence.value,
        max_games,
        certify: v.certify.value,
    };
    plan.certify
        .check(r.bots.len())
        .map_err(|e| r.at(&v.certify, e))?;
    plan.check()
        .map_err(|e| r.at(&v.confidence, format!("{e:#}")))?;
    Ok(Some(Plan::of(&plan)))
}

impl AdaptivePlan {
    /// The plan's values in range: `confidence` strictly between 0 and 1,
    /// at least one game pair.
    pub fn check(&self) -> anyhow::Result<()> {
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            bail!(
                "confidence must be between 0 and 1 (e.g. 0.95), got {}",
                self.confidence
            );
        }
        if self.max_games < 2 {
            bail!(
                "max_games must be at least 2 (one game pair), got {}",
                self.max_games
            );
        }
        Ok(())
    }
}

/// One finished game as the rounds count it: bot and variant indices.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Counted {
    white: usize,
    black: usize,
    variant: usize,
    result: GameResult,
    /// `false`: neither bot played it (counted by no fit).
    played: bool,
}

/// A decided round: its pairs, numbered on from `first_pair`.
#[derive(Debug, Clone)]
struct Round {
    first_pair: u64,
    pairings: Vec<(usize, usize)>,
}

impl Round {
    fn end_pair(&self) -> u64 {
        self.first_pair + self.pairings.len() as u64
    }
}

/// What an adaptive run concludes.
#[derive(Debug, Clone, PartialEq)]
pub struct AdaptiveVerdict {
    pub plan: AdaptivePlan,
    /// Bot names by index, as the assessment's indices refer to them.
    pub bots: Vec<String>,
    /// The ranking after every finished game (`None` before any).
    pub assessment: Option<Assessment>,
    /// Games counted in it.
    pub games: u64,
}

impl AdaptiveVerdict {
    pub fn certified(&self) -> bool {
        self.assessment.as_ref().is_some_and(|a| a.certified)
    }

    /// The rows of its certificate.csv ([`crate::certificate`]).
    pub fn certificate(&self) -> Vec<CertificateRow> {
        certificate_rows(
            self.plan.confidence,
            self.games,
            self.plan.certify,
            &self.bots,
            self.assessment.as_ref(),
        )
    }
}

impl Verdict for AdaptiveVerdict {
    fn summary(&self, run: &RunOutcome) -> Vec<Said> {
        let mut said = vec![
            Said::Line(String::new()),
            Said::Line(certificate_sentence(&self.certificate())),
        ];
        said.extend(resume_hint(run));
        said
    }

    /// certificate.csv.
    fn write_files(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        Ok(vec![write_certificate(dir, &self.certificate())?])
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The rounds decided so far and the results they are decided from.
#[derive(Clone)]
pub struct AdaptiveRanking {
    plan: AdaptivePlan,
    certifier: Certifier,
    names: Vec<String>,
    variants: Vec<&'static Variant>,
    openings: Openings,
    results: BTreeMap<u64, Counted>,
    rounds: Vec<Round>,
    /// The next game id of the decided rounds to consider starting.
    next_id: u64,
    /// Certified, or the game limit reached: no round follows.
    over: bool,
    /// The run's seed, of which the seeding round is a function.
    seed: u64,
    /// The tiers from round to round, for the goal's stopping rule.
    watch: Watch,
}

impl AdaptiveRanking {
    /// The run `manifest` plans by `plan`; fails on a plan out of range.
    pub fn new(manifest: &Manifest, plan: AdaptivePlan) -> anyhow::Result<AdaptiveRanking> {
        plan.check()?;
        let config = &manifest.config;
        if config.shard.is_some() {
            bail!("an adaptive ranking cannot be sharded: each round is chosen from all the games before it");
        }
        let variants = config.variants();
        // An opening length no game allows fails here, before any game.
        for (v, variant) in variants.iter().enumerate() {
            config.pair_openings().for_pair(variant, v as u64)?;
        }
        Ok(AdaptiveRanking {
            certifier: Certifier::new(plan.confidence),
            plan,
            names: config.bot_names(),
            openings: config.pair_openings(),
            variants,
            results: BTreeMap::new(),
            rounds: Vec::new(),
            next_id: 0,
            over: false,
            seed: config.seed,
            watch: Watch::default(),
        })
    }

    /// What the games so far conclude.
    pub fn adaptive_verdict(&self) -> AdaptiveVerdict {
        // A fit that fails (it does not with the prior) leaves no verdict.
        let assessment = self.assess(u64::MAX).ok().flatten();
        AdaptiveVerdict {
            plan: self.plan,
            bots: self.names.clone(),
            assessment,
            games: self.results.len() as u64,
        }
    }

    /// Counts a finished game of the run (once per id).
    fn record(&mut self, row: &GameRow) {
        let index = |name: &str| self.names.iter().position(|n| n == name);
        let variant = self.variants.iter().position(|v| v.id == row.variant);
        if let (Some(white), Some(black), Some(variant)) =
            (index(&row.white), index(&row.black), variant)
        {
            let result = Counted {
                white,
                black,
                variant,
                result: row.result,
                played: row.played,
            };
            self.results.insert(row.id, result);
        }
    }

    /// The game `id` of pair `pair` between `first` (white in the pair's
    /// first game) and `second`, in round `round`.
    fn game(
        &self,
        id: u64,
        round: u64,
        (first, second): (usize, usize),
    ) -> anyhow::Result<ScheduledGame> {
        let pair = id / 2;
        let variant = self.variants[(pair % self.variants.len() as u64) as usize];
        let opening = self.openings.for_pair(variant, pair)?;
        let [a, b] = game_pair(variant, pair, round, first, second, opening);
        Ok(if id.is_multiple_of(2) { a } else { b })
    }

    /// The ranking from the games with ids below `end` (all, with `u64::MAX`),
    /// counted and paired (pair `p`: games `2p` and `2p + 1`) by a tally of
    /// those games alone, which numbers the bots as the run does.
    fn assess(&self, end: u64) -> anyhow::Result<Option<Assessment>> {
        let mut tally = Tally::with_bots(&self.names)?;
        for (&id, r) in self.results.range(..end) {
            tally.add(&TalliedGame {
                id,
                variant: self.variants[r.variant].id,
                pair: id / 2,
                white: &self.names[r.white],
                black: &self.names[r.black],
                result: r.result,
                failure: None,
                played: r.played,
            })?;
        }
        assess_tally(&self.certifier, &tally, &self.names, &self.variants)
    }

    /// Decides the next round, or that none follows (certified, or the
    /// limit reached). Called only when every decided game is finished.
    fn decide(&mut self) -> anyhow::Result<()> {
        let planned = self.rounds.last().map_or(0, Round::end_pair);
        let budget = (self.plan.max_games / 2).saturating_sub(planned) as usize;
        let goal = self.plan.certify;
        let mut next = if self.rounds.is_empty() {
            self.seeding()
        } else {
            match self.assess(2 * planned)? {
                Some(a) if !goal.stop(&a, 2 * planned, &mut self.watch) => {
                    goal.next_round(&a, 2 * planned, self.plan.max_games)
                }
                _ => Vec::new(),
            }
        };
        next.truncate(budget);
        if next.is_empty() {
            self.over = true;
        } else {
            self.rounds.push(Round {
                first_pair: planned,
                pairings: next,
            });
        }
        Ok(())
    }

    /// Round 0's pairings: the round robin's cycle (in its order) when the
    /// sparse seeding would have no fewer pairings, else the sparse
    /// seeding of the run's seed ([`arena_stats::adaptive::seeding`]).
    fn seeding(&self) -> Vec<(usize, usize)> {
        let bots = self.names.len();
        let sparse = seeding(bots, self.seed);
        if sparse.len() >= round_robin(bots).len() {
            pairings(bots)
        } else {
            sparse
        }
    }

    /// The game `id` of a decided round; a finished game that is not the
    /// one the round chose is an error (the directory was not played by
    /// this plan).
    fn decided_game(&self, id: u64) -> anyhow::Result<ScheduledGame> {
        let pair = id / 2;
        let (number, round) = self
            .rounds
            .iter()
            .enumerate()
            .find(|(_, r)| pair < r.end_pair())
            .expect("the id is of a decided round");
        let game = self.game(
            id,
            number as u64,
            round.pairings[(pair - round.first_pair) as usize],
        )?;
        if let Some(r) = self.results.get(&id) {
            if (r.white, r.black) != (game.white, game.black) {
                bail!(
                    "game g{id} in games.csv is {} against {}, but the adaptive ranking chooses {} against {} from the games before it",
                    self.names[r.white], self.names[r.black], self.names[game.white], self.names[game.black]
                );
            }
        }
        Ok(game)
    }
}

/// What `goal` certifies, in words: `the order`, `the top 3`, `tiers`.
fn goal_words(goal: Goal) -> String {
    match goal {
        Goal::Order => "the order".into(),
        Goal::Top(k) => format!("the top {k}"),
        Goal::Tiers => "tiers".into(),
    }
}

/// The ranking of the bots `names` by `tally`'s games (numbered as
/// [`Tally::with_bots`] of `names` numbers them), pooled over `variants`
/// (one fit group each, in their order; games of other variants count only
/// head to head), judged by `certifier`: the adaptive format's assessment,
/// shared with a league's choice of games. `None` before any game.
pub fn assess_tally(
    certifier: &Certifier,
    tally: &Tally,
    names: &[String],
    variants: &[&'static Variant],
) -> anyhow::Result<Option<Assessment>> {
    if tally.games() == 0 {
        return Ok(None);
    }
    let mut groups = vec![PairCounts::new(names.len()); variants.len()];
    for (id, counts) in tally.counts().variant_counts {
        if let Some(v) = variants.iter().position(|v| v.id == id) {
            groups[v] = counts;
        }
    }
    let head_to_head = |i: usize, j: usize| tally.pentanomial(&names[i], &names[j]);
    let assessment = certifier
        .assess(&groups, head_to_head)
        .map_err(|e| anyhow!("rating the games for the ranking's order: {e}"))?;
    Ok(Some(assessment))
}

impl Format for AdaptiveRanking {
    fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String> {
        vec![
            format!(
                "Adaptive ranking: {} bots, {}, certifying {} at confidence {}, at most {} games, {}{}",
                config.bots.len(),
                config.variant_ids().join(", "),
                goal_words(self.plan.certify),
                self.plan.confidence,
                self.plan.max_games,
                run_settings(config, true),
                describe_suspension(config),
            ),
            format!("Output: {}", dir.display()),
        ]
    }

    fn total(&self) -> Option<u64> {
        Some(self.plan.max_games / 2 * 2)
    }

    fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>> {
        loop {
            let end = 2 * self.rounds.last().map_or(0, Round::end_pair);
            while self.next_id < end {
                let id = self.next_id;
                self.next_id += 1;
                let game = self.decided_game(id)?;
                if !run.done.contains(id) {
                    return Ok(Some(game));
                }
            }
            let start = 2 * self.rounds.last().map_or(0, |r| r.first_pair);
            if self.over || (start..end).any(|id| !run.done.contains(id)) {
                // Over, or the round's last games are still being played.
                return Ok(None);
            }
            self.decide()?;
        }
    }

    fn recorded(&mut self, row: &GameRow) -> anyhow::Result<()> {
        self.record(row);
        Ok(())
    }

    fn finished(&mut self, row: &GameRow, _run: &RunState, _output: &mut dyn RunOutput) -> Flow {
        self.record(row);
        Flow::Continue
    }

    fn verdict(&self, _run: &RunState) -> Box<dyn Verdict> {
        Box::new(self.adaptive_verdict())
    }

    /// The plan, and the certificate of the run's certificate.csv in `dir`.
    fn describe(&self, _config: &TournamentConfig, dir: &Path) -> String {
        let certificate = match read_certificate(dir) {
            Ok(Some(rows)) => certificate_sentence(&rows),
            Ok(None) => "no certificate.csv yet".to_string(),
            Err(e) => format!("{e:#}"),
        };
        format!(
            "adaptive ranking certifying {} at confidence {}, at most {} games. {certificate}",
            goal_words(self.plan.certify),
            self.plan.confidence,
            self.plan.max_games
        )
    }

    fn games_per_pairing(&self, _config: &TournamentConfig) -> String {
        "game pairs, as many as the order needs".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::defs::{CERTIFY, FORMAT, MAX_GAMES, OPENING_PLIES, SEED};
    use crate::settings::Given;
    use crate::testing::{lower_index_wins, manifest_of, row_of};

    fn manifest(max_games: u64) -> Manifest {
        let given = Given::new()
            .with_bot("a=x")
            .with_bot("b=y")
            .with_bot("c=z")
            .with(&FORMAT, "adaptive")
            .with(&MAX_GAMES, max_games.to_string())
            .with(&OPENING_PLIES, "2");
        manifest_of(&given)
    }

    fn format(m: &Manifest) -> AdaptiveRanking {
        AdaptiveRanking::new(m, m.plan.read().unwrap()).unwrap()
    }

    /// The result of `game` when the bot of lower index always wins.
    fn row(m: &Manifest, game: &ScheduledGame) -> GameRow {
        row_of(game, &m.config.bot_names(), lower_index_wins(game))
    }

    struct Quiet;
    impl RunOutput for Quiet {}

    /// Plays the whole run one game at a time; returns every game started.
    fn play(format: &mut AdaptiveRanking, m: &Manifest, run: &mut RunState) -> Vec<ScheduledGame> {
        let mut games = Vec::new();
        while let Some(game) = format.next_game(run).unwrap() {
            let row = row(m, &game);
            run.add(&row).unwrap();
            format.finished(&row, run, &mut Quiet);
            games.push(game);
        }
        games
    }

    #[test]
    fn a_round_waits_for_the_one_before_and_plays_where_the_order_is_open() {
        let m = manifest(1000);
        let mut f = format(&m);
        let mut run = RunState::new();
        // The seeding: every pairing once, as game pairs.
        let seeding: Vec<ScheduledGame> =
            std::iter::from_fn(|| f.next_game(&run).unwrap()).collect();
        assert_eq!(seeding.len(), 6);
        for pair in seeding.chunks(2) {
            assert_eq!(
                (pair[0].white, pair[0].black),
                (pair[1].black, pair[1].white)
            );
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].round, 0);
        }
        // Nothing more until the round is finished.
        for game in &seeding[..5] {
            let row = row(&m, game);
            run.add(&row).unwrap();
            f.finished(&row, &run, &mut Quiet);
        }
        assert!(f.next_game(&run).unwrap().is_none());
        let row = row(&m, &seeding[5]);
        run.add(&row).unwrap();
        f.finished(&row, &run, &mut Quiet);
        // Round 1: the adjacent pairs of a > b > c, 4 pairs in all.
        let next = f.next_game(&run).unwrap().unwrap();
        assert_eq!((next.id, next.round), (6, 1));
        let row = self::row(&m, &next);
        run.add(&row).unwrap();
        f.finished(&row, &run, &mut Quiet);
        let rest = play(&mut f, &m, &mut run);
        // Round 1 holds only the adjacent pairs of a > b > c.
        for game in std::iter::once(&next).chain(&rest).filter(|g| g.round == 1) {
            let bots = (game.white.min(game.black), game.white.max(game.black));
            assert!(bots == (0, 1) || bots == (1, 2), "{game:?}");
        }
        assert_eq!(rest.iter().filter(|g| g.round == 1).count() + 1, 8);
        let v = f.adaptive_verdict();
        assert!(v.certified(), "{v:?}");
        assert_eq!(v.assessment.unwrap().order, [0, 1, 2]);
        assert!(rest.len() + 7 < 1000, "stopped when certified");
    }

    #[test]
    fn a_resumed_run_replays_its_rounds_and_plays_what_an_uninterrupted_one_plays() {
        let m = manifest(60);
        let whole = play(&mut format(&m), &m, &mut RunState::new());
        assert_eq!(whole.len(), 60, "the limit, in whole pairs");
        // Killed in round 2, its games finished out of order.
        let mut run = RunState::new();
        let mut resumed = format(&m);
        let cut = 21;
        let mut earlier: Vec<&ScheduledGame> = whole[..cut].iter().collect();
        earlier.swap(cut - 1, cut - 4);
        earlier.remove(cut - 2);
        for game in earlier {
            let row = row(&m, game);
            run.add(&row).unwrap();
            resumed.recorded(&row).unwrap();
        }
        let left = play(&mut resumed, &m, &mut run);
        let expected: Vec<&ScheduledGame> = whole
            .iter()
            .filter(|g| g.id == whole[cut - 2].id || g.id >= cut as u64)
            .collect();
        assert_eq!(left.iter().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn finished_games_the_plan_would_not_choose_are_an_error() {
        let m = manifest(60);
        let whole = play(&mut format(&m), &m, &mut RunState::new());
        let mut wrong = row(&m, &whole[8]);
        std::mem::swap(&mut wrong.white, &mut wrong.black);
        wrong.white = "c".into();
        let mut run = RunState::new();
        let mut f = format(&m);
        for game in &whole[..8] {
            let row = row(&m, game);
            run.add(&row).unwrap();
            f.recorded(&row).unwrap();
        }
        run.add(&wrong).unwrap();
        f.recorded(&wrong).unwrap();
        let err = std::iter::from_fn(|| Some(f.next_game(&run)))
            .find_map(|r| r.err())
            .unwrap()
            .to_string();
        assert!(err.contains("game g8 in games.csv is c against"), "{err}");
    }

    #[test]
    fn plans_out_of_range_and_shards_are_refused() {
        let m = manifest(60);
        for (plan, expected) in [
            (
                AdaptivePlan {
                    confidence: 1.0,
                    max_games: 10,
                    certify: Goal::Order,
                },
                "confidence must be between 0 and 1",
            ),
            (
                AdaptivePlan {
                    confidence: 0.9,
                    max_games: 1,
                    certify: Goal::Order,
                },
                "max_games must be at least 2",
            ),
        ] {
            let err = AdaptiveRanking::new(&m, plan).err().unwrap().to_string();
            assert!(err.contains(expected), "{err}");
        }
        let mut sharded = m.clone();
        sharded.config.shard = Some(crate::shard::Shard::WHOLE);
        let plan = AdaptivePlan {
            confidence: 0.9,
            max_games: 10,
            certify: Goal::Order,
        };
        let err = AdaptiveRanking::new(&sharded, plan)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("cannot be sharded"), "{err}");
    }

    /// 12 bots, the lower index always winning, certifying `certify`.
    fn twelve(certify: &str) -> Manifest {
        let mut given = Given::new()
            .with(&FORMAT, "adaptive")
            .with(&MAX_GAMES, "20000")
            .with(&CERTIFY, certify)
            .with(&SEED, "9")
            .with(&OPENING_PLIES, "2");
        for k in 0..12 {
            given = given.with_bot(format!("b{k:02}=x"));
        }
        manifest_of(&given)
    }

    #[test]
    fn twelve_bots_seed_sparsely_and_the_top_costs_fewer_games_than_the_order() {
        let run = |certify: &str| {
            let m = twelve(certify);
            let mut f = format(&m);
            let games = play(&mut f, &m, &mut RunState::new());
            (games, f.adaptive_verdict())
        };
        let (order_games, order) = run("order");
        // 12 bots: strides 1, 2, 4 (8 is not below 6): 36 pairings, not 66.
        assert_eq!(order_games.iter().filter(|g| g.round == 0).count(), 72);
        assert!(order.certified());
        let (top_games, top) = run("top:2");
        let rows = top.certificate();
        assert!(
            rows.iter().any(|r| r.rank == 2 && r.adjacent && r.boundary),
            "{rows:?}"
        );
        assert_eq!(
            certificate_sentence(&rows),
            format!(
                "Top 2 certified at 95% confidence after {} games: b00 > b01.",
                top_games.len()
            )
        );
        assert!(top_games.len() < order_games.len());
        // Round 0 is the same in both: a function of the seed.
        let seeding = |games: &[ScheduledGame]| -> Vec<(usize, usize)> {
            games
                .iter()
                .filter(|g| g.round == 0)
                .map(|g| (g.white, g.black))
                .collect()
        };
        assert_eq!(seeding(&order_games), seeding(&top_games));
    }
}
