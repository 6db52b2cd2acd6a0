//! `arena play VARIANT WHITE BLACK`: one game, shown move by move.
//!
//! A player is a command line (`"python3 bots/python/greedy_bot.py"`, split
//! like a shell would), the name of a bot in `--bots FILE`, or `human` for a
//! person at this terminal. The board is drawn after each move (before each
//! of the person's moves when one plays), then the result and its reason.
//! `--record FILE` writes the game record (JSON) that `arena judge` replays.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};

use crate::cli::games::ColorChoice;
use crate::cli::setting_flags::{self, SettingFlags};
use crate::games::Variant;
use crate::protocol::{ClockBasis, TimeControl};
use crate::referee::{
    format_time_control, play_game, program_problem, read_bots_file, resolve_player, BotSpec,
    GameConfig, GameEvent, GameRecord, Human, Participant, Seat, SpawnOptions,
};
use crate::tournament::config::Defaults;
use crate::tournament::settings::resolve::flag_values;
use crate::tournament::settings::{Command, Given};

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
    /// Directory for the bots' stderr logs of this game (default: a new
    /// directory under the system's temporary directory, named at the end
    /// when a bot wrote to stderr, removed when none did).
    #[arg(long)]
    pub log_dir: Option<PathBuf>,
    /// Write each bot's wire trace (every line both ways, with direction
    /// and ms since arena started) into this directory, next to its stderr
    /// log (in `--log-dir` when that is given; the logs go here otherwise).
    #[arg(long, value_name = "DIR")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub settings: SettingFlags<setting_flags::Play>,
    /// Print only the moves and the result, no boards.
    #[arg(long)]
    pub quiet: bool,
    /// Colours: auto (when stdout is a terminal), always or never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

/// The settings of one game: the flags `--tc`, `--grace-ms`, `--clock`,
/// `--wall-cap`, `--sandbox` and `--suspend-idle`, read by their
/// definitions like a tournament's.
struct PlaySettings {
    time_control: TimeControl,
    grace: Duration,
    clock: ClockBasis,
    wall_cap: u32,
    sandbox: bool,
    suspend_idle: bool,
}

impl PlaySettings {
    fn from(given: &Given) -> anyhow::Result<PlaySettings> {
        let v = flag_values(Command::Play, given, &Defaults::from_environment())?;
        Ok(PlaySettings {
            time_control: v.time_control.value.expect("time_control has a default"),
            grace: Duration::from_millis(v.grace_ms.value),
            clock: ClockBasis::from_word(v.clock.value).unwrap_or_default(),
            wall_cap: v.wall_cap.value as u32,
            sandbox: v.sandbox.value,
            suspend_idle: v.suspend_idle.value,
        })
    }
}

pub fn run(mut args: Args) -> anyhow::Result<i32> {
    if args.log_dir.is_none() {
        args.log_dir = args.trace.clone();
    }
    let logs = StderrLogs::choose(&mut args.log_dir)?;
    let status = play_and_show(&args);
    logs.tell();
    status
}

/// Where the bots' stderr of this game goes: `--log-dir` (or `--trace`)
/// when given, else a fresh directory under the system's temporary
/// directory, so that what a bot says on stderr is never lost.
struct StderrLogs {
    dir: PathBuf,
    /// The directory is arena's own: removed when no bot wrote to it.
    own: bool,
    /// Logs older than this are another game's (a reused `--log-dir`).
    since: std::time::SystemTime,
}

impl StderrLogs {
    fn choose(log_dir: &mut Option<PathBuf>) -> anyhow::Result<StderrLogs> {
        // File times may be coarser than the clock: a second's margin.
        let since = std::time::SystemTime::now() - Duration::from_secs(1);
        if let Some(dir) = log_dir {
            return Ok(StderrLogs {
                dir: dir.clone(),
                own: false,
                since,
            });
        }
        let dir = std::env::temp_dir().join(format!(
            "arena-play-{}-{}",
            crate::files::utc_timestamp(std::time::SystemTime::now()),
            std::process::id()
        ));
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create the log directory {}", dir.display()))?;
        *log_dir = Some(dir.clone());
        Ok(StderrLogs {
            dir,
            own: true,
            since,
        })
    }

    /// Names the logs the bots wrote (on stderr, beside the game's output),
    /// or removes arena's own directory when they wrote none.
    fn tell(&self) {
        let dir = &self.dir;
        let mut logs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .filter(|e| {
                        e.metadata()
                            .and_then(|m| m.modified())
                            .is_ok_and(|t| t >= self.since)
                    })
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "log"))
                    .collect()
            })
            .unwrap_or_default();
        logs.sort();
        if logs.is_empty() {
            if self.own {
                let _ = std::fs::remove_dir(dir);
            }
            return;
        }
        for log in logs {
            eprintln!("arena: a bot's stderr: {}", log.display());
        }
    }
}

/// The game, shown move by move, then its result; the exit status.
fn play_and_show(args: &Args) -> anyhow::Result<i32> {
    let variant = Variant::by_id(&args.variant).with_context(|| {
        format!(
            "unknown variant {:?}; known: {}",
            args.variant,
            Variant::ids().join(", ")
        )
    })?;
    let settings = PlaySettings::from(&args.settings.given)?;
    let ansi = args.color.enabled();
    let mut players = players(args, &settings, ansi)?;
    let config = game_config(args, variant, &settings, &players);
    let someone_human = players.iter().any(|p| matches!(p, Participant::Human(_)));
    outln!(
        "{} | white: {} | black: {} | {}",
        variant.id,
        players[0].name(),
        players[1].name(),
        format_time_control(&settings.time_control)
    );
    let draw_boards = !args.quiet && !someone_human;
    let Some(record) = play(&mut players, &config, draw_boards, ansi)? else {
        eprintln!("arena: interrupted; bots stopped");
        return Ok(130);
    };
    // Boards are drawn after every move between bots; with a person they
    // are drawn before the person's moves, so the final one is still due.
    if someone_human && !args.quiet {
        if let Some(position) = final_position(variant, &record) {
            outln!("{}", position.render(ansi));
        }
        if !record.cells.is_empty() {
            outln!("winning cells: {}", record.cells.join(" "));
        }
    }
    outln!(
        "result {}  reason {}",
        record.result.as_str(),
        record.reason
    );
    outln!("{}", record.message);
    if let Some(path) = &args.record {
        write_record(path, &record)?;
    }
    Ok(0)
}

/// White and black, ready to play: each a person or a bot whose program
/// can start (else the one error every command gives, before the game),
/// with the same name twice told apart, in the sandbox when asked.
fn players(args: &Args, settings: &PlaySettings, ansi: bool) -> anyhow::Result<[Participant; 2]> {
    let bots = match &args.bots {
        Some(path) => read_bots_file(path)?,
        None => Vec::new(),
    };
    let mut players = [
        participant(&args.white, &bots, ansi)?,
        participant(&args.black, &bots, ansi)?,
    ];
    for player in &players {
        if let Participant::Bot(seat) = player {
            if let Some(problem) = program_problem(seat.spec()) {
                bail!(problem);
            }
        }
    }
    if let [Participant::Bot(w), Participant::Bot(b)] = &mut players {
        if w.name() == b.name() {
            let mut spec = b.spec().clone();
            spec.name.push_str("-2");
            **b = Seat::new(spec, SpawnOptions::default());
        }
    }
    let cpu_tree = settings.clock == ClockBasis::Cpu;
    if settings.sandbox || args.log_dir.is_some() || args.trace.is_some() || cpu_tree {
        let [white, black] = &mut players;
        sandbox_seats([white, black], args, settings.sandbox, cpu_tree);
    }
    Ok(players)
}

/// The game's settings: time control (each bot from a bots file may have
/// its own: time odds), grace, logs, forced opening.
fn game_config(
    args: &Args,
    variant: &'static Variant,
    settings: &PlaySettings,
    players: &[Participant; 2],
) -> GameConfig {
    let mut config = GameConfig::new("play", variant, settings.time_control);
    config.grace = settings.grace;
    config.clock = settings.clock;
    config.wall_cap = settings.wall_cap;
    config.suspend_idle = settings.suspend_idle;
    for (side, participant) in players.iter().enumerate() {
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
    config
}

/// Plays the game, each move shown; `None` when interrupted (the bots are
/// stopped either way).
fn play(
    players: &mut [Participant; 2],
    config: &GameConfig,
    draw_boards: bool,
    ansi: bool,
) -> anyhow::Result<Option<GameRecord>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let outcome = runtime.block_on(async {
        let mut observer = |event: GameEvent<'_>| match event {
            GameEvent::Started { position } => {
                if draw_boards {
                    outln!("{}", position.render(ansi));
                }
            }
            GameEvent::Moved {
                position,
                color,
                notation,
                time_ms,
            } => {
                outln!("{:>3}. {color} {notation}  ({time_ms} ms)", position.ply());
                if draw_boards {
                    outln!("{}", position.render(ansi));
                }
            }
        };
        let [white, black] = players;
        let game = play_game(white.player(), black.player(), config, &mut observer);
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
    outcome.transpose()
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
    let spec = resolve_player(arg, bots).map_err(|e| anyhow!(e))?;
    Ok(Participant::Bot(Box::new(Seat::new(
        spec,
        SpawnOptions::default(),
    ))))
}

/// With `--sandbox`, the bots run in the sandbox; a sandboxed bot never
/// sees `--log-dir`. On a CPU clock (`cpu_tree`) each gets a cgroup where
/// arena can make one.
fn sandbox_seats(participants: [&mut Participant; 2], args: &Args, sandbox: bool, cpu_tree: bool) {
    let options = SpawnOptions {
        sandbox_hide: args.log_dir.iter().cloned().collect(),
        cpu_tree,
        ..SpawnOptions::default()
    };
    for participant in participants {
        if let Participant::Bot(seat) = participant {
            let mut spec = seat.spec().clone();
            if sandbox {
                spec.sandbox = Some(true);
            }
            spec.trace |= args.trace.is_some();
            **seat = Seat::new(spec, options.clone());
        }
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
pub(crate) async fn interrupted() {
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
