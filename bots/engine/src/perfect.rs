//! Perfect play where it can be proven: the engine's search runs first
//! with all but the solver's share of the move's time (`--solve-share`),
//! then the solver ([`arena_solver`]) gets what is left (more when the
//! search ended early: forced moves, proven scores).
//!
//! - **Win**: the solver's move, which keeps the win, is played, unless
//!   the search's own score already proves a (faster) win for its move.
//! - **Draw**: the search's move if it is the solver's or the solver proves
//!   it keeps the draw (so the engine still plays for the opponent's
//!   mistakes); otherwise the solver's drawing move.
//! - **Loss**: the search's move (it resists longest against the moves it
//!   sees; any move loses against perfect play).
//! - **Unknown**: the search's move; the solver's share then goes back to
//!   the search for the next 1, 2, 4, then up to 8 moves (reset by a proof
//!   or a new game), the solver still taking whatever time the search leaves.
//!
//! One solver (and its table, of bounded memory, allocated once) lives as
//! long as the process; its table is kept between moves and games, since a
//! proven value is a fact of the position. A game of another variant
//! replaces it (the old table is freed first). It answers from, and adds
//! to, the settled table on disk ([`arena_solver::settled`]:
//! `$ARENA_TABLE_DIR`, else the user's cache directory; `off` for none),
//! which arena's analysis, `arena solve` and adjudication share.

use std::time::{Duration, Instant};

use arena_rules::games::{Move, Position, Variant};
use arena_solver::{Budget, Solution, Solver, Value};

use crate::search::{choose_move, Report, SearchLimits, WIN_BOUND};

/// The solver's part in the engine's moves (`--solve-share`, `--solve-memory`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolveConfig {
    /// Share of each move's time given to the solver first; 0 turns it off.
    pub share: f64,
    /// Bytes of the solver's table.
    pub memory: usize,
}

impl SolveConfig {
    /// The default: a tenth of the time (a third cost the search about 40
    /// Elo on qango7 at 45 ms a move, docs/PERFORMANCE.md), a 256 MiB table.
    pub const DEFAULT: SolveConfig = SolveConfig {
        share: 0.1,
        memory: 256 << 20,
    };

    pub fn off() -> SolveConfig {
        SolveConfig {
            share: 0.0,
            ..SolveConfig::DEFAULT
        }
    }
}

/// What decided a move.
#[derive(Debug, Clone)]
pub struct Decision {
    pub best: Move,
    /// The mover's proven value, if the solver proved one.
    pub value: Option<Value>,
    /// The search's report (the search always runs).
    pub report: Report,
    /// Whether the move played is the solver's (rather than the search's).
    pub solver_move: bool,
    /// The solver's nodes and time on this move (zero when it did not run).
    pub solve_nodes: u64,
    pub solve_time: Duration,
}

/// The engine's solver, kept for the process.
pub struct Prover {
    config: SolveConfig,
    solver: Option<Solver>,
    /// The solver's speed in nodes per millisecond, measured on its earlier
    /// solves. The solver reads its clock only every 1024 nodes, which can
    /// be tens of milliseconds early in a game; a node cap from this speed
    /// keeps it to its share.
    nodes_per_ms: f64,
    /// Back-off after failed solves: after a solve that ends unknown the
    /// share goes back to the search for the next `backoff` moves of the
    /// game (1, 2, 4, ... up to [`MAX_BACKOFF`]; the solver still takes
    /// what the search leaves), so a long undecided phase (Quinque's middle
    /// game) costs the search a few shares, not every one. A proof resets it.
    backoff: u32,
    /// Moves still searched with the whole time.
    skip: u32,
    /// The ply of the last position asked about: a lower one is a new game.
    last_ply: u32,
}

/// The longest back-off, in moves.
const MAX_BACKOFF: u32 = 8;

/// Less time than this left after the search: no solve.
const MIN_SOLVE: Duration = Duration::from_millis(1);

/// The decision of the search alone.
fn searched(report: Report) -> Decision {
    Decision {
        best: report.best,
        value: None,
        solver_move: false,
        report,
        solve_nodes: 0,
        solve_time: Duration::ZERO,
    }
}

/// The speed assumed before the first measurement: slow (a debug build on
/// a loaded machine), so the first solve is short; measurements raise it.
const FIRST_NODES_PER_MS: f64 = 2.0;

impl Prover {
    pub fn new(config: SolveConfig) -> Prover {
        Prover {
            config,
            solver: None,
            nodes_per_ms: FIRST_NODES_PER_MS,
            backoff: 0,
            skip: 0,
            last_ply: 0,
        }
    }

    /// The solve of `pos` within `time`, capped in nodes by the measured
    /// speed, which the solve then updates.
    fn solve(&mut self, pos: &Position, time: Duration) -> Solution {
        let cap = (time.as_secs_f64() * 1000.0 * self.nodes_per_ms).max(16.0) as u64;
        let budget = Budget {
            time: Some(time),
            nodes: Some(cap),
        };
        let solution = self.solver(pos.variant()).solve(pos, budget);
        let ms = solution.elapsed.as_secs_f64() * 1000.0;
        if ms >= 1.0 && solution.nodes >= 16 {
            let measured = solution.nodes as f64 / ms;
            // Slow solves count at once, fast ones only half: the cap errs
            // on the side of the search's time.
            self.nodes_per_ms = measured.min(0.5 * self.nodes_per_ms + 0.5 * measured);
        }
        solution
    }

    /// Makes the solver of `variant` (reading its settled table) ahead of
    /// the first move that needs it, when the solver takes part at all.
    pub fn prepare(&mut self, variant: &'static Variant) {
        if self.config.share > 0.0 {
            self.solver(variant);
        }
    }

    /// The solver for `variant`, made on first use.
    fn solver(&mut self, variant: &'static Variant) -> &mut Solver {
        if self
            .solver
            .as_ref()
            .is_some_and(|s| !std::ptr::eq(s.variant(), variant))
        {
            self.solver = None;
        }
        self.solver
            .get_or_insert_with(|| Solver::new(variant, self.config.memory).with_shared_table())
    }

    /// Picks a move for the side to move, or `None` if the game is over.
    /// The search and the solver together stay within `limits.time`; with
    /// no time limit, or a share of 0, this is [`choose_move`] alone.
    pub fn choose(&mut self, pos: &Position, limits: SearchLimits, seed: u64) -> Option<Decision> {
        let total = match limits.time {
            Some(total) if self.config.share > 0.0 => total,
            _ => return choose_move(pos, limits, seed).map(searched),
        };
        if pos.ply() < self.last_ply {
            (self.backoff, self.skip) = (0, 0);
        }
        self.last_ply = pos.ply();
        let started = Instant::now();
        let sits_out = self.skip > 0;
        self.skip = self.skip.saturating_sub(1);
        let share = if sits_out {
            0.0
        } else {
            self.config.share.min(1.0)
        };
        let search_time = total.mul_f64(1.0 - share).max(Duration::from_millis(1));
        let report = choose_move(
            pos,
            SearchLimits {
                time: Some(search_time),
                ..limits
            },
            seed,
        )?;
        let mut decision = searched(report);
        let left = |used: Duration| total.saturating_sub(used);
        if left(started.elapsed()) < MIN_SOLVE {
            return Some(decision);
        }
        let solution = self.solve(pos, left(started.elapsed()));
        (decision.value, decision.solve_nodes, decision.solve_time) =
            (solution.value, solution.nodes, solution.elapsed);
        if solution.value.is_some() {
            (self.backoff, self.skip) = (0, 0);
        } else if !sits_out {
            self.backoff = (self.backoff * 2).clamp(1, MAX_BACKOFF);
            self.skip = self.backoff;
        }
        let search_wins = decision.report.score >= WIN_BOUND;
        let replace = match (solution.value, &solution.best) {
            (Some(Value::Win), Some(_)) => !search_wins,
            (Some(Value::Draw), Some(drawing)) => {
                *drawing != decision.best
                    && !self.keeps_draw(pos, &decision.best, left(started.elapsed()))
            }
            _ => false,
        };
        if let (true, Some(best)) = (replace, solution.best) {
            decision.solver_move = best != decision.best;
            decision.best = best;
        }
        Some(decision)
    }

    /// Whether playing `mv` in `pos` (a proven draw) is proven to keep at
    /// least the draw for its mover, within `time`.
    fn keeps_draw(&mut self, pos: &Position, mv: &Move, time: Duration) -> bool {
        let mut child = pos.clone();
        if time < MIN_SOLVE || child.play(mv).is_err() {
            return false;
        }
        let reply = self.solve(&child, time);
        matches!(reply.value, Some(Value::Draw | Value::Loss))
    }
}
