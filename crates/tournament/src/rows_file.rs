//! A CSV file of rows (serde records under a header) written atomically,
//! and the rounding its numbers get as they are written: how standings.csv,
//! the other rating files and certificate.csv are written.

use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use arena_files::write_atomically;

/// `serialize_with` helpers: rows hold exact values, rounded only as they
/// are written (`dpN`: N decimals).
pub mod rounded {
    use super::round;
    use serde::Serializer;

    pub fn dp1<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(round(*value, 1))
    }

    pub fn dp2<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(round(*value, 2))
    }

    pub fn dp4<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(round(*value, 4))
    }

    pub fn opt_dp2<S: Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_some(&round(*v, 2)),
            None => s.serialize_none(),
        }
    }
}

/// Rounds for output; infinities and NaN pass through.
pub fn round(value: f64, decimals: i32) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// Writes serialisable rows under `columns` (the header is written even when
/// there are no rows, so the file always says what it holds).
pub fn write_rows<T: Serialize>(
    path: &Path,
    columns: &[impl AsRef<[u8]>],
    rows: &[T],
) -> anyhow::Result<()> {
    let encode = || -> anyhow::Result<Vec<u8>> {
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        writer.write_record(columns)?;
        for row in rows {
            writer.serialize(row)?;
        }
        Ok(writer.into_inner().map_err(|e| e.into_error())?)
    };
    let bytes = encode().with_context(|| format!("cannot write {}", path.display()))?;
    // Atomically, like the journal: a kill mid-write must not leave an
    // empty or half standings.csv in place of the last good one.
    write_atomically(path, &bytes)
}
