//! `arena play VARIANT WHITE BLACK`: one game, shown move by move.
//!
//! A player is a command line (`"python3 bots/python/greedy_bot.py"`, split
//! like a shell would), the name of a bot in `--bots FILE`, or `human` for a
//! person at this terminal. The board is drawn after each move (before each
//! of the person's moves when one plays), then the result and its reason.
//! `--record FILE` writes the game record (JSON) that `arena judge` replays.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};

use crate::cli::games::ColorChoice;
use crate::games::Variant;
use crate::referee::{
    format_time_control, parse_time_control, play_game, read_bots_file, BotSpec, GameConfig,
    GameEvent, GameRecord, Human, Player, Seat, SpawnOptions, DEFAULT_GRACE,
};

/// The player argument that means a person at the terminal.
pub const HUMAN: &str = "human";

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Variant id (`arena games` lists them).
    pub variant: String,
    /// White: a command line, a bot name from --bots, or `human`.
    pub white: String,
    /// Black: a command line, a bot name from --bots, or `human`.
    pub black: String,
    /// Time control: `per-move=MS` or `BASE+INC` in seconds (e.g. 10+0.1).
    /// Default: per-move=1000.
    #[arg(long)]
    pub tc: Option<String>,
    /// TOML file with `[[bot]]` entries (name, command, ...) to pick bots by name.
    #[arg(long)]
    pub bots: Option<PathBuf>,
    /// Write the game record (JSON) to this file.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Forced opening moves, space separated (e.g. "c3 d4"), or separated
    /// by `;` for moves of several words ("place c3;double c3").
    #[arg(long)]
    pub opening: Option<String>,
    /// Directory for the bots' stderr logs of this game.
    #[arg(long)]
    pub log_dir: Option<PathBuf>,
    /// Write each bot's wire trace (every line both ways, with direction
    /// and ms since arena started) into this directory, next to its stderr
    /// log (in `--log-dir` when that is given; the logs go here otherwise).
    #[arg(long, value_name = "DIR")]
    pub trace: Option<PathBuf>,
    /// Allowance beyond each move's limit before a timeout, in ms.
    #[arg(long, default_value_t = DEFAULT_GRACE.as_millis() as u64)]
    pub grace_ms: u64,
    /// Print only the moves and the result, no boards.
    #[arg(long)]
    pub quiet: bool,
    /// Run the bots in the sandbox (bubblewrap; see README "Running
    /// untrusted bots").
    #[arg(long)]
    pub sandbox: bool,
    /// Colours: auto (when stdout is a terminal), always or never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

enum Participant {
    Bot(Box<Seat>),
    Human(Human),
}

impl Participant {
    fn player(&mut self) -> Player<'_> {
        match self {
            Participant::Bot(seat) => Player::Bot(seat),
            Participant::Human(human) => Player::Human(human),
        }
    }

    async fn shutdown(&mut self) {
        if let Participant::Bot(seat) = self {
            seat.shutdown().await;
        }
    }
}

pub fn run(mut args: Args) -> anyhow::Result<i32> {
    if args.log_dir.is_none() {
        args.log_dir = args.trace.clone();
    }
    let variant = Variant::by_id(&args.variant).with_context(|| {
        format!(
            "unknown variant {:?}; known: {}",
            args.variant,
            Variant::ids().join(", ")
        )
    })?;
    let time_control = parse_time_control(args.tc.as_deref().unwrap_or("per-move=1000"))?;
    let bots = match &args.bots {
        Some(path) => read_bots_file(path)?,
        None => Vec::new(),
    };
    let ansi = args.color.enabled();
    let mut white = participant(&args.white, &bots, ansi)?;
    let mut black = participant(&args.black, &bots, ansi)?;
    if let (Participant::Bot(w), Participant::Bot(b)) = (&white, &mut black) {
        if w.name() == b.name() {
            let mut spec = b.spec().clone();
            spec.name.push_str("-2");
            **b = Seat::new(spec, SpawnOptions::default());
        }
    }
    if args.sandbox || args.log_dir.is_some() || args.trace.is_some() {
        sandbox_seats([&mut white, &mut black], &args);
    }
    let mut config = GameConfig::new("play", variant, time_control);
    config.grace = Duration::from_millis(args.grace_ms);
    // A bot from the bots file may have its own time control (time odds).
    for (side, participant) in [&white, &black].into_iter().enumerate() {
        if let Participant::Bot(seat) = participant {
            config.own_time_controls[side] = seat.spec().time_control;
        }
    }
    config.log_dir = args.log_dir.clone();
    config.opening = args
        .opening
        .as_deref()
        .map(opening_moves)
        .unwrap_or_default();
    let someone_human =
        matches!(white, Participant::Human(_)) || matches!(black, Participant::Human(_));
    let draw_boards = !args.quiet && !someone_human;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let outcome = runtime.block_on(async {
        println!(
            "{} | white: {} | black: {} | {}",
            variant.id,
            name_of(&white),
            name_of(&black),
            format_time_control(&time_control)
        );
        let mut observer = |event: GameEvent<'_>| match event {
            GameEvent::Started { position } => {
                if draw_boards {
                    println!("{}", position.render(ansi));
                }
            }
            GameEvent::Moved {
                position,
                color,
                notation,
                time_ms,
            } => {
                println!("{:>3}. {color} {notation}  ({time_ms} ms)", position.ply());
                if draw_boards {
                    println!("{}", position.render(ansi));
                }
            }
        };
        let game = play_game(white.player(), black.player(), &config, &mut observer);
        // Bots run in their own process groups, so a Ctrl-C at the terminal
        // reaches only arena: stop the game, and dropping the seats kills them.
        let result = tokio::select! {
            r = game => Some(r),
            _ = interrupted() => None,
        };
        white.shutdown().await;
        black.shutdown().await;
        result
    });
    // A person's pending terminal read must not hold up the exit.
    runtime.shutdown_background();
    let Some(record) = outcome else {
        eprintln!("arena: interrupted; bots stopped");
        return Ok(130);
    };
    let record = record?;
    // Boards are drawn after every move between bots; with a person they
    // are drawn before the person's moves, so the final one is still due.
    if someone_human && !args.quiet {
        if let Some(position) = final_position(variant, &record) {
            println!("{}", position.render(ansi));
        }
        if !record.cells.is_empty() {
            println!("winning cells: {}", record.cells.join(" "));
        }
    }
    println!(
        "result {}  reason {}",
        record.result.as_str(),
        record.reason
    );
    println!("{}", record.message);
    if let Some(path) = &args.record {
        write_record(path, &record)?;
    }
    Ok(0)
}

/// The moves of `--opening`: `;`-separated when it has a `;` (Quinque
/// moves have spaces), else space-separated.
fn opening_moves(text: &str) -> Vec<String> {
    if text.contains(';') {
        text.split(';')
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect()
    } else {
        text.split_whitespace().map(String::from).collect()
    }
}

/// Resolves a player argument: `human`, a bot name from the bots file, or
/// a command line.
fn participant(arg: &str, bots: &[BotSpec], ansi: bool) -> anyhow::Result<Participant> {
    if arg == HUMAN {
        // The person at this process's terminal: the referee asks through
        // whatever reader and writer it is given.
        let human = Human::new(
            HUMAN,
            ansi,
            Box::new(tokio::io::stdin()),
            Box::new(std::io::stdout()),
        );
        return Ok(Participant::Human(human));
    }
    if let Some(spec) = bots.iter().find(|b| b.name == arg) {
        let seat = Seat::new(spec.clone(), SpawnOptions::default());
        return Ok(Participant::Bot(Box::new(seat)));
    }
    let spec = BotSpec::from_command_line(&name_from_command(arg), arg)?;
    if !bots.is_empty() && spec.command.len() == 1 && !spec.command[0].contains('/') {
        let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        bail!(
            "{arg:?} is not a bot in the bots file (it has: {})",
            names.join(", ")
        );
    }
    Ok(Participant::Bot(Box::new(Seat::new(
        spec,
        SpawnOptions::default(),
    ))))
}

/// With `--sandbox`, the bots run in the sandbox; a sandboxed bot never
/// sees `--log-dir`.
fn sandbox_seats(participants: [&mut Participant; 2], args: &Args) {
    let options = SpawnOptions {
        sandbox_hide: args.log_dir.iter().cloned().collect(),
        ..SpawnOptions::default()
    };
    for participant in participants {
        if let Participant::Bot(seat) = participant {
            let mut spec = seat.spec().clone();
            if args.sandbox {
                spec.sandbox = Some(true);
            }
            spec.trace |= args.trace.is_some();
            **seat = Seat::new(spec, options.clone());
        }
    }
}

/// A display name for a command line: the stem of the script or program
/// (`python3 bots/python/greedy_bot.py --seed 3` is `greedy_bot`).
pub fn name_from_command(line: &str) -> String {
    const INTERPRETERS: &[&str] = &[
        "python", "python3", "node", "nodejs", "ruby", "perl", "sh", "bash", "java", "pypy3",
        "deno", "bun",
    ];
    let words = crate::referee::command_line::split_command_line(line).unwrap_or_default();
    let mut chosen = words.first().map(String::as_str).unwrap_or("bot");
    let program = Path::new(chosen)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(chosen);
    if INTERPRETERS.contains(&program) {
        if let Some(script) = words.iter().skip(1).find(|w| !w.starts_with('-')) {
            chosen = script;
        }
    }
    Path::new(chosen)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("bot")
        .to_string()
}

fn name_of(p: &Participant) -> &str {
    match p {
        Participant::Bot(seat) => seat.name(),
        Participant::Human(human) => human.name(),
    }
}

fn final_position(
    variant: &'static Variant,
    record: &GameRecord,
) -> Option<crate::games::Position> {
    let mut pos = crate::games::Position::new(variant);
    for m in &record.moves {
        pos.play_str(m).ok()?;
    }
    Some(pos)
}

fn write_record(path: &Path, record: &GameRecord) -> anyhow::Result<()> {
    let mut json = serde_json::to_string_pretty(record).context("cannot encode the game record")?;
    json.push('\n');
    std::fs::write(path, json)
        .with_context(|| format!("cannot write game record {}", path.display()))
}

/// Resolves on Ctrl-C or SIGTERM.
async fn interrupted() {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        let _ = tokio::signal::ctrl_c().await;
        return;
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_script_or_program() {
        assert_eq!(
            name_from_command("python3 bots/python/greedy_bot.py --seed 3"),
            "greedy_bot"
        );
        assert_eq!(name_from_command("python3 -u bots/x.py"), "x");
        assert_eq!(
            name_from_command("./target/release/engine --depth 4"),
            "engine"
        );
        assert_eq!(name_from_command("/usr/bin/node 'my bot.js'"), "my bot");
        assert_eq!(name_from_command("python3"), "python3");
    }

    #[test]
    fn players_resolve_to_human_named_bots_or_command_lines() {
        let bots = vec![BotSpec::from_command_line("greedy", "python3 g.py").unwrap()];
        assert!(matches!(
            participant("human", &bots, false).unwrap(),
            Participant::Human(_)
        ));
        match participant("greedy", &bots, false).unwrap() {
            Participant::Bot(seat) => assert_eq!(seat.spec().command, ["python3", "g.py"]),
            Participant::Human(_) => panic!("expected a bot"),
        }
        match participant("python3 'my bot.py'", &bots, false).unwrap() {
            Participant::Bot(seat) => {
                assert_eq!(seat.name(), "my bot");
                assert_eq!(seat.spec().command, ["python3", "my bot.py"]);
            }
            Participant::Human(_) => panic!("expected a bot"),
        }
        let err = participant("greedyy", &bots, false)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("greedyy") && err.contains("greedy"), "{err}");
        assert!(participant("python3 'oops", &[], false).is_err());
    }
}
