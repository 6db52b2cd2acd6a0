//! The referee: starting and supervising bot processes, clocks, and (later)
//! playing one game between two bots.
//!
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
pub mod limits;
pub mod line_reader;
pub mod log;
pub mod process;
pub mod spec;

pub use clock::{Clock, Flagged, TimeControl, DEFAULT_GRACE};
pub use exit::ExitInfo;
pub use line_reader::{ReadLine, DEFAULT_MAX_LINE};
pub use log::DEFAULT_LOG_CAP;
pub use process::{BotProcess, SendError, SpawnOptions};
pub use spec::{BotSpec, Limits};
