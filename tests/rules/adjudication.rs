//! `adjudicate = "solved"`: games end as soon as the solver proves their
//! value, with reason `adjudicated` and the result of perfect play; the
//! record's moves are the moves played and the proven continuation is
//! kept apart.

use crate::common;

use std::collections::HashMap;

use arena::games::{Position, Variant};
use common::tournament::{instant_bot_flags, run_arena, text};
use serde_json::Value;

fn records(out: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(out.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|m| m.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

fn play_all(variant: &'static Variant, moves: &[String]) -> Position {
    let mut pos = Position::new(variant);
    for m in moves {
        pos.play_str(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {moves:?}"));
    }
    pos
}

/// The value an independent solve (a fresh solver with time to spare)
/// gives the position after `moves`, as the game's result.
fn solved_result(variant: &'static Variant, moves: &[String]) -> &'static str {
    let pos = play_all(variant, moves);
    let mut solver = arena::solver::Solver::new(variant, 64 << 20);
    let s = solver.solve(&pos, arena::solver::Budget::millis(20_000));
    let white_to_move = pos.to_move() == arena::games::Color::White;
    match (s.value.expect("proven with time to spare"), white_to_move) {
        (arena::solver::Value::Draw, _) => "1/2-1/2",
        (arena::solver::Value::Win, true) | (arena::solver::Value::Loss, false) => "1-0",
        _ => "0-1",
    }
}

#[test]
fn proven_games_end_at_once_with_the_result_of_perfect_play() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bots = instant_bot_flags();
    let mut args = vec![
        "tournament",
        "--variant",
        "qango6-tournament,quinque",
        "--opening-plies",
        "4",
        "--games",
        "4",
        "--seed",
        "3",
        "--adjudicate",
        "solved",
        "--adjudicate-ms",
        "50",
        "--no-progress",
        "--out",
    ];
    args.push(out.to_str().unwrap());
    args.extend(bots.iter().map(String::as_str));
    let run = run_arena(&args);
    assert!(run.status.success(), "{}", text(&run));
    let games = records(&out);
    assert_eq!(games.len(), 8);
    let mut reasons = HashMap::new();
    for g in &games {
        let variant = Variant::by_id(g["game"].as_str().unwrap()).unwrap();
        let moves = strings(&g["moves"]);
        let line = strings(&g["proven_line"]);
        let reason = g["reason"].as_str().unwrap();
        *reasons.entry(reason.to_string()).or_insert(0) += 1;
        let played = play_all(variant, &moves);
        if reason != "adjudicated" {
            assert!(played.is_over() && line.is_empty(), "{g}");
            continue;
        }
        // The moves are those played: the game is not over after them,
        // and no opening move is cut off.
        assert!(!played.is_over(), "{g}");
        assert!(moves.len() >= 4, "{g}");
        // The result is the proven value of the last position played...
        assert_eq!(g["result"], solved_result(variant, &moves), "{g}");
        // ...and the proven line plays out to that result by the rules.
        let mut all = moves.clone();
        all.extend(line);
        let end = play_all(variant, &all)
            .outcome()
            .expect("the line ends the game");
        let winner = g["winner"].as_str().map(String::from);
        assert_eq!(end.winner.map(|c| c.to_string()), winner, "{g}");
        assert!(
            g["message"].as_str().unwrap().starts_with("adjudicated: "),
            "{g}"
        );
    }
    assert!(
        reasons.get("adjudicated").copied().unwrap_or(0) >= 4,
        "{reasons:?}"
    );
    // games.csv says the same.
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(csv.contains(",adjudicated,"), "{csv}");
}

#[test]
fn a_budget_without_adjudication_is_refused() {
    let bots = instant_bot_flags();
    let mut args = vec!["tournament", "--adjudicate-ms", "50", "--no-progress"];
    args.extend(bots.iter().map(String::as_str));
    let run = run_arena(&args);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("adjudicate"), "{stderr}");
}
