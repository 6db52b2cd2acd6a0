//! One rendering of a run's page, and where its game lines are in it, so
//! that a live page that already has the first N games is sent the page
//! without them ([`Page::parts_from`]): the sections, and only the games
//! that are new to it. The report writes the game lines in the order of the
//! games file, which only grows, so the first N lines of one rendering are
//! those of the next (up to the bots' places in the page's order, which the
//! page's script maps from the old order to the new, by name).

use axum::body::Bytes;

/// Where the page's game lines start (the report's page.html).
const LINES_OPEN: &[u8] = b"<script id=\"game-lines\" type=\"text/plain\">\n";
const LINES_CLOSE: &[u8] = b"</script>";

/// A rendered page.
pub struct Page {
    pub bytes: Bytes,
    /// Byte offset of each game line's start, then of the end of the last.
    lines: Vec<usize>,
    /// Whether a page holding the first N lines can be sent only the rest:
    /// a run of one directory (with several, the lines are grouped by
    /// directory, so a new game is not always at the end).
    appends: bool,
}

impl Page {
    pub fn new(bytes: Vec<u8>, dirs: usize) -> Page {
        let start = find(&bytes, LINES_OPEN).map(|i| i + LINES_OPEN.len());
        let end = start.and_then(|s| find(&bytes[s..], LINES_CLOSE).map(|e| s + e));
        let lines = match (start, end) {
            (Some(start), Some(end)) => {
                let mut at = vec![start];
                at.extend(
                    bytes[start..end]
                        .iter()
                        .enumerate()
                        .filter(|(_, &b)| b == b'\n')
                        .map(|(i, _)| start + i + 1),
                );
                at
            }
            _ => Vec::new(),
        };
        Page {
            bytes: Bytes::from(bytes),
            lines,
            appends: dirs == 1,
        }
    }

    /// Game lines in the page.
    pub fn games(&self) -> usize {
        self.lines.len().saturating_sub(1)
    }

    /// The page without its first `from` game lines, as three parts (before
    /// the lines, the lines, after them), and how many lines it left out:
    /// `from` when it can, else 0 (the whole page).
    pub fn parts_from(&self, from: usize) -> ([Bytes; 3], usize) {
        let from = if self.appends && from <= self.games() {
            from
        } else {
            0
        };
        let Some((&first, &end)) = self.lines.first().zip(self.lines.last()) else {
            return ([self.bytes.clone(), Bytes::new(), Bytes::new()], 0);
        };
        let cut = self.lines[from];
        let parts = [
            self.bytes.slice(..first),
            self.bytes.slice(cut..end),
            self.bytes.slice(end..),
        ];
        (parts, from)
    }
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes() -> Vec<u8> {
        b"<p>head</p>\n<script id=\"game-lines\" type=\"text/plain\">\ng0\tx\ng1\ty\ng2\tz\n</script>\n<p>tail</p>".to_vec()
    }

    fn joined(parts: &[Bytes; 3]) -> String {
        parts.iter().map(|p| String::from_utf8_lossy(p)).collect()
    }

    #[test]
    fn a_page_that_has_some_games_is_sent_the_rest() {
        let page = Page::new(bytes(), 1);
        assert_eq!(page.games(), 3);
        let (parts, from) = page.parts_from(0);
        assert_eq!(
            (joined(&parts), from),
            (String::from_utf8(bytes()).unwrap(), 0)
        );
        let (parts, from) = page.parts_from(2);
        assert_eq!(from, 2);
        assert_eq!(String::from_utf8_lossy(&parts[1]), "g2\tz\n");
        assert!(joined(&parts).starts_with(
            "<p>head</p>\n<script id=\"game-lines\" type=\"text/plain\">\ng2\tz\n</script>"
        ));
        let (parts, _) = page.parts_from(3);
        assert_eq!(String::from_utf8_lossy(&parts[1]), "");
        // More than the page has (the file was written anew): all of it.
        assert_eq!(page.parts_from(4).1, 0);
    }

    #[test]
    fn shards_are_always_sent_whole() {
        let page = Page::new(bytes(), 2);
        let (parts, from) = page.parts_from(2);
        assert_eq!(from, 0);
        assert_eq!(joined(&parts), String::from_utf8(bytes()).unwrap());
    }
}
