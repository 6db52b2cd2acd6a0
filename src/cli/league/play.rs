//! `arena league play DIR [--games N | --until-certified] [-j J]`: plays
//! the game pairs the league needs ([`crate::tournament::league::play`]),
//! one line per game and per batch as a tournament prints them, then rates
//! every game (standings.csv, versions.csv) and shows the latest versions.

use std::path::PathBuf;

use anyhow::bail;

use crate::cli::output::{Terminal, TERMINAL_ROWS};
use crate::cli::tournament::{schedule_exit_status, show_progress};
use crate::referee::{GameRecord, GameRow};
use crate::report::league::LeagueStandings;
use crate::tournament::league::play::{Goal, LeaguePlay, PlayOptions};
use crate::tournament::league::registry::{parse_label, Registered};
use crate::tournament::league::League;
use crate::tournament::progress::{PairedRound, RunOutcome, RunOutput, RunStatus};
use crate::tournament::runner::RunEnd;
use crate::tournament::settings::defs::CONCURRENCY;
use crate::tournament::settings::{Defaults, Given};
use crate::tournament::shard::Shard;

/// `--max-games`' default: `--until-certified` always ends.
pub const DEFAULT_MAX_GAMES: u64 = 10_000;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each batch is decided when the one before it has finished: first every two \
active versions (the latest of each bot not retired, NAME@N) that have not played a game pair \
play one, then the adjacent pairs of the joint rating whose order is not yet certain. A bot whose \
program changed becomes its next version first. Games are played with league.toml's settings as \
a tournament's, appended to games.jsonl as they end; then every game is rated (standings.csv, \
versions.csv).\n\nCtrl-C lets the games in flight finish (exit status 130); a second one stops at \
once. After a kill, play again: nothing recorded is lost or played twice. One arena at a time \
writes a league. More: docs/LEAGUE.md."
)]
pub struct PlayArgs {
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Play N more games (rounded up to whole pairs), batch after batch.
    /// [default: one batch]
    #[arg(long, value_name = "N", conflicts_with = "until_certified")]
    pub games: Option<u64>,
    /// Play until the latest versions' order is certified (at most
    /// --max-games games).
    #[arg(long)]
    pub until_certified: bool,
    /// The most games --until-certified plays.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_GAMES, requires = "until_certified")]
    pub max_games: u64,
    /// The certificate's confidence: the certified order is wrong with at
    /// most 1 - P.
    #[arg(long, value_name = "P", default_value_t = 0.95)]
    pub confidence: f64,
    /// Games played at once. [default: league.toml's, else the cores]
    #[arg(short = 'j', long, value_name = "J")]
    pub concurrency: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Play only shard K of N of the next --games N games (several
    /// machines, e.g. a Slurm job array): the shards share one plan made
    /// from the league as it is, each plays its pairs into
    /// DIR/shards/; the next `arena league play DIR` (`--games 0` plays
    /// nothing else) brings their games into the league.
    #[arg(long, value_name = "K/N", requires = "games")]
    pub shard: Option<Shard>,
}

pub fn play(args: PlayArgs) -> anyhow::Result<i32> {
    if !(args.confidence > 0.0 && args.confidence < 1.0) {
        bail!(
            "--confidence {}: must be between 0 and 1 (e.g. 0.95)",
            args.confidence
        );
    }
    let mut given = Given::new();
    if let Some(j) = args.concurrency {
        given.set(&CONCURRENCY, j.to_string());
    }
    let options = PlayOptions {
        goal: goal(&args),
        shard: args.shard,
        confidence: args.confidence,
        given,
        defaults: Defaults::from_environment(),
    };
    let mut league = League::open(&args.dir)?;
    let mut prepared = LeaguePlay::prepare(&mut league, &options)?;
    for registered in &prepared.changed {
        let label = match registered {
            Registered::New(l) | Registered::NewVersion(l) | Registered::Unchanged(l) => l,
        };
        let name = parse_label(label).map_or(label.as_str(), |(name, _)| name);
        outln!("{name}: {}", registered.sentence());
    }
    for repair in &prepared.repairs {
        outln!("recovered: {repair}");
    }
    if prepared.collected > 0 {
        outln!(
            "collected {} games the shards played ({})",
            prepared.collected,
            args.dir.join("shards").display()
        );
    }
    let mut output = LeagueOutput(Terminal::new(show_progress(args.no_progress)));
    let outcome = match prepared.first.take() {
        None => {
            outln!("Nothing to play: {}", nothing_why(&prepared)?);
            None
        }
        Some(first) => Some(play_batches(&mut prepared, first, &mut output, &args)?),
    };
    match args.shard {
        // A shard leaves the league as it is: its games join it later.
        Some(shard) => outln!(
            "Shard {shard}: its games are in {}; arena league play {} --games 0 brings them into the league.",
            prepared.journal.dir().display(),
            args.dir.display()
        ),
        None => show_standings(&league)?,
    }
    Ok(outcome.map_or(0, |o| schedule_exit_status(&o)))
}

/// What the flags ask.
fn goal(args: &PlayArgs) -> Goal {
    match (args.games, args.until_certified) {
        (_, true) => Goal::Certified {
            max_games: args.max_games,
        },
        (Some(n), false) => Goal::Games(n),
        (None, false) => Goal::OneBatch,
    }
}

/// Why the first batch is empty.
fn nothing_why(prepared: &LeaguePlay) -> anyhow::Result<&'static str> {
    Ok(match prepared.feed.certified()? {
        Some(true) => "the latest versions' order is certified already",
        _ => "no games asked (--games 0)",
    })
}

/// Plays from the first batch on; how it ended.
fn play_batches(
    prepared: &mut LeaguePlay,
    first: PairedRound,
    output: &mut LeagueOutput,
    args: &PlayArgs,
) -> anyhow::Result<RunOutcome> {
    let config = &prepared.config;
    outln!(
        "League {}: {} bots ({}), {}, {} games so far; {}",
        args.dir.display(),
        config.bots.len(),
        config.bot_names().join(", "),
        config.variant_ids().join(", "),
        prepared.finished_before,
        match goal(args) {
            Goal::OneBatch => "one batch".to_string(),
            Goal::Games(n) => format!("{} more games", n.div_ceil(2) * 2),
            Goal::Certified { max_games } =>
                format!("until the order is certified (at most {max_games} games)"),
        }
    );
    output.round_paired(&first);
    let total = match goal(args) {
        Goal::OneBatch => Some(prepared.feed.planned()),
        Goal::Games(_) if args.shard.is_some() => Some(prepared.feed.planned()),
        Goal::Games(n) => Some(n.div_ceil(2) * 2),
        Goal::Certified { .. } => None,
    };
    output.playing(0, total, &RunStatus::default());
    let summary = prepared.play(output);
    output.stopped_playing();
    let summary = summary?;
    if let RunEnd::BotsDisabled(all) = &summary.end {
        outln!(
            "\nStopped: {}; fix them (or stop scheduling one: arena league retire {} NAME), then play again.",
            all.line(),
            args.dir.display()
        );
    }
    let certified = match prepared.feed.certified()? {
        Some(true) => "certified",
        Some(false) if args.until_certified && summary.end == RunEnd::Complete => {
            "not certified at --max-games (equal bots are never told apart)"
        }
        Some(false) => "not certified yet",
        None => "not rated yet",
    };
    if let Some(shard) = args.shard {
        outln!("\n{} games played by shard {shard}.", summary.played);
    } else {
        outln!(
            "\n{} games played ({} in the league); the latest versions' order is {certified} at confidence {}.",
            summary.played,
            prepared.finished_before + summary.played,
            args.confidence
        );
    }
    Ok(RunOutcome {
        dir: args.dir.clone(),
        end: summary.end,
        finished: prepared.finished_before + summary.played,
        total,
        failed: summary.failed,
    })
}

/// Rates every game of the league, writes standings.csv and versions.csv
/// and prints the latest versions' table.
fn show_standings(league: &League) -> anyhow::Result<()> {
    let registry = league.registry()?;
    let standings = LeagueStandings::of(league, &registry)?;
    standings.write(league, &registry)?;
    let table = standings.latest.render_table_top(TERMINAL_ROWS);
    outln!("{}", table.strip_suffix('\n').unwrap_or(&table));
    Ok(())
}

/// The terminal of a run, saying what a league does after a stop (play
/// again; there is no --resume).
struct LeagueOutput(Terminal);

impl RunOutput for LeagueOutput {
    fn warning(&mut self, text: &str) {
        self.0.warning(text);
    }
    fn playing(&mut self, done: u64, total: Option<u64>, status: &RunStatus) {
        self.0.playing(done, total, status);
    }
    fn checking_starts(&mut self, bots: usize) {
        self.0.checking_starts(bots);
    }
    fn game_finished(&mut self, row: &GameRow, record: &GameRecord) {
        self.0.game_finished(row, record);
    }
    fn game_not_recorded(&mut self, game_id: u64, why: &str) {
        self.0.game_not_recorded(game_id, why);
    }
    fn bot_disabled(&mut self, name: &str, why: &str) {
        self.0.bot_disabled(name, why);
    }
    fn round_paired(&mut self, round: &PairedRound) {
        self.0.round_paired(round);
    }
    fn progress(&mut self, status: &RunStatus) {
        self.0.progress(status);
    }
    fn finishing(&mut self, games: usize) {
        self.0.finishing(games);
    }
    fn stopping_now(&mut self, abandoned: usize) {
        self.0.warning(&format!(
            "Stopping now: {abandoned} games in flight not recorded (arena league play goes on from the games recorded)"
        ));
    }
    fn stopped_playing(&mut self) {
        self.0.stopped_playing();
    }
}
