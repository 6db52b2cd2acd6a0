//! `arena sprt BOT_A BOT_B --elo0 E0 --elo1 E1 [...] | --resume DIR`: game
//! pairs between two bots until the pentanomial SPRT decides whether A is
//! stronger than B by `elo1` (H1) or at most `elo0` (H0).

use std::net::Ipv4Addr;
use std::path::PathBuf;

use anyhow::{anyhow, bail};

use crate::cli::output::Terminal;
use crate::cli::serve::Live;
use crate::cli::setting_flags::{self, resume_help, SettingFlags};
use crate::cli::tournament::{self, show_progress};
use crate::referee::{read_bots_file, resolve_player};
use crate::tournament::config::Defaults;
use crate::tournament::driver::{self, Start};
use crate::tournament::settings::from_given;
use crate::tournament::settings::Command;
/// The SPRT's exit statuses, its format's ([`crate::tournament::sprt`]).
pub use crate::tournament::sprt::{EXIT_H0, EXIT_H1, EXIT_UNDECIDED};

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "A bot is NAME=COMMAND, the name of a [[bot]] in --bots FILE, or a \
command line (named after its program or script).\n\nEach pair plays one seeded random \
opening twice with colours swapped; the LLR is printed after each pair. Exit status: 0 \
when H1 is accepted (A is stronger by at least elo1), 1 when H0 is accepted, 3 when \
--max-pairs came first, 130 when interrupted (Ctrl-C finishes the games being played, a \
second Ctrl-C or SIGTERM stops at once; continue with --resume DIR), 2 on errors.\n\n\
Games are journaled like a tournament's: games.csv, games.jsonl, logs/, standings.csv. \
Every setting: docs/SETTINGS.md."
)]
pub struct Args {
    /// Bot A, the one being tested (e.g. a new version).
    #[arg(required_unless_present = "resume")]
    pub bot_a: Option<String>,
    /// Bot B, the reference.
    #[arg(required_unless_present = "resume")]
    pub bot_b: Option<String>,
    /// TOML file with `[[bot]]` entries to pick bots by name.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub bots: Option<PathBuf>,
    #[command(flatten)]
    pub settings: SettingFlags<setting_flags::Sprt>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Serve the run's live page (as `arena serve DIR`) on this port of
    /// 127.0.0.1 while it plays; 0 picks a free port (the first line says which).
    #[arg(long, value_name = "PORT")]
    pub serve: Option<u16>,
    #[arg(long, value_name = "DIR", conflicts_with_all = ["bot_a", "bot_b"], help = resume_help(Command::Sprt, "SPRT"))]
    pub resume: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut terminal = Terminal::new(show_progress(args.no_progress));
    if let Some(port) = args.serve {
        terminal.serve_on(Live::bind(Ipv4Addr::LOCALHOST.into(), port)?);
    }
    let start = start(args)?;
    let finished = driver::run(start, &mut terminal)?;
    tournament::end(&mut terminal, &finished)
}

/// A new SPRT from the flags, or the resumed run (of whatever format, as
/// `arena tournament --resume`).
fn start(args: Args) -> anyhow::Result<Start> {
    let given = args.settings.given;
    if let Some(dir) = args.resume {
        return Ok(Start::Resume { dir, given });
    }
    let (Some(a), Some(b)) = (&args.bot_a, &args.bot_b) else {
        bail!("usage: arena sprt BOT_A BOT_B --elo0 E0 --elo1 E1 (or --resume DIR)");
    };
    let known = match &args.bots {
        Some(path) => read_bots_file(path)?,
        None => Vec::new(),
    };
    let mut bot_a = resolve_player(a, &known).map_err(|e| anyhow!("BOT_A: {e}"))?;
    let mut bot_b = resolve_player(b, &known).map_err(|e| anyhow!("BOT_B: {e}"))?;
    if bot_a.name == bot_b.name {
        bot_a.name.push_str("-a");
        bot_b.name.push_str("-b");
    }
    let defaults = Defaults::from_environment();
    let run = from_given(Command::Sprt, &given, &defaults, vec![bot_a, bot_b])?;
    run.config.check_programs()?;
    Ok(Start::New(Box::new(run.manifest())))
}
