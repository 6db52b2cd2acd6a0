//! The engine's solver share (`--solve-share`): in a proven win it plays a
//! move that keeps the win, in a proven draw never a losing move, and with
//! `--solve-share 0` it answers exactly as the search alone does. Every
//! claim is checked with a fresh solver, not with the engine's own words.

use std::io::Write;
use std::process::{Command, Stdio};

use arena_engine::search::{choose_move, SearchLimits};
use arena_engine::session::turn_seed;
use arena_rules::games::{Position, Variant};
use arena_solver::{Budget, Solver, Value};
use serde_json::{json, Value as Json};

const ENGINE: &str = env!("CARGO_BIN_EXE_arena-engine");

/// qango6, White to move: a proven win that the depth-1 search misses (it
/// plays c2, after which Black wins).
const WON: &[&str] = &["b5", "e3", "c1", "c6", "b6", "c5", "f3", "f2", "d5", "d4"];

/// qango6, White to move: a proven draw in which 15 of the 16 moves lose.
const DRAWN: &[&str] = &[
    "d3", "c1", "a1", "d2", "c3", "f2", "b4", "d5", "f6", "f5", "e2", "a3", "b2", "f1", "e1", "d4",
    "e4", "c4", "c5", "f4",
];

fn position(history: &[&str]) -> Position {
    let mut pos = Position::new(Variant::by_id("qango6").unwrap());
    for m in history {
        pos.play_str(m).unwrap();
    }
    pos
}

/// The value, for the side to move, that a fresh solver proves.
fn proven(pos: &Position) -> Option<Value> {
    let mut solver = Solver::new(pos.variant(), 64 << 20);
    solver.solve(pos, Budget::millis(10_000)).value
}

/// The mover's value after playing `mv` in `pos` (the child's value flipped).
fn value_after(pos: &Position, mv: &str) -> Option<Value> {
    let mut child = pos.clone();
    child.play_str(mv).unwrap();
    proven(&child).map(Value::flip)
}

/// The engine's answers to one turn per history (game ids g0, g1, ...),
/// each with a hard limit of `move_ms`.
fn answers(args: &[&str], histories: &[&[&str]], move_ms: u64) -> Vec<Json> {
    let mut child = Command::new(ENGINE)
        .args(args)
        // No settled table: the tests must not read or fill the user's cache.
        .env("ARENA_TABLE_DIR", "off")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start arena-engine");
    let mut input = String::new();
    for (k, history) in histories.iter().enumerate() {
        let pos = position(history);
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        let turn = json!({"type": "turn", "game_id": format!("g{k}"), "variant": "qango6",
            "color": pos.to_move().name(), "ply": pos.ply(), "state": pos.state_json(),
            "history": history, "legal_moves": legal,
            "clock": {"white_ms": null, "black_ms": null, "move_ms": move_ms}});
        input.push_str(&format!("{turn}\n"));
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child
        .wait_with_output()
        .expect("engine exits at end of input");
    assert!(out.status.success(), "{:?}", out.status);
    let lines: Vec<Json> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), histories.len(), "{lines:?}");
    lines
}

fn mv(answer: &Json) -> &str {
    answer["move"].as_str().expect("a move")
}

#[test]
fn a_proven_win_is_kept_where_the_search_alone_throws_it_away() {
    let pos = position(WON);
    assert_eq!(proven(&pos), Some(Value::Win));
    let blind = answers(&["--depth", "1", "--solve-share", "0"], &[WON], 2000);
    assert_eq!(value_after(&pos, mv(&blind[0])), Some(Value::Loss));
    // 2000 ms per move: 500 ms planned, half of it the solver's.
    let seeing = answers(&["--depth", "1", "--solve-share", "0.5"], &[WON], 2000);
    let answer = &seeing[0];
    assert_eq!(value_after(&pos, mv(answer)), Some(Value::Win), "{answer}");
    assert_eq!(answer["comment"], "proven win", "{answer}");
}

#[test]
fn a_proven_draw_is_never_given_away() {
    let pos = position(DRAWN);
    assert_eq!(proven(&pos), Some(Value::Draw));
    let losing = pos
        .legal_moves()
        .iter()
        .filter(|m| value_after(&pos, &m.to_string()) == Some(Value::Loss))
        .count();
    assert_eq!(losing, pos.legal_moves().len() - 1);
    for seed in ["1", "2", "3"] {
        let got = answers(
            &["--depth", "2", "--seed", seed, "--solve-share", "0.1"],
            &[DRAWN],
            2000,
        );
        assert_eq!(
            value_after(&pos, mv(&got[0])),
            Some(Value::Draw),
            "{}",
            got[0]
        );
    }
}

/// Share 0, and `--depth` without `--movetime` (whose default share is 0,
/// so that its moves stay reproducible), answer as the search alone: the
/// same move and the same comment, in the won position too.
#[test]
fn share_zero_answers_as_the_search_alone() {
    let histories: [&[&str]; 4] = [WON, DRAWN, &["c3"], &["a1", "f6", "c4"]];
    let explicit: &[&str] = &["--depth", "3", "--seed", "7", "--solve-share", "0"];
    for args in [explicit, &explicit[..4]] {
        let got = answers(args, &histories, 60_000);
        for (k, history) in histories.iter().enumerate() {
            let limits = SearchLimits {
                max_depth: 3,
                time: None,
            };
            let seed = turn_seed(7, &format!("g{k}"));
            let alone = choose_move(&position(history), limits, seed).unwrap();
            assert_eq!(mv(&got[k]), alone.best.to_string(), "{args:?} turn {k}");
            let comment = format!("depth {} score {}", alone.depth, alone.score_text());
            assert_eq!(got[k]["comment"], comment.as_str(), "{args:?} turn {k}");
        }
    }
}

#[test]
fn the_solver_flags_are_checked_and_documented() {
    let out = Command::new(ENGINE).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("--solve-share F") && help.contains("--solve-memory MIB"));
    for (args, error) in [
        (
            ["--solve-share", "1.5"],
            "--solve-share takes a number from 0 to 1 (such as 0.33), got \"1.5\"",
        ),
        (
            ["--solve-memory", "0"],
            "--solve-memory takes a whole number from 1 to 65536, got \"0\"",
        ),
    ] {
        let out = Command::new(ENGINE).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.trim(), format!("arena-engine: error: {error}"));
    }
}

#[test]
fn the_solver_keeps_within_the_move_limit() {
    // The whole time for the solver, on positions it cannot prove in it
    // (qango6 from the start takes seconds): 400 ms per move plans 95 ms,
    // and two answers must come well within twice the hard limit.
    let started = std::time::Instant::now();
    let got = answers(&["--solve-share", "1"], &[&[], &["c3"]], 400);
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_millis(800),
        "took {took:?}"
    );
    for (answer, history) in got.iter().zip([&[][..], &["c3"][..]]) {
        position(history).play_str(mv(answer)).unwrap();
    }
}
