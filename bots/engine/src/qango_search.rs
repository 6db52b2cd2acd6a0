//! Qango search: negamax with alpha-beta over the rules engine's `QangoState`.
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

use arena::games::geometry::{bits, Geometry};
use arena::games::variant::QANGO_MAX_DISCS;
use arena::games::{Cell, Move, QangoState};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::search::{jitter, mix, Report, Timer, INFINITY, MAX_PLY, WIN, WIN_BOUND};
use crate::table::{cutoff, Bound, Table};

/// Value of an open pattern by the number of discs it still needs (index 1,
/// a threat, is scored by the search instead; 5 empty cells are worth nothing).
const OPEN_VALUE: [i32; 6] = [0, 0, 40, 10, 3, 0];
/// Having the move is worth a little: the mover gets to extend first.
const TEMPO: i32 = 10;
/// Move ordering: value of extending an own open pattern by its disc count...
const ORDER_OWN: [i32; 5] = [1, 4, 16, 64, 256];
/// ...and of spoiling an opponent's open pattern by its disc count.
const ORDER_BLOCK: [i32; 5] = [0, 3, 12, 48, 192];
/// `Table` size: 2^18 entries (about 6 MB).
const TABLE_LOG2: u32 = 18;
const NO_MOVE: u16 = u16::MAX;

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

/// Searches `state` (not over) and reports the best move found in time.
pub fn search(state: &QangoState, max_depth: u32, seed: u64, timer: &mut Timer) -> Report {
    let mut searcher = Searcher {
        geometry: state.geometry(),
        timer,
        table: Table::new(TABLE_LOG2),
        killers: [[NO_MOVE as u8; 2]; MAX_PLY],
        seed,
        nodes: 0,
        may_abort: false,
        aborted: false,
    };
    searcher.root(state, max_depth)
}

struct Searcher<'t> {
    geometry: &'static Geometry,
    timer: &'t mut Timer,
    table: Table,
    killers: [[u8; 2]; MAX_PLY],
    seed: u64,
    nodes: u64,
    /// False during the first iteration, so there is always a searched answer.
    may_abort: bool,
    aborted: bool,
}

/// The discs of the side to move and of the opponent.
#[inline]
fn sides(s: &QangoState) -> (u64, u64) {
    let side = (s.ply % 2) as usize;
    (s.discs[side], s.discs[1 - side])
}

#[inline]
fn key(s: &QangoState) -> u64 {
    mix(s.discs[0] ^ mix(s.discs[1]))
}

impl Searcher<'_> {
    fn report(&self, cell: usize, score: i32, depth: u32) -> Report {
        Report {
            best: Move::Qango(Cell::from_index(cell, self.geometry.cols)),
            score,
            depth,
            nodes: self.nodes,
            elapsed: self.timer.elapsed(),
        }
    }

    fn root(&mut self, s: &QangoState, max_depth: u32) -> Report {
        let legal = s.legal_mask();
        let (me, op) = sides(s);
        let found = scan(self.geometry, me, op);
        if let Some(win) = bits(found.threats_me & legal).next() {
            return self.report(win, WIN - 1, 0);
        }
        let candidates = if found.threats_op & legal != 0 {
            found.threats_op & legal
        } else {
            legal
        };
        if candidates.count_ones() == 1 || found.threats_op.count_ones() >= 2 {
            // A forced block, or a lost position where any block will do.
            let score = if found.threats_op.count_ones() >= 2 {
                -(WIN - 2)
            } else {
                found.score
            };
            return self.report(candidates.trailing_zeros() as usize, score, 0);
        }

        let mut moves: Vec<usize> = bits(candidates).collect();
        // Shuffle first so that the stable sort orders equal moves by seed.
        moves.shuffle(&mut ChaCha8Rng::seed_from_u64(self.seed));
        moves.sort_by_key(|&c| -self.order_value(c, me, op));

        let mut best = (moves[0], found.score);
        let mut completed = 0;
        for depth in 1..=max_depth.max(1) {
            if depth > 1 && !self.timer.may_start_iteration() {
                break;
            }
            self.may_abort = depth > 1;
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for (k, &cell) in moves.iter().enumerate() {
                let mut child = *s;
                child.place_unchecked(cell);
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
        s: &QangoState,
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
        if s.win.is_some() {
            return -(WIN - ply as i32);
        }
        let legal = s.legal_mask();
        if legal == 0 {
            return 0;
        }
        let (me, op) = sides(s);
        let found = scan(self.geometry, me, op);
        if found.threats_me & legal != 0 {
            return WIN - ply as i32 - 1;
        }
        if s.ply + 1 >= QANGO_MAX_DISCS || legal.count_ones() == 1 {
            return 0; // this move ends the game, and it does not win
        }
        let forced = found.threats_op != 0;
        if found.threats_op.count_ones() >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        let key = key(s);
        if depth <= 0 && !forced {
            return found.score + TEMPO + jitter(key, self.seed);
        }
        if ply + 1 >= MAX_PLY {
            return found.score;
        }
        let mut tt_best = NO_MOVE;
        if let Some(entry) = self.table.probe(key, ply) {
            if let Some(score) = cutoff(&entry, depth, alpha, beta) {
                return score;
            }
            tt_best = entry.best;
        }
        let (candidates, child_depth) = if forced {
            (found.threats_op, depth)
        } else {
            (legal, depth - 1)
        };

        let mut moves = [(0i32, 0u8); 64];
        let mut n = 0;
        for cell in bits(candidates) {
            let value = if cell as u16 == tt_best {
                1 << 30
            } else if self.killers[ply][0] as usize == cell {
                1 << 20
            } else if self.killers[ply][1] as usize == cell {
                1 << 19
            } else {
                self.order_value(cell, me, op)
            };
            moves[n] = (value, cell as u8);
            n += 1;
        }
        let moves = &mut moves[..n];
        moves.sort_unstable_by_key(|&(value, _)| -value);

        let alpha_orig = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = moves[0].1;
        for (k, &(_, cell)) in moves.iter().enumerate() {
            let mut child = *s;
            child.place_unchecked(cell as usize);
            let score = if k == 0 {
                -self.negamax(&child, child_depth, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(&child, child_depth, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(&child, child_depth, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = cell;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if self.killers[ply][0] != cell {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = cell;
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
        self.table
            .store(key, ply, depth, best_score, bound, best_move as u16);
        best_score
    }

    /// How promising a move looks before searching it: own patterns it
    /// extends and opponent patterns it spoils.
    fn order_value(&self, cell: usize, me: u64, op: u64) -> i32 {
        let mut value = 0;
        for &mask in self.geometry.masks_at(cell) {
            let mine = (me & mask).count_ones() as usize;
            let theirs = (op & mask).count_ones() as usize;
            if theirs == 0 {
                value += ORDER_OWN[mine.min(4)];
            }
            if mine == 0 {
                value += ORDER_BLOCK[theirs.min(4)];
            }
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::games::{Position, Variant};
    use rand::Rng;

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
