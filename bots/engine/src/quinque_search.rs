//! Quinque for the shared search: the rules engine's `QuinqueState` as a
//! [`Searchable`] position.
//!
//! Positions are cloned and moved with the engine's own move generator and
//! `apply_unchecked` (the generator only yields legal moves), so the search
//! plays exactly the referee's rules, captures and "no moves" losses included.
//!
//! The evaluation looks at the twelve lines of five: a line holding only one
//! side's stacks is open for that side, worth more the more stacks it has; a
//! line one stack short whose last cell that side can take now is a threat.
//! Material (supply plus stones on the board) and doubles (which capture) add
//! to it.

use arena_rules::games::quinque::{lines, CELLS, SIZE};
use arena_rules::games::{Color, Move, QuinqueMove, QuinqueState};

use crate::negamax::{Node, Root, Searchable};
use crate::search::{mix, WIN};

/// Value of an open line by the number of own stacks on it.
const LINE_VALUE: [i32; 6] = [0, 2, 8, 25, 70, 0];
/// The opponent has a line one stack short and could take the last cell.
const THREAT_VALUE: i32 = 150;
/// One stone of material (in the supply or on the board).
const STONE_VALUE: i32 = 20;
/// A double can capture: worth more than the stone it holds.
const DOUBLE_VALUE: i32 = 12;
/// A double the other side can capture (two of its doubles, or one if the
/// double is enclosed) is not safe: it loses two stones at once.
const UNSAFE_DOUBLE: i32 = 15;
/// A triple can never be captured.
const TRIPLE_VALUE: i32 = 10;
const TEMPO: i32 = 10;
const ORDER_OWN: [i32; 5] = [1, 4, 16, 64, 256];
const ORDER_BLOCK: [i32; 5] = [0, 3, 12, 48, 192];
/// The ordering value of a move that completes a line (above all others).
const WIN_ORDER: i32 = 1 << 24;

/// The board from one side's view, as 25-bit masks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sides {
    pub mine: u32,
    pub theirs: u32,
    pub my_doubles: u32,
    pub their_singles: u32,
    pub their_doubles: u32,
    pub my_triples: u32,
    /// Stones on the board (sum of heights).
    pub my_stones: i32,
    pub their_stones: i32,
}

impl Sides {
    pub fn of(s: &QuinqueState, me: Color) -> Sides {
        let sign: i8 = if me == Color::White { 1 } else { -1 };
        let mut v = Sides::default();
        for (i, &stack) in s.stacks.iter().enumerate() {
            let h = stack * sign;
            let bit = 1u32 << i;
            match h {
                0 => {}
                1 => v.mine |= bit,
                2 => {
                    v.mine |= bit;
                    v.my_doubles |= bit;
                }
                3 => {
                    v.mine |= bit;
                    v.my_triples |= bit;
                }
                -1 => {
                    v.theirs |= bit;
                    v.their_singles |= bit;
                }
                -2 => {
                    v.theirs |= bit;
                    v.their_doubles |= bit;
                }
                _ => v.theirs |= bit,
            }
            if h > 0 {
                v.my_stones += h as i32;
            } else {
                v.their_stones -= h as i32;
            }
        }
        v
    }
}

/// Orthogonal neighbours of each cell, as masks.
fn neighbours() -> &'static [u32; CELLS] {
    static N: std::sync::OnceLock<[u32; CELLS]> = std::sync::OnceLock::new();
    N.get_or_init(|| {
        let mut n = [0u32; CELLS];
        for (i, mask) in n.iter_mut().enumerate() {
            let (r, c) = ((i / SIZE) as i32, (i % SIZE) as i32);
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (rr, cc) = (r + dr, c + dc);
                if (0..SIZE as i32).contains(&rr) && (0..SIZE as i32).contains(&cc) {
                    *mask |= 1 << (rr as usize * SIZE + cc as usize);
                }
            }
        }
        n
    })
}

/// Whether the side seen as "mine" could put its stack on cell `i` with one
/// action (`supply` = its supply; `locked` = a cell it may not capture).
pub fn can_take(v: &Sides, i: usize, supply: u8, locked: Option<usize>) -> bool {
    let bit = 1u32 << i;
    if (v.mine | v.theirs) & bit == 0 {
        return supply > 0;
    }
    if locked == Some(i) || v.mine & bit != 0 {
        return false;
    }
    let enclosed = neighbours()[i] & !v.mine == 0;
    let doubles = v.my_doubles.count_ones();
    if v.their_singles & bit != 0 {
        doubles >= 1 || (enclosed && supply > 0)
    } else if v.their_doubles & bit != 0 {
        doubles >= 2 || (enclosed && doubles >= 1)
    } else {
        false // a triple
    }
}

/// Cells completing a line of five for "mine" that it could take now.
pub fn winning_cells(v: &Sides, supply: u8, locked: Option<usize>) -> u32 {
    let mut cells = 0;
    for &line in lines() {
        if (v.mine & line).count_ones() == 4 {
            let last = line & !v.mine;
            if can_take(v, last.trailing_zeros() as usize, supply, locked) {
                cells |= last;
            }
        }
    }
    cells
}

fn side_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn locked_index(s: &QuinqueState) -> Option<usize> {
    s.locked.map(|c| c.index(SIZE as u8))
}

/// How many of the other side's doubles the side seen as "mine" could capture.
fn unsafe_doubles(v: &Sides) -> i32 {
    match v.my_doubles.count_ones() {
        0 => 0,
        1 => (0..CELLS)
            .filter(|&i| v.their_doubles & (1 << i) != 0 && neighbours()[i] & !v.mine == 0)
            .count() as i32,
        _ => v.their_doubles.count_ones() as i32,
    }
}

/// Static value for the side to move (no immediate win available); `v` is
/// the board from the mover's side.
pub fn evaluate(s: &QuinqueState, v: &Sides) -> i32 {
    let me = s.to_move();
    let w = Sides::of(s, me.opponent());
    let mut score = TEMPO;
    for &line in lines() {
        let mine = (v.mine & line).count_ones() as usize;
        let theirs = (v.theirs & line).count_ones() as usize;
        if theirs == 0 {
            score += LINE_VALUE[mine];
        }
        if mine == 0 {
            score -= LINE_VALUE[theirs];
        }
    }
    let their_supply = s.supply[side_index(me.opponent())];
    // Their threats as of their next turn (the lock will have moved on).
    score -= THREAT_VALUE * winning_cells(&w, their_supply, None).count_ones() as i32;
    let my_supply = s.supply[side_index(me)] as i32;
    score += STONE_VALUE * (my_supply + v.my_stones - their_supply as i32 - v.their_stones);
    score += DOUBLE_VALUE * (v.my_doubles.count_ones() as i32 - w.my_doubles.count_ones() as i32);
    score += TRIPLE_VALUE * (v.my_triples.count_ones() as i32 - w.my_triples.count_ones() as i32);
    score += UNSAFE_DOUBLE * (unsafe_doubles(v) - unsafe_doubles(&w));
    score
}

/// A move's ordering value before searching it: wins, then captures, then
/// moves that extend own lines or spoil the opponent's.
fn order_value(m: &QuinqueMove, v: &Sides) -> i32 {
    let target = m.target().index(SIZE as u8);
    let bit = 1u32 << target;
    if lines()
        .iter()
        .any(|&line| line & bit != 0 && (v.mine | bit) & line == line)
    {
        return WIN_ORDER;
    }
    let mut lines_value = 0;
    for &line in lines().iter().filter(|&&line| line & bit != 0) {
        let mine = ((v.mine & !bit) & line).count_ones() as usize;
        let theirs = ((v.theirs & !bit) & line).count_ones() as usize;
        if theirs == 0 {
            lines_value += ORDER_OWN[mine.min(4)];
        }
        if mine == 0 {
            lines_value += ORDER_BLOCK[theirs.min(4)];
        }
    }
    match m {
        QuinqueMove::Capture {
            second: Some(_), ..
        } => 4000 + lines_value,
        QuinqueMove::Capture { .. } | QuinqueMove::Enclose(_) => 3000 + lines_value,
        QuinqueMove::Place(_) => lines_value,
        QuinqueMove::Double(_) => 30 + lines_value / 4,
        QuinqueMove::Triple(_) => 10 + lines_value / 4,
    }
}

/// A move is one of the rules engine's own, generated by it and applied
/// with `apply_unchecked`.
impl Searchable for QuinqueState {
    type Move = QuinqueMove;
    /// The board from the mover's side.
    type Facts = Sides;
    const TABLE_LOG2: u32 = 16;

    /// A win now is played at once, and an only move without searching.
    fn root(&self) -> Root<QuinqueState> {
        let legal = self.legal_moves();
        let v = Sides::of(self, self.to_move());
        if let Some(&win) = legal.iter().find(|m| order_value(m, &v) == WIN_ORDER) {
            return Root::Decided {
                best: win,
                score: WIN - 1,
            };
        }
        if legal.len() == 1 {
            return Root::Decided {
                best: legal[0],
                score: evaluate(self, &v),
            };
        }
        Root::Search {
            facts: v,
            candidates: legal,
        }
    }

    fn examine(&self, ply: usize) -> Node<Sides> {
        let ply = ply as i32;
        let me = self.to_move();
        if let Some((winner, _, _)) = self.result {
            let score = WIN - ply;
            return Node::Settled(if winner == me { score } else { -score });
        }
        let v = Sides::of(self, me);
        if winning_cells(&v, self.supply[side_index(me)], locked_index(self)) != 0 {
            return Node::Settled(WIN - ply - 1);
        }
        Node::Open {
            facts: v,
            forced: false,
        }
    }

    fn key(&self) -> u64 {
        let mut h = mix(self.ply as u64 & 1);
        for chunk in self.stacks.chunks(8) {
            let word = chunk
                .iter()
                .fold(0u64, |w, &stack| (w << 8) | (stack as u8 as u64));
            h = mix(h ^ word);
        }
        let extra = self.supply[0] as u64
            | (self.supply[1] as u64) << 8
            | (locked_index(self).map_or(0xff, |i| i as u64)) << 16;
        mix(h ^ extra)
    }

    fn evaluate(&self, v: &Sides) -> i32 {
        evaluate(self, v)
    }

    fn for_each_move(&self, _: &Sides, each: impl FnMut(QuinqueMove)) {
        self.legal_moves().into_iter().for_each(each);
    }

    fn order_value(&self, v: &Sides, m: QuinqueMove) -> i32 {
        order_value(&m, v)
    }

    fn child(&self, m: QuinqueMove) -> QuinqueState {
        let mut child = self.clone();
        child.apply_unchecked(&m);
        child
    }

    fn game_move(&self, m: QuinqueMove) -> Move {
        Move::Quinque(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_rules::games::RuleReason;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// On random positions, the cells `winning_cells` reports for the mover
    /// are exactly the targets of legal moves that complete a line.
    #[test]
    fn winning_cells_match_the_rules_engine() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut positions = 0;
        let mut with_wins = 0;
        for _ in 0..150 {
            let mut s = QuinqueState::default();
            while s.result.is_none() {
                let me = s.to_move();
                let v = Sides::of(&s, me);
                let claimed = winning_cells(&v, s.supply[side_index(me)], locked_index(&s));
                let moves = s.legal_moves();
                let mut actual = 0u32;
                for m in &moves {
                    let mut next = s.clone();
                    next.apply_unchecked(m);
                    if matches!(next.result, Some((w, RuleReason::Line, _)) if w == me) {
                        actual |= 1 << m.target().index(SIZE as u8);
                    }
                }
                assert_eq!(claimed, actual, "{s:?}");
                let can_win = matches!(s.examine(0), Node::Settled(score) if score == WIN - 1);
                assert_eq!(can_win, actual != 0, "{s:?}");
                positions += 1;
                with_wins += (actual != 0) as u32;
                let m = moves[rng.gen_range(0..moves.len())];
                s.apply_unchecked(&m);
            }
        }
        assert!(
            positions > 1000 && with_wins > 20,
            "{positions} {with_wins}"
        );
    }

    #[test]
    fn order_value_puts_line_wins_first() {
        let mut s = QuinqueState::default();
        for m in [
            "place a1", "place a5", "place b1", "place b5", "place c1", "place c5", "place d1",
            "place e3",
        ] {
            s.play(&QuinqueMove::parse(m).unwrap()).unwrap();
        }
        let v = Sides::of(&s, s.to_move());
        let win = QuinqueMove::parse("place e1").unwrap();
        let other = QuinqueMove::parse("place d5").unwrap();
        assert_eq!(order_value(&win, &v), WIN_ORDER);
        assert!(order_value(&other, &v) < WIN_ORDER);
    }
}
