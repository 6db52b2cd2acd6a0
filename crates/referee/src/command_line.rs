//! Splitting a command line into argv the way a POSIX shell would, for the
//! simple cases people type: whitespace separates words, single quotes keep
//! everything literal, double quotes keep spaces but honour `\"` and `\\`, a
//! backslash outside quotes escapes the next character. No globbing, no
//! variables, no pipes: a bot command that needs those sets `shell = true`.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SplitError {
    #[error("unterminated {0} quote in command line")]
    UnterminatedQuote(&'static str),
    #[error("command line ends with a lone backslash")]
    TrailingBackslash,
    #[error("command line is empty")]
    Empty,
}

/// Splits `line` into words. An empty or all-blank line is an error, since
/// there is no program to run.
pub fn split_command_line(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word exists once anything (even an empty quoted string) was seen.
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SplitError::UnterminatedQuote("single")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(SplitError::UnterminatedQuote("double")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SplitError::UnterminatedQuote("double")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(SplitError::TrailingBackslash),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err(SplitError::Empty);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        split_command_line(s).unwrap()
    }

    #[test]
    fn plain_words_split_on_any_whitespace() {
        assert_eq!(
            split("  python3   bot.py\t--fast "),
            ["python3", "bot.py", "--fast"]
        );
    }

    #[test]
    fn quotes_keep_spaces_and_join_adjacent_parts() {
        assert_eq!(
            split("run 'a b' \"c d\" e'f g'h"),
            ["run", "a b", "c d", "ef gh"]
        );
        assert_eq!(split("x '' \"\""), ["x", "", ""]);
    }

    #[test]
    fn escapes_inside_double_quotes_and_outside() {
        assert_eq!(split(r#"a "q\"uote\\" b\ c"#), ["a", "q\"uote\\", "b c"]);
        assert_eq!(split(r#""\n""#), ["\\n"]);
        assert_eq!(split(r"'\n'"), ["\\n"]);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert_eq!(
            split_command_line("a 'b"),
            Err(SplitError::UnterminatedQuote("single"))
        );
        assert_eq!(
            split_command_line("a \"b"),
            Err(SplitError::UnterminatedQuote("double"))
        );
        assert_eq!(
            split_command_line("a \\"),
            Err(SplitError::TrailingBackslash)
        );
        assert_eq!(split_command_line("   "), Err(SplitError::Empty));
    }
}
