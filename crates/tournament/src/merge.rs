//! `arena merge`: the output directories of a tournament's shards joined
//! into one directory, as if one unsharded run had played every game.
//!
//! Checks, before anything is written: every directory holds a round robin
//! (or gauntlet), a Swiss or a knockout of the same tournament (same
//! identity, [`crate::TournamentConfig::identity`], and plan), all are
//! shards of one split (same N), and no shard is given twice. While
//! merging: every game belongs to its directory's shard, no game appears
//! twice, and which games are missing (per shard, as ranges).
//!
//! A Swiss's or knockout's games follow from results, so what is missing
//! is found from the merged games ([`crate::stage_shards`]): their format
//! computes every stage they complete; the games of those stages, and of
//! the stage after them once any of its games is merged, should be there.
//! The outcome says where the tournament stands: over, a stage complete
//! with the next to play, or games missing.
//!
//! What is merged is the shards' journals, their `games.jsonl`, alone: a
//! game counts if its record is there (as for `--resume`), and each
//! record's `games.csv` row is written from it as the record is written,
//! so the merged `games.csv` is derived from the merged journal like a
//! run's. An unfinished last line (a shard killed mid-write) is left out
//! and noted. The input directories are only read (not locked: a shard
//! still running merges as far as it got); the output directory is locked
//! ([`DirLock`]) for the whole merge and the rating after it.
//!
//! Order and memory: the merged files are in game id order. Shards write
//! games in finishing order, so each shard's journal is first checked in
//! one streaming pass; a file already in id order is streamed as it is,
//! any other is cut into sorted runs of at most `run_bytes` ([`RUN_BYTES`]
//! by default) in temporary files (an external merge sort; more than
//! [`FAN_IN`] runs of a file are first merged into longer runs). Then one
//! k-way merge over all shards' sorted streams writes both files. Memory is
//! bounded by the run size and, per shard, at most [`FAN_IN`] open runs (a
//! read buffer and one line each), whatever the number of games.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};

use super::format::Format;
use super::journal::{csv_header, format_row, parse_record, record_id, GAMES_CSV, GAMES_JSONL};
use super::lines::Lines;
use super::manifest::Manifest;
use super::registry::Formats;
use super::round_robin::{checked_plan, RoundRobinPlan};
use super::shard::Shard;
use super::stage_shards::{position, StagePosition};
use super::text::FormatTables;
use arena_files::DirLock;
use arena_referee::GameRow;

/// Default largest in-memory run of the external sort, in bytes of lines.
pub const RUN_BYTES: usize = 32 << 20;
/// Missing ranges listed per shard; the rest are only counted.
const LISTED_RANGES: usize = 20;
/// Most sorted runs of one file read at once: longer files have their runs
/// merged into longer runs first, so the descriptors and read buffers open
/// per file (and with them memory) do not grow with the number of games.
const FAN_IN: usize = 16;

/// What a merge found and wrote.
#[derive(Debug)]
pub struct MergeOutcome {
    pub dir: PathBuf,
    /// Games written.
    pub games: u64,
    /// Games of the schedule (of a Swiss or knockout: of its stages the
    /// merged games decide, the one to play next left out).
    pub total: u64,
    /// Of a Swiss or knockout: where it stands.
    pub stage: Option<StagePosition>,
    /// Of a Swiss or knockout: its tables after the merged games.
    pub tables: Option<FormatTables>,
    /// Shards with no directory given: (shard, its games).
    pub absent: Vec<(Shard, u64)>,
    /// Missing games of the shards that were given.
    pub missing: Vec<MissingGames>,
    /// Things left out that a crash explains (unfinished last lines), for
    /// the user.
    pub notes: Vec<String>,
    /// `dir`'s lock, held until this is dropped: the front end rates the
    /// merged games into `dir` under it.
    pub lock: DirLock,
}

impl MergeOutcome {
    pub fn missing_games(&self) -> u64 {
        let absent: u64 = self.absent.iter().map(|(_, games)| games).sum();
        absent + self.missing.iter().map(|m| m.games).sum::<u64>()
    }

    /// No game is missing (a Swiss or knockout may have stages to play).
    pub fn complete(&self) -> bool {
        self.missing_games() == 0
    }

    /// Every game of the tournament is merged: nothing is missing, and no
    /// stage is left to play.
    pub fn over(&self) -> bool {
        self.complete() && self.stage.as_ref().is_none_or(|s| s.over)
    }
}

/// The games one shard's directory lacks.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingGames {
    pub shard: Shard,
    pub dir: PathBuf,
    pub games: u64,
    /// The first [`LISTED_RANGES`] runs of consecutive missing games of the
    /// shard (its own games: ids of other shards in between are not
    /// missing), as (first id, last id).
    pub ranges: Vec<(u64, u64)>,
    /// Runs not listed.
    pub more_ranges: u64,
}

impl MissingGames {
    /// "4-7, 12, 20-23 and 3 more ranges".
    pub fn ranges_text(&self) -> String {
        let mut text = self
            .ranges
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        if self.more_ranges > 0 {
            text.push_str(&format!(" and {} more ranges", self.more_ranges));
        }
        text
    }

    fn add(&mut self, shard: Shard, from: u64, end: u64) {
        let Some(last) = shard.prev_game(end).filter(|&last| last >= from) else {
            return;
        };
        self.games += shard.games_of(end) - shard.games_of(from);
        if self.ranges.len() < LISTED_RANGES {
            self.ranges.push((from, last));
        } else {
            self.more_ranges += 1;
        }
    }
}

/// One input directory.
struct Input {
    dir: PathBuf,
    manifest: Manifest,
    shard: Shard,
}

/// What decides the tournament's games: a fixed schedule of `total`
/// games, or a format whose stages follow from the merged results.
enum Games {
    Schedule { total: u64 },
    Staged(Box<dyn Format>),
}

impl Games {
    /// The games of `manifest` (a shard's, in `dir`), made unsharded.
    fn of(manifest: &Manifest, dir: &Path) -> anyhow::Result<Games> {
        if manifest.plan.is::<RoundRobinPlan>() {
            checked_plan(manifest).with_context(|| Manifest::path(dir).display().to_string())?;
            let total = manifest
                .schedule()
                .expect("checked to be a round-robin")
                .len();
            return Ok(Games::Schedule { total });
        }
        let mut whole = manifest.clone();
        whole.config.shard = None;
        let mut format = Formats::builtin()
            .open(&whole)
            .with_context(|| Manifest::path(dir).display().to_string())?;
        if format.as_staged().is_none() {
            bail!(
                "{} holds a run of format = {:?}; only the shards of a round robin (or gauntlet), a swiss or a knockout can be merged",
                dir.display(),
                manifest.plan.kind()
            );
        }
        Ok(Games::Staged(format))
    }

    /// The end of the schedule, when it is known before the games are.
    fn bound(&self) -> Option<u64> {
        match self {
            Games::Schedule { total } => Some(*total),
            Games::Staged(_) => None,
        }
    }

    /// A merged game, for a format that follows the results.
    fn add(&mut self, row: &GameRow, manifest: &Manifest) -> anyhow::Result<()> {
        if let Games::Staged(format) = self {
            format.check_recorded(row, &manifest.config)?;
            format.recorded(row)?;
        }
        Ok(())
    }

    /// After every game is added: the end of the games that should be
    /// there, and for a staged format where it stands and its tables.
    /// Fails when a merged game lies beyond the stages the games decide.
    fn settle(
        &mut self,
        last: Option<u64>,
    ) -> anyhow::Result<(u64, Option<StagePosition>, Option<FormatTables>)> {
        let format = match self {
            Games::Schedule { total } => return Ok((*total, None, None)),
            Games::Staged(format) => format,
        };
        let staged = format.as_staged().expect("checked to be staged");
        let stage = position(staged).context("the merged games do not follow the plan")?;
        if let Some(id) = last.filter(|&id| id >= stage.end) {
            bail!(
                "game g{id} is beyond the rounds the merged games decide (they end at g{}): a shard played ahead of the merge",
                stage.end.saturating_sub(1)
            );
        }
        Ok((stage.expected_end(), Some(stage), format.report_tables()))
    }
}

/// Merges the shard directories `dirs` into `out`. `Err` when the
/// directories do not fit together (naming the directory) or a file is
/// unreadable; missing games are not an error, they are in the outcome.
pub fn merge(out: &Path, dirs: &[PathBuf], run_bytes: usize) -> anyhow::Result<MergeOutcome> {
    let inputs = read_inputs(dirs)?;
    // No arena may be writing `out` (a run, or a resume of an earlier
    // merge) while it is checked and replaced. Creating it first changes
    // nothing the check sees: it refuses only what existed.
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create output directory {}", out.display()))?;
    let lock = DirLock::acquire(out)?;
    check_out(out, &inputs)?;
    let first = &inputs[0].manifest;
    let mut plan = Games::of(first, &inputs[0].dir)?;
    let count = inputs[0].shard.count;

    let temp = TempDir::create(out)?;
    let mut notes: Vec<String> = lock.not_held().map(str::to_string).into_iter().collect();
    let sort = Sort {
        temp: &temp,
        run_bytes,
    };
    let streams = inputs
        .iter()
        .map(|input| SortedLines::open(&input.dir.join(GAMES_JSONL), &sort, &mut notes))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut files = MergedFiles {
        csv: temp.writer(GAMES_CSV)?,
        jsonl: temp.writer(GAMES_JSONL)?,
    };
    files.csv.write_all(csv_header().as_bytes())?;
    let merged = KWayMerge::new(streams, &mut notes)?;
    let mut written = write_games(&inputs, &mut plan, merged, &mut files, &mut notes)?;
    let (total, stage, tables) = plan.settle(written.last)?;
    let missing = written.missing_to(&inputs, total);
    temp.finish(files.csv, &out.join(GAMES_CSV))?;
    temp.finish(files.jsonl, &out.join(GAMES_JSONL))?;

    let mut manifest = first.clone();
    manifest.config.shard = None;
    manifest.config.out = out.to_path_buf();
    manifest.write(out)?;
    drop(temp);

    let given: Vec<u64> = inputs.iter().map(|i| i.shard.index).collect();
    let absent = (1..=count)
        .filter(|index| !given.contains(index))
        .map(|index| {
            let shard = Shard { index, count };
            (shard, shard.games_of(total))
        })
        .collect();
    // Standings, pairwise, model, crosstable and the report come from the
    // merged games.csv, rated by the front end as at the end of a run.
    Ok(MergeOutcome {
        dir: out.to_path_buf(),
        games: written.games,
        total,
        stage,
        tables,
        absent,
        missing,
        notes,
        lock,
    })
}

/// The merged files being written (in the temporary directory).
struct MergedFiles {
    csv: BufWriter<File>,
    jsonl: BufWriter<File>,
}

/// What [`write_games`] found: the games written, each input's missing
/// runs so far and its next expected id, and the last id.
struct Written {
    games: u64,
    missing: Vec<MissingGames>,
    expected: Vec<u64>,
    last: Option<u64>,
}

impl Written {
    /// Each input's missing games, its games up to `end` that are not
    /// there counted; the inputs that lack none left out.
    fn missing_to(&mut self, inputs: &[Input], end: u64) -> Vec<MissingGames> {
        let mut missing = std::mem::take(&mut self.missing);
        for (source, input) in inputs.iter().enumerate() {
            missing[source].add(input.shard, self.expected[source], end);
        }
        missing.retain(|m| m.games > 0);
        missing
    }
}

/// Writes the records `merged` yields (in id order, each tagged with its
/// input) to the journal, each followed by its row in `games.csv`, checking
/// that each game is of the tournament (within a schedule's bound) and its
/// input's shard and given once, and adding it to `games`.
fn write_games(
    inputs: &[Input],
    games: &mut Games,
    mut merged: KWayMerge<SortedLines>,
    files: &mut MergedFiles,
    notes: &mut Vec<String>,
) -> anyhow::Result<Written> {
    let missing: Vec<MissingGames> = inputs
        .iter()
        .map(|input| MissingGames {
            shard: input.shard,
            dir: input.dir.clone(),
            games: 0,
            ranges: Vec::new(),
            more_ranges: 0,
        })
        .collect();
    let expected: Vec<u64> = inputs.iter().map(|i| i.shard.next_game(0)).collect();
    let mut written = Written {
        games: 0,
        missing,
        expected,
        last: None,
    };
    let mut last_source: Option<usize> = None;
    while let Some((id, source, line)) = merged.next(notes)? {
        let input = &inputs[source];
        check_game(
            inputs,
            games.bound(),
            id,
            source,
            written.last.zip(last_source),
        )?;
        written.last = Some(id);
        last_source = Some(source);
        written.missing[source].add(input.shard, written.expected[source], id);
        written.expected[source] = input.shard.next_game(id + 1);
        let (_, row) = parse_record(&line)
            .with_context(|| format!("{}: game g{id}", input.dir.join(GAMES_JSONL).display()))?;
        games
            .add(&row, &input.manifest)
            .with_context(|| format!("{}: game g{id}", input.dir.join(GAMES_JSONL).display()))?;
        files.jsonl.write_all(&line)?;
        files.jsonl.write_all(b"\n")?;
        files.csv.write_all(format_row(&row)?.as_bytes())?;
        written.games += 1;
    }
    Ok(written)
}

/// Game `id` of input `source` is of the tournament (below `bound`, when
/// known), of the input's shard, and not the `previous` game again.
fn check_game(
    inputs: &[Input],
    bound: Option<u64>,
    id: u64,
    source: usize,
    previous: Option<(u64, usize)>,
) -> anyhow::Result<()> {
    let input = &inputs[source];
    if let Some(total) = bound.filter(|&total| id >= total) {
        bail!(
            "{}: game g{id} is not part of the tournament (it has {total} games)",
            input.dir.display()
        );
    }
    if !input.shard.contains_game(id) {
        bail!(
            "{}: holds game g{id}, which is not part of its shard {}",
            input.dir.display(),
            input.shard
        );
    }
    if let Some((_, other)) = previous.filter(|&(previous, _)| previous == id) {
        bail!(
            "game g{id} appears twice: in {} and in {}",
            inputs[other].dir.display(),
            input.dir.display()
        );
    }
    Ok(())
}

/// Reads every directory's `tournament.json` and checks that they are
/// shards of one tournament, each given once (its format is checked by
/// [`Games::of`]).
fn read_inputs(dirs: &[PathBuf]) -> anyhow::Result<Vec<Input>> {
    if dirs.is_empty() {
        bail!("no directories to merge");
    }
    let mut inputs: Vec<Input> = Vec::with_capacity(dirs.len());
    let mut shards: BTreeMap<u64, usize> = BTreeMap::new();
    for dir in dirs {
        let manifest = Manifest::read(dir)?;
        if manifest.identity.is_empty() {
            bail!(
                "{}: tournament.json has no tournament identity (written by an arena without sharding)",
                dir.display()
            );
        }
        let shard = manifest.shard();
        if let Some(first) = inputs.first() {
            if manifest.identity != first.manifest.identity || manifest.plan != first.manifest.plan
            {
                bail!(
                    "{} is from another tournament: identity {}, but {} has {} (settings, seed or plan differ)",
                    dir.display(),
                    manifest.identity,
                    first.dir.display(),
                    first.manifest.identity
                );
            }
            if shard.count != first.shard.count {
                bail!(
                    "{} is shard {shard} but {} is shard {}: merge the shards of one split",
                    dir.display(),
                    first.dir.display(),
                    first.shard
                );
            }
        }
        if let Some(&other) = shards.get(&shard.index) {
            bail!(
                "{} and {} both hold shard {shard}: their games would appear twice",
                inputs[other].dir.display(),
                dir.display()
            );
        }
        shards.insert(shard.index, inputs.len());
        inputs.push(Input {
            dir: dir.clone(),
            manifest,
            shard,
        });
    }
    Ok(inputs)
}

/// The output directory must not be an input, nor hold another tournament
/// or a shard (a previous merge of the same tournament is replaced).
fn check_out(out: &Path, inputs: &[Input]) -> anyhow::Result<()> {
    let canonical = |path: &Path| path.canonicalize().ok();
    if let Some(out_path) = canonical(out) {
        if let Some(input) = inputs
            .iter()
            .find(|i| canonical(&i.dir).as_ref() == Some(&out_path))
        {
            bail!(
                "the output directory {} is one of the inputs ({}); choose another",
                out.display(),
                input.dir.display()
            );
        }
    }
    if Manifest::path(out).exists() {
        let existing = Manifest::read(out)
            .with_context(|| format!("{} already holds something else", out.display()))?;
        if existing.identity != inputs[0].manifest.identity || existing.config.shard.is_some() {
            bail!(
                "{} already holds another tournament or a shard; choose another output directory",
                out.display()
            );
        }
    }
    Ok(())
}

/// A file's complete, non-blank lines, one at a time; an unterminated last
/// line (cut off by a kill) is left out and noted.
struct FileLines {
    lines: Lines<BufReader<File>>,
    path: PathBuf,
    /// The number of the line last returned.
    number: usize,
}

impl FileLines {
    fn open(path: &Path) -> anyhow::Result<FileLines> {
        let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(FileLines {
            lines: Lines::new(BufReader::with_capacity(1 << 16, file)),
            path: path.to_path_buf(),
            number: 0,
        })
    }

    fn next(&mut self, notes: &mut Vec<String>) -> anyhow::Result<Option<&[u8]>> {
        let torn_before = self.lines.torn().is_some();
        let next = self
            .lines
            .next_line()
            .with_context(|| format!("cannot read {}", self.path.display()))?
            .map(|(number, _)| number);
        if let Some(number) = next {
            self.number = number;
            return Ok(Some(self.lines.line()));
        }
        if let Some(torn) = self.lines.torn().filter(|_| !torn_before) {
            notes.push(format!(
                "{}:{}: left out an unfinished last line (cut off by a kill)",
                self.path.display(),
                torn.line
            ));
        }
        Ok(None)
    }
}

/// Where and in what pieces files out of order are sorted.
struct Sort<'a> {
    temp: &'a TempDir,
    run_bytes: usize,
}

/// A `games.jsonl`'s lines in id order (the file itself when it is in
/// order, else its sorted runs merged); an id twice is an error.
struct SortedLines {
    order: Order,
    path: PathBuf,
    last: Option<u64>,
}

enum Order {
    Direct(FileLines),
    Runs(KWayMerge<RunReader>),
}

impl SortedLines {
    /// Checks the file (every line a record with an id) and sorts it into
    /// runs unless it is in id order already.
    fn open(path: &Path, sort: &Sort, notes: &mut Vec<String>) -> anyhow::Result<SortedLines> {
        let mut lines = FileLines::open(path)?;
        let mut sorted = true;
        let mut previous = None;
        while let Some(line) = lines.next(notes)? {
            let id =
                record_id(line).with_context(|| format!("{}:{}", path.display(), lines.number))?;
            if previous.is_some_and(|p| p > id) {
                sorted = false;
            }
            previous = Some(id);
        }
        let mut lines = FileLines::open(path)?;
        let sorted_lines = |order| SortedLines {
            order,
            path: path.to_path_buf(),
            last: None,
        };
        if sorted {
            return Ok(sorted_lines(Order::Direct(lines)));
        }
        let mut quiet = Vec::new();
        let mut runs = Vec::new();
        let mut batch: Vec<(u64, Vec<u8>)> = Vec::new();
        let mut bytes = 0;
        loop {
            let line = lines.next(&mut quiet)?;
            let full = bytes >= sort.run_bytes;
            if (line.is_none() || full) && !batch.is_empty() {
                runs.push(sort.temp.write_run(&mut batch)?);
                bytes = 0;
            }
            let Some(line) = line else { break };
            bytes += line.len() + 16;
            batch.push((record_id(line)?, line.to_vec()));
        }
        let runs = sort.temp.reduce_runs(runs)?;
        Ok(sorted_lines(Order::Runs(KWayMerge::new(runs, &mut quiet)?)))
    }
}

/// Something that yields `(id, item)` in id order.
trait Sorted {
    type Item;
    fn next(&mut self, notes: &mut Vec<String>) -> anyhow::Result<Option<(u64, Self::Item)>>;
}

impl Sorted for SortedLines {
    type Item = Vec<u8>;

    fn next(&mut self, notes: &mut Vec<String>) -> anyhow::Result<Option<(u64, Vec<u8>)>> {
        // Notes about the file were made when it was checked.
        let _ = notes;
        let next = match &mut self.order {
            Order::Direct(lines) => match lines.next(&mut Vec::new())? {
                Some(line) => Some((record_id(line)?, line.to_vec())),
                None => None,
            },
            Order::Runs(merge) => merge.next(&mut Vec::new())?.map(|(id, _, line)| (id, line)),
        };
        if let Some((id, _)) = &next {
            if self.last == Some(*id) {
                bail!("{}: game g{id} appears twice", self.path.display());
            }
            self.last = Some(*id);
        }
        Ok(next)
    }
}

/// A k-way merge by id over sorted streams; ties come out in stream order.
/// Yields `(id, stream index, item)`.
struct KWayMerge<S: Sorted> {
    streams: Vec<S>,
    heads: Vec<Option<S::Item>>,
    heap: BinaryHeap<Reverse<(u64, usize)>>,
}

impl<S: Sorted> KWayMerge<S> {
    fn new(mut streams: Vec<S>, notes: &mut Vec<String>) -> anyhow::Result<KWayMerge<S>> {
        let mut heads = Vec::with_capacity(streams.len());
        let mut heap = BinaryHeap::with_capacity(streams.len());
        for (index, stream) in streams.iter_mut().enumerate() {
            match stream.next(notes)? {
                Some((id, item)) => {
                    heap.push(Reverse((id, index)));
                    heads.push(Some(item));
                }
                None => heads.push(None),
            }
        }
        Ok(KWayMerge {
            streams,
            heads,
            heap,
        })
    }

    fn next(&mut self, notes: &mut Vec<String>) -> anyhow::Result<Option<(u64, usize, S::Item)>> {
        let Some(Reverse((id, index))) = self.heap.pop() else {
            return Ok(None);
        };
        let item = self.heads[index]
            .take()
            .expect("a head for every heap entry");
        if let Some((next_id, next)) = self.streams[index].next(notes)? {
            self.heap.push(Reverse((next_id, index)));
            self.heads[index] = Some(next);
        }
        Ok(Some((id, index, item)))
    }
}

/// A sorted run written by [`TempDir::write_run`]: lines `ID<TAB>LINE`.
struct RunReader {
    lines: FileLines,
}

impl Sorted for RunReader {
    type Item = Vec<u8>;

    fn next(&mut self, notes: &mut Vec<String>) -> anyhow::Result<Option<(u64, Vec<u8>)>> {
        let Some(line) = self.lines.next(notes)? else {
            return Ok(None);
        };
        let tab = line
            .iter()
            .position(|&b| b == b'\t')
            .ok_or_else(|| anyhow!("a sorted run line without an id"))?;
        let id = std::str::from_utf8(&line[..tab])?.parse()?;
        Ok(Some((id, line[tab + 1..].to_vec())))
    }
}

/// `OUT/.merge-tmp`: sorted runs and the files being written; removed when
/// dropped, whatever happened.
struct TempDir {
    path: PathBuf,
    runs: std::cell::Cell<usize>,
}

impl TempDir {
    fn create(out: &Path) -> anyhow::Result<TempDir> {
        let path = out.join(".merge-tmp");
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(TempDir {
            path,
            runs: std::cell::Cell::new(0),
        })
    }

    /// Sorts `batch` by id (stable) and writes it as the next run; empties it.
    fn write_run(&self, batch: &mut Vec<(u64, Vec<u8>)>) -> anyhow::Result<RunReader> {
        batch.sort_by_key(|(id, _)| *id);
        self.run_from(batch.drain(..).map(Ok))
    }

    /// Writes `(id, line)`s, in id order, as the next run.
    fn run_from(
        &self,
        lines: impl Iterator<Item = anyhow::Result<(u64, Vec<u8>)>>,
    ) -> anyhow::Result<RunReader> {
        let number = self.runs.get();
        self.runs.set(number + 1);
        let path = self.path.join(format!("run-{number}"));
        let mut out = BufWriter::new(
            File::create(&path).with_context(|| format!("cannot write {}", path.display()))?,
        );
        for line in lines {
            let (id, line) = line?;
            write!(out, "{id}\t")?;
            out.write_all(&line)?;
            out.write_all(b"\n")?;
        }
        out.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(RunReader {
            lines: FileLines::open(&path)?,
        })
    }

    /// Merges `runs` [`FAN_IN`] at a time (in order, so equal ids keep
    /// their order) into longer runs until at most [`FAN_IN`] are left;
    /// merged runs are deleted.
    fn reduce_runs(&self, mut runs: Vec<RunReader>) -> anyhow::Result<Vec<RunReader>> {
        while runs.len() > FAN_IN {
            let mut longer = Vec::with_capacity(runs.len().div_ceil(FAN_IN));
            let mut rest = runs.into_iter().peekable();
            while rest.peek().is_some() {
                let group: Vec<RunReader> = rest.by_ref().take(FAN_IN).collect();
                let paths: Vec<PathBuf> = group.iter().map(|r| r.lines.path.clone()).collect();
                let mut merge = KWayMerge::new(group, &mut Vec::new())?;
                let lines = std::iter::from_fn(|| {
                    merge
                        .next(&mut Vec::new())
                        .map(|next| next.map(|(id, _, line)| (id, line)))
                        .transpose()
                });
                longer.push(self.run_from(lines)?);
                drop(merge);
                for path in paths {
                    let _ = std::fs::remove_file(path);
                }
            }
            runs = longer;
        }
        Ok(runs)
    }

    fn writer(&self, name: &str) -> anyhow::Result<BufWriter<File>> {
        let path = self.path.join(name);
        Ok(BufWriter::with_capacity(
            1 << 16,
            File::create(&path).with_context(|| format!("cannot write {}", path.display()))?,
        ))
    }

    /// Syncs a file from [`TempDir::writer`] and moves it to `target`.
    fn finish(&self, writer: BufWriter<File>, target: &Path) -> anyhow::Result<()> {
        let name = target.file_name().unwrap_or_default();
        let file = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write {}", target.display()))?;
        file.sync_all()
            .with_context(|| format!("cannot write {}", target.display()))?;
        std::fs::rename(self.path.join(name), target)
            .with_context(|| format!("cannot write {}", target.display()))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_runs_are_merged_down_to_the_fan_in_in_id_order() {
        let dir = tempfile::tempdir().unwrap();
        let temp = TempDir::create(dir.path()).unwrap();
        // 100 runs of 3 lines: run r holds ids r, r + 100 and r + 200.
        let runs: Vec<RunReader> = (0..100u64)
            .map(|r| {
                let mut batch: Vec<(u64, Vec<u8>)> = [r + 200, r, r + 100]
                    .iter()
                    .map(|&id| (id, format!("line {id}").into_bytes()))
                    .collect();
                temp.write_run(&mut batch).unwrap()
            })
            .collect();
        let runs = temp.reduce_runs(runs).unwrap();
        assert!(runs.len() <= FAN_IN, "{} runs left", runs.len());
        let files = std::fs::read_dir(&temp.path).unwrap().count();
        assert_eq!(files, runs.len(), "merged runs are deleted");
        let mut merge = KWayMerge::new(runs, &mut Vec::new()).unwrap();
        let mut lines = Vec::new();
        while let Some((id, _, line)) = merge.next(&mut Vec::new()).unwrap() {
            assert_eq!(line, format!("line {id}").into_bytes());
            lines.push(id);
        }
        assert_eq!(lines, (0..300).collect::<Vec<_>>());
    }

    #[test]
    fn missing_ranges_follow_the_shards_own_games() {
        let shard = Shard { index: 2, count: 3 };
        let mut missing = MissingGames {
            shard,
            dir: PathBuf::new(),
            games: 0,
            ranges: Vec::new(),
            more_ranges: 0,
        };
        // Shard 2/3 has pairs 1, 4, 7: games 2-3, 8-9, 14-15.
        missing.add(shard, 2, 14);
        assert_eq!((missing.games, missing.ranges.clone()), (4, vec![(2, 9)]));
        missing.add(shard, 15, 16);
        assert_eq!(missing.ranges_text(), "2-9, 15");
        missing.add(shard, 16, 20);
        assert_eq!(missing.games, 5, "no shard game in 16..20");
    }
}
