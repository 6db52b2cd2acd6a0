//! The record of one finished game, as written by `arena play --record` and
//! kept by tournaments. Its `game` and `moves` fields are what `arena judge`
//! replays; everything else is the referee's account of the game.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::clock::format_time_control;
use super::row::GameRow;
use arena_rules::games::Color;
use arena_rules::protocol::{GameResult, Ready, Reason, TimeControl};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Variant id, e.g. `qango6` (the field `arena judge` reads).
    pub game: String,
    pub game_id: String,
    /// Names of the two players.
    pub white: String,
    pub black: String,
    /// The game's time control: the tournament's (each side's own is below).
    pub time_control: TimeControl,
    /// Each side's own time control, which differs from `time_control`
    /// when a bot has time odds. Absent in records written before arena
    /// recorded it (both sides then played `time_control`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_time_control: Option<TimeControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_time_control: Option<TimeControl>,
    /// Moves forced before the bots played; also the first moves of `moves`.
    pub opening: Vec<String>,
    /// Every move of the game in notation, opening included.
    pub moves: Vec<String>,
    /// Thinking time of each move in `moves`, in ms (0 for opening moves).
    pub move_times_ms: Vec<u64>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// `null` for a draw.
    pub winner: Option<Color>,
    /// A rules reason (`group`, `square`, `line`, `full`, ...) or a failure
    /// reason (`timeout`, `illegal_move`, `crash`, ...).
    pub reason: Reason,
    /// What happened in words: the winning pattern, the rules engine's
    /// explanation of an illegal move, a crash's exit status, ...
    pub message: String,
    /// Winning cells for a pattern win, else empty.
    pub cells: Vec<String>,
    pub plies: u32,
    /// Total thinking time of each side, in ms.
    pub white_time_ms: u64,
    pub black_time_ms: u64,
    /// The bots' stderr log files of this game. Absent when there is none:
    /// the bot wrote nothing to stderr during the game (a file is created
    /// on its first byte), logging was off, or the file could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_log: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_log: Option<PathBuf>,
    /// When a bot's log file could not be created or written: the end of
    /// what it wrote to stderr in this game (up to 64 KiB). Else absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_log_tail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_log_tail: Option<String>,
    /// Problems of the referee itself that did not change the game (a log
    /// file that could not be written, and why). Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The bots' wire traces for this game (absent when not traced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_trace: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_trace: Option<PathBuf>,
    /// What each bot said about itself in `ready` (name, version, author,
    /// protocol); absent for a player that is no bot or never got ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ready: Option<Ready>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ready: Option<Ready>,
    /// Wall-clock duration of the whole game, startup included, in ms.
    pub duration_ms: u64,
    /// When the game ended, UTC, RFC 3339 (see [`arena_files::utc_rfc3339`]);
    /// empty in records written before arena recorded it.
    #[serde(default)]
    pub ended_utc: String,
}

impl GameRecord {
    /// The loser, if a side lost.
    pub fn loser(&self) -> Option<Color> {
        self.winner.map(Color::opponent)
    }

    /// The time control `color` played under.
    pub fn time_control_of(&self, color: Color) -> TimeControl {
        match color {
            Color::White => self.white_time_control,
            Color::Black => self.black_time_control,
        }
        .unwrap_or(self.time_control)
    }

    /// The `games.csv` row of this game, given its place in a schedule.
    pub fn to_games_row(&self, id: u64, round: u64, pair: u64) -> GameRow {
        GameRow {
            id,
            round,
            pair,
            variant: self.game.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            opening: self.opening.join(" "),
            result: self.result,
            reason: self.reason,
            plies: self.plies,
            white_time_ms: self.white_time_ms,
            black_time_ms: self.black_time_ms,
            ended_utc: self.ended_utc.clone(),
            white_tc: format_time_control(&self.time_control_of(Color::White)),
            black_tc: format_time_control(&self.time_control_of(Color::Black)),
        }
    }
}
