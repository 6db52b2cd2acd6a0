//! Typed protocol messages in both directions.
//!
//! Field names and `"type"` tags are the wire format (see `protocol/PROTOCOL.md`).
//! Unknown extra fields are ignored when decoding so that either side may add
//! optional fields without breaking the other. `VARIANT_INFO` and `STATE` are
//! produced by the games engine and passed through as raw JSON values.

pub use super::time_control::TimeControl;
use super::Reason;
use crate::games::{Color, GameResult};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Every message the referee sends to a bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RefereeMessage {
    Hello(Hello),
    NewGame(NewGame),
    Turn(Turn),
    GameOver(GameOver),
    /// The bot should exit promptly; it is killed after a grace period.
    Quit,
}

/// First message to every bot process; the bot must answer with `ready`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    /// Name and version of the referee program, e.g. `arena 0.1.0`.
    pub referee: String,
}

/// Announces a game; no answer expected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewGame {
    pub game_id: String,
    /// `VARIANT_INFO` from the games engine: board shape, cells, win patterns.
    pub variant: Value,
    /// The colour this bot plays.
    pub color: Color,
    /// The opponent's display name.
    pub opponent: String,
    pub time_control: TimeControl,
}

/// Asks the bot for a move; the bot must answer with `move` in time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    pub game_id: String,
    /// The variant id, e.g. `qango6` (the full info came with `new_game`).
    pub variant: String,
    /// The colour to move, i.e. the bot's own colour.
    pub color: Color,
    /// Number of moves already played in the game (0 for the first move).
    pub ply: u32,
    /// `STATE` from the games engine: board, side to move, supplies.
    pub state: Value,
    /// All moves so far, in notation.
    pub history: Vec<String>,
    /// Every legal move in this position, in notation; never empty.
    pub legal_moves: Vec<String>,
    pub clock: TurnClock,
}

/// Time information sent with each `turn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClock {
    /// White's remaining clock time, or `null` under a per-move time control.
    pub white_ms: Option<u64>,
    /// Black's remaining clock time, or `null` under a per-move time control.
    pub black_ms: Option<u64>,
    /// The hard limit for this move, already capped by what is left on a clock.
    pub move_ms: u64,
    /// What the times count; sent only when it is CPU time (`"cpu"`), so a
    /// turn without it counts wall time.
    #[serde(default, skip_serializing_if = "ClockBasis::is_wall")]
    pub basis: ClockBasis,
}

/// What a bot's clock counts: the wall time from the turn being written to
/// the move being read, or the CPU time the bot's process used meanwhile.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockBasis {
    #[default]
    Wall,
    Cpu,
}

impl ClockBasis {
    pub fn is_wall(&self) -> bool {
        *self == ClockBasis::Wall
    }

    /// The basis a settings word names (`wall`, `cpu`).
    pub fn from_word(word: &str) -> Option<ClockBasis> {
        match word {
            "wall" => Some(ClockBasis::Wall),
            "cpu" => Some(ClockBasis::Cpu),
            _ => None,
        }
    }

    /// The word of the settings and the records: `wall` or `cpu`.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockBasis::Wall => "wall",
            ClockBasis::Cpu => "cpu",
        }
    }
}

/// Tells the bot how a game ended; no answer expected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOver {
    pub game_id: String,
    pub result: GameResult,
    /// `null` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
    /// The winning cells for a pattern win (`group`, `square`, `line`), else empty.
    pub cells: Vec<String>,
    /// Human-readable explanation, e.g. which bot timed out and by how much.
    pub message: String,
}

/// Every message a bot sends to the referee.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    Ready(Ready),
    Move(BotMove),
}

/// The bot's answer to `hello`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ready {
    /// The bot's self-chosen name (display only; tournaments name bots in their config).
    pub name: String,
    /// The protocol version the bot speaks; must equal `PROTOCOL_VERSION`.
    pub protocol: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The bot's answer to `turn`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotMove {
    /// The move in notation, e.g. `c3` (Qango) or `capture d4 b2` (Quinque).
    #[serde(rename = "move")]
    pub mv: String,
    /// Free text for the bot's own use (e.g. an evaluation); the referee ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}
