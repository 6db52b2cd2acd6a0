//! The journal survives crashes: torn last lines are dropped and the next
//! append starts on a fresh line, a game in only one of games.csv and
//! games.jsonl is dropped from both (so it gets replayed), and damage that a
//! crash cannot cause is an error naming the file and line.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use arena::protocol::TimeControl;
use arena::referee::{GameRecord, GameRow};
use arena::tournament::journal::{csv_header, format_row, GAMES_CSV, GAMES_JSONL};
use arena::tournament::Journal;
use serde_json::json;

/// Game `id`'s record, at its place (`id`, round 0, pair `id / 2`): a
/// 5-ply qango6 game between a and b that white wins, colours by id.
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
    std::fs::read_to_string(dir.join(GAMES_JSONL))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(dir: &Path) -> (Vec<u64>, Vec<u64>) {
    let csv = std::fs::read_to_string(dir.join(GAMES_CSV)).unwrap();
    let mut lines = csv.lines();
    assert_eq!(format!("{}\n", lines.next().unwrap()), csv_header());
    let csv_ids = lines
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    let jsonl_ids = jsonl_records(dir)
        .iter()
        .map(|r| r["id"].as_u64().unwrap())
        .collect();
    (csv_ids, jsonl_ids)
}

#[test]
fn clean_journal_recovers_every_game_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1, 2]);
    let read = |name| std::fs::read(dir.path().join(name)).unwrap();
    let before = (read(GAMES_CSV), read(GAMES_JSONL));
    let (_, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert!(recovery.repairs.is_empty(), "{:?}", recovery.repairs);
    let got: Vec<u64> = recovery.finished.iter().collect();
    assert_eq!(got, [0, 1, 2]);
    assert_eq!((read(GAMES_CSV), read(GAMES_JSONL)), before);
    let record_1 = &jsonl_records(dir.path())[1];
    assert_eq!(record_1["moves"], json!(record(1).moves));
    assert_eq!(record_1["pair"], 0);
}

#[test]
fn torn_csv_line_is_dropped_and_next_append_starts_fresh() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1]);
    // Game 2 reached games.jsonl; the crash cut its games.csv row short.
    let mut j = Journal::recover(dir.path(), accept_all).unwrap().0;
    j.append(&record(2)).unwrap();
    drop(j);
    let csv_path = dir.path().join(GAMES_CSV);
    let full = std::fs::read(&csv_path).unwrap();
    let row2 = format_row(&row(2)).unwrap();
    std::fs::write(&csv_path, &full[..full.len() - row2.len() + 7]).unwrap();

    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    let got: Vec<u64> = recovery.finished.iter().collect();
    assert_eq!(got, [0, 1]);
    let repairs = recovery.repairs.join("\n");
    assert!(repairs.contains("unfinished last line"), "{repairs}");
    assert!(
        repairs.contains("game 2 is in games.jsonl but not in games.csv"),
        "{repairs}"
    );
    assert!(std::fs::read(&csv_path).unwrap().ends_with(b"\n"));
    assert_eq!(ids(dir.path()), (vec![0, 1], vec![0, 1]));

    journal.append(&record(2)).unwrap();
    journal.append(&record(3)).unwrap();
    assert_eq!(ids(dir.path()), (vec![0, 1, 2, 3], vec![0, 1, 2, 3]));
}

#[test]
fn torn_jsonl_line_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0]);
    append_raw(&dir.path().join(GAMES_JSONL), br#"{"id":1,"game":"qan"#);
    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert_eq!(recovery.finished.len(), 1);
    assert_eq!(recovery.repairs.len(), 1, "{:?}", recovery.repairs);
    journal.append(&record(1)).unwrap();
    assert_eq!(ids(dir.path()), (vec![0, 1], vec![0, 1]));
}

#[test]
fn one_sided_games_are_dropped_from_both_files() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1, 2, 3]);
    // Game 1 only in csv, game 3 only in jsonl.
    let jsonl_path = dir.path().join(GAMES_JSONL);
    let kept: Vec<String> = std::fs::read_to_string(&jsonl_path)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("\"id\":1,") && !l.ends_with("\"id\":1}"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(kept.len(), 3);
    std::fs::write(&jsonl_path, kept.concat()).unwrap();
    let csv_path = dir.path().join(GAMES_CSV);
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let without_3: String = csv
        .lines()
        .filter(|l| !l.starts_with("3,"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&csv_path, without_3).unwrap();

    let (_, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    let got: Vec<u64> = recovery.finished.iter().collect();
    assert_eq!(got, [0, 2]);
    assert_eq!(recovery.repairs.len(), 2, "{:?}", recovery.repairs);
    assert_eq!(ids(dir.path()), (vec![0, 2], vec![0, 2]));
    // A second recovery finds nothing left to repair.
    let (_, again) = Journal::recover(dir.path(), accept_all).unwrap();
    assert!(again.repairs.is_empty(), "{:?}", again.repairs);
}

#[test]
fn duplicates_keep_the_first_copy() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1]);
    append_raw(
        &dir.path().join(GAMES_JSONL),
        format!("{}\n", json!({"id": 1, "game": "x"})).as_bytes(),
    );
    append_raw(
        &dir.path().join(GAMES_CSV),
        format_row(&row(1)).unwrap().as_bytes(),
    );
    let (_, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert_eq!(recovery.finished.len(), 2);
    assert_eq!(jsonl_records(dir.path())[1]["game"], "qango6");
    assert_eq!(ids(dir.path()), (vec![0, 1], vec![0, 1]));
}

#[test]
fn damage_a_crash_cannot_cause_is_an_error_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    journal_with(dir.path(), &[0, 1]);
    let csv_path = dir.path().join(GAMES_CSV);
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    std::fs::write(&csv_path, csv.replacen("\n0,", "\nzero,", 1)).unwrap();
    let err = format!(
        "{:#}",
        Journal::recover(dir.path(), accept_all).unwrap_err()
    );
    assert!(err.contains("games.csv:2"), "{err}");
    std::fs::write(&csv_path, &csv).unwrap();

    let jsonl_path = dir.path().join(GAMES_JSONL);
    let jsonl = std::fs::read_to_string(&jsonl_path).unwrap();
    std::fs::write(&jsonl_path, format!("not json\n{jsonl}")).unwrap();
    let err = format!(
        "{:#}",
        Journal::recover(dir.path(), accept_all).unwrap_err()
    );
    assert!(err.contains("games.jsonl:1"), "{err}");
    std::fs::write(&jsonl_path, &jsonl).unwrap();

    let reject_1 = |r: &GameRow| {
        if r.id == 1 {
            anyhow::bail!("game 1 is not in the schedule")
        }
        Ok(())
    };
    let err = format!("{:#}", Journal::recover(dir.path(), reject_1).unwrap_err());
    assert!(
        err.contains("games.csv:3") && err.contains("not in the schedule"),
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
    journal.append(&record(0)).unwrap();
    assert_eq!(ids(dir.path()), (vec![0], vec![0]));
}

/// Resumes a directory whose games.csv is `old` (a header and row 0 of an
/// older arena, written out by the test) and appends `later` as game 1.
/// Returns what recovery repaired and the lines of games.csv; checks the
/// file got the current header and a second recovery finds nothing to do.
fn upgrade(old: &str, later: GameRecord) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(GAMES_CSV), old).unwrap();
    let written = serde_json::to_string(&record(0)).unwrap();
    std::fs::write(dir.path().join(GAMES_JSONL), format!("{written}\n")).unwrap();
    let (mut journal, recovery) = Journal::recover(dir.path(), accept_all).unwrap();
    assert_eq!(recovery.finished.len(), 1);
    journal.append(&later).unwrap();
    drop(journal);
    let csv = std::fs::read_to_string(dir.path().join(GAMES_CSV)).unwrap();
    let lines: Vec<String> = csv.lines().map(String::from).collect();
    assert_eq!(format!("{}\n", lines[0]), csv_header());
    let (_, again) = Journal::recover(dir.path(), accept_all).unwrap();
    assert!(again.repairs.is_empty(), "{:?}", again.repairs);
    (recovery.repairs.join("\n"), lines)
}

/// A games.csv written before the `ended_utc` column existed resumes: its
/// rows get the missing columns empty, the file the current header, and new
/// rows follow it.
#[test]
fn a_games_csv_without_ended_utc_is_upgraded_on_resume() {
    let mut later = record(1);
    later.ended_utc = "2026-12-01T00:23:28Z".into();
    let (repairs, lines) = upgrade(
        "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms\n\
         0,0,0,qango6,a,b,,1-0,group,5,3,4\n",
        later,
    );
    assert!(
        repairs.contains("added the columns ended_utc,white_tc,black_tc"),
        "{repairs}"
    );
    assert_eq!(lines[1], "0,0,0,qango6,a,b,,1-0,group,5,3,4,,,");
    assert!(
        lines[2].ends_with(",2026-12-01T00:23:28Z,per-move=100,per-move=100"),
        "{}",
        lines[2]
    );
}

/// A games.csv written before the time-control columns existed (it has
/// `ended_utc`) resumes: old rows get `white_tc` and `black_tc` empty, new
/// rows carry each side's time control.
#[test]
fn a_games_csv_without_time_controls_is_upgraded_on_resume() {
    let mut later = record(1);
    later.black_time_control = Some(TimeControl::Clock {
        base_ms: 5000,
        increment_ms: 50,
    });
    let (repairs, lines) = upgrade(
        "id,round,pair,variant,white,black,opening,result,reason,plies,white_time_ms,black_time_ms,ended_utc\n\
         0,0,0,qango6,a,b,,1-0,group,5,3,4,2026-12-01T00:20:00Z\n",
        later,
    );
    assert!(
        repairs.contains("added the columns white_tc,black_tc"),
        "{repairs}"
    );
    assert_eq!(
        lines[1],
        "0,0,0,qango6,a,b,,1-0,group,5,3,4,2026-12-01T00:20:00Z,,"
    );
    assert!(lines[2].ends_with(",per-move=100,5+0.05"), "{}", lines[2]);
}
