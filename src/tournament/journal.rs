//! The journal of finished games: `games.jsonl` (full records, one JSON
//! object a line, each accepted by `arena judge`) and `games.csv` (one
//! [`GameRow`] a line), appended and flushed to disk as each game ends.
//!
//! A game counts as finished if and only if it is in both files. The record
//! is written to `games.jsonl` first and the row to `games.csv` second, so a
//! crash at any moment leaves at most one game in one file only, or a torn
//! (unterminated) last line. [`Journal::recover`] repairs both: it drops torn
//! lines and one-sided games, rewrites the files atomically when it changed
//! anything, and hands back the finished games so the runner replays only
//! the rest. Anything else unreadable is not crash damage, so it is an error
//! naming the file and line rather than something silently thrown away.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use serde::Serialize;
use serde_json::Value;

use crate::games::{GameResult, RuleReason};
use crate::referee::GameRow;

pub const GAMES_CSV: &str = "games.csv";
pub const GAMES_JSONL: &str = "games.jsonl";
pub const LOGS_DIR: &str = "logs";

/// A game read back from the journal.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedGame {
    pub row: GameRow,
    /// The `games.jsonl` object.
    pub record: Value,
}

/// What [`Journal::recover`] found.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Finished games in `games.csv` order.
    pub finished: Vec<FinishedGame>,
    /// One line per repair, for the user: torn lines, one-sided games, duplicates.
    pub repairs: Vec<String>,
}

/// Open journal files of one output directory, positioned for appending.
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    csv: File,
    jsonl: File,
}

impl Journal {
    /// Starts empty journal files in `dir` (created if needed). Refuses a
    /// directory that already has games, which would otherwise be mixed in.
    pub fn create(dir: &Path) -> anyhow::Result<Journal> {
        std::fs::create_dir_all(dir.join(LOGS_DIR))
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        for name in [GAMES_CSV, GAMES_JSONL] {
            let path = dir.join(name);
            if path.metadata().map(|m| m.len() > 0).unwrap_or(false) {
                bail!(
                    "{} already exists; resume that run with --resume {} or choose another output directory",
                    path.display(),
                    dir.display()
                );
            }
        }
        write_atomically(&dir.join(GAMES_CSV), csv_header().as_bytes())?;
        write_atomically(&dir.join(GAMES_JSONL), b"")?;
        Journal::open(dir)
    }

    fn open(dir: &Path) -> anyhow::Result<Journal> {
        let append = |name: &str| {
            let path = dir.join(name);
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .with_context(|| format!("cannot open {} for appending", path.display()))
        };
        std::fs::create_dir_all(dir.join(LOGS_DIR))
            .with_context(|| format!("cannot create {}", dir.join(LOGS_DIR).display()))?;
        Ok(Journal {
            dir: dir.to_path_buf(),
            csv: append(GAMES_CSV)?,
            jsonl: append(GAMES_JSONL)?,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Reads the journal in `dir`, repairs crash damage and reopens it for
    /// appending. `check` vets each `games.csv` row against the plan (known
    /// game id, right bots and opening); a row it rejects is an error.
    pub fn recover(
        dir: &Path,
        check: impl Fn(&GameRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<(Journal, Recovery)> {
        let csv_path = dir.join(GAMES_CSV);
        let jsonl_path = dir.join(GAMES_JSONL);
        let csv_bytes = read_or_empty(&csv_path)?;
        let jsonl_bytes = read_or_empty(&jsonl_path)?;
        let mut repairs = Vec::new();

        let csv_lines = split_lines(&csv_bytes, GAMES_CSV, &mut repairs);
        let jsonl_lines = split_lines(&jsonl_bytes, GAMES_JSONL, &mut repairs);

        // games.csv: header, then rows.
        let header = csv_header();
        let mut rows: Vec<(GameRow, &[u8])> = Vec::new();
        let mut body = csv_lines.as_slice();
        match body.first() {
            Some((_, line)) if *line == header.trim_end().as_bytes() => body = &body[1..],
            Some((_, line)) => bail!(
                "{}:1: expected the header {:?}, found {:?}",
                csv_path.display(),
                header.trim_end(),
                String::from_utf8_lossy(line)
            ),
            None => {}
        }
        for &(number, line) in body {
            let row = parse_row(line)
                .with_context(|| format!("{}:{number}: unreadable row", csv_path.display()))?;
            check(&row).with_context(|| format!("{}:{number}", csv_path.display()))?;
            rows.push((row, line));
        }

        // games.jsonl: objects with a numeric "id".
        let mut records: BTreeMap<u64, (Value, &[u8])> = BTreeMap::new();
        for &(number, line) in &jsonl_lines {
            let context = || format!("{}:{number}", jsonl_path.display());
            let value: Value = serde_json::from_slice(line)
                .map_err(|e| anyhow!("not a JSON object: {e}"))
                .with_context(context)?;
            let id = value
                .get("id")
                .and_then(Value::as_u64)
                .ok_or_else(|| anyhow!("the record has no numeric \"id\""))
                .with_context(context)?;
            match records.entry(id) {
                std::collections::btree_map::Entry::Occupied(_) => repairs.push(format!(
                    "{GAMES_JSONL}: line {number} repeats game {id}; kept the first"
                )),
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert((value, line));
                }
            }
        }

        // A game is finished iff it is in both files.
        let mut finished = Vec::new();
        let mut kept_csv: Vec<&[u8]> = Vec::new();
        let mut kept_jsonl: Vec<&[u8]> = Vec::new();
        let mut seen = BTreeSet::new();
        for (row, line) in rows {
            if !seen.insert(row.id) {
                repairs.push(format!(
                    "{GAMES_CSV}: game {} appears twice; kept the first",
                    row.id
                ));
                continue;
            }
            match records.remove(&row.id) {
                Some((record, record_line)) => {
                    kept_csv.push(line);
                    kept_jsonl.push(record_line);
                    finished.push(FinishedGame { row, record });
                }
                None => repairs.push(format!(
                    "game {} is in {GAMES_CSV} but not in {GAMES_JSONL}; it will be replayed",
                    row.id
                )),
            }
        }
        for id in records.keys() {
            repairs.push(format!(
                "game {id} is in {GAMES_JSONL} but not in {GAMES_CSV}; it will be replayed"
            ));
        }

        let csv_clean = csv_lines.len() == kept_csv.len() + 1 && ends_clean(&csv_bytes);
        let jsonl_clean = jsonl_lines.len() == kept_jsonl.len() && ends_clean(&jsonl_bytes);
        if !csv_clean || csv_bytes.is_empty() {
            let mut text = header.into_bytes();
            for line in &kept_csv {
                text.extend_from_slice(line);
                text.push(b'\n');
            }
            write_atomically(&csv_path, &text)?;
        }
        if !jsonl_clean {
            let mut text = Vec::new();
            for line in &kept_jsonl {
                text.extend_from_slice(line);
                text.push(b'\n');
            }
            write_atomically(&jsonl_path, &text)?;
        }
        let journal = Journal::open(dir)?;
        Ok((journal, Recovery { finished, repairs }))
    }

    /// Records a finished game: its full record in `games.jsonl` (with the
    /// row's `id`, `round` and `pair` added), then its row in `games.csv`,
    /// each written in one piece and synced to disk.
    pub fn append(&mut self, row: &GameRow, record: &impl Serialize) -> anyhow::Result<()> {
        let entry = JournalEntry::encode(row, record)?;
        write_batch(&self.dir, &mut self.jsonl, &mut self.csv, &[entry])
    }

    /// Starts a thread that appends [`JournalEntry`]s sent to it, so that the
    /// writes and syncs stay off the path that starts the next game. It
    /// writes exactly as [`Journal::append`] does and reports each game (its
    /// id) on `done` once both lines are synced, or the error that stopped
    /// it. At most `capacity` entries wait.
    pub fn start_writer(
        &self,
        capacity: usize,
        done: tokio::sync::mpsc::UnboundedSender<anyhow::Result<u64>>,
    ) -> anyhow::Result<JournalWriter> {
        let clone = |file: &File, name: &str| {
            file.try_clone()
                .with_context(|| format!("cannot reopen {}", self.dir.join(name).display()))
        };
        let mut jsonl = clone(&self.jsonl, GAMES_JSONL)?;
        let mut csv = clone(&self.csv, GAMES_CSV)?;
        let dir = self.dir.clone();
        let (sender, mut receiver) = tokio::sync::mpsc::channel::<JournalEntry>(capacity.max(1));
        let thread = std::thread::Builder::new()
            .name("arena-journal".into())
            .spawn(move || {
                let mut batch = Vec::new();
                while let Some(entry) = receiver.blocking_recv() {
                    // Games that ended while the last batch was syncing are
                    // written together and share one sync per file.
                    batch.push(entry);
                    while let Ok(more) = receiver.try_recv() {
                        batch.push(more);
                    }
                    match write_batch(&dir, &mut jsonl, &mut csv, &batch) {
                        Ok(()) => {
                            for entry in batch.drain(..) {
                                let _ = done.send(Ok(entry.id));
                            }
                        }
                        Err(error) => {
                            let _ = done.send(Err(error));
                            return;
                        }
                    }
                }
            })
            .context("starting the journal writer thread")?;
        Ok(JournalWriter {
            sender: Some(sender),
            thread: Some(thread),
        })
    }
}

/// A finished game encoded for the journal: its `games.jsonl` and
/// `games.csv` lines.
#[derive(Debug, Clone)]
pub struct JournalEntry {
    pub id: u64,
    jsonl: Vec<u8>,
    csv: String,
}

impl JournalEntry {
    /// The record with the row's `id`, `round` and `pair` added, and the row.
    pub fn encode(row: &GameRow, record: &impl Serialize) -> anyhow::Result<JournalEntry> {
        let mut value = serde_json::to_value(record).context("serializing a game record")?;
        let object = value
            .as_object_mut()
            .ok_or_else(|| anyhow!("a game record must be a JSON object"))?;
        object.insert("id".into(), row.id.into());
        object.insert("round".into(), row.round.into());
        object.insert("pair".into(), row.pair.into());
        let mut jsonl = serde_json::to_vec(&value).context("serializing a game record")?;
        jsonl.push(b'\n');
        Ok(JournalEntry {
            id: row.id,
            jsonl,
            csv: format_row(row)?,
        })
    }
}

/// The sending end of [`Journal::start_writer`].
#[derive(Debug)]
pub struct JournalWriter {
    sender: Option<tokio::sync::mpsc::Sender<JournalEntry>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl JournalWriter {
    /// Queues `entry`; waits while `capacity` entries are already queued.
    /// Fails only if the writer stopped (its error comes on `done`).
    pub async fn send(&self, entry: JournalEntry) -> anyhow::Result<()> {
        let sender = self.sender.as_ref().expect("open until close");
        sender
            .send(entry)
            .await
            .map_err(|_| anyhow!("the journal writer stopped"))
    }

    /// Lets the thread write what is queued, then waits for it to end (so
    /// every entry sent has been reported on `done`).
    pub fn close(&mut self) {
        self.sender = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for JournalWriter {
    fn drop(&mut self) {
        self.close();
    }
}

/// Appends the records of `batch` to `games.jsonl` and syncs it, then their
/// rows to `games.csv` and syncs that: a crash leaves each game in neither
/// file, in `games.jsonl` only (replayed on resume) or in both.
fn write_batch(
    dir: &Path,
    jsonl: &mut File,
    csv: &mut File,
    batch: &[JournalEntry],
) -> anyhow::Result<()> {
    let records: Vec<u8> = batch.iter().flat_map(|e| e.jsonl.iter().copied()).collect();
    write_synced(jsonl, &records)
        .with_context(|| format!("writing {}", dir.join(GAMES_JSONL).display()))?;
    let rows: String = batch.iter().map(|e| e.csv.as_str()).collect();
    write_synced(csv, rows.as_bytes())
        .with_context(|| format!("writing {}", dir.join(GAMES_CSV).display()))?;
    Ok(())
}

fn write_synced(file: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    file.write_all(bytes)?;
    file.sync_data()
}

fn read_or_empty(path: &Path) -> anyhow::Result<Vec<u8>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

fn ends_clean(bytes: &[u8]) -> bool {
    bytes.is_empty() || bytes.ends_with(b"\n")
}

/// Complete lines with their 1-based numbers. An unterminated last line is
/// what a crash mid-write leaves; it is dropped and reported. Blank lines
/// are skipped.
fn split_lines<'a>(
    bytes: &'a [u8],
    name: &str,
    repairs: &mut Vec<String>,
) -> Vec<(usize, &'a [u8])> {
    let mut lines = Vec::new();
    let mut rest = bytes;
    let mut number = 0;
    while !rest.is_empty() {
        number += 1;
        match rest.iter().position(|&b| b == b'\n') {
            Some(end) => {
                let line = &rest[..end];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                if !line.iter().all(u8::is_ascii_whitespace) {
                    lines.push((number, line));
                }
                rest = &rest[end + 1..];
            }
            None => {
                repairs.push(format!(
                    "{name}: dropped an unfinished last line {number} ({} bytes, cut off by a crash)",
                    rest.len()
                ));
                break;
            }
        }
    }
    lines
}

/// The `games.csv` header line, derived from [`GameRow`]'s fields.
pub fn csv_header() -> String {
    let mut writer = csv_writer(true);
    writer
        .serialize(GameRow {
            id: 0,
            round: 0,
            pair: 0,
            variant: String::new(),
            white: String::new(),
            black: String::new(),
            opening: String::new(),
            result: GameResult::Draw,
            reason: RuleReason::Full.into(),
            plies: 0,
            white_time_ms: 0,
            black_time_ms: 0,
        })
        .expect("a row serializes");
    let bytes = writer.into_inner().expect("writing to memory");
    let text = String::from_utf8(bytes).expect("csv of strings is UTF-8");
    let first = text.lines().next().expect("header line");
    format!("{first}\n")
}

/// One `games.csv` line, newline included.
pub fn format_row(row: &GameRow) -> anyhow::Result<String> {
    let mut writer = csv_writer(false);
    writer
        .serialize(row)
        .context("serializing a games.csv row")?;
    let bytes = writer.into_inner().context("serializing a games.csv row")?;
    let text = String::from_utf8(bytes).context("games.csv row is not UTF-8")?;
    if text.matches('\n').count() != 1 {
        bail!("a games.csv row must be one line, got {text:?}");
    }
    Ok(text)
}

fn csv_writer(headers: bool) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(headers)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new())
}

fn parse_row(line: &[u8]) -> anyhow::Result<GameRow> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line);
    match reader.deserialize::<GameRow>().next() {
        Some(row) => Ok(row?),
        None => bail!("empty row"),
    }
}

/// Replaces `path` with `bytes` so that a crash leaves either the old or the
/// new content: write a temporary file, sync it, rename it over, sync the
/// directory.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    let result = (|| -> std::io::Result<()> {
        let mut file = File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            // Makes the rename durable; not possible on every platform.
            if let Ok(dir) = File::open(parent) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    })();
    result.with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: u64) -> GameRow {
        GameRow {
            id,
            round: 0,
            pair: id / 2,
            variant: "qango6".into(),
            white: "a, the first".into(),
            black: "b \"quoted\"".into(),
            opening: "a1 b2".into(),
            result: GameResult::WhiteWins,
            reason: RuleReason::Group.into(),
            plies: 9,
            white_time_ms: 10,
            black_time_ms: 12,
        }
    }

    #[test]
    fn header_lists_game_row_fields_in_order() {
        assert_eq!(
            csv_header(),
            "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n"
        );
    }

    #[test]
    fn rows_round_trip_through_one_line() {
        let line = format_row(&row(3)).unwrap();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(parse_row(line.trim_end().as_bytes()).unwrap(), row(3));
    }

    #[test]
    fn split_lines_drops_only_an_unterminated_tail() {
        let mut repairs = Vec::new();
        let lines = split_lines(b"a\n\nb\r\nc", "f", &mut repairs);
        assert_eq!(lines, [(1, &b"a"[..]), (3, &b"b"[..])]);
        assert_eq!(repairs.len(), 1);
        assert!(repairs[0].contains("line 4"), "{repairs:?}");
        repairs.clear();
        assert_eq!(split_lines(b"a\n", "f", &mut repairs).len(), 1);
        assert!(repairs.is_empty());
    }
}
