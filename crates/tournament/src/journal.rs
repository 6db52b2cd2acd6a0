//! The journal of finished games: `games.jsonl` (full records, one JSON
//! object a line, each accepted by `arena judge`) and `games.csv` (one
//! [`GameRow`] a line), appended as each game ends and synced to disk at most
//! every `sync_interval_ms` (see [`Journal::start_writer`]).
//!
//! A game counts as finished if and only if it is in both files. The record
//! is written to `games.jsonl` first and the row to `games.csv` second, so a
//! crash at any moment leaves at most one game in one file only, or a torn
//! (unterminated) last line. [`Journal::recover`] repairs both: it drops torn
//! lines and one-sided games, rewrites the files atomically when it changed
//! anything, and hands back the finished games so the runner replays only
//! the rest. Anything else unreadable is not crash damage, so it is an error
//! naming the file and line rather than something silently thrown away.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use serde::Deserialize;
use serde_json::Value;

use arena_files::{write_atomically, write_atomically_with};

use super::agreement::Agreement;
use super::game_set::GameSet;
use arena_referee::{GameRecord, GameRow};
use arena_rules::games::{GameResult, RuleReason};

pub use super::output_files::{GAMES_CSV, GAMES_JSONL, LOGS_DIR};

/// What [`Journal::recover`] found.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Ids of the finished games (in both files). The games themselves
    /// stay on disk, to be streamed by whoever needs them.
    pub finished: GameSet,
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
        Journal::refuse_games(dir)?;
        std::fs::create_dir_all(dir.join(LOGS_DIR))
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        write_atomically(&dir.join(GAMES_CSV), csv_header().as_bytes())?;
        write_atomically(&dir.join(GAMES_JSONL), b"")?;
        Journal::open(dir)
    }

    /// `Err` when `dir` already holds games (a non-empty games.csv or
    /// games.jsonl), which a new run would mix with its own. Checked before
    /// anything of the new run is written.
    pub fn refuse_games(dir: &Path) -> anyhow::Result<()> {
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
        Ok(())
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
    ///
    /// A row that says something else than its game's record (players,
    /// result, reason, plies) is an error naming both lines
    /// ([`Agreement`]).
    ///
    /// The files are streamed a line at a time; game ids are kept as
    /// bitsets, and each record's line and a hash of what it says (some 30
    /// bytes a game); a file that needs repair is rewritten in a second
    /// streaming pass.
    pub fn recover(
        dir: &Path,
        check: impl Fn(&GameRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<(Journal, Recovery)> {
        let csv_path = dir.join(GAMES_CSV);
        let jsonl_path = dir.join(GAMES_JSONL);
        let header = csv_header();
        let mut torn = Vec::new();

        // games.jsonl: objects with a numeric "id"; the first copy counts,
        // and what it says is kept for the rows to be checked against.
        let mut records = GameSet::new();
        let mut agreement = Agreement::default();
        let mut jsonl_duplicates = Vec::new();
        let jsonl_scan = scan_lines(&jsonl_path, &mut torn, |number, line| {
            let id = agreement
                .note_record(number, line)
                .with_context(|| format!("{}:{number}", jsonl_path.display()))?;
            if !records.insert(id) {
                jsonl_duplicates.push(format!(
                    "{GAMES_JSONL}: line {number} repeats game {id}; kept the first"
                ));
            }
            Ok(())
        })?;

        // games.csv: header, then rows; each row vetted by `check` and
        // against its record.
        let mut in_csv = GameSet::new();
        let mut csv_duplicates = Vec::new();
        let mut header_seen = false;
        // Rows of a games.csv written before its last columns existed get
        // those columns empty (`padding`); the file is rewritten with the
        // current header.
        let mut padding: Vec<u8> = Vec::new();
        let mut repairs = Vec::new();
        let csv_scan = scan_lines(&csv_path, &mut torn, |number, line| {
            if !header_seen {
                let current = header.trim_end().as_bytes();
                if line != current && current.starts_with(&[line, b","].concat()) {
                    let missing = &header.trim_end()[line.len() + 1..];
                    padding = vec![b','; missing.split(',').count()];
                    repairs.push(format!(
                        "{GAMES_CSV}: added the columns {missing} (empty for the games played before)"
                    ));
                } else if line != current {
                    bail!(
                        "{}:1: expected the header {:?}, found {:?}",
                        csv_path.display(),
                        header.trim_end(),
                        String::from_utf8_lossy(line)
                    );
                }
                header_seen = true;
                return Ok(());
            }
            let row = parse_row(&[line, &padding].concat())
                .with_context(|| format!("{}:{number}: unreadable row", csv_path.display()))?;
            check(&row).with_context(|| format!("{}:{number}", csv_path.display()))?;
            if in_csv.insert(row.id) {
                agreement.check_row(&row, (&csv_path, number), &jsonl_path)?;
            } else {
                csv_duplicates.push(format!(
                    "{GAMES_CSV}: game {} appears twice; kept the first",
                    row.id
                ));
            }
            Ok(())
        })?;

        // A game is finished iff it is in both files.
        repairs.extend(torn);
        repairs.extend(jsonl_duplicates);
        repairs.extend(csv_duplicates);
        let mut finished = GameSet::new();
        for id in in_csv.iter() {
            if records.contains(id) {
                finished.insert(id);
            } else {
                repairs.push(format!(
                    "game {id} is in {GAMES_CSV} but not in {GAMES_JSONL}; it will be replayed"
                ));
            }
        }
        for id in records.iter().filter(|&id| !in_csv.contains(id)) {
            repairs.push(format!(
                "game {id} is in {GAMES_JSONL} but not in {GAMES_CSV}; it will be replayed"
            ));
        }

        let kept = finished.len();
        let csv_clean =
            header_seen && padding.is_empty() && csv_scan.lines == kept + 1 && !csv_scan.torn;
        if !csv_clean {
            let mut header_done = false;
            let mut keep = GameSet::new();
            rewrite_lines(&csv_path, header.as_bytes(), &padding, |line| {
                if !std::mem::replace(&mut header_done, true) {
                    return Ok(false);
                }
                let id = parse_row(&[line, &padding].concat())?.id;
                Ok(finished.contains(id) && keep.insert(id))
            })?;
        }
        if jsonl_scan.lines != kept || jsonl_scan.torn {
            let mut keep = GameSet::new();
            rewrite_lines(&jsonl_path, b"", b"", |line| {
                let id = record_id(line)?;
                Ok(finished.contains(id) && keep.insert(id))
            })?;
        }
        let journal = Journal::open(dir)?;
        Ok((journal, Recovery { finished, repairs }))
    }

    /// Records a finished game, which must have its place in the schedule:
    /// its record in `games.jsonl`, then its row in `games.csv`, each
    /// written in one piece and synced to disk.
    pub fn append(&mut self, record: &GameRecord) -> anyhow::Result<()> {
        let entry = JournalEntry::encode(record)?;
        write_batch(&self.dir, &mut self.jsonl, &mut self.csv, &[entry])?;
        for (file, name) in [(&self.jsonl, GAMES_JSONL), (&self.csv, GAMES_CSV)] {
            file.sync_data()
                .with_context(|| format!("syncing {}", self.dir.join(name).display()))?;
        }
        Ok(())
    }

    /// Starts a thread that appends [`JournalEntry`]s sent to it, so that the
    /// writes and syncs stay off the path that starts the next game. Each
    /// game's record goes to `games.jsonl` and then its row to `games.csv`
    /// as soon as it arrives (so a kill of arena, which leaves the page
    /// cache to the kernel, loses nothing sent), and is reported on `done`
    /// (its id) once written, or the error that stopped the writer. The
    /// files are synced (`fdatasync`) at most every `sync_interval` and when
    /// the writer closes: a machine crash loses at most the games of the
    /// last interval, which `--resume` replays. A zero interval syncs after
    /// every write. At most `capacity` entries wait.
    pub fn start_writer(
        &self,
        capacity: usize,
        sync_interval: Duration,
        done: tokio::sync::mpsc::UnboundedSender<anyhow::Result<u64>>,
    ) -> anyhow::Result<JournalWriter> {
        let clone = |file: &File, name: &str| {
            file.try_clone()
                .with_context(|| format!("cannot reopen {}", self.dir.join(name).display()))
        };
        let files = JournalFiles {
            dir: self.dir.clone(),
            jsonl: clone(&self.jsonl, GAMES_JSONL)?,
            csv: clone(&self.csv, GAMES_CSV)?,
        };
        let (sender, receiver) = tokio::sync::mpsc::channel::<JournalEntry>(capacity.max(1));
        // The thread waits for entries or for the next sync, whichever
        // comes first: a timer, so it needs a (tiny) runtime of its own.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .context("starting the journal writer's timer")?;
        let thread = std::thread::Builder::new()
            .name("arena-journal".into())
            .spawn(move || {
                let written =
                    runtime.block_on(write_entries(files, receiver, sync_interval, &done));
                if let Err(error) = written {
                    let _ = done.send(Err(error));
                }
            })
            .context("starting the journal writer thread")?;
        Ok(JournalWriter {
            sender: Some(sender),
            thread: Some(thread),
        })
    }
}

/// The journal files as the writer thread holds them.
struct JournalFiles {
    dir: PathBuf,
    jsonl: File,
    csv: File,
}

impl JournalFiles {
    fn sync(&self) -> anyhow::Result<()> {
        for (file, name) in [(&self.jsonl, GAMES_JSONL), (&self.csv, GAMES_CSV)] {
            file.sync_data()
                .with_context(|| format!("syncing {}", self.dir.join(name).display()))?;
        }
        Ok(())
    }
}

/// The writer thread's loop: appends what comes, syncs when the interval
/// since the last sync has passed and something is unsynced, and once more
/// when the channel closes.
async fn write_entries(
    mut files: JournalFiles,
    mut receiver: tokio::sync::mpsc::Receiver<JournalEntry>,
    interval: Duration,
    done: &tokio::sync::mpsc::UnboundedSender<anyhow::Result<u64>>,
) -> anyhow::Result<()> {
    let mut last_sync = std::time::Instant::now();
    let mut unsynced = false;
    let mut batch = Vec::new();
    loop {
        let next = if unsynced {
            let due = tokio::time::Instant::from_std(last_sync + interval);
            match tokio::time::timeout_at(due, receiver.recv()).await {
                Ok(next) => next,
                Err(_elapsed) => {
                    files.sync()?;
                    (last_sync, unsynced) = (std::time::Instant::now(), false);
                    continue;
                }
            }
        } else {
            receiver.recv().await
        };
        let Some(entry) = next else { break };
        // Games that ended while the last batch was written go together.
        batch.push(entry);
        while let Ok(more) = receiver.try_recv() {
            batch.push(more);
        }
        write_batch(&files.dir, &mut files.jsonl, &mut files.csv, &batch)?;
        unsynced = true;
        if last_sync.elapsed() >= interval {
            files.sync()?;
            (last_sync, unsynced) = (std::time::Instant::now(), false);
        }
        for entry in batch.drain(..) {
            let _ = done.send(Ok(entry.id));
        }
    }
    if unsynced {
        files.sync()?;
    }
    Ok(())
}

/// A finished game encoded for the journal: its `games.jsonl` line (the
/// record, serialized once) and its `games.csv` line (the record's row).
#[derive(Debug, Clone)]
pub struct JournalEntry {
    pub id: u64,
    jsonl: Vec<u8>,
    csv: String,
}

impl JournalEntry {
    /// The lines of `record`, which must have its place in the schedule
    /// ([`GameRecord::set_place`]).
    pub fn encode(record: &GameRecord) -> anyhow::Result<JournalEntry> {
        let id = record.id.ok_or_else(|| {
            anyhow!("a game record for the journal needs its place in the schedule")
        })?;
        let mut jsonl = Vec::with_capacity(1024);
        serde_json::to_writer(&mut jsonl, record).context("serializing a game record")?;
        jsonl.push(b'\n');
        Ok(JournalEntry {
            id,
            jsonl,
            csv: format_row(&record.to_games_row())?,
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

/// Appends the records of `batch` to `games.jsonl`, then their rows to
/// `games.csv`, each in one write: a kill leaves each game in neither file,
/// in `games.jsonl` only (replayed on resume) or in both. (Which of two
/// unsynced files a machine crash keeps is up to the disk; [`Journal::recover`]
/// replays a game found in either one alone.)
fn write_batch(
    dir: &Path,
    jsonl: &mut File,
    csv: &mut File,
    batch: &[JournalEntry],
) -> anyhow::Result<()> {
    let records: Vec<u8> = batch.iter().flat_map(|e| e.jsonl.iter().copied()).collect();
    jsonl
        .write_all(&records)
        .with_context(|| format!("writing {}", dir.join(GAMES_JSONL).display()))?;
    let rows: String = batch.iter().map(|e| e.csv.as_str()).collect();
    csv.write_all(rows.as_bytes())
        .with_context(|| format!("writing {}", dir.join(GAMES_CSV).display()))?;
    Ok(())
}

/// The `"id"` of a `games.jsonl` line, reading past the rest of the
/// record without keeping it.
pub(crate) fn record_id(line: &[u8]) -> anyhow::Result<u64> {
    #[derive(Deserialize)]
    struct Id {
        id: Option<Value>,
    }
    let record: Id = serde_json::from_slice(line).map_err(|e| anyhow!("not a JSON object: {e}"))?;
    record
        .id
        .as_ref()
        .and_then(Value::as_u64)
        .ok_or_else(|| anyhow!("the record has no numeric \"id\""))
}

/// What [`scan_lines`] saw in a file.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Scan {
    /// Complete lines that are not blank.
    lines: u64,
    /// The file ended in an unterminated line (dropped).
    torn: bool,
}

/// Calls `visit` with each complete, non-blank line of the file at `path`
/// (a missing file is empty) and its 1-based number, reading one line at a
/// time.
fn scan_lines(
    path: &Path,
    repairs: &mut Vec<String>,
    visit: impl FnMut(usize, &[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<Scan> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    match File::open(path) {
        Ok(file) => for_each_line(BufReader::new(file), &name, repairs, visit)
            .with_context(|| format!("cannot read {}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Scan::default()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Complete lines with their 1-based numbers; `\r\n` ends a line too and
/// blank lines are skipped. An unterminated last line is what a crash
/// mid-write leaves: it is dropped and reported in `repairs`.
fn for_each_line(
    mut reader: impl BufRead,
    name: &str,
    repairs: &mut Vec<String>,
    mut visit: impl FnMut(usize, &[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<Scan> {
    let mut scan = Scan::default();
    let mut buffer = Vec::new();
    let mut number = 0;
    loop {
        buffer.clear();
        if reader.read_until(b'\n', &mut buffer)? == 0 {
            return Ok(scan);
        }
        number += 1;
        let Some(line) = buffer.strip_suffix(b"\n") else {
            repairs.push(format!(
                "{name}: dropped an unfinished last line {number} ({} bytes, cut off by a crash)",
                buffer.len()
            ));
            scan.torn = true;
            return Ok(scan);
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().all(u8::is_ascii_whitespace) {
            scan.lines += 1;
            visit(number, line)?;
        }
    }
}

/// Rewrites the file at `path` atomically as `head` followed by the lines
/// `keep` accepts (streamed, as [`for_each_line`] reads them), each with
/// `suffix` appended.
fn rewrite_lines(
    path: &Path,
    head: &[u8],
    suffix: &[u8],
    mut keep: impl FnMut(&[u8]) -> anyhow::Result<bool>,
) -> anyhow::Result<()> {
    write_atomically_with(path, |out| {
        out.write_all(head)?;
        let file = match File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        for_each_line(BufReader::new(file), "", &mut Vec::new(), |_, line| {
            if keep(line)? {
                out.write_all(line)?;
                out.write_all(suffix)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        })?;
        Ok(())
    })
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
            ended_utc: String::new(),
            white_tc: String::new(),
            black_tc: String::new(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::record::record_with_result;

    fn record(id: u64) -> GameRecord {
        record_with_result(id, id / 2, "a", "b", GameResult::WhiteWins)
    }

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
            ended_utc: String::new(),
            white_tc: String::new(),
            black_tc: String::new(),
        }
    }

    /// Lines are in the files as soon as the writer reports them, long
    /// before a sync is due (a kill of arena keeps them), and closing the
    /// writer does not wait for the interval.
    #[tokio::test]
    async fn the_writer_appends_at_once_and_syncs_by_time() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::create(dir.path()).unwrap();
        let (done_sender, mut done) = tokio::sync::mpsc::unbounded_channel();
        let mut writer = journal
            .start_writer(2, Duration::from_secs(60), done_sender)
            .unwrap();
        for id in 0..3 {
            writer
                .send(JournalEntry::encode(&record(id)).unwrap())
                .await
                .unwrap();
            assert_eq!(done.recv().await.unwrap().unwrap(), id);
            let csv = std::fs::read_to_string(dir.path().join(GAMES_CSV)).unwrap();
            let jsonl = std::fs::read_to_string(dir.path().join(GAMES_JSONL)).unwrap();
            assert_eq!(csv.lines().count() as u64, id + 2, "{csv}");
            assert_eq!(jsonl.lines().count() as u64, id + 1, "{jsonl}");
        }
        let closing = std::time::Instant::now();
        tokio::task::spawn_blocking(move || writer.close())
            .await
            .unwrap();
        assert!(closing.elapsed() < Duration::from_secs(30));
        assert!(done.try_recv().is_err(), "no error, nothing more");
        let (_, recovery) = Journal::recover(dir.path(), |_| Ok(())).unwrap();
        assert_eq!(recovery.finished.len(), 3);
        assert!(recovery.repairs.is_empty(), "{:?}", recovery.repairs);
    }

    #[test]
    fn header_lists_game_row_fields_in_order() {
        assert_eq!(
            csv_header(),
            "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms,ended_utc,white_tc,black_tc\n"
        );
    }

    #[test]
    fn rows_round_trip_through_one_line() {
        let line = format_row(&row(3)).unwrap();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(parse_row(line.trim_end().as_bytes()).unwrap(), row(3));
    }

    #[test]
    fn lines_are_read_whole_and_an_unterminated_tail_is_dropped() {
        let read = |bytes: &[u8], repairs: &mut Vec<String>| {
            let mut lines = Vec::new();
            let scan = for_each_line(bytes, "f", repairs, |n, line| {
                lines.push((n, line.to_vec()));
                Ok(())
            })
            .unwrap();
            (lines, scan)
        };
        let mut repairs = Vec::new();
        let (lines, scan) = read(b"a\n\nb\r\nc", &mut repairs);
        assert_eq!(lines, [(1, b"a".to_vec()), (3, b"b".to_vec())]);
        assert_eq!(
            scan,
            Scan {
                lines: 2,
                torn: true
            }
        );
        assert_eq!(repairs.len(), 1);
        assert!(repairs[0].contains("line 4"), "{repairs:?}");
        repairs.clear();
        let (lines, scan) = read(b"a\n", &mut repairs);
        assert_eq!((lines.len(), scan.torn), (1, false));
        assert!(repairs.is_empty());
    }

    /// An entry is the record serialized once, its place first, and the
    /// record's row; a record without a place has no place in the journal.
    #[test]
    fn entries_are_the_record_and_its_row() {
        let record = record(7);
        let entry = JournalEntry::encode(&record).unwrap();
        assert_eq!(entry.id, 7);
        let line = String::from_utf8(entry.jsonl).unwrap();
        assert!(
            line.starts_with(r#"{"id":7,"round":0,"pair":3,"game":"qango6","#),
            "{line}"
        );
        assert_eq!(line, serde_json::to_string(&record).unwrap() + "\n");
        assert_eq!(entry.csv, format_row(&record.to_games_row()).unwrap());
        let mut placeless = record;
        placeless.id = None;
        let err = JournalEntry::encode(&placeless).unwrap_err().to_string();
        assert!(err.contains("place in the schedule"), "{err}");
    }

    #[test]
    fn record_ids_need_a_json_object_with_a_numeric_id() {
        assert_eq!(record_id(br#"{"moves":["a1"],"id":7}"#).unwrap(), 7);
        let err = record_id(b"not json").unwrap_err().to_string();
        assert!(err.contains("not a JSON object"), "{err}");
        let err = record_id(br#"{"id":"7"}"#).unwrap_err().to_string();
        assert!(err.contains("numeric"), "{err}");
    }
}
