//! Where a byte offset of a file's text is, as a person looks for it: the
//! `LINE:COL` of errors about files people edit by hand.

/// The 1-based line and column (in characters) of byte `offset` of `text`
/// (an offset past the end, or inside a character, counts up to it).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_one() {
        let text = "ab\ncdé\nf";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 1), (1, 2));
        assert_eq!(line_col(text, 3), (2, 1));
        // After the two-byte é: the third character of its line.
        assert_eq!(line_col(text, 7), (2, 4));
        assert_eq!(line_col(text, 6), (2, 3));
        assert_eq!(line_col(text, 100), (3, 2));
    }
}
