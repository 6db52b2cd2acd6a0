//! The Qango search's first look at a position checked a few plies deep
//! with the rules crate alone: where it says the mover has won, the mover
//! forces a win within 3 plies; where it says lost, every move of the
//! mover lets the opponent force a win within 3 plies; and every legal
//! move it leaves out of the search (not the block of a threat, not an
//! answer to a fork) lets the opponent force a win within 3 plies. The
//! positions are midgames of random play, where forks abound.

use arena_rules::games::{Family, Move, Position, Variant};
use arena_solver::game::{Glance, Rules};
use arena_solver::qango::QangoRules;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn after(pos: &Position, m: &Move) -> Position {
    let mut next = pos.clone();
    next.play(m).unwrap();
    next
}

/// Whether `pos` is over with `side` (the mover of some earlier position)
/// the winner.
fn won_by(pos: &Position, side: arena_rules::games::Color) -> bool {
    pos.outcome().is_some_and(|o| o.winner == Some(side))
}

/// The side to move forces a win within `plies` (1 or 3) plies.
fn wins_within(pos: &Position, plies: u32) -> bool {
    let me = pos.to_move();
    pos.legal_moves().iter().any(|m| {
        let next = after(pos, m);
        if won_by(&next, me) {
            return true;
        }
        if plies < 3 || next.outcome().is_some() {
            return false;
        }
        next.legal_moves().iter().all(|r| {
            let reply = after(&next, r);
            reply.outcome().is_none() && wins_within(&reply, 1)
        })
    })
}

/// After `m`, the opponent forces a win within 3 plies (and `m` itself did
/// not win).
fn loses_after(pos: &Position, m: &Move) -> bool {
    let next = after(pos, m);
    !won_by(&next, pos.to_move()) && next.outcome().is_none() && wins_within(&next, 3)
        || next
            .outcome()
            .is_some_and(|o| o.winner == Some(next.to_move()))
}

/// A midgame of random play that completes no pattern: `plies` discs.
fn midgame(v: &'static Variant, plies: u32, rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut pos = Position::new(v);
    while pos.ply() < plies {
        let mut moves = pos.legal_moves();
        moves.shuffle(rng);
        let quiet = moves
            .into_iter()
            .find(|m| after(&pos, m).outcome().is_none())?;
        pos.play(&quiet).unwrap();
    }
    Some(pos)
}

#[test]
fn the_first_look_and_the_moves_searched_agree_with_a_three_ply_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let (mut won, mut lost, mut pruned) = (0, 0, 0);
    for v in Variant::all() {
        let Family::Qango(_) = v.family else {
            continue;
        };
        let rules = QangoRules::new(v);
        for _ in 0..30 {
            let plies = rng.gen_range(6..22);
            let Some(pos) = midgame(v, plies, &mut rng) else {
                continue;
            };
            let line = || {
                let moves: Vec<String> = pos.history().iter().map(|m| m.to_string()).collect();
                format!("{} after {}", v.id, moves.join(" "))
            };
            let s = rules.state_of(&pos);
            match rules.glance(&s) {
                Glance::Won => {
                    assert!(wins_within(&pos, 3), "said won: {}", line());
                    won += 1;
                }
                Glance::Lost => {
                    for m in pos.legal_moves() {
                        assert!(loses_after(&pos, &m), "said lost, {m} holds: {}", line());
                    }
                    lost += 1;
                }
                Glance::Drawn => {}
                Glance::Open { moves, .. } => {
                    let mut searched = Vec::new();
                    rules.moves(&s, &mut searched);
                    assert_eq!(searched.len() as u32, moves, "{}", line());
                    let searched: Vec<Move> =
                        searched.iter().map(|&m| rules.to_move(&s, m)).collect();
                    for m in pos.legal_moves() {
                        if !searched.contains(&m) {
                            assert!(
                                loses_after(&pos, &m),
                                "left out {m}, which holds: {}",
                                line()
                            );
                            pruned += 1;
                        }
                    }
                }
            }
        }
    }
    eprintln!("won {won}, lost {lost}, moves left out {pruned}");
    // The positions exercise every case (fixed seed: a change of the
    // rules or the search that removes a case shows here).
    assert!(
        won >= 5 && lost >= 5 && pruned >= 50,
        "won {won}, lost {lost}, left out {pruned}"
    );
}
