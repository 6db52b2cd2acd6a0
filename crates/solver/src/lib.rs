//! The solver: proves the value of a Qango or Quinque position for the
//! side to move (win, draw or loss), or says "unknown" when its budget of
//! time, nodes or memory runs out before a proof.
//!
//! It depends on the rules crate alone and serves the engine, `arena
//! solve`, `arena analyse` and the referee's adjudication. The search is
//! depth-first proof-number search ([`dfpn`]) over each family's compact
//! state ([`qango`], [`quinque`]) with a bounded transposition table
//! ([`table`]) whose positions are merged over the board's symmetries. A
//! value is a proof: a win is found only by reaching won positions on
//! every line the opponent can choose.
//!
//! - `game`: what the search needs of a game ([`game::Rules`]).
//! - `strategy`: a proven win as a strategy file.

pub mod dfpn;
pub mod game;
pub mod qango;
pub mod quinque;
pub mod strategy;
pub mod table;

use std::time::{Duration, Instant};

use arena_rules::games::{Family, Move, Position, Variant};

use dfpn::{Search, StopAt};
use game::Rules;
use table::Table;

/// The default memory for the transposition table: 1 GiB, so that a
/// solver fits in 2 GB with room to spare.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// The value of a position for the side to move, under perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    pub fn word(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }

    /// The same position's value for the other side.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }
}

/// How much one solve may spend; `None` is no limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

impl Budget {
    pub fn millis(ms: u64) -> Budget {
        Budget {
            time: Some(Duration::from_millis(ms)),
            nodes: None,
        }
    }
}

/// What a solve found.
#[derive(Debug, Clone)]
pub struct Solution {
    /// `None`: not proven within the budget.
    pub value: Option<Value>,
    /// A move that keeps the value (absent when unknown or the game is over).
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
    pub elapsed: Duration,
}

enum Family2 {
    Qango(qango::QangoRules),
    Quinque(quinque::QuinqueRules),
}

/// A solver for one variant, with its table (kept between solves, so the
/// positions of one game help each other).
pub struct Solver {
    variant: &'static Variant,
    rules: Family2,
    table: Table,
}

impl Solver {
    /// A solver whose table takes at most `memory` bytes.
    pub fn new(variant: &'static Variant, memory: usize) -> Solver {
        let rules = match variant.family {
            Family::Qango(_) => Family2::Qango(qango::QangoRules::new(variant)),
            Family::Quinque => Family2::Quinque(quinque::QuinqueRules::new(variant)),
        };
        Solver {
            variant,
            rules,
            table: Table::with_bytes(memory),
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// Bytes of the table, and how many of its entries are in use.
    pub fn memory(&self) -> (usize, u64) {
        (self.table.bytes(), self.table.used())
    }

    /// Proves `pos`'s value for the side to move within `budget`.
    pub fn solve(&mut self, pos: &Position, budget: Budget) -> Solution {
        assert!(
            std::ptr::eq(pos.variant(), self.variant),
            "a solver for {} asked about {}",
            self.variant.id,
            pos.variant().id
        );
        let started = Instant::now();
        let limits = StopAt {
            deadline: budget.time.map(|t| started + t),
            max_nodes: budget.nodes,
        };
        let (value, best, nodes) = match &self.rules {
            Family2::Qango(r) => solve_state(r, &mut self.table, &r.state_of(pos), limits, true),
            Family2::Quinque(r) => solve_state(r, &mut self.table, &r.state_of(pos), limits, false),
        };
        Solution {
            value,
            best: if pos.is_over() { None } else { best },
            nodes,
            elapsed: started.elapsed(),
        }
    }
}

/// The value of `s` for its mover and a move keeping it: first "can the
/// mover win?", then, if not and the game has draws, "can the opponent?".
fn solve_state<R: Rules>(
    rules: &R,
    table: &mut Table,
    s: &R::State,
    limits: StopAt,
    has_draws: bool,
) -> (Option<Value>, Option<Move>, u64) {
    let mover = rules.mover(s).index();
    let mut search = Search::new(rules, table, limits);
    let win = search.prove(s, mover);
    let value = if win.phi == 0 {
        Some(Value::Win)
    } else if win.delta != 0 {
        None
    } else if !has_draws {
        Some(Value::Loss)
    } else {
        let hold = search.prove(s, 1 - mover);
        if hold.phi == 0 {
            Some(Value::Draw)
        } else if hold.delta == 0 {
            Some(Value::Loss)
        } else {
            None
        }
    };
    let best = value.and_then(|v| keeping_move(&mut search, s, v, mover));
    (value, best, search.nodes)
}

/// A move of `s` whose child has the value `v` asks for (`s`'s value being
/// `v` for its mover): its mover then fails at the question that proved
/// `v`. Children whose entries left the table are proven again.
fn keeping_move<R: Rules>(
    search: &mut Search<'_, R>,
    s: &R::State,
    v: Value,
    mover: usize,
) -> Option<Move> {
    let rules = search.rules();
    let mut moves = Vec::new();
    rules.moves(s, &mut moves);
    let first = moves.first().map(|&m| rules.to_move(s, m));
    let attacker = match v {
        Value::Loss => return first,
        Value::Win => mover,
        Value::Draw => 1 - mover,
    };
    search
        .winning_child(s, &moves, attacker)
        .map(|(m, _)| rules.to_move(s, m))
}
