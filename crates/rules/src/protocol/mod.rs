//! The line-JSON protocol spoken between the referee and bot programs (version 1).
//!
//! One JSON object per `\n`-terminated UTF-8 line in each direction; every
//! object has a `"type"`. The human-facing description for bot authors is
//! `protocol/PROTOCOL.md`; `protocol/schema.json` is the machine-readable form.
//!
//! - [`messages`]: the typed messages, referee -> bot ([`RefereeMessage`]) and
//!   bot -> referee ([`BotMessage`]).
//! - [`decode`]: turning an untrusted line of bytes into a message, with an
//!   error a bot author can act on ([`ProtocolError`]).
//! - [`encode`]: turning a message into exactly one line.
//! - [`reasons`]: why a game ended ([`Reason`]), as `game_over` and the records say.
//! - [`time_control`]: time controls and their command-line spelling.

pub mod decode;
pub mod encode;
pub mod messages;
pub mod reasons;
pub mod time_control;

/// The result type of the games engine, re-exported because `game_over` carries it.
pub use crate::games::{GameResult, RuleReason};
pub use decode::{decode_bot_line, decode_referee_line, ProtocolError};
pub use encode::encode_line;
pub use messages::{
    BotMessage, BotMove, ClockBasis, GameOver, Hello, NewGame, Ready, RefereeMessage, TimeControl,
    Turn, TurnClock,
};
pub use reasons::{FailureReason, Reason};
pub use time_control::{format_time_control, parse_time_control, TimeControlError, MAX_TIME_MS};

/// The protocol version this referee speaks; sent in `hello`, echoed in `ready`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Longest accepted line in either direction, in bytes, excluding the `\n`.
/// A bot that writes a longer line loses with `protocol_error`.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
