//! `arena tournament [FILE] [flags] | --resume DIR`: a round-robin (or
//! gauntlet) tournament between bots, journaled so that it survives crashes;
//! a file may also hold an SPRT (`format = "sprt"`), and `--resume DIR`
//! continues a run of any format. The end of every run (rating its tally,
//! the last words, the exit status) is here, shared with `arena sprt`.
//!
//! Without FILE and without `--bot`, `./arena.toml` is played (in arena's
//! repository, the bundled tournament), as `make` reads `./Makefile`.

use std::net::Ipv4Addr;
use std::path::PathBuf;

use anyhow::bail;

use std::io::IsTerminal;

use crate::cli::output::Terminal;
use crate::cli::serve::Live;
use crate::cli::setting_flags::{self, resume_help, SettingFlags};
use crate::report::rating::rate_run;
use crate::tournament::config::Defaults;
use crate::tournament::driver::{self, Finished, Start};
use crate::tournament::progress::RunOutcome;
use crate::tournament::runner::RunEnd;
use crate::tournament::settings::Command;
use crate::tournament::settings::{from_given, load};

/// Name of the bundled tournament file.
pub const BUNDLED_FILE: &str = "arena.toml";

#[derive(Debug, Default, clap::Args)]
#[command(
    override_usage = usage(),
    after_help = "Files written to the output directory: tournament.json (settings and \
seed; every game is computed from them), games.csv and games.jsonl (appended as games end), logs/ (bot stderr per game), \
standings.csv, pairwise.csv, model.csv and crosstable.csv (at the end, and on Ctrl-C).\n\nCtrl-C \
lets the games being played finish and starts no other, then stops (exit status 130); a second \
Ctrl-C, or SIGTERM, stops at once and the games in flight are not recorded. `arena tournament \
--resume DIR` continues where it stopped, also after a crash. One arena at a time writes a \
directory: another run, --resume or merge into it is refused while it runs.\n\nEvery \
setting, in a file and as a flag: docs/SETTINGS.md."
)]
pub struct Args {
    /// Tournament file (TOML) with `[tournament]` settings and `[[bot]]` entries.
    /// Flags override its settings. Default: ./arena.toml, unless --bot is given.
    pub file: Option<PathBuf>,
    /// A bot as NAME=COMMAND (repeatable); replaces the file's bot of that name.
    #[arg(long = "bot", value_name = "NAME=COMMAND", conflicts_with = "resume")]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub settings: SettingFlags<setting_flags::Tournament>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Serve the run's live page (as `arena serve DIR`) on this port of
    /// 127.0.0.1 while it plays; 0 picks a free port (the first line says which).
    #[arg(long, value_name = "PORT")]
    pub serve: Option<u16>,
    #[arg(long, value_name = "DIR", conflicts_with = "file", help = resume_help(Command::Tournament, "run"))]
    pub resume: Option<PathBuf>,
    /// For a shard of a swiss or knockout: the directory `arena merge`
    /// wrote from the shards; the shard plays its part of the first round
    /// not complete there (docs/FORMATS.md, "Sharding, merging").
    #[arg(long, value_name = "MERGED")]
    pub after: Option<PathBuf>,
}

/// The usage lines: a new run, or a resumed one with what may change.
fn usage() -> String {
    format!(
        "arena tournament [FILE] [OPTIONS]\n       arena tournament --resume DIR [{}]",
        crate::tournament::settings::resumable_flags(Command::Tournament)
            .iter()
            .map(|flag| format!("{flag} N"))
            .collect::<Vec<_>>()
            .join("] [")
    )
}

/// Exit status after Ctrl-C (once the games in flight finished, or at once
/// after a second one) or SIGTERM, as shells report a SIGINT death.
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit status when some game could not be run (resume to replay it).
pub const EXIT_GAMES_MISSING: i32 = 1;
/// Exit status when the run stopped because arena itself kept failing (out
/// of descriptors, processes, memory or disk): fix that, then resume.
pub const EXIT_REFEREE_FAILING: i32 = 4;
/// Exit status when every bot failed to start too many times in a row
/// (each disabled by the start-up circuit breaker): fix them, then resume.
pub const EXIT_BOTS_DISABLED: i32 = 5;

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut terminal = Terminal::new(show_progress(args.no_progress));
    if let Some(port) = args.serve {
        terminal.serve_on(Live::bind(Ipv4Addr::LOCALHOST.into(), port)?);
    }
    let after = args.after.clone();
    let start = start(args)?;
    let finished = driver::run_after(start, after.as_deref(), &mut terminal)?;
    end(&mut terminal, &finished)
}

/// The end of a run of any format: its tally rated into the standings,
/// the tables and report.html, shown with the files; then the format's
/// last words. Returns the exit status ([`exit_status`]).
pub fn end(terminal: &mut Terminal, finished: &Finished) -> anyhow::Result<i32> {
    let dir = &finished.run.dir;
    // The format's files (an adaptive ranking's certificate.csv) before
    // report.html, which shows them.
    let files = finished.verdict.write_files(dir)?;
    let mut rated = rate_run(dir, &finished.tally, &finished.manifest.config.seeds)?;
    rated.files.extend(files);
    terminal.ratings(dir, &rated);
    terminal.run_ended(finished);
    Ok(exit_status(finished))
}

/// The exit status of a run: its format's when it has one (an SPRT's
/// decision), else a schedule's ([`schedule_exit_status`]).
pub fn exit_status(finished: &Finished) -> i32 {
    finished
        .verdict
        .exit_status(&finished.run)
        .unwrap_or_else(|| schedule_exit_status(&finished.run))
}

/// 0 when every scheduled game is recorded, [`EXIT_GAMES_MISSING`] when some
/// game could not be run, [`EXIT_REFEREE_FAILING`] when arena's own failures
/// stopped the run, [`EXIT_BOTS_DISABLED`] when no bot could start any
/// more, [`EXIT_INTERRUPTED`] when interrupted.
pub fn schedule_exit_status(outcome: &RunOutcome) -> i32 {
    if outcome.end == RunEnd::Interrupted {
        EXIT_INTERRUPTED
    } else if matches!(outcome.end, RunEnd::RefereeFailing(_)) {
        EXIT_REFEREE_FAILING
    } else if matches!(outcome.end, RunEnd::BotsDisabled(_)) {
        EXIT_BOTS_DISABLED
    } else if !outcome.failed.is_empty() {
        EXIT_GAMES_MISSING
    } else {
        0
    }
}

/// A new run from the flags (and file), or the resumed one (of any format).
fn start(args: Args) -> anyhow::Result<Start> {
    let mut given = args.settings.given;
    if let Some(dir) = args.resume {
        return Ok(Start::Resume { dir, given });
    }
    for bot in args.bots {
        given.add_bot(bot);
    }
    let defaults = Defaults::from_environment();
    // Before anything is written, a bot whose program cannot start is one
    // error (`load` points at its entry in the file).
    let run = match args.file {
        Some(file) => load(&file, &given, &defaults)?,
        None if !given.bots().is_empty() => {
            let run = from_given(Command::Tournament, &given, &defaults, Vec::new())?;
            run.config.check_programs()?;
            run
        }
        None => {
            let file = bundled_file()?;
            outln!("Using {}", file.display());
            load(&file, &given, &defaults)?
        }
    };
    Ok(Start::New(Box::new(run.manifest())))
}

/// A progress bar is drawn unless `--no-progress`, and only on a terminal
/// (it would fill a redirected log with redraws).
pub fn show_progress(no_progress: bool) -> bool {
    !no_progress && std::io::stderr().is_terminal()
}

/// `./arena.toml`: like `make`, arena reads the file of the directory it
/// is started in, never one of the tree it was built from.
fn bundled_file() -> anyhow::Result<PathBuf> {
    let local = PathBuf::from(BUNDLED_FILE);
    if local.is_file() {
        return Ok(local);
    }
    bail!(
        "no tournament file given and no {BUNDLED_FILE} in this directory; \
         pass FILE or --bot NAME=COMMAND (twice or more)"
    )
}

/// Whether bare `arena` has a tournament to play here.
pub fn bundled_file_here() -> bool {
    PathBuf::from(BUNDLED_FILE).is_file()
}
