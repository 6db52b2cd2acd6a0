//! A person playing at the terminal (`arena play VARIANT human BOT`).
//!
//! Before each of their moves the board is drawn (with Quinque's locked
//! cell named) and a move in RULES.md notation is read; an illegal or
//! malformed move is explained (with the rules engine's reason) and asked
//! again. `?` lists the legal moves, grouped by action and wrapped between
//! moves; `help` explains the notation. A bare cell is a Quinque `place`.
//! Terminal escape sequences (arrow keys) in the input are ignored. End of
//! input (Ctrl-D) leaves the game, which counts as a disconnect. A person
//! has no time limit, and is told so. The prompts go to the writer the front
//! end gives (`arena play` gives stdout); the referee picks no terminal
//! itself.

use std::io::Write;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use super::seat::Failure;
use arena_rules::games::{Cell, Position};
use arena_rules::protocol::FailureReason;

pub struct Human {
    name: String,
    ansi: bool,
    input: BufReader<Box<dyn AsyncRead + Unpin + Send>>,
    output: Box<dyn Write + Send>,
    /// Whether the person has been told how to play (once per game run).
    greeted: bool,
}

/// Width the legal-move list is wrapped to (between moves, never inside).
const LIST_WIDTH: usize = 78;

impl std::fmt::Debug for Human {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Human").field("name", &self.name).finish()
    }
}

impl Human {
    pub fn new(
        name: &str,
        ansi: bool,
        input: Box<dyn AsyncRead + Unpin + Send>,
        output: Box<dyn Write + Send>,
    ) -> Human {
        Human {
            name: name.to_string(),
            ansi,
            input: BufReader::new(input),
            output,
            greeted: false,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Asks until the person types a legal move; returns it in notation.
    pub async fn choose_move(&mut self, pos: &Position) -> Result<String, Failure> {
        let color = pos.to_move();
        // Terminal write errors are ignored: the prompt is a courtesy, the
        // answer is what counts.
        let _ = writeln!(self.output, "\n{}", pos.render(self.ansi));
        if let Some(locked) = pos.quinque().and_then(|q| q.locked) {
            let _ = writeln!(
                self.output,
                "locked: {locked} (just captured into; it cannot be captured this turn)"
            );
        }
        if !self.greeted {
            self.greeted = true;
            let _ = writeln!(
                self.output,
                "You are untimed; only the bot's moves are timed. Type help for the notation."
            );
        }
        loop {
            let _ = write!(
                self.output,
                "{color} ({}) to move (? lists legal moves, help explains): ",
                self.name
            );
            let _ = self.output.flush();
            let mut line = String::new();
            match self.input.read_line(&mut line).await {
                Ok(0) | Err(_) => {
                    let _ = writeln!(self.output);
                    return Err(Failure::new(
                        FailureReason::Disconnect,
                        "left the game (end of input)",
                    ));
                }
                Ok(_) => {}
            }
            let cleaned = without_escapes(&line);
            let text = cleaned.trim();
            match text {
                "" => continue,
                "?" => {
                    let _ = write!(self.output, "{}", legal_move_list(pos));
                    continue;
                }
                "help" | "h" => {
                    let _ = writeln!(self.output, "{}", help(pos));
                    let _ = write!(self.output, "{}", legal_move_list(pos));
                    continue;
                }
                _ => {}
            }
            let text = bare_cell_as_place(pos, text);
            match pos
                .parse_move(&text)
                .and_then(|m| pos.check(&m).map(|()| m))
            {
                Ok(m) => return Ok(m.to_string()),
                Err(e) => {
                    let _ = writeln!(self.output, "{text:?} is not a legal move: {e}");
                }
            }
        }
    }
}

/// The input without terminal escape sequences (arrow keys and the like:
/// ESC [ ... final byte, ESC O x, a lone ESC) and other control characters.
fn without_escapes(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            match chars.next() {
                Some('[') => {
                    // Parameters and intermediates up to the final byte.
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                Some('O') => {
                    chars.next();
                }
                _ => {}
            }
        } else if !c.is_control() || c == '\n' {
            out.push(c);
        }
    }
    out
}

/// In Quinque a bare cell means placing a disc there.
fn bare_cell_as_place(pos: &Position, text: &str) -> String {
    let size = pos.variant().rows();
    if pos.quinque().is_some() && Cell::parse(text, size, pos.variant().cols()).is_ok() {
        format!("place {text}")
    } else {
        text.to_string()
    }
}

/// The legal moves, one group per action (Quinque) or all cells (Qango),
/// wrapped between moves.
fn legal_move_list(pos: &Position) -> String {
    let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for m in moves {
        let (action, rest) = match m.split_once(' ') {
            Some((action, rest)) => (action.to_string(), rest.to_string()),
            None => (String::new(), m),
        };
        match groups.iter_mut().find(|(a, _)| *a == action) {
            Some((_, list)) => list.push(rest),
            None => groups.push((action, vec![rest])),
        }
    }
    let mut out = String::new();
    for (action, list) in groups {
        let label = if action.is_empty() {
            "legal moves:".to_string()
        } else {
            format!("{action}:")
        };
        // Multi-word moves (captures) are told apart by commas.
        let list: Vec<String> = if list.iter().any(|m| m.contains(' ')) {
            let last = list.len() - 1;
            list.into_iter()
                .enumerate()
                .map(|(i, m)| if i < last { format!("{m},") } else { m })
                .collect()
        } else {
            list
        };
        out.push_str(&wrap_between(&label, &list, LIST_WIDTH));
    }
    if out.is_empty() {
        out.push_str("no legal moves\n");
    }
    out
}

/// `label` then the items, lines broken only between items; continuation
/// lines are indented under the first item.
fn wrap_between(label: &str, items: &[String], width: usize) -> String {
    let indent = label.chars().count() + 1;
    let mut out = label.to_string();
    let mut column = indent - 1;
    for item in items {
        let len = item.chars().count();
        if column + 1 + len > width && column > indent {
            out.push('\n');
            out.push_str(&" ".repeat(indent - 1));
            column = indent - 1;
        }
        out.push(' ');
        out.push_str(item);
        column += 1 + len;
    }
    out.push('\n');
    out
}

fn help(pos: &Position) -> String {
    if pos.quinque().is_some() {
        "Quinque moves: place c3 (or just c3), double c3, triple c3, enclose d4, \
         capture d4 b2, capture d4 b2 e5. ? lists the legal moves, Ctrl-D leaves the game. \
         You are untimed. The rules: docs/RULES.md."
            .into()
    } else {
        "Type a free cell, e.g. c3 (column letter, then row number). ? lists the legal moves, \
         Ctrl-D leaves the game. You are untimed. The rules: docs/RULES.md."
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_control_characters_are_dropped() {
        assert_eq!(without_escapes("\u{1b}[Ac3\n"), "c3\n");
        assert_eq!(without_escapes("c\u{1b}[1;5D3\u{1b}OB"), "c3");
        assert_eq!(without_escapes("\u{1b}\u{7f}d4\t"), "d4");
    }

    #[test]
    fn lists_wrap_between_items_only() {
        let items: Vec<String> = (0..30).map(|i| format!("d{i} b{i}")).collect();
        let text = wrap_between("capture:", &items, 40);
        for line in text.lines() {
            assert!(line.chars().count() <= 40, "{line:?}");
            let body = line.trim_start_matches("capture:").trim();
            for pair in body.split("  ") {
                assert!(!pair.is_empty());
            }
        }
        let joined: Vec<&str> = text
            .split_whitespace()
            .filter(|w| *w != "capture:")
            .collect();
        let expected: Vec<String> = items
            .iter()
            .flat_map(|i| i.split(' ').map(String::from).collect::<Vec<_>>())
            .collect();
        assert_eq!(joined, expected);
        // Each continuation line starts with a whole item.
        for line in text.lines().skip(1) {
            assert!(line.trim_start().starts_with('d'), "{line:?}");
        }
    }
}
