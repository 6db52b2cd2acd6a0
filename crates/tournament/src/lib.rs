//! Runs that survive crashes (round robins, gauntlets, SPRTs, Swiss,
//! knockouts, adaptive rankings): a seeded schedule, a journal written as
//! games finish, a runner that plays games concurrently, one driver for
//! every format, and the formats, each one module.
//!
//! - [`settings`]: every setting defined once (key, flag, default, rule,
//!   docs, its typed slot), the one resolution of flags, file and
//!   defaults, and the entry points that make a run's settings
//!   ([`RunSettings`]) from them.
//! - [`config`]: [`TournamentConfig`], the settings a run uses, with its
//!   identity (the hash that ties shards of one tournament together).
//! - [`schedule`]: who plays whom, with which colours and opening.
//! - [`shard`]: a tournament split into independent runs (`--shard K/N`).
//! - [`merge`]: shards' output directories joined into one (`arena merge`).
//! - [`stage_shards`]: a Swiss or knockout played in shards one stage at a
//!   time (where it stands, a merge's results given with `--after`).
//! - [`manifest`]: `tournament.json`, the settings and plan of a run, for
//!   resuming; the plan is its format's ([`manifest::FormatPlan`]).
//! - [`journal`]: `games.jsonl`, the journal of game records, and
//!   `games.csv`, derived from it, appended as games end (by a writer
//!   thread, synced by time), repaired on resume.
//! - [`lines`]: complete lines of an append-only file, a torn last one left out.
//! - [`games_reader`]: reading `games.csv` back, one row at a time.
//! - [`game_set`]: finished game ids, one bit each.
//! - [`preflight`]: checks of the machine before the first game (the
//!   sandbox works, the descriptors and processes the concurrency needs
//!   fit the limits, more games at once than cores).
//! - [`start_check`]: each bot started once before the first game; one
//!   that cannot start stops the run with its first line on stderr.
//! - [`identity`]: which program each bot was (SHA-256 of its files).
//! - [`league`]: a league's directory that lasts: its settings, its bots'
//!   versions ([`league::registry`]) and every game played in it.
//! - [`openings`]: opening suites, their order, each pair's opening;
//!   [`suite_gen`]: `arena openings`, a suite generated.
//! - [`output_files`]: the names of the files of an output directory.
//! - [`live`]: the games being played, move by move, for `--serve`.
//! - [`session`]: one output directory, new or resumed.
//! - [`runner`]: concurrent games with reused bot processes; the first
//!   Ctrl-C finishes the games in flight, a second one (or SIGTERM) stops at once.
//! - [`breaker`]: stops starting a bot after repeated start-up failures.
//! - [`cpu_wait`]: whether the bots were often kept waiting for a CPU.
//! - [`progress`]: what a run reports as it goes, through the [`RunOutput`]
//!   trait a front end implements (the terminal one is `cli::output`); nothing
//!   in this module prints.
//! - [`repeats`]: failures that repeat, counted per bot and cause instead
//!   of shown game after game.
//! - [`text`]: what a format says (lines and tables) for a front end to show.
//! - [`driver`]: the one run loop of every kind of run (create or resume,
//!   count earlier games, play, the outcome), which owns the run's tally.
//! - [`format`]: the [`format::Format`] trait: a format's games, when it
//!   stops, its words, its verdict ([`format::Verdict`]) and its section of
//!   report.html; [`registry`]: the one table of the formats. The formats:
//! - [`round_robin`]: the round robin, or a gauntlet (the same schedule
//!   over only the seeds' pairings);
//! - [`sprt`]: game pairs between two bots until an SPRT decides;
//! - [`swiss`]: rounds of pairings by score ([`swiss_table`]: its table);
//! - [`knockout`]: a seeded single-elimination bracket;
//! - [`paired`]: what those two share: stages of games, each computed
//!   from the results of the ones before;
//! - [`adaptive`]: rounds of game pairs where the ranking is uncertain,
//!   until it is certified ([`certificate`]: its `certificate.csv`).
//! - [`rows_file`]: a CSV file of rows written atomically (the rating
//!   files, certificate.csv); [`rounded`]: how their numbers are rounded.
//! - [`tally`]: a `games.csv` row counted by the run's tally
//!   ([`arena_stats::Tally`]).
//! - `testing` (tests only: `cfg(test)`, or the `testing` feature of a
//!   dev-dependency): fixed defaults, runs of flags, rows of scheduled games.
//!
//! Rating the tally at the end of a run is `report`'s job, called by the
//! front end (`report::rating::rate_run`): this layer imports nothing from
//! `report` or `cli`.

pub mod adaptive;
pub mod breaker;
pub mod certificate;
pub mod config;
pub mod cpu_wait;
pub mod driver;
pub mod format;
pub mod game_set;
pub mod games_reader;
pub mod identity;
pub mod journal;
pub mod knockout;
pub mod league;
pub mod lines;
pub mod live;
pub mod manifest;
pub mod merge;
pub mod openings;
pub mod output_files;
pub mod paired;
pub mod preflight;
pub mod progress;
pub mod registry;
pub mod repeats;
pub mod round_robin;
pub mod rounded;
pub mod rows_file;
pub mod runner;
pub mod schedule;
pub mod session;
pub mod settings;
pub mod shard;
pub mod sprt;
pub mod stage_shards;
pub mod start_check;
pub mod suite_gen;
pub mod swiss;
pub mod swiss_table;
pub mod tally;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod text;

pub use adaptive::AdaptivePlan;
pub use config::{Defaults, TournamentConfig};
pub use journal::{Journal, Recovery};
pub use knockout::KnockoutPlan;
pub use manifest::{Manifest, Plan};
pub use progress::{RunOutcome, RunOutput};
pub use round_robin::RoundRobinPlan;
pub use schedule::ScheduledGame;
pub use settings::Given;
pub use settings::RunSettings;
pub use sprt::SprtPlan;
pub use swiss::SwissPlan;
