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
//! - `strategy`: a proven value as strategy files (a win, or a draw as each
//!   side's "does not lose"); `stored`: the values the
//!   stored ones prove; `pairing`: disjoint pairs of free cells against a
//!   side's patterns, a proof that it cannot win (taken by the search's
//!   first look, and where a "does not lose" file stops).
//! - `settled`: the settled table, proven values kept on disk and shared
//!   by every process that solves (`settled_file`: its format). A solver
//!   given one ([`Solver::with_settled`]) answers from it and adds what it
//!   proves.

pub mod dfpn;
pub mod game;
pub mod pairing;
pub mod qango;
pub mod quinque;
pub mod settled;
pub mod settled_file;
pub mod stored;
pub mod strategy;
pub mod table;

use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_rules::games::{Family, Move, Position, Variant};

use dfpn::{Search, StopAt};
use game::{Glance, Rules};
use settled::Settled;
use settled_file::{cost_of, Entry, Known};
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
    /// The value came from the settled table (or a stored proof), not a
    /// search.
    pub from_table: bool,
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
    settled: Option<Arc<Settled>>,
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
            settled: None,
        }
    }

    /// This solver answering from `settled` and adding what it proves
    /// there (`None`: no settled table).
    pub fn with_settled(mut self, settled: Option<Arc<Settled>>) -> Solver {
        self.settled = settled;
        self
    }

    /// This process's settled table of the variant ([`settled::shared`]).
    pub fn with_shared_table(self) -> Solver {
        let settled = settled::shared(self.variant);
        self.with_settled(settled)
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// Bytes of the table, and how many of its entries are in use.
    pub fn memory(&self) -> (usize, u64) {
        (self.table.bytes(), self.table.used())
    }

    /// Proves `pos`'s value for the side to move within `budget`, with a
    /// move keeping it.
    pub fn solve(&mut self, pos: &Position, budget: Budget) -> Solution {
        self.solve_for(pos, budget, true)
    }

    /// [`Solver::solve`] without the move when the value is in the
    /// settled table (`best` may then be absent).
    pub fn value(&mut self, pos: &Position, budget: Budget) -> Solution {
        self.solve_for(pos, budget, false)
    }

    fn solve_for(&mut self, pos: &Position, budget: Budget, need_best: bool) -> Solution {
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
        let settled = self.settled.as_deref();
        let (found, best) = match &self.rules {
            Family2::Qango(r) => {
                let at = At {
                    rules: r,
                    settled,
                    limits,
                    need_best,
                    has_draws: true,
                };
                at.solve(&mut self.table, &r.state_of(pos))
            }
            Family2::Quinque(r) => {
                let at = At {
                    rules: r,
                    settled,
                    limits,
                    need_best,
                    has_draws: false,
                };
                at.solve(&mut self.table, &r.state_of(pos))
            }
        };
        Solution {
            value: found.value,
            best: if pos.is_over() { None } else { best },
            nodes: found.nodes,
            elapsed: started.elapsed(),
            from_table: found.from_table,
        }
    }
}

/// What one solve found, before the move is named.
struct Found {
    value: Option<Value>,
    nodes: u64,
    from_table: bool,
}

/// One solve's rules, settled table and limits.
struct At<'a, R: Rules> {
    rules: &'a R,
    settled: Option<&'a Settled>,
    limits: StopAt,
    need_best: bool,
    has_draws: bool,
}

impl<R: Rules> At<'_, R> {
    /// The value of `s` (from the settled table, else proven) and a move
    /// keeping it; a proven value goes into the settled table with the
    /// value of the position its move reaches.
    fn solve(&self, table: &mut Table, s: &R::State) -> (Found, Option<Move>) {
        let rules = self.rules;
        let key = rules.key(s);
        if let Some(v) = self.settled.and_then(|t| t.get(key)) {
            let mut found = Found {
                value: Some(v),
                nodes: 0,
                from_table: true,
            };
            let mut best = self.move_from_table(s, v);
            if best.is_none() && self.need_best {
                let mut search = Search::new(rules, table, self.limits);
                best = keeping_move(&mut search, s, v, rules.mover(s).index());
                found.nodes = search.nodes;
            }
            return (found, best.map(|m| rules.to_move(s, m)));
        }
        let mut search = Search::new(rules, table, self.limits).with_settled(self.settled);
        let (value, best) = solve_state(&mut search, s, self.has_draws);
        let nodes = search.nodes;
        if let Some(t) = self.settled {
            let mut batch = std::mem::take(&mut search.found);
            if let (Some(v), true) = (value, nodes > 0) {
                let cost = cost_of(nodes);
                batch.push(Entry {
                    key,
                    known: Known::Is(v),
                    cost,
                });
                // A child over at once (a pattern completed) is left out:
                // no search ever asks about it.
                let open = |c: &R::State| matches!(rules.glance(c), Glance::Open { .. });
                if let Some(child) = best.map(|m| rules.play(s, m)).filter(open) {
                    batch.push(Entry {
                        key: rules.key(&child),
                        known: Known::Is(v.flip()),
                        cost,
                    });
                }
            }
            t.add(&batch);
        }
        let found = Found {
            value,
            nodes,
            from_table: false,
        };
        (found, best.map(|m| rules.to_move(s, m)))
    }

    /// A move of `s` (worth `v` to its mover) whose child the settled
    /// table or a glance proves worth `v` for `s`'s mover.
    fn move_from_table(&self, s: &R::State, v: Value) -> Option<R::Move> {
        let rules = self.rules;
        let mut moves = Vec::new();
        rules.moves(s, &mut moves);
        moves.into_iter().find(|&m| {
            let child = rules.play(s, m);
            let known = match rules.glance(&child) {
                Glance::Won => Some(Value::Win),
                Glance::Lost => Some(Value::Loss),
                Glance::Drawn => Some(Value::Draw),
                Glance::Open { .. } => self.settled.and_then(|t| t.get(rules.key(&child))),
            };
            known == Some(v.flip())
        })
    }
}

/// The value of `s` for its mover and a move keeping it: first "can the
/// mover win?", then, if not and the game has draws, "can the opponent?".
fn solve_state<R: Rules>(
    search: &mut Search<'_, R>,
    s: &R::State,
    has_draws: bool,
) -> (Option<Value>, Option<R::Move>) {
    let mover = search.rules().mover(s).index();
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
    let best = value.and_then(|v| keeping_move(search, s, v, mover));
    (value, best)
}

/// A move of `s` whose child has the value `v` asks for (`s`'s value being
/// `v` for its mover): its mover then fails at the question that proved
/// `v`. Children whose entries left the table are proven again.
fn keeping_move<R: Rules>(
    search: &mut Search<'_, R>,
    s: &R::State,
    v: Value,
    mover: usize,
) -> Option<R::Move> {
    let rules = search.rules();
    let mut moves = Vec::new();
    rules.moves(s, &mut moves);
    let first = moves.first().copied();
    let attacker = match v {
        Value::Loss => return first,
        Value::Win => mover,
        Value::Draw => 1 - mover,
    };
    search.winning_child(s, &moves, attacker).map(|(m, _)| m)
}
