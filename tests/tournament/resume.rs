//! The crash test: `arena tournament` is SIGKILLed in the middle of its
//! games, the crash is made worse by hand (a game whose record reached
//! games.jsonl but whose games.csv row was cut short), and `--resume DIR`
//! must finish with exactly the scheduled games, each once, in both files,
//! keeping every game finished before the crash untouched. games.csv is
//! derived from games.jsonl: an edited row is rebuilt from its record. And
//! an SPRT cut short resumes through `arena tournament --resume` (the one
//! resume command), ending as an SPRT ends, with its exit status; `arena
//! sprt --resume` still works.

use crate::common;

use std::fs::OpenOptions;
use std::io::Write;

use common::tournament::*;
use common::{live_processes_with_arg, unique_tag};

const GAMES: u64 = 18;

#[test]
fn sigkill_mid_tournament_then_resume_plays_exactly_the_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let tag = unique_tag("tournament-sigkill");
    let config = write_config(
        dir.path(),
        "games_per_pairing = 6\ntime_control = \"per-move=2000\"\nconcurrency = 2\nseed = 9\nopening_plies = 2",
        &[
            TestBot::tagged("a", "tests/bots/paced_bot.py", &["15"], &tag),
            TestBot::tagged("b", "tests/bots/paced_bot.py", &["15"], &tag),
            TestBot::tagged("c", "tests/bots/good_bot.py", &[], &tag),
        ],
    );
    kill_after_rows(&config, &out, dir.path(), 3);

    let before_kill = csv_rows(&out);
    let finished_ids = assert_consistent(&out);
    assert!(
        (finished_ids.len() as u64) < GAMES,
        "the tournament finished before it was killed; slow the bots down"
    );
    let csv_before = std::fs::read_to_string(out.join("games.csv")).unwrap();

    // Make it a crash in the middle of recording a game: the next unplayed
    // game's record reached games.jsonl, and its row was cut short in
    // games.csv.
    let (schedule, names) = round_robin_schedule(&out);
    let half_recorded = schedule
        .iter()
        .find(|g| !finished_ids.contains(&g.id))
        .unwrap();
    let record = record_of(&out, half_recorded, &names);
    let mut jsonl = OpenOptions::new()
        .append(true)
        .open(out.join("games.jsonl"))
        .unwrap();
    writeln!(jsonl, "{record}").unwrap();
    let mut csv = OpenOptions::new()
        .append(true)
        .open(out.join("games.csv"))
        .unwrap();
    let (id, round, pair) = (half_recorded.id, half_recorded.round, half_recorded.pair);
    write!(csv, "g{id},{round},{pair},qango6,a,b,").unwrap();
    drop((jsonl, csv));

    // Orphaned bots see their input close and exit by themselves.
    wait_until_gone(&tag);

    let output = run_arena(&[
        "tournament",
        "--resume",
        out.to_str().unwrap(),
        "--no-progress",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("resume: games.csv rebuilt from games.jsonl")
            && stdout.contains("was unfinished (cut off by a crash)"),
        "{stdout}"
    );
    assert_exactly_games(&out, GAMES);
    // The half-recorded game counts: it is not played again, and its row
    // is its record's.
    let records = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert_eq!(records.matches(&record).count(), 1, "{records}");
    let rows = csv_rows(&out);
    let row = rows.iter().find(|r| r.id == id).unwrap();
    assert_eq!(
        (row.result.as_str(), row.reason.to_string().as_str()),
        ("1-0", "timeout")
    );
    // Games finished before the crash are kept as they were, not replayed.
    let after = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        after.starts_with(&csv_before),
        "finished rows were rewritten"
    );
    assert_eq!(&rows[..before_kill.len()], &before_kill[..]);
    // Every game matches its scheduled bots and opening.
    assert_rows_follow_schedule(&rows, &schedule, &names);
    assert_eq!(line_count(&out.join("standings.csv")), 1 + 3);
    assert!(live_processes_with_arg(&tag).is_empty());
}

/// A games.jsonl line for `game` of the schedule as if it had been played:
/// a record of the run in `out` made over into `game`'s (its place, bots
/// and opening; black lost on time after the opening).
fn record_of(
    out: &std::path::Path,
    game: &arena::tournament::ScheduledGame,
    names: &[String],
) -> String {
    let mut record = jsonl_records(out).swap_remove(0);
    let fields = record.as_object_mut().unwrap();
    for log in ["white_log", "black_log", "white_trace", "black_trace"] {
        fields.remove(log);
    }
    let plies = game.opening.len();
    let changes = serde_json::json!({
        "game_id": game.game_id(), "round": game.round, "pair": game.pair,
        "white": names[game.white], "black": names[game.black],
        "opening": game.opening, "moves": game.opening, "move_times_ms": vec![0; plies],
        "plies": plies, "result": "1-0", "winner": "white", "reason": "timeout",
        "message": "black ran out of time", "cells": [],
        "white_time_ms": 0, "black_time_ms": 2000,
    });
    for (key, value) in changes.as_object().unwrap() {
        fields.insert(key.clone(), value.clone());
    }
    record.to_string()
}

/// The 1-based number of the line of `out/games.csv` about game `id`.
fn csv_line_of_game(out: &std::path::Path, id: u64) -> usize {
    let text = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let prefix = format!("g{id},");
    1 + text
        .lines()
        .position(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("game {id} not in games.csv"))
}

/// games.csv is derived from games.jsonl: a row edited to say something
/// else than its record is not believed but rebuilt from the record, and
/// the resume says so.
#[test]
fn a_row_that_contradicts_its_record_is_rebuilt_from_it_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bots = instant_bot_flags();
    let mut args = vec!["tournament", "--games", "4", "--out", out.to_str().unwrap()];
    args.extend(bots.iter().map(String::as_str));
    args.push("--no-progress");
    let played = run_arena(&args);
    assert_eq!(played.status.code(), Some(0), "{}", text(&played));
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    // Game 2's row now says black won; its record still says white did.
    let csv_line = csv_line_of_game(&out, 2);
    let edited: Vec<String> = csv
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i + 1 == csv_line {
                assert!(l.contains(",1-0,"), "{l}");
                l.replace(",1-0,", ",0-1,")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(out.join("games.csv"), edited.join("\n") + "\n").unwrap();

    let resumed = resume_tournament(&out);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        stdout.contains(&format!(
            "resume: games.csv rebuilt from games.jsonl, the journal it is derived from: \
             line {csv_line} was not the row that game g2's record gives"
        )),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(out.join("games.csv")).unwrap(), csv);
    assert_eq!(
        std::fs::read_to_string(out.join("games.jsonl")).unwrap(),
        jsonl
    );
}

/// The files of a run cut short as an older arena wrote them: each
/// games.jsonl line with the number also as `"id":N`, first, and games.csv
/// with a column `id` of bare numbers. `--resume` plays the rest (the
/// journal's lines are kept as they are, games.csv is rebuilt in today's
/// spelling) and `arena report` reads the mixed journal.
#[test]
fn a_run_written_by_an_older_arena_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bots = instant_bot_flags();
    let mut args = vec!["tournament", "--games", "6", "--out", out.to_str().unwrap()];
    args.extend(bots.iter().map(String::as_str));
    args.push("--no-progress");
    let played = run_arena(&args);
    assert_eq!(played.status.code(), Some(0), "{}", text(&played));
    let whole_csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    keep_first_games(&out, 3);
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let old_jsonl: String = jsonl
        .lines()
        .map(|l| {
            let number = game_number(&serde_json::from_str(l).unwrap());
            format!("{{\"id\":{number},{}\n", &l[1..])
        })
        .collect();
    std::fs::write(out.join("games.jsonl"), &old_jsonl).unwrap();
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let old_csv = csv.replacen("game_id,", "id,", 1).replace("\ng", "\n");
    // Bare numbers (which three games finished first depends on the
    // machine: two are played at once).
    assert!(
        old_csv.starts_with("id,round,pair,")
            && !old_csv.contains("\ng")
            && old_csv.lines().count() == 4,
        "{old_csv}"
    );
    std::fs::write(out.join("games.csv"), old_csv).unwrap();

    let resumed = resume_tournament(&out);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        stdout.contains("the column `id` is now `game_id`, spelled gN"),
        "{stdout}"
    );
    let after = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    assert!(after.starts_with(&old_jsonl), "the older lines were kept");
    assert_eq!(after.lines().count(), 6);
    let rows = csv_rows(&out);
    assert_eq!(
        rows.iter()
            .map(|r| r.id)
            .collect::<std::collections::BTreeSet<_>>(),
        (0..6).collect()
    );
    // The rebuilt and appended rows are today's, as an unbroken run writes them.
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(csv.starts_with(whole_csv.lines().next().unwrap()), "{csv}");
    assert!(csv.lines().skip(1).all(|l| l.starts_with('g')), "{csv}");
    let report = run_arena(&["report", out.to_str().unwrap()]);
    assert_eq!(report.status.code(), Some(0), "{}", text(&report));
}

/// Cuts the journal in `out` back to its first `games` games (in both
/// files), as a crash after them would leave it.
fn keep_first_games(out: &std::path::Path, games: usize) {
    for (file, lines) in [("games.csv", 1 + games), ("games.jsonl", games)] {
        let path = out.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let kept: String = text.lines().take(lines).map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, kept).unwrap();
    }
}

#[test]
fn an_sprt_resumes_through_arena_tournament_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // A bot whose first move is off the board: it loses every game.
    let script = dir.path().join("lose.sh");
    std::fs::write(&script, LOSING_SH).unwrap();
    let illegal = format!("lose=sh {}", script.display());
    let sprt = |out: &std::path::Path, a: &str, b: &str, extra: &[&str]| {
        let mut args = vec![
            "sprt", a, b, "--elo0", "0", "--elo1", "200", "-j", "1", "--seed", "4", "--out",
        ];
        args.push(out.to_str().unwrap());
        args.extend(extra);
        args.push("--no-progress");
        run_arena(&args)
    };
    // The instant bot wins every game against it.
    let first = sprt(&out, &format!("win={INSTANT_BOT}"), &illegal, &[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first));
    let stdout = String::from_utf8_lossy(&first.stdout).into_owned();
    let pairs = pair_numbers(&stdout).len() as u64;
    assert!(pairs >= 3, "{stdout}");
    let verdict = stdout.lines().last().unwrap().to_string();
    assert!(verdict.starts_with("H1 accepted"), "{stdout}");
    let before = games_csv_without_timing(&out);

    // A crash after the first pair: the tournament command resumes the SPRT.
    keep_first_games(&out, 2);
    let resumed = resume_tournament(&out);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    let stdout = String::from_utf8_lossy(&resumed.stdout).into_owned();
    assert!(
        stdout.contains("resume: 2 games already played; LLR "),
        "{stdout}"
    );
    // The pairs count on from the one played before, to the same decision.
    assert_eq!(
        pair_numbers(&stdout),
        (2..=pairs).collect::<Vec<_>>(),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last().unwrap(), verdict, "{stdout}");
    assert_eq!(games_csv_without_timing(&out), before);

    // `arena sprt --resume` is the same command: a decided test plays nothing.
    let again = run_arena(&["sprt", "--resume", out.to_str().unwrap(), "--no-progress"]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again));
    let stdout = String::from_utf8_lossy(&again.stdout).into_owned();
    assert!(pair_numbers(&stdout).is_empty(), "{stdout}");
    assert_eq!(stdout.lines().last().unwrap(), verdict, "{stdout}");
    assert_eq!(games_csv_without_timing(&out), before);

    // Undecided at its pair limit after a resume: the SPRT's exit status 3.
    let limited = dir.path().join("limited");
    let instant = format!("a={INSTANT_BOT}");
    let twin = format!("b={INSTANT_BOT}");
    let first = sprt(&limited, &instant, &twin, &["--max-pairs", "2"]);
    assert_eq!(first.status.code(), Some(3), "{}", text(&first));
    keep_first_games(&limited, 3);
    let resumed = resume_tournament(&limited);
    assert_eq!(resumed.status.code(), Some(3), "{}", text(&resumed));
    let stdout = String::from_utf8_lossy(&resumed.stdout).into_owned();
    assert_eq!(pair_numbers(&stdout), [2], "{stdout}");
    assert!(stdout.contains("\nUndecided after 2 pairs: "), "{stdout}");
    assert_exactly_games(&limited, 4);
}
