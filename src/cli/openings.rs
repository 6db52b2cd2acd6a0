//! `arena openings`: writes an opening suite (see `tournament::suite_gen`)
//! with a header that records the command that made it.

use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::games::Variant;
use crate::referee::parse_time_control;
use crate::tournament::openings::suite_line;
use crate::tournament::suite_gen::{generate, Balance, SuiteSettings};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant id (`arena games` lists them).
    #[arg(long)]
    pub variant: String,
    /// Moves per opening.
    #[arg(long, default_value_t = 4)]
    pub plies: u32,
    /// Openings in the suite.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Seed of the candidate openings: the same flags give the same suite.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file [default: standard output].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Keep only openings whose self-play games of the engine score inside
    /// the band for white.
    #[arg(long)]
    pub balanced: bool,
    /// Engine for --balanced; `{seed}` is replaced per game and side
    /// [default: arena-engine next to arena, `--depth 3 --seed {seed}`].
    #[arg(long)]
    pub engine: Option<String>,
    /// Self-play games per candidate with --balanced.
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Band of white's score with --balanced, in percent: LOW-HIGH.
    #[arg(long, default_value = "35-65")]
    pub band: String,
    /// Time control of the self-play games.
    #[arg(long, default_value = "per-move=2000")]
    pub tc: String,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let variant = Variant::by_id(&args.variant).with_context(|| {
        format!(
            "--variant: unknown variant {:?}; known: {}",
            args.variant,
            Variant::ids().join(", ")
        )
    })?;
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let settings = SuiteSettings {
        variant,
        plies: args.plies,
        count: args.count,
        seed: args.seed,
    };
    let balance = match args.balanced {
        true => Some(balance(&args)?),
        false => None,
    };
    let started = std::time::Instant::now();
    let generated = match &balance {
        None => generate(&settings, |_| Ok(true))?,
        Some(balance) => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("cannot start the async runtime")?;
            generate(&settings, |opening| {
                let score = runtime.block_on(balance.white_score(variant, opening))?;
                Ok(balance.accepts(score))
            })?
        }
    };
    let command: Vec<String> = std::iter::once("arena".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    let mut text = format!(
        "# {} opening suite: {} openings of {} plies, distinct up to the board's symmetries{}.\n# Made by: {}\n",
        variant.id,
        generated.openings.len(),
        args.plies,
        balance.as_ref().map_or(String::new(), |b| format!(
            ", each scoring {:.0}-{:.0}% for white in {} self-play games of `{}`",
            b.low * 100.0,
            b.high * 100.0,
            b.games,
            b.engine
        )),
        command.join(" ")
    );
    for opening in &generated.openings {
        text.push_str(&suite_line(opening));
        text.push('\n');
    }
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => out!("{text}"),
    }
    eprintln!(
        "{} openings from {} candidates ({} repeats up to symmetry, {} outside the band) in {:.1} s",
        generated.openings.len(),
        generated.candidates,
        generated.duplicates,
        generated.unbalanced,
        started.elapsed().as_secs_f64()
    );
    Ok(0)
}

fn balance(args: &Args) -> anyhow::Result<Balance> {
    let (low, high) = args
        .band
        .split_once('-')
        .and_then(|(l, h)| Some((l.trim().parse::<f64>().ok()?, h.trim().parse::<f64>().ok()?)))
        .filter(|&(l, h)| (0.0..=h).contains(&l) && h <= 100.0)
        .with_context(|| {
            format!(
                "--band {:?}: expected LOW-HIGH in percent, e.g. 35-65",
                args.band
            )
        })?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let engine = match &args.engine {
        Some(engine) => engine.clone(),
        None => default_engine()?,
    };
    Ok(Balance {
        engine,
        games: args.games,
        low: low / 100.0,
        high: high / 100.0,
        time_control: parse_time_control(&args.tc).context("--tc")?,
    })
}

/// `arena-engine` built next to this executable (cargo puts the workspace's
/// binaries in one directory).
fn default_engine() -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("cannot locate the arena executable")?;
    let engine = exe.with_file_name("arena-engine");
    if !engine.is_file() {
        bail!(
            "--balanced: no arena-engine next to {} (build it with `cargo build --release -p arena-engine`, or give --engine)",
            exe.display()
        );
    }
    Ok(format!("{} --depth 3 --seed {{seed}}", engine.display()))
}
