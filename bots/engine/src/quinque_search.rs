//! Quinque search: negamax with alpha-beta over the rules engine's `QuinqueState`.
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

use arena::games::quinque::{lines, CELLS, SIZE};
use arena::games::{Color, Move, QuinqueMove, QuinqueState};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::search::{jitter, mix, Report, Timer, INFINITY, MAX_PLY, WIN, WIN_BOUND};
use crate::table::{cutoff, Bound, Table};

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
const TABLE_LOG2: u32 = 16;
const NO_MOVE: u16 = u16::MAX;

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

/// Whether the side to move can complete a line of five right now.
pub fn mover_can_win(s: &QuinqueState) -> bool {
    let me = s.to_move();
    let v = Sides::of(s, me);
    winning_cells(&v, s.supply[side_index(me)], locked_index(s)) != 0
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

/// Static value for the side to move (no immediate win available).
pub fn evaluate(s: &QuinqueState) -> i32 {
    let me = s.to_move();
    let v = Sides::of(s, me);
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
    score += UNSAFE_DOUBLE * (unsafe_doubles(&v) - unsafe_doubles(&w));
    score
}

fn key(s: &QuinqueState) -> u64 {
    let mut h = mix(s.ply as u64 & 1);
    for chunk in s.stacks.chunks(8) {
        let word = chunk
            .iter()
            .fold(0u64, |w, &stack| (w << 8) | (stack as u8 as u64));
        h = mix(h ^ word);
    }
    let extra = s.supply[0] as u64
        | (s.supply[1] as u64) << 8
        | (locked_index(s).map_or(0xff, |i| i as u64)) << 16;
    mix(h ^ extra)
}

/// Searches `state` (not over) and reports the best move found in time.
pub fn search(state: &QuinqueState, max_depth: u32, seed: u64, timer: &mut Timer) -> Report {
    let mut searcher = Searcher {
        timer,
        table: Table::new(TABLE_LOG2),
        killers: [[None; 2]; MAX_PLY],
        seed,
        nodes: 0,
        may_abort: false,
        aborted: false,
    };
    searcher.root(state, max_depth)
}

struct Searcher<'t> {
    timer: &'t mut Timer,
    table: Table,
    killers: [[Option<QuinqueMove>; 2]; MAX_PLY],
    seed: u64,
    nodes: u64,
    may_abort: bool,
    aborted: bool,
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
        return 1 << 24;
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

impl Searcher<'_> {
    fn report(&self, m: QuinqueMove, score: i32, depth: u32) -> Report {
        Report {
            best: Move::Quinque(m),
            score,
            depth,
            nodes: self.nodes,
            elapsed: self.timer.elapsed(),
        }
    }

    /// `generated` (the engine's move list for `s`) best first.
    fn ordered_moves(
        &self,
        s: &QuinqueState,
        generated: &[QuinqueMove],
        tt_best: u16,
        ply: usize,
    ) -> Vec<QuinqueMove> {
        let v = Sides::of(s, s.to_move());
        let mut scored: Vec<(i32, QuinqueMove)> = generated
            .iter()
            .copied()
            .enumerate()
            .map(|(k, m)| {
                let value = if k as u16 == tt_best {
                    1 << 30
                } else if ply < MAX_PLY && self.killers[ply][0] == Some(m) {
                    1 << 20
                } else if ply < MAX_PLY && self.killers[ply][1] == Some(m) {
                    1 << 19
                } else {
                    order_value(&m, &v)
                };
                (value, m)
            })
            .collect();
        scored.sort_by_key(|&(value, _)| -value);
        scored.into_iter().map(|(_, m)| m).collect()
    }

    fn root(&mut self, s: &QuinqueState, max_depth: u32) -> Report {
        let legal = s.legal_moves();
        let me = s.to_move();
        let v = Sides::of(s, me);
        if let Some(win) = legal.iter().find(|m| order_value(m, &v) == 1 << 24) {
            return self.report(*win, WIN - 1, 0);
        }
        if legal.len() == 1 {
            return self.report(legal[0], evaluate(s), 0);
        }
        let mut moves = legal;
        moves.shuffle(&mut ChaCha8Rng::seed_from_u64(self.seed));
        moves.sort_by_key(|m| -order_value(m, &v));

        let mut best = (moves[0], evaluate(s));
        let mut completed = 0;
        for depth in 1..=max_depth.max(1) {
            if depth > 1 && !self.timer.may_start_iteration() {
                break;
            }
            self.may_abort = depth > 1;
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for (k, m) in moves.iter().enumerate() {
                let mut child = s.clone();
                child.apply_unchecked(m);
                let d = depth as i32 - 1;
                let score = if k == 0 {
                    -self.negamax(&child, d, -INFINITY, -alpha, 1)
                } else {
                    let probe = -self.negamax(&child, d, -alpha - 1, -alpha, 1);
                    if probe > alpha && !self.aborted {
                        -self.negamax(&child, d, -INFINITY, -alpha, 1)
                    } else {
                        probe
                    }
                };
                if self.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iteration_best = Some(k);
                }
            }
            if let Some(k) = iteration_best {
                best = (moves[k], alpha);
                moves[..=k].rotate_right(1);
            }
            if self.aborted {
                break;
            }
            completed = depth;
            if alpha.abs() >= WIN_BOUND {
                break;
            }
        }
        self.report(best.0, best.1, completed)
    }

    fn negamax(
        &mut self,
        s: &QuinqueState,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.may_abort && self.timer.expired() {
            self.aborted = true;
            return 0;
        }
        if let Some((winner, _, _)) = s.result {
            let score = WIN - ply as i32;
            return if winner == s.to_move() { score } else { -score };
        }
        if mover_can_win(s) {
            return WIN - ply as i32 - 1;
        }
        let key = key(s);
        if depth <= 0 || ply + 1 >= MAX_PLY {
            return evaluate(s) + jitter(key, self.seed);
        }
        let mut tt_best = NO_MOVE;
        if let Some(entry) = self.table.probe(key, ply) {
            if let Some(score) = cutoff(&entry, depth, alpha, beta) {
                return score;
            }
            tt_best = entry.best;
        }
        let generated = s.legal_moves();
        let moves = self.ordered_moves(s, &generated, tt_best, ply);
        let alpha_orig = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves[0];
        for (k, m) in moves.iter().enumerate() {
            let mut child = s.clone();
            child.apply_unchecked(m);
            let score = if k == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = *m;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if self.killers[ply][0] != Some(*m) {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = Some(*m);
                }
                break;
            }
        }
        let bound = if best_score <= alpha_orig {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let index = generated
            .iter()
            .position(|m| *m == best_move)
            .map_or(NO_MOVE, |k| k as u16);
        self.table.store(key, ply, depth, best_score, bound, index);
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

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
                    if matches!(next.result, Some((w, "line", _)) if w == me) {
                        actual |= 1 << m.target().index(SIZE as u8);
                    }
                }
                assert_eq!(claimed, actual, "{s:?}");
                assert_eq!(mover_can_win(&s), actual != 0);
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
        assert_eq!(order_value(&win, &v), 1 << 24);
        assert!(order_value(&other, &v) < 1 << 24);
    }
}
