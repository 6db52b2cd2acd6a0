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
//! - [`variants`]: `arena.variants`, `arena.variant_info`, a variant by id.

pub mod actions;
pub mod game;
pub mod observation;
pub mod playout;
pub mod solve;
pub mod variants;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(variants::variants, m)?)?;
    m.add_function(wrap_pyfunction!(variants::variant_info, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    Ok(())
}
