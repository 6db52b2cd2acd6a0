//! A bot's stderr, drained into per-game, size-capped log files that are
//! created only when the bot writes something.
//!
//! The drain runs as its own task for the whole life of the pipe and never
//! stops reading: a bot that writes megabytes of debug output must not block
//! on a full pipe (which would look like a hang and cost it the game). Its
//! output goes to the current [`GameLog`], one per game: the file (and its
//! directory) is created on the first byte, so a bot that writes nothing
//! costs no file at all, which in a tournament of quiet bots was most of the
//! referee's system time. Once a file reaches its cap, one marker line is
//! written and the rest is read and dropped. A file that cannot be created
//! or written (no descriptors left, disk full, a name too long, no
//! permission) never costs the game: the game's output is kept as an
//! in-memory tail instead ([`FALLBACK_TAIL`] bytes) and the failure becomes
//! a warning of the game record. The last few KiB of the whole process are
//! also kept in memory so the referee can quote them in a crash message and
//! recognise out-of-memory deaths, and its first bytes, whose first line a
//! start-up failure quotes ([`StderrLog::first_line`]).
//!
//! Writes are plain blocking writes from the drain task: a log write is a
//! copy into the page cache, much cheaper than handing it to a thread.

use std::fs::File;
use std::io::Write;
use std::os::fd::BorrowedFd;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::task::JoinHandle;

/// Default size cap of one log file.
pub const DEFAULT_LOG_CAP: u64 = 1024 * 1024;

/// How much of the end of the process's stderr is kept in memory.
const TAIL_BYTES: usize = 4096;

/// How much of the start of the process's stderr is kept in memory (its
/// first line is quoted when the bot fails to start).
const HEAD_BYTES: usize = 512;

/// The longest first line quoted, in bytes.
const FIRST_LINE_MAX: usize = 200;

/// How much of a game's stderr is kept in memory when its log file cannot
/// be written.
pub const FALLBACK_TAIL: usize = 64 * 1024;

/// The marker written once when a log reaches its cap.
pub fn truncation_marker(cap: u64) -> String {
    format!("\n[arena: log truncated after {cap} bytes]\n")
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The keeper of the last `limit` bytes of a stream (and of its first
/// [`HEAD_BYTES`], for [`Tail::first_line`]).
#[derive(Debug, Default)]
struct Tail {
    bytes: Vec<u8>,
    head: Vec<u8>,
    total: u64,
}

impl Tail {
    /// Appends `chunk`, keeping at least the last `limit` bytes (and at most
    /// twice that, so that trimming is rare).
    fn push(&mut self, chunk: &[u8], limit: usize) {
        if self.head.len() < HEAD_BYTES {
            let take = chunk.len().min(HEAD_BYTES - self.head.len());
            self.head.extend_from_slice(&chunk[..take]);
        }
        self.total += chunk.len() as u64;
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > 2 * limit {
            let cut = self.bytes.len() - limit;
            self.bytes.drain(..cut);
        }
    }

    fn last(&self, limit: usize) -> &[u8] {
        &self.bytes[self.bytes.len().saturating_sub(limit)..]
    }

    /// The first line of the stream that is not blank (trimmed, lossy
    /// UTF-8, at most [`FIRST_LINE_MAX`] bytes), if it has one.
    fn first_line(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.head);
        let line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("[arena:"))?;
        let mut end = line.len().min(FIRST_LINE_MAX);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        Some(line[..end].to_string())
    }
}

/// One game's stderr log of one bot: a path, created on the first byte.
///
/// The game keeps its handle and asks at the end what became of it
/// ([`GameLog::report`]); the bot process's drain writes into it.
#[derive(Debug)]
pub struct GameLog {
    path: PathBuf,
    /// Written first when the file is created (e.g. the game and colour).
    header: String,
    state: Mutex<LogState>,
}

#[derive(Debug)]
enum LogState {
    /// Nothing written yet: no file.
    Unwritten,
    /// `written` bytes of the cap used ([`FULL`] once capped).
    Open { file: File, written: u64 },
    /// The file could not be created or written; output goes to `tail`.
    Failed { error: String, tail: Tail },
}

/// What became of one game's log, for the game record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogReport {
    /// The log file, if the bot wrote anything and the file could be written.
    pub path: Option<PathBuf>,
    /// The end of the game's output when the file could not be written.
    pub tail: Option<String>,
    /// Why the file could not be written (a referee warning).
    pub warning: Option<String>,
}

/// `written` value of a log that takes no more output.
const FULL: u64 = u64::MAX;

impl GameLog {
    /// A log at `path`, not created until something is written.
    pub fn new(path: impl Into<PathBuf>, header: impl Into<String>) -> Arc<GameLog> {
        Arc::new(GameLog {
            path: path.into(),
            header: header.into(),
            state: Mutex::new(LogState::Unwritten),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path if the file exists, the tail and the warning if it could
    /// not be written; all `None` while nothing was written.
    pub fn report(&self) -> LogReport {
        match &*lock(&self.state) {
            LogState::Unwritten => LogReport::default(),
            LogState::Open { .. } => LogReport {
                path: Some(self.path.clone()),
                ..LogReport::default()
            },
            LogState::Failed { error, tail } => LogReport {
                path: None,
                tail: Some(String::from_utf8_lossy(tail.last(FALLBACK_TAIL)).into_owned()),
                warning: Some(format!(
                    "{error}; the last {} KiB of it are kept in the game record instead",
                    FALLBACK_TAIL / 1024
                )),
            },
        }
    }

    /// Appends `chunk` (creating the file first, with `prefix` and the
    /// header, if this is the first output) up to `cap` bytes per file.
    fn write(&self, chunk: &[u8], cap: u64, prefix: &str) {
        let mut state = lock(&self.state);
        if let LogState::Unwritten = *state {
            *state = match self.create(cap, prefix) {
                Ok((file, written)) => LogState::Open { file, written },
                Err(error) => LogState::Failed {
                    error,
                    tail: Tail::default(),
                },
            };
        }
        match &mut *state {
            LogState::Unwritten => unreachable!("created above"),
            LogState::Open { file, written } => {
                if let Err(e) = write_capped(file, written, cap, chunk) {
                    let error = format!("cannot write bot log {}: {e}", self.path.display());
                    let mut tail = Tail::default();
                    tail.push(chunk, FALLBACK_TAIL);
                    *state = LogState::Failed { error, tail };
                }
            }
            LogState::Failed { tail, .. } => tail.push(chunk, FALLBACK_TAIL),
        }
    }

    /// Opens the file for appending (creating its directory if missing) and
    /// writes the headers if the file has room. The cap counts what the file
    /// already held, so a path reused by restarted bots stays bounded too.
    fn create(&self, cap: u64, prefix: &str) -> Result<(File, u64), String> {
        let open = || {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)
        };
        let cannot =
            |e: std::io::Error| format!("cannot create bot log {}: {e}", self.path.display());
        let mut file = match open() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        format!("cannot create log directory {}: {e}", dir.display())
                    })?;
                }
                open().map_err(cannot)?
            }
            opened => opened.map_err(cannot)?,
        };
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut written = if len >= cap { FULL } else { len };
        for header in [prefix, self.header.as_str()] {
            if written == FULL || header.is_empty() {
                continue;
            }
            let take = header.len().min((cap - written) as usize);
            file.write_all(&header.as_bytes()[..take])
                .map_err(|e| format!("cannot write bot log {}: {e}", self.path.display()))?;
            written += take as u64;
        }
        Ok((file, written))
    }
}

/// Writes as much of `chunk` as fits under `cap`; when some of it does not
/// fit, writes the marker and marks the log full.
fn write_capped(f: &mut File, written: &mut u64, cap: u64, chunk: &[u8]) -> std::io::Result<()> {
    if *written == FULL {
        return Ok(());
    }
    let room = cap.saturating_sub(*written) as usize;
    let take = chunk.len().min(room);
    f.write_all(&chunk[..take])?;
    *written += take as u64;
    if take < chunk.len() {
        *written = FULL;
        f.write_all(truncation_marker(cap).as_bytes())?;
    }
    Ok(())
}

/// Where the drain sends output: the current game's log, and text written
/// before the first output of the first log (the referee's "started" line).
#[derive(Debug, Default)]
struct Route {
    log: Option<Arc<GameLog>>,
    prefix: String,
}

/// Where drained bytes go: the process's tail, then the current game's log.
#[derive(Debug, Clone)]
struct Sink {
    cap: u64,
    tail: Arc<Mutex<Tail>>,
    route: Arc<Mutex<Route>>,
}

impl Sink {
    fn take(&self, chunk: &[u8]) {
        lock(&self.tail).push(chunk, TAIL_BYTES);
        let (log, prefix) = {
            let mut route = lock(&self.route);
            let prefix = std::mem::take(&mut route.prefix);
            (route.log.clone(), prefix)
        };
        if let Some(log) = log {
            log.write(chunk, self.cap, &prefix);
        }
    }
}

/// Handle on a running stderr drain.
#[derive(Debug)]
pub struct StderrLog {
    sink: Sink,
    task: Option<JoinHandle<()>>,
}

impl StderrLog {
    /// Starts draining `stderr` into `log` (if any), at most `cap` bytes per
    /// file. `prefix` goes before the first log's header (e.g. the command
    /// line), only if that log gets created.
    pub fn start<R>(stderr: R, log: Option<Arc<GameLog>>, cap: u64, prefix: &str) -> StderrLog
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let sink = Sink {
            cap,
            tail: Arc::new(Mutex::new(Tail::default())),
            route: Arc::new(Mutex::new(Route {
                log,
                prefix: prefix.to_string(),
            })),
        };
        let task = tokio::spawn(drain(stderr, sink.clone()));
        StderrLog {
            sink,
            task: Some(task),
        }
    }

    /// From now on, writes to `log` instead (e.g. one log per game for a bot
    /// process that plays several). Output already in the pipe at the switch
    /// (say, what the bot wrote on hearing the previous `game_over`) may land
    /// in either log.
    pub fn switch_to(&mut self, log: Arc<GameLog>) {
        let mut route = lock(&self.sink.route);
        route.log = Some(log);
        route.prefix.clear();
    }

    /// The current log's path (whether or not the file exists yet).
    pub fn path(&self) -> Option<PathBuf> {
        lock(&self.sink.route).log.as_ref().map(|l| l.path.clone())
    }

    /// Whether the drain still reads the pipe (it has not seen its end).
    pub fn draining(&self) -> bool {
        self.task.as_ref().is_some_and(|task| !task.is_finished())
    }

    /// Takes what the pipe `stderr` holds now, up to its default size,
    /// without waiting, and logs it as the drain would. For a caller that
    /// must have the bot's output logged before it goes on, on a
    /// current-thread runtime: the drain task cannot run meanwhile, so the
    /// two never read at once and the output stays in order. The drain
    /// carries on with the rest when it next runs.
    pub fn drain_now(&self, stderr: BorrowedFd<'_>) {
        let mut chunk = [0u8; 4096];
        for _ in 0..16 {
            match super::direct_io::read_now(stderr, &mut chunk) {
                Ok(n) if n > 0 => self.sink.take(&chunk[..n]),
                // Empty, closed, or an error: the drain sees to it.
                _ => return,
            }
        }
    }

    /// The last few KiB the bot wrote to stderr (lossy UTF-8).
    pub fn tail(&self) -> String {
        String::from_utf8_lossy(&lock(&self.sink.tail).bytes).into_owned()
    }

    /// The first line the bot wrote to stderr that is not blank (at most
    /// 200 bytes of it), if any: what a bot that cannot start usually says
    /// about why.
    pub fn first_line(&self) -> Option<String> {
        lock(&self.sink.tail).first_line()
    }

    /// Total bytes the bot wrote to stderr so far, kept or not.
    pub fn total_bytes(&self) -> u64 {
        lock(&self.sink.tail).total
    }

    /// Waits up to `timeout` for the drain to see end-of-file (every writer
    /// of the pipe gone), then stops it regardless: a process that escaped
    /// the bot's process group must not pin the task.
    pub async fn finish(&mut self, timeout: Duration) {
        if let Some(mut task) = self.task.take() {
            if tokio::time::timeout(timeout, &mut task).await.is_err() {
                task.abort();
                let _ = task.await;
            }
        }
    }
}

impl Drop for StderrLog {
    fn drop(&mut self) {
        // Dropping the handle detaches the task; it ends at end-of-file,
        // which comes once the process group is killed.
        self.task.take();
    }
}

async fn drain<R>(mut stderr: R, sink: Sink)
where
    R: AsyncRead + Unpin,
{
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => sink.take(&buf[..n]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[test]
    fn the_first_line_is_the_first_that_is_not_blank_and_stays_first() {
        let mut tail = Tail::default();
        assert_eq!(tail.first_line(), None);
        tail.push(b"\n  \n", 8);
        assert_eq!(tail.first_line(), None);
        tail.push(b"Can't open perl script \"x.pl\"", 8);
        tail.push(b": No such file\nsecond\n", 8);
        // The tail keeps only the end; the first line stays whole.
        assert_eq!(
            tail.first_line().as_deref(),
            Some("Can't open perl script \"x.pl\": No such file")
        );
        tail.push(&[b'y'; 10_000], 8);
        assert_eq!(tail.head.len(), HEAD_BYTES);
        let mut long = Tail::default();
        long.push("é".repeat(300).as_bytes(), 8);
        assert_eq!(long.first_line().unwrap().len(), FIRST_LINE_MAX);
    }

    /// Waits until the drain has taken `bytes` bytes off the pipe.
    async fn drained(log: &StderrLog, bytes: u64) {
        while log.total_bytes() < bytes {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test(flavor = "current_thread")]
    async fn drain_now_logs_what_is_in_the_pipe_before_the_task_runs() {
        use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe2 writes.
        assert_eq!(
            unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK) },
            0
        );
        // SAFETY: both descriptors were just opened and are owned here only.
        let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let receiver = tokio::net::unix::pipe::Receiver::from_owned_fd(read).unwrap();
        let fd = receiver.as_fd().as_raw_fd();
        let log = StderrLog::start(receiver, Some(GameLog::new(&path, "head\n")), 1000, "");
        let mut writer = std::fs::File::from(write);
        writer.write_all(b"before the answer\n").unwrap();
        // No await since the start: the drain task has not run yet.
        // SAFETY: the receiver, owned by the task, is open until it ends.
        log.drain_now(unsafe { BorrowedFd::borrow_raw(fd) });
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "head\nbefore the answer\n"
        );
        assert_eq!(log.total_bytes(), 18);
        // The task carries on with what comes later.
        writer.write_all(b"later\n").unwrap();
        drained(&log, 24).await;
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .ends_with("answer\nlater\n"));
    }

    #[tokio::test]
    async fn caps_the_file_and_keeps_draining() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/bot.log");
        let game = GameLog::new(&path, "head\n");
        let (mut writer, reader) = tokio::io::duplex(1024);
        let mut log = StderrLog::start(reader, Some(game.clone()), 100, "");
        // 10 KiB through a 1 KiB pipe: completes only if the drain keeps reading.
        let data = vec![b'x'; 10 * 1024];
        writer.write_all(&data).await.unwrap();
        writer.write_all(b"\nlast words").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("head\nxxx"));
        assert_eq!(text.len(), 100 + truncation_marker(100).len());
        assert!(text.ends_with("[arena: log truncated after 100 bytes]\n"));
        assert!(log.tail().ends_with("\nlast words"));
        assert_eq!(log.total_bytes(), 10 * 1024 + 11);
        assert_eq!(game.report().path.as_deref(), Some(path.as_path()));
    }

    #[tokio::test]
    async fn a_file_already_at_cap_gets_nothing_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        std::fs::write(&path, vec![b'a'; 50]).unwrap();
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, Some(GameLog::new(&path, "")), 60, "");
        writer.write_all(b"0123456789abcdef").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(&text[..60], format!("{}0123456789", "a".repeat(50)));
        assert!(text.ends_with("truncated after 60 bytes]\n"));

        // A second process writing to the same full log adds nothing.
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, Some(GameLog::new(&path, "again\n")), 60, "");
        writer.write_all(b"more").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[tokio::test]
    async fn files_are_created_on_the_first_output_only() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second, third) = (
            dir.path().join("logs/g1.log"),
            dir.path().join("logs/g2.log"),
            dir.path().join("logs/g3.log"),
        );
        let g1 = GameLog::new(&first, "[one]\n");
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, Some(g1.clone()), 1000, "[started]\n");
        assert!(!first.exists() && !dir.path().join("logs").exists());
        assert_eq!(g1.report(), LogReport::default());
        writer.write_all(b"game one\n").await.unwrap();
        drained(&log, 9).await;
        assert_eq!(g1.report().path.as_deref(), Some(first.as_path()));

        // A game without output leaves no file and no path.
        let g2 = GameLog::new(&second, "[two]\n");
        log.switch_to(g2.clone());
        assert_eq!(log.path().as_deref(), Some(second.as_path()));
        let g3 = GameLog::new(&third, "[three]\n");
        log.switch_to(g3.clone());
        writer.write_all(b"game three\n").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        assert!(!second.exists());
        assert_eq!(g2.report(), LogReport::default());
        assert_eq!(
            std::fs::read_to_string(&first).unwrap(),
            "[started]\n[one]\ngame one\n"
        );
        // The process's "started" line belongs to its first log only.
        assert_eq!(
            std::fs::read_to_string(&third).unwrap(),
            "[three]\ngame three\n"
        );
    }

    #[tokio::test]
    async fn a_log_that_cannot_be_created_keeps_a_tail_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        // A name longer than any file system allows (ENAMETOOLONG).
        let path = dir.path().join(format!("{}.log", "n".repeat(300)));
        let game = GameLog::new(&path, "[game]\n");
        let (mut writer, reader) = tokio::io::duplex(1024);
        let mut log = StderrLog::start(reader, Some(game.clone()), DEFAULT_LOG_CAP, "");
        let data = vec![b'z'; 3 * FALLBACK_TAIL];
        writer.write_all(&data).await.unwrap();
        writer.write_all(b"\nthe end").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        let report = game.report();
        assert_eq!(report.path, None);
        let tail = report.tail.unwrap();
        assert_eq!(tail.len(), FALLBACK_TAIL);
        assert!(tail.ends_with("zzz\nthe end"));
        let warning = report.warning.unwrap();
        assert!(warning.contains("cannot create bot log"), "{warning}");
        assert!(warning.contains("name too long"), "{warning}");
    }

    #[tokio::test]
    async fn without_a_log_output_is_only_tailed() {
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, None, 10, "");
        writer.write_all(&vec![b'y'; 3 * TAIL_BYTES]).await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        assert!(log.path().is_none());
        let tail = log.tail();
        assert!(tail.len() >= TAIL_BYTES && tail.len() <= 2 * TAIL_BYTES);
    }

    #[tokio::test]
    async fn finish_gives_up_on_a_pipe_that_never_closes() {
        let (_writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, None, 10, "");
        let start = std::time::Instant::now();
        log.finish(Duration::from_millis(50)).await;
        assert!(start.elapsed() < Duration::from_secs(2));
    }
}
