//! The referee: starting and supervising bot processes, clocks, and playing
//! one game between two players.
//!
//! - [`game`]: [`play_game`] / [`play_bots`], one game from handshake to
//!   `game_over`, producing a [`GameRecord`] ([`record`]).
//! - [`row`]: [`GameRow`], a record's line in `games.csv` (the tournament
//!   journal writes rows, the report reads them).
//! - [`game_id`]: a game's id, `gN`, in every file, page and message.
//! - [`seat`]: [`Seat`], the protocol side of one bot (handshake, turns,
//!   failures, restart after failure) and [`BotPool`] of idle bots.
//! - [`human`]: a person playing, at the terminal or on a page.
//! - [`local`]: players inside the referee ([`RandomPlayer`]).
//! - [`spec`]: [`BotSpec`], how to start a bot (argv, cwd, env, limits).
//! - [`process`]: [`BotProcess`], one running bot in its own process group.
//! - [`spawn`]: starting a bot's process without copying the referee
//!   (`clone(CLONE_VM | CLONE_VFORK)`), and waiting for it through a pidfd.
//! - [`program`]: whether a bot's program can start, asked before any game.
//! - [`start_slots`]: how many bots start at once (the cores), so that a
//!   start-up limit measures the bot and not a queue for the CPU.
//! - [`line_reader`]: size-capped, cancel-safe line reading from a bot.
//! - [`direct_io`]: a move's pipe I/O in plain system calls, without the
//!   runtime's costs (waiting in `poll(2)` on a current-thread runtime).
//! - [`turn_lines`]: `turn` and `new_game` encoded from borrowed game data.
//! - [`log`]: the bot's stderr drained into a capped log file.
//! - [`suspend`]: a bot stopped while it is not on move (`suspend_idle`).
//! - [`limits`]: rlimits and the rest of the child's setup before exec; the
//!   CPU time of a bot's process tree.
//! - [`sandbox`]: [`Sandbox`], the bot's argv wrapped in bubblewrap.
//! - [`referee_failure`]: [`RefereeFailure`], a failure of the referee or
//!   the machine (never a game result), and which start failures are whose.
//! - [`exit`]: how a process ended and which game-end reason that is.
//! - [`cgroup`]: a cgroup v2 per bot, for the CPU time of its whole tree.
//! - [`clock`]: time controls and the game clock.
//! - [`command_line`]: splitting a typed command line into argv.
//! - [`cpu_clock`]: the CPU time of a bot's process, for each move.
//! - [`run_queue`]: how long a bot waited for a CPU, which the start-up
//!   limit and a CPU clock's wall-time cap do not count.
//! - [`adjudicate`]: ending a proven game at once (`adjudicate = "solved"`).
//! - [`trace`]: a bot's wire trace, every line both ways.
//!
//! Playing games from a pool of bots (what a tournament does):
//!
//! ```no_run
//! use std::sync::{Arc, Mutex};
//! use arena_rules::games::Variant;
//! use arena_rules::protocol::TimeControl;
//! use arena_referee::{play_bots, read_bots_file, BotPool, GameConfig, SpawnOptions};
//!
//! # async fn demo() -> anyhow::Result<()> {
//! let bots = read_bots_file("bots.toml".as_ref())?;
//! let pool = Arc::new(Mutex::new(BotPool::new(SpawnOptions::default())));
//! let (mut white, mut black) = {
//!     let mut pool = pool.lock().unwrap();
//!     (pool.checkout(&bots[0]), pool.checkout(&bots[1]))
//! };
//! let mut config = GameConfig::new("g1", Variant::by_id("qango6").unwrap(),
//!     TimeControl::PerMove { move_ms: 1000 });
//! config.opening = vec!["c3".into()];
//! config.log_dir = Some("arena-out/logs".into());
//! let record = play_bots(&mut white, &mut black, &config).await?;
//! println!("{} {} {}", record.result.as_str(), record.reason, record.message);
//! let row = record.to_games_row(); // games.csv (a tournament sets the place first)
//! # let _ = row;
//! {
//!     let mut pool = pool.lock().unwrap();
//!     // Kept running for its next game unless it failed; a pool with an
//!     // idle cap hands back the seats it evicts, to be shut down.
//!     assert!(pool.checkin(white).is_empty());
//!     assert!(pool.checkin(black).is_empty());
//! }
//! // At the end: quit every idle bot (dropping a pool also kills them).
//! let mut pool = Arc::try_unwrap(pool).unwrap().into_inner().unwrap();
//! pool.shutdown().await;
//! # Ok(()) }
//! ```

pub mod adjudicate;
pub mod cgroup;
pub mod clock;
pub mod command_line;
pub mod cpu_clock;
pub mod direct_io;
pub mod exit;
pub mod game;
pub mod game_id;
pub mod human;
pub mod limits;
pub mod line_reader;
pub mod local;
pub mod log;
pub mod process;
pub mod program;
pub mod record;
pub mod referee_failure;
pub mod row;
pub mod run_queue;
pub mod sandbox;
pub mod seat;
pub mod spawn;
pub mod spec;
pub mod start_slots;
pub mod suspend;
pub mod trace;
pub mod turn_lines;

pub use clock::{
    format_time_control, parse_time_control, Clock, Flagged, TimeControl, DEFAULT_GRACE,
    DEFAULT_GRACE_MS,
};
pub use exit::ExitInfo;
pub use game::{play_bots, play_game, GameConfig, GameEvent, Participant, Player};
pub use human::{Human, PageAnswer};
pub use line_reader::{ReadLine, DEFAULT_MAX_LINE};
pub use local::{LocalPlayer, RandomPlayer};
pub use log::DEFAULT_LOG_CAP;
pub use process::{BotProcess, SendError, SpawnError, SpawnOptions};
pub use program::program_problem;
pub use record::GameRecord;
pub use referee_failure::{FailureKind, RefereeFailure, RepeatedFailure};
pub use row::GameRow;
pub use sandbox::Sandbox;
pub use seat::{BotPool, Failure, Seat};
pub use spec::{name_from_command, read_bots_file, resolve_player, BotLimits, BotSpec};
