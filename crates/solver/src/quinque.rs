//! Quinque for the search: the rules crate's state as it is, its moves in
//! board order, and a key packing the stacks, supplies and the capture lock
//! merged over the board's eight symmetries.

use arena_rules::games::quinque::{CELLS, SIZE};
use arena_rules::games::symmetry::{board_symmetries, Symmetry};
use arena_rules::games::{Color, Move, Position, QuinqueMove, QuinqueState, Variant};

use crate::game::{Glance, Rules};

pub struct QuinqueRules {
    /// `maps[k][i]`: where cell `i` goes under the k-th symmetry (the
    /// identity included). The first move's rule (not the centre) is kept
    /// by every symmetry of the square.
    maps: Vec<[u8; CELLS]>,
}

impl QuinqueRules {
    pub fn new(variant: &'static Variant) -> QuinqueRules {
        let maps = board_symmetries(variant)
            .iter()
            .map(|s: &Symmetry| {
                let mut map = [0u8; CELLS];
                for (i, slot) in map.iter_mut().enumerate() {
                    *slot = s.map_index(i) as u8;
                }
                map
            })
            .collect();
        QuinqueRules { maps }
    }

    pub fn state_of(&self, pos: &Position) -> QuinqueState {
        pos.quinque().expect("a Quinque position").clone()
    }
}

impl Rules for QuinqueRules {
    type State = QuinqueState;
    type Move = QuinqueMove;

    fn mover(&self, s: &QuinqueState) -> Color {
        s.to_move()
    }

    fn key(&self, s: &QuinqueState) -> u128 {
        let tail = |locked: Option<usize>| -> u128 {
            let lock = locked.map_or(31, |i| i as u128);
            (s.supply[0] as u128)
                | (s.supply[1] as u128) << 5
                | lock << 10
                | ((s.ply % 2) as u128) << 15
                | ((s.ply == 0) as u128) << 16
        };
        let locked = s.locked.map(|c| c.index(SIZE as u8));
        self.maps
            .iter()
            .map(|map| {
                let mut stacks: u128 = 0;
                for (&h, &to) in s.stacks.iter().zip(map) {
                    stacks |= ((h + 3) as u128) << (3 * to as u32);
                }
                stacks << 17 | tail(locked.map(|i| map[i] as usize))
            })
            .min()
            .expect("the identity is a symmetry")
    }

    fn glance(&self, s: &QuinqueState) -> Glance {
        if let Some((winner, _, _)) = s.result {
            return if winner == s.to_move() {
                Glance::Won
            } else {
                Glance::Lost
            };
        }
        let mut moves = 0;
        s.for_each_legal_move(|_| moves += 1);
        if moves == 0 {
            return Glance::Lost;
        }
        Glance::Open {
            moves,
            mover_can_win: true,
            opponent_can_win: true,
        }
    }

    fn moves(&self, s: &QuinqueState, out: &mut Vec<QuinqueMove>) {
        out.clear();
        s.for_each_legal_move(|m| out.push(m));
    }

    fn play(&self, s: &QuinqueState, m: QuinqueMove) -> QuinqueState {
        let mut next = s.clone();
        next.apply_unchecked(&m);
        next
    }

    fn to_move(&self, _s: &QuinqueState, m: QuinqueMove) -> Move {
        Move::Quinque(m)
    }
}
