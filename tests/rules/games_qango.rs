//! Qango rules: opening restrictions, every group, squares, lines, grey cells and draws.

use arena::games::{Cell, Color, Move, Position, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn variant(id: &str) -> &'static Variant {
    Variant::by_id(id).unwrap_or_else(|| panic!("variant {id} exists"))
}

fn names(cells: &[(u8, u8)]) -> Vec<String> {
    cells
        .iter()
        .map(|&(r, c)| Cell::new(r, c).to_string())
        .collect()
}

#[test]
fn first_move_cell_counts_match_rules_md() {
    let expected = [
        ("qango6", 36),
        ("qango6-castle", 28),
        ("qango6-tournament", 20),
        ("qango7", 49),
        ("qango7-castle", 37),
        ("qango7-pro1", 25),
        ("qango7-pro2", 20),
        ("qango7plus", 37),
        ("qango7plus-edge", 16),
        ("qango7plus-tournament", 4),
        ("quinque", 24),
    ];
    assert_eq!(Variant::all().len(), expected.len());
    for (id, count) in expected {
        let pos = Position::new(variant(id));
        assert_eq!(pos.legal_moves().len(), count, "first moves of {id}");
        assert_eq!(
            variant(id).info_json()["first_move"]
                .as_array()
                .unwrap()
                .len(),
            count
        );
    }
}

/// Cells in board notation as RULES.md spells them (column letter, then
/// 1-based row: `a1` is the top-left cell), sorted.
fn cells(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

/// Every cell of a `size`×`size` board, sorted.
fn board(size: u8) -> Vec<String> {
    let mut v: Vec<String> = (b'a'..b'a' + size)
        .flat_map(|col| (1..=size).map(move |row| format!("{}{row}", col as char)))
        .collect();
    v.sort();
    v
}

/// The cells of a `size`×`size` board in its outer ring, sorted.
fn edge(size: u8) -> Vec<String> {
    let last_col = (b'a' + size - 1) as char;
    let on_edge = |name: &String| {
        let col = name.chars().next().unwrap();
        let row: u8 = name[1..].parse().unwrap();
        col == 'a' || col == last_col || row == 1 || row == size
    };
    board(size).into_iter().filter(on_edge).collect()
}

fn all_but(all: Vec<String>, excluded: &[String]) -> Vec<String> {
    all.into_iter().filter(|c| !excluded.contains(c)).collect()
}

/// The opening rules table of RULES.md, its (row, col) cells written out in
/// board notation by hand.
#[test]
fn first_move_cells_are_the_listed_ones() {
    let first = |id: &str| {
        let mut v: Vec<String> = Position::new(variant(id))
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(first("qango6"), board(6));
    assert_eq!(first("qango7"), board(7));
    // (1,4) (2,5) (4,1) (5,2)
    assert_eq!(first("qango7plus-tournament"), cells("e2 f3 b5 c6"));
    // (0,2) (0,3) (0,4) (1,1) (1,5) (2,0) (2,6) (3,0) (3,6) (4,0) (4,6)
    // (5,1) (5,5) (6,2) (6,3) (6,4)
    assert_eq!(
        first("qango7plus-edge"),
        cells("c1 d1 e1 b2 f2 a3 g3 a4 g4 a5 g5 b6 f6 c7 d7 e7")
    );
    // (1,1) (1,4) (2,2) (2,3) (3,2) (3,3) (4,1) (4,4)
    let castle6 = cells("b2 e2 c3 d3 c4 d4 b5 e5");
    assert_eq!(first("qango6-castle"), all_but(board(6), &castle6));
    // (1,1) (1,5) (5,1) (5,5) (2,2) (2,3) (2,4) (3,2) (3,4) (4,2) (4,3) (4,4)
    let castle7 = cells("b2 f2 b6 f6 c3 d3 e3 c4 e4 c5 d5 e5");
    assert_eq!(first("qango7-castle"), all_but(board(7), &castle7));
    assert_eq!(first("qango6-tournament"), edge(6));
    // An edge cell or the centre (3,3).
    let mut pro1 = edge(7);
    pro1.push("d4".into());
    pro1.sort();
    assert_eq!(first("qango7-pro1"), pro1);
    // An edge cell but not the middle of an edge: (0,3) (3,0) (3,6) (6,3).
    assert_eq!(
        first("qango7-pro2"),
        all_but(edge(7), &cells("d1 a4 g4 d7"))
    );
}

#[test]
fn first_move_outside_the_rule_is_explained() {
    let mut pos = Position::new(variant("qango6-tournament"));
    let err = pos.play_str("c3").unwrap_err();
    assert_eq!(
        err.message,
        "first disc must be on the edge in qango6-tournament"
    );
    // Later moves may go anywhere.
    pos.play_str("a1").unwrap();
    pos.play_str("c3").unwrap();
    let err = pos.play_str("a1").unwrap_err();
    assert_eq!(err.message, "a1 is occupied");
}

/// Plays white on `target` (in order) with harmless black replies, and
/// returns the final position. White's first disc goes elsewhere when the
/// opening rule forbids the target's first cell.
fn white_takes(id: &str, target: &[String]) -> Position {
    let v = variant(id);
    let mut pos = Position::new(v);
    let first_ok = pos
        .parse_move(&target[0])
        .ok()
        .is_some_and(|m| pos.check(&m).is_ok());
    let mut white: Vec<String> = Vec::new();
    if !first_ok {
        // An allowed cell away from the target.
        let m = pos
            .legal_moves()
            .into_iter()
            .map(|m| m.to_string())
            .find(|m| !target.contains(m));
        white.push(m.expect("an allowed first cell outside the target"));
    }
    white.extend(target.iter().cloned());
    for w in white {
        pos.play_str(&w)
            .unwrap_or_else(|e| panic!("{id}: white {w}: {e}"));
        if pos.is_over() {
            break;
        }
        // Black: the last legal cell that is not in the target and does not win.
        let reply = pos.legal_moves().into_iter().rev().find(|m| {
            let mut probe = pos.clone();
            !target.contains(&m.to_string()) && probe.play(m).is_ok() && !probe.is_over()
        });
        pos.play(&reply.expect("a harmless black reply")).unwrap();
    }
    pos
}

fn assert_white_wins_with(id: &str, target: &[String], reason: &str) {
    let pos = white_takes(id, target);
    let outcome = pos
        .outcome()
        .unwrap_or_else(|| panic!("{id}: {target:?} must end the game"));
    assert_eq!(outcome.winner, Some(Color::White), "{id}: {target:?}");
    assert_eq!(outcome.reason, reason, "{id}: {target:?}");
    let mut won: Vec<String> = outcome.cells.iter().map(|c| c.to_string()).collect();
    let mut want = target.to_vec();
    won.sort();
    want.sort();
    assert_eq!(won, want, "{id}: winning cells");
}

#[test]
fn every_group_wins_in_every_variant() {
    for v in Variant::all().iter().filter(|v| v.family_name() == "qango") {
        let groups = v.groups();
        let expected = match v.rows() {
            6 => 12,
            _ if v.id.starts_with("qango7plus") => 12,
            _ => 16,
        };
        assert_eq!(groups.len(), expected, "{} groups", v.id);
        for group in groups {
            assert_white_wins_with(v.id, &group, "group");
        }
    }
}

#[test]
fn groups_are_the_listed_cells() {
    let groups = variant("qango6").groups();
    assert!(
        groups.contains(&names(&[(0, 2), (1, 1), (2, 0)])),
        "yellow group"
    );
    assert!(
        groups.contains(&names(&[(3, 3), (3, 4), (4, 3)])),
        "blue group"
    );
    // Three cells of one colour that are not one group do not win.
    let pos = white_takes("qango6", &names(&[(1, 2), (2, 1), (3, 3)]));
    assert!(
        pos.outcome().is_none(),
        "blue cells of two groups must not win"
    );
}

#[test]
fn squares_and_lines_win() {
    for id in [
        "qango6",
        "qango7",
        "qango7plus",
        "qango6-tournament",
        "qango7plus-tournament",
    ] {
        // A square and a line away from completing any group.
        let square: &[(u8, u8)] = &[(2, 3), (2, 4), (3, 3), (3, 4)];
        let line: &[(u8, u8)] = if id.starts_with("qango6") {
            &[(5, 1), (4, 2), (3, 3), (2, 4), (1, 5)]
        } else {
            &[(3, 0), (3, 1), (3, 2), (3, 3), (3, 4)]
        };
        assert_white_wins_with(id, &names(square), "square");
        assert_white_wins_with(id, &names(line), "line");
    }
    assert_white_wins_with(
        "qango7",
        &names(&[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]),
        "line",
    );
}

#[test]
fn qango7_centre_counts_for_squares_and_lines_but_no_group() {
    let v = variant("qango7");
    assert!(v.groups().iter().all(|g| !g.contains(&"d4".to_string())));
    let patterns = v.win_patterns();
    let with_centre = |n: usize| {
        patterns
            .iter()
            .filter(|p| p.len() == n && p.contains(&"d4".into()))
            .count()
    };
    assert_eq!(with_centre(4), 4, "four squares touch the centre");
    assert!(with_centre(5) > 0, "lines run through the centre");
}

#[test]
fn qango7plus_grey_cells_are_off_the_board() {
    let v = variant("qango7plus");
    let mut pos = Position::new(v);
    for grey in [
        "a1", "b1", "a2", "f1", "g1", "g2", "a6", "a7", "b7", "g6", "f7", "g7",
    ] {
        let err = pos.play_str(grey).unwrap_err();
        assert_eq!(
            err.message,
            format!("{grey} is not a playable cell in qango7plus")
        );
    }
    let grey: Vec<String> = [
        "a1", "b1", "a2", "f1", "g1", "g2", "a6", "a7", "b7", "g6", "f7", "g7",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for pattern in v.win_patterns() {
        assert!(
            pattern.iter().all(|c| !grey.contains(c)),
            "pattern {pattern:?} uses a grey cell"
        );
    }
    assert_eq!(v.info_json()["cells"].as_array().unwrap().len(), 37);
    // b2 is a normal cell in Qango 7 Plus and the line b2..f6 exists; a1..e5 does not.
    assert!(v.win_patterns().contains(&vec![
        "b2".into(),
        "c3".into(),
        "d4".into(),
        "e5".into(),
        "f6".into()
    ]));
    pos.play_str("b2").unwrap();
    assert_eq!(pos.state_json()["board"][0][0], "#");
    assert_eq!(pos.state_json()["board"][1][1], "w");
}

/// Seeded random games until one is drawn.
fn find_draw(id: &str) -> Position {
    let v = variant(id);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200_000 {
        let mut pos = Position::new(v);
        while !pos.is_over() {
            let moves = pos.legal_moves();
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play(&m).unwrap();
        }
        if pos.outcome().unwrap().winner.is_none() {
            return pos;
        }
    }
    panic!("no draw found in {id}");
}

#[test]
fn draws_after_36_40_and_37_discs() {
    for (id, plies, reason) in [
        ("qango6", 36, "full"),
        ("qango7", 40, "out_of_discs"),
        ("qango7plus", 37, "full"),
    ] {
        let pos = find_draw(id);
        let outcome = pos.outcome().unwrap();
        assert_eq!(pos.ply(), plies, "{id}");
        assert_eq!(outcome.reason, reason, "{id}");
        assert!(pos.legal_moves().is_empty());
        let err = pos.clone().play_str("a1").unwrap_err();
        assert!(
            err.message.contains("over")
                || err.message.contains("occupied")
                || err.message.contains("playable")
        );
    }
}

#[test]
fn moves_print_and_parse_back() {
    let pos = Position::new(variant("qango7"));
    for m in pos.legal_moves() {
        assert_eq!(pos.parse_move(&m.to_string()), Ok(m));
    }
    assert!(matches!(pos.parse_move("C3"), Ok(Move::Qango(c)) if c == Cell::new(2, 2)));
    assert!(pos
        .parse_move("h1")
        .unwrap_err()
        .message
        .contains("not on the board"));
    assert!(pos.parse_move("place c3").is_err());
}
