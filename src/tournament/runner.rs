//! Plays games from a [`GameFeed`] with up to `concurrency` games at once,
//! journaling each one as it ends.
//!
//! Bot processes are kept in a [`BotPool`] and reused from game to game (the
//! referee restarts a bot only after it failed). SIGINT (Ctrl-C) or SIGTERM
//! stops the run cleanly: games still running are abandoned and not
//! recorded, every bot process is killed, and the caller writes standings
//! from what was finished. A game the referee itself could not run (not a
//! bot's fault, e.g. an unwritable log directory) or that panicked is left
//! unrecorded and reported; `--resume` plays it again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use tokio::task::JoinSet;

use super::config::TournamentConfig;
use super::journal::{Journal, LOGS_DIR};
use super::progress::{game_line, Progress};
use super::schedule::ScheduledGame;
use crate::referee::{play_bots, BotPool, GameConfig, GameRecord, SpawnOptions};
use crate::report::games_csv::GameRow;

/// Whether the run goes on after a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Stop now (an SPRT decided); running games are abandoned.
    Stop,
}

/// Where games come from and what happens when they end.
pub trait GameFeed {
    /// The next game to start, or `None` if there is none to start now.
    fn next_game(&mut self) -> anyhow::Result<Option<ScheduledGame>>;
    /// A game ended and is journaled. May return lines to print.
    fn finished(&mut self, row: &GameRow) -> (Flow, Vec<String>);
    /// Short text for the progress bar.
    fn status(&self) -> String;
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEnd {
    /// The feed had no more games and every started game finished.
    Complete,
    /// The feed asked to stop.
    Stopped,
    /// SIGINT or SIGTERM.
    Interrupted,
}

#[derive(Debug)]
pub struct RunSummary {
    pub end: RunEnd,
    /// Games played and journaled in this run.
    pub played: Vec<GameRow>,
    /// Games that could not be run: (game id, why).
    pub failed: Vec<(u64, String)>,
}

type GameOutcome = (ScheduledGame, anyhow::Result<GameRecord>);

/// Runs games until the feed is exhausted, asks to stop, or a signal comes.
/// `Err` only when the journal cannot be written (nothing more can be
/// recorded safely); bots are cleaned up in every case.
pub async fn run_games(
    config: Arc<TournamentConfig>,
    journal: &mut Journal,
    feed: &mut dyn GameFeed,
    progress: &Progress,
) -> anyhow::Result<RunSummary> {
    let pool = Arc::new(Mutex::new(BotPool::new(SpawnOptions::default())));
    let log_dir = journal.dir().join(LOGS_DIR);
    let mut running: JoinSet<GameOutcome> = JoinSet::new();
    let mut task_games: HashMap<tokio::task::Id, u64> = HashMap::new();
    let mut summary = RunSummary {
        end: RunEnd::Complete,
        played: Vec::new(),
        failed: Vec::new(),
    };
    let signal = shutdown_signal();
    tokio::pin!(signal);

    let result: anyhow::Result<()> = async {
        loop {
            while running.len() < config.concurrency.max(1) {
                let Some(game) = feed.next_game()? else { break };
                let id = game.id;
                let handle = running.spawn(play_one(
                    config.clone(),
                    game,
                    pool.clone(),
                    log_dir.clone(),
                ));
                task_games.insert(handle.id(), id);
            }
            if running.is_empty() {
                return Ok(());
            }
            let joined = tokio::select! {
                biased;
                _ = &mut signal => {
                    summary.end = RunEnd::Interrupted;
                    return Ok(());
                }
                joined = running.join_next_with_id() => joined,
            };
            let (game, outcome) = match joined {
                None => return Ok(()),
                Some(Ok((task, outcome))) => {
                    task_games.remove(&task);
                    outcome
                }
                Some(Err(error)) => {
                    let id = task_games.remove(&error.id()).unwrap_or(u64::MAX);
                    let why = format!("the game task failed: {error}");
                    progress.println(&format!("g{id}: not recorded, {why}"));
                    summary.failed.push((id, why));
                    continue;
                }
            };
            let record = match outcome {
                Ok(record) => record,
                Err(error) => {
                    let why = format!("{error:#}");
                    progress.println(&format!("{}: not recorded: {why}", game.game_id()));
                    summary.failed.push((game.id, why));
                    continue;
                }
            };
            let row = record.to_games_row(game.id, game.round, game.pair);
            journal
                .append(&row, &record)
                .with_context(|| format!("recording game {}", game.game_id()))?;
            progress.println(&game_line(&row, &record));
            let (flow, lines) = feed.finished(&row);
            for line in lines {
                progress.println(&line);
            }
            progress.advance(feed.status());
            summary.played.push(row);
            if flow == Flow::Stop {
                summary.end = RunEnd::Stopped;
                return Ok(());
            }
        }
    }
    .await;

    // Abandon whatever still runs: dropping a game drops its seats, which
    // SIGKILLs their process groups. Then end the idle bots politely.
    running.abort_all();
    while running.join_next().await.is_some() {}
    let mut idle = std::mem::take(&mut *pool.lock().unwrap_or_else(|e| e.into_inner()));
    idle.shutdown().await;
    result.map(|()| summary)
}

/// Plays one scheduled game with seats from the pool, and returns them.
async fn play_one(
    config: Arc<TournamentConfig>,
    game: ScheduledGame,
    pool: Arc<Mutex<BotPool>>,
    log_dir: PathBuf,
) -> GameOutcome {
    let game_config = GameConfig {
        game_id: game.game_id(),
        variant: config.variant(),
        time_control: config.time_control,
        grace: std::time::Duration::from_millis(config.grace_ms),
        opening: game.opening.clone(),
        log_dir: Some(log_dir),
    };
    let (white_spec, black_spec) = (&config.bots[game.white], &config.bots[game.black]);
    let (mut white, mut black) = {
        let mut pool = pool.lock().unwrap_or_else(|e| e.into_inner());
        (pool.checkout(white_spec), pool.checkout(black_spec))
    };
    let record = play_bots(&mut white, &mut black, &game_config).await;
    {
        let mut pool = pool.lock().unwrap_or_else(|e| e.into_inner());
        pool.checkin(white);
        pool.checkin(black);
    }
    (game, record)
}

/// Resolves on the first SIGINT or SIGTERM.
async fn shutdown_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).ok();
    let terminated = async {
        match term.as_mut() {
            Some(term) => {
                term.recv().await;
            }
            None => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminated => {}
    }
}
