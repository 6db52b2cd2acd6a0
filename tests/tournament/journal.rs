//! The journal survives crashes: games.jsonl is the journal, a torn last
//! line and repeated games are dropped from it and the next append starts
//! on a fresh line; games.csv is derived, so whatever a crash or an edit
//! made of it (cut short, rows whose records were lost, an older arena's
//! columns, an edited row) it is rebuilt from the records, and a game is
//! replayed only when its record is missing. A journal line that is no
//! game record, which a crash cannot cause, is an error naming the line.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use arena::protocol::TimeControl;
use arena::referee::game_id::number_of;
use arena::referee::{GameRecord, GameRow};
use arena::tournament::journal::{csv_header, format_row, GAMES_CSV, GAMES_JSONL};
use arena::tournament::Journal;
use serde_json::json;

/// Game `id`'s record, at its place (`id`, round 0, pair `id / 2`): a
/// 5-ply qango6 game between a and b that white wins, colours by id. Read
/// from a line as older versions wrote it (`"id"` besides `"game_id"`);
/// the journal writes it as today's.
fn record(id: u64) -> GameRecord {
    let (white, black) = if id.is_multiple_of(2) {
        ("a", "b")
    } else {
        ("b", "a")
    };
    serde_json::from_value(json!({
        "id": id, "round": 0, "pair": id / 2,
        "game": "qango6", "game_id": format!("g{id}"), "white": white, "black": black,
        "time_control": {"type": "per_move", "move_ms": 100},
        "opening": [], "moves": ["a1", "c1", "b1", "d1", "a2"],
        "move_times_ms": [1, 1, 1, 1, 1], "result": "1-0", "winner": "white",
        "reason": "group", "message": "white wins", "cells": [], "plies": 5,
        "white_time_ms": 3, "black_time_ms": 4, "duration_ms": 9,
    }))
    .unwrap()
}

fn row(id: u64) -> GameRow {
    record(id).to_games_row()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// What a recovery of `dir` repaired, one line each.
fn repairs_of(dir: &Path) -> String {
    let (_, recovery) = Journal::recover(dir, accept_all).unwrap();
    recovery.repairs.join("\n")
}

fn journal_with(dir: &Path, ids: &[u64]) {
    let mut journal = Journal::create(dir).unwrap();
    for &id in ids {
        journal.append(&record(id)).unwrap();
    }
}

fn append_raw(path: &Path, bytes: &[u8]) {
    let mut f = OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(bytes).unwrap();
}

fn accept_all(_: &GameRow) -> anyhow::Result<()> {
    Ok(())
}

fn jsonl_records(dir: &Path) -> Vec<serde_json::Value> {
    read(dir, GAMES_JSONL)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The game ids of games.csv (checking its header) and games.jsonl.
fn ids(dir: &Path) -> (Vec<u64>, Vec<u64>) {
    let csv = read(dir, GAMES_CSV);
    let mut lines = csv.lines();
    assert_eq!(format!("{}\n", lines.next().unwrap()), csv_header());
    let csv_ids = lines
        .map(|l| number_of(l.split(',').next().unwrap()).unwrap())
        .collect();
    let jsonl_ids = jsonl_records(dir)
        .iter()
        .map(|r| number_of(r["game_id"].as_str().unwrap()).unwrap())
        .collect();
    (csv_ids, jsonl_ids)
}

#[test]
fn clean_journal_recovers_every_game_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1, 2]);
    let before = (read(dir.path(), GAMES_CSV), read(dir.path(), GAMES_JSONL));
    let (_, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert!(recovery.repairs.is_empty(), "{:?}", recovery.repairs);
    let got: Vec<u64> = recovery.finished.iter().collect();
    assert_eq!(got, [0, 1, 2]);
    let after = (read(dir.path(), GAMES_CSV), read(dir.path(), GAMES_JSONL));
    assert_eq!(after, before);
    let record_1 = &jsonl_records(dir.path())[1];
    assert_eq!(record_1["moves"], json!(record(1).moves));
    assert_eq!(record_1["pair"], 0);
}

/// A kill while the rows were written: game 2's record is in games.jsonl,
/// its row cut short. The game is finished; its row is rebuilt.
#[test]
fn a_torn_csv_row_is_rebuilt_from_its_record() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1, 2]);
    let csv_path = dir.path().join(GAMES_CSV);
    let whole = read(dir.path(), GAMES_CSV);
    let row2 = format_row(&row(2)).unwrap();
    std::fs::write(&csv_path, &whole[..whole.len() - row2.len() + 7]).unwrap();

    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    let got: Vec<u64> = recovery.finished.iter().collect();
    assert_eq!(got, [0, 1, 2]);
    assert_eq!(recovery.repairs.len(), 1, "{:?}", recovery.repairs);
    let repair = &recovery.repairs[0];
    assert!(
        repair.starts_with("games.csv rebuilt from games.jsonl")
            && repair.contains("its last line 4 was unfinished"),
        "{repair}"
    );
    assert_eq!(read(dir.path(), GAMES_CSV), whole);

    journal.append(&record(3)).unwrap();
    assert_eq!(ids(dir.path()), (vec![0, 1, 2, 3], vec![0, 1, 2, 3]));
}

#[test]
fn torn_jsonl_line_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0]);
    let csv = read(dir.path(), GAMES_CSV);
    append_raw(&dir.path().join(GAMES_JSONL), br#"{"id":1,"game":"qan"#);
    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert_eq!(recovery.finished.len(), 1);
    assert_eq!(
        recovery.repairs,
        ["games.jsonl: dropped an unfinished last line 2 (19 bytes, cut off by a crash)"]
    );
    assert_eq!(read(dir.path(), GAMES_CSV), csv, "games.csv was right");
    journal.append(&record(1)).unwrap();
    assert_eq!(ids(dir.path()), (vec![0, 1], vec![0, 1]));
}

/// Which of two unsynced files a machine crash keeps is up to the disk:
/// rows can outlive their records (those games are replayed) and records
/// their rows (those games are finished).
#[test]
fn games_csv_follows_the_journal_after_a_machine_crash() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1, 2, 3, 4]);
    let whole = read(dir.path(), GAMES_CSV);
    // games.jsonl lost the records of games 3 and 4.
    let records: Vec<String> = read(dir.path(), GAMES_JSONL)
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join(GAMES_JSONL), records.concat()).unwrap();
    let (_, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    let got: Vec<u64> = recovery.finished.iter().collect();
    assert_eq!(got, [0, 1, 2]);
    let repairs = recovery.repairs.join("\n");
    assert!(
        repairs.contains("games g3 and g4 without a record (lost in a crash) will be replayed"),
        "{repairs}"
    );
    assert_eq!(ids(dir.path()), (vec![0, 1, 2], vec![0, 1, 2]));
    assert!(repairs_of(dir.path()).is_empty(), "nothing left to repair");

    // games.csv lost the rows of games 1 and 2.
    let rows: Vec<&str> = whole.lines().take(2).collect();
    std::fs::write(dir.path().join(GAMES_CSV), rows.join("\n") + "\n").unwrap();
    let repairs = repairs_of(dir.path());
    assert!(
        repairs.contains("it lacked the rows of the last 2 games of games.jsonl"),
        "{repairs}"
    );
    assert_eq!(ids(dir.path()), (vec![0, 1, 2], vec![0, 1, 2]));
    assert!(whole.starts_with(&read(dir.path(), GAMES_CSV)));
}

#[test]
fn duplicates_keep_the_first_copy() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1]);
    let mut copy = record(1);
    copy.result = arena::games::GameResult::Draw;
    append_raw(
        &dir.path().join(GAMES_JSONL),
        format!("{}\n", serde_json::to_string(&copy).unwrap()).as_bytes(),
    );
    append_raw(
        &dir.path().join(GAMES_CSV),
        format_row(&row(1)).unwrap().as_bytes(),
    );
    let (_, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert_eq!(recovery.finished.len(), 2);
    let repairs = recovery.repairs.join("\n");
    assert!(
        repairs.contains("games.jsonl: line 3 repeats game g1; kept the first"),
        "{repairs}"
    );
    assert!(
        repairs.contains("it had 1 row more than games.jsonl has games"),
        "{repairs}"
    );
    assert_eq!(jsonl_records(dir.path())[1]["result"], "1-0");
    assert_eq!(ids(dir.path()), (vec![0, 1], vec![0, 1]));
    assert!(repairs_of(dir.path()).is_empty(), "nothing left to repair");
}

/// games.csv is derived: an edited or damaged row is not what its record
/// gives, so the file is rebuilt (and says so), whatever the edit.
#[test]
fn an_edited_games_csv_is_rebuilt_from_the_records() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1, 2]);
    let csv_path = dir.path().join(GAMES_CSV);
    let whole = read(dir.path(), GAMES_CSV);
    let edits = [
        (
            whole.replacen("\ng0,", "\nzero,", 1),
            "line 2 was not the row that game g0's record gives",
        ),
        (
            whole.replacen("\ng1,0,0,qango6,b,a,,1-0,", "\ng1,0,0,qango6,b,a,,0-1,", 1),
            "line 3 was not the row that game g1's record gives",
        ),
        (
            whole.replacen("game_id,", "game,", 1),
            "its first line was not the header",
        ),
        (
            whole.replacen('\n', "\n\n", 1),
            "line 2 was not the row that game g0's record gives",
        ),
    ];
    for (edited, why) in edits {
        std::fs::write(&csv_path, &edited).unwrap();
        let repairs = repairs_of(dir.path());
        assert!(
            repairs.starts_with(
                "games.csv rebuilt from games.jsonl, the journal it is derived from: "
            ) && repairs.contains(why),
            "{repairs}"
        );
        assert_eq!(read(dir.path(), GAMES_CSV), whole);
    }
    std::fs::remove_file(&csv_path).unwrap();
    assert!(repairs_of(dir.path()).ends_with(": it was missing"));
    assert_eq!(read(dir.path(), GAMES_CSV), whole);
}

/// A journal line that is no game record is not crash damage: an error
/// naming the line, and nothing is changed.
#[test]
fn damage_in_the_journal_is_an_error_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1]);
    let jsonl_path = dir.path().join(GAMES_JSONL);
    let jsonl = read(dir.path(), GAMES_JSONL);
    let mut placeless = serde_json::to_value(record(2)).unwrap();
    placeless["game_id"] = json!("play");
    for (damaged, line, problem) in [
        (format!("not json\n{jsonl}"), 1, "not a game record"),
        (format!("{jsonl}{{\"id\":2}}\n"), 3, "not a game record"),
        (format!("{jsonl}{placeless}\n"), 3, "no place in a schedule"),
    ] {
        std::fs::write(&jsonl_path, &damaged).unwrap();
        let csv = read(dir.path(), GAMES_CSV);
        let err = format!(
            "{:#}",
            Journal::recover(dir.path(), accept_all).unwrap_err()
        );
        assert!(
            err.contains(&format!("games.jsonl:{line}: ")) && err.contains(problem),
            "{err}"
        );
        assert_eq!(read(dir.path(), GAMES_JSONL), damaged);
        assert_eq!(read(dir.path(), GAMES_CSV), csv);
    }
    std::fs::write(&jsonl_path, &jsonl).unwrap();

    let reject_1 = |r: &GameRow| {
        if r.id == 1 {
            anyhow::bail!("game 1 is not in the schedule")
        }
        Ok(())
    };
    let err = format!("{:#}", Journal::recover(dir.path(), reject_1).unwrap_err());
    assert!(
        err.contains("games.jsonl:2") && err.contains("not in the schedule"),
        "{err}"
    );
}

#[test]
fn create_refuses_a_directory_with_games() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0]);
    let err = Journal::create(dir.path()).unwrap_err().to_string();
    assert!(err.contains("--resume"), "{err}");
}

#[test]
fn missing_journal_files_are_recreated_empty() {
    // A crash right after tournament.json was written, before the journal.
    let dir = tempfile::tempdir().unwrap();
    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert!(recovery.finished.is_empty());
    assert_eq!(read(dir.path(), GAMES_CSV), csv_header());
    journal.append(&record(0)).unwrap();
    assert_eq!(ids(dir.path()), (vec![0], vec![0]));
}

/// Resumes a directory of an older arena: games.csv is `old` (a header and
/// row 0, written out by the test), game 0's record `old_record` (without
/// the fields that arena did not write yet); appends `later` as game 1.
/// Returns what recovery repaired and the lines of games.csv; checks the
/// file got the current header and a second recovery finds nothing to do.
fn upgrade(old: &str, old_record: serde_json::Value, later: GameRecord) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(GAMES_CSV), old).unwrap();
    std::fs::write(dir.path().join(GAMES_JSONL), format!("{old_record}\n")).unwrap();
    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert_eq!(recovery.finished.len(), 1);
    journal.append(&later).unwrap();
    drop(journal);
    let csv = read(dir.path(), GAMES_CSV);
    let lines: Vec<String> = csv.lines().map(String::from).collect();
    assert_eq!(format!("{}\n", lines[0]), csv_header());
    assert!(repairs_of(dir.path()).is_empty(), "nothing left to repair");
    assert_eq!(
        jsonl_records(dir.path())[0],
        old_record,
        "the journal is kept"
    );
    (recovery.repairs.join("\n"), lines)
}

/// Game 0's record as an older arena wrote it: without `ended_utc` and each
/// side's time control, or with `ended_utc` when `ended` is given.
fn old_record(ended: Option<&str>) -> serde_json::Value {
    let mut old = serde_json::to_value(record(0)).unwrap();
    let fields = old.as_object_mut().unwrap();
    // As old journals wrote it: the number also as "id".
    fields.insert("id".into(), 0.into());
    for newer in ["ended_utc", "white_time_control", "black_time_control"] {
        fields.remove(newer);
    }
    if let Some(ended) = ended {
        fields.insert("ended_utc".into(), ended.into());
    }
    old
}

/// A directory written before the `ended_utc` column existed resumes:
/// games.csv is rebuilt with the current columns, old games' rows with
/// `ended_utc` empty and the time control both sides played, and new rows
/// follow it.
#[test]
fn a_games_csv_without_ended_utc_is_rebuilt_on_resume() {
    let mut later = record(1);
    later.ended_utc = "2026-12-01T00:23:28Z".into();
    let (repairs, lines) = upgrade(
        "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n\
         0,0,0,qango6,a,b,,1-0,group,5,3,4\n",
        old_record(None),
        later,
    );
    assert!(
        repairs.contains(
            "its header was an older arena's (the column `id` is now `game_id`, spelled gN; \
             now with the columns ended_utc,white_tc,black_tc,played)"
        ),
        "{repairs}"
    );
    assert_eq!(
        lines[1],
        "g0,0,0,qango6,a,b,,1-0,group,5,3,4,,per-move=100,per-move=100,true"
    );
    assert!(
        lines[2].ends_with(",2026-12-01T00:23:28Z,per-move=100,per-move=100,true"),
        "{}",
        lines[2]
    );
}

/// A directory written before the time-control columns existed (it has
/// `ended_utc`) resumes: old games' rows get the time control both sides
/// played, new rows each side's own.
#[test]
fn a_games_csv_without_time_controls_is_rebuilt_on_resume() {
    let mut later = record(1);
    later.black_time_control = Some(TimeControl::Clock {
        base_ms: 5000,
        increment_ms: 50,
    });
    let (repairs, lines) = upgrade(
        "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms,ended_utc\n\
         0,0,0,qango6,a,b,,1-0,group,5,3,4,2026-12-01T00:20:00Z\n",
        old_record(Some("2026-12-01T00:20:00Z")),
        later,
    );
    assert!(
        repairs.contains("; now with the columns white_tc,black_tc,played)"),
        "{repairs}"
    );
    assert_eq!(
        lines[1],
        "g0,0,0,qango6,a,b,,1-0,group,5,3,4,2026-12-01T00:20:00Z,per-move=100,per-move=100,true"
    );
    assert!(
        lines[2].ends_with(",per-move=100,5+0.05,true"),
        "{}",
        lines[2]
    );
}
