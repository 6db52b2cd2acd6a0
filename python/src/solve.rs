//! `arena.solve`: the solver's value of a position for the side to move,
//! the same answer as `arena solve VARIANT --moves ...`, searched without
//! the GIL, with the settled table on disk that `arena solve` uses.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use arena_rules::games::Position;
use arena_solver::{Budget, Solver};

use crate::variants::variant_of;

/// The value of the position after `moves` (texts) in `variant`, for the
/// side to move, under perfect play: a dict with `value` (`"win"`,
/// `"draw"`, `"loss"`, or `None` when the budget ran out first), `best` (a
/// move keeping the value; `None` when unknown or the game is over),
/// `game`, `plies`, `to_move` (`None` once over), `nodes` and `ms`.
/// `budget_ms` bounds the time, `memory_mib` the solver's table. Settled
/// values are read from and added to the settled table on disk that `arena
/// solve` and `arena analyse` share (`$ARENA_TABLE_DIR`, `off` for none;
/// docs/SOLVED.md).
#[pyfunction]
#[pyo3(signature = (variant, moves = Vec::new(), budget_ms = 10_000, memory_mib = 1024))]
pub fn solve<'py>(
    py: Python<'py>,
    variant: &str,
    moves: Vec<String>,
    budget_ms: u64,
    memory_mib: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let variant = variant_of(variant)?;
    let mut pos = Position::new(variant);
    for (ply, m) in moves.iter().enumerate() {
        pos.play_str(m).map_err(|e| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "illegal move {m:?} in {} at ply {ply}: {e}",
                variant.id
            ))
        })?;
    }
    let s = py.detach(|| {
        Solver::new(variant, memory_mib << 20)
            .with_shared_table()
            .solve(&pos, Budget::millis(budget_ms))
    });
    let out = PyDict::new(py);
    out.set_item("game", variant.id)?;
    out.set_item("plies", pos.ply())?;
    out.set_item("to_move", (!pos.is_over()).then(|| pos.to_move().name()))?;
    out.set_item("value", s.value.map(|v| v.word()))?;
    out.set_item("best", s.best.map(|m| m.to_string()))?;
    out.set_item("nodes", s.nodes)?;
    out.set_item("ms", s.elapsed.as_millis() as u64)?;
    Ok(out)
}
