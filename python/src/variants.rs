//! The variants as Python sees them (`arena.variants`, `arena.variant_info`),
//! the lookup of a variant by id, and JSON values as Python objects.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use arena_rules::games::Variant;

/// The variant ids, as `arena games` lists them.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    Variant::ids()
}

/// The variant's description as bots receive it in `new_game`: `id`,
/// `family`, `rows`, `cols`, `cells`, `groups`, `win_patterns`,
/// `first_move`, `max_discs`.
#[pyfunction]
pub fn variant_info(py: Python<'_>, variant: &str) -> PyResult<Py<PyAny>> {
    Ok(json_to_py(py, &variant_of(variant)?.info_json())?.unbind())
}

/// `id` as a variant, or a `ValueError` naming the known ones.
pub fn variant_of(id: &str) -> PyResult<&'static Variant> {
    Variant::by_id(id).ok_or_else(|| {
        PyValueError::new_err(format!(
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
