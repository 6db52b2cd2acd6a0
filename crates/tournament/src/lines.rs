//! The complete lines of an append-only file (`games.jsonl`), one at a time,
//! as [`super::journal::Journal::recover`] and [`super::merge`] read them: a
//! line ends in `\n` (or `\r\n`), blank lines are skipped, and an
//! unterminated last line is what a kill or crash mid-write leaves, so it is
//! not returned but reported by [`Lines::torn`]. [`visit_jsonl`] reads a
//! file of such lines, each one JSON value (a league's registry, its
//! imports, a shard's journal).

use std::io::BufRead;
use std::path::Path;

use anyhow::Context;
use serde::de::DeserializeOwned;

/// Calls `visit` with each complete line of `path` read as a `T`, in
/// order; a missing file has none. A line that is no `T` is an error
/// naming the file, the line and `what` a line should be.
pub fn visit_jsonl<T: DeserializeOwned>(
    path: &Path,
    what: &str,
    mut visit: impl FnMut(T),
) -> anyhow::Result<()> {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut lines = Lines::new(std::io::BufReader::new(file));
    while let Some((number, line)) = lines
        .next_line()
        .with_context(|| format!("cannot read {}", path.display()))?
    {
        let value = serde_json::from_slice(line)
            .map_err(|e| anyhow::anyhow!("{}: line {number}: not {what}: {e}", path.display()))?;
        visit(value);
    }
    Ok(())
}

/// Where a file ended in an unterminated line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Torn {
    /// Its 1-based line number.
    pub line: usize,
    /// Its length in bytes.
    pub bytes: usize,
}

/// A reader's complete, non-blank lines.
pub struct Lines<R> {
    reader: R,
    number: usize,
    buffer: Vec<u8>,
    torn: Option<Torn>,
}

impl<R: BufRead> Lines<R> {
    pub fn new(reader: R) -> Lines<R> {
        Lines {
            reader,
            number: 0,
            buffer: Vec::new(),
            torn: None,
        }
    }

    /// The next complete, non-blank line without its line end, with its
    /// 1-based number; `None` at the end of the file (or at its
    /// unterminated last line).
    pub fn next_line(&mut self) -> std::io::Result<Option<(usize, &[u8])>> {
        loop {
            self.buffer.clear();
            if self.reader.read_until(b'\n', &mut self.buffer)? == 0 {
                return Ok(None);
            }
            self.number += 1;
            if self.buffer.pop() != Some(b'\n') {
                self.torn = Some(Torn {
                    line: self.number,
                    bytes: self.buffer.len() + 1,
                });
                return Ok(None);
            }
            if self.buffer.last() == Some(&b'\r') {
                self.buffer.pop();
            }
            if !self.buffer.iter().all(u8::is_ascii_whitespace) {
                return Ok(Some((self.number, &self.buffer)));
            }
        }
    }

    /// The line [`Lines::next_line`] returned last.
    pub fn line(&self) -> &[u8] {
        &self.buffer
    }

    /// The unterminated last line, once [`Lines::next_line`] has reached it.
    pub fn torn(&self) -> Option<Torn> {
        self.torn
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_and_an_unterminated_tail_is_left_out() {
        let mut lines = Lines::new(&b"a\n\nb\r\nc"[..]);
        assert_eq!(lines.next_line().unwrap(), Some((1, &b"a"[..])));
        assert_eq!(lines.next_line().unwrap(), Some((3, &b"b"[..])));
        assert_eq!(lines.line(), b"b");
        assert_eq!(lines.torn(), None);
        assert_eq!(lines.next_line().unwrap(), None);
        assert_eq!(lines.torn(), Some(Torn { line: 4, bytes: 1 }));

        let mut lines = Lines::new(&b"a\n"[..]);
        assert!(lines.next_line().unwrap().is_some());
        assert_eq!(lines.next_line().unwrap(), None);
        assert_eq!(lines.torn(), None);
    }
}
