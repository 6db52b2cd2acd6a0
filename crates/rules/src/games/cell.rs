//! Cells and their names (`a1` is the top-left cell, column letter then 1-based row).

use std::fmt;

/// A board cell by row and column, 0-based, row 0 at the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

impl Cell {
    pub const fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    /// Index of the cell in a row-major board with `cols` columns (the bit in a bitboard).
    pub fn index(self, cols: u8) -> usize {
        self.row as usize * cols as usize + self.col as usize
    }

    pub fn from_index(index: usize, cols: u8) -> Cell {
        Cell::new((index / cols as usize) as u8, (index % cols as usize) as u8)
    }

    /// Parses a cell name such as `c3` on a board of `rows` x `cols`.
    ///
    /// The error says what is wrong with the text, so it can be shown to a bot author.
    pub fn parse(text: &str, rows: u8, cols: u8) -> Result<Cell, String> {
        let mut chars = text.chars();
        let letter = chars.next().ok_or_else(|| "empty cell name".to_string())?;
        let digits = chars.as_str();
        let col = match letter {
            'a'..='z' => letter as u8 - b'a',
            'A'..='Z' => letter as u8 - b'A',
            _ => {
                return Err(format!(
                "\"{}\" is not a cell name (expected a column letter and a row number, like c3)",
                shorten(text)
            ))
            }
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
            return Err(format!(
                "\"{}\" is not a cell name (expected a column letter and a row number, like c3)",
                shorten(text)
            ));
        }
        let row: u32 = digits
            .parse()
            .map_err(|_| format!("bad row in \"{}\"", shorten(text)))?;
        if col >= cols || row == 0 || row > rows as u32 {
            let last_col = (b'a' + cols - 1) as char;
            return Err(format!(
                "{} is not on the board (columns a-{last_col}, rows 1-{rows})",
                shorten(text)
            ));
        }
        Ok(Cell::new(row as u8 - 1, col))
    }
}

impl Cell {
    /// Parses `text` only if it is exactly a cell's name as [`fmt::Display`]
    /// writes it (lower-case letter, row without leading zeros) on a board
    /// of `rows` x `cols`; `None` for anything else, including names
    /// [`Cell::parse`] forgives. Cheap (no allocation, no error text): the
    /// referee reads every answer of a bot this way first.
    pub fn parse_canonical(text: &str, rows: u8, cols: u8) -> Option<Cell> {
        let (col, row) = match *text.as_bytes() {
            [letter, digit @ b'1'..=b'9'] => (letter, digit - b'0'),
            [letter, tens @ b'1'..=b'9', units @ b'0'..=b'9'] => {
                (letter, (tens - b'0') * 10 + (units - b'0'))
            }
            _ => return None,
        };
        let col = col.wrapping_sub(b'a');
        // Columns beyond `z` are not letters; `Display` writes them otherwise.
        (col < cols.min(26) && row <= rows).then(|| Cell::new(row - 1, col))
    }

    /// The name as two ASCII bytes when it is that short (column `a`-`z`,
    /// row 1-9: every cell of every board arena ships), for writers that
    /// assemble notation bytes without a formatter.
    pub fn short_name(self) -> Option<[u8; 2]> {
        (self.col < 26 && self.row < 9).then(|| [b'a' + self.col, b'1' + self.row])
    }
}

/// Cells serialize as their names (`"c3"`), as the protocol and records use them.
impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Cell {
    /// Hot: the referee writes every legal move of every turn through here,
    /// so the name is assembled in a small buffer and written once instead
    /// of going through `write!` (several times slower).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = self.row as u16 + 1;
        if self.col >= 26 {
            return write!(f, "{}{}", (b'a' + self.col) as char, row);
        }
        let mut name = [0u8; 4];
        name[0] = b'a' + self.col;
        let len = match row {
            0..=9 => {
                name[1] = b'0' + row as u8;
                2
            }
            10..=99 => {
                name[1] = b'0' + (row / 10) as u8;
                name[2] = b'0' + (row % 10) as u8;
                3
            }
            _ => {
                name[1] = b'0' + (row / 100) as u8;
                name[2] = b'0' + (row / 10 % 10) as u8;
                name[3] = b'0' + (row % 10) as u8;
                4
            }
        };
        // ASCII letters and digits only.
        f.write_str(std::str::from_utf8(&name[..len]).map_err(|_| fmt::Error)?)
    }
}

/// Cuts untrusted text for inclusion in an error message.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_rules_md() {
        assert_eq!(Cell::new(0, 0).to_string(), "a1");
        assert_eq!(Cell::new(0, 1).to_string(), "b1");
        assert_eq!(Cell::new(1, 0).to_string(), "a2");
        assert_eq!(Cell::new(6, 6).to_string(), "g7");
        assert_eq!(Cell::parse("g7", 7, 7), Ok(Cell::new(6, 6)));
        assert_eq!(Cell::parse("b1", 6, 6), Ok(Cell::new(0, 1)));
    }

    #[test]
    fn fast_names_match_the_plain_formatting() {
        for row in [0u8, 8, 9, 10, 98, 99, 100, 254, 255] {
            for col in [0u8, 7, 25, 26] {
                let plain = format!("{}{}", (b'a' + col) as char, row as u16 + 1);
                assert_eq!(
                    Cell::new(row, col).to_string(),
                    plain,
                    "row {row} col {col}"
                );
            }
        }
    }

    #[test]
    fn rejects_bad_names() {
        assert!(Cell::parse("g1", 6, 6)
            .unwrap_err()
            .contains("not on the board"));
        assert!(Cell::parse("a7", 6, 6)
            .unwrap_err()
            .contains("not on the board"));
        assert!(Cell::parse("a0", 6, 6).is_err());
        assert!(Cell::parse("", 6, 6).is_err());
        assert!(Cell::parse("3c", 6, 6).is_err());
        assert!(Cell::parse("a1x", 6, 6).is_err());
        assert!(Cell::parse("é1", 6, 6).is_err());
    }
}
