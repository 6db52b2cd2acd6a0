//! `arena._native`: the Python extension module of the `arena` package,
//! over the rules crate (`arena-rules`) and the solver (`arena-solver`);
//! it implements no rule itself. `python/arena/__init__.py` re-exports it.
//!
//! - [`game`]: `arena.Game`, a position with its moves, as Python sees it.
//! - [`actions`]: the action index of every move of a variant (for
//!   learning: `action_size`, masks, the index <-> move mapping).
//! - [`observation`]: a position as NumPy planes.
//! - [`playout`]: random games played natively, without the GIL.
//! - [`solve`]: `arena.solve`, the solver's value of a position.

pub mod actions;
pub mod game;
pub mod observation;
pub mod playout;
pub mod solve;

use pyo3::prelude::*;

use arena_rules::games::Variant;

/// The variant ids, as `arena games` lists them.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    Variant::ids()
}

/// `variant` as a variant, or a `ValueError` naming the known ones.
pub fn variant_of(id: &str) -> PyResult<&'static Variant> {
    Variant::by_id(id).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "unknown variant {id:?}; known: {}",
            Variant::ids().join(", ")
        ))
    })
}

/// A JSON value as the Python object `json.loads` makes of it.
pub fn json_to_py<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// The variant's description as bots receive it in `new_game`: `id`,
/// `family`, `rows`, `cols`, `cells`, `groups`, `win_patterns`,
/// `first_move`, `max_discs`.
#[pyfunction]
pub fn variant_info(py: Python<'_>, variant: &str) -> PyResult<Py<PyAny>> {
    Ok(json_to_py(py, &variant_of(variant)?.info_json())?.unbind())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(variant_info, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    Ok(())
}
