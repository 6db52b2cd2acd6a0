//! Importing finished runs into a league (`arena league import`): each
//! bot of a run is matched to a version by its name and its program
//! identity (`tournament.json`'s `programs`), or becomes its name's next
//! version; each game of the run the league does not have yet is appended
//! to the league's journal with the next league id, its seats renamed
//! `NAME@N`, its pair moved past the league's pairs and its log files
//! copied into the league's `logs/`; everything else as recorded.
//! [`super::imports`] says which games of a run the league has, and how an
//! import a crash cut short is finished without losing or repeating a game.

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};

use super::imports::{Begin, Done, Event, IdRanges, Imports};
use super::registry::Registry;
use super::League;
use crate::game_set::GameSet;
use crate::identity::{program_identity, recorded_program};
use crate::journal::{Journal, GAMES_JSONL, LOGS_DIR};
use crate::lines::Lines;
use crate::manifest::Manifest;
use arena_referee::GameRecord;

/// Games appended in one write.
const BATCH: usize = 512;

/// What importing one run did.
#[derive(Debug, Default)]
pub struct RunImport {
    /// For the user, in order: one line per bot, then what came of the
    /// games.
    pub lines: Vec<String>,
    /// Games appended now.
    pub imported: u64,
}

/// A league open for importing: its lock held, its journal recovered.
pub struct Importer<'a> {
    league: &'a League,
    registry: Registry,
    journal: Journal,
    imports: Imports,
    next_id: u64,
    next_pair: u64,
    /// The journal's repairs, for the user.
    pub repairs: Vec<String>,
}

/// The games of a run's journal: their ids (the first record of each) and
/// their largest pair.
struct Source {
    ids: GameSet,
    max_pair: u64,
}

impl<'a> Importer<'a> {
    /// Opens `league` (whose lock the caller holds) for importing.
    pub fn open(league: &'a League) -> anyhow::Result<Importer<'a>> {
        let (max_id, max_pair) = (Cell::new(None::<u64>), Cell::new(None::<u64>));
        let (journal, recovery) = Journal::recover(league.dir(), |row| {
            max_id.set(max_id.get().max(Some(row.id)));
            max_pair.set(max_pair.get().max(Some(row.pair)));
            Ok(())
        })?;
        let next_id = max_id.get().map_or(0, |id| id + 1);
        Ok(Importer {
            registry: league.registry()?,
            imports: Imports::read(&league.imports_path())?,
            journal,
            next_id,
            // Past the league's pairs, and past the pairs `league play`
            // numbers by ids (pair p: games 2p and 2p + 1).
            next_pair: max_pair.get().map_or(0, |p| p + 1).max(next_id.div_ceil(2)),
            repairs: recovery.repairs,
            league,
        })
    }

    /// Imports the games of the run in `run` that the league lacks.
    pub fn import(&mut self, run: &Path) -> anyhow::Result<RunImport> {
        let manifest = Manifest::read(run)?;
        let identity = match manifest.identity.as_str() {
            "" => manifest.config.identity()?,
            recorded => recorded.to_string(),
        };
        let source = scan(run)?;
        let mut report = RunImport::default();
        let bots = self.versions_of_bots(&manifest, &mut report.lines)?;
        let mut waiting = GameSet::new();
        let mut pair_offset = self.next_pair;
        for begin in self.imports.pending(&identity) {
            if begin.ids.iter().all(|id| source.ids.contains(id)) {
                let found = self.finish_cut_import(run, &begin)?;
                // The rest keep the pairs the cut import gave them, so
                // that a colour-swapped pair stays one.
                pair_offset = begin.pair_offset;
                report.lines.push(format!(
                    "an import of this run cut short by a crash: {found} of its {} games are in the league; the rest are imported now",
                    begin.games
                ));
            } else {
                begin.ids.iter().for_each(|id| {
                    waiting.insert(id);
                });
            }
        }
        let had = self.already_there(run, &identity)?;
        let todo = IdRanges::from_sorted(
            source
                .ids
                .iter()
                .filter(|id| !had.contains(*id) && !waiting.contains(*id)),
        );
        report.lines.push(self.said_of_games(&source, &todo, &had));
        if todo.is_empty() {
            return Ok(report);
        }
        let begin = Begin {
            identity,
            run: run.display().to_string(),
            first: self.next_id,
            pair_offset,
            bots,
            games: todo.len(),
            ids: todo,
            at: arena_files::utc_timestamp(std::time::SystemTime::now()),
        };
        self.append_games(run, &begin)?;
        self.next_id += begin.games;
        self.next_pair = (self.next_pair)
            .max(begin.pair_offset + source.max_pair + 1)
            .max(self.next_id.div_ceil(2));
        report.imported = begin.games;
        Ok(report)
    }

    /// The one line on a run's games.
    fn said_of_games(&self, source: &Source, todo: &IdRanges, had: &GameSet) -> String {
        // The run's games neither there nor imported now wait for a cut
        // import's run.
        let there = had.len();
        let waiting = source.ids.len() - todo.len() - there;
        let first = self.next_id;
        let mut line = match todo.len() {
            0 => format!("nothing new: the league has its {}", games(there)),
            1 => format!("imported 1 game as g{first}"),
            n => format!("imported {n} games as g{first} to g{}", first + n - 1),
        };
        if there > 0 && !todo.is_empty() {
            line += &format!(" ({} in the league already)", games(there));
        }
        if waiting > 0 {
            line += &format!(
                "; {} of an import of this tournament cut short by a crash wait for the run that has them all (import it again)",
                games(waiting)
            );
        }
        line
    }

    /// Each bot of the run's `NAME@N` in the league, registering a new
    /// version for a program the name has not had; one line each.
    fn versions_of_bots(
        &mut self,
        manifest: &Manifest,
        lines: &mut Vec<String>,
    ) -> anyhow::Result<BTreeMap<String, String>> {
        let mut labels = BTreeMap::new();
        for bot in &manifest.config.bots {
            let name = &bot.name;
            let (program, how) = match recorded_program(bot, &manifest.programs) {
                Some(program) => (program, ""),
                None => (
                    program_identity(bot),
                    " (the run recorded no program: told by its files as they are now)",
                ),
            };
            let line = match self.registry.version_of_program(name, &program) {
                Some(v) => format!("{name}: the program of {}: its games go to it", v.label()),
                None => {
                    let before: Vec<String> =
                        self.registry.versions_of(name).map(|v| v.label()).collect();
                    let label = self.registry.add_version(
                        &self.league.registry_path(),
                        bot.clone(),
                        program.clone(),
                    )?;
                    match before.as_slice() {
                        [] => format!("{name}: new in the league: imported as {label}"),
                        [one] => format!("{name}: another program than {one}: imported as {label}"),
                        [first, .., last] => format!(
                            "{name}: another program than {first} to {last}: imported as {label}"
                        ),
                    }
                }
            };
            lines.push(format!("{line}{how}"));
            let version = self.registry.version_of_program(name, &program);
            labels.insert(name.clone(), version.expect("registered").label());
        }
        Ok(labels)
    }

    /// Writes `begin`, appends its games (their logs copied), syncs, and
    /// writes its `done`.
    fn append_games(&mut self, run: &Path, begin: &Begin) -> anyhow::Result<()> {
        let path = self.league.imports_path();
        self.imports.append(&path, Event::Begin(begin.clone()))?;
        let logs = self.league.dir().join(LOGS_DIR);
        let mut batch = Vec::with_capacity(BATCH);
        for_each_game(run, |record| {
            let Some(id) = record.number().filter(|id| begin.ids.rank(*id).is_some()) else {
                return Ok(());
            };
            let renamed = league_record(record, id, begin, run, &logs)?;
            copy_logs(&renamed, run, id)?;
            batch.push(renamed.record);
            if batch.len() == BATCH {
                self.journal.append_all(&batch)?;
                batch.clear();
            }
            Ok(())
        })?;
        self.journal.append_all(&batch)?;
        self.journal.sync()?;
        let done = Done {
            identity: begin.identity.clone(),
            run: begin.run.clone(),
            first: begin.first,
            games: begin.games,
            ids: begin.ids.clone(),
            at: arena_files::utc_timestamp(std::time::SystemTime::now()),
        };
        self.imports.append(&path, Event::Done(done))
    }

    /// The games of the run that earlier imports of its tournament put
    /// into the league: those whose league record is the one the run's
    /// game gives.
    fn already_there(&self, run: &Path, identity: &str) -> anyhow::Result<GameSet> {
        let imports = self.imports.imported(identity);
        let mut there = GameSet::new();
        if imports.is_empty() {
            return Ok(there);
        }
        let mut league_ids = GameSet::new();
        for (begin, ids) in &imports {
            for id in ids.iter() {
                league_ids.insert(begin.first + begin.ids.rank(id).unwrap_or_default());
            }
        }
        let found = league_hashes(&self.league.games_path(), |id| league_ids.contains(id))?;
        let logs = self.league.dir().join(LOGS_DIR);
        for_each_game(run, |record| {
            let id = record.number().unwrap_or_default();
            for (begin, _) in imports.iter().filter(|(_, ids)| ids.rank(id).is_some()) {
                let expected = league_record(record.clone(), id, begin, run, &logs)?.record;
                let league_id = expected.number().unwrap_or_default();
                if found.get(&league_id) == Some(&fingerprint(&expected)) {
                    there.insert(id);
                    break;
                }
            }
            Ok(())
        })?;
        Ok(there)
    }

    /// Finishes the import `begin`, cut short: finds which of its games
    /// are in the league (the record at each one's league id is the one the
    /// import would have written) and writes its `done` with them; returns
    /// how many.
    fn finish_cut_import(&mut self, run: &Path, begin: &Begin) -> anyhow::Result<u64> {
        let ids = begin.first..begin.first + begin.games;
        let found = league_hashes(&self.league.games_path(), |id| ids.contains(&id))?;
        let logs = self.league.dir().join(LOGS_DIR);
        let mut present = Vec::new();
        for_each_game(run, |record| {
            let Some(id) = record.number().filter(|id| begin.ids.rank(*id).is_some()) else {
                return Ok(());
            };
            let expected = league_record(record, id, begin, run, &logs)?.record;
            let league_id = expected.number().unwrap_or_default();
            if found.get(&league_id) == Some(&fingerprint(&expected)) {
                present.push(id);
            }
            Ok(())
        })?;
        present.sort_unstable();
        let ids = IdRanges::from_sorted(present);
        let done = Done {
            identity: begin.identity.clone(),
            run: begin.run.clone(),
            first: begin.first,
            games: ids.len(),
            ids,
            at: arena_files::utc_timestamp(std::time::SystemTime::now()),
        };
        let games = done.games;
        self.imports
            .append(&self.league.imports_path(), Event::Done(done))?;
        Ok(games)
    }
}

/// "1 game", "2 games".
fn games(n: u64) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// A run's game as the league records it, with the log files to copy:
/// (from, to).
struct Renamed {
    record: GameRecord,
    logs: Vec<(PathBuf, PathBuf)>,
}

/// The run's game `record` (its id `id`) as `begin` imports it: its league
/// id, its seats `NAME@N`, its pair moved by the offset, its logs in the
/// league's `logs/` (named for the league id).
fn league_record(
    mut record: GameRecord,
    id: u64,
    begin: &Begin,
    run: &Path,
    logs: &Path,
) -> anyhow::Result<Renamed> {
    let at = || format!("{}: game g{id}", run.join(GAMES_JSONL).display());
    let league_id = begin.first + begin.ids.rank(id).expect("an id of the import");
    for seat in [&mut record.white, &mut record.black] {
        let label = begin.bots.get(seat.as_str()).ok_or_else(|| {
            anyhow!(
                "{}: the player {seat:?} is no bot of the run's tournament.json",
                at()
            )
        })?;
        *seat = label.clone();
    }
    let round = record.round.unwrap_or(0);
    let pair = begin.pair_offset + record.pair.unwrap_or(0);
    record.set_place(league_id, round, pair);
    let mut copies = Vec::new();
    for log in [
        &mut record.white_log,
        &mut record.black_log,
        &mut record.white_trace,
        &mut record.black_trace,
    ] {
        *log = log.as_ref().and_then(|recorded| {
            let name = recorded.file_name()?.to_str()?;
            let from = run.join(LOGS_DIR).join(name);
            let rest = name.split_once('-').map_or(name, |(_, rest)| rest);
            let to = logs.join(format!("g{league_id}-{rest}"));
            from.is_file().then(|| copies.push((from, to.clone())))?;
            Some(to)
        });
    }
    Ok(Renamed {
        record,
        logs: copies,
    })
}

/// Copies the log files of `renamed` (run game `id`) into the league.
fn copy_logs(renamed: &Renamed, run: &Path, id: u64) -> anyhow::Result<()> {
    for (from, to) in &renamed.logs {
        std::fs::copy(from, to).with_context(|| {
            format!(
                "{}: game g{id}: cannot copy its log {} to {}",
                run.display(),
                from.display(),
                to.display()
            )
        })?;
    }
    Ok(())
}

/// What a league record is compared by after a crash: a hash of the
/// record, its log files by name only (the league's directory may be given
/// another way).
fn fingerprint(record: &GameRecord) -> u64 {
    let mut record = record.clone();
    for log in [
        &mut record.white_log,
        &mut record.black_log,
        &mut record.white_trace,
        &mut record.black_trace,
    ] {
        *log = log.as_ref().and_then(|p| p.file_name()).map(PathBuf::from);
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_vec(&record)
        .expect("a record serializes")
        .hash(&mut hasher);
    hasher.finish()
}

/// The fingerprints of the league's records whose ids are `wanted`.
fn league_hashes(path: &Path, wanted: impl Fn(u64) -> bool) -> anyhow::Result<HashMap<u64, u64>> {
    let mut found = HashMap::new();
    visit_records(path, |number, line| {
        let id = crate::journal::record_id(line)?;
        if wanted(id) && !found.contains_key(&id) {
            let record: GameRecord = serde_json::from_slice(line)
                .map_err(|e| anyhow!("line {number}: not a game record: {e}"))?;
            found.insert(id, fingerprint(&record));
        }
        Ok(())
    })?;
    Ok(found)
}

/// The ids and largest pair of the run's games.
fn scan(run: &Path) -> anyhow::Result<Source> {
    let mut source = Source {
        ids: GameSet::new(),
        max_pair: 0,
    };
    for_each_game(run, |record| {
        source.ids.insert(record.number().unwrap_or_default());
        source.max_pair = source.max_pair.max(record.pair.unwrap_or(0));
        Ok(())
    })?;
    if source.ids.is_empty() {
        bail!(
            "{}: no games (its {GAMES_JSONL} has no finished game)",
            run.display()
        );
    }
    Ok(source)
}

/// Calls `visit` with each game of the run's journal in the file's order:
/// the first record of each id (a torn last line is left out, as a resume
/// would).
fn for_each_game(
    run: &Path,
    mut visit: impl FnMut(GameRecord) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut seen = GameSet::new();
    visit_records(&run.join(GAMES_JSONL), |number, line| {
        let record: GameRecord = serde_json::from_slice(line)
            .map_err(|e| anyhow!("line {number}: not a game record: {e}"))?;
        let id = record
            .number()
            .ok_or_else(|| anyhow!("line {number}: {}", arena_referee::record::NO_PLACE))?;
        if seen.insert(id) {
            visit(record)?;
        }
        Ok(())
    })
}

/// Calls `visit` with each complete line of the journal at `path` and its
/// number; errors name the file.
fn visit_records(
    path: &Path,
    mut visit: impl FnMut(usize, &[u8]) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = Lines::new(BufReader::new(file));
    while let Some((number, line)) = lines
        .next_line()
        .with_context(|| format!("cannot read {}", path.display()))?
    {
        visit(number, line).with_context(|| path.display().to_string())?;
    }
    Ok(())
}
