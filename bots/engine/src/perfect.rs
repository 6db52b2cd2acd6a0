//! Perfect play where it can be proven: before its search the engine gives
//! the solver ([`arena_solver`]) a share of the move's time.
//!
//! - **Win**: the solver's move, which keeps the win, is played at once.
//! - **Draw**: the search runs with most of the time left and its move is
//!   played if the solver proves it keeps the draw (so the engine still
//!   plays for the opponent's mistakes); otherwise the solver's drawing move.
//! - **Loss**: the normal search decides with the time left (it resists
//!   longest against the moves it sees; any move loses against perfect play).
//! - **Unknown**: the normal search with the time left.
//!
//! One solver (and its table, of bounded memory, allocated once) lives as
//! long as the process; its table is kept between moves and games, since a
//! proven value is a fact of the position. A game of another variant
//! replaces it (the old table is freed first).

use std::time::{Duration, Instant};

use arena_rules::games::{Move, Position, Variant};
use arena_solver::{Budget, Solution, Solver, Value};

use crate::search::{choose_move, Limits, Report};

/// The solver's part in the engine's moves (`--solve-share`, `--solve-memory`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolveConfig {
    /// Share of each move's time given to the solver first; 0 turns it off.
    pub share: f64,
    /// Bytes of the solver's table.
    pub memory: usize,
}

impl SolveConfig {
    /// The default: a third of the time (0.33), a 256 MiB table.
    pub const DEFAULT: SolveConfig = SolveConfig {
        share: 0.33,
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
    /// The search's report, when the search ran.
    pub report: Option<Report>,
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
}

/// The speed assumed before the first measurement (slower than measured
/// early in a qango7 game on a loaded machine, so the first cap is safe).
const FIRST_NODES_PER_MS: f64 = 20.0;

impl Prover {
    pub fn new(config: SolveConfig) -> Prover {
        Prover {
            config,
            solver: None,
            nodes_per_ms: FIRST_NODES_PER_MS,
        }
    }

    /// The solve of `pos` within `time`, capped in nodes by the measured
    /// speed, which the solve then updates.
    fn solve(&mut self, pos: &Position, time: Duration) -> Solution {
        let cap = (time.as_secs_f64() * 1000.0 * self.nodes_per_ms).max(64.0) as u64;
        let budget = Budget {
            time: Some(time),
            nodes: Some(cap),
        };
        let solution = self.solver(pos.variant()).solve(pos, budget);
        let ms = solution.elapsed.as_secs_f64() * 1000.0;
        if ms >= 2.0 && solution.nodes >= 64 {
            let measured = solution.nodes as f64 / ms;
            self.nodes_per_ms = 0.5 * self.nodes_per_ms + 0.5 * measured;
        }
        solution
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
            .get_or_insert_with(|| Solver::new(variant, self.config.memory))
    }

    /// Picks a move for the side to move, or `None` if the game is over.
    /// The solver and the search together stay within `limits.time`; with
    /// no time limit, or a share of 0, this is [`choose_move`] alone.
    pub fn choose(&mut self, pos: &Position, limits: Limits, seed: u64) -> Option<Decision> {
        let searched = |report: Report, value| Decision {
            best: report.best.clone(),
            value,
            solver_move: false,
            report: Some(report),
            solve_nodes: 0,
            solve_time: Duration::ZERO,
        };
        let total = match limits.time {
            Some(total) if self.config.share > 0.0 && !pos.is_over() => total,
            _ => return choose_move(pos, limits, seed).map(|r| searched(r, None)),
        };
        let started = Instant::now();
        let left = |used: Duration| total.saturating_sub(used).max(Duration::from_millis(1));
        let share = total.mul_f64(self.config.share.min(1.0));
        let solution = self.solve(pos, share);
        let mut decision = match (solution.value, solution.best.clone()) {
            (Some(Value::Win), Some(best)) => Decision {
                best,
                value: Some(Value::Win),
                report: None,
                solver_move: true,
                solve_nodes: 0,
                solve_time: Duration::ZERO,
            },
            (Some(Value::Draw), Some(drawing)) => {
                let time = left(started.elapsed()).mul_f64(0.75);
                let report = choose_move(
                    pos,
                    Limits {
                        time: Some(time),
                        ..limits
                    },
                    seed,
                )?;
                let keeps = report.best == drawing
                    || self.keeps_draw(pos, &report.best, left(started.elapsed()));
                if keeps {
                    searched(report, Some(Value::Draw))
                } else {
                    Decision {
                        best: drawing,
                        solver_move: true,
                        ..searched(report, Some(Value::Draw))
                    }
                }
            }
            (value, _) => {
                let time = left(started.elapsed());
                let report = choose_move(
                    pos,
                    Limits {
                        time: Some(time),
                        ..limits
                    },
                    seed,
                )?;
                searched(report, value)
            }
        };
        decision.solve_nodes = solution.nodes;
        decision.solve_time = solution.elapsed;
        Some(decision)
    }

    /// Whether playing `mv` in `pos` (a proven draw) is proven to keep at
    /// least the draw for its mover, within `time`.
    fn keeps_draw(&mut self, pos: &Position, mv: &Move, time: Duration) -> bool {
        let mut child = pos.clone();
        if child.play(mv).is_err() {
            return false;
        }
        let reply = self.solve(&child, time);
        matches!(reply.value, Some(Value::Draw | Value::Loss))
    }
}
