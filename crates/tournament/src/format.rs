//! What a format is: the [`Format`] trait every format implements (the
//! round robin, the SPRT, the Swiss, the knockout, the adaptive ranking, and
//! the formats to come), what the driver knows of a run ([`RunState`]), and
//! what a format concludes ([`Verdict`]). A format owns its plan (in
//! `tournament.json`), its games, when to stop, its words on the terminal
//! and its section of report.html; the driver ([`crate::driver`]) owns
//! everything else, and the registry ([`crate::registry`]) is the one place
//! that lists the formats.

use std::any::Any;
use std::fmt::Debug;
use std::path::{Path, PathBuf};

use super::config::TournamentConfig;
use super::game_set::GameSet;
use super::manifest::{Manifest, Plan};
use super::paired::Staged;
use super::progress::{RunOutcome, RunOutput, RunStatus};
use super::runner::{Flow, RunEnd};
use super::schedule::ScheduledGame;
use super::settings::resolve::Resolved;
use super::tally::AddRow;
use super::text::{FormatTables, Said};
use arena_referee::GameRow;
use arena_stats::{InvalidGame, Tally};

/// What the driver knows of a run: the tally of its finished games and
/// which games are done (before and during this run).
#[derive(Debug, Default, Clone)]
pub struct RunState {
    pub tally: Tally,
    pub done: GameSet,
}

impl RunState {
    pub fn new() -> RunState {
        RunState::default()
    }

    /// Counts a finished game, once: `Ok(false)` when it was counted
    /// before. A game the tally refuses is still done (it is recorded and
    /// is not played again).
    pub fn add(&mut self, row: &GameRow) -> Result<bool, InvalidGame> {
        if !self.done.insert(row.id) {
            return Ok(false);
        }
        self.tally.add_row(row)?;
        Ok(true)
    }

    /// Games finished in all.
    pub fn finished(&self) -> u64 {
        self.done.len()
    }
}

/// A kind of run: its games, when to stop, and what it says. Everything
/// else (the journal, resuming, the tally, the progress events) is the
/// driver's.
pub trait Format {
    /// The lines that open the run (its settings, where it writes): the
    /// format's own words, then what every run says ([`crate::text::run_settings`]).
    fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String>;
    /// Games the run plans in all (`None`: open-ended).
    fn total(&self) -> Option<u64>;
    /// Checks a game recorded before a resume against the plan (a
    /// games.csv edited, or from another plan, is refused), before any is
    /// [`recorded`](Format::recorded). By default: between two of the run's
    /// bots, in one of its variants (a format whose games follow from the
    /// results checks the rest as it replays them).
    fn check_recorded(&self, row: &GameRow, config: &TournamentConfig) -> anyhow::Result<()> {
        check_names(row, config)
    }
    /// A game finished before this run (read back on resume, in games.csv
    /// order, before any game starts; or by report.html, replaying a
    /// directory), counted in the run's tally. A format whose games follow
    /// from results (a Swiss) keeps it; an error ends the run before it plays.
    fn recorded(&mut self, _row: &GameRow) -> anyhow::Result<()> {
        Ok(())
    }
    /// The next game to start, or `None` if there is none to start now.
    /// Games in `run.done` are finished and must not be started again.
    fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>>;
    /// `row` ended, is journaled and counted in `run`. Events it causes (a
    /// completed SPRT pair) go to `output`; [`Flow::Stop`] ends the run
    /// (games still running are abandoned).
    fn finished(&mut self, row: &GameRow, run: &RunState, output: &mut dyn RunOutput) -> Flow;
    /// Where the run stands, for progress displays.
    fn status(&self, run: &RunState) -> RunStatus {
        RunStatus::leader(run.tally.leader())
    }
    /// What the format concludes from the games of `run`.
    fn verdict(&self, run: &RunState) -> Box<dyn Verdict>;
    /// The format's section of report.html, once every game of the
    /// directory is [`recorded`](Format::recorded) (`None`: the standings
    /// say it all).
    fn report_tables(&mut self) -> Option<FormatTables> {
        None
    }
    /// The format as report.html's settings name it (`round robin, 40
    /// games`, an SPRT's bounds); `dir` is the run's directory (an adaptive
    /// ranking reads its certificate there).
    fn describe(&self, config: &TournamentConfig, dir: &Path) -> String;
    /// A format whose games come in stages (a Swiss, a knockout): itself
    /// as one, for a shard's `--after` and for `arena merge`.
    fn as_staged(&mut self) -> Option<&mut dyn Staged> {
        None
    }
    /// What report.html's settings say of games per pairing: the setting's
    /// value, or what the format plays instead when it refuses the setting.
    fn games_per_pairing(&self, config: &TournamentConfig) -> String {
        config.games_per_pairing.to_string()
    }
}

/// What a format concludes, beyond how the run ended: its last words and
/// files, and its exit status when it has its own.
pub trait Verdict: Debug + Any {
    /// What the format says after the standings, `run` being how the run
    /// ended ([`resume_hint`] says how to continue it).
    fn summary(&self, run: &RunOutcome) -> Vec<Said>;
    /// The exit status, when the format decides one (an SPRT's decision);
    /// `None`: the run's own (interrupted, games missing, complete).
    fn exit_status(&self, _run: &RunOutcome) -> Option<i32> {
        None
    }
    /// Files the format writes into the run's directory when it ends,
    /// before report.html (an adaptive ranking's certificate.csv); their paths.
    fn write_files(&self, _dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        Ok(Vec::new())
    }
    /// For a reader of one format's verdict ([`verdict_as`]).
    fn as_any(&self) -> &dyn Any;
}

/// `verdict` as the verdict type `V` of its format, if it is one.
pub fn verdict_as<V: Verdict>(verdict: &dyn Verdict) -> Option<&V> {
    verdict.as_any().downcast_ref::<V>()
}

/// The verdict of a run that the standings say all of: only how to
/// continue the run when it did not record every game.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings;

impl Verdict for Standings {
    fn summary(&self, run: &RunOutcome) -> Vec<Said> {
        resume_hint(run).into_iter().collect()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// How to continue a run that did not record every game, after a blank
/// line (`None` when it did).
pub fn resume_hint(outcome: &RunOutcome) -> Option<Said> {
    let dir = outcome.dir.display();
    let line = if outcome.end == RunEnd::Interrupted {
        format!(
            "\nInterrupted: {} of {} games played. Continue with: arena tournament --resume {dir}",
            outcome.finished,
            outcome.total.unwrap_or(outcome.finished)
        )
    } else if let RunEnd::RefereeFailing(stop) = &outcome.end {
        format!(
            "\nStopped: {}; then continue with: arena tournament --resume {dir}",
            stop.line()
        )
    } else if let RunEnd::BotsDisabled(all) = &outcome.end {
        format!(
            "\nStopped: {}; fix them, then continue with: arena tournament --resume {dir}",
            all.line()
        )
    } else if !outcome.failed.is_empty() {
        format!(
            "\n{} games could not be run (see above); play them with: arena tournament --resume {dir}",
            outcome.failed.len()
        )
    } else {
        return None;
    };
    Some(Said::Line(line))
}

/// A game of a plan whose games follow from the results: between two of
/// the run's bots, in one of its variants.
pub fn check_names(row: &GameRow, config: &TournamentConfig) -> anyhow::Result<()> {
    for name in [&row.white, &row.black] {
        if !config.bots.iter().any(|b| &b.name == name) {
            anyhow::bail!("game g{}: {name:?} is not one of this run's bots", row.id);
        }
    }
    let variants = config.variant_ids();
    if !variants.contains(&row.variant) {
        anyhow::bail!(
            "game g{}: variant {} is not one of this run's ({})",
            row.id,
            row.variant,
            variants.join(", ")
        );
    }
    Ok(())
}

/// A format's line in the registry ([`crate::registry`]): its name and how
/// a run of it is opened.
#[derive(Clone, Copy)]
pub struct FormatRow {
    /// The plan's `kind` in tournament.json ([`crate::manifest::FormatPlan::KIND`]).
    pub kind: &'static str,
    /// The format's plan when the run's settings choose the format, from
    /// them and the assembled config; `None` when they choose another (then
    /// the format's own settings given are an error, located).
    pub plan: fn(&Resolved, &TournamentConfig) -> anyhow::Result<Option<Plan>>,
    /// The format of a run's manifest; fails, before any game, when the
    /// plan cannot be played (an opening length no game allows, an SPRT
    /// not between two bots).
    pub open: fn(&Manifest) -> anyhow::Result<Box<dyn Format>>,
}
