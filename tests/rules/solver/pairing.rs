//! Pairings (`arena_solver::pairing`), where a "does not lose" strategy
//! file stops, checked from outside: on late positions of random play,
//! every pairing the solver finds is one by the rules crate's patterns
//! (disjoint pairs of free cells, one whole in every pattern the side to
//! move can still complete), the verifier of the stored solutions finds
//! one exactly where the solver does, and where one is found an
//! exhaustive search confirms that the side it holds cannot win: the side
//! to move, or its opponent a disc behind (the search's first look takes
//! both as proven).

use std::collections::HashMap;

use arena_rules::games::variant::QANGO_MAX_DISCS;
use arena_rules::games::{Color, Position, Variant};
use arena_solver::pairing::{pairing, STRATEGY_STEPS};
use arena_solver::qango::QangoRules;
use arena_solver::Value;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::late_positions::{exhaustive, quiet_play};
use super::solutions::{self, open_patterns};

/// A position with `empty` empty playable cells where the side to move
/// has played at random and the other side has blocked: each of its discs
/// leaves the fewest open patterns to the side to move (so pairings are
/// common); no move completed a pattern. `None` when play got stuck.
fn blocked_position(
    variant: &'static Variant,
    empty: u32,
    rng: &mut ChaCha8Rng,
) -> Option<Position> {
    let last = (variant.playable_mask().count_ones() - empty) % 2;
    quiet_play(variant, empty, rng, |pos, quiet| {
        if pos.ply() % 2 == last {
            quiet
                .into_iter()
                .min_by_key(|next| open_patterns(next, next.to_move()).len())
        } else {
            quiet.into_iter().next()
        }
    })
}

/// Whether `pairs` is a pairing against `side` in `pos`.
fn is_pairing(pos: &Position, side: Color, pairs: &[u64]) -> bool {
    let q = pos.qango().unwrap();
    let free = pos.variant().playable_mask() & !(q.discs[0] | q.discs[1]);
    let mut used = 0;
    for &pair in pairs {
        if pair.count_ones() != 2 || pair & !free != 0 || pair & used != 0 {
            return false;
        }
        used |= pair;
    }
    open_patterns(pos, side)
        .iter()
        .all(|m| pairs.iter().any(|&pair| m & pair == pair))
}

#[test]
fn a_pairing_holds_every_open_pattern_and_the_side_to_move_cannot_win() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let mut found = HashMap::new();
    let mut none = 0;
    let mut against = HashMap::new();
    for id in ["qango6", "qango6-tournament", "qango7", "qango7plus"] {
        let variant = Variant::by_id(id).unwrap();
        let rules = QangoRules::new(variant);
        for n in 0..250 {
            let empty = 10 + n % 4;
            let Some(pos) = blocked_position(variant, empty, &mut rng) else {
                continue;
            };
            let q = pos.qango().unwrap();
            let (me, op) = (pos.to_move().index(), pos.to_move().opponent().index());
            let left = QANGO_MAX_DISCS / 2 - q.discs[me].count_ones();
            let got = pairing(q.geometry(), q.discs[me], q.discs[op], left, STRATEGY_STEPS);
            assert_eq!(
                got.is_some(),
                solutions::pairing(&pos).is_some(),
                "{id} after {:?}: the solver and the verifier disagree",
                pos.history()
            );
            // The other side's move: the solver's and the verifier's
            // "a move leaves a pairing" agree too.
            assert_eq!(
                rules.holds_by_pairing(&rules.state_of(&pos)),
                solutions::holds_by_pairing(&pos),
                "{id} after {:?}",
                pos.history()
            );
            // A pairing against the other side, the side to move a disc
            // ahead of it: the side to move does not lose.
            let their_left = QANGO_MAX_DISCS / 2 - q.discs[op].count_ones();
            let theirs = pairing(
                q.geometry(),
                q.discs[op],
                q.discs[me],
                their_left,
                STRATEGY_STEPS,
            );
            // (Common: the first 10 of each variant are searched.)
            if let Some(pairs) = theirs.filter(|_| against.get(id).is_none_or(|&n| n < 10)) {
                assert!(is_pairing(&pos, pos.to_move().opponent(), &pairs));
                assert_ne!(
                    exhaustive(&pos, &mut HashMap::new()),
                    Value::Loss,
                    "{id} after {:?}: a pairing against the opponent, yet the side to move loses",
                    pos.history()
                );
                *against.entry(id).or_insert(0) += 1;
            }
            let Some(pairs) = got else {
                none += 1;
                continue;
            };
            assert!(
                is_pairing(&pos, pos.to_move(), &pairs),
                "{id} after {:?}: {pairs:x?} is no pairing",
                pos.history()
            );
            assert_ne!(
                exhaustive(&pos, &mut HashMap::new()),
                Value::Win,
                "{id} after {:?}: a pairing, yet the side to move wins",
                pos.history()
            );
            *found.entry(id).or_insert(0) += 1;
        }
    }
    eprintln!("pairings found: {found:?}, none: {none}; against the opponent: {against:?}");
    let pairings: u32 = found.values().sum();
    let theirs: u32 = against.values().sum();
    assert!(
        found.len() >= 3 && pairings >= 20 && none >= 20 && theirs >= 30,
        "{found:?}, none {none}, against the opponent {against:?}"
    );
}

#[test]
fn no_pairing_against_a_threat_or_a_move_that_makes_two() {
    let variant = Variant::by_id("qango6").unwrap();
    let white_to_move_after = |moves: &[&str]| {
        let mut pos = Position::new(variant);
        for m in moves {
            pos.play_str(m).unwrap();
        }
        let q = pos.qango().unwrap();
        let left = QANGO_MAX_DISCS / 2 - q.discs[0].count_ones();
        let solver = pairing(q.geometry(), q.discs[0], q.discs[1], left, STRATEGY_STEPS);
        (solver.is_some(), solutions::pairing(&pos).is_some())
    };
    // White b2 c2 b3: the square b2 c2 b3 c3 lacks c3 alone, a threat no
    // pair can hold.
    assert_eq!(
        white_to_move_after(&["b2", "f1", "c2", "f3", "b3", "d6"]),
        (false, false)
    );
    // White b2 c2 a3: b3 would make two threats. The square b2 c2 b3 c3
    // needs the pair b3 c3, the square a2 b2 a3 b3 the pair a2 b3: they
    // share b3, so no pairing holds both.
    assert_eq!(
        white_to_move_after(&["b2", "f1", "c2", "f3", "a3", "d6"]),
        (false, false)
    );
}
