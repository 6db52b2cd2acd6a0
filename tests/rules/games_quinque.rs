//! Quinque: each action and each restriction, on positions set up by hand.
//! Every test fails if the rule it names is dropped from the engine.

use arena::games::quinque::{QuinqueMove, QuinqueState};
use arena::games::{Color, Position, Variant};

/// A position from five rows of tokens: `.`, `W1`..`W3`, `B1`..`B3`.
fn setup(rows: [&str; 5], supply: [u8; 2], to_move: Color) -> QuinqueState {
    let mut s = QuinqueState::default();
    for (r, row) in rows.iter().enumerate() {
        let tokens: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(tokens.len(), 5, "row {r}");
        for (c, t) in tokens.iter().enumerate() {
            let h: i8 = if *t == "." {
                0
            } else {
                t[1..].parse().unwrap()
            };
            s.stacks[r * 5 + c] = if t.starts_with('B') { -h } else { h };
        }
    }
    s.supply = supply;
    // Any ply past the opening with the right side to move.
    s.ply = if to_move == Color::White { 10 } else { 11 };
    s
}

fn play(s: &mut QuinqueState, text: &str) -> Result<(), String> {
    s.play(&QuinqueMove::parse(text).unwrap())
}

fn cell(s: &QuinqueState, name: &str) -> String {
    let m = QuinqueMove::parse(&format!("place {name}")).unwrap();
    s.cell_text(m.target().index(5))
}

#[test]
fn first_move_is_a_placement_off_the_centre() {
    let mut pos = Position::new(Variant::by_id("quinque").unwrap());
    assert_eq!(
        pos.play_str("place c3").unwrap_err().message,
        "the first stone may not go on the centre c3"
    );
    pos.play_str("place b2").unwrap();
    // From then on the centre is a normal cell.
    pos.play_str("place c3").unwrap();
    assert_eq!(pos.quinque().unwrap().supply, [19, 19]);
}

#[test]
fn place_needs_an_empty_cell_and_a_stone() {
    let rows = [
        ". . . . .",
        ". W1 . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    assert_eq!(play(&mut s, "place b2").unwrap_err(), "b2 is occupied");
    let mut empty = setup(rows, [0, 5], Color::White);
    assert_eq!(
        play(&mut empty, "place a1").unwrap_err(),
        "you have no stones left in your supply"
    );
    play(&mut s, "place a1").unwrap();
    assert_eq!(cell(&s, "a1"), "w1");
    assert_eq!(s.supply, [4, 5]);
}

#[test]
fn double_only_own_singles() {
    let rows = [
        ". . . . .",
        ". W1 B1 W2 .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    assert!(play(&mut s.clone(), "double c2").is_err(), "opponent stone");
    assert!(
        play(&mut s.clone(), "double d2").is_err(),
        "already a double"
    );
    assert!(play(&mut s.clone(), "double a1").is_err(), "empty cell");
    play(&mut s, "double b2").unwrap();
    assert_eq!(cell(&s, "b2"), "w2");
    assert_eq!(s.supply, [4, 5]);
}

#[test]
fn triple_from_a_double_once_and_never_on_the_centre() {
    let rows = [
        ". . . . .",
        ". W2 . W2 .",
        ". . W2 . .",
        ". . . W1 .",
        ". . . . .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    assert_eq!(
        play(&mut s.clone(), "triple c3").unwrap_err(),
        "no triple may be made on the centre c3"
    );
    assert!(
        play(&mut s.clone(), "triple d4").is_err(),
        "a single cannot be tripled"
    );
    play(&mut s, "triple b2").unwrap();
    assert_eq!(cell(&s, "b2"), "w3");
    play(&mut s, "place a5").unwrap(); // black
    let err = play(&mut s, "triple d2").unwrap_err();
    assert!(err.contains("already have a triple"), "{err}");
}

#[test]
fn enclose_a_single_at_corner_edge_and_middle() {
    // Corner a1: neighbours b1 and a2 (two sides off the board).
    let rows = [
        "B1 W1 . . .",
        "W1 . . B1 .",
        ". . . . .",
        ". . W1 . .",
        ". W1 B1 W1 .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    play(&mut s, "enclose a1").unwrap();
    assert_eq!(cell(&s, "a1"), "w1");
    assert_eq!(
        s.supply,
        [4, 5],
        "the new stone comes from the encloser's supply"
    );
    play(&mut s, "place e5").unwrap(); // black
                                       // Edge c5: neighbours b5, d5, c4; the bottom is off the board.
    play(&mut s, "enclose c5").unwrap();
    assert_eq!(cell(&s, "c5"), "w1");
    play(&mut s, "place e4").unwrap(); // black
                                       // d2 is not enclosed: its neighbours are empty.
    assert_eq!(
        play(&mut s, "enclose d2").unwrap_err(),
        "d2 is not enclosed: d1 is not your stack"
    );
}

#[test]
fn enclose_takes_only_singles_and_needs_a_stone() {
    let rows = [
        "B2 W1 . . .",
        "W1 . . . .",
        ". . . . .",
        ". . . . .",
        "B1 W1 . . .",
    ];
    let s = setup(rows, [5, 5], Color::White);
    assert_eq!(
        play(&mut s.clone(), "enclose a1").unwrap_err(),
        "a1 is an opponent double, not a single"
    );
    let rows = [
        "B1 W1 . . .",
        "W1 . . . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
    ];
    let mut none = setup(rows, [0, 5], Color::White);
    assert_eq!(
        play(&mut none, "enclose a1").unwrap_err(),
        "you have no stones left in your supply"
    );
}

#[test]
fn capture_any_single_with_one_double() {
    let rows = [
        ". . . . .",
        ". W2 . . .",
        ". . . . .",
        ". . . B1 .",
        ". . . . .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    assert!(
        play(&mut s.clone(), "capture d4 a1").is_err(),
        "a1 is not a double"
    );
    play(&mut s, "capture d4 b2").unwrap();
    assert_eq!(cell(&s, "b2"), "w1");
    assert_eq!(cell(&s, "d4"), "w1");
    assert_eq!(s.supply, [5, 5], "no supply stone is used");
}

#[test]
fn capture_a_double_needs_two_doubles_or_an_enclosure() {
    let rows = [
        ". . . . .",
        ". W2 . . .",
        ". . . . .",
        ". . . B2 .",
        ". . . . W2",
    ];
    let s = setup(rows, [5, 5], Color::White);
    let err = play(&mut s.clone(), "capture d4 b2").unwrap_err();
    assert!(err.contains("needs two of your doubles"), "{err}");
    let mut two = s.clone();
    play(&mut two, "capture d4 e5 b2").unwrap(); // the parser (human seat) takes either order
    assert_eq!(
        [cell(&two, "b2"), cell(&two, "e5"), cell(&two, "d4")],
        ["w1", "w1", "w1"]
    );
    assert_eq!(two.supply, [6, 5], "one freed stone returns to the supply");
    assert!(play(&mut s.clone(), "capture d4 b2 b2").is_err());

    // Enclosed double: one double is enough.
    let rows = [
        ". . . . .",
        ". W2 . W1 .",
        ". . W1 B2 W1",
        ". . . W1 .",
        ". . . . .",
    ];
    let mut enclosed = setup(rows, [5, 5], Color::White);
    play(&mut enclosed, "capture d3 b2").unwrap();
    assert_eq!([cell(&enclosed, "b2"), cell(&enclosed, "d3")], ["w1", "w1"]);
    assert_eq!(enclosed.supply, [5, 5]);
}

#[test]
fn triples_can_never_be_captured() {
    let rows = [
        "B3 W1 . . .",
        "W1 . . . .",
        ". . . . .",
        ". W2 . W2 .",
        ". . . . .",
    ];
    let s = setup(rows, [5, 5], Color::White);
    for m in ["enclose a1", "capture a1 b4", "capture a1 b4 d4"] {
        let err = play(&mut s.clone(), m).unwrap_err();
        assert!(err.contains("triples can never be captured"), "{m}: {err}");
    }
    assert!(s
        .legal_moves()
        .iter()
        .all(|m| m.target().to_string() != "a1"));
}

#[test]
fn no_immediate_recapture() {
    let rows = [
        ". . . . .",
        ". W2 . . .",
        ". . . . .",
        ". . . B1 .",
        "B2 . . . .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    play(&mut s, "capture d4 b2").unwrap();
    let err = play(&mut s.clone(), "capture d4 a5").unwrap_err();
    assert!(err.contains("may not be recaptured"), "{err}");
    assert!(s
        .legal_moves()
        .iter()
        .all(|m| m.target().to_string() != "d4"));
    // Other captures stay allowed, and the lock lasts one turn only.
    play(&mut s, "place a1").unwrap(); // black
    play(&mut s, "place e1").unwrap(); // white
    play(&mut s, "capture d4 a5").unwrap();
}

#[test]
fn five_in_a_row_with_mixed_heights_wins() {
    let rows = [
        ". . . . .",
        "W1 W2 W3 W1 .",
        ". . . . .",
        ". B1 . . .",
        ". . . B1 .",
    ];
    let mut s = setup(rows, [5, 5], Color::White);
    play(&mut s, "place e2").unwrap();
    let outcome = s.outcome().expect("five in a row ends the game");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.reason, "line");
    let cells: Vec<String> = outcome.cells.iter().map(|c| c.to_string()).collect();
    assert_eq!(cells, ["a2", "b2", "c2", "d2", "e2"]);
    // The long diagonal counts too, and a capture can complete a line.
    let rows = [
        "B1 . . . .",
        ". B2 . . .",
        ". . B1 . W2",
        ". . . B1 .",
        ". . . . W1",
    ];
    let mut diag = setup(rows, [5, 5], Color::Black);
    play(&mut diag, "capture e5 b2").unwrap();
    assert_eq!(diag.outcome().unwrap().winner, Some(Color::Black));
}

#[test]
fn a_player_without_a_legal_action_loses() {
    // Black has no supply and no doubles: after white's move, black cannot act.
    let rows = [
        ". . . . .",
        ". B1 . . .",
        ". . . . .",
        ". . . B1 .",
        ". . . . .",
    ];
    let mut s = setup(rows, [5, 0], Color::White);
    play(&mut s, "place a1").unwrap();
    let outcome = s.outcome().expect("black has no legal action");
    assert_eq!(
        (outcome.winner, outcome.reason.as_str()),
        (Some(Color::White), "no_moves")
    );
    assert!(s.legal_moves().is_empty());
    // With one double left, black could still capture: no loss.
    let rows = [
        ". . . . .",
        ". B2 W1 . .",
        ". . . . .",
        ". . . B1 .",
        ". . . . .",
    ];
    let mut s = setup(rows, [5, 0], Color::White);
    play(&mut s, "place a1").unwrap();
    assert!(s.outcome().is_none());
}

#[test]
fn moves_print_in_rules_md_notation() {
    for text in [
        "place c3",
        "double c3",
        "triple c3",
        "enclose d4",
        "capture d4 b2",
        "capture d4 b2 e5",
    ] {
        assert_eq!(QuinqueMove::parse(text).unwrap().to_string(), text);
    }
    assert_eq!(
        QuinqueMove::parse("capture d4 e5 b2").unwrap().to_string(),
        "capture d4 b2 e5"
    );
    for bad in [
        "",
        "place",
        "put c3",
        "place z9",
        "capture d4",
        "capture d4 b2 e5 a1",
        "c3",
    ] {
        assert!(QuinqueMove::parse(bad).is_err(), "{bad:?}");
    }
}
