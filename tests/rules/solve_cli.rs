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

/// The answer without the work it took (which varies run to run).
fn value_of(mut answer: Value) -> Value {
    let object = answer.as_object_mut().unwrap();
    object.remove("ms");
    object.remove("nodes");
    answer
}

#[test]
fn moves_as_text_give_the_records_answer() {
    // Qango: a move per word; Quinque: an action's verb starts a move.
    let cases: [(&str, &str, &[&str]); 3] = [
        ("qango6", "a1 c3 b1 d4", &["a1", "c3", "b1", "d4"]),
        ("qango7", "d4,a1, d3", &["d4", "a1", "d3"]),
        (
            "quinque",
            "place b2, place c3 double b2",
            &["place b2", "place c3", "double b2"],
        ),
    ];
    for (game, text, moves) in cases {
        let budget = ["--budget-ms", "300"];
        let (code, from_record) = run("solve", &budget, &record(game, moves));
        let mut args = vec![game, "--moves", text];
        args.extend(budget);
        let (text_code, from_text) = run("solve", &args, "");
        assert_eq!((text_code, code), (0, 0), "{from_text} {from_record}");
        assert_eq!(from_text["plies"], moves.len(), "{from_text}");
        // Both proved, or the budget ran out for the same position.
        if from_record["value"] != "unknown" && from_text["value"] != "unknown" {
            assert_eq!(value_of(from_text), value_of(from_record));
        }
    }
    // An illegal move is judge's error, with its ply.
    let (code, v) = run("solve", &["qango6", "--moves", "c3 c3"], "");
    assert_eq!(
        (code, v["error"].as_str(), v["ply"].as_u64()),
        (1, Some("illegal_move"), Some(1))
    );
}

#[test]
fn a_position_of_a_runs_game_is_named_by_its_id_and_ply() {
    let tmp = tempfile::tempdir().unwrap();
    let config = common::tournament::write_instant_config(
        tmp.path(),
        "variants = [\"qango6\"]\ngames_per_pairing = 2\nseed = 5",
        &["a", "b"],
    );
    let out = tmp.path().join("run");
    let done = common::tournament::run_tournament(&config, &out);
    assert!(done.status.success(), "{}", common::tournament::text(&done));
    let game = common::tournament::jsonl_records(&out)
        .into_iter()
        .find(|r| r["game_id"] == "g1")
        .unwrap();
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let dir = out.to_str().unwrap();
    for ply in [0, moves.len() - 5, moves.len() - 1] {
        let (code, v) = run(
            "solve",
            &[dir, "--game", "g1", "--ply", &ply.to_string()],
            "",
        );
        let (_, expected) = solve(&record("qango6", &moves[..ply]));
        assert_eq!(code, 0, "{v}");
        assert_eq!(value_of(v), value_of(expected), "ply {ply}");
    }
    // Without --ply: where the game ended (its last move won: the mover's
    // opponent, to move, has lost).
    let (code, v) = run("solve", &[dir, "--game", "1"], "");
    assert_eq!(
        (code, v["plies"].as_u64()),
        (0, Some(moves.len() as u64)),
        "{v}"
    );
    let past = (moves.len() + 1).to_string();
    let (code, v) = run("solve", &[dir, "--game", "g1", "--ply", &past], "");
    assert_eq!((code, v["error"].as_str()), (1, Some("bad_ply")), "{v}");
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains(&format!("0 to {}", moves.len())));
    let (code, v) = run("solve", &[dir, "--game", "g9"], "");
    assert_eq!(
        (code, v["error"].as_str()),
        (1, Some("unknown_game")),
        "{v}"
    );
}
