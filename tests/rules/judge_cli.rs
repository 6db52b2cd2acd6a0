//! `arena judge`: verdicts, errors with the ply, and no panic on any input.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use arena::cli::judge::judge;
use common::arena;
use proptest::prelude::*;
use serde_json::{json, Value};

/// `arena judge` on `input`: its exit status and its verdict lines.
fn judge_lines(input: &[u8]) -> (i32, Vec<Value>) {
    let mut child = arena()
        .arg("judge")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run arena judge");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each verdict line is JSON"))
        .collect();
    (out.status.code().unwrap(), lines)
}

/// `arena judge` on one record: its exit status and its one verdict.
fn run_judge(input: &[u8]) -> (i32, Value) {
    let (code, mut lines) = judge_lines(input);
    assert_eq!(lines.len(), 1, "judge prints one JSON object: {lines:?}");
    (code, lines.remove(0))
}

#[test]
fn a_won_game_reports_pattern_and_cells() {
    let (code, v) = run_judge(br#"{"game": "qango6", "moves": ["a1", "c3", "b1", "d4", "a2"]}"#);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "win");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["reason"], "group");
    assert_eq!(v["plies"], 5);
    assert_eq!(v["cells"], json!(["a1", "b1", "a2"]));
}

#[test]
fn an_unfinished_game_is_ongoing() {
    let (code, v) = run_judge(
        br#"{"game": "quinque", "moves": ["place a1", "place c3"], "result": "ignored"}"#,
    );
    assert_eq!(code, 0);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["winner"], Value::Null);
    assert_eq!(v["to_move"], "white");
    // The position: a1 (row 1, column a) holds white's stone, c3 black's.
    let board = v["board"].as_array().expect("board rows");
    assert_eq!(board.len(), 5);
    assert_eq!(board[0][0], "w1");
    assert_eq!(board[2][2], "b1");
    let stones = board
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|c| *c != ".")
        .count();
    assert_eq!(stones, 2);
}

#[test]
fn errors_name_the_ply_and_the_problem() {
    let (code, v) = run_judge(br#"{"game": "qango6", "moves": ["a1", "a1"]}"#);
    assert_eq!(code, 1);
    assert_eq!(v["error"], "illegal_move");
    assert_eq!(v["ply"], 1);
    assert!(v["message"].as_str().unwrap().contains("a1 is occupied"));

    let (code, v) =
        run_judge(br#"{"game": "qango6", "moves": ["a1", "c3", "b1", "d4", "a2", "f6"]}"#);
    assert_eq!(
        (code, v["error"].as_str(), v["ply"].as_u64()),
        (1, Some("move_after_end"), Some(5))
    );

    let (code, v) = run_judge(br#"{"game": "chess", "moves": []}"#);
    assert_eq!((code, v["error"].as_str()), (1, Some("unknown_variant")));

    let (code, v) = run_judge(b"{\"game\": \"qango6\", \"moves\": [");
    assert_eq!((code, v["error"].as_str()), (1, Some("malformed_json")));

    let (code, v) = run_judge(br#"{"game": "qango6", "moves": ["a1", 7]}"#);
    assert_eq!(
        (code, v["error"].as_str(), v["ply"].as_u64()),
        (1, Some("malformed_record"), Some(1))
    );
}

/// Several records one after another (a `games.jsonl`): one verdict line
/// each, in order, and exit status 1 when one of them is bad.
#[test]
fn several_records_give_one_verdict_line_each() {
    let input = concat!(
        r#"{"game": "qango6", "moves": ["a1", "c3", "b1", "d4", "a2"], "result": "1-0"}"#,
        "\n",
        r#"{"game": "quinque", "moves": ["place a1"]}"#,
        "\n",
        r#"{"game": "qango6", "moves": ["a1", "a1"]}"#,
        "\n",
        r#"{"game": "qango7", "moves": []}"#,
    );
    let (code, lines) = judge_lines(input.as_bytes());
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 4);
    assert_eq!(
        (&lines[0]["winner"], &lines[0]["reason"]),
        (&json!("white"), &json!("group"))
    );
    assert_eq!(
        (&lines[1]["status"], &lines[1]["to_move"]),
        (&json!("ongoing"), &json!("black"))
    );
    assert_eq!(
        (&lines[2]["error"], &lines[2]["ply"]),
        (&json!("illegal_move"), &json!(1))
    );
    assert_eq!(
        (&lines[3]["status"], &lines[3]["plies"]),
        (&json!("ongoing"), &json!(0))
    );
}

#[test]
fn a_missing_file_is_an_error_object() {
    let out = arena()
        .args(["judge", "/nonexistent/game.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("/nonexistent/game.json"));
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = judge(&bytes);
    }

    #[test]
    fn arbitrary_move_lists_never_panic(moves in proptest::collection::vec("[a-h][0-9]{1,2}|place [a-f][1-6]|capture [a-e][1-5] [a-e][1-5]", 0..30), v in 0..11usize) {
        let game = arena::games::Variant::all()[v].id;
        let record = json!({"game": game, "moves": moves});
        let verdict = judge(record.to_string().as_bytes());
        // Either a verdict or an error that points at a move.
        match verdict {
            Ok(v) => prop_assert!(v["status"].is_string()),
            Err(e) => prop_assert!(e["ply"].is_u64()),
        }
    }
}

/// PROTOCOL.md: a move is exactly one of the strings in `legal_moves`.
/// Other spellings of a legal move are illegal, and the message shows the
/// exact one.
#[test]
fn only_the_exact_spelling_is_a_move() {
    let cases: [(&str, &[&str], &str); 5] = [
        ("qango6", &["C3"], "c3"),
        ("qango6", &[" c3 "], "c3"),
        ("qango6", &["c03"], "c3"),
        ("quinque", &["place  a1"], "place a1"),
        ("quinque", &["Place a1"], "place a1"),
    ];
    for (game, moves, exact) in cases {
        let record = json!({"game": game, "moves": moves});
        let (code, v) = run_judge(record.to_string().as_bytes());
        assert_eq!(
            (code, v["error"].as_str()),
            (1, Some("illegal_move")),
            "{moves:?}: {v}"
        );
        let message = v["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("did you mean `{exact}`?")),
            "{moves:?}: {message}"
        );
    }
    // Board order of a capture's doubles (docs/RULES.md): d4 is captured
    // with the doubles at b2 and e5, listed b2 first.
    let setup = [
        "place b2",
        "place d4",
        "double b2",
        "double d4",
        "place e5",
        "place a5",
        "double e5",
        "place a4",
    ];
    let mut moves: Vec<&str> = setup.to_vec();
    moves.push("capture d4 b2 e5");
    let (code, v) = run_judge(
        json!({"game": "quinque", "moves": moves})
            .to_string()
            .as_bytes(),
    );
    assert_eq!(code, 0, "{v}");
    *moves.last_mut().unwrap() = "capture d4 e5 b2";
    let (code, v) = run_judge(
        json!({"game": "quinque", "moves": moves})
            .to_string()
            .as_bytes(),
    );
    assert_eq!((code, v["ply"].as_u64()), (1, Some(8)), "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `capture d4 b2 e5`?"),
        "{v}"
    );
}
