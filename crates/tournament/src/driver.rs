//! The one driver of every kind of run: round robin, gauntlet, SPRT,
//! Swiss, knockout, and the formats to come. It creates or resumes the run's directory
//! ([`Session`]), picks the format from the run's plan (`tournament.json`),
//! feeds the run's tally with the games finished before a resume, reports
//! started / resumed / playing, plays, and returns the outcome with the
//! tally, from which the front end writes the standings, the tables and
//! report.html.
//!
//! A [`Format`] only chooses the next game and says when to stop, as
//! fastchess's formats do on its one tournament base; what the run knows
//! (the tally of finished games and which games are done, [`RunState`]) is
//! the driver's, and a format reads it when it needs results (the SPRT
//! does). A format whose games follow from earlier results (a Swiss, a
//! knockout) also hears of each game finished before a resume
//! ([`Format::recorded`]) as of each one finished since. The driver counts each game
//! in the tally as it ends, and asks the front end for the standings every
//! `rating_interval` games.

use std::path::PathBuf;

use anyhow::Context;

use super::adaptive::{AdaptiveRanking, AdaptiveVerdict};
use super::game_set::GameSet;
use super::knockout::{Bracket, Knockout};
use super::manifest::{Manifest, Plan};
use super::progress::{Resumed, RunKind, RunOutcome, RunOutput, RunStarted, Standing};
use super::round_robin::RoundRobin;
use super::runner::{Flow, GameFeed, RunEnd};
use super::schedule::ScheduledGame;
use super::session::Session;
use super::settings::Given;
use super::sprt::{SprtMatch, SprtVerdict};
use super::swiss::{Swiss, SwissSummary};
use super::tally::AddRow;
use arena_files::DirLock;
use arena_referee::GameRow;
use arena_stats::{InvalidGame, Tally};

/// How to begin.
#[derive(Debug)]
pub enum Start {
    /// A new run of this manifest, in its config's `out` directory.
    /// (Boxed: a manifest is large, a resume small.)
    New(Box<Manifest>),
    /// Continue the run in `dir`, whatever its format, with the settings
    /// that may change on resume (`concurrency`, `rating_interval`: neither
    /// changes which games are played) as given again.
    Resume { dir: PathBuf, given: Given },
}

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

/// A kind of run: which game comes next, and when to stop. Everything else
/// (the journal, resuming, the tally, the progress events) is the driver's.
pub trait Format {
    /// What kind of run this is, for [`RunOutput::started`].
    fn kind(&self) -> RunKind<'_>;
    /// Games the run plans in all (`None`: open-ended).
    fn total(&self) -> Option<u64>;
    /// A game finished before this run (read back on resume, in games.csv
    /// order, before any game starts), counted in the run's tally. A format
    /// whose games follow from results (a Swiss) keeps it; an error ends
    /// the run before it plays.
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
    fn standing(&self, run: &RunState) -> Standing;
    /// What the format concludes from the games of `run`.
    fn verdict(&self, run: &RunState) -> Verdict;
}

/// What a format concludes, beyond how the run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A schedule's games (round robin, gauntlet): the standings say it all.
    Standings,
    /// An SPRT's decision so far. (Boxed: the other variant is empty.)
    Sprt(Box<SprtVerdict>),
    /// A Swiss's rounds and table.
    Swiss(Box<SwissSummary>),
    /// A knockout's bracket.
    Knockout(Box<Bracket>),
    /// Whether the adaptive ranking is certified, and what is not.
    Adaptive(Box<AdaptiveVerdict>),
}

/// How a run ended, with everything the front end needs to show it.
#[derive(Debug)]
pub struct Finished {
    pub run: RunOutcome,
    /// Every finished game of the run, earlier ones included, counted in
    /// `games.csv` order.
    pub tally: Tally,
    /// The run's settings and plan (as resumed).
    pub manifest: Manifest,
    pub verdict: Verdict,
    /// The run directory's lock, held until this is dropped: the front
    /// end writes the standings, the tables and report.html under it.
    pub lock: DirLock,
}

/// The format of the run `manifest` plans; checks that the plan can be
/// played (an opening length no game allows, an SPRT not between two bots
/// of one variant) before any game.
pub fn format_of(manifest: &Manifest) -> anyhow::Result<Box<dyn Format>> {
    Ok(match &manifest.plan {
        Plan::RoundRobin { .. } => Box::new(RoundRobin::of(manifest)?),
        Plan::Sprt(plan) => Box::new(SprtMatch::new(manifest, *plan)?),
        Plan::Swiss(plan) => Box::new(Swiss::new(manifest, *plan)?),
        Plan::Knockout(plan) => Box::new(Knockout::new(manifest, *plan)?),
        Plan::Adaptive(plan) => Box::new(AdaptiveRanking::new(manifest, *plan)?),
    })
}

/// Runs (or resumes) a run of any format, reporting to `output`, and
/// returns how it ended. Not every planned game is recorded when the run
/// was interrupted or some game could not be run (resume to replay it).
pub fn run(start: Start, output: &mut dyn RunOutput) -> anyhow::Result<Finished> {
    let (mut session, mut format, resuming) = open(start)?;
    let total = format.total();
    output.started(&RunStarted {
        config: &session.manifest.config,
        dir: &session.dir,
        kind: format.kind(),
    });

    let mut state = RunState::new();
    session
        .visit_finished(|row| {
            if state.add(&row)? {
                format.recorded(&row)?;
            }
            Ok(())
        })
        .context("reading the finished games")?;
    if resuming {
        output.resumed(&Resumed {
            repairs: &session.repairs,
            finished: session.finished,
            total,
            standing: &format.standing(&state),
        });
    }
    let done = total.map_or(state.finished(), |t| state.finished().min(t));
    output.playing(done, total, &format.standing(&state));
    let mut feed = Feed {
        format: format.as_mut(),
        state: &mut state,
        rating_interval: session.manifest.config.rating_interval,
        refused: None,
    };
    let summary = session.play(&mut feed, output);
    let refused = feed.refused.take();
    output.stopped_playing();
    let summary = summary?;
    if let Some(refused) = refused {
        return Err(anyhow::Error::new(refused).context("counting the finished games"));
    }

    let finished = session.finished + summary.played;
    let mut end = summary.end;
    // Ctrl-C during the last games, which then finished: nothing is missing.
    if end == RunEnd::Interrupted
        && summary.failed.is_empty()
        && total.is_some_and(|total| finished >= total)
    {
        end = RunEnd::Complete;
    }
    Ok(Finished {
        run: RunOutcome {
            dir: session.dir.clone(),
            end,
            finished,
            total,
            failed: summary.failed,
        },
        verdict: format.verdict(&state),
        tally: state.tally,
        manifest: session.manifest,
        lock: session.lock,
    })
}

/// The session and format of `start`; `true` when resuming.
fn open(start: Start) -> anyhow::Result<(Session, Box<dyn Format>, bool)> {
    match start {
        Start::New(manifest) => {
            // A plan that cannot be played fails here, before anything is
            // written.
            let format = format_of(&manifest)?;
            Ok((Session::create(*manifest)?, format, false))
        }
        Start::Resume { dir, given } => {
            let mut session = Session::resume(&dir)?;
            session.manifest.config.resume_with(&given)?;
            // Checked again: tournament.json may come from an older arena
            // or an editor, and a plan out of range must be an error, not a
            // panic.
            let format = format_of(&session.manifest)
                .with_context(|| Manifest::path(&session.dir).display().to_string())?;
            Ok((session, format, true))
        }
    }
}

/// The runner's view of the driver: the format's games, each finished one
/// counted in the run's state before the format hears of it.
struct Feed<'a> {
    format: &'a mut dyn Format,
    state: &'a mut RunState,
    /// `standings_due` every this many finished games (0: never).
    rating_interval: u64,
    /// The first game the tally refused (arena's own rows never are).
    refused: Option<InvalidGame>,
}

impl GameFeed for Feed<'_> {
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>> {
        self.format.next_game(self.state)
    }

    fn finished(&mut self, row: &GameRow, output: &mut dyn RunOutput) -> Flow {
        match self.state.add(row) {
            Ok(true) => {}
            Ok(false) => return Flow::Continue,
            Err(refused) => {
                self.refused.get_or_insert(refused);
            }
        }
        let flow = self.format.finished(row, self.state, output);
        let finished = self.state.finished();
        // Not after the last game: the final standings follow.
        let last = flow == Flow::Stop || self.format.total().is_some_and(|t| finished >= t);
        if self.rating_interval > 0 && finished.is_multiple_of(self.rating_interval) && !last {
            output.standings_due(finished, &self.state.tally);
        }
        flow
    }

    fn status(&self) -> Standing {
        self.format.standing(self.state)
    }
}
