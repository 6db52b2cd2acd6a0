//! Replacing a file so that a crash leaves either its old or its new
//! content, never half of one: the journal's rewrites, `tournament.json`,
//! the rating tables and `report.html` all go through here.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Context;

/// Replaces `path` with `bytes` so that a crash leaves either the old or the
/// new content: write a temporary file, sync it, rename it over, sync the
/// directory.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomically_with(path, |out| Ok(out.write_all(bytes)?))
}

/// [`write_atomically`] with the content written by `fill`, which may read
/// the old `path` while it writes (and may stream more than fits in memory).
pub fn write_atomically_with(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    let result = (|| -> anyhow::Result<()> {
        let mut out = BufWriter::new(File::create(&tmp)?);
        fill(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        sync_parent(path)
    })();
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// Makes a rename in `path`'s directory durable. Directories cannot be
/// opened as files outside Unix, where the rename is left to the system.
fn sync_parent(path: &Path) -> anyhow::Result<()> {
    let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) else {
        return Ok(());
    };
    if cfg!(unix) {
        File::open(parent)
            .and_then(|dir| dir.sync_all())
            .with_context(|| format!("cannot sync directory {}", parent.display()))?;
    }
    Ok(())
}
