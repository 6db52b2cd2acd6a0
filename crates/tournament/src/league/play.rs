//! Playing what a league needs (`arena league play`): its games chosen in
//! batches by [`super::need`] and played exactly as a tournament's, by the
//! tournament's runner ([`crate::runner::run_games`]) with a
//! [`TournamentConfig`] made of `league.toml` and the active versions as
//! its bots (sandbox, clocks, grace, openings, logs, concurrency: the same
//! settings, the same rules), journaled in the league's `games.jsonl`.
//!
//! Before any game the registry is refreshed (a bot whose program changed
//! becomes its next version) and the journal recovered (a torn last line
//! cut off); the finished games, read from `games.csv`, are the truth:
//! new games get ids after the largest, in whole pairs (pair `p` is games
//! `2p` and `2p + 1`, colours swapped, one opening, of variant `p mod V`
//! as in a tournament), so an id is never used twice, and a kill loses at
//! most the games in flight. A batch is decided when the one before it is
//! finished, from every game finished so far.

use std::collections::VecDeque;

use anyhow::{bail, Context};

use arena_referee::GameRow;
use arena_rules::games::Variant;

use super::need::{Batch, Need, Reason};
use super::registry::{Registered, Registry};
use super::{shards, League};
use crate::config::{Defaults, TournamentConfig};
use crate::game_set::GameSet;
use crate::games_reader::visit_numbered_games_csv;
use crate::journal::{Journal, GAMES_CSV};
use crate::openings::Openings;
use crate::progress::{PairedRound, RunOutput, RunStatus};
use crate::runner::{Flow, GameFeed, RunSummary};
use crate::schedule::{game_pair, ScheduledGame};
use crate::session::{check_before_games, play_on_runtime};
use crate::settings::build::with_bots;
use crate::settings::Given;
use crate::shard::Shard;
use arena_files::DirLock;

/// How long a shard waits for the league's lock to make or read its plan
/// (other shards hold it a moment; a league play holds it while it plays).
const SHARD_PATIENCE: std::time::Duration = std::time::Duration::from_secs(120);

/// How much to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// One batch (the default).
    OneBatch,
    /// This many more games, rounded up to whole pairs.
    Games(u64),
    /// Until the active versions' order is certified, at most this many
    /// games (rounded down to whole pairs, at least one pair).
    Certified { max_games: u64 },
}

impl Goal {
    /// The game pairs it allows at most.
    fn pairs(self) -> u64 {
        match self {
            Goal::OneBatch => u64::MAX,
            Goal::Games(n) => n.div_ceil(2),
            Goal::Certified { max_games } => (max_games / 2).max(1),
        }
    }
}

/// What `arena league play` was asked.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    pub goal: Goal,
    /// Play only this shard of a plan shared with the other shards
    /// ([`super::shards`]); needs [`Goal::Games`].
    pub shard: Option<Shard>,
    /// The certificate's confidence (in (0, 1)).
    pub confidence: f64,
    /// Settings given as flags (`-j`), over `league.toml`'s.
    pub given: Given,
    pub defaults: Defaults,
}

/// A league made ready to play: its settings, journal and first batch.
pub struct LeaguePlay {
    pub config: TournamentConfig,
    pub journal: Journal,
    pub feed: LeagueFeed,
    /// The versions the refresh registered (programs changed).
    pub changed: Vec<Registered>,
    /// What recovering the journal repaired, one sentence each.
    pub repairs: Vec<String>,
    /// Games in the league before this play.
    pub finished_before: u64,
    /// The first batch's line (`None`: nothing to play).
    pub first: Option<PairedRound>,
    /// Games of shards brought into the league before this play.
    pub collected: u64,
    /// A shard's own directory's lock, held while it plays.
    _shard_lock: Option<DirLock>,
}

impl LeaguePlay {
    /// Locks `league`, refreshes its registry, recovers its journal, reads
    /// its games and decides the first batch.
    pub fn prepare(league: &mut League, options: &PlayOptions) -> anyhow::Result<LeaguePlay> {
        if let Some(shard) = options.shard {
            return LeaguePlay::prepare_shard(league, options, shard);
        }
        league.lock()?;
        let mut registry = league.registry()?;
        let changed = registry.refresh(&league.registry_path())?;
        let config = league_config(league, &registry, options)?;
        let (mut journal, mut recovery) = Journal::recover(league.dir(), |_| Ok(()))?;
        let collected = shards::collect(league, &mut journal, &mut recovery.finished)?;
        let (need, round) = league_need(league, &config, options)?;
        // After every game, and after the ids shards have reserved.
        let next_id = recovery
            .finished
            .iter()
            .last()
            .map_or(0, |id| id + 1)
            .max(shards::reserved_end(league)?);
        let mut feed =
            LeagueFeed::new(need, config.pair_openings(), (next_id, round), options.goal);
        let first = feed.decide()?;
        Ok(LeaguePlay {
            config,
            journal,
            feed,
            changed,
            repairs: recovery.repairs,
            finished_before: recovery.finished.len(),
            first,
            collected,
            _shard_lock: None,
        })
    }

    /// Shard `shard` of the plan the league's state gives (made now, under
    /// the league's lock held a moment, unless another shard made it),
    /// played into the shard's own directory.
    fn prepare_shard(
        league: &mut League,
        options: &PlayOptions,
        shard: Shard,
    ) -> anyhow::Result<LeaguePlay> {
        let Goal::Games(games) = options.goal else {
            bail!("--shard needs --games N: the shards share one plan of N games (certifying needs every game's result: play it without --shard)");
        };
        // The shards of an array plan one after the other, a moment each.
        league.lock_waiting(SHARD_PATIENCE)?;
        let registry = league.registry()?;
        // A shard registers nothing: a changed program would play under
        // its old version's name.
        for v in registry.active() {
            if crate::identity::program_identity(&v.bot) != v.program {
                bail!(
                    "{}'s program changed since {} was registered; register it first: arena league play {} --games 0",
                    v.name,
                    v.label(),
                    league.dir().display()
                );
            }
        }
        let mut config = league_config(league, &registry, options)?;
        let (need, round) = league_need(league, &config, options)?;
        let (_, recovery) = Journal::recover(league.dir(), |_| Ok(()))?;
        let next_id = recovery.finished.iter().last().map_or(0, |id| id + 1);
        let settings = std::fs::read_to_string(league.settings_path()).unwrap_or_default();
        let state = format!(
            "{next_id} {} {games} {} {settings}",
            registry.versions.len(),
            shard.count
        );
        let stamp = shards::stamp(&state);
        let plan = shards::plan_of(league, &stamp, || shards::Plan {
            stamp: stamp.clone(),
            base: next_id
                .max(shards::reserved_end(league).unwrap_or(0))
                .div_ceil(2)
                * 2,
            games: games.div_ceil(2) * 2,
            seed: u64::from_str_radix(&stamp[..12], 16).unwrap_or(0),
        })?;
        league.unlock();
        let dir = shards::shard_dir(league, &stamp, shard);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let lock = DirLock::acquire(&dir)?;
        let (journal, done) = if dir.join(crate::journal::GAMES_JSONL).exists() {
            let (journal, recovery) = Journal::recover(&dir, |_| Ok(()))?;
            (journal, recovery.finished)
        } else {
            (Journal::create(&dir)?, GameSet::new())
        };
        config.out = dir;
        config.seed = plan.seed;
        let mut feed = LeagueFeed::new(
            need,
            config.pair_openings(),
            (plan.base, round),
            Goal::Games(plan.games),
        );
        feed.shard = Some((shard, done));
        let first = feed.decide()?;
        Ok(LeaguePlay {
            config,
            journal,
            feed,
            changed: Vec::new(),
            repairs: Vec::new(),
            finished_before: 0,
            first,
            collected: 0,
            _shard_lock: Some(lock),
        })
    }

    /// Plays the batches (after the checks before the first game) until
    /// the goal is met, a signal comes or the referee keeps failing.
    pub fn play(&mut self, output: &mut dyn RunOutput) -> anyhow::Result<RunSummary> {
        check_before_games(&self.config, self.journal.dir())?;
        let summary = play_on_runtime(&self.config, &self.journal, &mut self.feed, output)?;
        match self.feed.error.take() {
            Some(error) => Err(error),
            None => Ok(summary),
        }
    }
}

/// The need of `league`'s active versions (`config`'s bots) from every
/// game it has, and the next batch's round.
fn league_need(
    league: &League,
    config: &TournamentConfig,
    options: &PlayOptions,
) -> anyhow::Result<(Need, u64)> {
    let mut need = Need::new(config.bot_names(), config.variants(), options.confidence)?;
    let csv = league.dir().join(GAMES_CSV);
    let mut last_round = None;
    visit_numbered_games_csv(&csv, |line, row| {
        last_round = last_round.max(Some(row.round));
        need.add(&row)
            .with_context(|| format!("{}: line {line}", csv.display()))
    })?;
    Ok((need, last_round.map_or(0, |r| r + 1)))
}

/// The tournament config of `league`'s games: `league.toml`, the flags of
/// `options`, and the active versions of `registry` as bots (`NAME@N`).
fn league_config(
    league: &League,
    registry: &Registry,
    options: &PlayOptions,
) -> anyhow::Result<TournamentConfig> {
    let players: Vec<_> = registry.active().iter().map(|v| v.player()).collect();
    if players.len() < 2 {
        bail!(
            "{}: {} bot{} scheduled; a league plays with at least two (arena league add {} NAME -- COMMAND...)",
            league.dir().display(),
            players.len(),
            if players.len() == 1 { "" } else { "s" },
            league.dir().display()
        );
    }
    let settings = with_bots(
        &league.settings_path(),
        &options.given,
        &options.defaults,
        players,
    )?;
    let mut config = settings.config;
    config.out = league.dir().to_path_buf();
    Ok(config)
}

/// The runner's view of a league: the current batch's games, a new batch
/// decided when the one before it is finished.
pub struct LeagueFeed {
    need: Need,
    variants: Vec<&'static Variant>,
    openings: Openings,
    /// The decided games not started yet.
    queue: VecDeque<ScheduledGame>,
    /// Games started and not yet finished (a game the referee could not
    /// run stays counted: the run then ends after the others).
    in_flight: usize,
    next_pair: u64,
    /// The next batch's round (games.csv's `round`).
    round: u64,
    goal: Goal,
    pairs_left: u64,
    batches: u64,
    /// No batch follows.
    over: bool,
    played: u64,
    /// The first error deciding a batch (the run stops).
    error: Option<anyhow::Error>,
    /// Playing one shard of a plan: the shard, and its games already
    /// played (its pairs only, the first batch's pairs over and over).
    pub shard: Option<(Shard, GameSet)>,
}

impl LeagueFeed {
    /// The feed of `need`'s versions (the variants `need` counts), its
    /// first game id and batch round `next`, to play to `goal`.
    pub fn new(need: Need, openings: Openings, next: (u64, u64), goal: Goal) -> LeagueFeed {
        let (next_id, round) = next;
        LeagueFeed {
            variants: need.variants().to_vec(),
            need,
            openings,
            queue: VecDeque::new(),
            in_flight: 0,
            next_pair: next_id.div_ceil(2),
            round,
            goal,
            pairs_left: goal.pairs(),
            batches: 0,
            over: false,
            played: 0,
            error: None,
            shard: None,
        }
    }

    /// Decides the next batch and queues its games; its line, or `None`
    /// when the goal is met.
    pub fn decide(&mut self) -> anyhow::Result<Option<PairedRound>> {
        if self.over || self.pairs_left == 0 || self.goal == Goal::OneBatch && self.batches > 0 {
            self.over = true;
            return Ok(None);
        }
        let Batch { mut pairs, reason } = self.need.next()?;
        let certified = reason == Reason::Refining;
        if pairs.is_empty() || certified && matches!(self.goal, Goal::Certified { .. }) {
            self.over = true;
            return Ok(None);
        }
        if self.shard.is_some() {
            // A shard sees no other shard's results: one batch, the first
            // one's pairs over and over, decided alike by every shard.
            pairs = pairs
                .iter()
                .copied()
                .cycle()
                .take(self.pairs_left as usize)
                .collect();
            self.over = true;
        }
        pairs.truncate(usize::try_from(self.pairs_left).unwrap_or(usize::MAX));
        self.pairs_left -= pairs.len() as u64;
        let names = self.need.names();
        let mut boards = Vec::new();
        for &(first, second) in &pairs {
            let pair = self.next_pair;
            self.next_pair += 1;
            let variant = self.variants[(pair % self.variants.len() as u64) as usize];
            if let Some((shard, _)) = &self.shard {
                if !shard.contains_pair(pair) {
                    continue;
                }
            }
            let opening = self.openings.for_pair(variant, pair)?;
            let done =
                |g: &ScheduledGame| self.shard.as_ref().is_some_and(|(_, d)| d.contains(g.id));
            let games = game_pair(variant, pair, self.round, first, second, opening);
            self.queue.extend(games.into_iter().filter(|g| !done(g)));
            boards.push([names[first].clone(), names[second].clone()]);
        }
        self.batches += 1;
        let title = format!(
            "Batch {} ({} pair{}: {})",
            self.round,
            pairs.len(),
            if pairs.len() == 1 { "" } else { "s" },
            reason.words()
        );
        self.round += 1;
        Ok(Some(PairedRound {
            title,
            boards,
            byes: Vec::new(),
        }))
    }

    /// Games played in this run.
    pub fn played(&self) -> u64 {
        self.played
    }

    /// Games decided in this run, played or not.
    pub fn planned(&self) -> u64 {
        self.played + self.queue.len() as u64 + self.in_flight as u64
    }

    /// Whether the active versions' order is certified by the games so
    /// far (`None` before any game between them).
    pub fn certified(&self) -> anyhow::Result<Option<bool>> {
        Ok(self.need.assess()?.map(|a| a.certified))
    }
}

impl GameFeed for LeagueFeed {
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>> {
        let game = self.queue.pop_front();
        if game.is_some() {
            self.in_flight += 1;
        }
        Ok(game)
    }

    fn finished(&mut self, row: &GameRow, output: &mut dyn RunOutput) -> Flow {
        self.in_flight = self.in_flight.saturating_sub(1);
        self.played += 1;
        if let Err(error) = self.need.add(row) {
            self.error.get_or_insert(error);
            return Flow::Stop;
        }
        if !self.queue.is_empty() || self.in_flight > 0 {
            return Flow::Continue;
        }
        match self.decide() {
            Ok(Some(batch)) => output.round_paired(&batch),
            Ok(None) => {}
            Err(error) => {
                self.error.get_or_insert(error);
                return Flow::Stop;
            }
        }
        Flow::Continue
    }

    fn status(&self) -> RunStatus {
        RunStatus {
            brief: format!("batch {}", self.round.saturating_sub(1)),
            resumed: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::RunOutput;
    use arena_referee::row::row_with_result;
    use arena_rules::games::GameResult;

    struct Quiet;
    impl RunOutput for Quiet {}

    fn feed(goal: Goal, next: (u64, u64)) -> LeagueFeed {
        let variant = Variant::by_id("qango6").unwrap();
        let need = Need::new(vec!["a@1".into(), "b@2".into()], vec![variant], 0.95).unwrap();
        let openings = Openings::Random { plies: 2, seed: 1 };
        LeagueFeed::new(need, openings, next, goal)
    }

    /// Plays every game the feed gives, white always winning; the games.
    fn play(feed: &mut LeagueFeed) -> Vec<ScheduledGame> {
        let mut games = Vec::new();
        feed.decide().unwrap();
        while let Some(game) = feed.next_game().unwrap() {
            let names = ["a@1", "b@2"];
            let mut row = row_with_result(
                game.id,
                game.pair,
                names[game.white],
                names[game.black],
                GameResult::WhiteWins,
            );
            row.round = game.round;
            assert_eq!(feed.finished(&row, &mut Quiet), Flow::Continue);
            games.push(game);
        }
        games
    }

    #[test]
    fn games_go_on_after_the_largest_id_in_whole_pairs_batch_after_batch() {
        // Game 6 was the last recorded (its pair cut short by a kill).
        let mut f = feed(Goal::Games(5), (7, 3));
        let games = play(&mut f);
        let ids: Vec<u64> = games.iter().map(|g| g.id).collect();
        assert_eq!(ids, [8, 9, 10, 11, 12, 13]);
        // The seeding pair in batch 3, then two of the next batch's pairs.
        let rounds: Vec<u64> = games.iter().map(|g| g.round).collect();
        assert_eq!(rounds, [3, 3, 4, 4, 4, 4]);
        for pair in games.chunks(2) {
            assert_eq!(
                (pair[0].white, pair[0].black),
                (pair[1].black, pair[1].white)
            );
            assert_eq!(pair[0].opening, pair[1].opening);
        }
        assert_eq!(f.played(), 6);
    }

    #[test]
    fn by_default_one_batch_is_played() {
        let mut f = feed(Goal::OneBatch, (0, 0));
        assert_eq!(play(&mut f).len(), 2);
        assert!(f.decide().unwrap().is_none());
    }
}
