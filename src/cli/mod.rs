//! Command-line front end: one file per subcommand, each with its clap
//! `Args` and a `run` that returns the process exit status, plus
//! [`output`], the terminal's view of a tournament or SPRT run (what the
//! lower layers report through `tournament::RunOutput`).
//!
//! - Runs: [`tournament`], [`sprt`], [`merge`], [`openings`] (a suite),
//!   and [`setting_flags`] (their flags, from the settings' definitions);
//!   [`league`], a league that lasts.
//! - Results: [`rate`], [`report`], [`serve`] (the live page), [`analyse`]
//!   (moves against perfect play).
//! - Games: [`play`], [`show`], [`judge`], [`solve`], [`games`] (the variants).
//! - Bots: [`check_bot`].
//! - Documentation: [`reference`] (docs/REFERENCE.md), [`man`], [`completions`].

use clap::{Parser, Subcommand};

/// `println!` for the commands' output: a closed stdout (`arena games |
/// head`) ends nothing and panics nowhere; what a command prints is a view,
/// and what it writes to files is the record.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` as [`outln!`] is `println!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

pub mod analyse;
pub mod check_bot;
pub mod completions;
pub mod games;
pub mod judge;
pub mod league;
pub mod man;
pub mod merge;
pub mod openings;
pub mod output;
pub mod play;
pub mod rate;
pub mod reference;
pub mod report;
pub mod serve;
pub mod setting_flags;
pub mod show;
pub mod solve;
pub mod sprt;
pub mod tournament;

#[derive(Debug, Parser)]
#[command(
    name = "arena",
    version,
    about = "Referee and tournament runner for Qango and Quinque bots",
    after_help = "Without a command, arena plays ./arena.toml as `arena tournament` does (in \
arena's repository: the bundled tournament); without that file it prints a quick start.\n\n\
Write a bot: bots/README.md and protocol/PROTOCOL.md."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the variants, or draw one board with its colour groups (rules: docs/RULES.md).
    Games(games::Args),
    /// Replay a game record (JSON) and print its outcome.
    Judge(judge::Args),
    /// Prove a position (a record, moves, or a run's game): win, draw or loss for the side to move, and a move that keeps it.
    Solve(solve::Args),
    /// Play one game between two bots.
    Play(play::Args),
    /// Check that a bot follows the protocol.
    CheckBot(check_bot::Args),
    /// Run a round-robin tournament (default: ./arena.toml).
    Tournament(tournament::Args),
    /// Join the output directories of a tournament's shards into one.
    Merge(merge::Args),
    /// Recompute standings and pairwise tables from games.csv files.
    Rate(rate::Args),
    /// Write report.html (plots, game list, board viewer) over output directories.
    Report(report::Args),
    /// Judge every move the bots of a run chose against perfect play (the solver).
    Analyse(analyse::Args),
    /// Serve a live page of output directories that updates itself as games
    /// end; with --play, a page to play bots on.
    Serve(serve::Args),
    /// Replay one game of an output directory in the terminal.
    Show(show::Args),
    /// Play game pairs between two bots until an SPRT decides.
    Sprt(sprt::Args),
    /// A league that lasts: bots with versions, every game, one rating.
    League(league::Args),
    /// Generate an opening suite (distinct up to symmetry, optionally balanced).
    Openings(openings::Args),
    /// Print the man page (roff) of arena or of one command: `arena man | man -l -`.
    Man(man::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::Args),
}

/// What bare `arena` prints where there is no `./arena.toml` to play.
pub const QUICK_START: &str = "\
arena: referee and tournament runner for Qango and Quinque bots.

There is no arena.toml here, so there is nothing to play. To start:

  arena games                                the variants and their boards
  arena check-bot -- python3 my_bot.py       does a bot follow the protocol?
  arena play qango6 'python3 my_bot.py' human
                                             play one game against it yourself
  arena tournament --bot a='python3 a.py' --bot b='python3 b.py'
                                             a round robin (or: arena tournament FILE.toml)
  arena --help                               every command

With an arena.toml in the current directory, `arena` alone plays it.
Write a bot: bots/README.md and protocol/PROTOCOL.md in arena's repository.
";

/// Parses the command line, runs the subcommand and returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Games(a)) => games::run(a),
        Some(Command::Judge(a)) => judge::run(a),
        Some(Command::Solve(a)) => solve::run(a),
        Some(Command::Play(a)) => play::run(a),
        Some(Command::CheckBot(a)) => check_bot::run(a),
        Some(Command::Tournament(a)) => tournament::run(a),
        Some(Command::Merge(a)) => merge::run(a),
        Some(Command::Rate(a)) => rate::run(a),
        Some(Command::Sprt(a)) => sprt::run(a),
        Some(Command::League(a)) => league::run(a),
        Some(Command::Openings(a)) => openings::run(a),
        Some(Command::Report(a)) => report::run(a),
        Some(Command::Analyse(a)) => analyse::run(a),
        Some(Command::Serve(a)) => serve::run(a),
        Some(Command::Show(a)) => show::run(a),
        Some(Command::Man(a)) => man::run(a),
        Some(Command::Completions(a)) => completions::run(a),
        None if tournament::bundled_file_here() => tournament::run(tournament::Args::default()),
        None => {
            out!("{QUICK_START}");
            Ok(0)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("arena: error: {e:#}");
            2
        }
    }
}
