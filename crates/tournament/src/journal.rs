//! The journal of finished games: `games.jsonl`, one [`GameRecord`] a line
//! (each accepted by `arena judge`), appended as each game ends and synced
//! to disk at most every `sync_interval_ms` (see [`Journal::start_writer`]).
//! It is the one authoritative account of the games played. `games.csv`
//! (one [`GameRow`] a line) is derived from it: each game's row is written
//! from the same record, right after the record, and [`Journal::recover`]
//! rebuilds the file from the journal whenever it is anything else.
//!
//! A game counts as finished if and only if its record is in `games.jsonl`.
//! A kill or crash at any moment leaves at most a torn (unterminated) last
//! line there, and a `games.csv` that lacks the last rows or, after a
//! machine crash, holds rows whose records were lost. [`Journal::recover`]
//! drops the torn line and repeated games, rebuilds `games.csv` when it is
//! not what the records give, and hands back the finished games so the
//! runner replays only the rest. A journal line that is no game record is
//! not crash damage, so it is an error naming the file and line rather than
//! something silently thrown away.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use serde::Deserialize;

use arena_files::{write_atomically, write_atomically_with};

use super::game_set::GameSet;
use super::lines::{Lines, Torn};
use arena_referee::game_id::{game_id, number_of, parse_game_id};
use arena_referee::record::NO_PLACE;
use arena_referee::{GameRecord, GameRow};
use arena_rules::games::{GameResult, RuleReason};

pub use super::output_files::{GAMES_CSV, GAMES_JSONL, LOGS_DIR};

/// Games a repair note lists by id; the rest are counted.
const LISTED_GAMES: usize = 10;

/// What [`Journal::recover`] found.
#[derive(Debug, Default)]
pub struct Recovery {
    /// Ids of the finished games (those in `games.jsonl`). The games
    /// themselves stay on disk, to be streamed by whoever needs them.
    pub finished: GameSet,
    /// One line per repair, for the user: a torn line, a repeated game, a
    /// rebuilt `games.csv` and why.
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
    /// appending. `check` vets each record's row against the plan (known
    /// game id, right bots and opening); a record it rejects is an error
    /// naming its line.
    ///
    /// `games.jsonl` is streamed a line at a time, and `games.csv` along
    /// with it to see whether it is exactly the rows the kept records give
    /// (finished games are kept as a bitset, nothing else per game). The
    /// journal is rewritten (atomically) only to drop a torn last line or
    /// repeated games; `games.csv` is rebuilt from the journal, in a second
    /// streaming pass, only when it is anything else than the records' rows
    /// (missing, with an older arena's columns, cut short, holding rows of
    /// games without a record, which are then replayed, or edited). That is
    /// a repair, reported, never an error: the file is derived.
    pub fn recover(
        dir: &Path,
        check: impl Fn(&GameRow) -> anyhow::Result<()>,
    ) -> anyhow::Result<(Journal, Recovery)> {
        let csv_path = dir.join(GAMES_CSV);
        let jsonl_path = dir.join(GAMES_JSONL);
        let mut csv = CsvCheck::open(&csv_path)?;
        let scan = read_journal(&jsonl_path, &check, |id, row| csv.compare(id, row))?;
        let rebuild = csv.finish(&scan.finished)?;
        let mut repairs = scan.repairs();
        if scan.torn.is_some() || !scan.repeated.is_empty() {
            rewrite_journal(&jsonl_path, &scan.repeated)?;
        }
        if let Some(why) = rebuild {
            write_atomically_with(&csv_path, |out| {
                out.write_all(csv_header().as_bytes())?;
                read_journal(&jsonl_path, &check, |_, row| Ok(out.write_all(row)?))?;
                Ok(())
            })?;
            repairs.push(format!(
                "{GAMES_CSV} rebuilt from {GAMES_JSONL}, the journal it is derived from: {why}"
            ));
        }
        let journal = Journal::open(dir)?;
        let finished = scan.finished;
        Ok((journal, Recovery { finished, repairs }))
    }

    /// Records a finished game, which must have its place in the schedule:
    /// its record in `games.jsonl`, then its row in `games.csv`, each
    /// written in one piece and synced to disk.
    pub fn append(&mut self, record: &GameRecord) -> anyhow::Result<()> {
        let entry = JournalEntry::encode(record)?;
        write_batch(&self.dir, &mut self.jsonl, &mut self.csv, &[entry])?;
        self.sync()
    }

    /// Records finished games (each with its place) in one write to each
    /// file, not synced (see [`Journal::sync`]): for many games at once (a
    /// league's import), where a sync per game would cost more than the
    /// writes.
    pub fn append_all(&mut self, records: &[GameRecord]) -> anyhow::Result<()> {
        let entries = records
            .iter()
            .map(JournalEntry::encode)
            .collect::<anyhow::Result<Vec<_>>>()?;
        write_batch(&self.dir, &mut self.jsonl, &mut self.csv, &entries)
    }

    /// Syncs both files to disk.
    pub fn sync(&self) -> anyhow::Result<()> {
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
        let id = record.number().ok_or_else(|| {
            anyhow!(
                "a game record for the journal needs its place in the schedule (game_id {:?} is not gN)",
                record.game_id
            )
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
/// in `games.jsonl` only (finished: [`Journal::recover`] writes its row) or
/// in both. (Which of two unsynced files a machine crash keeps is up to the
/// disk; a row whose record was lost is dropped on recovery and its game
/// replayed.)
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

/// The game number of a `games.jsonl` line (of its `game_id` `gN`, or an
/// older journal's `"id"`), reading past the rest of the record without
/// keeping it (for [`super::merge`], which orders lines by it before it
/// reads the records).
pub(crate) fn record_id(line: &[u8]) -> anyhow::Result<u64> {
    #[derive(Deserialize)]
    struct Id<'a> {
        #[serde(default, borrow)]
        game_id: Option<std::borrow::Cow<'a, str>>,
        #[serde(default)]
        id: Option<u64>,
    }
    let record: Id = serde_json::from_slice(line).map_err(|e| anyhow!("not a game record: {e}"))?;
    record
        .game_id
        .as_deref()
        .and_then(parse_game_id)
        .or(record.id)
        .ok_or_else(|| anyhow!(NO_PLACE))
}

/// The place (`id`) and `games.csv` row of the record on a journal line,
/// read without the rest of the record.
pub(crate) fn parse_record(line: &[u8]) -> anyhow::Result<(u64, GameRow)> {
    arena_referee::record::row_of_record_line(line).map_err(|e| anyhow!(e))
}

/// What [`read_journal`] found in `games.jsonl`.
#[derive(Debug, Default)]
struct JournalScan {
    /// The games with a record.
    finished: GameSet,
    /// Lines that repeat an earlier line's game, in order: (line, game).
    repeated: Vec<(usize, u64)>,
    /// The unterminated last line, cut off by a crash.
    torn: Option<Torn>,
}

impl JournalScan {
    /// What is wrong with `games.jsonl`, for [`Recovery::repairs`].
    fn repairs(&self) -> Vec<String> {
        let torn = self.torn.map(|torn| {
            format!(
                "{GAMES_JSONL}: dropped an unfinished last line {} ({} bytes, cut off by a crash)",
                torn.line, torn.bytes
            )
        });
        let repeated = self.repeated.iter().map(|(line, id)| {
            format!(
                "{GAMES_JSONL}: line {line} repeats game {}; kept the first",
                game_id(*id)
            )
        });
        torn.into_iter().chain(repeated).collect()
    }
}

/// Streams the records of the `games.jsonl` at `path` (a missing file is
/// empty). Every complete line must be a game record with its place; the
/// first record of each game is kept: its row is vetted by `check` and then
/// given to `row`, with the game's id, as its `games.csv` line.
fn read_journal(
    path: &Path,
    check: &dyn Fn(&GameRow) -> anyhow::Result<()>,
    mut row: impl FnMut(u64, &[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<JournalScan> {
    let mut scan = JournalScan::default();
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(scan),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut lines = Lines::new(BufReader::new(file));
    while let Some((number, line)) = lines
        .next_line()
        .with_context(|| format!("cannot read {}", path.display()))?
    {
        let at = || format!("{}:{number}", path.display());
        let (id, game_row) = parse_record(line).with_context(at)?;
        // Vetted before its id goes into the bitset, which only ids of the
        // plan may grow.
        check(&game_row).with_context(at)?;
        if !scan.finished.insert(id) {
            scan.repeated.push((number, id));
            continue;
        }
        row(id, format_row(&game_row)?.as_bytes())?;
    }
    scan.torn = lines.torn();
    Ok(scan)
}

/// Rewrites the `games.jsonl` at `path` atomically without its torn last
/// line and the lines `repeated` (in order) names, streaming it.
fn rewrite_journal(path: &Path, repeated: &[(usize, u64)]) -> anyhow::Result<()> {
    write_atomically_with(path, |out| {
        let mut lines = Lines::new(BufReader::new(File::open(path)?));
        let mut skip = repeated.iter().map(|&(line, _)| line).peekable();
        while let Some((number, line)) = lines.next_line()? {
            if skip.next_if_eq(&number).is_none() {
                out.write_all(line)?;
                out.write_all(b"\n")?;
            }
        }
        Ok(())
    })
}

/// `games.csv` read along with the journal, to tell whether it already is
/// exactly the header and then the kept records' rows in their order (it
/// is then left as it is) and, if not, why, for the repair note. Holds a
/// line at a time and a few numbers.
struct CsvCheck {
    /// `None` when there is no file.
    reader: Option<BufReader<File>>,
    path: PathBuf,
    line: Vec<u8>,
    number: usize,
    /// What is wrong with the header line, if anything.
    header: Option<String>,
    /// The first line that is not the row the records give for its place:
    /// (line, the game whose row belongs there).
    differs: Option<(usize, u64)>,
    /// The number of an unterminated last line.
    torn: Option<usize>,
    /// Records after the file's last line.
    short: u64,
}

impl CsvCheck {
    fn open(path: &Path) -> anyhow::Result<CsvCheck> {
        let mut check = CsvCheck {
            reader: None,
            path: path.to_path_buf(),
            line: Vec::new(),
            number: 0,
            header: None,
            differs: None,
            torn: None,
            short: 0,
        };
        match File::open(path) {
            Ok(file) => check.reader = Some(BufReader::new(file)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                check.header = Some("it was missing".into());
                return Ok(check);
            }
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        }
        let header = csv_header();
        check.header = if !check.next()? {
            Some("it was empty".into())
        } else if check.line == header.as_bytes() {
            None
        } else {
            Some(header_problem(&check.line, header.trim_end()))
        };
        Ok(check)
    }

    /// Reads the file's next line into `line`, its `\n` included; `false`
    /// at the end.
    fn next(&mut self) -> anyhow::Result<bool> {
        let Some(reader) = &mut self.reader else {
            return Ok(false);
        };
        self.line.clear();
        let read = reader
            .read_until(b'\n', &mut self.line)
            .with_context(|| format!("cannot read {}", self.path.display()))?;
        if read == 0 {
            return Ok(false);
        }
        self.number += 1;
        if self.line.last() != Some(&b'\n') {
            self.torn = Some(self.number);
        }
        Ok(true)
    }

    /// The next line should be `row`, game `id`'s line.
    fn compare(&mut self, id: u64, row: &[u8]) -> anyhow::Result<()> {
        if self.reader.is_none() {
            return Ok(());
        }
        if !self.next()? {
            self.short += 1;
        } else if self.line != row && self.differs.is_none() {
            self.differs = Some((self.number, id));
        }
        Ok(())
    }

    /// After the journal's last record: `None` when the file is exactly
    /// what the records give, else why not, in words. `finished` are the
    /// games with a record.
    fn finish(mut self, finished: &GameSet) -> anyhow::Result<Option<String>> {
        // Rows after the last record's: of games without a record (their
        // records lost in a machine crash; the first few are listed), or
        // of games the journal has.
        let (mut lost, mut lost_count, mut more) = (Vec::new(), 0u64, 0u64);
        while self.next()? {
            if self.torn.is_some() {
                break;
            }
            let id = self
                .line
                .split(|&b| b == b',')
                .next()
                .and_then(|field| number_of(std::str::from_utf8(field).ok()?).ok());
            match id {
                Some(id) if !finished.contains(id) => {
                    if lost.len() < LISTED_GAMES {
                        lost.push(id);
                    }
                    lost_count += 1;
                }
                _ => more += 1,
            }
        }
        let mut why: Vec<String> = self.header.take().into_iter().collect();
        if let Some((line, id)) = self.differs {
            if why.is_empty() && self.torn.is_none_or(|torn| line < torn) {
                why.push(format!(
                    "line {line} was not the row that game g{id}'s record gives"
                ));
            }
        }
        if let Some(line) = self.torn {
            why.push(format!(
                "its last line {line} was unfinished (cut off by a crash)"
            ));
        }
        if self.short > 0 {
            why.push(format!(
                "it lacked the rows of the last {} of {GAMES_JSONL}",
                count(self.short, "game")
            ));
        }
        if !lost.is_empty() {
            why.push(format!(
                "{} without a record (lost in a crash) will be replayed",
                listed_games(&lost, lost_count)
            ));
        }
        if more > 0 {
            why.push(format!(
                "it had {} more than {GAMES_JSONL} has games",
                count(more, "row")
            ));
        }
        Ok((!why.is_empty()).then(|| why.join("; ")))
    }
}

/// Why `found`, the first line of a `games.csv`, is not the header
/// `current` (without its line end).
fn header_problem(found: &[u8], current: &str) -> String {
    let found = found.strip_suffix(b"\n").unwrap_or(found);
    let found = found.strip_suffix(b"\r").unwrap_or(found);
    // Before ids were spelled gN, the first column was `id`.
    let renamed = current
        .strip_prefix("game_id,")
        .filter(|_| found.starts_with(b"id,"));
    let then = renamed.map_or(current.to_string(), |rest| format!("id,{rest}"));
    let rename = renamed.map_or("", |_| "the column `id` is now `game_id`, spelled gN");
    let missing = std::str::from_utf8(found)
        .ok()
        .filter(|found| !found.is_empty())
        .and_then(|found| match then.strip_prefix(found)? {
            "" => Some(""),
            rest => rest.strip_prefix(','),
        });
    match missing {
        Some("") if renamed.is_some() => format!("its header was an older arena's ({rename})"),
        Some(missing) if !missing.is_empty() => {
            let sep = if rename.is_empty() { "" } else { "; " };
            format!("its header was an older arena's ({rename}{sep}now with the columns {missing})")
        }
        _ => format!(
            "its first line was not the header {current:?} but {:?}",
            String::from_utf8_lossy(found)
        ),
    }
}

/// "1 game", "2 games".
fn count(n: u64, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// `total` games, the first of them `ids`: "game g4", "games g4, g9 and
/// g12", "games g1, g2, g3 and 7 more".
fn listed_games(ids: &[u64], total: u64) -> String {
    let shown: Vec<String> = ids.iter().map(|&id| game_id(id)).collect();
    let more = total - ids.len() as u64;
    match shown.split_last() {
        Some((only, [])) if more == 0 => format!("game {only}"),
        Some((last, rest)) if more == 0 => format!("games {} and {last}", rest.join(", ")),
        _ => format!("games {} and {more} more", shown.join(", ")),
    }
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
            played: true,
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

/// A writer of one line: a small buffer (the default is 8 KiB, allocated
/// and zeroed for each row, for the runner's every game and the merge's and
/// recovery's every record); a longer row is flushed through it whole.
fn csv_writer(headers: bool) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .has_headers(headers)
        .terminator(csv::Terminator::Any(b'\n'))
        .buffer_capacity(256)
        .from_writer(Vec::with_capacity(256))
}

#[cfg(test)]
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
            played: true,
        }
    }

    fn record(id: u64) -> GameRecord {
        record_with_result(id, id / 2, "a", "b", GameResult::WhiteWins)
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
            "game_id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms,ended_utc,white_tc,black_tc,played\n"
        );
    }

    #[test]
    fn rows_round_trip_through_one_line() {
        let line = format_row(&row(3)).unwrap();
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(parse_row(line.trim_end().as_bytes()).unwrap(), row(3));
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
            line.starts_with(r#"{"game_id":"g7","round":0,"pair":3,"game":"qango6","#),
            "{line}"
        );
        assert_eq!(line, serde_json::to_string(&record).unwrap() + "\n");
        assert_eq!(entry.csv, format_row(&record.to_games_row()).unwrap());
        assert!(entry.csv.starts_with("g7,0,3,qango6,"), "{}", entry.csv);
        let mut placeless = record;
        placeless.game_id = "play".into();
        let err = JournalEntry::encode(&placeless).unwrap_err().to_string();
        assert!(err.contains("place in the schedule"), "{err}");
    }

    #[test]
    fn journal_lines_need_a_game_record_with_an_id() {
        let line = serde_json::to_vec(&record(7)).unwrap();
        assert_eq!(record_id(&line).unwrap(), 7);
        assert_eq!(parse_record(&line).unwrap(), (7, record(7).to_games_row()));
        let err = record_id(b"not json").unwrap_err().to_string();
        assert!(err.contains("not a game record"), "{err}");
        let err = record_id(br#"{"id":"7"}"#).unwrap_err().to_string();
        assert!(err.contains("not a game record"), "{err}");
        // An older journal's line: the number also (or only) as "id".
        assert_eq!(record_id(br#"{"id":7,"game_id":"g7"}"#).unwrap(), 7);
        assert_eq!(record_id(br#"{"id":7}"#).unwrap(), 7);
        let mut placeless = record(7);
        placeless.game_id = "play".into();
        let line = serde_json::to_vec(&placeless).unwrap();
        for err in [
            record_id(&line).unwrap_err(),
            parse_record(&line).unwrap_err(),
        ] {
            assert_eq!(err.to_string(), NO_PLACE);
        }
        let err = parse_record(br#"{"game_id":"g7","game":"qango6"}"#).unwrap_err();
        assert!(err.to_string().contains("not a game record"), "{err}");
    }

    #[test]
    fn a_header_is_named_for_what_is_wrong_with_it() {
        let current = "game_id,round,pair,ended_utc,white_tc";
        assert_eq!(
            header_problem(b"game_id,round,pair\r\n", current),
            "its header was an older arena's (now with the columns ended_utc,white_tc)"
        );
        assert_eq!(
            header_problem(b"id,round,pair,ended_utc,white_tc\n", current),
            "its header was an older arena's (the column `id` is now `game_id`, spelled gN)"
        );
        assert_eq!(
            header_problem(b"id,round,pair\n", current),
            "its header was an older arena's (the column `id` is now `game_id`, spelled gN; \
             now with the columns ended_utc,white_tc)"
        );
        for found in [&b"game_id,round,pa\n"[..], b"\n", b"0,0,0,qango6"] {
            let problem = header_problem(found, current);
            assert!(
                problem.starts_with("its first line was not the header"),
                "{problem}"
            );
        }
    }

    #[test]
    fn games_are_listed_then_counted() {
        assert_eq!(listed_games(&[4], 1), "game g4");
        assert_eq!(listed_games(&[4, 9, 12], 3), "games g4, g9 and g12");
        assert_eq!(listed_games(&[1, 2, 3], 10), "games g1, g2, g3 and 7 more");
        assert_eq!(
            (count(1, "row"), count(2, "row")),
            ("1 row".into(), "2 rows".into())
        );
    }
}
