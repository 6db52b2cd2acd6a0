//! Reading `games.csv` back, with errors that name the file, line and column.
//!
//! The types check the result (`1-0`, `0-1` or `1/2-1/2`) and the reason;
//! rows are checked beyond them: bot names must be non-empty, and a bot cannot
//! play itself, because the statistics could not use such a row.

use std::path::Path;

use anyhow::{anyhow, bail, Context};

use arena_referee::game_id::number_of;
use arena_referee::GameRow;
use arena_rules::games::GameResult;
use arena_rules::protocol::Reason;

/// Columns every games.csv must have (others are ignored). Files of older
/// versions name the first `id` (a bare number), which is read alike.
pub const REQUIRED_COLUMNS: [&str; 12] = [
    "game_id",
    "round",
    "pair",
    "variant",
    "white",
    "black",
    "opening",
    "result",
    "reason",
    "plies",
    "white_time_ms",
    "black_time_ms",
];

/// Reads every row of a games.csv file.
pub fn read_games_csv(path: &Path) -> anyhow::Result<Vec<GameRow>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open games file {}", path.display()))?;
    read_games(file, &path.display().to_string())
}

/// Reads games.csv rows from any reader; `source` names it in errors.
pub fn read_games(reader: impl std::io::Read, source: &str) -> anyhow::Result<Vec<GameRow>> {
    let mut rows = Vec::new();
    visit_games(reader, source, |row| {
        rows.push(row);
        Ok(())
    })?;
    Ok(rows)
}

/// Calls `visit` with each row of a games.csv file in order, holding one row
/// at a time, so files of any length take constant memory.
pub fn visit_games_csv(
    path: &Path,
    mut visit: impl FnMut(GameRow) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    visit_numbered_games_csv(path, |_, row| visit(row))
}

/// [`visit_games_csv`] that also gives each row's line number in the file.
pub fn visit_numbered_games_csv(
    path: &Path,
    visit: impl FnMut(u64, GameRow) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open games file {}", path.display()))?;
    visit_numbered_games(
        std::io::BufReader::new(file),
        &path.display().to_string(),
        visit,
    )
}

/// Calls `visit` with each checked row of `reader` in order; `source` names
/// it in errors. An error from `visit` stops the reading and is returned.
pub fn visit_games(
    reader: impl std::io::Read,
    source: &str,
    mut visit: impl FnMut(GameRow) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    visit_numbered_games(reader, source, |_, row| visit(row))
}

/// [`visit_games`] that also gives each row's line number (the header is
/// line 1).
pub fn visit_numbered_games(
    reader: impl std::io::Read,
    source: &str,
    mut visit: impl FnMut(u64, GameRow) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(reader);
    let headers = csv
        .headers()
        .map_err(|e| describe(source, &e, None))?
        .clone();
    for column in REQUIRED_COLUMNS {
        let old = (column == "game_id").then_some("id");
        if !headers.iter().any(|h| h == column || Some(h) == old) {
            bail!(
                "{source}: line 1: missing column `{column}` in the header (expected {})",
                REQUIRED_COLUMNS.join(",")
            );
        }
    }
    let mut record = csv::StringRecord::new();
    loop {
        match csv.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => return Ok(()),
            Err(e) => return Err(describe(source, &e, Some(&headers))),
        }
        let line = record.position().map_or(0, |p| p.line());
        check_enum_fields(&record, &headers).map_err(|(field, problem)| {
            anyhow!("{source}: line {line}, field `{field}`: {problem}")
        })?;
        let row: GameRow = record
            .deserialize(Some(&headers))
            .map_err(|e| describe(source, &e, Some(&headers)))?;
        check_row(&row).map_err(|(field, problem)| {
            anyhow!("{source}: line {line}, field `{field}`: {problem}")
        })?;
        visit(line, row)?;
    }
}

/// The last `n` rows of a games.csv file (fewer when it has fewer), in
/// the file's order, reading only its header and its tail: the cost does
/// not grow with the file. A torn last line (a row being written) is left
/// out.
pub fn read_last_games_csv(path: &Path, n: usize) -> anyhow::Result<Vec<GameRow>> {
    use std::io::{BufRead, Read, Seek, SeekFrom};
    let source = path.display().to_string();
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot open games file {source}"))?;
    let mut header = Vec::new();
    std::io::BufReader::new(&mut file)
        .read_until(b'\n', &mut header)
        .with_context(|| format!("cannot read {source}"))?;
    let body_start = header.len() as u64;
    let end = file.seek(SeekFrom::End(0))?;
    // Back from the end a chunk at a time until the tail holds n + 1 line
    // ends (the one before the first row kept, and each row's own).
    let mut start = end;
    let mut tail = Vec::new();
    while start > body_start && tail.iter().filter(|&&b| b == b'\n').count() <= n {
        let from = start.saturating_sub(64 * 1024).max(body_start);
        let mut chunk = vec![0u8; (start - from) as usize];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(&mut chunk)
            .with_context(|| format!("cannot read {source}"))?;
        chunk.extend_from_slice(&tail);
        tail = chunk;
        start = from;
    }
    let complete = tail.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let lines: Vec<&[u8]> = tail[..complete].split_inclusive(|&b| b == b'\n').collect();
    let mut text = header;
    for line in &lines[lines.len().saturating_sub(n)..] {
        text.extend_from_slice(line);
    }
    read_games(&text[..], &source)
}

/// The game id, result and reason columns, parsed before the row is: csv
/// cannot say which field a serde error of these types came from, this can.
fn check_enum_fields(
    record: &csv::StringRecord,
    headers: &csv::StringRecord,
) -> Result<(), (&'static str, String)> {
    let text = |column: &str| {
        headers
            .iter()
            .position(|h| h == column)
            .and_then(|i| record.get(i))
    };
    for column in ["game_id", "id"] {
        if let Some(id) = text(column) {
            number_of(id).map_err(|e| (column, e))?;
        }
    }
    if let Some(result) = text("result") {
        result.parse::<GameResult>().map_err(|e| ("result", e))?;
    }
    if let Some(reason) = text("reason") {
        reason.parse::<Reason>().map_err(|e| ("reason", e))?;
    }
    Ok(())
}

/// Problems the types cannot catch: `(column, message)`.
fn check_row(row: &GameRow) -> Result<(), (&'static str, String)> {
    if row.white.trim().is_empty() {
        return Err(("white", "empty bot name".to_string()));
    }
    if row.black.trim().is_empty() {
        return Err(("black", "empty bot name".to_string()));
    }
    if row.white == row.black {
        return Err(("black", format!("bot {:?} cannot play itself", row.black)));
    }
    Ok(())
}

/// Turns a csv error into "FILE: line N, field `NAME`: problem".
fn describe(source: &str, err: &csv::Error, headers: Option<&csv::StringRecord>) -> anyhow::Error {
    let line = err
        .position()
        .map(|p| format!("line {}", p.line()))
        .unwrap_or_else(|| "unknown line".to_string());
    match err.kind() {
        csv::ErrorKind::Deserialize { err: de, .. } => {
            let field = de
                .field()
                .and_then(|i| headers.and_then(|h| h.get(i as usize)))
                .map(|name| format!(", field `{name}`"))
                .unwrap_or_default();
            anyhow!("{source}: {line}{field}: {}", de.kind())
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => anyhow!("{source}: {line}: {len} fields, but the header has {expected_len}"),
        csv::ErrorKind::Utf8 { err: utf8, .. } => anyhow!(
            "{source}: {line}, field {}: not valid UTF-8",
            utf8.field() + 1
        ),
        _ => anyhow!("{source}: {line}: {err}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n";

    #[test]
    fn the_last_rows_are_read_from_the_tail() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("games.csv");
        let row = |k: u64| format!("{k},0,0,qango6,a,b,,1-0,line,9,1,2\n");
        let mut text = HEADER.to_string();
        (0..5).for_each(|k| text.push_str(&row(k)));
        std::fs::write(&path, format!("{text}7,0,0,qan")).unwrap();
        let ids = |n| -> Vec<u64> {
            read_last_games_csv(&path, n)
                .unwrap()
                .iter()
                .map(|r| r.id)
                .collect()
        };
        assert_eq!(ids(2), vec![3, 4]);
        assert_eq!(ids(9), vec![0, 1, 2, 3, 4]);
        assert_eq!(ids(0), Vec::<u64>::new());
        std::fs::write(&path, HEADER).unwrap();
        assert_eq!(ids(3), Vec::<u64>::new());
    }

    fn read(body: &str) -> anyhow::Result<Vec<GameRow>> {
        read_games(format!("{HEADER}{body}").as_bytes(), "games.csv")
    }

    #[test]
    fn reads_valid_rows() {
        let rows = read("0,0,0,qango6,a,b,c3 d4,1-0,group,17,1200,1300\n1,0,0,qango6,b,a,,1/2-1/2,full,36,10,20\n").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].white, "b");
        assert_eq!(rows[1].result.white_score(), 0.5);
    }

    /// Today's files name the first column `game_id` and spell ids `gN`;
    /// an older file's `id` column of bare numbers reads the same.
    #[test]
    fn game_ids_are_read_as_written_now_and_before() {
        let body = "0,0,0,qango6,a,b,,1-0,group,17,1,1\n";
        let new = format!("game_id{}g7{}", &HEADER[2..], &body[1..]);
        let old = format!("{HEADER}7{}", &body[1..]);
        for text in [new, old] {
            let rows = read_games(text.as_bytes(), "games.csv").unwrap();
            assert_eq!(rows[0].id, 7, "{text}");
        }
        let bad = format!("{HEADER}x7{}", &body[1..]);
        let err = read_games(bad.as_bytes(), "games.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 2, field `id`") && err.contains("is not a game id"),
            "{err}"
        );
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let err =
            read("0,0,0,qango6,a,b,,1-0,group,17,1,1\n1,0,0,qango6,b,a,,1-0,group,seventeen,1,1\n")
                .unwrap_err()
                .to_string();
        assert!(
            err.starts_with("games.csv: line 3, field `plies`:"),
            "{err}"
        );

        let err = read("0,0,0,qango6,a,b,,2-0,group,17,1,1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("games.csv: line 2, field `result`: unknown result \"2-0\""),
            "{err}"
        );

        let err = read("0,0,0,qango6,a,b,,1-0,boredom,17,1,1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("games.csv: line 2, field `reason`: unknown reason \"boredom\""),
            "{err}"
        );

        let err = read("0,0,0,qango6,a,a,,1-0,group,17,1,1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 2, field `black`") && err.contains("itself"),
            "{err}"
        );

        let err = read("0,0,0,qango6,a,b,,1-0\n").unwrap_err().to_string();
        assert!(
            err.contains("games.csv: line 2: 8 fields, but the header has 12"),
            "{err}"
        );

        let err = read_games("id,round\n".as_bytes(), "x.csv")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("x.csv: line 1: missing column `pair`"),
            "{err}"
        );
    }

    #[test]
    fn missing_file_is_named() {
        let err = read_games_csv(Path::new("/nonexistent/games.csv")).unwrap_err();
        assert!(format!("{err:#}").contains("/nonexistent/games.csv"));
    }
}
