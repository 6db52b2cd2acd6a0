//! The one driver of every kind of run: round robin, gauntlet, SPRT,
//! Swiss, knockout, adaptive, and the formats to come. It creates or
//! resumes the run's directory ([`Session`]), opens the run's format from
//! its plan (`tournament.json`, through the registry: [`Formats`]), feeds
//! the run's tally with the games finished before a resume, reports
//! started / resumed / playing, plays, and returns the outcome with the
//! tally and the format's verdict, from which the front end writes the
//! standings, the tables and report.html.
//!
//! A [`Format`] chooses the next game, says when to stop and what to
//! say, as fastchess's formats do on its one tournament base; what the run
//! knows (the tally of finished games and which games are done,
//! [`RunState`]) is the driver's, and a format reads it when it needs
//! results (the SPRT does). A format whose games follow from earlier
//! results (a Swiss, a knockout) also hears of each game finished before a
//! resume ([`Format::recorded`]) as of each one finished since. The driver
//! counts each game in the tally as it ends, and asks the front end for the
//! standings every `rating_interval` games.

use std::path::{Path, PathBuf};

use anyhow::Context;

pub use super::format::{Format, RunState, Verdict};
use super::manifest::Manifest;
use super::progress::{Resumed, RunOutcome, RunOutput, RunStarted, RunStatus};
use super::registry::Formats;
use super::runner::{Flow, GameFeed, RunEnd};
use super::schedule::ScheduledGame;
use super::session::Session;
use super::settings::Given;
use super::stage_shards;
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

/// How a run ended, with everything the front end needs to show it.
#[derive(Debug)]
pub struct Finished {
    pub run: RunOutcome,
    /// Every finished game of the run, earlier ones included, counted in
    /// `games.csv` order.
    pub tally: Tally,
    /// The run's settings and plan (as resumed).
    pub manifest: Manifest,
    /// What the run's format concludes, and its last words.
    pub verdict: Box<dyn Verdict>,
    /// The run directory's lock, held until this is dropped: the front
    /// end writes the standings, the tables and report.html under it.
    pub lock: DirLock,
}

/// Runs (or resumes) a run of any of arena's formats; see [`run_with`].
pub fn run(start: Start, output: &mut dyn RunOutput) -> anyhow::Result<Finished> {
    run_with(start, &Formats::builtin(), output)
}

/// [`run`] for a shard of a Swiss or knockout that plays on after the
/// rounds merged into `after` (`--after MERGED`): the format also hears of
/// the merged games its directory lacks ([`stage_shards::read_after`]),
/// which are not journaled nor counted in the run's tally.
pub fn run_after(
    start: Start,
    after: Option<&Path>,
    output: &mut dyn RunOutput,
) -> anyhow::Result<Finished> {
    run_inner(start, &Formats::builtin(), after, output)
}

/// Runs (or resumes) a run of any format of `formats`, reporting to
/// `output`, and returns how it ended. Not every planned game is recorded when the run
/// was interrupted or some game could not be run (resume to replay it).
pub fn run_with(
    start: Start,
    formats: &Formats,
    output: &mut dyn RunOutput,
) -> anyhow::Result<Finished> {
    run_inner(start, formats, None, output)
}

fn run_inner(
    start: Start,
    formats: &Formats,
    after: Option<&Path>,
    output: &mut dyn RunOutput,
) -> anyhow::Result<Finished> {
    let (mut session, mut format, resuming) = open(start, formats, after)?;
    let total = format.total();
    let config = &session.manifest.config;
    output.started(&RunStarted {
        config,
        dir: &session.dir,
        format: session.manifest.plan.kind(),
        total,
        lines: &format.started(config, &session.dir),
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
    if let Some(after) = after {
        let (manifest, dir) = (&session.manifest, &session.dir);
        stage_shards::read_after(after, manifest, dir, format.as_mut(), &state.done)?;
    }
    if resuming {
        output.resumed(&Resumed {
            repairs: &session.repairs,
            finished: session.finished,
            total,
            status: &format.status(&state),
        });
    }
    let done = total.map_or(state.finished(), |t| state.finished().min(t));
    output.playing(done, total, &format.status(&state));
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
    // Ctrl-C during the last games, or every bot disabled by the last one,
    // which then finished: nothing is missing.
    if matches!(end, RunEnd::Interrupted | RunEnd::BotsDisabled(_))
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

/// The session and format of `start`; `true` when resuming. A shard's
/// `after` is checked before a new run writes anything.
fn open(
    start: Start,
    formats: &Formats,
    after: Option<&Path>,
) -> anyhow::Result<(Session, Box<dyn Format>, bool)> {
    match start {
        Start::New(manifest) => {
            // A plan that cannot be played fails here, before anything is
            // written.
            let mut format = formats.open(&manifest)?;
            if let Some(after) = after {
                stage_shards::check_after(after, &manifest, &manifest.config.out, format.as_mut())?;
            }
            Ok((Session::create(*manifest)?, format, false))
        }
        Start::Resume { dir, given } => {
            let (session, format) = Session::resume(&dir, |manifest| {
                manifest.config.resume_with(&given)?;
                // Checked again: tournament.json may come from an older
                // arena or an editor, and a plan out of range must be an
                // error, not a panic.
                formats
                    .open(manifest)
                    .with_context(|| Manifest::path(&dir).display().to_string())
            })?;
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

    fn status(&self) -> RunStatus {
        self.format.status(self.state)
    }
}
