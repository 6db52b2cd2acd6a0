//! `arena tournament [FILE] [flags] | --resume DIR`: a round-robin
//! tournament between bots, journaled so that it survives crashes.
//!
//! Without FILE and without `--bot`, the bundled `arena.toml` is used (the
//! one in the current directory, else the one at the root of arena's
//! source tree), so `arena` alone runs the bundled bots against each other.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::bail;

use crate::tournament::config::{self, Defaults, Overrides};
use crate::tournament::round_robin::{self, Start};

/// Name of the bundled tournament file.
pub const BUNDLED_FILE: &str = "arena.toml";

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "Files written to the output directory: tournament.json (settings and \
seed; every game is computed from them), games.csv and games.jsonl (appended as games end), logs/ (bot stderr per game), \
standings.csv, pairwise.csv and model.csv (at the end, and on Ctrl-C).\n\nCtrl-C stops \
cleanly; `arena tournament --resume DIR` continues where it stopped, also after a crash."
)]
pub struct Args {
    /// Tournament file (TOML) with `[tournament]` settings and `[[bot]]` entries.
    /// Default: the bundled arena.toml, unless --bot is given.
    pub file: Option<PathBuf>,
    /// Variant id (`arena games` lists them).
    #[arg(long)]
    pub variant: Option<String>,
    /// Games between each two bots (even: pairs with colours swapped).
    #[arg(long)]
    pub games: Option<u32>,
    /// Time control: `per-move=MS` or `BASE+INC` in seconds (e.g. 10+0.1).
    #[arg(long)]
    pub tc: Option<String>,
    /// Games played at the same time [default: number of cores].
    #[arg(short = 'j', long)]
    pub concurrency: Option<usize>,
    /// Seed for the openings [default: random, recorded in tournament.json].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output directory [default: arena-out/UTC-TIMESTAMP].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Random legal opening plies, shared by both games of a pair.
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// Allowance beyond each move's limit before a timeout, in ms [default: 100].
    #[arg(long)]
    pub grace_ms: Option<u64>,
    /// A bot as NAME=COMMAND (repeatable); replaces the file's bot of that name.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bots: Vec<String>,
    /// Continue the tournament in DIR (only -j may change).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "file", "variant", "games", "tc", "seed", "out", "opening_plies", "bots", "grace_ms"
    ])]
    pub resume: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let show_progress = !args.no_progress && std::io::stderr().is_terminal();
    if let Some(dir) = args.resume {
        let start = Start::Resume {
            dir,
            concurrency: args.concurrency,
        };
        return round_robin::run(start, show_progress);
    }
    let overrides = Overrides {
        variant: args.variant,
        games_per_pairing: args.games,
        time_control: args.tc,
        concurrency: args.concurrency,
        seed: args.seed,
        out: args.out,
        grace_ms: args.grace_ms,
        opening_plies: args.opening_plies,
        bots: args.bots,
    };
    let defaults = Defaults::from_environment();
    let config = match args.file {
        Some(file) => config::load(&file, &overrides, &defaults)?,
        None if !overrides.bots.is_empty() => config::from_overrides(&overrides, &defaults)?,
        None => {
            let file = bundled_file()?;
            println!("Using {}", file.display());
            config::load(&file, &overrides, &defaults)?
        }
    };
    round_robin::run(Start::New(config), show_progress)
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
