//! What a game's `games.csv` row and its `games.jsonl` record must agree on
//! (players, result, reason, plies), checked by [`super::journal::Journal::recover`]
//! on `--resume`. A crash can leave a game in one file only or a torn line,
//! never the same game saying two different things: that is an edited or
//! damaged file, and resuming would rate one version and show the other, so
//! it is an error naming both files and lines.
//!
//! For each game id the first record is remembered as its line number and a
//! hash of the fields it states (about 30 bytes a game, while the files
//! themselves are only streamed); the row is compared with it, and only on
//! a mismatch is the record's line read again to say what differs.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader};
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use serde::Deserialize;
use serde_json::Value;

use arena_referee::GameRow;

/// The fields both files state, by their names in both.
const SHARED: [&str; 5] = ["white", "black", "result", "reason", "plies"];

/// The parts of a record read here; serde skips the rest (moves, logs...).
#[derive(Deserialize)]
struct Stated {
    id: Option<Value>,
    white: Option<Value>,
    black: Option<Value>,
    result: Option<Value>,
    reason: Option<Value>,
    plies: Option<Value>,
}

impl Stated {
    fn parse(line: &[u8]) -> anyhow::Result<Stated> {
        serde_json::from_slice(line).map_err(|e| anyhow!("not a JSON object: {e}"))
    }

    fn id(&self) -> anyhow::Result<u64> {
        self.id
            .as_ref()
            .and_then(Value::as_u64)
            .ok_or_else(|| anyhow!("the record has no numeric \"id\""))
    }

    /// The shared fields in [`SHARED`] order; a field the record leaves out
    /// is not compared.
    fn fields(&self) -> [Option<&Value>; 5] {
        [
            self.white.as_ref(),
            self.black.as_ref(),
            self.result.as_ref(),
            self.reason.as_ref(),
            self.plies.as_ref(),
        ]
    }
}

/// A record as remembered: its line, which shared fields it states (bit i
/// for `SHARED[i]`), and a hash of their values.
#[derive(Debug, Clone, Copy)]
struct Said {
    line: usize,
    stated: u8,
    hash: u64,
}

/// The first record of each game id in `games.jsonl`, to check rows against.
#[derive(Debug, Default)]
pub struct Agreement {
    records: HashMap<u64, Said>,
}

impl Agreement {
    /// Reads the record on `line` of games.jsonl and returns its id,
    /// remembering what it says when it is the first with that id.
    pub fn note_record(&mut self, line: usize, bytes: &[u8]) -> anyhow::Result<u64> {
        let record = Stated::parse(bytes)?;
        let id = record.id()?;
        self.records.entry(id).or_insert_with(|| {
            let fields = record.fields();
            let stated = (0..SHARED.len())
                .filter(|&i| fields[i].is_some())
                .fold(0u8, |bits, i| bits | 1 << i);
            Said {
                line,
                stated,
                hash: hash(stated, &fields.map(|v| v.cloned())),
            }
        });
        Ok(id)
    }

    /// `Err` naming both files and lines when the row on `csv_line` of
    /// `csv` says something else about its game than the game's first
    /// record in `jsonl`. A game without a record passes (it is one-sided
    /// crash damage, which recovery replays).
    pub fn check_row(
        &self,
        row: &GameRow,
        (csv, csv_line): (&Path, usize),
        jsonl: &Path,
    ) -> anyhow::Result<()> {
        let Some(said) = self.records.get(&row.id) else {
            return Ok(());
        };
        let values = row_values(row)?;
        if hash(said.stated, &values.clone().map(Some)) == said.hash {
            return Ok(());
        }
        let record = read_line(jsonl, said.line)?;
        let record = Stated::parse(&record)?;
        let differences: Vec<String> = SHARED
            .iter()
            .zip(record.fields())
            .zip(&values)
            .filter_map(|((name, in_record), in_row)| {
                let in_record = in_record?;
                (in_record != in_row).then(|| format!("{name} {in_row} vs {in_record}"))
            })
            .collect();
        bail!(
            "{}:{csv_line} and {}:{} disagree about game {} ({}); correct or delete the wrong line, then resume",
            csv.display(),
            jsonl.display(),
            said.line,
            row.id,
            differences.join(", ")
        )
    }
}

/// A row's shared fields as the JSON values a record holds for them.
fn row_values(row: &GameRow) -> anyhow::Result<[Value; 5]> {
    Ok([
        Value::from(row.white.as_str()),
        Value::from(row.black.as_str()),
        serde_json::to_value(row.result)?,
        serde_json::to_value(row.reason)?,
        Value::from(row.plies),
    ])
}

/// A hash of the values whose bit is set in `stated`.
fn hash(stated: u8, values: &[Option<Value>; 5]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for (i, value) in values.iter().enumerate() {
        if stated & (1 << i) != 0 {
            i.hash(&mut hasher);
            value.as_ref().map(Value::to_string).hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// Line `number` (1-based) of the file at `path`, without its newline.
fn read_line(path: &Path, number: usize) -> anyhow::Result<Vec<u8>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut line = Vec::new();
    let mut reader = BufReader::new(file);
    for _ in 0..number {
        line.clear();
        reader.read_until(b'\n', &mut line)?;
    }
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::row::row_with_result;
    use arena_rules::games::GameResult;

    fn row() -> GameRow {
        row_with_result(3, 1, "a", "b", GameResult::WhiteWins)
    }

    #[test]
    fn a_row_must_say_what_its_record_says() {
        let dir = tempfile::tempdir().unwrap();
        let jsonl = dir.path().join("games.jsonl");
        let lines = [
            r#"{"id":3,"white":"a","black":"b","result":"1-0","reason":"group","plies":20,"moves":[]}"#,
            r#"{"id":4,"game":"qango6"}"#,
            r#"{"id":5,"white":"a","black":"b","result":"0-1","reason":"group","plies":20}"#,
        ];
        std::fs::write(&jsonl, lines.join("\n") + "\n").unwrap();
        let mut agreement = Agreement::default();
        for (i, line) in lines.iter().enumerate() {
            agreement.note_record(i + 1, line.as_bytes()).unwrap();
        }
        let csv = Path::new("games.csv");
        agreement.check_row(&row(), (csv, 2), &jsonl).unwrap();
        // A record that states nothing shared, and a game without a record.
        let mut other = row();
        other.id = 4;
        agreement.check_row(&other, (csv, 3), &jsonl).unwrap();
        other.id = 6;
        agreement.check_row(&other, (csv, 3), &jsonl).unwrap();

        let mut wrong = row();
        wrong.id = 5;
        let err = agreement
            .check_row(&wrong, (csv, 4), &jsonl)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("games.csv:4 and ")
                && err.contains("games.jsonl:3 disagree about game 5 (result \"1-0\" vs \"0-1\")"),
            "{err}"
        );
        let mut plies = row();
        plies.plies = 21;
        let err = agreement
            .check_row(&plies, (csv, 2), &jsonl)
            .unwrap_err()
            .to_string();
        assert!(err.contains("(plies 21 vs 20)"), "{err}");
    }
}
