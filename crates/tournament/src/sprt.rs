//! An SPRT match (`format = "sprt"`, `arena sprt`) as a [`Format`]: game
//! pairs between bot A (bot 0) and bot B (bot 1), each pair from its own
//! seeded opening with colours swapped, until the pentanomial SPRT of
//! [`arena_stats::sprt`] accepts a hypothesis or the pair limit is reached.
//! The test reads A's pentanomial counts from the run's tally, so the match
//! keeps no counts of its own; its games are journaled, resumed and rated
//! like any run's. Its exit status says the decision ([`EXIT_H1`],
//! [`EXIT_H0`], [`EXIT_UNDECIDED`]).

use std::any::Any;
use std::collections::VecDeque;
use std::path::Path;

use anyhow::{anyhow, bail};
use serde::{Deserialize, Serialize};

use super::config::TournamentConfig;
use super::format::{Format, FormatRow, RunState, Verdict};
use super::manifest::{FormatPlan, Manifest, Plan};
use super::progress::{RunOutcome, RunOutput, RunStatus, SprtProgress};
use super::runner::{Flow, RunEnd};
use super::schedule::{game_pair, ScheduledGame};
use super::settings::defs::{self, Command};
use super::settings::resolve::Resolved;
use super::text::{describe_suspension, run_settings, Said};
use arena_referee::GameRow;
use arena_stats::{EloModel, Pentanomial, Sprt, SprtConfig, SprtDecision, SprtStatus};

/// The SPRT's line in the registry.
pub const FORMAT: FormatRow = FormatRow {
    kind: SprtPlan::KIND,
    plan: plan_of,
    open: |manifest| Ok(Box::new(SprtMatch::new(manifest, manifest.plan.read()?)?)),
};

/// Exit status when H1 is accepted (A is stronger by at least `elo1`).
pub const EXIT_H1: i32 = 0;
/// Exit status when H0 is accepted.
pub const EXIT_H0: i32 = 1;
/// Exit status when the pair limit came first.
pub const EXIT_UNDECIDED: i32 = 3;

/// An SPRT's plan: its hypotheses, error rates, pair limit and Elo scale.
/// Pair `p` has games `2p` and `2p + 1` and its opening from the config's
/// seed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtPlan {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Stop undecided after this many pairs (`None`: no limit).
    pub max_pairs: Option<u64>,
    /// The Elo scale of `elo0` and `elo1`. Runs recorded before the choice
    /// existed used logistic Elo, so a missing field means that.
    #[serde(default = "logistic")]
    pub model: EloModel,
}

fn logistic() -> EloModel {
    EloModel::Logistic
}

impl FormatPlan for SprtPlan {
    const KIND: &'static str = "sprt";
}

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

/// The SPRT's plan when the settings make one (`format = "sprt"` in the
/// file, or `arena sprt`); `--format` can neither make nor unmake one.
fn plan_of(r: &Resolved, config: &TournamentConfig) -> anyhow::Result<Option<Plan>> {
    let plan = sprt_plan(r, config)?;
    let v = &r.values;
    if r.command == Command::Tournament && (v.format.value == "sprt") != r.sprt {
        return Err(r.at(
            &v.format,
            "an SPRT is `format = \"sprt\"` in the tournament file (with elo0 and elo1), or `arena sprt BOT_A BOT_B --elo0 E0 --elo1 E1`; --format cannot make or unmake one",
        ));
    }
    Ok(plan.map(|plan| Plan::of(&plan)))
}

/// The SPRT's plan when the run is one: two bots, `elo0` and `elo1` given
/// and acceptable to the test; a run that is not an SPRT takes none of its
/// settings.
fn sprt_plan(r: &Resolved, config: &TournamentConfig) -> anyhow::Result<Option<SprtPlan>> {
    use defs::{ALPHA, BETA, ELO0, ELO1, MAX_PAIRS, MODEL};
    let v = &r.values;
    if !r.sprt {
        if let Some(setting) = r.first_given(&[&ELO0, &ELO1, &MODEL, &ALPHA, &BETA, &MAX_PAIRS]) {
            return Err(r.at_setting(setting, "is a setting of an SPRT (format = \"sprt\")"));
        }
        return Ok(None);
    }
    if v.games_per_pairing.given() {
        return Err(r.at(
            &v.games_per_pairing,
            "an SPRT plays game pairs until it decides; give `max_pairs` to limit it",
        ));
    }
    if config.bots.len() != 2 {
        return Err(anyhow!(
            "{}: an SPRT is between exactly two bots, got {}",
            r.src.path.display(),
            config.bots.len()
        ));
    }
    let (Some(elo0), Some(elo1)) = (v.elo0.value, v.elo1.value) else {
        let missing = if v.elo0.value.is_none() {
            &v.elo0
        } else {
            &v.elo1
        };
        return Err(r.at(missing, "an SPRT needs its bounds: give elo0 and elo1"));
    };
    let plan = SprtPlan {
        elo0,
        elo1,
        alpha: v.alpha.value,
        beta: v.beta.value,
        max_pairs: v.max_pairs.value,
        model: match v.model.value {
            "logistic" => EloModel::Logistic,
            _ => EloModel::Normalized,
        },
    };
    plan.sprt().map_err(|e| r.at(&v.elo1, format!("{e:#}")))?;
    Ok(Some(plan))
}

/// The pairs of an SPRT not played yet, in pair order; pair `p` is games
/// `2p` (A white) and `2p + 1`.
#[derive(Debug, Clone)]
pub struct SprtMatch {
    config: TournamentConfig,
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
            config: config.clone(),
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

    /// Game `id`: pair `id / 2`, bot 0 white in the pair's first game, the
    /// pair's seeded opening; `None` beyond the pair limit.
    pub fn game(&self, id: u64) -> anyhow::Result<Option<ScheduledGame>> {
        let pair = id / 2;
        if self.plan.max_pairs.is_some_and(|max| pair >= max) {
            return Ok(None);
        }
        let config = &self.config;
        let opening = config.pair_openings().for_pair(config.variant(), pair)?;
        let [first, second] = game_pair(config.variant(), pair, pair, 0, 1, opening);
        Ok(Some(if id.is_multiple_of(2) { first } else { second }))
    }
}

impl Format for SprtMatch {
    fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String> {
        let plan = &self.plan;
        let unit = plan.model.unit();
        let [a, b] = &self.bots;
        vec![
            format!(
                "SPRT {a} vs {b}: H0 {unit} <= {} against H1 {unit} >= {} ({} model), alpha {}, beta {}; {}, {}{}{}",
                plan.elo0,
                plan.elo1,
                plan.model,
                plan.alpha,
                plan.beta,
                config.variant,
                run_settings(config, false),
                plan.max_pairs.map_or(String::new(), |m| format!(", at most {m} pairs")),
                describe_suspension(config),
            ),
            format!(
                "LLR bounds [{:+.2}, {:+.2}]. Output: {}",
                self.sprt.lower_bound(),
                self.sprt.upper_bound(),
                dir.display()
            ),
            scale_note(plan.model).to_string(),
        ]
    }

    fn total(&self) -> Option<u64> {
        self.plan.max_pairs.map(|m| 2 * m)
    }

    fn check_recorded(&self, row: &GameRow, config: &TournamentConfig) -> anyhow::Result<()> {
        let Some(game) = self.game(row.id)? else {
            bail!("game g{} is not part of this run's plan", row.id);
        };
        game.check_row(row, &config.bot_names())
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
                    if let Some(game) = self.game(id)? {
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

    fn status(&self, run: &RunState) -> RunStatus {
        let progress = self.progress(run);
        let s = &progress.status;
        RunStatus {
            brief: format!(
                "{} pairs  LLR {:+.2} [{:+.2}, {:+.2}] {}  {}",
                s.pairs,
                s.llr,
                s.lower,
                s.upper,
                s.model,
                estimate_text(s)
            ),
            resumed: Some(progress.text()),
        }
    }

    fn verdict(&self, run: &RunState) -> Box<dyn Verdict> {
        Box::new(SprtVerdict {
            bots: self.bots.clone(),
            plan: self.plan,
            progress: self.progress(run),
        })
    }

    fn describe(&self, _config: &TournamentConfig, _dir: &Path) -> String {
        let p = &self.plan;
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={} ({})",
            p.elo0,
            p.elo1,
            p.alpha,
            p.beta,
            p.model.name()
        )
    }

    fn games_per_pairing(&self, _config: &TournamentConfig) -> String {
        "game pairs until the test decides".to_string()
    }
}

impl Verdict for SprtVerdict {
    fn summary(&self, run: &RunOutcome) -> Vec<Said> {
        let [a, b] = &self.bots;
        let status = &self.progress.status;
        let plan = &self.plan;
        let (elo0, elo1, model, unit) = (plan.elo0, plan.elo1, plan.model, plan.model.unit());
        let estimate = estimate_text(status);
        let dir = run.dir.display();
        let mut lines = vec![String::new()];
        match status.decision {
            SprtDecision::AcceptH1 => lines.push(format!(
                "H1 accepted ({model} model, bounds [{elo0}, {elo1}] {unit}): {a} is stronger than {b} by at least {elo1} {unit} (LLR {:+.2} >= {:+.2}, {} pairs; {estimate}).",
                status.llr, status.upper, status.pairs
            )),
            SprtDecision::AcceptH0 => lines.push(format!(
                "H0 accepted ({model} model, bounds [{elo0}, {elo1}] {unit}): {a} is not stronger than {b} by {elo1} {unit} or more (LLR {:+.2} <= {:+.2}, {} pairs; {estimate}).",
                status.llr, status.lower, status.pairs
            )),
            SprtDecision::Continue => match &run.end {
                RunEnd::Interrupted => lines.push(format!(
                    "Interrupted undecided: {}. Continue with: arena sprt --resume {dir}",
                    self.progress.text()
                )),
                RunEnd::RefereeFailing(stop) => lines.push(format!(
                    "Stopped undecided: {}; then continue with: arena sprt --resume {dir}",
                    stop.line()
                )),
                RunEnd::BotsDisabled(all) => lines.push(format!(
                    "Stopped undecided: {}; fix them, then continue with: arena sprt --resume {dir}",
                    all.line()
                )),
                _ => {
                    lines.push(format!(
                        "Undecided after {} pairs: {}.",
                        status.pairs,
                        self.progress.text()
                    ));
                    if !run.failed.is_empty() {
                        lines.push(format!(
                            "{} games could not be run (see above); play them with: arena sprt --resume {dir}",
                            run.failed.len()
                        ));
                    }
                }
            },
        }
        lines.into_iter().map(Said::Line).collect()
    }

    /// [`EXIT_H1`], [`EXIT_H0`], [`EXIT_UNDECIDED`]; interrupted or stopped
    /// undecided, the run's own.
    fn exit_status(&self, run: &RunOutcome) -> Option<i32> {
        match self.progress.status.decision {
            SprtDecision::AcceptH1 => Some(EXIT_H1),
            SprtDecision::AcceptH0 => Some(EXIT_H0),
            SprtDecision::Continue
                if run.end == RunEnd::Interrupted
                    || matches!(run.end, RunEnd::RefereeFailing(_) | RunEnd::BotsDisabled(_)) =>
            {
                None
            }
            SprtDecision::Continue => Some(EXIT_UNDECIDED),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl SprtProgress {
    /// A completed pair's line: `pair    3: LLR +0.42  bounds [-2.94,
    /// +2.94] normalized  nElo ...  pentanomial [0, 0, 1, 0, 2]`, numbered
    /// 1, 2, ... in the order pairs complete (resumed ones included), not
    /// by schedule position: pairs finish out of order.
    pub fn pair_line(&self) -> String {
        let status = &self.status;
        format!(
            "pair {:>4}: LLR {:+.2}  bounds [{:+.2}, {:+.2}] {}  {}  pentanomial {}",
            status.pairs,
            status.llr,
            status.lower,
            status.upper,
            status.model,
            estimate_text(status),
            pentanomial_text(&self.counts)
        )
    }

    /// `LLR x within [lo, hi] (model), estimate, pentanomial [...]`.
    pub fn text(&self) -> String {
        let s = &self.status;
        format!(
            "LLR {:+.2} within [{:+.2}, {:+.2}] ({} model), {}, pentanomial {}",
            s.llr,
            s.lower,
            s.upper,
            s.model,
            estimate_text(s),
            pentanomial_text(&self.counts)
        )
    }
}

/// What the test's Elo figures are, next to the standings' Elo, which is
/// another scale (logistic Elo from the joint fit of every game).
fn scale_note(model: EloModel) -> &'static str {
    match model {
        EloModel::Normalized => {
            "nElo: normalized Elo of the game pairs (their mean score over its spread, as fastchess and fishtest test), another scale than the standings' logistic Elo (the joint fit of every game): the two are not comparable number for number."
        }
        EloModel::Logistic => {
            "Elo here: the game pairs' own logistic estimate; the standings' Elo is the joint fit of every game, with its prior."
        }
    }
}

/// `nElo +1.2 [-3.4, +5.6]  LOS 71.2%` on the test's scale (empty before the
/// first pair).
fn estimate_text(status: &SprtStatus) -> String {
    status.estimate.map_or(String::new(), |e| {
        format!(
            "{} {:+.1} [{:+.1}, {:+.1}]  LOS {:.1}%",
            status.model.unit(),
            e.elo,
            e.low,
            e.high,
            100.0 * e.los
        )
    })
}

/// `LL-LD-DD+WL-WD-WW` counts.
fn pentanomial_text(p: &Pentanomial) -> String {
    let [ll, ld, even, wd, ww] = p.by_score();
    format!("[{ll}, {ld}, {even}, {wd}, {ww}]")
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
        (Manifest::new(config, Plan::of(&plan)), plan)
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
