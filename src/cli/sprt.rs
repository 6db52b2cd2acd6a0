//! `arena sprt BOT_A BOT_B --elo0 E0 --elo1 E1 [...] | --resume DIR`: game
//! pairs between two bots until the pentanomial SPRT decides whether A is
//! stronger than B by `elo1` (H1) or at most `elo0` (H0). The run is the
//! driver's like any other; `--resume DIR` is `arena tournament --resume
//! DIR` under another name.

use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::cli::output::Terminal;
use crate::cli::play::name_from_command;
use crate::cli::run_flags::RunFlags;
use crate::cli::tournament::{self, EXIT_INTERRUPTED, EXIT_REFEREE_FAILING};
use crate::referee::{read_bots_file, BotSpec};
use crate::stats::EloModel;
use crate::stats::SprtDecision;
use crate::tournament::config::{self, Defaults};
use crate::tournament::driver::{self, Start};
use crate::tournament::manifest::{Manifest, Plan, SprtPlan};
use crate::tournament::progress::RunOutcome;
use crate::tournament::runner::RunEnd;
use crate::tournament::sprt::SprtVerdict;

#[derive(Debug, Default, clap::Args)]
#[command(
    after_help = "A bot is NAME=COMMAND, the name of a [[bot]] in --bots FILE, or a \
command line (named after its program or script).\n\nEach pair plays one seeded random \
opening twice with colours swapped; the LLR is printed after each pair. Exit status: 0 \
when H1 is accepted (A is stronger by at least elo1), 1 when H0 is accepted, 3 when \
--max-pairs came first, 130 when interrupted (continue with --resume DIR), 2 on errors.\n\n\
Games are journaled like a tournament's: games.csv, games.jsonl, logs/, standings.csv."
)]
pub struct Args {
    /// Bot A, the one being tested (e.g. a new version).
    #[arg(required_unless_present = "resume")]
    pub bot_a: Option<String>,
    /// Bot B, the reference.
    #[arg(required_unless_present = "resume")]
    pub bot_b: Option<String>,
    /// Elo difference (A minus B) under H0.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "resume")]
    pub elo0: Option<f64>,
    /// Elo difference under H1; must exceed elo0.
    #[arg(long, allow_hyphen_values = true, required_unless_present = "resume")]
    pub elo1: Option<f64>,
    /// Scale of elo0 and elo1: `normalized` (nElo, as fastchess and fishtest
    /// default to) or `logistic` (the usual Elo).
    #[arg(long, value_name = "MODEL", default_value = "normalized")]
    pub model: EloModel,
    /// Probability of accepting H1 when H0 holds [default: 0.05].
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Probability of accepting H0 when H1 holds [default: 0.05].
    #[arg(long)]
    pub beta: Option<f64>,
    /// Stop undecided after this many game pairs.
    #[arg(long)]
    pub max_pairs: Option<u64>,
    /// Random legal opening plies per pair [default: 2].
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// TOML file with `[[bot]]` entries to pick bots by name.
    #[arg(long)]
    pub bots: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunFlags,
    /// Continue the SPRT in DIR (only -j may change).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "bot_a", "bot_b", "variant", "elo0", "elo1", "tc", "max_pairs", "seed",
        "opening_plies", "out", "bots", "grace_ms", "alpha", "beta", "model"
    ])]
    pub resume: Option<PathBuf>,
}

/// alpha and beta when not given, as fastchess uses them.
const DEFAULT_ERROR_RATE: f64 = 0.05;

/// Opening plies when none are given: enough that pairs differ.
const DEFAULT_OPENING_PLIES: u32 = 2;

/// Exit status when H1 is accepted (A is stronger by at least `elo1`).
pub const EXIT_H1: i32 = 0;
/// Exit status when H0 is accepted.
pub const EXIT_H0: i32 = 1;
/// Exit status when the pair limit came first.
pub const EXIT_UNDECIDED: i32 = 3;

pub fn run(args: Args) -> anyhow::Result<i32> {
    let mut terminal = Terminal::new(args.run.show_progress());
    let start = start(args)?;
    let finished = driver::run(start, &mut terminal)?;
    tournament::end(&mut terminal, &finished)
}

/// [`EXIT_H1`], [`EXIT_H0`], [`EXIT_UNDECIDED`], or [`EXIT_INTERRUPTED`]
/// when interrupted undecided, [`EXIT_REFEREE_FAILING`] when arena's own
/// failures stopped it undecided.
pub fn exit_status(run: &RunOutcome, verdict: &SprtVerdict) -> i32 {
    match verdict.progress.status.decision {
        SprtDecision::AcceptH1 => EXIT_H1,
        SprtDecision::AcceptH0 => EXIT_H0,
        SprtDecision::Continue if run.end == RunEnd::Interrupted => EXIT_INTERRUPTED,
        SprtDecision::Continue if matches!(run.end, RunEnd::RefereeFailing(_)) => {
            EXIT_REFEREE_FAILING
        }
        SprtDecision::Continue => EXIT_UNDECIDED,
    }
}

/// A new SPRT from the flags, or the resumed run (of whatever format, as
/// `arena tournament --resume`).
fn start(args: Args) -> anyhow::Result<Start> {
    if let Some(dir) = args.resume {
        return Ok(Start::Resume {
            dir,
            concurrency: args.run.concurrency,
            rating_interval: None,
        });
    }
    let (Some(a), Some(b), Some(elo0), Some(elo1)) =
        (&args.bot_a, &args.bot_b, args.elo0, args.elo1)
    else {
        bail!("usage: arena sprt BOT_A BOT_B --elo0 E0 --elo1 E1 (or --resume DIR)");
    };
    if args.max_pairs == Some(0) {
        bail!("--max-pairs must be at least 1");
    }
    let known = match &args.bots {
        Some(path) => read_bots_file(path)?,
        None => Vec::new(),
    };
    let mut bot_a = resolve_bot(a, &known).context("BOT_A")?;
    let mut bot_b = resolve_bot(b, &known).context("BOT_B")?;
    if bot_a.name == bot_b.name {
        bot_a.name.push_str("-a");
        bot_b.name.push_str("-b");
    }
    // A suite replaces the random openings, so their default does not apply.
    let opening_plies = match args.run.openings {
        Some(_) => args.opening_plies,
        None => Some(args.opening_plies.unwrap_or(DEFAULT_OPENING_PLIES)),
    };
    let overrides = args.run.into_overrides(None, opening_plies, Vec::new());
    let defaults = Defaults::from_environment();
    let mut config = config::from_overrides_with_bots(&overrides, &defaults, vec![bot_a, bot_b])?;
    config.check_files()?;
    config.games_per_pairing = 2;
    let plan = SprtPlan {
        elo0,
        elo1,
        alpha: args.alpha.unwrap_or(DEFAULT_ERROR_RATE),
        beta: args.beta.unwrap_or(DEFAULT_ERROR_RATE),
        max_pairs: args.max_pairs,
        model: args.model,
    };
    Ok(Start::New(Box::new(Manifest::new(
        config,
        Plan::Sprt(plan),
    ))))
}

/// `NAME=COMMAND`, a bot of the bots file, or a command line.
fn resolve_bot(arg: &str, known: &[BotSpec]) -> anyhow::Result<BotSpec> {
    if let Some(spec) = known.iter().find(|b| b.name == arg) {
        return Ok(spec.clone());
    }
    if let Some((name, _)) = arg.split_once('=') {
        if !name.is_empty() && !name.contains(char::is_whitespace) {
            return config::parse_bot_flag(arg);
        }
    }
    let spec = BotSpec::from_command_line(&name_from_command(arg), arg)?;
    spec.validate()?;
    Ok(spec)
}
