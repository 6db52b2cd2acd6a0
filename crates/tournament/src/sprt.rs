//! An SPRT match: game pairs between bot A (bot 0) and bot B (bot 1), each
//! pair from its own seeded opening with colours swapped, until the
//! pentanomial SPRT of [`arena_stats::sprt`] accepts a hypothesis or the
//! pair limit is reached. Games are journaled like a tournament's, so the
//! match can be resumed and rated the same way.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use anyhow::{bail, Context};

use super::config::TournamentConfig;
use super::game_set::GameSet;
use super::manifest::{Manifest, Plan, SprtPlan};
use super::progress::{
    Resumed, RunKind, RunOutcome, RunOutput, RunStarted, SprtProgress, Standing,
};
use super::runner::{Flow, GameFeed};
use super::schedule::ScheduledGame;
use super::session::Session;
use super::settings::Given;
use arena_referee::GameRow;
use arena_stats::{Pentanomial, Score, SequentialSprt, Sprt, SprtConfig, SprtDecision, SprtStatus};

impl SprtPlan {
    pub fn sprt(&self) -> anyhow::Result<Sprt> {
        Ok(Sprt::new(SprtConfig {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model: self.model,
        })?)
    }
}

/// How to begin.
#[derive(Debug)]
pub enum Start {
    /// `config.bots` holds A then B. (Boxed: a config is large, a resume small.)
    New(Box<TournamentConfig>, SprtPlan),
    /// Continue the run in `dir`, with the settings that may change on
    /// resume as given again.
    Resume { dir: PathBuf, given: Given },
}

/// Bot A's results gathered into game pairs: the pentanomial SPRT counts
/// pairs, and the two games of a pair may finish in any order.
#[derive(Debug)]
pub struct GamePairs {
    bot_a: String,
    /// A's score in each finished game of a pair not yet complete.
    halves: BTreeMap<u64, [Option<Score>; 2]>,
}

impl GamePairs {
    pub fn new(bot_a: &str) -> GamePairs {
        GamePairs {
            bot_a: bot_a.to_string(),
            halves: BTreeMap::new(),
        }
    }

    /// Adds a finished game; returns A's scores in the pair's first and
    /// second game when it completed the pair.
    pub fn add(&mut self, row: &GameRow) -> Option<(Score, Score)> {
        let white_score = row.result.white_score();
        let a_score = if row.white == self.bot_a {
            white_score
        } else {
            1.0 - white_score
        };
        let score = if a_score > 0.75 {
            Score::Win
        } else if a_score < 0.25 {
            Score::Loss
        } else {
            Score::Draw
        };
        let halves = self.halves.entry(row.pair).or_default();
        halves[(row.id % 2) as usize] = Some(score);
        if let [Some(first), Some(second)] = *halves {
            self.halves.remove(&row.pair);
            return Some((first, second));
        }
        None
    }
}

pub struct SprtFeed {
    manifest: Manifest,
    max_pairs: Option<u64>,
    next_pair: u64,
    queue: VecDeque<ScheduledGame>,
    done: GameSet,
    pairs: GamePairs,
    test: SequentialSprt,
}

impl SprtFeed {
    /// A feed continuing after `finished` games.
    pub fn new(
        manifest: &Manifest,
        plan: &SprtPlan,
        finished: &[GameRow],
    ) -> anyhow::Result<SprtFeed> {
        let mut feed = SprtFeed {
            manifest: manifest.clone(),
            max_pairs: plan.max_pairs,
            next_pair: 0,
            queue: VecDeque::new(),
            done: GameSet::new(),
            pairs: GamePairs::new(&manifest.config.bots[0].name),
            test: SequentialSprt::new(plan.sprt()?),
        };
        for row in finished {
            feed.absorb(row);
        }
        Ok(feed)
    }

    pub fn status(&self) -> SprtStatus {
        self.test.status()
    }

    pub fn counts(&self) -> Pentanomial {
        self.test.counts()
    }

    /// The test's status with the pair counts.
    pub fn progress(&self) -> SprtProgress {
        SprtProgress {
            status: self.status(),
            counts: self.counts(),
        }
    }

    fn decided(&self) -> bool {
        self.status().decision != SprtDecision::Continue
    }

    /// Counts a game finished before this run: it is not played again.
    pub fn add_finished(&mut self, row: &GameRow) {
        self.absorb(row);
    }

    /// Adds a finished game; returns the new status when it completed a pair.
    fn absorb(&mut self, row: &GameRow) -> Option<SprtStatus> {
        if !self.done.insert(row.id) {
            return None;
        }
        let (first, second) = self.pairs.add(row)?;
        Some(self.test.record_pair(first, second))
    }
}

impl GameFeed for SprtFeed {
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>> {
        if self.decided() {
            return Ok(None);
        }
        loop {
            if let Some(game) = self.queue.pop_front() {
                return Ok(Some(game));
            }
            if self.max_pairs.is_some_and(|max| self.next_pair >= max) {
                return Ok(None);
            }
            for id in [2 * self.next_pair, 2 * self.next_pair + 1] {
                if !self.done.contains(id) {
                    if let Some(game) = self.manifest.scheduled_game(id)? {
                        self.queue.push_back(game);
                    }
                }
            }
            self.next_pair += 1;
        }
    }

    fn finished(&mut self, row: &GameRow, output: &mut dyn RunOutput) -> Flow {
        let Some(status) = self.absorb(row) else {
            return Flow::Continue;
        };
        output.sprt_pair(row.pair, &self.progress());
        if status.decision == SprtDecision::Continue {
            Flow::Continue
        } else {
            Flow::Stop
        }
    }

    fn status(&self) -> Standing {
        Standing::Sprt(self.progress())
    }
}

/// How an SPRT ended: the run, and the test's state with what it tested.
#[derive(Debug, Clone, PartialEq)]
pub struct SprtOutcome {
    pub run: RunOutcome,
    /// Bot A's name, then bot B's.
    pub bots: [String; 2],
    pub plan: SprtPlan,
    pub progress: SprtProgress,
}

/// Runs (or resumes) an SPRT, reporting to `output`, and returns how it
/// ended: accepted H1 or H0, undecided at the pair limit, or interrupted.
pub fn run(start: Start, output: &mut dyn RunOutput) -> anyhow::Result<SprtOutcome> {
    let resuming = matches!(start, Start::Resume { .. });
    let mut session = match start {
        Start::New(config, plan) => {
            plan.sprt()?;
            if config.bots.len() != 2 {
                bail!(
                    "an SPRT is between exactly two bots, got {}",
                    config.bots.len()
                );
            }
            if config.variants.len() > 1 {
                bail!(
                    "an SPRT plays one variant, got {} ({}); run one test per variant",
                    config.variants.len(),
                    config.variants.join(", ")
                );
            }
            Session::create(Manifest::new(*config, Plan::Sprt(plan)))?
        }
        Start::Resume { dir, given } => {
            let mut session = Session::resume(&dir)?;
            session.manifest.config.resume_with(&given)?;
            session
        }
    };
    let Plan::Sprt(plan) = session.manifest.plan.clone() else {
        bail!(
            "{} holds a round-robin tournament, not an SPRT; resume it with arena tournament --resume",
            session.dir.display()
        );
    };
    // Checked again on resume: tournament.json may come from an older arena
    // or an editor, and bounds out of range must be an error, not a panic.
    let sprt = plan
        .sprt()
        .with_context(|| Manifest::path(&session.dir).display().to_string())?;
    output.started(&RunStarted {
        config: &session.manifest.config,
        dir: &session.dir,
        kind: RunKind::Sprt {
            plan: &plan,
            lower: sprt.lower_bound(),
            upper: sprt.upper_bound(),
        },
    });

    let mut feed = SprtFeed::new(&session.manifest, &plan, &[])?;
    session.visit_finished(|row| {
        feed.add_finished(&row);
        Ok(())
    })?;
    if resuming {
        output.resumed(&Resumed {
            repairs: &session.repairs,
            finished: session.finished,
            total: None,
            standing: &GameFeed::status(&feed),
        });
    }
    let total = plan.max_pairs.map(|m| 2 * m);
    output.playing(session.finished, total, &GameFeed::status(&feed));
    let summary = session.play(&mut feed, output);
    output.stopped_playing();
    let summary = summary?;

    let config = &session.manifest.config;
    Ok(SprtOutcome {
        bots: [config.bots[0].name.clone(), config.bots[1].name.clone()],
        plan,
        progress: feed.progress(),
        run: RunOutcome {
            dir: session.dir.clone(),
            end: summary.end,
            finished: session.finished + summary.played,
            total,
            failed: summary.failed,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{from_given, Defaults};
    use crate::settings::Command;
    use arena_rules::games::{GameResult, RuleReason};

    /// Records the completed pairs the feed reports.
    #[derive(Default)]
    struct Pairs(Vec<(u64, SprtProgress)>);

    impl RunOutput for Pairs {
        fn sprt_pair(&mut self, pair: u64, progress: &SprtProgress) {
            self.0.push((pair, *progress));
        }
    }

    fn manifest(max_pairs: Option<u64>) -> (Manifest, SprtPlan) {
        let given = Given::new()
            .with_bot("a=x")
            .with_bot("b=y")
            .with("opening_plies", "2");
        let defaults = Defaults {
            concurrency: 1,
            seed: 3,
            out: "o".into(),
            current_dir: "/".into(),
        };
        let config = from_given(Command::Tournament, &given, &defaults, Vec::new())
            .unwrap()
            .config;
        let plan = SprtPlan {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            max_pairs,
            model: arena_stats::EloModel::Normalized,
        };
        (Manifest::new(config, Plan::Sprt(plan)), plan)
    }

    fn row(game: &ScheduledGame, a_wins: bool) -> GameRow {
        let a_white = game.white == 0;
        GameRow {
            id: game.id,
            round: game.round,
            pair: game.pair,
            variant: "qango6".into(),
            white: if a_white { "a" } else { "b" }.into(),
            black: if a_white { "b" } else { "a" }.into(),
            opening: game.opening.join(" "),
            result: if a_wins == a_white {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            },
            reason: RuleReason::Group.into(),
            plies: 9,
            white_time_ms: 0,
            black_time_ms: 0,
            ended_utc: String::new(),
            white_tc: String::new(),
            black_tc: String::new(),
        }
    }

    /// An SPRT recorded before `--model` existed ran on logistic Elo and
    /// must resume as such; new plans record their model.
    #[test]
    fn plans_without_a_model_resume_as_logistic() {
        let old = r#"{"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05, "max_pairs": null}"#;
        let plan: SprtPlan = serde_json::from_str(old).unwrap();
        assert_eq!(plan.model, arena_stats::EloModel::Logistic);
        let (_, plan) = manifest(None);
        let text = serde_json::to_string(&plan).unwrap();
        assert!(text.contains(r#""model":"normalized""#), "{text}");
    }

    #[test]
    fn pairs_share_openings_and_swap_colours_up_to_the_limit() {
        let (m, plan) = manifest(Some(3));
        let mut feed = SprtFeed::new(&m, &plan, &[]).unwrap();
        let mut games = Vec::new();
        while let Some(g) = feed.next_game().unwrap() {
            games.push(g);
        }
        assert_eq!(games.len(), 6);
        for (i, pair) in games.chunks(2).enumerate() {
            assert_eq!(pair[0].id, 2 * i as u64);
            assert_eq!((pair[0].white, pair[0].black), (0, 1));
            assert_eq!((pair[1].white, pair[1].black), (1, 0));
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].opening.len(), 2);
        }
        assert_ne!(games[0].opening, games[2].opening);
    }

    #[test]
    fn a_winning_every_game_accepts_h1_and_stops() {
        let (m, plan) = manifest(None);
        let mut feed = SprtFeed::new(&m, &plan, &[]).unwrap();
        let mut stopped_after = None;
        // With elo1 = 10 a lopsided pair adds about 0.03 to the LLR.
        for _ in 0..1000 {
            let game = feed.next_game().unwrap().unwrap();
            let mut pairs = Pairs::default();
            let flow = feed.finished(&row(&game, true), &mut pairs);
            // Every second game completes a pair, which is reported.
            if game.id % 2 == 1 {
                assert_eq!(pairs.0.len(), 1);
                assert_eq!(pairs.0[0].0, game.pair);
                assert_eq!(pairs.0[0].1, feed.progress());
            } else {
                assert!(pairs.0.is_empty());
            }
            if flow == Flow::Stop {
                stopped_after = Some(game.pair + 1);
                break;
            }
        }
        let pairs = stopped_after.expect("the test decides");
        assert_eq!(feed.status().decision, SprtDecision::AcceptH1);
        assert_eq!(feed.counts().ww, pairs);
        assert!(feed.next_game().unwrap().is_none());
    }

    #[test]
    fn resuming_skips_finished_games_and_keeps_their_results() {
        let (m, plan) = manifest(Some(4));
        let mut feed = SprtFeed::new(&m, &plan, &[]).unwrap();
        let games: Vec<_> = std::iter::from_fn(|| feed.next_game().unwrap()).collect();
        // Games 0, 1 (a full pair) and 3 are done.
        let finished = [
            row(&games[0], true),
            row(&games[1], false),
            row(&games[3], true),
        ];
        let mut resumed = SprtFeed::new(&m, &plan, &finished).unwrap();
        assert_eq!(resumed.counts().wl, 1);
        let left: Vec<u64> = std::iter::from_fn(|| resumed.next_game().unwrap())
            .map(|g| g.id)
            .collect();
        assert_eq!(left, [2, 4, 5, 6, 7]);
        // Finishing game 2 completes pair 1 with the stored result of game 3.
        let mut pairs = Pairs::default();
        resumed.finished(&row(&games[2], true), &mut pairs);
        assert_eq!(pairs.0.len(), 1);
        assert_eq!(pairs.0[0].0, 1);
        assert_eq!(resumed.counts().ww, 1);
    }
}
