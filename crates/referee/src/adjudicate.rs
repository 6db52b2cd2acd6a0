//! Adjudication by proof (`adjudicate = "solved"`): after every move the
//! referee asks the solver for the position's value, and a game whose
//! value is proven ends at once with reason `adjudicated` and the result of
//! perfect play from there. The result is the solver's proof, never a
//! guess: a position the solver cannot settle within the budget is played
//! on. The record keeps the moves actually played (so `arena judge`
//! replays them) and the proven continuation apart, in `proven_line`.
//! The solvers share the process's settled table
//! ([`arena_solver::settled`]): a position proven once, by any game, by
//! `arena analyse` or `arena solve`, is answered at once.

use serde::{Deserialize, Serialize};

use arena_rules::games::{Color, Position, Variant};
use arena_solver::{Budget, Solver, Value};

/// Memory of each game's solver table: 64 MiB, so that many games at once
/// stay well inside a machine's memory (positions late enough to prove
/// need little).
pub const TABLE_BYTES: usize = 64 << 20;

/// The longest proven line kept (no game is longer: Qango 40 plies,
/// Quinque 80).
const MAX_LINE: usize = 100;

/// Adjudicate games whose value is proven, trying each position for this long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    pub budget_ms: u64,
}

/// A proven value, from the side to move's view, with the line of
/// perfect play that follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    pub to_move: Color,
    pub value: Value,
    pub line: Vec<String>,
    pub nodes: u64,
}

impl Proof {
    /// The game's winner under perfect play (`None`: a draw).
    pub fn winner(&self) -> Option<Color> {
        match self.value {
            Value::Win => Some(self.to_move),
            Value::Loss => Some(self.to_move.opponent()),
            Value::Draw => None,
        }
    }
}

/// One game's solver (made at the first question, kept for the game: the
/// positions of one game share most of their proofs).
pub struct Adjudicator {
    variant: &'static Variant,
    budget: Budget,
    solver: Option<Box<Solver>>,
}

impl Adjudicator {
    pub fn new(variant: &'static Variant, adjudication: Adjudication) -> Adjudicator {
        Adjudicator {
            variant,
            budget: Budget::millis(adjudication.budget_ms),
            solver: None,
        }
    }

    /// The proof of `pos`'s value, if the solver finds one within the
    /// budget. Runs on tokio's blocking threads: a proof is CPU work, and the
    /// other games' bots must still be read meanwhile.
    pub async fn prove(&mut self, pos: &Position) -> Option<Proof> {
        let variant = self.variant;
        let mut solver = self
            .solver
            .take()
            .unwrap_or_else(|| Box::new(Solver::new(variant, TABLE_BYTES).with_shared_table()));
        let (budget, pos) = (self.budget, pos.clone());
        let (solver, proof) = tokio::task::spawn_blocking(move || {
            let proof = prove_with(&mut solver, &pos, budget);
            (solver, proof)
        })
        .await
        .ok()?;
        self.solver = Some(solver);
        proof
    }
}

/// `pos`'s value and the line of best moves to the end (cut short if a
/// later position of the line is not proven within the budget).
pub fn prove_with(solver: &mut Solver, pos: &Position, budget: Budget) -> Option<Proof> {
    let first = solver.solve(pos, budget);
    let value = first.value?;
    let mut nodes = first.nodes;
    let mut line = Vec::new();
    let mut next = pos.clone();
    let mut best = first.best;
    while let Some(m) = best {
        if line.len() >= MAX_LINE || next.play(&m).is_err() {
            break;
        }
        line.push(m.to_string());
        if next.is_over() {
            break;
        }
        let s = solver.solve(&next, budget);
        nodes += s.nodes;
        best = s.best;
    }
    Some(Proof {
        to_move: pos.to_move(),
        value,
        line,
        nodes,
    })
}
