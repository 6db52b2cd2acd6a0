//! `arena check-bot [OPTIONS] -- CMD ARGS...`: tells a bot author whether
//! their bot follows the protocol, in plain words for its author. Exit
//! status 0 only when the bot is compliant, 1 when it is not, 2 for usage
//! errors. This file parses the options and prints the games as they end,
//! the findings and the verdict; the work is in:
//!
//! - [`run`]: plays the bot against an in-process random mover on the
//!   requested variants (the tournament game runner, unchanged) and watches
//!   it around the games: handshake, an unknown message type, the quiet
//!   after `game_over`, `quit`. Produces [`Observations`].
//! - [`evaluate`]: turns observations into one finding per check, each with
//!   the referee messages that showed a problem.
//! - [`observations`]: what was seen of the bot, the data between the two.
//! - [`report`]: the findings as text, and the verdict.

pub mod evaluate;
pub mod observations;
pub mod report;
pub mod run;

pub use evaluate::evaluate;
pub use observations::{GameSeen, Observations, WireTail};
pub use report::{Check, Finding, Report, Status};
pub use run::{observe, CheckOptions};

use std::path::PathBuf;

use anyhow::{bail, Context};

use crate::games::Variant;
use crate::protocol::TimeControl;
use crate::referee::command_line::split_command_line;
use crate::referee::spec::DEFAULT_STARTUP_MS;
use crate::referee::{name_from_command, program_problem, BotLimits, BotSpec, DEFAULT_GRACE};
use crate::tournament::settings::defs::{DEFAULT_TIME_CONTROL, TIME_CONTROL};
use crate::tournament::settings::Value;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variants to play, comma separated (default: all; `arena games` lists them).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    pub variants: Vec<String>,
    /// Games per variant; the bot's colour alternates, white first.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub games: u32,
    /// Time control, written as `arena tournament --tc` takes it; check-bot
    /// plays a per-move limit: `per-move=MS`.
    #[arg(long, default_value = DEFAULT_TIME_CONTROL, value_name = "TC")]
    pub tc: String,
    /// Time the bot has from its start to its `ready`, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_STARTUP_MS, value_name = "MS")]
    pub startup_ms: u64,
    /// Seed of the random opponent (default: a fresh one, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Keep the bot's stderr of each game in this directory.
    #[arg(long, value_name = "DIR")]
    pub log_dir: Option<PathBuf>,
    /// Run the bot in the sandbox that `--sandbox` / `sandbox = true` gives
    /// it in tournaments, to see whether it works there.
    #[arg(long)]
    pub sandbox: bool,
    /// The bot's command line: after `--`, as separate words, or as one
    /// quoted string.
    #[arg(
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "CMD"
    )]
    pub command: Vec<String>,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            variants: Vec::new(),
            games: 2,
            tc: DEFAULT_TIME_CONTROL.into(),
            startup_ms: DEFAULT_STARTUP_MS,
            seed: None,
            log_dir: None,
            sandbox: false,
            command: Vec::new(),
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let options = options(&args)?;
    let mut spec = bot_spec(&args.command, args.startup_ms)?;
    // A bot that cannot start is the same one error as in every command,
    // before any game.
    if let Some(problem) = program_problem(&spec) {
        bail!(problem);
    }
    if args.sandbox {
        crate::referee::sandbox::check_available()?;
        spec.sandbox = Some(true);
    }
    let variant_ids: Vec<&str> = options.variants.iter().map(|v| v.id).collect();
    outln!("arena check-bot: {}", shell_line(&spec.command));
    outln!(
        "{} games: {} x {} (colours alternate, white first), {} ms per move (+{} ms grace), against an in-process random mover (seed {})",
        variant_ids.len() as u32 * options.games_per_variant,
        options.games_per_variant,
        variant_ids.join(", "),
        options.move_ms,
        options.grace.as_millis(),
        options.seed
    );
    if args.sandbox {
        outln!("{SANDBOX_NOTE}");
    }
    outln!();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let width = GameSeen::label_width(&variant_ids, options.games_per_variant);
    let mut print_game = |game: &GameSeen| outln!("  {}", game.summary_line(width));
    let (report, wire_tail) = runtime.block_on(check_bot(spec, &options, &mut print_game))?;
    if let Some(tail) = wire_tail.filter(|_| !report.is_compliant()) {
        print_wire_tail(&tail);
    }
    outln!();
    out!("{}", report.render());
    if args.sandbox && !report.is_compliant() {
        outln!("{SANDBOX_HINT}");
    }
    Ok(if report.is_compliant() { 0 } else { 1 })
}

/// The last lines of the wire trace before the bot's first failure.
fn print_wire_tail(tail: &WireTail) {
    outln!();
    if tail.lines.is_empty() {
        outln!(
            "Nothing was exchanged with the bot before it failed in {}.",
            tail.when
        );
        return;
    }
    outln!(
        "Last lines exchanged before the first failure ({}; ms since start, > arena to bot, < bot to arena, # arena's note):",
        tail.when
    );
    for line in &tail.lines {
        outln!("  {line}");
    }
}

const SANDBOX_NOTE: &str = "In the sandbox (bubblewrap): own PID namespace, file system read-only \
(its directory too), private /tmp, no network.";

const SANDBOX_HINT: &str = "If it works without --sandbox: inside the sandbox the bot's directory \
and HOME are read-only (list paths it must write under `writable = [...]` in its [[bot]] entry, \
or write to /tmp), /tmp starts empty, and there is no network (`network = true`). Its stderr \
above, or in --log-dir, says what failed.";

fn options(args: &Args) -> anyhow::Result<CheckOptions> {
    let variants = if args.variants.is_empty() {
        Variant::all().iter().collect()
    } else {
        args.variants
            .iter()
            .map(|id| {
                Variant::by_id(id.trim()).with_context(|| {
                    format!(
                        "--variants: unknown variant {id:?}; known: {}",
                        Variant::ids().join(", ")
                    )
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    };
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let move_ms = per_move_limit(&args.tc)?;
    if args.startup_ms == 0 {
        bail!("--startup-ms must be a positive number of milliseconds");
    }
    Ok(CheckOptions {
        variants,
        games_per_variant: args.games,
        move_ms,
        grace: DEFAULT_GRACE,
        seed: args.seed.unwrap_or_else(rand::random),
        log_dir: args.log_dir.clone(),
        hide: Vec::new(),
    })
}

/// The per-move limit of `--tc`, read as a tournament's time control (by
/// the `time_control` setting's own reader); a clock is refused, since the
/// checks judge each move against one limit.
fn per_move_limit(tc: &str) -> anyhow::Result<u64> {
    match TIME_CONTROL.kind.read_text(tc) {
        Ok(Value::TimeControl(TimeControl::PerMove { move_ms })) => Ok(move_ms),
        Ok(_) if tc.trim().parse::<f64>().is_ok() => bail!(
            "--tc: {tc:?} is a clock of {tc} seconds, as in a tournament; check-bot plays a per-move limit: for {tc} ms per move give per-move={tc}"
        ),
        Ok(_) => bail!(
            "--tc: {tc:?} is a clock (BASE+INC); check-bot plays a per-move limit: give per-move=MS"
        ),
        Err(message) => bail!("--tc: {message}"),
    }
}

/// The bot to check. One word with spaces in it is a whole command line
/// (`"python3 bot.py"`), split like a shell would.
fn bot_spec(command: &[String], startup_ms: u64) -> anyhow::Result<BotSpec> {
    let words = match command {
        [] => bail!("no bot command given; usage: arena check-bot [OPTIONS] -- CMD ARGS..."),
        [line] if line.contains(char::is_whitespace) => split_command_line(line)
            .with_context(|| format!("cannot split the command line {line:?}"))?,
        words => words.to_vec(),
    };
    if words.is_empty() || words[0].is_empty() {
        bail!("the bot command is empty");
    }
    let spec = BotSpec {
        name: name_from_command(&shell_line(&words)),
        command: words,
        shell: false,
        cwd: None,
        env: Default::default(),
        limits: BotLimits {
            startup_ms: Some(startup_ms),
            ..BotLimits::default()
        },
        sandbox: None,
        writable: Vec::new(),
        network: false,
        trace: false,
        time_control: None,
    };
    spec.check().map_err(|e| anyhow::anyhow!(e))?;
    Ok(spec)
}

/// Words joined into a command line that splits back into the same words.
fn shell_line(words: &[String]) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c);
    words
        .iter()
        .map(|w| {
            if !w.is_empty() && w.chars().all(safe) {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks the bot `spec`, traced; `on_game` hears about each game as it
/// ends. Returns the findings and the end of the wire trace where the bot
/// first failed.
pub async fn check_bot(
    mut spec: BotSpec,
    options: &CheckOptions,
    on_game: &mut (dyn FnMut(&GameSeen) + Send),
) -> anyhow::Result<(Report, Option<WireTail>)> {
    spec.trace = true;
    let observations = observe(spec, options, on_game).await?;
    Ok((evaluate(&observations), observations.wire_tail))
}

/// `arena check-bot --sandbox` on an upload (`arena serve --submissions`):
/// every variant, two games each, the default time control, the
/// directories `hide` (its league) shown empty but for its own, its
/// stderr of each game kept in `log_dir`. `None` when compliant, else why
/// not: its first failed check, with the first message that showed it.
pub fn check_upload(
    mut spec: BotSpec,
    hide: Vec<PathBuf>,
    log_dir: PathBuf,
) -> anyhow::Result<Option<String>> {
    if let Some(problem) = program_problem(&spec) {
        return Ok(Some(problem));
    }
    crate::referee::sandbox::check_available()?;
    spec.sandbox = Some(true);
    let mut options = options(&Args::default())?;
    options.hide = hide;
    options.log_dir = Some(log_dir);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let (report, _) = runtime.block_on(check_bot(spec, &options, &mut |_| {}))?;
    let failed = report.findings.iter().find(|f| f.status == Status::Fail);
    Ok(failed.map(|f| match f.evidence.first() {
        Some(first) => format!("{}: {} ({first})", f.check, f.summary),
        None => format!("{}: {}", f.check, f.summary),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_quoted_command_line_is_split_and_separate_words_are_kept() {
        let spec = bot_spec(&["python3 'my bot.py' --seed 3".into()], 5000).unwrap();
        assert_eq!(spec.command, ["python3", "my bot.py", "--seed", "3"]);
        assert_eq!(spec.name, "my bot");
        let spec = bot_spec(&["./engine".into(), "--depth".into(), "4".into()], 700).unwrap();
        assert_eq!(spec.command, ["./engine", "--depth", "4"]);
        assert_eq!(spec.limits.startup_ms, Some(700));
        let spec = bot_spec(&["python3".into(), "it's a bot.py".into()], 700).unwrap();
        assert_eq!(spec.name, "it's a bot");
        assert!(bot_spec(&[], 5000).is_err());
        assert!(bot_spec(&["python3 'oops".into()], 5000).is_err());
    }

    #[test]
    fn shell_lines_split_back_into_the_same_words() {
        let words: Vec<String> = ["python3", "my bot.py", "it's", "", "--x=1"]
            .map(String::from)
            .to_vec();
        let line = shell_line(&words);
        assert_eq!(line, r"python3 'my bot.py' 'it'\''s' '' --x=1");
        assert_eq!(split_command_line(&line).unwrap(), words);
    }

    #[test]
    fn options_reject_unknown_variants_and_zero_limits() {
        let args = |f: fn(&mut Args)| {
            let mut a = Args::default();
            f(&mut a);
            options(&a)
        };
        assert_eq!(args(|_| {}).unwrap().variants.len(), Variant::all().len());
        let picked = args(|a| a.variants = vec!["quinque".into(), "qango6".into()]).unwrap();
        let ids: Vec<&str> = picked.variants.iter().map(|v| v.id).collect();
        assert_eq!(ids, ["quinque", "qango6"]);
        let err = args(|a| a.variants = vec!["qango9".into()])
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("unknown variant \"qango9\""), "{err}");
        assert!(args(|a| a.games = 0).is_err());
        assert_eq!(args(|_| {}).unwrap().move_ms, 1000);
        assert_eq!(args(|a| a.tc = "per-move=250".into()).unwrap().move_ms, 250);
        let tc_error = |tc: &str| {
            let a = Args {
                tc: tc.to_string(),
                ..Args::default()
            };
            options(&a).err().unwrap().to_string()
        };
        assert_eq!(
            tc_error("500"),
            "--tc: \"500\" is a clock of 500 seconds, as in a tournament; check-bot plays a per-move limit: for 500 ms per move give per-move=500"
        );
        assert!(tc_error("10+0.1").contains("is a clock (BASE+INC)"));
        assert!(tc_error("per-move=0").starts_with("--tc: time control"));
        assert!(tc_error("fast").starts_with("--tc: time control \"fast\""));
    }
}
