//! The crash test: `arena tournament` is SIGKILLed in the middle of its
//! games, the crash is made worse by hand (a torn games.csv line and a game
//! that reached only games.jsonl), and `--resume DIR` must finish with
//! exactly the scheduled games, each once, in both files, keeping every
//! game finished before the crash untouched.

mod common;

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
    // game reached games.jsonl, and another's row was cut short in games.csv.
    let (schedule, names) = round_robin_schedule(&out);
    let mut unplayed = schedule.iter().filter(|g| !finished_ids.contains(&g.id));
    let half_recorded = unplayed.next().unwrap();
    let torn = unplayed.next().unwrap();
    let mut jsonl = OpenOptions::new()
        .append(true)
        .open(out.join("games.jsonl"))
        .unwrap();
    writeln!(
        jsonl,
        "{}",
        serde_json::json!({"id": half_recorded.id, "game": "qango6", "moves": []})
    )
    .unwrap();
    let mut csv = OpenOptions::new()
        .append(true)
        .open(out.join("games.csv"))
        .unwrap();
    write!(csv, "{},{},{},qango6,a,b,", torn.id, torn.round, torn.pair).unwrap();
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
    assert!(stdout.contains("unfinished last line"), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "game {} is in games.jsonl but not in games.csv",
            half_recorded.id
        )),
        "{stdout}"
    );

    assert_exactly_games(&out, GAMES);
    // Games finished before the crash are kept as they were, not replayed.
    let after = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        after.starts_with(&csv_before),
        "finished rows were rewritten"
    );
    let rows = csv_rows(&out);
    assert_eq!(&rows[..before_kill.len()], &before_kill[..]);
    // Every game matches its scheduled bots and opening.
    assert_rows_follow_schedule(&rows, &schedule, &names);
    assert_eq!(line_count(&out.join("standings.csv")), 1 + 3);
    assert!(live_processes_with_arg(&tag).is_empty());
}
