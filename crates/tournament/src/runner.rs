//! Plays games from a [`GameFeed`] with up to `concurrency` games at once,
//! journaling each one as it ends.
//!
//! A game's task puts its record at the game's place in the schedule and
//! encodes its journal lines itself; the runner hands them to the journal's
//! writer thread ([`Journal::start_writer`]), which appends them at once and
//! syncs them by time, and starts the next game at once instead of waiting
//! for the disk. The writer's queue is bounded
//! (`concurrency` entries), so a kill loses at most the games running or
//! queued, and a machine failure also those of the last sync interval.
//! Before the run returns, everything queued is written and synced.
//!
//! Bot processes are kept in a [`BotPool`] and reused from game to game (the
//! referee restarts a bot only after it failed); at most [`idle_cap`] idle
//! ones, so processes and descriptors grow with the concurrency, not with
//! the number of bots.
//!
//! Before the first game each bot is started once
//! ([`super::start_check`]): a bot that cannot start stops the run (`Err`)
//! before any game is recorded. When every bot has been disabled by the
//! start-up circuit breaker ([`Breaker`]), the run stops
//! ([`RunEnd::BotsDisabled`]) instead of recording games nobody plays.
//!
//! When the run serves its live page (`--serve`: [`RunOutput::live_games`]
//! is `Some`), each game's moves are published to that table as they are
//! played ([`super::live`]); otherwise the games are played as before.
//!
//! Stopping: the first SIGINT (Ctrl-C) lets the games being
//! played finish: no game starts any more, the output hears
//! [`RunOutput::finishing`], each game is recorded as it ends, and then the
//! run ends [`RunEnd::Interrupted`]. A second SIGINT, or SIGTERM at any
//! time, stops at once ([`RunOutput::stopping_now`]): games still running
//! are abandoned and not recorded, every bot process is killed. SIGTERM is
//! what schedulers send before a SIGKILL a fixed time later (Slurm's
//! `KillWait`, 30 s by default; systemd's `TimeoutStopSec`; Kubernetes'
//! grace period), and the games in flight may take longer than that, so it
//! stops at once and leaves the time to write the standings; a batch job
//! that wants the games finished sends SIGINT (`kill -INT`, `scancel
//! --signal=INT`). Either way the caller writes the standings from what was
//! finished, and `--resume` plays exactly the games not recorded.
//!
//! A game the referee itself could not run (not a
//! bot's fault, e.g. an unwritable log directory, or no descriptor or
//! process left to start a bot: a [`RefereeFailure`]) or that panicked is
//! left unrecorded and reported; `--resume` plays it again. After such a
//! failure the next game starts only after a pause (the shortage may pass),
//! and [`STOP_AFTER`] referee failures in a row, with no game recorded in
//! between, stop the run ([`RunEnd::RefereeFailing`]).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use tokio::task::JoinSet;

use super::breaker::Breaker;
use super::config::TournamentConfig;
use super::journal::{Journal, JournalEntry, JournalWriter, LOGS_DIR};
use super::live::{LiveGame, LiveGames, Playing};
pub use super::progress::RunEnd;
use super::progress::{RunOutput, RunStatus};
use super::schedule::ScheduledGame;
use super::start_check::start_each_bot;
use arena_referee::seat::{shutdown_all, Seat};
use arena_referee::GameRow;
use arena_referee::{
    play_bots, play_game, BotPool, GameConfig, GameEvent, GameRecord, Player, RefereeFailure,
    RepeatedFailure, SpawnOptions,
};
use arena_rules::games::Family;
use arena_rules::protocol::{ClockBasis, Ready};

/// Idle bot processes kept per game slot (`-j`): enough for both bots of
/// the slot's last game and of the one before.
pub const IDLE_PER_SLOT: usize = 2;

/// Idle bot processes kept beyond [`IDLE_PER_SLOT`], whatever `-j`: the two
/// games of a pair run at once, so each of their bots needs two processes,
/// and with only the per-slot allowance a small round robin (5 bots at
/// `-j 2`) ended and restarted about one bot per game. A constant, so the
/// processes and descriptors still do not grow with the number of bots.
pub const SHARED_IDLE: usize = 16;

/// Referee failures in a row (no game recorded in between) that stop a run.
pub const STOP_AFTER: u32 = 5;

/// Pause before the next game after the first referee failure of a streak;
/// it doubles with each further one, up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(100);
const MAX_PAUSE: Duration = Duration::from_secs(2);

/// Idle bot processes the pool keeps at concurrency `concurrency`.
pub fn idle_cap(concurrency: usize) -> usize {
    IDLE_PER_SLOT
        .saturating_mul(concurrency.max(1))
        .saturating_add(SHARED_IDLE)
}

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
    /// A game ended and is journaled. Events it causes (a completed SPRT
    /// pair) go to `output`.
    fn finished(&mut self, row: &GameRow, output: &mut dyn RunOutput) -> Flow;
    /// Where the run stands, for progress displays.
    fn status(&self) -> RunStatus;
}

#[derive(Debug)]
pub struct RunSummary {
    pub end: RunEnd,
    /// Games played and journaled in this run.
    pub played: u64,
    /// Games that could not be run: (game id, why).
    pub failed: Vec<(u64, String)>,
    /// Each bot's latest `ready` answer in this run's games (bot name, answer).
    pub ready: Vec<(String, Ready)>,
}

/// A finished game: its record at its place in the schedule, its row (both
/// for the output) and its journal entry.
struct PlayedGame {
    row: GameRow,
    record: GameRecord,
    entry: anyhow::Result<JournalEntry>,
}

type GameOutcome = (ScheduledGame, anyhow::Result<PlayedGame>);

/// Runs games until the feed is exhausted, asks to stop, or a signal comes.
/// `Err` when a bot cannot start before the first game (a
/// [`super::start_check::CannotStart`]) or the journal cannot be written
/// (nothing more can be recorded safely); bots are cleaned up in every
/// case.
pub async fn run_games(
    config: Arc<TournamentConfig>,
    journal: &Journal,
    feed: &mut dyn GameFeed,
    output: &mut dyn RunOutput,
) -> anyhow::Result<RunSummary> {
    let mut run = RunnerState::new(config, journal, output.live_games())?;
    let mut signals = Signals::new();
    // After the first SIGINT: the games in flight finish, none starts.
    let mut finishing = false;
    let result = async {
        // With a game to play, each bot is started once first.
        run.pending = feed.next_game()?;
        if run.pending.is_some() {
            output.checking_starts(run.config.bots.len());
            let check = run.check_starts();
            tokio::select! {
                biased;
                _ = signals.next(false) => {
                    run.summary.end = RunEnd::Interrupted;
                    output.stopping_now(0);
                    return Ok(());
                }
                checked = check => checked?,
            }
        }
        loop {
            if !finishing {
                run.start_games(feed)?;
            }
            if run.running.is_empty() {
                return Ok(());
            }
            let joined = tokio::select! {
                biased;
                stop = signals.next(finishing) => {
                    run.summary.end = RunEnd::Interrupted;
                    match stop {
                        Stopping::Finish => {
                            finishing = true;
                            output.finishing(run.running.len());
                            continue;
                        }
                        Stopping::Now => {
                            output.stopping_now(run.running.len());
                            return Ok(());
                        }
                    }
                }
                written = run.done.recv() => {
                    // `None` cannot happen while the writer is open.
                    if let Some(written) = written {
                        written?;
                        run.summary.played += 1;
                    }
                    continue;
                }
                joined = run.running.join_next_with_id() => joined,
            };
            if run.game_ended(joined, feed, output).await? == Flow::Stop {
                return Ok(());
            }
        }
    }
    .await;
    run.close(result).await
}

/// One run's state while its games are played.
struct RunnerState {
    config: Arc<TournamentConfig>,
    pool: Arc<Mutex<BotPool>>,
    breaker: Arc<Mutex<Breaker>>,
    streak: FailureStreak,
    log_dir: PathBuf,
    running: JoinSet<GameOutcome>,
    /// The game of each running task, for a task that fails.
    task_games: HashMap<tokio::task::Id, u64>,
    summary: RunSummary,
    writer: JournalWriter,
    /// What the journal writer reports: each game written, or its error.
    done: tokio::sync::mpsc::UnboundedReceiver<anyhow::Result<u64>>,
    /// Where the games being played are published (only when serving).
    live: Option<Arc<LiveGames>>,
    /// How bots are started (the pool's options, for the start check).
    options: SpawnOptions,
    /// The feed's first game, taken before the start check.
    pending: Option<ScheduledGame>,
}

impl RunnerState {
    /// The pool, the breaker and the journal's writer thread of a new run.
    fn new(
        config: Arc<TournamentConfig>,
        journal: &Journal,
        live: Option<Arc<LiveGames>>,
    ) -> anyhow::Result<RunnerState> {
        let options = SpawnOptions {
            // Journal, tournament.json and every bot's logs.
            sandbox_hide: vec![journal.dir().to_path_buf()],
            // A CPU clock counts each bot's whole tree where it can.
            cpu_tree: config.clock == ClockBasis::Cpu,
            ..SpawnOptions::default()
        };
        let pool = BotPool::new(options.clone()).with_idle_cap(idle_cap(config.concurrency));
        let breaker = Breaker::new(config.startup_failures, config.bots.len());
        let (done_sender, done) = tokio::sync::mpsc::unbounded_channel();
        let writer = journal.start_writer(
            config.concurrency.max(1),
            Duration::from_millis(config.sync_interval_ms),
            done_sender,
        )?;
        Ok(RunnerState {
            pool: Arc::new(Mutex::new(pool)),
            breaker: Arc::new(Mutex::new(breaker)),
            streak: FailureStreak::default(),
            log_dir: journal.dir().join(LOGS_DIR),
            running: JoinSet::new(),
            task_games: HashMap::new(),
            summary: RunSummary {
                end: RunEnd::Complete,
                played: 0,
                failed: Vec::new(),
                ready: Vec::new(),
            },
            writer,
            done,
            config,
            live,
            options,
            pending: None,
        })
    }

    /// Starts each bot once before the first game ([`start_each_bot`]).
    async fn check_starts(&self) -> anyhow::Result<()> {
        let config = &self.config;
        start_each_bot(
            &config.bots,
            &self.options,
            &self.log_dir,
            config.concurrency,
        )
        .await
    }

    /// Starts the feed's next games until `concurrency` run.
    fn start_games(&mut self, feed: &mut dyn GameFeed) -> anyhow::Result<()> {
        while self.running.len() < self.config.concurrency.max(1) {
            let next = match self.pending.take() {
                Some(game) => Some(game),
                None => feed.next_game()?,
            };
            let Some(game) = next else { break };
            let id = game.id;
            // Boxed: a game's future is several KiB, which spawning would
            // otherwise copy through each of its layers.
            let handle = self.running.spawn(Box::pin(play_one(
                self.config.clone(),
                game,
                self.pool.clone(),
                self.breaker.clone(),
                self.log_dir.clone(),
                self.streak.pause(),
                self.live.clone(),
            )));
            self.task_games.insert(handle.id(), id);
        }
        Ok(())
    }

    /// A game's task ended: a game the referee could not run is reported
    /// (and may stop the run: [`STOP_AFTER`]), a played one is recorded.
    /// [`Flow::Stop`] when the run ends here.
    async fn game_ended(
        &mut self,
        joined: Option<Result<(tokio::task::Id, GameOutcome), tokio::task::JoinError>>,
        feed: &mut dyn GameFeed,
        output: &mut dyn RunOutput,
    ) -> anyhow::Result<Flow> {
        let (game, outcome) = match joined {
            None => return Ok(Flow::Continue),
            Some(Ok((task, outcome))) => {
                self.task_games.remove(&task);
                outcome
            }
            Some(Err(error)) => {
                let id = self.task_games.remove(&error.id()).unwrap_or(u64::MAX);
                self.not_recorded(id, format!("the game task failed: {error}"), output);
                return Ok(Flow::Continue);
            }
        };
        match outcome {
            Ok(played) => self.record(game, played, feed, output).await,
            Err(error) => {
                self.not_recorded(game.id, format!("{error:#}"), output);
                let stop = RefereeFailure::find(&error).and_then(|f| self.streak.add(f));
                Ok(match stop {
                    Some(stop) => {
                        self.summary.end = RunEnd::RefereeFailing(stop);
                        Flow::Stop
                    }
                    None => Flow::Continue,
                })
            }
        }
    }

    fn not_recorded(&mut self, id: u64, why: String, output: &mut dyn RunOutput) {
        output.game_not_recorded(id, &why);
        self.summary.failed.push((id, why));
    }

    /// Hands a played game to the journal's writer, then tells the output,
    /// the breaker and the feed.
    async fn record(
        &mut self,
        game: ScheduledGame,
        played: PlayedGame,
        feed: &mut dyn GameFeed,
        output: &mut dyn RunOutput,
    ) -> anyhow::Result<Flow> {
        self.streak = FailureStreak::default();
        let entry = played
            .entry
            .with_context(|| format!("recording game {}", game.game_id()))?;
        if self.writer.send(entry).await.is_err() {
            // The writer stopped on an error, which `done` holds.
            while let Some(written) = self.done.recv().await {
                written?;
            }
            anyhow::bail!("the journal writer stopped");
        }
        output.game_finished(&played.row, &played.record);
        note_ready(&mut self.summary.ready, &played.record);
        let (disabled, all) = {
            let mut breaker = lock(&self.breaker);
            let disabled = breaker.observe(game.white, game.black, &played.record);
            (disabled, breaker.all_disabled())
        };
        for (bot, why) in disabled {
            output.bot_disabled(&self.config.bots[bot].name, &why);
        }
        let flow = feed.finished(&played.row, output);
        output.progress(&feed.status());
        if let Some(all) = all {
            // The rest would be games nobody plays.
            self.summary.end = RunEnd::BotsDisabled(all);
            return Ok(Flow::Stop);
        }
        if flow == Flow::Stop {
            self.summary.end = RunEnd::Stopped;
        }
        Ok(flow)
    }

    /// Ends the run: abandons whatever still runs, ends the idle bots, and
    /// waits until everything queued is written and synced.
    async fn close(mut self, result: anyhow::Result<()>) -> anyhow::Result<RunSummary> {
        // Dropping a game drops its seats, which SIGKILLs their process
        // groups. Then the idle bots are ended politely.
        self.running.abort_all();
        while self.running.join_next().await.is_some() {}
        let mut idle = std::mem::take(&mut *lock(&self.pool));
        idle.shutdown().await;
        // The writer is closed on this worker thread, not through
        // `spawn_blocking`: when the run stops because no process or thread
        // can be started (EAGAIN), tokio could not start a blocking thread
        // either and would panic. Nothing else runs any more, and the writer
        // thread needs no runtime of ours, so blocking here is safe.
        drop(self.writer);
        let mut written_result = Ok(());
        while let Ok(written) = self.done.try_recv() {
            match written {
                Ok(_) => self.summary.played += 1,
                Err(error) => written_result = Err(error),
            }
        }
        result.and(written_result).map(|()| self.summary)
    }
}

/// Keeps the `ready` answers of `record`'s bots in `ready` (one entry per
/// bot, the latest answer).
fn note_ready(ready: &mut Vec<(String, Ready)>, record: &GameRecord) {
    for (bot, answer) in [
        (&record.white, &record.white_ready),
        (&record.black, &record.black_ready),
    ] {
        let Some(answer) = answer else { continue };
        match ready.iter_mut().find(|(name, _)| name == bot) {
            Some((_, known)) if known == answer => {}
            Some((_, known)) => *known = answer.clone(),
            None => ready.push((bot.clone(), answer.clone())),
        }
    }
}

/// Referee failures since the last recorded game.
#[derive(Debug, Default)]
struct FailureStreak {
    count: u32,
}

impl FailureStreak {
    /// Counts a failure; the reason to stop when it is the [`STOP_AFTER`]th.
    fn add(&mut self, failure: &RefereeFailure) -> Option<RepeatedFailure> {
        self.count += 1;
        (self.count >= STOP_AFTER).then(|| RepeatedFailure {
            failure: failure.clone(),
            times: self.count,
        })
    }

    /// How long the next game waits before it starts.
    fn pause(&self) -> Duration {
        match self.count {
            0 => Duration::ZERO,
            n => FIRST_PAUSE
                .saturating_mul(1 << (n - 1).min(8))
                .min(MAX_PAUSE),
        }
    }
}

/// Plays one scheduled game with seats from the pool, and returns them
/// (ending those the pool evicts). Waits `pause` first.
async fn play_one(
    config: Arc<TournamentConfig>,
    game: ScheduledGame,
    pool: Arc<Mutex<BotPool>>,
    breaker: Arc<Mutex<Breaker>>,
    log_dir: PathBuf,
    pause: Duration,
    live: Option<Arc<LiveGames>>,
) -> GameOutcome {
    if !pause.is_zero() {
        tokio::time::sleep(pause).await;
    }
    let game_config = GameConfig {
        game_id: game.game_id(),
        variant: game.variant(),
        time_control: config.time_control,
        own_time_controls: [game.white, game.black].map(|bot| config.bots[bot].time_control),
        grace: std::time::Duration::from_millis(config.grace_ms),
        opening: game.opening.clone(),
        clock: config.clock,
        wall_cap: config.wall_cap,
        log_dir: Some(log_dir),
        suspend_idle: config.suspend_idle,
        adjudicate: config.adjudicate,
    };
    let (white_spec, black_spec) = (&config.bots[game.white], &config.bots[game.black]);
    let (mut white, mut black) = {
        let mut pool = pool.lock().unwrap_or_else(|e| e.into_inner());
        (pool.checkout(white_spec), pool.checkout(black_spec))
    };
    {
        // A disabled bot is not started: its game is lost at once.
        let breaker = lock(&breaker);
        for (seat, index) in [(&mut white, game.white), (&mut black, game.black)] {
            if let Some(why) = breaker.disabled(index) {
                seat.disable(why);
            }
        }
    }
    let record = match live {
        None => play_bots(&mut white, &mut black, &game_config).await,
        Some(live) => {
            let (white_name, black_name) = (white_spec.name.clone(), black_spec.name.clone());
            play_published(
                &mut white,
                &mut black,
                &game_config,
                &live,
                game.id,
                [white_name, black_name],
            )
            .await
        }
    };
    let evicted = {
        let mut pool = pool.lock().unwrap_or_else(|e| e.into_inner());
        let mut evicted = pool.checkin(white);
        evicted.extend(pool.checkin(black));
        evicted
    };
    shutdown_all(evicted).await;
    let played = record.map(|mut record| {
        record.set_place(game.id, game.round, game.pair);
        PlayedGame {
            entry: JournalEntry::encode(&record),
            row: record.to_games_row(),
            record,
        }
    });
    (game, played)
}

/// [`play_bots`], with each move published to `live` while it plays.
async fn play_published(
    white: &mut Seat,
    black: &mut Seat,
    config: &GameConfig,
    live: &Arc<LiveGames>,
    id: u64,
    [white_name, black_name]: [String; 2],
) -> anyhow::Result<GameRecord> {
    let mut names = Some((white_name, black_name));
    let mut playing: Option<Playing> = None;
    let mut observer = |event: GameEvent<'_>| match event {
        GameEvent::Started { .. } => {
            if let Some((white, black)) = names.take() {
                playing = Some(live.begin(LiveGame {
                    id,
                    game: config.variant.id.to_string(),
                    family: match config.variant.family {
                        Family::Qango(_) => "qango",
                        Family::Quinque => "quinque",
                    },
                    rows: config.variant.rows(),
                    cols: config.variant.cols(),
                    white,
                    black,
                    moves: config.opening.clone(),
                    opening: config.opening.len(),
                }));
            }
        }
        GameEvent::Moved { notation, .. } => {
            if let Some(playing) = &playing {
                playing.moved(notation);
            }
        }
    };
    play_game(
        Player::Bot(white),
        Player::Bot(black),
        config,
        &mut observer,
    )
    .await
}

/// The value behind a mutex; a panic elsewhere does not poison it for the
/// run (the data stays consistent: each update is one assignment).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a signal asks of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopping {
    /// The first SIGINT: finish the games in flight, start no other.
    Finish,
    /// A second SIGINT, or SIGTERM: stop at once.
    Now,
}

/// The run's SIGINT and SIGTERM, from the start of the run to its end (once
/// listened to, neither kills the process by itself any more).
struct Signals {
    interrupt: Option<tokio::signal::unix::Signal>,
    terminate: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    fn new() -> Signals {
        use tokio::signal::unix::{signal, SignalKind};
        Signals {
            interrupt: signal(SignalKind::interrupt()).ok(),
            terminate: signal(SignalKind::terminate()).ok(),
        }
    }

    /// The next signal; `finishing` after the first SIGINT.
    async fn next(&mut self, finishing: bool) -> Stopping {
        let interrupt = async {
            match self.interrupt.as_mut() {
                Some(signal) => signal.recv().await,
                None => std::future::pending().await,
            }
        };
        let terminate = async {
            match self.terminate.as_mut() {
                Some(signal) => signal.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = interrupt => if finishing { Stopping::Now } else { Stopping::Finish },
            _ = terminate => Stopping::Now,
        }
    }
}
