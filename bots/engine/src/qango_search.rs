//! Qango for the shared search: the rules engine's `QangoState` as a
//! [`Searchable`] position.
//!
//! Qango is a game of threats: a pattern (group, square, line) that holds
//! only one side's discs and misses one disc is a *threat*, and its empty
//! cell is a *threat cell*. The search uses that directly:
//! - the side to move with a threat cell wins at once;
//! - facing two threat cells it loses (it can block only one);
//! - facing one it must block it, so that node has a single move and is not
//!   counted against the depth (a threat sequence is searched to its end).
//!
//! The evaluation counts open patterns (only one side's discs), weighted by
//! how many discs they still need.

use arena_rules::games::geometry::{bits, Geometry};
use arena_rules::games::variant::QANGO_MAX_DISCS;
use arena_rules::games::{Cell, Move, QangoState};

use crate::negamax::{Node, Root, Searchable};
use crate::search::{mix, WIN};

/// Value of an open pattern by the number of discs it still needs (index 1,
/// a threat, is scored by the search instead; 5 empty cells are worth nothing).
const OPEN_VALUE: [i32; 6] = [0, 0, 40, 10, 3, 0];
/// Having the move is worth a little: the mover gets to extend first.
const TEMPO: i32 = 10;
/// Move ordering: value of extending an own open pattern by its disc count...
const ORDER_OWN: [i32; 5] = [1, 4, 16, 64, 256];
/// ...and of spoiling an opponent's open pattern by its disc count.
const ORDER_BLOCK: [i32; 5] = [0, 3, 12, 48, 192];

/// What one pass over the patterns finds, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// Open-pattern value of the mover minus that of the opponent (threats excluded).
    pub score: i32,
    /// Empty cells that would complete a pattern for the mover.
    pub threats_me: u64,
    /// Empty cells that would complete a pattern for the opponent.
    pub threats_op: u64,
}

/// Scans every win pattern of the board for open patterns and threats.
pub fn scan(geometry: &Geometry, me: u64, op: u64) -> Scan {
    let mut result = Scan {
        score: 0,
        threats_me: 0,
        threats_op: 0,
    };
    for pattern in &geometry.patterns {
        let mask = pattern.mask;
        let size = mask.count_ones();
        let mine = (me & mask).count_ones();
        let theirs = (op & mask).count_ones();
        if theirs == 0 && mine > 0 {
            match size - mine {
                1 => result.threats_me |= mask & !me,
                need => result.score += OPEN_VALUE[need as usize],
            }
        } else if mine == 0 && theirs > 0 {
            match size - theirs {
                1 => result.threats_op |= mask & !op,
                need => result.score -= OPEN_VALUE[need as usize],
            }
        }
    }
    result
}

/// The discs of the side to move and of the opponent.
#[inline]
fn sides(s: &QangoState) -> (u64, u64) {
    let side = (s.ply % 2) as usize;
    (s.discs[side], s.discs[1 - side])
}

/// What one look at an open Qango position found.
pub struct Facts {
    pub found: Scan,
    /// Discs of the side to move and of the opponent.
    pub me: u64,
    pub op: u64,
    /// Cells the mover may play.
    pub legal: u64,
}

impl Facts {
    fn of(s: &QangoState) -> Facts {
        let (me, op) = sides(s);
        Facts {
            found: scan(s.geometry(), me, op),
            me,
            op,
            legal: s.legal_mask(),
        }
    }
}

/// A move is the index of the cell it fills.
impl Searchable for QangoState {
    type Move = u8;
    type Facts = Facts;
    /// 2^18 entries (about 6 MB).
    const TABLE_LOG2: u32 = 18;

    /// A win now is played at once. Facing one threat the block is the only
    /// move; facing two, the position is lost and any block will do.
    fn root(&self) -> Root<QangoState> {
        let facts = Facts::of(self);
        let Facts { found, legal, .. } = facts;
        if let Some(win) = bits(found.threats_me & legal).next() {
            return Root::Decided {
                best: win as u8,
                score: WIN - 1,
            };
        }
        let candidates = if found.threats_op & legal != 0 {
            found.threats_op & legal
        } else {
            legal
        };
        if candidates.count_ones() == 1 || found.threats_op.count_ones() >= 2 {
            let score = if found.threats_op.count_ones() >= 2 {
                -(WIN - 2)
            } else {
                found.score
            };
            return Root::Decided {
                best: candidates.trailing_zeros() as u8,
                score,
            };
        }
        Root::Search {
            facts,
            candidates: bits(candidates).map(|cell| cell as u8).collect(),
        }
    }

    fn examine(&self, ply: usize) -> Node<Facts> {
        let ply = ply as i32;
        if self.win.is_some() {
            return Node::Settled(-(WIN - ply));
        }
        let facts = Facts::of(self);
        let Facts { found, legal, .. } = facts;
        if legal == 0 {
            return Node::Settled(0);
        }
        if found.threats_me & legal != 0 {
            return Node::Settled(WIN - ply - 1);
        }
        if self.ply + 1 >= QANGO_MAX_DISCS || legal.count_ones() == 1 {
            return Node::Settled(0); // this move ends the game, and it does not win
        }
        if found.threats_op.count_ones() >= 2 {
            return Node::Settled(-(WIN - ply - 2));
        }
        Node::Open {
            forced: found.threats_op != 0,
            facts,
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        mix(self.discs[0] ^ mix(self.discs[1]))
    }

    fn evaluate(&self, facts: &Facts) -> i32 {
        facts.found.score + TEMPO
    }

    /// The blocks when facing a threat, else every legal cell.
    fn for_each_move(&self, facts: &Facts, mut each: impl FnMut(u8)) {
        let candidates = if facts.found.threats_op != 0 {
            facts.found.threats_op
        } else {
            facts.legal
        };
        for cell in bits(candidates) {
            each(cell as u8);
        }
    }

    /// Own open patterns the disc extends and opponent patterns it spoils.
    fn order_value(&self, facts: &Facts, cell: u8) -> i32 {
        let mut value = 0;
        for &mask in self.geometry().masks_at(cell as usize) {
            let mine = (facts.me & mask).count_ones() as usize;
            let theirs = (facts.op & mask).count_ones() as usize;
            if theirs == 0 {
                value += ORDER_OWN[mine.min(4)];
            }
            if mine == 0 {
                value += ORDER_BLOCK[theirs.min(4)];
            }
        }
        value
    }

    #[inline]
    fn child(&self, cell: u8) -> QangoState {
        let mut child = *self;
        child.place_unchecked(cell as usize);
        child
    }

    fn game_move(&self, cell: u8) -> Move {
        Move::Qango(Cell::from_index(cell as usize, self.geometry().cols))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::negamax::search;
    use crate::search::Timer;
    use arena_rules::games::{Position, Variant};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// On random positions of every Qango variant, the scan's threat cells
    /// are exactly the empty cells where a disc of that side would win.
    #[test]
    fn threat_cells_are_exactly_the_winning_cells() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for variant in Variant::all().iter().filter(|v| v.id != "quinque") {
            for _ in 0..30 {
                let mut pos = Position::new(variant);
                let plies = rng.gen_range(0..30);
                for _ in 0..plies {
                    let moves = pos.legal_moves();
                    if pos.is_over() || moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.gen_range(0..moves.len())];
                    pos.play(&m).unwrap();
                }
                let s = *pos.qango().unwrap();
                if s.win.is_some() {
                    continue;
                }
                let g = s.geometry();
                let free = g.playable & !s.occupied();
                let (me, op) = sides(&s);
                let found = scan(g, me, op);
                let wins = |discs: u64| {
                    bits(free)
                        .filter(|&i| g.completed_at(discs | 1 << i, i).is_some())
                        .fold(0u64, |m, i| m | 1 << i)
                };
                assert_eq!(found.threats_me, wins(me), "{}", pos.render(false));
                assert_eq!(found.threats_op, wins(op), "{}", pos.render(false));
                checked += 1;
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn same_seed_same_move_and_seeds_vary_the_choice() {
        let pos = Position::new(Variant::by_id("qango7").unwrap());
        let pick = |seed| {
            let mut timer = Timer::new(None);
            search(pos.qango().unwrap(), 2, seed, &mut timer)
                .best
                .to_string()
        };
        assert_eq!(pick(5), pick(5));
        let picks: std::collections::HashSet<String> = (0..12).map(pick).collect();
        assert!(picks.len() > 1, "every seed chose {picks:?}");
    }
}
