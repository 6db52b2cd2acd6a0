//! The one search both rule families share: iterative deepening over a
//! negamax alpha-beta with principal-variation search, a transposition table
//! and two killer moves per ply, polling the timer as it goes.
//!
//! What differs between families (rules shortcuts, evaluation, the moves to
//! try and how promising each looks) sits behind [`Searchable`]; the tree
//! walk, windows, table and killers live here once.

use std::cmp::Reverse;

use arena_rules::games::Move;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::search::{jitter, Report, Timer, INFINITY, MAX_PLY, WIN_BOUND};
use crate::table::{cutoff, Bound, Table};

/// A position the search can explore: the family-specific part of the engine.
pub trait Searchable: Sized {
    /// A move, kept small: killer slots and per-ply move lists hold them.
    type Move: Copy + PartialEq;
    /// What [`Searchable::examine`] found about a position (threats, the
    /// board from the mover's side), handed back for evaluation and move
    /// generation so that work is done once per node.
    type Facts;
    /// The transposition table has `2^TABLE_LOG2` entries.
    const TABLE_LOG2: u32;

    /// The root: answered at once where no search is needed (a win now, the
    /// only sensible move, a lost position), else the moves to search.
    fn root(&self) -> Root<Self>;
    /// A position `ply` plies below the root: its score if the rules or an
    /// immediate win settle it, else what the search needs to go on.
    fn examine(&self, ply: usize) -> Node<Self::Facts>;
    /// The position's hash for the transposition table.
    fn key(&self) -> u64;
    /// Static score from the mover's view of a position `examine` left open.
    fn evaluate(&self, facts: &Self::Facts) -> i32;
    /// Calls `each` with every move to search, always in the same order for
    /// the same position (the table remembers best moves by that order).
    fn for_each_move(&self, facts: &Self::Facts, each: impl FnMut(Self::Move));
    /// How promising `m` looks before searching it; higher is tried first.
    fn order_value(&self, facts: &Self::Facts, m: Self::Move) -> i32;
    /// The position after `m` (legal: it came from this position's moves).
    fn child(&self, m: Self::Move) -> Self;
    /// `m` in the rules engine's terms, for the report.
    fn game_move(&self, m: Self::Move) -> Move;
}

/// How the root is handled.
pub enum Root<P: Searchable> {
    /// Answered without searching; `score` from the mover's view.
    Decided { best: P::Move, score: i32 },
    /// Search `candidates` (at least two), ordered with `facts`.
    Search {
        facts: P::Facts,
        candidates: Vec<P::Move>,
    },
}

/// What examining a position below the root found.
pub enum Node<F> {
    /// The score is known: game over, a win on the next move, a draw forced
    /// by the rules, or a loss nothing can stop.
    Settled(i32),
    /// Search on. `forced`: the only moves answer a threat, so the node does
    /// not count against the depth (a threat sequence is followed to its end).
    Open { facts: F, forced: bool },
}

/// Searches `pos` (not over) and reports the best move found in time.
///
/// `seed` shuffles the root moves before ordering them, so that equally
/// promising moves are tried, and equally good ones chosen, by seed.
pub fn search<P: Searchable>(pos: &P, max_depth: u32, seed: u64, timer: &mut Timer) -> Report {
    let mut searcher = Searcher::<P> {
        timer,
        table: Table::new(P::TABLE_LOG2),
        killers: [[None; 2]; MAX_PLY],
        move_lists: (0..MAX_PLY).map(|_| Vec::new()).collect(),
        seed,
        nodes: 0,
        may_abort: false,
        aborted: false,
    };
    searcher.root(pos, max_depth)
}

/// A move in a node's list, with what orders it.
#[derive(Clone, Copy)]
struct Ordered<M> {
    value: i32,
    /// Position in the generator's order: ties keep it, the table stores it.
    index: u16,
    mv: M,
}

/// Table move code meaning "none".
const NO_MOVE: u16 = u16::MAX;

struct Searcher<'t, P: Searchable> {
    timer: &'t mut Timer,
    table: Table,
    killers: [[Option<P::Move>; 2]; MAX_PLY],
    /// One reusable move list per ply, so nodes do not allocate.
    move_lists: Vec<Vec<Ordered<P::Move>>>,
    seed: u64,
    nodes: u64,
    /// False during the first iteration, so there is always a searched answer.
    may_abort: bool,
    aborted: bool,
}

impl<P: Searchable> Searcher<'_, P> {
    fn report(&self, pos: &P, best: P::Move, score: i32, depth: u32) -> Report {
        Report {
            best: pos.game_move(best),
            score,
            depth,
            nodes: self.nodes,
            elapsed: self.timer.elapsed(),
        }
    }

    /// Iterative deepening. Each completed iteration replaces the answer and
    /// moves its best move to the front; an iteration cut short by the timer
    /// counts only for a root move it finished and found better.
    fn root(&mut self, pos: &P, max_depth: u32) -> Report {
        let (facts, mut moves) = match pos.root() {
            Root::Decided { best, score } => return self.report(pos, best, score, 0),
            Root::Search { facts, candidates } => (facts, candidates),
        };
        // Shuffle first so that the stable sort orders equal moves by seed.
        moves.shuffle(&mut ChaCha8Rng::seed_from_u64(self.seed));
        moves.sort_by_key(|&m| Reverse(pos.order_value(&facts, m)));

        let mut best = (moves[0], pos.evaluate(&facts));
        let mut completed = 0;
        for depth in 1..=max_depth.max(1) {
            if depth > 1 && !self.timer.may_start_iteration() {
                break;
            }
            self.may_abort = depth > 1;
            let mut alpha = -INFINITY;
            let mut iteration_best = None;
            for (k, &m) in moves.iter().enumerate() {
                let child = pos.child(m);
                let score = self.pvs(&child, k == 0, depth as i32 - 1, alpha, INFINITY, 1);
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
        self.report(pos, best.0, best.1, completed)
    }

    /// The score of `child` (a move of the node with window `alpha..beta`),
    /// from that node's view. The first move gets the full window; later ones
    /// a null window, searched again in full only if they beat `alpha`.
    fn pvs(
        &mut self,
        child: &P,
        first: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if first {
            return -self.negamax(child, depth, -beta, -alpha, ply);
        }
        let probe = -self.negamax(child, depth, -alpha - 1, -alpha, ply);
        if probe > alpha && probe < beta && !self.aborted {
            -self.negamax(child, depth, -beta, -alpha, ply)
        } else {
            probe
        }
    }

    fn negamax(&mut self, pos: &P, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.may_abort && self.timer.expired() {
            self.aborted = true;
            return 0;
        }
        let (facts, forced) = match pos.examine(ply) {
            Node::Settled(score) => return score,
            Node::Open { facts, forced } => (facts, forced),
        };
        let key = pos.key();
        if (depth <= 0 && !forced) || ply + 1 >= MAX_PLY {
            return pos.evaluate(&facts) + jitter(key, self.seed);
        }
        let mut tt_best = NO_MOVE;
        if let Some(entry) = self.table.probe(key, ply) {
            if let Some(score) = cutoff(&entry, depth, alpha, beta) {
                return score;
            }
            tt_best = entry.best;
        }
        let child_depth = if forced { depth } else { depth - 1 };

        let moves = self.ordered_moves(pos, &facts, tt_best, ply);
        let alpha_orig = alpha;
        let mut best_score = -INFINITY;
        let mut best = moves[0];
        for (k, &entry) in moves.iter().enumerate() {
            let child = pos.child(entry.mv);
            let score = self.pvs(&child, k == 0, child_depth, alpha, beta, ply + 1);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best = entry;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                let killers = &mut self.killers[ply];
                if killers[0] != Some(entry.mv) {
                    killers[1] = killers[0];
                    killers[0] = Some(entry.mv);
                }
                break;
            }
        }
        self.move_lists[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best_score <= alpha_orig {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table
            .store(key, ply, depth, best_score, bound, best.index);
        best_score
    }

    /// The node's moves, best first: the table's move, the killers, then by
    /// the family's ordering value; ties in generator order. The list is the
    /// ply's reusable one, taken out until the caller puts it back.
    fn ordered_moves(
        &mut self,
        pos: &P,
        facts: &P::Facts,
        tt_best: u16,
        ply: usize,
    ) -> Vec<Ordered<P::Move>> {
        let killers = self.killers[ply];
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        pos.for_each_move(facts, |mv| {
            let index = moves.len() as u16;
            let value = if index == tt_best {
                1 << 30
            } else if killers[0] == Some(mv) {
                1 << 20
            } else if killers[1] == Some(mv) {
                1 << 19
            } else {
                pos.order_value(facts, mv)
            };
            moves.push(Ordered { value, index, mv });
        });
        moves.sort_unstable_by_key(|m| (Reverse(m.value), m.index));
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{mix, WIN};
    use arena_rules::games::{Cell, Position, Variant};
    use rand::{Rng, SeedableRng};

    /// Tic-tac-toe: small enough to solve by brute force, so the search's
    /// scores can be checked exactly.
    #[derive(Clone, Copy, Debug)]
    struct TicTacToe {
        /// 0 empty, 1 the first player, 2 the second.
        cells: [u8; 9],
        ply: u8,
    }

    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];

    impl TicTacToe {
        fn mover(&self) -> u8 {
            1 + self.ply % 2
        }
        /// Whether the side that just moved completed a line.
        fn last_move_won(&self) -> bool {
            let last = 1 + (self.ply + 1) % 2;
            LINES
                .iter()
                .any(|l| l.iter().all(|&i| self.cells[i] == last))
        }
        fn empty(&self) -> impl Iterator<Item = u8> + '_ {
            (0..9u8).filter(|&i| self.cells[i as usize] == 0)
        }
        /// Exact negamax value, scored like the engine: `WIN - plies`.
        fn solve(&self, ply: i32) -> i32 {
            if self.last_move_won() {
                return -(WIN - ply);
            }
            self.empty()
                .map(|m| -self.child(m).solve(ply + 1))
                .max()
                .unwrap_or(0)
        }
    }

    impl Searchable for TicTacToe {
        type Move = u8;
        type Facts = ();
        const TABLE_LOG2: u32 = 10;

        fn root(&self) -> Root<Self> {
            let candidates: Vec<u8> = self.empty().collect();
            if candidates.len() == 1 {
                let score = -self.child(candidates[0]).solve(1);
                return Root::Decided {
                    best: candidates[0],
                    score,
                };
            }
            Root::Search {
                facts: (),
                candidates,
            }
        }
        fn examine(&self, ply: usize) -> Node<()> {
            if self.last_move_won() {
                Node::Settled(-(WIN - ply as i32))
            } else if self.empty().next().is_none() {
                Node::Settled(0)
            } else {
                Node::Open {
                    facts: (),
                    forced: false,
                }
            }
        }
        fn key(&self) -> u64 {
            let code = self.cells.iter().fold(0u64, |k, &c| k * 3 + c as u64);
            mix(code)
        }
        fn evaluate(&self, _: &()) -> i32 {
            0
        }
        fn for_each_move(&self, _: &(), mut each: impl FnMut(u8)) {
            self.empty().for_each(&mut each);
        }
        /// The centre, then corners: enough to make the ordering matter.
        fn order_value(&self, _: &(), m: u8) -> i32 {
            [2, 1, 2, 1, 3, 1, 2, 1, 2][m as usize]
        }
        fn child(&self, m: u8) -> Self {
            let mut next = *self;
            next.cells[m as usize] = self.mover();
            next.ply += 1;
            next
        }
        fn game_move(&self, m: u8) -> Move {
            Move::Qango(Cell::from_index(m as usize, 3))
        }
    }

    fn random_position(rng: &mut ChaCha8Rng) -> TicTacToe {
        loop {
            let mut pos = TicTacToe {
                cells: [0; 9],
                ply: 0,
            };
            for _ in 0..rng.gen_range(0..7) {
                let empty: Vec<u8> = pos.empty().collect();
                pos = pos.child(empty[rng.gen_range(0..empty.len())]);
            }
            if !pos.last_move_won() {
                return pos;
            }
        }
    }

    /// Searched to the end, the score is the exact game value, and the move
    /// reported reaches it, for any seed.
    #[test]
    fn full_depth_search_finds_the_exact_value_and_a_move_that_keeps_it() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut proven = 0;
        for _ in 0..60 {
            let pos = random_position(&mut rng);
            let value = pos.solve(0);
            for seed in 0..2 {
                let report = search(&pos, 9, seed, &mut Timer::new(None));
                assert_eq!(report.score, value, "{pos:?} seed {seed}");
                let m = pos
                    .empty()
                    .find(|&m| pos.game_move(m) == report.best)
                    .expect("an empty cell");
                assert_eq!(-pos.child(m).solve(1), value, "{pos:?}: {}", report.best);
            }
            proven += (value.abs() >= WIN_BOUND) as u32;
        }
        assert!(proven > 10, "only {proven} won or lost positions");
    }

    /// Iterative deepening stops at a proven result and reports the depth
    /// of the last iteration it completed.
    #[test]
    fn stops_deepening_at_a_proven_win() {
        // X: a1 b1 (cells 0, 1); O: a2 c3 (3, 8). X to move wins at c1 (cell 2).
        let pos = TicTacToe {
            cells: [1, 1, 0, 2, 0, 0, 0, 0, 2],
            ply: 4,
        };
        let report = search(&pos, 9, 0, &mut Timer::new(None));
        assert_eq!(report.score, WIN - 1);
        assert_eq!(report.best.to_string(), "c1");
        assert_eq!(report.depth, 1);
    }

    /// With the budget spent, no iteration after the first is started, and
    /// the first one still gives a move.
    #[test]
    fn a_spent_budget_stops_after_the_first_iteration() {
        let pos = Position::new(Variant::by_id("qango7").unwrap());
        let mut timer = Timer::new(Some(std::time::Duration::ZERO));
        let report = search(pos.qango().unwrap(), 10, 0, &mut timer);
        assert_eq!(report.depth, 1);
        assert!(pos.legal_moves().contains(&report.best));
    }
}
