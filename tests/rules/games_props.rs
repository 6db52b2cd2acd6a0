//! Property tests: random playouts on every variant never panic, always
//! end, and the engine's win detection agrees with a plain reference scan
//! written here from the RULES.md tables, independent of the engine's
//! derived pattern lists.

use arena::games::boards::QangoBoard;
use arena::games::quinque::QuinqueMove;
use arena::games::{Cell, Color, Family, Move, Position, Variant};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Reference: does `mine` (a set of cells) win on this Qango board?
fn reference_qango_win(board: &QangoBoard, mine: &[Vec<bool>]) -> bool {
    let rows = board.rows() as i32;
    let cols = board.cols() as i32;
    let playable = |r: i32, c: i32| {
        r >= 0
            && c >= 0
            && r < rows
            && c < cols
            && Some(board.letter(r as u8, c as u8)) != board.removed_letter
    };
    let has = |r: i32, c: i32| playable(r, c) && mine[r as usize][c as usize];
    let group = board.groups.iter().any(|g| {
        g.iter().all(|&(r, c)| playable(r as i32, c as i32))
            && g.iter().all(|&(r, c)| has(r as i32, c as i32))
    });
    let mut square = false;
    let mut line = false;
    for r in 0..rows {
        for c in 0..cols {
            square |= has(r, c) && has(r + 1, c) && has(r, c + 1) && has(r + 1, c + 1);
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                line |= (0..5).all(|k| has(r + dr * k, c + dc * k));
            }
        }
    }
    group || square || line
}

/// Reference: does `color` have five stacks in a row on the Quinque board?
fn reference_quinque_win(stacks: &[i8; 25], color: Color) -> bool {
    let mine = |r: usize, c: usize| {
        let h = stacks[r * 5 + c];
        if color == Color::White {
            h > 0
        } else {
            h < 0
        }
    };
    (0..5).any(|k| (0..5).all(|j| mine(k, j)))
        || (0..5).any(|k| (0..5).all(|j| mine(j, k)))
        || (0..5).all(|k| mine(k, k))
        || (0..5).all(|k| mine(k, 4 - k))
}

/// Plays a seeded random game, checking every position against the reference.
fn random_game(variant: &'static Variant, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::new(variant);
    let bound = match variant.family {
        Family::Qango(_) => 40,
        Family::Quinque => 80,
    };
    while !pos.is_over() {
        assert!(pos.ply() < bound, "{} ran past {bound} plies", variant.id);
        let moves = pos.legal_moves();
        assert!(
            !moves.is_empty(),
            "{}: not over but no legal move",
            variant.id
        );
        for m in &moves {
            assert_eq!(
                pos.check(m),
                Ok(()),
                "{}: generated {m} is refused",
                variant.id
            );
            assert_eq!(pos.parse_move(&m.to_string()).as_ref(), Ok(m));
        }
        let mover = pos.to_move();
        let m = moves[rng.gen_range(0..moves.len())];
        pos.play(&m).unwrap();
        let engine_win = pos
            .outcome()
            .is_some_and(|o| o.winner == Some(mover) && o.reason != "no_moves");
        let reference = match variant.family {
            Family::Qango(board) => {
                let s = pos.qango().unwrap();
                let side = if mover == Color::White { 0 } else { 1 };
                let mine: Vec<Vec<bool>> = (0..board.rows())
                    .map(|r| {
                        (0..board.cols())
                            .map(|c| {
                                s.discs[side] & (1 << Cell::new(r, c).index(board.cols())) != 0
                            })
                            .collect()
                    })
                    .collect();
                reference_qango_win(board, &mine)
            }
            Family::Quinque => reference_quinque_win(&pos.quinque().unwrap().stacks, mover),
        };
        assert_eq!(
            engine_win,
            reference,
            "{} after {:?}",
            variant.id,
            pos.history()
        );
    }
    assert!(pos.legal_moves().is_empty());
}

/// Every syntactically possible Quinque move is accepted exactly when it is generated.
fn quinque_generation_matches_check(seed: u64) {
    let variant = Variant::by_id("quinque").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::new(variant);
    let cells: Vec<Cell> = (0..25).map(|i| Cell::from_index(i, 5)).collect();
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let mut all = Vec::new();
        for &c in &cells {
            all.extend([
                QuinqueMove::Place(c),
                QuinqueMove::Double(c),
                QuinqueMove::Triple(c),
                QuinqueMove::Enclose(c),
            ]);
            for &w in &cells {
                all.push(QuinqueMove::Capture {
                    target: c,
                    with: w,
                    second: None,
                });
                for &s in cells.iter().filter(|&&s| s > w) {
                    all.push(QuinqueMove::Capture {
                        target: c,
                        with: w,
                        second: Some(s),
                    });
                }
            }
        }
        for q in all {
            let m = Move::Quinque(q);
            assert_eq!(
                pos.check(&m).is_ok(),
                legal.contains(&m),
                "{m} after {:?}",
                pos.history()
            );
        }
        let m = legal[rng.gen_range(0..legal.len())];
        pos.play(&m).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_end_and_agree_with_the_reference(seed in any::<u64>(), v in 0..Variant::all().len()) {
        random_game(&Variant::all()[v], seed);
    }

    #[test]
    fn any_text_is_parsed_or_refused_without_panic(text in ".{0,20}", v in 0..Variant::all().len()) {
        let mut pos = Position::new(&Variant::all()[v]);
        let _ = pos.play_str(&text);
    }
}

#[test]
fn quinque_move_generation_matches_the_checker() {
    for seed in 0..4 {
        quinque_generation_matches_check(seed);
    }
}

#[test]
fn fast_playouts_find_wins_for_both_sides() {
    // The allocation-free playout uses the same win check; a broken check would
    // report no wins, or a first-player edge that is not there.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for v in Variant::all().iter().filter(|v| v.family_name() == "qango") {
        let state = *Position::new(v).qango().unwrap();
        let mut wins = [0u32; 3];
        for _ in 0..2000 {
            match state.random_playout(&mut rng) {
                Some(Color::White) => wins[0] += 1,
                Some(Color::Black) => wins[1] += 1,
                None => wins[2] += 1,
            }
        }
        // Random play: white, moving first, wins more often than black; both win sometimes.
        assert!(wins[0] > wins[1] && wins[1] > 0, "{}: {wins:?}", v.id);
    }
}
