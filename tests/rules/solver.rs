//! arena-solver (`crates/solver`) checked from outside: against an
//! exhaustive search on late positions, its stored solutions walked by a
//! verifier that knows only the rules (and the pairings where a draw's
//! files stop), its transposition keys, and Quinque
//! positions near the end of random games against an exhaustive search.

mod forks;
mod late_positions;
mod long_proofs;
mod pairing;
mod quinque_endings;
mod solutions;

use arena_rules::games::{Position, Variant};
use arena_solver::game::Rules;
use arena_solver::quinque::QuinqueRules;

#[test]
fn mirrored_positions_share_a_key() {
    let v = Variant::by_id("quinque").unwrap();
    let rules = QuinqueRules::new(v);
    let after = |moves: &[&str]| {
        let mut pos = Position::new(v);
        for m in moves {
            pos.play_str(m).unwrap();
        }
        rules.key(&rules.state_of(&pos))
    };
    assert_eq!(
        after(&["place a1", "place e5"]),
        after(&["place e1", "place a5"])
    );
    assert_ne!(
        after(&["place a1", "place e5"]),
        after(&["place a1", "place e4"])
    );
}
