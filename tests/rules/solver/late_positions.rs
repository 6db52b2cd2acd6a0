//! The solver against an exhaustive search on late positions of every
//! Qango variant: boards filled by random play that never completes a
//! pattern, with 10 to 12 empty cells left and no win in one for the side
//! to move. The exhaustive search here is
//! plain minimax over the rules crate's `Position` (memoised on the two
//! disc sets), so the expected values come from outside the solver. The
//! solver's value must equal it, and its `best` move must keep the value.

use std::collections::HashMap;

use arena_rules::games::{Family, Position, Variant};
use arena_solver::{Budget, Solver, Value};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The value for the side to move, by trying everything.
pub(super) fn exhaustive(pos: &Position, memo: &mut HashMap<[u64; 2], Value>) -> Value {
    if let Some(o) = pos.outcome() {
        return match o.winner {
            None => Value::Draw,
            Some(w) if w == pos.to_move() => Value::Win,
            Some(_) => Value::Loss,
        };
    }
    let key = pos.qango().unwrap().discs;
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = Value::Loss;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(&m).unwrap();
        best = best.max(exhaustive(&next, memo).flip());
        if best == Value::Win {
            break;
        }
    }
    memo.insert(key, best);
    best
}

/// A position with `empty` empty playable cells reached by random moves
/// none of which completes a pattern; `None` when the random play got
/// stuck (every move would complete one).
pub(super) fn late_position(
    variant: &'static Variant,
    empty: u32,
    rng: &mut ChaCha8Rng,
) -> Option<Position> {
    quiet_play(variant, empty, rng, |_, quiet| quiet.into_iter().next())
}

/// Plays from the empty board until `empty` playable cells are left, each
/// move the position `pick` chooses among those after a move that ends no
/// game (in random order); `None` when it chooses none.
pub(super) fn quiet_play(
    variant: &'static Variant,
    empty: u32,
    rng: &mut ChaCha8Rng,
    mut pick: impl FnMut(&Position, Vec<Position>) -> Option<Position>,
) -> Option<Position> {
    let mut pos = Position::new(variant);
    let playable = variant.playable_mask().count_ones();
    while playable - pos.ply() > empty {
        let mut moves = pos.legal_moves();
        moves.shuffle(rng);
        let quiet = moves
            .into_iter()
            .filter_map(|m| {
                let mut next = pos.clone();
                next.play(&m).unwrap();
                next.outcome().is_none().then_some(next)
            })
            .collect();
        pos = pick(&pos, quiet)?;
    }
    Some(pos)
}

fn wins_at_once(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|m| {
        let mut next = pos.clone();
        next.play(m).unwrap();
        next.outcome().is_some_and(|o| o.winner.is_some())
    })
}

#[test]
fn the_solver_agrees_with_exhaustive_search_on_late_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut seen = HashMap::new();
    for variant in Variant::all() {
        let Family::Qango(_) = variant.family else {
            continue;
        };
        let mut solver = Solver::new(variant, 16 << 20);
        let mut checked = 0;
        while checked < 8 {
            let empty = 10 + checked % 3;
            let Some(pos) = late_position(variant, empty, &mut rng) else {
                continue;
            };
            // A win in one is too easy a test: keep positions without one.
            if wins_at_once(&pos) {
                continue;
            }
            let expected = exhaustive(&pos, &mut HashMap::new());
            let got = solver.solve(&pos, Budget::default());
            assert_eq!(
                got.value,
                Some(expected),
                "{} after {:?}",
                variant.id,
                pos.history()
            );
            let best = got.best.expect("a best move in an open position");
            let mut next = pos.clone();
            next.play(&best).unwrap();
            assert_eq!(
                exhaustive(&next, &mut HashMap::new()).flip(),
                expected,
                "{}: {best} does not keep the value",
                variant.id
            );
            *seen.entry(expected).or_insert(0) += 1;
            checked += 1;
        }
    }
    eprintln!("values: {seen:?}");
    assert_eq!(seen.len(), 3, "wins, draws and losses all occur: {seen:?}");
}
