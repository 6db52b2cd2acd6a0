//! The referee: starting and supervising bot processes, clocks, and playing
//! one game between two players.
//!
//! - [`game`]: [`play_game`] / [`play_bots`], one game from handshake to
//!   `game_over`, producing a [`GameRecord`] ([`record`]).
//! - [`seat`]: [`Seat`], the protocol side of one bot (handshake, turns,
//!   failures, restart after failure) and [`BotPool`] of idle bots.
//! - [`human`]: a person playing at the terminal.
//! - [`spec`]: [`BotSpec`], how to start a bot (argv, cwd, env, limits).
//! - [`process`]: [`BotProcess`], one running bot in its own process group.
//! - [`line_reader`]: size-capped, cancel-safe line reading from a bot.
//! - [`log`]: the bot's stderr drained into a capped log file.
//! - [`limits`]: rlimits applied in the child before exec.
//! - [`exit`]: how a process ended and which game-end reason that is.
//! - [`clock`]: time controls and the game clock.
//! - [`command_line`]: splitting a typed command line into argv.

pub mod clock;
pub mod command_line;
pub mod exit;
pub mod game;
pub mod human;
pub mod limits;
pub mod line_reader;
pub mod log;
pub mod process;
pub mod record;
pub mod seat;
pub mod spec;

pub use clock::{
    format_time_control, parse_time_control, Clock, Flagged, TimeControl, DEFAULT_GRACE,
};
pub use exit::ExitInfo;
pub use game::{play_bots, play_game, GameConfig, GameEvent, Player};
pub use human::Human;
pub use line_reader::{ReadLine, DEFAULT_MAX_LINE};
pub use log::DEFAULT_LOG_CAP;
pub use process::{BotProcess, SendError, SpawnOptions};
pub use record::GameRecord;
pub use seat::{BotPool, Failure, Seat};
pub use spec::{BotSpec, Limits};
