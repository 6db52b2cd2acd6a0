//! The solver on Quinque, checked from outside: positions a few plies
//! before the end of seeded random games, solved by the solver with the
//! API `arena solve` and `benches/solver_depth.rs` use, against plain
//! exhaustive minimax over the rules crate's `Position` written here
//! (memoised on the exact state, no symmetry, no proof numbers); and the
//! positions that bench counts at depths 1 and 2, merged by the solver's
//! key, against a count by hand over the board's symmetries.

use std::collections::{HashMap, HashSet};

use arena_rules::games::{Cell, Position, Variant};
use arena_solver::game::Rules;
use arena_solver::quinque::QuinqueRules;
use arena_solver::{Budget, Solver, Value};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The exact state: stacks, supplies, the locked cell and the side to move.
type Key = ([i8; 25], [u8; 2], Option<Cell>, u32);

fn key_of(pos: &Position) -> Key {
    let s = pos.quinque().expect("a Quinque position");
    (s.stacks, s.supply, s.locked, s.ply % 2)
}

/// The value for the side to move by trying every move, or `None` once
/// more than `budget` positions were visited. Quinque has no draws: a
/// player wins with five in a row, and a player without a legal action
/// has lost.
fn exhaustive(pos: &Position, memo: &mut HashMap<Key, Value>, budget: &mut u64) -> Option<Value> {
    if let Some(o) = pos.outcome() {
        let winner = o.winner.expect("Quinque has no draws");
        return Some(if winner == pos.to_move() {
            Value::Win
        } else {
            Value::Loss
        });
    }
    let key = key_of(pos);
    if let Some(&v) = memo.get(&key) {
        return Some(v);
    }
    *budget = budget.checked_sub(1)?;
    let mut best = Value::Loss;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(&m).unwrap();
        best = best.max(exhaustive(&next, memo, budget)?.flip());
        if best == Value::Win {
            break;
        }
    }
    memo.insert(key, best);
    Some(best)
}

fn wins_at_once(pos: &Position) -> bool {
    let mover = pos.to_move();
    pos.legal_moves().iter().any(|m| {
        let mut next = pos.clone();
        next.play(m).unwrap();
        next.outcome().is_some_and(|o| o.winner == Some(mover))
    })
}

/// A game of uniform random legal moves to its end, as its positions.
fn random_game(v: &'static Variant, rng: &mut ChaCha8Rng) -> Vec<Position> {
    let mut line = vec![Position::new(v)];
    loop {
        let pos = line.last().unwrap();
        if pos.is_over() {
            return line;
        }
        let m = *pos.legal_moves().choose(rng).unwrap();
        let mut next = pos.clone();
        next.play(&m).unwrap();
        line.push(next);
    }
}

#[test]
fn the_solver_agrees_with_exhaustive_search_near_the_end_of_quinque_games() {
    let v = Variant::by_id("quinque").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let mut seen: HashMap<Value, usize> = HashMap::new();
    let mut checked = 0;
    let mut games = 0;
    while checked < 8 {
        games += 1;
        assert!(games < 2000, "too few positions small enough: {seen:?}");
        let line = random_game(v, &mut rng);
        // Among the last eight positions, one that exhaustive search
        // settles within its budget, where the mover has no win in one (too
        // easy a test), of the value met less often so far (wins without
        // one in one are rarer than losses).
        let wanted = if seen.get(&Value::Win) < seen.get(&Value::Loss) {
            Value::Win
        } else {
            Value::Loss
        };
        let end = line.len() - 1;
        let candidate = (end.saturating_sub(8)..end).find_map(|ply| {
            let pos = &line[ply];
            if pos.is_over() || wins_at_once(pos) {
                return None;
            }
            let value = exhaustive(pos, &mut HashMap::new(), &mut 20_000)?;
            (value == wanted).then_some((pos, value))
        });
        let Some((pos, expected)) = candidate else {
            continue;
        };
        let mut solver = Solver::new(v, 16 << 20);
        let got = solver.solve(pos, Budget::default());
        let history: Vec<String> = pos.history().iter().map(|m| m.to_string()).collect();
        assert_eq!(got.value, Some(expected), "after {history:?}");
        let best = got.best.expect("a best move in an open position");
        let mut next = pos.clone();
        next.play(&best).unwrap();
        let mut unlimited = u64::MAX;
        let after = exhaustive(&next, &mut HashMap::new(), &mut unlimited).unwrap();
        if expected == Value::Win {
            assert_eq!(after, Value::Loss, "{best} after {history:?} does not win");
        }
        *seen.entry(expected).or_insert(0) += 1;
        checked += 1;
    }
    eprintln!("values: {seen:?} from {games} games");
    assert_eq!(seen.len(), 2, "wins and losses both occur: {seen:?}");
}

#[test]
fn quinque_positions_at_depths_one_and_two_merged_over_symmetries() {
    // By hand: white's first stone goes on any cell but c3, and the 24
    // cells fall into five classes under the square's eight symmetries
    // (a1, b1, c1, b2, c2). Black answers on any of the 24 empty cells;
    // after a1, b2 or c1, c2 one mirror keeps white's stone, leaving 4
    // cells on its axis and 10 pairs (14 positions each), after b1 none
    // does (24): 4 * 14 + 24 = 80.
    let v = Variant::by_id("quinque").unwrap();
    let rules = QuinqueRules::new(v);
    let key = |pos: &Position| rules.key(&rules.state_of(pos));
    let children = |level: &[Position]| -> Vec<Position> {
        let mut seen = HashSet::new();
        let mut next_level = Vec::new();
        for pos in level {
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play(&m).unwrap();
                if seen.insert(key(&next)) {
                    next_level.push(next);
                }
            }
        }
        next_level
    };
    let one = children(&[Position::new(v)]);
    assert_eq!(one.len(), 5);
    assert_eq!(children(&one).len(), 80);
}
