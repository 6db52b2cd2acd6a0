//! Playing one game between two players (bots, or a bot and a person).
//!
//! The game runner owns the rules: bots only propose moves. It prepares both
//! seats (start + handshake, or reuse), announces the game, plays any forced
//! opening, then asks the side to move for a move with the full state, the
//! history, the legal moves and the clocks, and checks the answer with the
//! rules engine. Every way a game can end has a recorded reason: a rules
//! outcome, or a failure of one bot, whose opponent then wins. Both bots hear
//! `game_over`; a bot that failed is killed and restarted for its next game.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::time::Instant;

use super::clock::{Clock, DEFAULT_GRACE};
use super::human::Human;
use super::lines::{push_item, NewGameRef, NotationCache, TurnRef};
use super::local::LocalPlayer;
use super::record::GameRecord;
use super::seat::{Failure, Seat, CONTROL_SEND_TIMEOUT};
use crate::games::{Color, Outcome, Position, Variant};
use crate::protocol::{FailureReason, GameOver, GameResult, RefereeMessage, TimeControl};

/// Guard against a rules bug making a game endless; no real game comes near
/// (Qango ends within 40 plies, Quinque within 80).
pub const PLY_CAP: u32 = 1000;

/// How long a bot that just failed gets to take `game_over` off its pipe.
const FAILED_SEND_TIMEOUT: Duration = Duration::from_millis(200);

/// What to play.
#[derive(Clone)]
pub struct GameConfig {
    /// Id repeated in every message of the game, and in log file names.
    pub game_id: String,
    pub variant: &'static Variant,
    pub time_control: TimeControl,
    /// Allowance beyond each move's limit before it is a timeout.
    pub grace: Duration,
    /// Moves played before the players start (a tournament opening).
    pub opening: Vec<String>,
    /// Where each bot's stderr for this game goes
    /// (`<log_dir>/<game_id>-<color>-<bot>.log`); no logs when `None`.
    pub log_dir: Option<PathBuf>,
}

impl std::fmt::Debug for GameConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameConfig")
            .field("game_id", &self.game_id)
            .field("variant", &self.variant.id)
            .field("time_control", &self.time_control)
            .field("grace", &self.grace)
            .field("opening", &self.opening)
            .field("log_dir", &self.log_dir)
            .finish()
    }
}

impl GameConfig {
    pub fn new(game_id: &str, variant: &'static Variant, time_control: TimeControl) -> GameConfig {
        GameConfig {
            game_id: game_id.to_string(),
            variant,
            time_control,
            grace: DEFAULT_GRACE,
            opening: Vec::new(),
            log_dir: None,
        }
    }
}

/// One side of the board.
#[derive(Debug)]
pub enum Player<'a> {
    Bot(&'a mut Seat),
    Human(&'a mut Human),
    /// A player inside the referee (e.g. the random mover of `arena check-bot`).
    Local(&'a mut (dyn LocalPlayer + 'static)),
}

impl Player<'_> {
    pub fn name(&self) -> &str {
        match self {
            Player::Bot(seat) => seat.name(),
            Player::Human(human) => human.name(),
            Player::Local(local) => local.name(),
        }
    }
}

/// Progress reports for displays (the `arena play` board).
#[derive(Debug)]
pub enum GameEvent<'a> {
    /// Players are ready, the opening is on the board.
    Started { position: &'a Position },
    /// `color` played `notation` after thinking `time_ms`.
    Moved {
        position: &'a Position,
        color: Color,
        notation: &'a str,
        time_ms: u64,
    },
}

/// How the game ended, before it is written into the record.
struct Ending {
    winner: Option<Color>,
    reason: String,
    message: String,
    cells: Vec<String>,
    /// The side whose failure ended the game (its bot gets restarted).
    failed: Vec<Color>,
}

impl Ending {
    fn failure(color: Color, name: &str, failure: Failure) -> Ending {
        Ending {
            winner: Some(color.opponent()),
            reason: failure.reason.as_str().to_string(),
            message: format!("{color} ({name}): {}", failure.message),
            cells: Vec::new(),
            failed: vec![color],
        }
    }

    fn rules(outcome: Outcome) -> Ending {
        let cells: Vec<String> = outcome.cells.iter().map(ToString::to_string).collect();
        Ending {
            winner: outcome.winner,
            message: describe_outcome(&outcome, &cells),
            reason: outcome.reason.to_string(),
            cells,
            failed: Vec::new(),
        }
    }
}

fn describe_outcome(outcome: &Outcome, cells: &[String]) -> String {
    let cells = cells.join(" ");
    match (outcome.winner, outcome.reason) {
        (Some(w), "group") => format!("{w} wins: colour group {cells}"),
        (Some(w), "square") => format!("{w} wins: 2x2 square {cells}"),
        (Some(w), "line") => format!("{w} wins: five in a line {cells}"),
        (Some(w), "no_moves") => format!("{w} wins: {} has no legal move", w.opponent()),
        (Some(w), reason) => format!("{w} wins ({reason}) {cells}")
            .trim_end()
            .to_string(),
        (None, "full") => "draw: the board is full".into(),
        (None, "out_of_discs") => "draw: all discs are placed".into(),
        (None, reason) => format!("draw ({reason})"),
    }
}

/// A file-name-safe version of a bot name.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Plays one game between two bots without progress reports.
pub async fn play_bots(
    white: &mut Seat,
    black: &mut Seat,
    config: &GameConfig,
) -> anyhow::Result<GameRecord> {
    play_game(Player::Bot(white), Player::Bot(black), config, &mut |_| {}).await
}

/// Plays one game. `Err` only for problems that are not a player's fault
/// (an illegal forced opening, a log directory that cannot be created);
/// everything a player does wrong ends the game with a recorded reason.
pub async fn play_game(
    white: Player<'_>,
    black: Player<'_>,
    config: &GameConfig,
    observer: &mut (dyn FnMut(GameEvent<'_>) + Send),
) -> anyhow::Result<GameRecord> {
    let began = Instant::now();
    let mut players = [white, black];
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let mut pos = Position::new(config.variant);
    let mut moves = Vec::new();
    let mut times = Vec::new();
    for (ply, text) in config.opening.iter().enumerate() {
        let m = pos.play_str(text).map_err(|e| {
            anyhow::anyhow!(
                "game {}: opening move {ply} ({text:?}) is illegal: {e}",
                config.game_id
            )
        })?;
        moves.push(m.to_string());
        times.push(0);
    }
    if pos.is_over() {
        bail!(
            "game {}: the opening {:?} already ends the game",
            config.game_id,
            config.opening
        );
    }
    let mut logs = log_paths(config, &names)?;
    for (i, player) in players.iter().enumerate() {
        if !matches!(player, Player::Bot(_)) {
            logs[i] = None;
        }
    }
    let mut clock = Clock::new(config.time_control, config.grace);

    let ending = 'game: {
        // Start (or reuse) both bots at once: startup limits run in parallel.
        let (w, b) = players.split_at_mut(1);
        let header = |color: Color| format!("[arena: game {} as {color}]\n", config.game_id);
        let (white_header, black_header) = (header(Color::White), header(Color::Black));
        let (white_ready, black_ready) = tokio::join!(
            prepare(&mut w[0], logs[0].as_deref(), &white_header),
            prepare(&mut b[0], logs[1].as_deref(), &black_header),
        );
        match (white_ready, black_ready) {
            (Ok(()), Ok(())) => {}
            (Err(f), Ok(())) => break 'game Ending::failure(Color::White, &names[0], f),
            (Ok(()), Err(f)) => break 'game Ending::failure(Color::Black, &names[1], f),
            (Err(wf), Err(bf)) => {
                break 'game Ending {
                    winner: None,
                    reason: wf.reason.as_str().to_string(),
                    message: format!(
                        "both failed: white ({}): {}; black ({}): {}",
                        names[0], wf.message, names[1], bf.message
                    ),
                    cells: Vec::new(),
                    failed: vec![Color::White, Color::Black],
                }
            }
        }
        for color in [Color::White, Color::Black] {
            if let Player::Bot(seat) = &mut players[color.index()] {
                let msg = NewGameRef {
                    game_id: &config.game_id,
                    variant: config.variant,
                    color,
                    opponent: &names[color.opponent().index()],
                    time_control: config.time_control,
                };
                if let Err(f) = seat.send_new_game(&msg).await {
                    break 'game Ending::failure(color, &names[color.index()], f);
                }
            }
        }
        observer(GameEvent::Started { position: &pos });
        // The turn's pieces of JSON text, kept up to date rather than
        // rebuilt (see `lines`).
        let mut state = String::new();
        let mut history_items = String::new();
        for m in &moves {
            push_item(&mut history_items, m);
        }
        let mut legal_move_items = String::new();
        loop {
            if let Some(outcome) = pos.outcome() {
                break 'game Ending::rules(outcome);
            }
            if pos.ply() >= PLY_CAP {
                break 'game Ending {
                    winner: None,
                    reason: "ply_cap".into(),
                    message: format!("draw: the game reached the {PLY_CAP}-ply safety cap"),
                    cells: Vec::new(),
                    failed: Vec::new(),
                };
            }
            let color = pos.to_move();
            let name = &names[color.index()];
            let (notation, used) = match &mut players[color.index()] {
                Player::Bot(seat) => {
                    // Borrowed, not copied: see `lines`.
                    state.clear();
                    pos.write_state_json(&mut state);
                    let legal_moves = pos.legal_moves();
                    NotationCache::with_thread_cache(|notation| {
                        notation.write_items(&legal_moves, &mut legal_move_items)
                    });
                    let turn = TurnRef {
                        game_id: &config.game_id,
                        variant: config.variant.id,
                        color,
                        ply: pos.ply(),
                        state: &state,
                        history_items: &history_items,
                        legal_move_items: &legal_move_items,
                        clock: clock.turn_clock(color),
                    };
                    let (answer, used) =
                        match seat.request_turn(&turn, clock.wait_limit(color)).await {
                            Ok(answer) => answer,
                            Err(f) => break 'game Ending::failure(color, name, f),
                        };
                    if let Err(flag) = clock.charge(color, used) {
                        let f = Failure::new(
                            FailureReason::Timeout,
                            format!(
                                "answered after {} ms; the limit was {} ms (+{} ms grace)",
                                flag.used_ms,
                                flag.limit_ms,
                                config.grace.as_millis()
                            ),
                        );
                        break 'game Ending::failure(color, name, f);
                    }
                    match pos.play_str(&answer.mv) {
                        Ok(m) => (m.to_string(), used),
                        Err(e) => {
                            let f = Failure::new(
                                FailureReason::IllegalMove,
                                format!("played {:?}, which is illegal: {e}", answer.mv),
                            );
                            break 'game Ending::failure(color, name, f);
                        }
                    }
                }
                Player::Human(human) => {
                    let asked = Instant::now();
                    let text = match human.choose_move(&pos).await {
                        Ok(text) => text,
                        Err(f) => break 'game Ending::failure(color, name, f),
                    };
                    let m = pos
                        .play_str(&text)
                        .context("a checked move from the terminal was refused")?;
                    (m.to_string(), asked.elapsed())
                }
                Player::Local(local) => {
                    let asked = Instant::now();
                    let text = local.choose_move(&pos);
                    let m = pos
                        .play_str(&text)
                        .with_context(|| format!("the in-process player {name} chose {text:?}"))?;
                    (m.to_string(), asked.elapsed())
                }
            };
            let time_ms = used.as_millis() as u64;
            push_item(&mut history_items, &notation);
            moves.push(notation);
            times.push(time_ms);
            observer(GameEvent::Moved {
                position: &pos,
                color,
                notation: moves.last().map(String::as_str).unwrap_or_default(),
                time_ms,
            });
        }
    };

    let result = GameResult::from_winner(ending.winner);
    let game_over = RefereeMessage::GameOver(GameOver {
        game_id: config.game_id.clone(),
        result,
        winner: ending.winner,
        reason: ending.reason.clone(),
        cells: ending.cells.clone(),
        message: ending.message.clone(),
    });
    let opening_plies = config.opening.len();
    let mut side_time = [0u64; 2];
    for (ply, t) in times.iter().enumerate().skip(opening_plies) {
        side_time[Color::to_move_at(ply as u32).index()] += t;
    }
    // Both bots hear how the game ended, the failed one too (it may still
    // be listening, and it helps its author); then the failed one is killed.
    for color in [Color::White, Color::Black] {
        if let Player::Bot(seat) = &mut players[color.index()] {
            let failed = ending.failed.contains(&color);
            let timeout = if failed {
                FAILED_SEND_TIMEOUT
            } else {
                CONTROL_SEND_TIMEOUT
            };
            let sent = seat.is_running() && seat.send_within(&game_over, timeout).await.is_ok();
            if failed || !sent {
                seat.discard().await;
            } else {
                seat.finish_game();
            }
        }
    }
    Ok(GameRecord {
        game: config.variant.id.to_string(),
        game_id: config.game_id.clone(),
        white: names[0].clone(),
        black: names[1].clone(),
        time_control: config.time_control,
        opening: moves[..opening_plies].to_vec(),
        plies: moves.len() as u32,
        moves,
        move_times_ms: times,
        result,
        winner: ending.winner,
        reason: ending.reason,
        message: ending.message,
        cells: ending.cells,
        white_time_ms: side_time[0],
        black_time_ms: side_time[1],
        white_log: logs[0].clone(),
        black_log: logs[1].clone(),
        duration_ms: began.elapsed().as_millis() as u64,
    })
}

async fn prepare(player: &mut Player<'_>, log: Option<&Path>, header: &str) -> Result<(), Failure> {
    match player {
        Player::Bot(seat) => {
            seat.prepare(log, header).await?;
            seat.begin_game();
            Ok(())
        }
        Player::Human(_) | Player::Local(_) => Ok(()),
    }
}

/// Log file of each bot for this game; the directory is created here so a
/// bad log directory is the referee's error, not a bot's startup failure.
fn log_paths(config: &GameConfig, names: &[String; 2]) -> anyhow::Result<[Option<PathBuf>; 2]> {
    let Some(dir) = &config.log_dir else {
        return Ok([None, None]);
    };
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create log directory {}", dir.display()))?;
    let path = |color: Color, name: &str| {
        dir.join(format!(
            "{}-{color}-{}.log",
            file_safe(&config.game_id),
            file_safe(name)
        ))
    };
    Ok([
        Some(path(Color::White, &names[0])),
        Some(path(Color::Black, &names[1])),
    ])
}
