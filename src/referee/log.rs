//! A bot's stderr, drained into a size-capped log file.
//!
//! The drain runs as its own task for the whole life of the pipe and never
//! stops reading: a bot that writes megabytes of debug output must not block
//! on a full pipe (which would look like a hang and cost it the game). Once
//! the file reaches its cap, one marker line is written and the rest is read
//! and dropped. The last few KiB are also kept in memory so the referee can
//! quote them in a crash message and recognise out-of-memory deaths.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;

/// Default size cap of one log file.
pub const DEFAULT_LOG_CAP: u64 = 1024 * 1024;

/// How much of the end of stderr is kept in memory.
const TAIL_BYTES: usize = 4096;

/// The marker written once when a log reaches its cap.
pub fn truncation_marker(cap: u64) -> String {
    format!("\n[arena: log truncated after {cap} bytes]\n")
}

/// Handle on a running stderr drain.
#[derive(Debug)]
pub struct StderrLog {
    path: Option<PathBuf>,
    cap: u64,
    tail: Arc<Mutex<Tail>>,
    /// A file the drain should switch to before its next write.
    next_file: Arc<Mutex<Option<LogFile>>>,
    task: Option<JoinHandle<()>>,
}

#[derive(Debug, Default)]
struct Tail {
    bytes: Vec<u8>,
    total: u64,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > 2 * TAIL_BYTES {
            let cut = self.bytes.len() - TAIL_BYTES;
            self.bytes.drain(..cut);
        }
    }
}

/// An open log file and how much of its cap is used ([`FULL`] once capped).
#[derive(Debug)]
struct LogFile {
    file: tokio::fs::File,
    written: u64,
}

/// Opens `path` for appending (creating its directory) and writes `header`
/// if the file has room. The cap counts what the file already held, so a
/// path reused by restarted bots stays bounded too.
fn open_log(path: &Path, cap: u64, header: &str) -> anyhow::Result<LogFile> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create log directory {}: {e}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| anyhow::anyhow!("cannot open bot log {}: {e}", path.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut written = if len >= cap { FULL } else { len };
    if written != FULL && !header.is_empty() {
        let take = header.len().min((cap - written) as usize);
        std::io::Write::write_all(&mut file, &header.as_bytes()[..take])
            .map_err(|e| anyhow::anyhow!("cannot write bot log {}: {e}", path.display()))?;
        written += take as u64;
    }
    Ok(LogFile {
        file: tokio::fs::File::from_std(file),
        written,
    })
}

impl StderrLog {
    /// Starts draining `stderr`. With a `path`, output is appended to that
    /// file (created if needed) until the file holds `cap` bytes. `header` is
    /// written first (e.g. the command line).
    pub fn start<R>(
        stderr: R,
        path: Option<&Path>,
        cap: u64,
        header: &str,
    ) -> anyhow::Result<StderrLog>
    where
        R: AsyncRead + Unpin + Send + 'static,
    {
        let file = path.map(|p| open_log(p, cap, header)).transpose()?;
        let tail = Arc::new(Mutex::new(Tail::default()));
        let next_file = Arc::new(Mutex::new(None));
        let task = tokio::spawn(drain(stderr, file, cap, tail.clone(), next_file.clone()));
        Ok(StderrLog {
            path: path.map(Path::to_path_buf),
            cap,
            tail,
            next_file,
            task: Some(task),
        })
    }

    /// From now on, writes to `path` instead (e.g. one log per game for a
    /// bot process that plays several). The file is created at once, with
    /// `header`, even if the bot never writes anything more. Output already
    /// in the pipe at the switch (say, what the bot wrote on hearing the
    /// previous `game_over`) may land in either file.
    pub fn switch_to(&mut self, path: &Path, header: &str) -> anyhow::Result<()> {
        let file = open_log(path, self.cap, header)?;
        *self.next_file.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
        self.path = Some(path.to_path_buf());
        Ok(())
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The last few KiB the bot wrote to stderr (lossy UTF-8).
    pub fn tail(&self) -> String {
        let tail = self.tail.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&tail.bytes).into_owned()
    }

    /// Total bytes the bot wrote to stderr so far, kept or not.
    pub fn total_bytes(&self) -> u64 {
        self.tail.lock().unwrap_or_else(|e| e.into_inner()).total
    }

    /// Waits up to `timeout` for the drain to see end-of-file (every writer
    /// of the pipe gone) and flush the file, then stops it regardless: a
    /// process that escaped the bot's process group must not pin the task.
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

async fn drain<R>(
    mut stderr: R,
    mut file: Option<LogFile>,
    cap: u64,
    tail: Arc<Mutex<Tail>>,
    next_file: Arc<Mutex<Option<LogFile>>>,
) where
    R: AsyncRead + Unpin,
{
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match stderr.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let chunk = &buf[..n];
        tail.lock().unwrap_or_else(|e| e.into_inner()).push(chunk);
        let switch = next_file.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(new) = switch {
            if let Some(old) = file.as_mut() {
                let _ = old.file.flush().await;
            }
            file = Some(new);
        }
        if let Some(log) = file.as_mut() {
            if log.written != FULL {
                write_capped(&mut log.file, &mut log.written, cap, chunk).await;
            }
        }
    }
    if let Some(log) = file.as_mut() {
        let _ = log.file.flush().await;
    }
}

/// `written` value of a log that takes no more output.
const FULL: u64 = u64::MAX;

/// Writes as much of `chunk` as fits under `cap`; when some of it does not
/// fit, writes the marker and marks the log full. Write errors (disk full)
/// end logging, never the game.
async fn write_capped(f: &mut tokio::fs::File, written: &mut u64, cap: u64, chunk: &[u8]) {
    let room = cap.saturating_sub(*written) as usize;
    let take = chunk.len().min(room);
    if f.write_all(&chunk[..take]).await.is_err() {
        *written = FULL;
        return;
    }
    *written += take as u64;
    if take < chunk.len() {
        let _ = f.write_all(truncation_marker(cap).as_bytes()).await;
        let _ = f.flush().await;
        *written = FULL;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn caps_the_file_and_keeps_draining() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/bot.log");
        let (mut writer, reader) = tokio::io::duplex(1024);
        let mut log = StderrLog::start(reader, Some(&path), 100, "head\n").unwrap();
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
    }

    #[tokio::test]
    async fn a_file_already_at_cap_gets_nothing_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bot.log");
        std::fs::write(&path, vec![b'a'; 50]).unwrap();
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, Some(&path), 60, "").unwrap();
        writer.write_all(b"0123456789abcdef").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(&text[..60], format!("{}0123456789", "a".repeat(50)));
        assert!(text.ends_with("truncated after 60 bytes]\n"));

        // A second process writing to the same full log adds nothing.
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, Some(&path), 60, "again\n").unwrap();
        writer.write_all(b"more").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[tokio::test]
    async fn switching_files_sends_later_output_to_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("g1.log");
        let second = dir.path().join("g2.log");
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, Some(&first), 1000, "[one]\n").unwrap();
        writer.write_all(b"game one\n").await.unwrap();
        // Let the drain take the first chunk before switching.
        while log.total_bytes() < 9 {
            tokio::task::yield_now().await;
        }
        log.switch_to(&second, "[two]\n").unwrap();
        assert_eq!(log.path(), Some(second.as_path()));
        assert_eq!(std::fs::read_to_string(&second).unwrap(), "[two]\n");
        writer.write_all(b"game two\n").await.unwrap();
        drop(writer);
        log.finish(Duration::from_secs(5)).await;
        assert_eq!(
            std::fs::read_to_string(&first).unwrap(),
            "[one]\ngame one\n"
        );
        assert_eq!(
            std::fs::read_to_string(&second).unwrap(),
            "[two]\ngame two\n"
        );
    }

    #[tokio::test]
    async fn without_a_path_output_is_only_tailed() {
        let (mut writer, reader) = tokio::io::duplex(64);
        let mut log = StderrLog::start(reader, None, 10, "").unwrap();
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
        let mut log = StderrLog::start(reader, None, 10, "").unwrap();
        let start = std::time::Instant::now();
        log.finish(Duration::from_millis(50)).await;
        assert!(start.elapsed() < Duration::from_secs(2));
    }
}
