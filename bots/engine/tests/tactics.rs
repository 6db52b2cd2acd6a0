//! The engine's tactics on constructed positions: wins in 1, blocks, and a
//! double threat that wins in 3 plies. Every claim is checked by brute force
//! on the rules engine, not by trusting the search's own score.

use arena_engine::greedy::has_winning_move;
use arena_engine::search::{choose_move, SearchLimits, WIN};
use arena_rules::games::{Color, Position, Variant};

fn position(variant: &str, history: &[&str]) -> Position {
    let mut pos = Position::new(Variant::by_id(variant).expect("known variant"));
    for m in history {
        pos.play_str(m)
            .unwrap_or_else(|e| panic!("setting up {variant}: {m}: {e}"));
    }
    pos
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits {
        max_depth: d,
        time: None,
    }
}

fn play(pos: &Position, m: &str) -> Position {
    let mut next = pos.clone();
    next.play_str(m).expect("legal move");
    next
}

/// True if the side to move in `pos` wins by force within its next move,
/// whatever the opponent replies now (a win in 3 plies counted from before `pos`).
fn every_reply_loses(pos: &Position) -> bool {
    !pos.is_over()
        && pos.legal_moves().iter().all(|reply| {
            let mut next = pos.clone();
            next.play(reply).expect("legal reply");
            has_winning_move(&next)
        })
}

/// The engine plays `winning` and scores it a win in 1, and the rules engine
/// agrees that the move wins for the side that made it.
fn assert_takes_the_win(pos: &Position, limits: SearchLimits, seed: u64, winning: &str) {
    let report = choose_move(pos, limits, seed).unwrap();
    assert_eq!(report.best.to_string(), winning, "seed {seed}");
    assert_eq!(report.score, WIN - 1, "seed {seed}");
    let after = play(pos, winning);
    assert_eq!(after.outcome().unwrap().winner, Some(pos.to_move()));
}

#[test]
fn qango_takes_a_win_in_one() {
    // White a1 b1: the red corner group a1 b1 a2 needs a2. Black has a
    // threat of its own (d3 d4 e4 square needs e3), so only winning now is right.
    let pos = position("qango6", &["a1", "d3", "b1", "d4", "f6", "e4"]);
    assert_eq!(pos.to_move(), Color::White);
    for seed in 0..4 {
        assert_takes_the_win(&pos, depth(4), seed, "a2");
    }
}

#[test]
fn qango_blocks_a_win_in_one() {
    // White threatens a2 (red corner group); black has no win of its own.
    let pos = position("qango6", &["a1", "d3", "b1"]);
    for seed in 0..4 {
        let report = choose_move(&pos, depth(4), seed).unwrap();
        assert_eq!(report.best.to_string(), "a2");
        assert!(!has_winning_move(&play(&pos, "a2")));
    }
}

#[test]
fn qango6_finds_a_double_threat_that_wins_in_three() {
    // White a2 a3, black far away (f6, d1). b2 threatens both the yellow
    // group (c1 b2 a3 -> c1) and the square a2 b2 a3 b3 (-> b3).
    let pos = position("qango6", &["a2", "f6", "a3", "d1"]);
    assert!(!has_winning_move(&pos), "no win in 1 for white");
    assert!(
        !has_winning_move(&play(&pos, "f1")),
        "black has no threat to answer with"
    );
    for seed in 0..4 {
        let report = choose_move(&pos, depth(3), seed).unwrap();
        assert_eq!(report.score, WIN - 3, "seed {seed}: {}", report.best);
        let after = play(&pos, &report.best.to_string());
        assert!(
            every_reply_loses(&after),
            "seed {seed}: {} does not force a win",
            report.best
        );
    }
}

#[test]
fn qango_prefers_the_longest_defence_when_lost() {
    // Black has two threats (a2 for the red group, f2 for the other red
    // corner); white cannot win at once, so it must still block one.
    let pos = position("qango6", &["a6", "a1", "c6", "b1", "f4", "e1", "d2", "f1"]);
    assert!(!has_winning_move(&pos));
    let report = choose_move(&pos, depth(3), 0).unwrap();
    let m = report.best.to_string();
    assert!(m == "a2" || m == "f2", "expected a block, got {m}");
    assert!(report.score <= -(WIN - 10));
}

#[test]
fn quinque_takes_a_win_by_capture() {
    // White a1 b1 c1 d1 and a double on a3; black holds e1 with a single.
    // The only wins are capturing e1 with the double.
    let pos = position(
        "quinque",
        &[
            "place a1",
            "place e1",
            "place b1",
            "place c4",
            "place c1",
            "place e3",
            "place a3",
            "place b4",
            "double a3",
            "place e5",
            "place d1",
            "place a5",
        ],
    );
    assert_eq!(pos.to_move(), Color::White);
    assert_takes_the_win(&pos, depth(3), 0, "capture e1 a3");
}

#[test]
fn quinque_stops_a_win_in_one() {
    // White threatens to place e1 and complete row 1; black must stop it
    // (by placing on e1 or by capturing one of the four with its double).
    let pos = position(
        "quinque",
        &[
            "place a1",
            "place a5",
            "place b1",
            "place b5",
            "place c1",
            "double a5",
            "place d1",
        ],
    );
    assert_eq!(pos.to_move(), Color::Black);
    assert!(has_winning_move(&play(&pos, "place c3")), "white threatens");
    for seed in 0..4 {
        let report = choose_move(&pos, depth(3), seed).unwrap();
        let after = play(&pos, &report.best.to_string());
        assert!(
            !has_winning_move(&after),
            "seed {seed}: {} leaves white a win",
            report.best
        );
    }
}
