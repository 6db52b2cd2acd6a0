//! What the solver says on the play page: each legal move's value for the
//! mover now ([`hints`], as `arena solve` computes it of the position after
//! the move), and a finished game's move-by-move strip ([`strip`], as
//! `arena analyse` computes it). Both run on a blocking thread, one solver
//! each, at most as many at once as the room allows.

use serde::Serialize;
use serde_json::json;

use arena_referee::GameRecord;
use arena_report::analyse::{analyse_game, Game, Solvers};
use arena_report::analysis::{strips, value_word};
use arena_rules::games::{Color, Position, Variant};
use arena_solver::{Budget, Solver, Value};

/// Time for all of a position's moves together; each move gets its share,
/// at least [`MIN_MOVE_MS`].
pub const HINTS_MS: u64 = 2_000;
const MIN_MOVE_MS: u64 = 20;

/// Time for each position of a finished game's strip (`arena analyse`'s
/// default).
pub const STRIP_MS: u64 = 200;

/// Memory of one solver's table.
const SOLVER_BYTES: usize = 64 << 20;

/// The values of the moves in one position.
#[derive(Debug, Serialize)]
pub struct Hints {
    pub ply: u32,
    pub to_move: Color,
    pub budget_ms: u64,
    pub moves: Vec<MoveValue>,
}

#[derive(Debug, Serialize)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    /// `win`, `draw`, `loss` for the mover, or `unknown` within the budget.
    pub value: &'static str,
}

/// The value for the mover of each legal move of the position after
/// `moves` (which is not over).
pub fn hints(variant: &'static Variant, moves: &[String]) -> anyhow::Result<Hints> {
    let mut pos = Position::new(variant);
    for m in moves {
        pos.play_str(m)
            .map_err(|e| anyhow::anyhow!("move {m:?}: {e}"))?;
    }
    anyhow::ensure!(!pos.is_over(), "the game is over: no moves to hint");
    let legal = pos.legal_moves();
    let budget_ms = (HINTS_MS / legal.len().max(1) as u64).max(MIN_MOVE_MS);
    let mut solver = Solver::new(variant, SOLVER_BYTES);
    let mover = pos.to_move();
    let values = legal
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m).expect("a legal move");
            MoveValue {
                mv: m.to_string(),
                value: value_word(value_after(&mut solver, &next, mover, budget_ms)),
            }
        })
        .collect();
    Ok(Hints {
        ply: pos.ply(),
        to_move: mover,
        budget_ms,
        moves: values,
    })
}

/// The value of `pos` for `mover`, who just moved into it.
fn value_after(solver: &mut Solver, pos: &Position, mover: Color, ms: u64) -> Option<Value> {
    if let Some(outcome) = pos.outcome() {
        return Some(match outcome.winner {
            None => Value::Draw,
            Some(w) if w == mover => Value::Win,
            Some(_) => Value::Loss,
        });
    }
    // The solver's value is for the side to move: the opponent.
    let value = solver.solve(pos, Budget::millis(ms)).value?;
    Some(value.flip())
}

/// The strip and the rows of a finished game (see
/// [`arena_report::analysis::strips`]).
pub fn strip(record: &GameRecord) -> anyhow::Result<serde_json::Value> {
    let game = Game::of_record(record)?;
    let mut solvers = Solvers::new(SOLVER_BYTES);
    let rows = analyse_game(&game, &mut solvers, Budget::millis(STRIP_MS));
    let strip = strips(&rows).remove(&game.id).unwrap_or_default();
    let rows: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "ply": r.ply,
                "mover": r.mover,
                "color": r.color,
                "move": r.mv,
                "before": value_word(r.before),
                "after": value_word(r.after),
                "mistake": r.mistake(),
            })
        })
        .collect();
    Ok(json!({"game_id": record.game_id, "strip": strip, "rows": rows}))
}
