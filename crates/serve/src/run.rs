//! One run as `arena serve` shows it: its directories (one, or the shards
//! of one tournament), the page last rendered from their files, and its
//! progress; and the watcher thread that keeps them current. A league's
//! directory is served alike, its page the league's (the report's page
//! with the leaderboard on top, [`render_league`]), also re-rendered when
//! its registry (`bots.jsonl`) changes.
//!
//! The watcher looks at the runs' files every [`POLL`] (their size and
//! modification time only: a stat per file), counts the games added since
//! by reading only the bytes added, and re-renders the page when anything
//! changed, with the report's renderer over the whole directory. A render
//! of a large run takes long, so the next one waits at least 19 times as
//! long as the last took: the server spends at most a twentieth of a core on
//! rendering however large the run. It renders only while someone watches
//! ([`Demand`]: an event stream open, or a request for the page or its
//! status in the last [`WATCHED_FOR`]): a run that serves with no page open
//! counts its games and renders nothing.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime};

use anyhow::{bail, Context};
use arena_report::html::{render_league, render_report};
use arena_tournament::league::{League, BOTS_JSONL};
use arena_tournament::live::LiveGames;
use arena_tournament::output_files::{GAMES_CSV, GAMES_JSONL, MANIFEST_FILE};
use arena_tournament::Manifest;
use serde::Serialize;
use tokio::sync::watch;

use crate::page::Page;

/// How often the watcher looks at the files.
pub const POLL: Duration = Duration::from_millis(500);

/// A request for the page or its status keeps the page rendered this long.
pub const WATCHED_FOR: Duration = Duration::from_secs(30);

/// Renders wait at least this many times as long as the last one took.
const RENDER_SHARE: u32 = 19;

/// Who watches a run: the event streams open now, and when a page or its
/// status was last asked for. Nobody watching, nothing is rendered.
#[derive(Default)]
pub struct Demand {
    streams: AtomicUsize,
    asked: Mutex<Option<Instant>>,
}

impl Demand {
    /// Someone asked for the page or its status now.
    pub fn asked(&self) {
        *self.asked.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// An event stream is open until the returned guard is dropped.
    pub fn stream(self: &Arc<Demand>) -> Watching {
        self.streams.fetch_add(1, Ordering::Relaxed);
        Watching(Arc::clone(self))
    }

    /// Whether anyone watches now.
    pub fn watched(&self) -> bool {
        let asked = *self.asked.lock().unwrap_or_else(|e| e.into_inner());
        self.streams.load(Ordering::Relaxed) > 0 || asked.is_some_and(|t| t.elapsed() < WATCHED_FOR)
    }
}

/// One open event stream of a run (see [`Demand::stream`]).
pub struct Watching(Arc<Demand>);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.streams.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What the page's progress line says, sent to the page on every change.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Status {
    /// Bumped on every new rendering of the page: the page fetches the new
    /// one when it sees a larger number.
    pub version: u64,
    /// Finished games in the run's files.
    pub games: u64,
    /// Games the run will play (`None`: not known, an SPRT without a limit
    /// or a directory without tournament.json).
    pub planned: Option<u64>,
    /// Games per minute over the last minutes (`None`: too few yet).
    pub per_minute: Option<f64>,
    /// Seconds left at that rate.
    pub eta_seconds: Option<f64>,
    /// Why there is no page (the run's files cannot be read as a run).
    pub error: Option<String>,
}

/// A run: its directories and what the page shows of them.
pub struct ServedRun {
    /// Its directories, canonical: the only ones it serves files from.
    pub dirs: Vec<PathBuf>,
    /// Where the page's links start: the directory, or the shards' common
    /// parent.
    pub base: PathBuf,
    /// The page last rendered (`None` before the first rendering).
    page: RwLock<Option<Arc<Page>>>,
    status: watch::Sender<Status>,
    /// The games being played, move by move: only when the server runs
    /// inside the tournament (`--serve`); `arena serve` sees files only.
    pub live: Option<Arc<LiveGames>>,
    /// The one directory is a league: its page has the leaderboard.
    pub league: bool,
    /// Who watches: the page is rendered only while someone does.
    pub demand: Arc<Demand>,
}

impl ServedRun {
    /// A run over `dirs` (each must be a directory); nothing rendered yet.
    pub fn new(dirs: &[PathBuf]) -> anyhow::Result<ServedRun> {
        let dirs = dirs
            .iter()
            .map(|d| {
                let canonical = std::fs::canonicalize(d)
                    .with_context(|| format!("cannot open directory {}", d.display()))?;
                if !canonical.is_dir() {
                    bail!("{} is not a directory", d.display());
                }
                Ok(canonical)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let base = common_parent(&dirs);
        let league = dirs.len() == 1 && League::is_league(&dirs[0]);
        Ok(ServedRun {
            league,
            dirs,
            base,
            page: RwLock::new(None),
            status: watch::channel(Status::default()).0,
            live: None,
            demand: Arc::default(),
        })
    }

    /// The run also shows the games being played in `live`.
    pub fn with_live_games(mut self, live: Option<Arc<LiveGames>>) -> ServedRun {
        self.live = live;
        self
    }

    /// The page last rendered.
    pub fn page(&self) -> Option<Arc<Page>> {
        self.page.read().unwrap().clone()
    }

    /// The progress now.
    pub fn status(&self) -> Status {
        self.status.borrow().clone()
    }

    /// Hears of every change of the status.
    pub fn subscribe(&self) -> watch::Receiver<Status> {
        self.status.subscribe()
    }

    /// The name the list of runs shows.
    pub fn name(&self) -> String {
        let names: Vec<String> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        names.join(" + ")
    }

    /// Starts the thread that keeps the page and status current.
    pub fn watch(self: &Arc<ServedRun>) {
        let run = Arc::clone(self);
        std::thread::Builder::new()
            .name("arena-serve-watch".into())
            .spawn(move || run.watch_loop())
            .expect("start the watcher thread");
    }

    fn watch_loop(&self) {
        let mut counts: Vec<LineCount> = self.dirs.iter().map(|_| LineCount::default()).collect();
        let mut stamps = Vec::new();
        let mut rate = Rate::default();
        let mut next_render = Instant::now();
        let mut dirty = true;
        let (mut planned, mut manifests) = (None, None);
        loop {
            let now = stamp_files(&self.dirs);
            if now != stamps {
                // Read again only when a tournament.json changed (it is
                // parsed and its format opened to count its games).
                let now_manifests = Some(manifest_stamps(&now));
                if now_manifests != manifests {
                    manifests = now_manifests;
                    planned = planned_games(&self.dirs);
                }
                stamps = now;
                dirty = true;
            }
            let games: u64 = self
                .dirs
                .iter()
                .zip(&mut counts)
                .map(|(dir, count)| count.update(dir))
                .sum();
            rate.add(games);
            self.status.send_if_modified(|s| {
                let before = s.clone();
                s.games = games;
                s.planned = planned;
                s.per_minute = rate.per_minute();
                s.eta_seconds = match (planned, s.per_minute) {
                    (Some(p), Some(r)) if r > 0.0 => {
                        Some(p.saturating_sub(games) as f64 / r * 60.0)
                    }
                    _ => None,
                };
                *s != before
            });
            if dirty && Instant::now() >= next_render && self.demand.watched() {
                dirty = false;
                let started = Instant::now();
                self.render();
                next_render = Instant::now() + POLL.max(started.elapsed() * RENDER_SHARE);
            }
            std::thread::sleep(POLL);
        }
    }

    /// Renders the page from the files now, and tells the pages.
    pub fn render(&self) {
        let result = if self.league {
            render_league(&self.dirs[0], &self.base)
        } else {
            render_report(&self.dirs, &self.base)
        };
        let error = match result {
            Ok(page) => {
                *self.page.write().unwrap() = Some(Arc::new(Page::new(page, self.dirs.len())));
                None
            }
            Err(e) => Some(format!("{e:#}")),
        };
        self.status.send_modify(|s| {
            s.version += 1;
            s.error = error;
        });
    }
}

/// `dirs` as runs: the shards of one tournament (the same identity in
/// their tournament.json, each a `--shard`) are one run, in the place of
/// the first; any other directory is a run of its own.
pub fn group(dirs: &[PathBuf]) -> Vec<Vec<PathBuf>> {
    let mut runs: Vec<(Option<String>, Vec<PathBuf>)> = Vec::new();
    for dir in dirs {
        let identity = Manifest::read(dir)
            .ok()
            .filter(|m| m.config.shard.is_some() && !m.identity.is_empty())
            .map(|m| m.identity);
        match runs
            .iter_mut()
            .find(|(id, _)| id.is_some() && *id == identity)
        {
            Some((_, run)) => run.push(dir.clone()),
            None => runs.push((identity, vec![dir.clone()])),
        }
    }
    runs.into_iter().map(|(_, run)| run).collect()
}

/// The deepest directory that holds all of `dirs`.
fn common_parent(dirs: &[PathBuf]) -> PathBuf {
    let mut base = dirs[0].clone();
    if dirs.len() > 1 {
        while !dirs.iter().all(|d| d.starts_with(&base)) {
            if !base.pop() {
                break;
            }
        }
    }
    base
}

/// Size and modification time of each file the page is rendered from (a
/// league's registry among them).
fn stamp_files(dirs: &[PathBuf]) -> Vec<Option<(u64, SystemTime)>> {
    dirs.iter()
        .flat_map(|d| [GAMES_JSONL, GAMES_CSV, MANIFEST_FILE, BOTS_JSONL].map(|f| d.join(f)))
        .map(|p| {
            let m = std::fs::metadata(p).ok()?;
            Some((m.len(), m.modified().ok()?))
        })
        .collect()
}

/// The stamps of the directories' tournament.json among `stamps` (as
/// [`stamp_files`] gives them: four files a directory, the manifest third).
fn manifest_stamps(stamps: &[Option<(u64, SystemTime)>]) -> Vec<Option<(u64, SystemTime)>> {
    stamps.iter().skip(2).step_by(4).copied().collect()
}

/// The games the run's directories plan to play, when all of them say.
fn planned_games(dirs: &[PathBuf]) -> Option<u64> {
    dirs.iter()
        .map(|d| {
            let manifest = Manifest::read(d).ok()?;
            // The format's own count, of this shard's games when it is one
            // (none for a knockout, whose tie-breaks add games, or an SPRT
            // without a cap).
            arena_tournament::registry::Formats::builtin()
                .open(&manifest)
                .ok()?
                .total()
        })
        .sum()
}

/// The finished games of a directory, counted by reading only what was
/// added since the last count: complete lines of games.jsonl, else data
/// rows of games.csv (as the report reads them).
#[derive(Default)]
struct LineCount {
    file: Option<PathBuf>,
    /// Bytes counted: up to the end of the last complete line.
    offset: u64,
    lines: u64,
}

impl LineCount {
    fn update(&mut self, dir: &Path) -> u64 {
        let (file, header) = if dir.join(GAMES_JSONL).exists() {
            (dir.join(GAMES_JSONL), 0)
        } else {
            (dir.join(GAMES_CSV), 1)
        };
        let len = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        if self.file.as_ref() != Some(&file) || len < self.offset {
            // Another file, or one written anew: count from the start.
            *self = LineCount {
                file: Some(file.clone()),
                ..LineCount::default()
            };
        }
        if len > self.offset {
            let _ = self.read_from(&file);
        }
        self.lines.saturating_sub(header)
    }

    fn read_from(&mut self, file: &Path) -> std::io::Result<()> {
        let mut f = File::open(file)?;
        f.seek(SeekFrom::Start(self.offset))?;
        let mut buf = vec![0u8; 64 * 1024];
        let mut pending = 0u64;
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            for &b in &buf[..n] {
                pending += 1;
                if b == b'\n' {
                    self.lines += 1;
                    self.offset += pending;
                    pending = 0;
                }
            }
        }
    }
}

/// Games per minute over the last few minutes, from the counts seen.
#[derive(Default)]
struct Rate {
    /// (when, games) at each change of the count, oldest first.
    seen: VecDeque<(Instant, u64)>,
}

impl Rate {
    const WINDOW: Duration = Duration::from_secs(300);

    fn add(&mut self, games: u64) {
        let now = Instant::now();
        if self.seen.back().is_none_or(|&(_, g)| g != games) {
            self.seen.push_back((now, games));
        }
        while self.seen.len() > 2 && now - self.seen[0].0 > Self::WINDOW {
            self.seen.pop_front();
        }
    }

    fn per_minute(&self) -> Option<f64> {
        let (&(t0, g0), &(t1, g1)) = (self.seen.front()?, self.seen.back()?);
        let span = (t1 - t0).as_secs_f64();
        (g1 > g0 && span > 0.0).then(|| (g1 - g0) as f64 / span * 60.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_complete_lines_and_reads_only_what_was_added() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join(GAMES_JSONL);
        std::fs::write(&file, "{}\n{}\n{\"torn").unwrap();
        let mut count = LineCount::default();
        assert_eq!(count.update(tmp.path()), 2);
        assert_eq!(count.offset, 6);
        let mut text = std::fs::read_to_string(&file).unwrap();
        text.push_str("\"}\n{}\n");
        std::fs::write(&file, text).unwrap();
        assert_eq!(count.update(tmp.path()), 4);
        // Written anew, shorter: counted again from the start.
        std::fs::write(&file, "{}\n").unwrap();
        assert_eq!(count.update(tmp.path()), 1);
    }

    #[test]
    fn a_csv_alone_counts_its_rows_without_the_header() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(GAMES_CSV), "id,white\n0,a\n1,b\n").unwrap();
        assert_eq!(LineCount::default().update(tmp.path()), 2);
    }

    #[test]
    fn a_run_is_watched_while_a_stream_is_open_or_just_after_a_request() {
        let demand = Arc::new(Demand::default());
        assert!(!demand.watched(), "nobody yet");
        let stream = demand.stream();
        assert!(demand.watched());
        drop(stream);
        assert!(!demand.watched(), "the stream closed");
        demand.asked();
        assert!(demand.watched());
        *demand.asked.lock().unwrap() = Some(Instant::now() - WATCHED_FOR);
        assert!(!demand.watched(), "the request is too old");
    }

    #[test]
    fn the_manifests_are_the_third_stamp_of_each_directory() {
        let t = SystemTime::UNIX_EPOCH;
        let stamps: Vec<_> = (0..8).map(|k| Some((k, t))).collect();
        assert_eq!(manifest_stamps(&stamps), [Some((2, t)), Some((6, t))]);
    }

    #[test]
    fn shards_links_start_at_their_common_parent() {
        let dirs = [PathBuf::from("/r/t/s1"), PathBuf::from("/r/t/s2")];
        assert_eq!(common_parent(&dirs), PathBuf::from("/r/t"));
        assert_eq!(common_parent(&dirs[..1]), PathBuf::from("/r/t/s1"));
    }
}
