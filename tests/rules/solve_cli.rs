//! `arena solve`: values for the side to move, a move that keeps them,
//! `unknown` past the budget, and judge's errors for bad records.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use common::arena;
use serde_json::Value;

fn run(cmd: &str, args: &[&str], input: &str) -> (i32, Value) {
    let mut child = arena()
        .arg(cmd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run arena");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    (out.status.code().unwrap(), value)
}

fn solve(input: &str) -> (i32, Value) {
    run("solve", &[], input)
}

/// A record of `game` with `moves`.
fn record(game: &str, moves: &[&str]) -> String {
    serde_json::json!({"game": game, "moves": moves}).to_string()
}

#[test]
fn the_empty_qango6_board_is_a_first_player_win() {
    // GABOR's proof-number search: Qango 6 is a first-player win.
    let (code, v) = solve(&record("qango6", &[]));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["value"], "win");
    assert_eq!(v["to_move"], "white");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    // The best move is legal: judge replays it.
    let best = v["best"].as_str().unwrap();
    let (code, j) = run("judge", &[], &record("qango6", &[best]));
    assert_eq!((code, j["status"].as_str()), (0, Some("ongoing")), "{j}");
}

#[test]
fn a_win_in_one_is_found_and_its_move_completes_the_pattern() {
    // a1 b1 a2 is a colour group of Qango 6 (RULES.md): white to move wins.
    let moves = ["a1", "c3", "b1", "d4"];
    let (code, v) = solve(&record("qango6", &moves));
    assert_eq!((code, v["value"].as_str()), (0, Some("win")), "{v}");
    let best = v["best"].as_str().unwrap();
    let mut played = moves.to_vec();
    played.push(best);
    let (_, j) = run("judge", &[], &record("qango6", &played));
    assert_eq!(j["status"], "win", "{best} does not win at once: {j}");
    assert_eq!(j["winner"], "white");
}

#[test]
fn a_finished_game_is_lost_for_the_side_to_move_and_has_no_best_move() {
    let (code, v) = solve(&record("qango6", &["a1", "c3", "b1", "d4", "a2"]));
    assert_eq!(code, 0);
    assert_eq!(v["value"], "loss", "{v}");
    assert!(v.get("best").is_none(), "{v}");
    assert_eq!(v["to_move"], Value::Null);
}

#[test]
fn past_its_budget_the_value_is_unknown() {
    // Nobody has proved the 6x6 edge start; a millisecond certainly cannot.
    let (code, v) = run(
        "solve",
        &["--budget-ms", "1"],
        &record("qango6-tournament", &[]),
    );
    assert_eq!(code, 0);
    assert_eq!(v["value"], "unknown", "{v}");
    assert!(v.get("best").is_none(), "{v}");
    assert!(v["ms"].as_u64().unwrap() < 1000, "{v}");
}

#[test]
fn bad_records_get_judges_errors() {
    let (code, v) = solve(&record("qango6", &["a1", "a1"]));
    assert_eq!(code, 1);
    assert_eq!(v["error"], "illegal_move");
    assert_eq!(v["ply"], 1);
    let (code, v) = solve("{not json");
    assert_eq!((code, v["error"].as_str()), (1, Some("malformed_json")));
    let (code, v) = solve(&record("qango9", &[]));
    assert_eq!((code, v["error"].as_str()), (1, Some("unknown_variant")));
}

#[test]
fn a_quinque_ending_is_solved() {
    // White builds a line on row 1 while black places far away; after
    // four white stones on a1..d1, white to move places e1 and wins.
    let moves = [
        "place a1", "place a5", "place b1", "place b5", "place c1", "place c5", "place d1",
        "place e4",
    ];
    let (code, v) = solve(&record("quinque", &moves));
    assert_eq!((code, v["value"].as_str()), (0, Some("win")), "{v}");
    let mut played = moves.to_vec();
    let best = v["best"].as_str().unwrap().to_string();
    played.push(&best);
    let (_, j) = run("judge", &[], &record("quinque", &played));
    assert_eq!(j["status"], "win", "{best}: {j}");
}
