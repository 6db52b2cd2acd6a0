//! `arena serve --play BOTS.toml`: a page where a person plays a bot of
//! the bots file, or another person at the same screen, every game refereed
//! as a tournament's and recorded in the output directory like one
//! (`games.jsonl`, `games.csv`, the bots' logs), so `arena judge`, `report`,
//! `analyse` and `rate` take it as it is.
//!
//! The [`Room`] is the server's side of the page: the bots a page may name
//! (those of the file, nothing else), the boards in use (at most
//! `max_live`, each a [`game::Game`] with its own task and bot processes),
//! the pages' tokens, and the journal of finished games. When the server
//! stops, every game is stopped and every bot process with it.
//!
//! - `game`: one game, its task and the state the page reads.
//! - `http`: the answers under `/play` (the page, and its actions: POSTs
//!   with the page's token from the page's own origin).
//! - `hints`: the solver's values of the moves now, and the strip of a
//!   finished game.

pub mod game;
pub mod hints;
pub mod http;

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use anyhow::{bail, Context};
use tokio::sync::{watch, Semaphore};

use arena_files::DirLock;
use arena_referee::{program_problem, BotSpec, GameConfig, GameRecord, Seat, SpawnOptions};
use arena_rules::protocol::ClockBasis;
use arena_tournament::journal::{Journal, GAMES_JSONL, LOGS_DIR};

use game::{Game, Setup};

/// A person's time for a move unless `--idle-secs` says otherwise.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(300);

/// A game no page has followed for this long is abandoned: the person to
/// move loses on time.
pub const ABSENCE: Duration = Duration::from_secs(10);

/// Finished games kept for their pages (their state, hints, strip); older
/// ones are forgotten by the server (they stay in the files).
const FINISHED_KEPT: usize = 256;

/// Pages' tokens kept; the oldest is forgotten past it (its page must be
/// reloaded).
const TOKENS_KEPT: usize = 4096;

/// How the games on the page are played.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// Where finished games go (created if missing).
    pub out: PathBuf,
    /// Games at once at most.
    pub max_live: usize,
    /// A person's time for a move.
    pub idle: Duration,
    pub grace: Duration,
    pub clock: ClockBasis,
    pub wall_cap: u32,
    /// Every bot in the sandbox (else as its entry says).
    pub sandbox: bool,
    pub suspend_idle: bool,
    /// Where the page opens a finished game (`{viewer}#game=gN`).
    pub viewer: String,
    /// Requests may name any host (`--bind` other than loopback); else
    /// only loopback names and addresses.
    pub any_host: bool,
}

/// The play page's server side.
pub struct Room {
    bots: Vec<BotSpec>,
    options: PlayOptions,
    journal: Mutex<Journal>,
    _lock: DirLock,
    next: AtomicU64,
    games: Mutex<BTreeMap<u64, Arc<Game>>>,
    tasks: Mutex<Vec<tokio::task::JoinHandle<()>>>,
    boards: Arc<Semaphore>,
    tokens: Mutex<VecDeque<String>>,
    /// Hints and strips being computed (one solver each).
    pub solving: Arc<Semaphore>,
    stop: watch::Sender<bool>,
}

/// Why a game was not started.
#[derive(Debug)]
pub enum Refusal {
    /// Every board is in use.
    Busy(usize),
    /// The request names what cannot be played (the message says what).
    Bad(String),
}

impl Room {
    /// The room for `bots` (each must be able to start: the error names
    /// the first that cannot), its games recorded in `options.out` after
    /// those already there.
    pub fn open(bots: Vec<BotSpec>, options: PlayOptions) -> anyhow::Result<Room> {
        if bots.is_empty() {
            bail!("the bots file has no [[bot]] entry: the page would have no bot to play");
        }
        for bot in &bots {
            if let Some(problem) = program_problem(bot) {
                bail!(problem);
            }
        }
        let out = &options.out;
        std::fs::create_dir_all(out)
            .with_context(|| format!("cannot create the output directory {}", out.display()))?;
        let lock = DirLock::acquire(out)?;
        let (journal, next) = open_journal(out)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(Room {
            bots,
            journal: Mutex::new(journal),
            _lock: lock,
            next: AtomicU64::new(next),
            games: Mutex::new(BTreeMap::new()),
            tasks: Mutex::new(Vec::new()),
            boards: Arc::new(Semaphore::new(options.max_live)),
            tokens: Mutex::new(VecDeque::new()),
            solving: Arc::new(Semaphore::new(cores)),
            stop: watch::channel(false).0,
            options,
        })
    }

    pub fn bots(&self) -> &[BotSpec] {
        &self.bots
    }

    pub fn options(&self) -> &PlayOptions {
        &self.options
    }

    pub fn idle(&self) -> Duration {
        self.options.idle
    }

    /// A new page's token (random, 256 bits).
    pub fn issue_token(&self) -> String {
        use rand::RngCore;
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let mut tokens = lock(&self.tokens);
        if tokens.len() >= TOKENS_KEPT {
            tokens.pop_front();
        }
        tokens.push_back(token.clone());
        token
    }

    pub fn knows_token(&self, token: &str) -> bool {
        lock(&self.tokens).iter().any(|t| t == token)
    }

    pub fn game(&self, number: u64) -> Option<Arc<Game>> {
        lock(&self.games).get(&number).cloned()
    }

    /// Starts a game for the page of `token`, or says why not.
    pub fn start(self: &Arc<Self>, token: &str, setup: Setup) -> Result<Arc<Game>, Refusal> {
        let Ok(permit) = Arc::clone(&self.boards).try_acquire_owned() else {
            return Err(Refusal::Busy(self.options.max_live));
        };
        if *self.stop.borrow() {
            return Err(Refusal::Bad("the server is stopping".into()));
        }
        let number = self.next.fetch_add(1, Ordering::SeqCst);
        let (game, inputs) = Game::new(number, token.to_string(), setup, self.options.idle);
        self.keep(&game);
        let mut stop = self.stop.subscribe();
        let stopped = async move {
            let _ = stop.wait_for(|s| *s).await;
        };
        let task = tokio::spawn(Arc::clone(&game).play(Arc::clone(self), inputs, permit, stopped));
        let absence = tokio::spawn(watch_absence(Arc::clone(&game)));
        let mut tasks = lock(&self.tasks);
        tasks.retain(|t| !t.is_finished());
        tasks.push(task);
        tasks.push(absence);
        Ok(game)
    }

    /// Keeps `game` for its page, forgetting the oldest finished games.
    fn keep(&self, game: &Arc<Game>) {
        let mut games = lock(&self.games);
        games.insert(game.number, Arc::clone(game));
        let finished: Vec<u64> = games
            .iter()
            .filter(|(_, g)| g.state().over)
            .map(|(&n, _)| n)
            .collect();
        for n in finished
            .iter()
            .take(finished.len().saturating_sub(FINISHED_KEPT))
        {
            games.remove(n);
        }
    }

    /// Stops every game (their bots with them) and waits for them.
    pub async fn stop(&self) {
        self.stop.send_replace(true);
        let tasks = std::mem::take(&mut *lock(&self.tasks));
        for task in tasks {
            let _ = task.await;
        }
    }

    /// The referee's settings for `game`.
    pub fn game_config(&self, game: &Game) -> GameConfig {
        let o = &self.options;
        let setup = &game.setup;
        let mut config = GameConfig::new(&game.id(), setup.variant, setup.time_control);
        config.grace = o.grace;
        config.clock = o.clock;
        config.wall_cap = o.wall_cap;
        config.suspend_idle = o.suspend_idle;
        config.log_dir = Some(o.out.join(LOGS_DIR));
        for (i, side) in setup.sides.iter().enumerate() {
            if let game::Side::Bot(spec) = side {
                config.own_time_controls[i] = spec.time_control;
            }
        }
        config
    }

    /// The seat of `spec` for one game (in the sandbox when asked; a
    /// sandboxed bot does not see the output directory).
    pub fn seat(&self, spec: &BotSpec) -> Seat {
        let mut spec = spec.clone();
        if self.options.sandbox {
            spec.sandbox = Some(true);
        }
        let options = SpawnOptions {
            sandbox_hide: vec![self.options.out.clone()],
            cpu_tree: self.options.clock == ClockBasis::Cpu,
            ..SpawnOptions::default()
        };
        Seat::new(spec, options)
    }

    /// Appends a finished game to the output directory's journal.
    pub fn record(&self, record: &GameRecord) -> anyhow::Result<()> {
        lock(&self.journal).append(record)
    }
}

/// The journal of `out`, and the number of the next game: after every
/// game already there.
fn open_journal(out: &Path) -> anyhow::Result<(Journal, u64)> {
    if !out.join(GAMES_JSONL).exists() {
        return Ok((Journal::create(out)?, 0));
    }
    let (journal, recovery) = Journal::recover(out, |_| Ok(()))?;
    for repair in &recovery.repairs {
        eprintln!("arena: {}: {repair}", out.display());
    }
    let next = recovery.finished.iter().max().map_or(0, |n| n + 1);
    Ok((journal, next))
}

/// Ends `game` as abandoned once no page has followed it for [`ABSENCE`].
async fn watch_absence(game: Arc<Game>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    loop {
        tick.tick().await;
        if game.state().over {
            return;
        }
        if game.unwatched_for().is_some_and(|d| d >= ABSENCE) {
            game.leave(&format!(
                "left the page (no page followed the game for {} s)",
                ABSENCE.as_secs()
            ));
            return;
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
