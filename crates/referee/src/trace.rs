//! Wire traces: every line exchanged with one bot in one game, with its
//! direction and the milliseconds since arena started, in a capped file next
//! to the bot's stderr log.
//!
//! ```text
//!       12 > {"type":"hello","protocol":1,"referee":"arena 0.1.0"}
//!       47 < {"type":"ready","name":"mybot","protocol":1}
//! ```
//!
//! `>` is arena to the bot, `<` the bot to arena, `#` a note by arena (its
//! input closed). The file is created on the first line (a game that never
//! talks to the bot leaves none) and written line by line without a buffer,
//! so a trace is complete up to the moment the referee was killed. Past the
//! cap one marker line is written and the rest is dropped. Tracing is off
//! unless asked for; then a `BotProcess` holds no trace and pays one branch
//! per line.

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// How many of the last lines a trace keeps in memory (for `check-bot`).
pub const TAIL_LINES: usize = 12;

/// Size cap of one trace file, like the stderr log's.
pub const TRACE_CAP: u64 = super::log::DEFAULT_LOG_CAP;

/// The moment timestamps count from; [`mark_start`] sets it when arena
/// starts (otherwise the first trace line does).
static START: OnceLock<Instant> = OnceLock::new();

/// Sets the origin of trace timestamps to now (called first thing in `main`).
pub fn mark_start() {
    START.get_or_init(Instant::now);
}

/// The trace file name that goes with a stderr log file.
pub fn trace_path_for(log: &Path) -> PathBuf {
    log.with_extension("trace")
}

/// Which way a line went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ToBot,
    FromBot,
    Note,
}

impl Direction {
    fn mark(self) -> char {
        match self {
            Direction::ToBot => '>',
            Direction::FromBot => '<',
            Direction::Note => '#',
        }
    }
}

/// One bot's trace file for one game.
#[derive(Debug)]
pub struct Trace {
    /// `None`: only the last lines are kept, in memory.
    path: Option<PathBuf>,
    tail: VecDeque<String>,
    cap: u64,
    file: Option<std::fs::File>,
    written: u64,
    /// The cap was reached and its marker written.
    full: bool,
    /// Opening failed; further lines are dropped (the game goes on).
    broken: bool,
}

impl Trace {
    /// A trace to `path`; nothing is created until the first line.
    pub fn new(path: PathBuf, cap: u64) -> Trace {
        Trace {
            path: Some(path),
            ..Trace::in_memory()
        }
        .with_cap(cap)
    }

    /// A trace that keeps only its last [`TAIL_LINES`] lines, in memory.
    pub fn in_memory() -> Trace {
        Trace {
            path: None,
            tail: VecDeque::new(),
            cap: TRACE_CAP,
            file: None,
            written: 0,
            full: false,
            broken: false,
        }
    }

    fn with_cap(mut self, cap: u64) -> Trace {
        self.cap = cap;
        self
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The last lines, oldest first, without their newlines.
    pub fn tail(&self) -> Vec<String> {
        self.tail.iter().cloned().collect()
    }

    /// Appends one line (without its newline; invalid UTF-8 is shown
    /// lossily). Errors are not the bot's problem and do not stop the game:
    /// the trace just ends.
    pub fn line(&mut self, direction: Direction, line: &[u8]) {
        let ms = START.get_or_init(Instant::now).elapsed().as_millis();
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let entry = format!("{ms:>8} {} {text}\n", direction.mark());
        if self.tail.len() == TAIL_LINES {
            self.tail.pop_front();
        }
        self.tail
            .push_back(entry.trim_end().chars().take(300).collect());
        if self.full || self.broken || !self.open() {
            return;
        }
        let room = self.cap.saturating_sub(self.written);
        let text = if (entry.len() as u64) <= room {
            self.written += entry.len() as u64;
            entry
        } else {
            self.full = true;
            format!("[arena: trace truncated after {} bytes]\n", self.written)
        };
        let written = self.file.as_mut().map(|f| f.write_all(text.as_bytes()));
        if !matches!(written, Some(Ok(()))) {
            self.broken = true;
        }
    }

    /// Opens the file on first use; whether it is open.
    fn open(&mut self) -> bool {
        let Some(path) = &self.path else {
            return false;
        };
        if self.file.is_none() {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            match std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                Ok(file) => {
                    self.written = file.metadata().map(|m| m.len()).unwrap_or(0);
                    self.file = Some(file);
                }
                Err(_) => self.broken = true,
            }
        }
        self.file.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_in_order_with_direction_created_on_first_line_and_capped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/g.trace");
        let mut trace = Trace::new(path.clone(), 100);
        assert!(!path.exists());
        trace.line(Direction::ToBot, b"{\"type\":\"hello\"}\n");
        trace.line(Direction::FromBot, b"{\"type\":\"ready\"}");
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with(" > {\"type\":\"hello\"}"), "{text}");
        assert!(lines[1].ends_with(" < {\"type\":\"ready\"}"), "{text}");
        for _ in 0..10 {
            trace.line(Direction::FromBot, b"0123456789");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() <= 100 + 60, "{text}");
        assert!(
            text.ends_with("[arena: trace truncated after 96 bytes]\n")
                || text.contains("[arena: trace truncated after"),
            "{text}"
        );
        assert_eq!(text.matches("truncated").count(), 1);
    }
}
