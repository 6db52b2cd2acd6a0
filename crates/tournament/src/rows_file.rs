//! A CSV file of rows (serde records under a header) written atomically:
//! how standings.csv, the other rating files and certificate.csv are
//! written (their numbers rounded by [`crate::rounded`]).

use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use arena_files::write_atomically;

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
