//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε
//! threshold of Pawlewicz and Lew, written once over [`Rules`].
//!
//! One search answers one question: can `attacker` force a win from this
//! state? Each node keeps, for its mover, `phi` (how hard it looks to
//! prove the mover gets what it wants) and `delta` (how hard to disprove
//! it); the attacker wants a win, the defender wants not to lose, so a
//! draw is a success for the defender and a failure for the attacker. The
//! mover succeeds when some child's mover fails: `phi = min delta(child)`,
//! `delta = sum phi(child)`. Children a symmetry maps onto each other are
//! searched once. The games have no cycles (every move adds a disc or
//! spends material), so the search always ends.

use std::time::Instant;

use crate::game::{Glance, Rules};
use crate::settled::Settled;
use crate::settled_file::{cost_of, Entry, Known};
use crate::table::{Numbers, Table, INFINITE};

/// A proof inside a search that took at least this many nodes is kept for
/// the settled table (cheaper ones are quicker to prove again than to
/// store).
pub const KEEP_NODES: u64 = 1024;

const SUCCESS: Numbers = Numbers {
    phi: 0,
    delta: INFINITE,
};
const FAILURE: Numbers = Numbers {
    phi: INFINITE,
    delta: 0,
};

/// When a search must give up.
#[derive(Debug, Clone, Copy, Default)]
pub struct StopAt {
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
}

struct Kid<S> {
    state: S,
    key: u128,
    n: Numbers,
}

pub struct Search<'a, R: Rules> {
    rules: &'a R,
    table: &'a mut Table,
    limits: StopAt,
    /// Nodes expanded so far (every call of `mid`).
    pub nodes: u64,
    pub stopped: bool,
    moves: Vec<R::Move>,
    /// One children list per depth, reused.
    kids: Vec<Vec<Kid<R::State>>>,
    /// The settled table the search starts from, if any.
    settled: Option<&'a Settled>,
    /// Proofs of at least [`KEEP_NODES`] nodes found by this search, for
    /// the settled table.
    pub found: Vec<Entry>,
}

impl<'a, R: Rules> Search<'a, R> {
    pub fn new(rules: &'a R, table: &'a mut Table, limits: StopAt) -> Self {
        Search {
            rules,
            table,
            limits,
            nodes: 0,
            stopped: false,
            moves: Vec::new(),
            kids: Vec::new(),
            settled: None,
            found: Vec::new(),
        }
    }

    /// This search taking what `settled` proves as proven, and keeping its
    /// own costly proofs in [`Search::found`].
    pub fn with_settled(mut self, settled: Option<&'a Settled>) -> Self {
        self.settled = settled;
        self
    }

    pub fn rules(&self) -> &'a R {
        self.rules
    }

    /// What a state is worth to its mover before any search: proven when
    /// the glance settles it for the question asked, else from the table,
    /// else one to prove and as many to disprove as it has moves.
    pub fn leaf(&self, s: &R::State, key: u128, attacker: usize) -> Numbers {
        let attacking = self.rules.mover(s).index() == attacker;
        match self.rules.glance(s) {
            Glance::Won => SUCCESS,
            Glance::Lost => FAILURE,
            Glance::Drawn if attacking => FAILURE,
            Glance::Drawn => SUCCESS,
            Glance::Open { mover_can_win, .. } if attacking && !mover_can_win => FAILURE,
            Glance::Open {
                opponent_can_win, ..
            } if !attacking && !opponent_can_win => SUCCESS,
            Glance::Open { moves, .. } => self
                .table
                .get(key, attacker)
                .or_else(|| self.settled_numbers(key, attacking))
                .unwrap_or(Numbers {
                    phi: 1,
                    delta: moves.max(1),
                }),
        }
    }

    /// What the settled table proves of `key` for this question.
    fn settled_numbers(&self, key: u128, attacking: bool) -> Option<Numbers> {
        let known = self.settled?.known(key)?;
        known
            .mover_succeeds(attacking)
            .map(|ok| if ok { SUCCESS } else { FAILURE })
    }

    /// Searches `s` until it is proven or disproven for its mover, or the
    /// limits stop it; returns its numbers (proven: `phi == 0` success,
    /// `delta == 0` failure).
    pub fn prove(&mut self, s: &R::State, attacker: usize) -> Numbers {
        let key = self.rules.key(s);
        let n = self.leaf(s, key, attacker);
        if n.phi == 0 || n.delta == 0 {
            return n;
        }
        self.mid(s, key, 0, attacker, INFINITE, INFINITE)
    }

    /// A move of `s` (one of `moves`, the moves [`Rules::moves`] gives)
    /// after which the child's mover fails at `attacker`'s question, with
    /// that child: one already proven (by its first look or the tables),
    /// else found by a search at `s` itself, so that the proof-number
    /// search chooses among the children rather than proving or disproving
    /// them one by one.
    pub fn winning_child(
        &mut self,
        s: &R::State,
        moves: &[R::Move],
        attacker: usize,
    ) -> Option<(R::Move, R::State)> {
        for &m in moves {
            let child = self.rules.play(s, m);
            if self.leaf(&child, self.rules.key(&child), attacker).delta == 0 {
                return Some((m, child));
            }
        }
        let key = self.rules.key(s);
        let n = self.mid(s, key, 0, attacker, INFINITE, INFINITE);
        if n.phi != 0 {
            return None;
        }
        let won = self.kids[0].iter().find(|k| k.n.delta == 0)?.key;
        moves.iter().find_map(|&m| {
            let child = self.rules.play(s, m);
            (self.rules.key(&child) == won).then_some((m, child))
        })
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.max_nodes.is_some_and(|max| self.nodes >= max)
            || (self.nodes.is_multiple_of(128)
                && self.limits.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn mid(
        &mut self,
        s: &R::State,
        key: u128,
        depth: usize,
        attacker: usize,
        th_phi: u32,
        th_delta: u32,
    ) -> Numbers {
        self.nodes += 1;
        let start = self.nodes;
        // The work of earlier visits counts: a subtree proven over many
        // visits is as costly as one proven in one.
        let before = self.table.work(key, attacker);
        if self.kids.len() <= depth {
            self.kids.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[depth]);
        self.expand(s, attacker, &mut kids);
        let mut n;
        loop {
            n = sum_up(&kids);
            if n.phi >= th_phi || n.delta >= th_delta || self.out_of_budget() {
                break;
            }
            let (best, delta2) = pick(&kids);
            let kid = &kids[best];
            let others = n.delta as u64 - kid.n.phi as u64;
            let child_phi = (th_delta as u64)
                .saturating_sub(others)
                .min(INFINITE as u64) as u32;
            let widened = delta2 as u64 + 1 + delta2 as u64 / 4;
            let child_delta = (th_phi as u64).min(widened).min(INFINITE as u64) as u32;
            let state = kid.state.clone();
            let kid_key = kid.key;
            let got = self.mid(&state, kid_key, depth + 1, attacker, child_phi, child_delta);
            kids[best].n = got;
        }
        let work = before + self.nodes - start + 1;
        let proven = n.phi == 0 || n.delta == 0;
        if !self.stopped || proven {
            self.table.put(key, attacker, n, work);
        }
        if proven && work >= KEEP_NODES && self.settled.is_some() {
            let attacking = self.rules.mover(s).index() == attacker;
            self.found.push(Entry {
                key,
                known: Known::of_search(attacking, n.phi == 0),
                cost: cost_of(work),
            });
        }
        self.kids[depth] = kids;
        n
    }

    /// The distinct children of `s` with their numbers.
    fn expand(&mut self, s: &R::State, attacker: usize, kids: &mut Vec<Kid<R::State>>) {
        kids.clear();
        let mut moves = std::mem::take(&mut self.moves);
        self.rules.moves(s, &mut moves);
        for &m in &moves {
            let state = self.rules.play(s, m);
            let key = self.rules.key(&state);
            if kids.iter().any(|k| k.key == key) {
                continue;
            }
            let n = self.leaf(&state, key, attacker);
            kids.push(Kid { state, key, n });
        }
        self.moves = moves;
    }
}

/// A node's numbers from its children's: the mover succeeds through any
/// child whose mover fails.
fn sum_up<S>(kids: &[Kid<S>]) -> Numbers {
    let mut phi = INFINITE;
    let mut delta: u64 = 0;
    for k in kids {
        phi = phi.min(k.n.delta);
        delta += k.n.phi as u64;
    }
    if kids.is_empty() {
        return FAILURE;
    }
    Numbers {
        phi,
        delta: delta.min(INFINITE as u64) as u32,
    }
}

/// The child to search next (least `delta`, the first of equals) and the
/// second least `delta`.
fn pick<S>(kids: &[Kid<S>]) -> (usize, u32) {
    let mut best = 0;
    let mut first = INFINITE;
    let mut second = INFINITE;
    for (i, k) in kids.iter().enumerate() {
        if k.n.delta < first {
            second = first;
            first = k.n.delta;
            best = i;
        } else if k.n.delta < second {
            second = k.n.delta;
        }
    }
    (best, second)
}
