//! An SPRT match as a [`Format`] of the driver: game pairs between bot A
//! (bot 0) and bot B (bot 1), each pair from its own seeded opening with
//! colours swapped, until the pentanomial SPRT of [`arena_stats::sprt`]
//! accepts a hypothesis or the pair limit is reached. The test reads A's
//! pentanomial counts from the run's tally, so the match keeps no counts of
//! its own; its games are journaled, resumed and rated like any run's.

use std::collections::VecDeque;

use anyhow::bail;

use super::driver::{Format, RunState, Verdict};
use super::manifest::{Manifest, SprtPlan};
use super::progress::{RunKind, RunOutput, SprtProgress, Standing};
use super::runner::Flow;
use super::schedule::ScheduledGame;
use arena_referee::GameRow;
use arena_stats::{Sprt, SprtConfig, SprtDecision};

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

/// The pairs of an SPRT not played yet, in pair order; pair `p` is games
/// `2p` (A white) and `2p + 1`.
#[derive(Debug, Clone)]
pub struct SprtMatch {
    manifest: Manifest,
    plan: SprtPlan,
    sprt: Sprt,
    /// A's name, then B's.
    bots: [String; 2],
    next_pair: u64,
    queue: VecDeque<ScheduledGame>,
}

/// What an SPRT concludes: the test's state with what it tested.
#[derive(Debug, Clone, PartialEq)]
pub struct SprtVerdict {
    /// Bot A's name, then bot B's.
    pub bots: [String; 2],
    pub plan: SprtPlan,
    pub progress: SprtProgress,
}

impl SprtMatch {
    /// The match `manifest` plans by `plan`; fails on bounds out of range,
    /// and unless the config has exactly two bots and one variant.
    pub fn new(manifest: &Manifest, plan: SprtPlan) -> anyhow::Result<SprtMatch> {
        let sprt = plan.sprt()?;
        let config = &manifest.config;
        let [a, b] = config.bots.as_slice() else {
            bail!(
                "an SPRT is between exactly two bots, got {}",
                config.bots.len()
            );
        };
        if config.variants.len() > 1 {
            bail!(
                "an SPRT plays one variant, got {} ({}); run one test per variant",
                config.variants.len(),
                config.variants.join(", ")
            );
        }
        Ok(SprtMatch {
            bots: [a.name.clone(), b.name.clone()],
            manifest: manifest.clone(),
            plan,
            sprt,
            next_pair: 0,
            queue: VecDeque::new(),
        })
    }

    /// The test's status after the completed pairs of `run`, with A's
    /// pentanomial counts (from the run's tally).
    pub fn progress(&self, run: &RunState) -> SprtProgress {
        let counts = run.tally.pentanomial(&self.bots[0], &self.bots[1]);
        SprtProgress {
            status: self.sprt.status(&counts),
            counts,
        }
    }

    fn decided(&self, run: &RunState) -> bool {
        self.progress(run).status.decision != SprtDecision::Continue
    }
}

impl Format for SprtMatch {
    fn kind(&self) -> RunKind<'_> {
        RunKind::Sprt {
            plan: &self.plan,
            lower: self.sprt.lower_bound(),
            upper: self.sprt.upper_bound(),
        }
    }

    fn total(&self) -> Option<u64> {
        self.plan.max_pairs.map(|m| 2 * m)
    }

    fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>> {
        if self.decided(run) {
            return Ok(None);
        }
        loop {
            if let Some(game) = self.queue.pop_front() {
                return Ok(Some(game));
            }
            if self.plan.max_pairs.is_some_and(|max| self.next_pair >= max) {
                return Ok(None);
            }
            for id in [2 * self.next_pair, 2 * self.next_pair + 1] {
                if !run.done.contains(id) {
                    if let Some(game) = self.manifest.scheduled_game(id)? {
                        self.queue.push_back(game);
                    }
                }
            }
            self.next_pair += 1;
        }
    }

    fn finished(&mut self, row: &GameRow, run: &RunState, output: &mut dyn RunOutput) -> Flow {
        // The other game of the pair is done: this one completed the pair.
        if !run.done.contains(row.id ^ 1) {
            return Flow::Continue;
        }
        let progress = self.progress(run);
        output.sprt_pair(row.pair, &progress);
        if progress.status.decision == SprtDecision::Continue {
            Flow::Continue
        } else {
            Flow::Stop
        }
    }

    fn standing(&self, run: &RunState) -> Standing {
        Standing::Sprt(self.progress(run))
    }

    fn verdict(&self, run: &RunState) -> Verdict {
        Verdict::Sprt(Box::new(SprtVerdict {
            bots: self.bots.clone(),
            plan: self.plan,
            progress: self.progress(run),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::Plan;
    use crate::settings::defs::OPENING_PLIES;
    use crate::settings::Given;
    use crate::testing::{row_of, run_of};
    use arena_rules::games::GameResult;

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
            .with(&OPENING_PLIES, "2");
        let config = run_of(&given).config;
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
        let result = if a_wins == (game.white == 0) {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        };
        row_of(game, &["a".into(), "b".into()], result)
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

    /// The games `format` starts, one after another, with `run` as it is.
    fn all_games(format: &mut SprtMatch, run: &RunState) -> Vec<ScheduledGame> {
        std::iter::from_fn(|| format.next_game(run).unwrap()).collect()
    }

    #[test]
    fn pairs_share_openings_and_swap_colours_up_to_the_limit() {
        let (m, plan) = manifest(Some(3));
        let mut format = SprtMatch::new(&m, plan).unwrap();
        let games = all_games(&mut format, &RunState::new());
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
        let mut format = SprtMatch::new(&m, plan).unwrap();
        let mut run = RunState::new();
        let mut stopped_after = None;
        // With elo1 = 10 a lopsided pair adds about 0.03 to the LLR.
        for _ in 0..1000 {
            let game = format.next_game(&run).unwrap().unwrap();
            let mut pairs = Pairs::default();
            let row = row(&game, true);
            assert!(run.add(&row).unwrap());
            let flow = format.finished(&row, &run, &mut pairs);
            // Every second game completes a pair, which is reported.
            if game.id % 2 == 1 {
                assert_eq!(pairs.0.len(), 1);
                assert_eq!(pairs.0[0].0, game.pair);
                assert_eq!(pairs.0[0].1, format.progress(&run));
            } else {
                assert!(pairs.0.is_empty());
            }
            if flow == Flow::Stop {
                stopped_after = Some(game.pair + 1);
                break;
            }
        }
        let pairs = stopped_after.expect("the test decides");
        let progress = format.progress(&run);
        assert_eq!(progress.status.decision, SprtDecision::AcceptH1);
        // The counts are the tally's: every pair A won twice.
        assert_eq!(progress.counts.ww, pairs);
        assert_eq!(progress.counts, run.tally.pentanomial("a", "b"));
        assert!(format.next_game(&run).unwrap().is_none());
    }

    #[test]
    fn resuming_skips_finished_games_and_keeps_their_results() {
        let (m, plan) = manifest(Some(4));
        let games = all_games(&mut SprtMatch::new(&m, plan).unwrap(), &RunState::new());
        // Games 0, 1 (a full pair) and 3 are done, 3 (B white) first, as
        // after a resume of a run whose games finished out of order.
        let mut run = RunState::new();
        for row in [
            row(&games[3], true),
            row(&games[0], true),
            row(&games[1], false),
        ] {
            run.add(&row).unwrap();
        }
        let mut resumed = SprtMatch::new(&m, plan).unwrap();
        assert_eq!(resumed.progress(&run).counts.wl, 1);
        assert_eq!(resumed.progress(&run).counts.pairs(), 1);
        let left: Vec<u64> = all_games(&mut resumed, &run).iter().map(|g| g.id).collect();
        assert_eq!(left, [2, 4, 5, 6, 7]);
        // Finishing game 2 completes pair 1 with the stored result of game 3.
        let mut pairs = Pairs::default();
        let row = row(&games[2], true);
        run.add(&row).unwrap();
        resumed.finished(&row, &run, &mut pairs);
        assert_eq!(pairs.0.len(), 1);
        assert_eq!(pairs.0[0].0, 1);
        assert_eq!(resumed.progress(&run).counts.ww, 1);
        assert_eq!(resumed.progress(&run).counts.pairs(), 2);
    }

    #[test]
    fn only_two_bots_of_one_variant_make_an_sprt() {
        let (mut m, plan) = manifest(None);
        m.config.bots.push(m.config.bots[0].clone());
        m.config.bots[2].name = "c".into();
        let err = SprtMatch::new(&m, plan).unwrap_err().to_string();
        assert!(err.contains("exactly two bots, got 3"), "{err}");
        let (mut m, plan) = manifest(None);
        m.config.variants = vec!["qango6".into(), "quinque".into()];
        let err = SprtMatch::new(&m, plan).unwrap_err().to_string();
        assert!(err.contains("one variant"), "{err}");
    }
}
