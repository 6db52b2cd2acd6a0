//! Running a bot through everything the referee expects of it and writing
//! down what happened ([`Observations`]).
//!
//! The games are real: the same [`play_game`] a tournament uses, against
//! the in-process [`RandomPlayer`], so what passes here passes there. Around
//! the games the bot is watched while nothing is asked of it (after
//! `ready`, after an unknown message type, after each `game_over`): a
//! compliant bot stays up and silent then. Whenever it does not, its process
//! is discarded so the next step starts from a clean one.

use std::path::PathBuf;
use std::time::Duration;

use tokio::time::Instant;

use super::observations::{
    GameSeen, Handshake, IdleProblem, Observations, Quit, UnknownType, WireTail,
};
use crate::games::{Color, Variant};
use crate::protocol::{FailureReason, RefereeMessage, TimeControl};
use crate::referee::seat::{StartError, CONTROL_SEND_TIMEOUT, QUIT_GRACE};
use crate::referee::{
    play_game, BotSpec, GameConfig, GameRecord, Player, RandomPlayer, ReadLine, Seat, SpawnOptions,
    DEFAULT_LOG_CAP,
};

/// How long a bot is watched while nothing is asked of it. A bot that
/// answers, complains or exits does so within a few milliseconds.
const IDLE_WATCH: Duration = Duration::from_millis(100);

/// How long to wait for the exit status of a bot whose output ended.
const EXIT_WAIT: Duration = Duration::from_millis(500);

/// Sent once before the first game: a type no version of the protocol
/// uses. PROTOCOL.md says bots must ignore types they do not know.
pub const UNKNOWN_TYPE_LINE: &str = r#"{"type":"x_check_unknown","note":"arena check-bot: a message type you cannot know; ignore it"}"#;

/// Name the bot is told its opponent has.
pub const OPPONENT_NAME: &str = "random";

/// What to play, and how strictly.
#[derive(Clone)]
pub struct CheckOptions {
    pub variants: Vec<&'static Variant>,
    /// Games per variant; the bot plays white in the odd-numbered ones.
    pub games_per_variant: u32,
    /// The per-move time limit told to the bot.
    pub move_ms: u64,
    /// Allowance beyond `move_ms` before a move is a timeout.
    pub grace: Duration,
    /// Seed of the random opponent.
    pub seed: u64,
    /// Where the bot's stderr of each game is kept; nowhere when `None`.
    pub log_dir: Option<PathBuf>,
    /// Directories the sandbox shows the bot as empty (besides the log
    /// directory): an upload's league.
    pub hide: Vec<PathBuf>,
}

/// Plays the checks against the bot `spec` and returns what was seen.
/// `on_game` hears about each game as it ends. `Err` only for problems of
/// the referee itself (say, a log directory that cannot be created).
pub async fn observe(
    spec: BotSpec,
    options: &CheckOptions,
    on_game: &mut (dyn FnMut(&GameSeen) + Send),
) -> anyhow::Result<Observations> {
    let startup_limit_ms = spec.limits.startup().as_millis() as u64;
    let spawn = SpawnOptions {
        sandbox_hide: options
            .log_dir
            .iter()
            .chain(&options.hide)
            .cloned()
            .collect(),
        ..SpawnOptions::default()
    };
    let mut seat = Seat::new(spec, spawn);
    let mut obs = Observations {
        move_ms: options.move_ms,
        grace_ms: options.grace.as_millis() as u64,
        startup_limit_ms,
        handshake: Handshake::Failed(String::new()),
        after_ready: None,
        unknown_type: UnknownType::NotSent(String::new()),
        games: Vec::new(),
        stderr_bytes: 0,
        log_cap: DEFAULT_LOG_CAP,
        quit: Quit::NotRun(String::new()),
        wire_tail: None,
    };

    let started = Instant::now();
    match seat.prepare(None).await {
        Ok(()) => {}
        Err(StartError::Bot(failure)) => {
            obs.handshake = Handshake::Failed(failure.message);
            obs.wire_tail = Some(WireTail {
                when: "the handshake".into(),
                lines: seat.trace_tail(),
            });
            obs.stderr_bytes = seat.stderr_bytes();
            return Ok(obs);
        }
        // Not the bot's problem: the check cannot say anything about it.
        Err(StartError::Referee(failure)) => return Err(failure.into()),
    }
    let ready = seat.ready_info().cloned();
    obs.handshake = Handshake::Ready {
        ms: started.elapsed().as_millis() as u64,
        name: ready.as_ref().map(|r| r.name.clone()).unwrap_or_default(),
        author: ready.as_ref().and_then(|r| r.author.clone()),
        version: ready.as_ref().and_then(|r| r.version.clone()),
    };

    obs.after_ready = watch_idle(&mut seat).await;
    obs.unknown_type = match &obs.after_ready {
        Some(_) => {
            UnknownType::NotSent("the bot already misbehaved right after ready (see below)".into())
        }
        None => send_unknown_type(&mut seat).await,
    };

    play_games(&mut seat, options, &mut obs, on_game).await?;

    obs.quit = quit(&mut seat).await;
    seat.discard().await;
    obs.stderr_bytes = seat.stderr_bytes();
    Ok(obs)
}

/// Watches the bot for [`IDLE_WATCH`] while nothing is asked; on a problem
/// its process is discarded (the next game starts a fresh one).
async fn watch_idle(seat: &mut Seat) -> Option<IdleProblem> {
    tokio::time::sleep(IDLE_WATCH).await;
    let Some(process) = seat.process_mut() else {
        // The game runner drops a bot that cannot be told `game_over`.
        return Some(IdleProblem::Ended(
            "was gone: its input had closed before it could be told game_over".into(),
        ));
    };
    let problem = match process.poll_pending().await {
        None => match process.try_exit() {
            None => return None,
            Some(_) => ended(process).await,
        },
        Some(ReadLine::Line(line)) => IdleProblem::Wrote(quote(&line)),
        Some(ReadLine::TooLong) => IdleProblem::WroteTooLong,
        Some(ReadLine::Eof | ReadLine::Timeout) => ended(process).await,
    };
    seat.discard().await;
    Some(problem)
}

async fn ended(process: &mut crate::referee::BotProcess) -> IdleProblem {
    IdleProblem::Ended(match process.death_reason(EXIT_WAIT).await {
        Some((_, how)) => format!("exited: {how}"),
        None => "closed its stdout while still running".into(),
    })
}

async fn send_unknown_type(seat: &mut Seat) -> UnknownType {
    let line = UNKNOWN_TYPE_LINE.to_string();
    let Some(process) = seat.process_mut() else {
        return UnknownType::NotSent("the bot is not running".into());
    };
    if let Err(e) = process.send_line(&line, CONTROL_SEND_TIMEOUT).await {
        seat.discard().await;
        return UnknownType::Broke {
            line,
            problem: IdleProblem::Ended(format!("did not take it: {e}")),
        };
    }
    match watch_idle(seat).await {
        None => UnknownType::Ignored { line },
        Some(problem) => UnknownType::Broke { line, problem },
    }
}

async fn play_games(
    seat: &mut Seat,
    options: &CheckOptions,
    obs: &mut Observations,
    on_game: &mut (dyn FnMut(&GameSeen) + Send),
) -> anyhow::Result<()> {
    let mut opponent = RandomPlayer::new(OPPONENT_NAME, options.seed);
    // The process that last finished a game cleanly: the next game it
    // plays tests a reused process.
    let mut finished_clean: Option<i32> = None;
    let time_control = TimeControl::PerMove {
        move_ms: options.move_ms,
    };
    for variant in &options.variants {
        for number in 1..=options.games_per_variant {
            let bot_color = if number % 2 == 1 {
                Color::White
            } else {
                Color::Black
            };
            let mut config =
                GameConfig::new(&format!("{}-{number}", variant.id), variant, time_control);
            config.grace = options.grace;
            config.log_dir = options.log_dir.clone();
            let pid_before = seat.process().map(|p| p.pid());
            let starts_before = seat.process_starts();
            let bot = Player::Bot(seat);
            let random = Player::Local(&mut opponent);
            let (white, black) = match bot_color {
                Color::White => (bot, random),
                Color::Black => (random, bot),
            };
            let record = play_game(white, black, &config, &mut |_| {}).await?;
            let after_clean = pid_before.is_some() && pid_before == finished_clean;
            let restarted = seat.process_starts() > starts_before;
            let mut seen = game_seen(variant.id, number, bot_color, seat.name(), &record);
            seen.reused_process = after_clean && !restarted;
            seen.replaced_process = after_clean && restarted;
            blame_a_late_exit(&seen, &mut obs.games);
            if seen.failure.is_none() {
                seen.after_game_over = watch_idle(seat).await;
                if seen.after_game_over.is_none() {
                    finished_clean = seat.process().map(|p| p.pid());
                }
            }
            if seen.failure.is_some() && obs.wire_tail.is_none() {
                obs.wire_tail = Some(WireTail {
                    when: seen.label(),
                    lines: seat.trace_tail(),
                });
            }
            on_game(&seen);
            obs.games.push(seen);
        }
    }
    Ok(())
}

/// A reused process that ended before its first move of the next game
/// (slower than [`IDLE_WATCH`] to exit after `game_over`, e.g. on a busy
/// machine): that exit belongs to the previous game's `game_over`.
fn blame_a_late_exit(seen: &GameSeen, games: &mut [GameSeen]) {
    let Some((FailureReason::Crash | FailureReason::Disconnect, how)) = &seen.failure else {
        return;
    };
    if !seen.reused_process || !seen.bot_move_times_ms.is_empty() {
        return;
    }
    if let Some(previous) = games.last_mut().filter(|g| g.after_game_over.is_none()) {
        previous.after_game_over = Some(IdleProblem::Ended(format!(
            "exited: {how} (after the {} ms watch, before its next game's first move)",
            IDLE_WATCH.as_millis()
        )));
    }
}

/// The bot's side of a finished game.
fn game_seen(
    variant: &'static str,
    number: u32,
    bot_color: Color,
    bot_name: &str,
    record: &GameRecord,
) -> GameSeen {
    let failed = record.winner == Some(bot_color.opponent());
    let failure = record.reason.failure().filter(|_| failed).map(|reason| {
        let prefix = format!("{bot_color} ({bot_name}): ");
        let message = record
            .message
            .strip_prefix(&prefix)
            .unwrap_or(&record.message);
        (reason, message.to_string())
    });
    let bot_move_times_ms = record
        .move_times_ms
        .iter()
        .enumerate()
        .skip(record.opening.len())
        .filter(|(ply, _)| Color::to_move_at(*ply as u32) == bot_color)
        .map(|(_, t)| *t)
        .collect();
    GameSeen {
        variant,
        number,
        bot_color,
        result: record.result,
        reason: record.reason,
        plies: record.plies,
        failure,
        bot_move_times_ms,
        reused_process: false,
        replaced_process: false,
        after_game_over: None,
        log: match bot_color {
            Color::White => record.white_log.clone(),
            Color::Black => record.black_log.clone(),
        },
        warnings: record.warnings.clone(),
    }
}

/// `quit`, then up to [`QUIT_GRACE`] to exit; then stdin closed and the
/// same again; then the kill. A bot whose last game killed it is started
/// again for this.
async fn quit(seat: &mut Seat) -> Quit {
    if !seat.is_running() {
        if let Err(error) = seat.prepare(None).await {
            return Quit::NotRun(format!(
                "the bot could not be started again: {}",
                error.message()
            ));
        }
    }
    let Some(process) = seat.process_mut() else {
        return Quit::NotRun("the bot is not running".into());
    };
    let line = RefereeMessage::Quit.to_line();
    let sent = Instant::now();
    // A bot that no longer reads will not exit on quit either: that shows below.
    let _ = process
        .send_line(line.trim_end(), CONTROL_SEND_TIMEOUT)
        .await;
    if let Some(exit) = process.wait_exit(QUIT_GRACE).await {
        return Quit::Exited {
            ms: sent.elapsed().as_millis() as u64,
            exit,
        };
    }
    process.close_stdin();
    if let Some(exit) = process.wait_exit(QUIT_GRACE).await {
        return Quit::ExitedOnEof { exit };
    }
    Quit::Killed {
        exit: process.kill().await,
    }
}

/// The start of an offending line, for messages.
fn quote(line: &[u8]) -> String {
    const SHOWN: usize = 100;
    let text = String::from_utf8_lossy(line);
    let mut out = String::new();
    for c in text.chars().take(SHOWN) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if text.chars().count() > SHOWN {
        out.push_str("...");
    }
    out
}
