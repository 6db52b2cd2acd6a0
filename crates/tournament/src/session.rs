//! One run's output directory, new or resumed: its lock, its manifest, its
//! journal and the games finished so far, and the checks before the first
//! game. (The standings and the tables at the end are written by the front
//! end, from the run's tally, under the lock this holds.)
//!
//! The files are listed in [`super::output_files`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context};

use super::config::TournamentConfig;
use super::format::Format;
use super::games_reader::visit_games_csv;
use super::journal::{Journal, GAMES_CSV, GAMES_JSONL};
use super::manifest::Manifest;
use super::preflight::{check_resources, check_sandbox, oversubscribed};
use super::progress::RunOutput;
use super::runner::{run_games, GameFeed, RunSummary};
use super::start_check::CannotStart;
use arena_files::{DirLock, LockError};
use arena_referee::GameRow;
use arena_rules::protocol::ClockBasis;

use super::identity::{changed_programs, identify, note_ready};

pub struct Session {
    pub manifest: Manifest,
    pub dir: PathBuf,
    pub journal: Journal,
    /// Number of games finished before this run (on resume). The games
    /// themselves stay on disk: [`Session::visit_finished`] reads them.
    pub finished: u64,
    /// What recovery repaired, for the user.
    pub repairs: Vec<String>,
    /// A new run (not a resumed one): what it wrote is removed again when
    /// a bot cannot start before its first game.
    fresh: bool,
    /// The directory's lock ([`DirLock`]): no other arena writes it while
    /// the run lives. Whoever ends the run (the driver hands it on in
    /// [`super::driver::Finished`]) keeps it until the tables are written.
    pub lock: DirLock,
}

impl Session {
    /// A new run in `manifest.config.out`, which must not hold a run yet.
    pub fn create(manifest: Manifest) -> anyhow::Result<Session> {
        let dir = manifest.config.out.clone();
        // Locked before the checks, so that two new runs given one --out
        // cannot both find it free. A directory the checks refuse existed
        // already and is left as it was (the lock file goes with the lock).
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        let lock = match DirLock::acquire(&dir) {
            Ok(lock) => lock,
            Err(error @ LockError::InUse { .. }) => return Err(error.into()),
            // (A read-only directory that holds a run: say that first.)
            Err(error) => {
                Session::refuse(&dir)?;
                return Err(error.into());
            }
        };
        Session::refuse(&dir)?;
        manifest.write(&dir)?;
        let journal = Journal::create(&dir)?;
        Ok(Session {
            manifest,
            dir,
            journal,
            finished: 0,
            repairs: Vec::new(),
            fresh: true,
            lock,
        })
    }

    /// `Err` when `dir` holds a run already (its tournament.json, or games
    /// of another run), before anything of the new run is written, so a
    /// refused directory is left as it was found.
    fn refuse(dir: &Path) -> anyhow::Result<()> {
        if Manifest::path(dir).exists() {
            bail!(
                "{} already holds a tournament; continue it with --resume {} or choose another --out",
                dir.display(),
                dir.display()
            );
        }
        Journal::refuse_games(dir)
    }

    /// Reopens the run in `dir`: reads `tournament.json`, opens its format
    /// with `open` (which may change the settings a resume may change),
    /// repairs the journal, and checks every finished game against the
    /// format's plan. Refused at once while another arena holds the
    /// directory.
    pub fn resume(
        dir: &Path,
        open: impl FnOnce(&mut Manifest) -> anyhow::Result<Box<dyn Format>>,
    ) -> anyhow::Result<(Session, Box<dyn Format>)> {
        // Locked first: a run that has just taken the directory may not have
        // written tournament.json yet. A directory that cannot be locked
        // (missing, read-only) and holds no run gets the manifest's error.
        let lock = match DirLock::acquire(dir) {
            Ok(lock) => lock,
            Err(error @ LockError::InUse { .. }) => return Err(error.into()),
            Err(error) => {
                Manifest::read(dir)?;
                return Err(error.into());
            }
        };
        let mut manifest = Manifest::read(dir)?;
        manifest.config.out = dir.to_path_buf();
        let format = open(&mut manifest)?;
        let config = &manifest.config;
        let (journal, recovery) = Journal::recover(dir, |row| format.check_recorded(row, config))?;
        let session = Session {
            dir: dir.to_path_buf(),
            journal,
            finished: recovery.finished.len(),
            repairs: recovery.repairs,
            fresh: false,
            manifest,
            lock,
        };
        Ok((session, format))
    }

    /// Plays the feed's games on a fresh tokio runtime, after checking that
    /// every bot's program can start, the sandbox and the machine's limits
    /// (and, on the runtime, starting each bot once: a new run whose bot
    /// cannot start leaves no run behind, so the same command can run
    /// again once it is fixed).
    pub fn play(
        &mut self,
        feed: &mut dyn GameFeed,
        output: &mut dyn RunOutput,
    ) -> anyhow::Result<RunSummary> {
        let config = &self.manifest.config;
        check_before_games(config, &self.dir)?;
        if let Some(why) = self.lock.not_held() {
            output.warning(&format!("warning: {why}"));
        }
        let now = identify(&config.bots);
        for warning in changed_programs(&self.manifest.programs, &now) {
            output.warning(&warning);
        }
        let summary = play_on_runtime(config, &self.journal, feed, output);
        if let Err(error) = &summary {
            if self.fresh && error.downcast_ref::<CannotStart>().is_some() {
                self.forget();
            }
        }
        let summary = summary?;
        // The bots' own names and versions, for tournament.json.
        if note_ready(&mut self.manifest.programs, &summary.ready) {
            if let Err(e) = self.manifest.write(&self.dir) {
                output.warning(&format!(
                    "warning: could not record the bots' ready answers in tournament.json: {e:#}"
                ));
            }
        }
        Ok(summary)
    }

    /// Removes what a new run wrote before its first game (tournament.json
    /// and the empty games files; the start check's logs stay).
    fn forget(&self) {
        for path in [
            Manifest::path(&self.dir),
            self.dir.join(GAMES_CSV),
            self.dir.join(GAMES_JSONL),
        ] {
            let _ = std::fs::remove_file(path);
        }
    }

    /// Calls `visit` with every finished game in `games.csv` order, reading
    /// the file one row at a time.
    pub fn visit_finished(
        &self,
        visit: impl FnMut(GameRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        visit_games_csv(&self.dir.join(GAMES_CSV), visit)
    }
}

/// The checks before the first game of `config`'s bots, whose records go
/// to `dir`: the sandbox, the machine's limits, and whether every bot's
/// program can start (a resumed run's bots may have moved since).
pub fn check_before_games(config: &TournamentConfig, dir: &Path) -> anyhow::Result<()> {
    check_sandbox(&config.bots, dir)?;
    check_resources(config.concurrency, &config.bots)?;
    config.check_programs()
}

/// Plays the feed's games of `config` into `journal` on a fresh tokio
/// runtime ([`run_games`]), after warning when a wall clock's games
/// outnumber the cores. A run's [`Session::play`] and a league's games
/// (`crate::league::play`) both play through here.
pub fn play_on_runtime(
    config: &TournamentConfig,
    journal: &Journal,
    feed: &mut dyn GameFeed,
    output: &mut dyn RunOutput,
) -> anyhow::Result<RunSummary> {
    let cores = arena_referee::start_slots::cores();
    if config.clock == ClockBasis::Wall {
        if let Some(warning) = oversubscribed(config.concurrency, cores) {
            output.warning(&warning);
        }
    }
    // One game at a time needs no second thread: on one, the loop that
    // starts games and the game itself hand over without waking another
    // thread (two context switches each way, every game).
    let runtime = if config.concurrency <= 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    }
    .enable_all()
    .build()
    .context("starting the async runtime")?;
    runtime.block_on(run_games(Arc::new(config.clone()), journal, feed, output))
}
