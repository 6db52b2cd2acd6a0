//! The greedy baseline: win now if possible, else stop the opponent from
//! winning on the next move, else play a random move.
//!
//! "Stop the opponent" is taken literally: among all moves, keep those after
//! which the opponent has no winning reply (in Qango that is exactly the
//! blocking moves when there is one threat). It works on any variant through
//! [`Position`], so it plays by the referee's rules.

use arena_rules::games::{Move, Position};
use rand::seq::SliceRandom;
use rand::Rng;

/// The greedy player's move, or `None` if the game is over.
pub fn greedy_move(pos: &Position, rng: &mut impl Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    let me = pos.to_move();
    let after = |m: &Move| {
        let mut next = pos.clone();
        next.play(m).ok().map(|_| next)
    };
    if let Some(win) = moves
        .iter()
        .find(|m| after(m).is_some_and(|p| p.outcome().is_some_and(|o| o.winner == Some(me))))
    {
        return Some(*win);
    }
    let safe: Vec<Move> = moves
        .iter()
        .filter(|m| after(m).is_some_and(|p| !has_winning_move(&p)))
        .copied()
        .collect();
    safe.choose(rng).or_else(|| moves.choose(rng)).copied()
}

/// Whether the side to move in `pos` can win with its next move.
pub fn has_winning_move(pos: &Position) -> bool {
    if pos.is_over() {
        return false;
    }
    let me = pos.to_move();
    pos.legal_moves().iter().any(|m| {
        let mut next = pos.clone();
        next.play(m).is_ok() && next.outcome().is_some_and(|o| o.winner == Some(me))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_rules::games::Variant;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn qango6(history: &[&str]) -> Position {
        let mut pos = Position::new(Variant::by_id("qango6").unwrap());
        for m in history {
            pos.play_str(m).unwrap();
        }
        pos
    }

    #[test]
    fn takes_a_win() {
        // White a1 b1 (red corner group a1 b1 a2), black elsewhere: a2 wins.
        let pos = qango6(&["a1", "d3", "b1", "e5"]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..5 {
            assert_eq!(greedy_move(&pos, &mut rng).unwrap().to_string(), "a2");
        }
    }

    #[test]
    fn blocks_a_threat() {
        // White threatens a2; black to move must block there.
        let pos = qango6(&["a1", "d3", "b1"]);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..5 {
            assert_eq!(greedy_move(&pos, &mut rng).unwrap().to_string(), "a2");
        }
    }

    #[test]
    fn plays_random_legal_moves_otherwise() {
        let pos = qango6(&["c3"]);
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let picks: std::collections::HashSet<String> = (0..20)
            .map(|_| greedy_move(&pos, &mut rng).unwrap().to_string())
            .collect();
        assert!(picks.len() > 3, "expected varied moves, got {picks:?}");
        assert!(picks.iter().all(|m| pos.clone().play_str(m).is_ok()));
    }
}
