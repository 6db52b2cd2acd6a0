//! Playing one game between two players (bots, or a bot and a person).
//!
//! The game runner owns the rules: bots only propose moves. It prepares both
//! seats (start + handshake, or reuse), announces the game, plays any forced
//! opening, then asks the side to move for a move with the full state, the
//! history, the legal moves and the clocks, and checks the answer with the
//! rules engine. Every way a game can end has a recorded reason: a rules
//! outcome, or a failure of one bot, whose opponent then wins. Both bots hear
//! `game_over`; a bot that failed is killed and restarted for its next game.
//!
//! [`play_game`] runs the phases in order: `Game::new` (opening, logs), `start_seats`, `play_moves` (one `ask` and one check of the answer
//! for every kind of player), `finish_seats` (`game_over`) and
//! `Game::into_record`. Each phase that a player can end returns the `Ending`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;
use tokio::time::Instant;

use super::adjudicate::{Adjudication, Adjudicator, Proof};
use super::clock::{limit_text, Clock, DEFAULT_GRACE};
use super::human::Human;
use super::local::LocalPlayer;
use super::log::GameLog;
use super::record::GameRecord;
use super::referee_failure::RefereeFailure;
use super::seat::{cpu_ran_out, Failure, MoveTime, Seat, StartError, CONTROL_SEND_TIMEOUT};
use super::trace::trace_path_for;
use super::turn_lines::{push_item, write_legal_moves, NewGameRef, TurnRef};
use arena_rules::games::{Color, MoveError, Outcome, Position, RuleReason, Variant};
use arena_rules::protocol::{
    ClockBasis, FailureReason, GameOver, GameResult, Ready, Reason, RefereeMessage, TimeControl,
    TurnClock,
};

/// Guard against a rules bug making a game endless; no real game comes near
/// (Qango ends within 40 plies, Quinque within 80).
pub const PLY_CAP: u32 = 1000;

/// On a CPU clock, a move ends after this many times its limit of wall
/// time unless set otherwise (`wall_cap`).
pub const DEFAULT_WALL_CAP: u32 = 3;

/// How long a bot that just failed gets to take `game_over` off its pipe.
const FAILED_SEND_TIMEOUT: Duration = Duration::from_millis(200);

/// What to play.
#[derive(Clone)]
pub struct GameConfig {
    /// Id repeated in every message of the game, and in log file names.
    pub game_id: String,
    pub variant: &'static Variant,
    pub time_control: TimeControl,
    /// A side's own time control when it differs from `time_control`
    /// (time odds), indexed by [`Color::index`]; `None` plays `time_control`.
    pub own_time_controls: [Option<TimeControl>; 2],
    /// Allowance beyond each move's limit before it is a timeout.
    pub grace: Duration,
    /// Moves played before the players start (a tournament opening).
    pub opening: Vec<String>,
    /// What the bots' clocks count.
    pub clock: ClockBasis,
    /// On a CPU clock, a move also ends after this many times its limit of
    /// wall time (a bot that sleeps, blocks or hangs), plus the grace.
    pub wall_cap: u32,
    /// Where each bot's stderr for this game goes
    /// (`<log_dir>/<game_id>-<color>-<bot>.log`, created when the bot first
    /// writes to stderr); no logs when `None`.
    pub log_dir: Option<PathBuf>,
    /// Stop the bot that is not on move (`SIGSTOP`, see
    /// [`crate::suspend`]) until its next turn, `game_over` or `quit`.
    pub suspend_idle: bool,
    /// End a game as soon as the solver proves its value.
    pub adjudicate: Option<Adjudication>,
}

impl std::fmt::Debug for GameConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameConfig")
            .field("game_id", &self.game_id)
            .field("variant", &self.variant.id)
            .field("time_control", &self.time_control)
            .field("own_time_controls", &self.own_time_controls)
            .field("grace", &self.grace)
            .field("opening", &self.opening)
            .field("clock", &self.clock)
            .field("wall_cap", &self.wall_cap)
            .field("log_dir", &self.log_dir)
            .field("suspend_idle", &self.suspend_idle)
            .field("adjudicate", &self.adjudicate)
            .finish()
    }
}

impl GameConfig {
    pub fn new(game_id: &str, variant: &'static Variant, time_control: TimeControl) -> GameConfig {
        GameConfig {
            game_id: game_id.to_string(),
            variant,
            time_control,
            own_time_controls: [None, None],
            grace: DEFAULT_GRACE,
            opening: Vec::new(),
            clock: ClockBasis::Wall,
            wall_cap: DEFAULT_WALL_CAP,
            log_dir: None,
            suspend_idle: false,
            adjudicate: None,
        }
    }

    /// On a CPU clock, the most wall time a move with a limit of
    /// `move_ms` may take: [`GameConfig::wall_cap`] times it, plus the grace.
    pub fn wall_cap_of(&self, move_ms: u64) -> Duration {
        Duration::from_millis(move_ms.saturating_mul(self.wall_cap as u64)) + self.grace
    }

    /// The time control `color` plays under.
    pub fn time_control_of(&self, color: Color) -> TimeControl {
        self.own_time_controls[color.index()].unwrap_or(self.time_control)
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

    /// A bot's `ready` answer, once it has given one.
    pub fn ready(&self) -> Option<&Ready> {
        match self {
            Player::Bot(seat) => seat.ready_info(),
            Player::Human(_) | Player::Local(_) => None,
        }
    }
}

/// A player its caller owns for a game: a bot's seat or a person.
pub enum Participant {
    Bot(Box<Seat>),
    Human(Human),
}

impl Participant {
    /// The player the game runner asks.
    pub fn player(&mut self) -> Player<'_> {
        match self {
            Participant::Bot(seat) => Player::Bot(seat),
            Participant::Human(human) => Player::Human(human),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Participant::Bot(seat) => seat.name(),
            Participant::Human(human) => human.name(),
        }
    }

    /// Stops a bot's process (a person has none).
    pub async fn shutdown(&mut self) {
        if let Participant::Bot(seat) = self {
            seat.shutdown().await;
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
    reason: Reason,
    message: String,
    cells: Vec<String>,
    /// The side whose failure ended the game (its bot gets restarted).
    failed: Vec<Color>,
    /// Adjudicated: the proven continuation.
    proven_line: Vec<String>,
}

impl Ending {
    fn failure(color: Color, name: &str, failure: Failure) -> Ending {
        Ending {
            winner: Some(color.opponent()),
            reason: failure.reason.into(),
            message: format!("{color} ({name}): {}", failure.message),
            cells: Vec::new(),
            failed: vec![color],
            proven_line: Vec::new(),
        }
    }

    /// Both bots failed to start: a draw, with the white bot's reason.
    fn both_failed(names: &[String; 2], white: Failure, black: Failure) -> Ending {
        Ending {
            winner: None,
            reason: white.reason.into(),
            message: format!(
                "both failed: white ({}): {}; black ({}): {}",
                names[0], white.message, names[1], black.message
            ),
            cells: Vec::new(),
            failed: vec![Color::White, Color::Black],
            proven_line: Vec::new(),
        }
    }

    fn ply_cap() -> Ending {
        Ending {
            winner: None,
            reason: RuleReason::PlyCap.into(),
            message: format!("draw: the game reached the {PLY_CAP}-ply safety cap"),
            cells: Vec::new(),
            failed: Vec::new(),
            proven_line: Vec::new(),
        }
    }

    fn adjudicated(proof: Proof, ply: u32) -> Ending {
        let result = match proof.winner() {
            Some(w) => format!("{w} wins"),
            None => "a draw".to_string(),
        };
        Ending {
            winner: proof.winner(),
            reason: RuleReason::Adjudicated.into(),
            message: format!(
                "adjudicated: {result} with perfect play from ply {ply} (proved in {} nodes; \
                 proven line: {})",
                proof.nodes,
                proof.line.join(" ")
            ),
            cells: Vec::new(),
            failed: Vec::new(),
            proven_line: proof.line,
        }
    }

    fn rules(outcome: Outcome) -> Ending {
        let cells: Vec<String> = outcome.cells.iter().map(ToString::to_string).collect();
        Ending {
            winner: outcome.winner,
            message: describe_outcome(&outcome, &cells),
            reason: outcome.reason.into(),
            cells,
            failed: Vec::new(),
            proven_line: Vec::new(),
        }
    }
}

fn describe_outcome(outcome: &Outcome, cells: &[String]) -> String {
    let cells = cells.join(" ");
    let Some(w) = outcome.winner else {
        return match outcome.reason {
            RuleReason::Full => "draw: the board is full".into(),
            RuleReason::OutOfDiscs => "draw: all discs are placed".into(),
            reason @ (RuleReason::Group
            | RuleReason::Square
            | RuleReason::Line
            | RuleReason::NoMoves
            | RuleReason::PlyCap
            | RuleReason::Adjudicated) => format!("draw ({reason})"),
        };
    };
    match outcome.reason {
        RuleReason::Group => format!("{w} wins: colour group {cells}"),
        RuleReason::Square => format!("{w} wins: 2x2 square {cells}"),
        RuleReason::Line => format!("{w} wins: five in a line {cells}"),
        RuleReason::NoMoves => format!("{w} wins: {} has no legal move", w.opponent()),
        reason @ (RuleReason::Full
        | RuleReason::OutOfDiscs
        | RuleReason::PlyCap
        | RuleReason::Adjudicated) => format!("{w} wins ({reason}) {cells}")
            .trim_end()
            .to_string(),
    }
}

/// Longest part of a log file name taken from one name: with the game id
/// and the colour, a log's file name stays far below `NAME_MAX` (255 bytes)
/// however long a bot's name is. (A game's two logs differ by colour, so
/// cutting names never makes two of them one file.)
const LOG_NAME_PART: usize = 96;

/// A file-name-safe version of a bot name (at most [`LOG_NAME_PART`] ASCII
/// characters).
pub fn file_safe(name: &str) -> String {
    name.chars()
        .take(LOG_NAME_PART)
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
/// (an illegal forced opening; a [`RefereeFailure`] such as a log directory
/// that cannot be created or a bot that cannot be started for want of
/// descriptors or processes: find it with [`RefereeFailure::find`]);
/// everything a player does wrong ends the game with a recorded reason.
pub async fn play_game(
    white: Player<'_>,
    black: Player<'_>,
    config: &GameConfig,
    observer: &mut (dyn FnMut(GameEvent<'_>) + Send),
) -> anyhow::Result<GameRecord> {
    let began = Instant::now();
    let mut players = [white, black];
    let mut game = Game::new(config, &players)?;
    let ending = match start_seats(&mut players, &game).await {
        Ok(()) => {
            observer(GameEvent::Started {
                position: &game.pos,
            });
            play_moves(&mut players, &mut game, observer).await?
        }
        Err(NotStarted::Ending(ending)) => ending,
        Err(NotStarted::Referee(failure)) => return Err(failure.into()),
    };
    // Before the seats finish: a bot that failed is no longer ready.
    let ready = [&players[0], &players[1]].map(|player| player.ready().cloned());
    finish_seats(&mut players, &game.game_over(&ending), &ending.failed).await;
    let mut record = game.into_record(ending, began);
    [record.white_ready, record.black_ready] = ready;
    Ok(record)
}

/// A game being played: the position, every move so far in notation with its
/// thinking time in ms (0 for opening moves), and who plays.
struct Game<'c> {
    config: &'c GameConfig,
    names: [String; 2],
    /// The bots' stderr logs; `None` for players that are not bots.
    logs: [Option<Arc<GameLog>>; 2],
    /// The bots' wire traces, for traced bots.
    traces: [Option<PathBuf>; 2],
    pos: Position,
    moves: Vec<String>,
    times: Vec<u64>,
    /// Each move's CPU time in ms, where measured (see [`MoveTime`]).
    cpu_times: Vec<Option<u64>>,
}

impl<'c> Game<'c> {
    /// The position after the forced opening, and the bots' log files.
    fn new(config: &'c GameConfig, players: &[Player<'_>; 2]) -> anyhow::Result<Game<'c>> {
        let names = [players[0].name().to_string(), players[1].name().to_string()];
        let mut pos = Position::new(config.variant);
        let mut moves = Vec::new();
        for (ply, text) in config.opening.iter().enumerate() {
            let m = pos.play_str(text).map_err(|e| {
                anyhow::anyhow!(
                    "game {}: opening move {ply} ({text:?}) is illegal: {e}",
                    config.game_id
                )
            })?;
            moves.push(m.to_string());
        }
        if pos.is_over() {
            bail!(
                "game {}: the opening {:?} already ends the game",
                config.game_id,
                config.opening
            );
        }
        let logs = [Color::White, Color::Black].map(|color| {
            let bot = matches!(players[color.index()], Player::Bot(_));
            game_log(config, color, &names[color.index()]).filter(|_| bot)
        });
        // A traced bot's trace sits next to its log, created on its first line.
        let traces = [0, 1].map(|i| match &players[i] {
            Player::Bot(seat) if seat.spec().trace => {
                logs[i].as_deref().map(|log| trace_path_for(log.path()))
            }
            _ => None,
        });
        Ok(Game {
            config,
            names,
            logs,
            traces,
            pos,
            times: vec![0; moves.len()],
            cpu_times: vec![Some(0); moves.len()],
            moves,
        })
    }

    fn name(&self, color: Color) -> &str {
        &self.names[color.index()]
    }

    /// The `game_over` both bots hear.
    fn game_over(&self, ending: &Ending) -> RefereeMessage {
        RefereeMessage::GameOver(GameOver {
            game_id: self.config.game_id.clone(),
            result: GameResult::from_winner(ending.winner),
            winner: ending.winner,
            reason: ending.reason,
            cells: ending.cells.clone(),
            message: ending.message.clone(),
        })
    }

    fn into_record(self, ending: Ending, began: Instant) -> GameRecord {
        let config = self.config;
        let opening_plies = config.opening.len();
        let mut side_time = [0u64; 2];
        for (ply, t) in self.times.iter().enumerate().skip(opening_plies) {
            side_time[Color::to_move_at(ply as u32).index()] += t;
        }
        let [white, black] = self.names;
        let [white_log, black_log] = self
            .logs
            .map(|log| log.map(|log| log.report()).unwrap_or_default());
        let warnings = [&white_log, &black_log]
            .iter()
            .filter_map(|report| report.warning.clone())
            .collect();
        let [white_trace, black_trace] = self.traces;
        GameRecord {
            game_id: config.game_id.clone(),
            // The tournament puts the game in its schedule.
            round: None,
            pair: None,
            game: config.variant.id.to_string(),
            white,
            black,
            time_control: config.time_control,
            white_time_control: Some(config.time_control_of(Color::White)),
            black_time_control: Some(config.time_control_of(Color::Black)),
            opening: self.moves[..opening_plies].to_vec(),
            plies: self.moves.len() as u32,
            moves: self.moves,
            clock: config.clock,
            move_times_ms: self.times,
            move_cpu_ms: self.cpu_times,
            result: GameResult::from_winner(ending.winner),
            winner: ending.winner,
            // Only both bots' failures to start end a game on both sides'
            // failures: neither played it.
            played: ending.failed.len() < 2,
            reason: ending.reason,
            message: ending.message,
            cells: ending.cells,
            proven_line: ending.proven_line,
            white_time_ms: side_time[0],
            black_time_ms: side_time[1],
            white_log: white_log.path,
            black_log: black_log.path,
            white_log_tail: white_log.tail,
            black_log_tail: black_log.tail,
            warnings,
            white_trace,
            black_trace,
            white_ready: None,
            black_ready: None,
            duration_ms: began.elapsed().as_millis() as u64,
            ended_utc: arena_files::utc_rfc3339(std::time::SystemTime::now()),
        }
    }
}

/// Why the moves did not start.
enum NotStarted {
    /// A bot failed: the game ended.
    Ending(Ending),
    /// The referee failed: there is no game.
    Referee(RefereeFailure),
}

/// Starts (or reuses) both bots at once, so startup limits run in parallel,
/// and announces the game to them. `Err` is the ending when one failed, or
/// the referee's failure to start one (which beats a bot's failure: the
/// game is not played, and the bot that is ready stays ready for the next).
async fn start_seats(players: &mut [Player<'_>; 2], game: &Game<'_>) -> Result<(), NotStarted> {
    let config = game.config;
    let [white, black] = players;
    let (white_ready, black_ready) = tokio::join!(
        prepare(white, game.logs[0].clone()),
        prepare(black, game.logs[1].clone()),
    );
    let ending = match (white_ready, black_ready) {
        (Ok(()), Ok(())) => None,
        (Err(StartError::Referee(failure)), _) | (_, Err(StartError::Referee(failure))) => {
            for player in players.iter_mut() {
                if let Player::Bot(seat) = player {
                    seat.finish_game();
                }
            }
            return Err(NotStarted::Referee(failure));
        }
        (Err(StartError::Bot(f)), Ok(())) => {
            Some(Ending::failure(Color::White, game.name(Color::White), f))
        }
        (Ok(()), Err(StartError::Bot(f))) => {
            Some(Ending::failure(Color::Black, game.name(Color::Black), f))
        }
        (Err(StartError::Bot(wf)), Err(StartError::Bot(bf))) => {
            Some(Ending::both_failed(&game.names, wf, bf))
        }
    };
    if let Some(ending) = ending {
        return Err(NotStarted::Ending(ending));
    }
    for color in [Color::White, Color::Black] {
        if let Player::Bot(seat) = &mut players[color.index()] {
            let msg = NewGameRef {
                game_id: &config.game_id,
                variant: config.variant,
                color,
                opponent: game.name(color.opponent()),
                time_control: config.time_control_of(color),
            };
            // The first mover's new_game goes with its first turn: one
            // wake-up of the bot fewer per game (a few percent of a game of
            // instant bots). The other side hears at once, as it may use
            // the time before its first turn.
            let sent = if color == game.pos.to_move() {
                seat.queue_new_game(&msg)
            } else {
                seat.send_new_game(&msg).await
            };
            if let Err(f) = sent {
                return Err(NotStarted::Ending(Ending::failure(
                    color,
                    game.name(color),
                    f,
                )));
            }
        }
    }
    Ok(())
}

/// Plays moves until the rules, the ply cap or a player's failure end the
/// game. `Err` only for an illegal move from a human or in-process player,
/// which the referee's own code should have prevented.
async fn play_moves(
    players: &mut [Player<'_>; 2],
    game: &mut Game<'_>,
    observer: &mut (dyn FnMut(GameEvent<'_>) + Send),
) -> anyhow::Result<Ending> {
    let config = game.config;
    let mut clock = Clock::per_side(
        [Color::White, Color::Black].map(|color| config.time_control_of(color)),
        config.grace,
    )
    .counting(config.clock);
    let mut text = TurnText::new(&game.moves);
    let mut adjudicator = config
        .adjudicate
        .map(|a| Adjudicator::new(config.variant, a));
    loop {
        if let Some(outcome) = game.pos.outcome() {
            return Ok(Ending::rules(outcome));
        }
        if game.pos.ply() >= PLY_CAP {
            return Ok(Ending::ply_cap());
        }
        if let Some(adjudicator) = adjudicator.as_mut() {
            if let Some(proof) = adjudicator.prove(&game.pos).await {
                return Ok(Ending::adjudicated(proof, game.pos.ply()));
            }
        }
        let color = game.pos.to_move();
        if config.suspend_idle {
            suspend_idle(&mut players[color.opponent().index()]);
        }
        let player = &mut players[color.index()];
        let (answer, used) = match ask(player, &game.pos, &mut text, &mut clock, config).await {
            Ok(answer) => answer,
            Err(f) => return Ok(Ending::failure(color, game.name(color), f)),
        };
        // `play_str` takes only the exact notation: the answer is it.
        let notation = match game.pos.play_str(&answer) {
            Ok(_) => answer,
            Err(e) => {
                let f = refused(player, &answer, e)?;
                return Ok(Ending::failure(color, game.name(color), f));
            }
        };
        let time_ms = used.wall.as_millis() as u64;
        text.push_move(&notation);
        game.moves.push(notation);
        game.times.push(time_ms);
        game.cpu_times
            .push(used.cpu.map(|cpu| cpu.as_millis() as u64));
        observer(GameEvent::Moved {
            position: &game.pos,
            color,
            notation: game.moves.last().map(String::as_str).unwrap_or_default(),
            time_ms,
        });
    }
}

/// With `suspend_idle`: stops the side that is not on move, a bot, before
/// its opponent's turn is written (its last move was read already; before
/// its first turn, its `new_game` was written). Anything the referee next
/// sends it continues it first, outside any clock: its next turn (before
/// the turn is written and the move's time starts), `game_over`, `quit`.
fn suspend_idle(player: &mut Player<'_>) {
    if let Player::Bot(seat) = player {
        seat.suspend();
    }
}

/// Asks the side to move for its move: the text it answered and the time it
/// took (a bot's CPU time too). A bot's time is charged to its clock here.
async fn ask(
    player: &mut Player<'_>,
    pos: &Position,
    text: &mut TurnText,
    clock: &mut Clock,
    config: &GameConfig,
) -> Result<(String, MoveTime), Failure> {
    match player {
        Player::Bot(seat) => {
            let color = pos.to_move();
            let turn = text.turn(pos, config, clock.turn_clock(color));
            let budget = clock.wait_limit(color);
            let cap =
                (config.clock == ClockBasis::Cpu).then(|| config.wall_cap_of(turn.clock.move_ms));
            let (answer, used) = seat.request_turn(&turn, budget, cap).await?;
            let on_clock = clock.remaining_ms(color).is_some();
            // A line read just as the wait ran out can still be over it: a
            // timeout, worded as the seat words a late answer.
            match (config.clock, used.cpu) {
                (ClockBasis::Cpu, Some(cpu)) => clock
                    .charge(color, cpu)
                    .map_err(|_| cpu_ran_out(cpu, budget))?,
                _ => clock.charge(color, used.wall).map_err(|flag| {
                    Failure::new(
                        FailureReason::Timeout,
                        format!(
                            "answered after {} ms; the limit was {}",
                            flag.used_ms,
                            limit_text(flag.limit_ms, config.grace, on_clock)
                        ),
                    )
                })?,
            }
            Ok((answer.mv, used))
        }
        // A bot's time is measured by its seat, from the write of the turn.
        Player::Human(human) => {
            let asked = Instant::now();
            let answer = human.choose_move(pos).await?;
            Ok((answer, MoveTime::wall(asked.elapsed())))
        }
        Player::Local(local) => {
            let asked = Instant::now();
            let answer = local.choose_move(pos);
            Ok((answer, MoveTime::wall(asked.elapsed())))
        }
    }
}

/// An illegal `answer`: a bot's failure, but a bug in the referee for a
/// human (the terminal checks moves) or an in-process player.
fn refused(player: &Player<'_>, answer: &str, e: MoveError) -> anyhow::Result<Failure> {
    match player {
        Player::Bot(_) => Ok(Failure::new(
            FailureReason::IllegalMove,
            format!("played {answer:?}, which is illegal: {e}"),
        )),
        Player::Human(_) => {
            Err(anyhow::Error::new(e).context("a checked move from the terminal was refused"))
        }
        Player::Local(local) => Err(anyhow::Error::new(e).context(format!(
            "the in-process player {} chose {answer:?}",
            local.name()
        ))),
    }
}

/// The turn's pieces of JSON text, kept up to date rather than rebuilt and
/// borrowed rather than copied (see `lines`).
struct TurnText {
    state: String,
    history_items: String,
    legal_move_items: String,
}

impl TurnText {
    fn new(moves: &[String]) -> TurnText {
        let mut history_items = String::new();
        for m in moves {
            push_item(&mut history_items, m);
        }
        TurnText {
            state: String::new(),
            history_items,
            legal_move_items: String::new(),
        }
    }

    fn push_move(&mut self, notation: &str) {
        push_item(&mut self.history_items, notation);
    }

    /// The `turn` for the side to move in `pos`.
    fn turn<'a>(
        &'a mut self,
        pos: &Position,
        config: &'a GameConfig,
        clock: TurnClock,
    ) -> TurnRef<'a> {
        self.state.clear();
        pos.write_state_json(&mut self.state);
        write_legal_moves(pos, &mut self.legal_move_items);
        TurnRef {
            game_id: &config.game_id,
            variant: config.variant.id,
            color: pos.to_move(),
            ply: pos.ply(),
            state: &self.state,
            history_items: &self.history_items,
            legal_move_items: &self.legal_move_items,
            clock,
        }
    }
}

/// Sends `game_over` to both bots, the failed ones too (they may still be
/// listening, and it helps their authors); then the failed ones are killed
/// (and restarted for their next game), the others kept for reuse.
async fn finish_seats(players: &mut [Player<'_>; 2], game_over: &RefereeMessage, failed: &[Color]) {
    for color in [Color::White, Color::Black] {
        if let Player::Bot(seat) = &mut players[color.index()] {
            // What it wrote during the game belongs in the game's log (and
            // the record names the log only if there is one).
            seat.settle_log();
            let failed = failed.contains(&color);
            let timeout = if failed {
                FAILED_SEND_TIMEOUT
            } else {
                CONTROL_SEND_TIMEOUT
            };
            let sent = seat.is_running() && seat.send_within(game_over, timeout).await.is_ok();
            if failed || !sent {
                seat.discard().await;
            } else {
                seat.finish_game();
            }
        }
    }
}

async fn prepare(player: &mut Player<'_>, log: Option<Arc<GameLog>>) -> Result<(), StartError> {
    match player {
        Player::Bot(seat) => {
            seat.prepare(log).await?;
            seat.begin_game();
            Ok(())
        }
        Player::Human(_) | Player::Local(_) => Ok(()),
    }
}

/// The log of one bot for this game; nothing touches the disk until the
/// bot writes to stderr.
fn game_log(config: &GameConfig, color: Color, name: &str) -> Option<Arc<GameLog>> {
    let dir = config.log_dir.as_ref()?;
    let file = format!(
        "{}-{color}-{}.log",
        file_safe(&config.game_id),
        file_safe(name)
    );
    let header = format!("[arena: game {} as {color}]\n", config.game_id);
    Some(GameLog::new(dir.join(file), header))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_rules::protocol::Turn;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The turn lines a game sends, built from the text kept up to date
    /// move by move into one reused buffer, are byte for byte the owned
    /// message's `serde_json` encoding, over whole random games of every
    /// variant (openings included, clocks of both kinds).
    #[test]
    fn turn_lines_are_the_owned_encoding_over_whole_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut line = String::new();
        for variant in Variant::all() {
            for game in 0..20u64 {
                let config = GameConfig::new(
                    &format!("g{game}"),
                    variant,
                    TimeControl::PerMove { move_ms: 700 },
                );
                let mut pos = Position::new(variant);
                let mut moves: Vec<String> = Vec::new();
                for _ in 0..game % 3 {
                    let m = *pos.legal_moves().choose(&mut rng).unwrap();
                    pos.play(&m).unwrap();
                    moves.push(m.to_string());
                }
                let mut text = TurnText::new(&moves);
                while !pos.is_over() {
                    let clock = TurnClock {
                        white_ms: (game % 2 == 0).then_some(9000 - pos.ply() as u64),
                        black_ms: (game % 2 == 0).then_some(8000),
                        move_ms: 700,
                        basis: Default::default(),
                    };
                    line.clear();
                    text.turn(&pos, &config, clock).write_line(&mut line);
                    let owned = Turn {
                        game_id: config.game_id.clone(),
                        variant: variant.id.into(),
                        color: pos.to_move(),
                        ply: pos.ply(),
                        state: pos.state_json(),
                        history: moves.clone(),
                        legal_moves: pos.legal_moves().iter().map(ToString::to_string).collect(),
                        clock,
                    };
                    let expected = RefereeMessage::Turn(owned).to_line();
                    assert_eq!(line, expected, "{} at ply {}", variant.id, pos.ply());
                    let m = *pos.legal_moves().choose(&mut rng).unwrap();
                    let notation = m.to_string();
                    pos.play_str(&notation).unwrap();
                    text.push_move(&notation);
                    moves.push(notation);
                }
            }
        }
    }
}
