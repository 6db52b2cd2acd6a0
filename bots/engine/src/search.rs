//! The search front end: limits, the timer, scores, and dispatch by rules
//! family to the one search both families share ([`crate::negamax`]).

use std::time::{Duration, Instant};

use arena_rules::games::{Move, Position};

use crate::negamax::search;

/// A won position scores `WIN - plies to the win`, so faster wins score higher.
pub const WIN: i32 = 1_000_000;
/// Scores at or beyond this are proven wins (or losses when negative).
pub const WIN_BOUND: i32 = WIN - 10_000;
/// Larger than any score: the initial alpha-beta window.
pub const INFINITY: i32 = WIN + 1;
/// Deepest iteration ever started; also sizes per-ply tables.
pub const MAX_DEPTH: u32 = 64;
/// Per-ply tables are this long (iterations plus forced-move extensions).
pub const MAX_PLY: usize = 192;

/// How far and how long to search.
#[derive(Debug, Clone, Copy)]
pub struct SearchLimits {
    /// The last iteration to run (1 = look at own moves only).
    pub max_depth: u32,
    /// Wall-clock budget for the whole search; `None` = depth only.
    pub time: Option<Duration>,
}

/// What a search decided.
#[derive(Debug, Clone)]
pub struct Report {
    pub best: Move,
    /// From the mover's point of view; `>= WIN_BOUND` is a proven win.
    pub score: i32,
    /// Depth of the last completed iteration (0: answered without searching).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Report {
    /// Score for logs: "+35", "win in 3", "loss in 4".
    pub fn score_text(&self) -> String {
        if self.score >= WIN_BOUND {
            format!("win in {}", WIN - self.score)
        } else if self.score <= -WIN_BOUND {
            format!("loss in {}", WIN + self.score)
        } else {
            format!("{:+}", self.score)
        }
    }
}

/// Picks a move for the side to move, or `None` if the game is over.
///
/// `seed` breaks ties between equally good moves (the same seed and position
/// give the same move when only `max_depth` limits the search).
pub fn choose_move(pos: &Position, limits: SearchLimits, seed: u64) -> Option<Report> {
    if pos.is_over() {
        return None;
    }
    let mut timer = Timer::new(limits.time);
    let report = if let Some(state) = pos.qango() {
        search(state, limits.max_depth, seed, &mut timer)
    } else {
        search(pos.quinque()?, limits.max_depth, seed, &mut timer)
    };
    Some(report)
}

/// Watches the wall clock for one search.
pub struct Timer {
    start: Instant,
    budget: Option<Duration>,
    polls: u32,
    expired: bool,
}

/// Nodes between two reads of the clock.
const POLL_INTERVAL: u32 = 512;

impl Timer {
    pub fn new(budget: Option<Duration>) -> Timer {
        Timer {
            start: Instant::now(),
            budget,
            polls: 0,
            expired: false,
        }
    }

    /// Called once per node; true once the budget is spent (and from then on).
    #[inline]
    pub fn expired(&mut self) -> bool {
        if self.expired {
            return true;
        }
        self.polls += 1;
        if self.polls >= POLL_INTERVAL {
            self.polls = 0;
            if let Some(budget) = self.budget {
                self.expired = self.start.elapsed() >= budget;
            }
        }
        self.expired
    }

    /// Whether another iteration is worth starting: each one usually takes
    /// longer than all earlier ones together, so stop past half the budget.
    pub fn may_start_iteration(&self) -> bool {
        !self.expired && self.budget.is_none_or(|b| self.start.elapsed() * 2 < b)
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// SplitMix64: turns a seed and position data into well-spread bits.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A small deterministic score offset in `-3..=3` per position and seed, so
/// that equal evaluations differ between seeds and games vary.
#[inline]
pub fn jitter(position_hash: u64, seed: u64) -> i32 {
    (mix(position_hash ^ seed) % 7) as i32 - 3
}
