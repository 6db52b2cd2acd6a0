//! `arena tournament [FILE] [flags] | --resume DIR`: a round-robin (or
//! gauntlet) tournament between bots, journaled so that it survives crashes;
//! `--resume DIR` continues a run of any format (an SPRT too). The end of
//! every run (rating its tally, the last words, the exit status) is here,
//! shared with `arena sprt`.
//!
//! Without FILE and without `--bot`, the bundled `arena.toml` is used (the
//! one in the current directory, else the one at the root of arena's
//! source tree), so `arena` alone runs the bundled bots against each other.

use std::path::PathBuf;

use anyhow::bail;

use crate::cli::output::Terminal;
use crate::cli::run_flags::RunFlags;
use crate::cli::sprt;
use crate::report::rating::rate_run;
use crate::tournament::config::{self, Defaults};
use crate::tournament::driver::{self, Finished, Start, Verdict};
use crate::tournament::progress::RunOutcome;
use crate::tournament::runner::RunEnd;
use crate::tournament::Manifest;

/// Name of the bundled tournament file.
pub const BUNDLED_FILE: &str = "arena.toml";

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "Files written to the output directory: tournament.json (settings and \
seed; every game is computed from them), games.csv and games.jsonl (appended as games end), logs/ (bot stderr per game), \
standings.csv, pairwise.csv, model.csv and crosstable.csv (at the end, and on Ctrl-C).\n\nCtrl-C stops \
cleanly; `arena tournament --resume DIR` continues where it stopped, also after a crash."
)]
pub struct Args {
    /// Tournament file (TOML) with `[tournament]` settings and `[[bot]]` entries.
    /// Flags override its settings. Default: the bundled arena.toml, unless --bot is given.
    pub file: Option<PathBuf>,
    /// Games between each two bots (even: pairs with colours swapped).
    #[arg(long)]
    pub games: Option<u32>,
    /// Random legal opening plies, shared by both games of a pair.
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// A bot as NAME=COMMAND (repeatable); replaces the file's bot of that name.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bots: Vec<String>,
    /// Play only shard K of N (game pair p is shard p mod N + 1); needs a
    /// fixed --seed. Join the shards' directories with `arena merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Play a gauntlet with NAME as a seed (repeatable): each seed plays
    /// every bot that is not a seed; the others do not play each other.
    #[arg(long = "gauntlet", value_name = "NAME")]
    pub gauntlet: Vec<String>,
    /// Show the standings every N finished games while the run goes on
    /// [default: 0, only at the end].
    #[arg(long, value_name = "N")]
    pub rating_interval: Option<u64>,
    #[command(flatten)]
    pub run: RunFlags,
    /// Continue the tournament in DIR (only -j may change).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "file", "variant", "games", "tc", "seed", "out", "opening_plies", "bots", "grace_ms", "shard", "gauntlet"
    ])]
    pub resume: Option<PathBuf>,
}

/// Exit status after Ctrl-C / SIGTERM, as shells report a SIGINT death.
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit status when some game could not be run (resume to replay it).
pub const EXIT_GAMES_MISSING: i32 = 1;
/// Exit status when the run stopped because arena itself kept failing (out
/// of descriptors, processes, memory or disk): fix that, then resume.
pub const EXIT_REFEREE_FAILING: i32 = 4;

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut terminal = Terminal::new(args.run.show_progress());
    let start = start(args)?;
    let finished = driver::run(start, &mut terminal)?;
    end(&mut terminal, &finished)
}

/// The end of a run of any format: its tally rated into the standings,
/// the tables and report.html, shown with the files; then the format's
/// last words. Returns the exit status ([`exit_status`]).
pub fn end(terminal: &mut Terminal, finished: &Finished) -> anyhow::Result<i32> {
    let dir = &finished.run.dir;
    let rated = rate_run(dir, &finished.tally, &finished.manifest.config.seeds)?;
    terminal.ratings(dir, &rated);
    terminal.run_ended(finished);
    Ok(exit_status(finished))
}

/// The exit status of a run: an SPRT's ([`sprt::exit_status`]), or a
/// schedule's ([`schedule_exit_status`]).
pub fn exit_status(finished: &Finished) -> i32 {
    match &finished.verdict {
        Verdict::Standings => schedule_exit_status(&finished.run),
        Verdict::Sprt(verdict) => sprt::exit_status(&finished.run, verdict),
    }
}

/// 0 when every scheduled game is recorded, [`EXIT_GAMES_MISSING`] when some
/// game could not be run, [`EXIT_REFEREE_FAILING`] when arena's own failures
/// stopped the run, [`EXIT_INTERRUPTED`] when interrupted.
pub fn schedule_exit_status(outcome: &RunOutcome) -> i32 {
    if outcome.end == RunEnd::Interrupted {
        EXIT_INTERRUPTED
    } else if matches!(outcome.end, RunEnd::RefereeFailing(_)) {
        EXIT_REFEREE_FAILING
    } else if !outcome.failed.is_empty() {
        EXIT_GAMES_MISSING
    } else {
        0
    }
}

/// A new tournament from the flags (and file), or the resumed run.
fn start(args: Args) -> anyhow::Result<Start> {
    if let Some(dir) = args.resume {
        return Ok(Start::Resume {
            dir,
            concurrency: args.run.concurrency,
            rating_interval: args.rating_interval,
        });
    }
    let mut overrides = args
        .run
        .into_overrides(args.games, args.opening_plies, args.bots);
    overrides.shard = args.shard;
    overrides.gauntlet = args.gauntlet;
    overrides.rating_interval = args.rating_interval;
    let defaults = Defaults::from_environment();
    let config = match args.file {
        Some(file) => config::load(&file, &overrides, &defaults)?,
        None if !overrides.bots.is_empty() => {
            let config = config::from_overrides(&overrides, &defaults)?;
            config.check_files()?;
            config
        }
        None => {
            let file = bundled_file()?;
            println!("Using {}", file.display());
            config::load(&file, &overrides, &defaults)?
        }
    };
    Ok(Start::New(Box::new(Manifest::round_robin(config))))
}

/// `./arena.toml`, else the one in arena's source tree.
fn bundled_file() -> anyhow::Result<PathBuf> {
    let local = PathBuf::from(BUNDLED_FILE);
    if local.is_file() {
        return Ok(local);
    }
    let source_tree = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(BUNDLED_FILE);
    if source_tree.is_file() {
        return Ok(source_tree);
    }
    bail!(
        "no tournament file given and no {BUNDLED_FILE} here or at {}; \
         pass FILE or --bot NAME=COMMAND (twice or more)",
        source_tree.display()
    )
}
