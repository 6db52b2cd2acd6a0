//! A person playing: at the terminal (`arena play VARIANT human BOT`) or
//! on a page (`arena serve --play`).
//!
//! At the terminal, before each of their moves the board is drawn (with
//! Quinque's locked cell named) and a move in RULES.md notation is read; an
//! illegal or malformed move is explained (with the rules engine's reason)
//! and asked again. `?` lists the legal moves, grouped by action and wrapped
//! between moves; `help` explains the notation. A bare cell is a Quinque
//! `place`. Terminal escape sequences (arrow keys) in the input are ignored.
//! End of input (Ctrl-D) leaves the game, which counts as a disconnect. A
//! person at the terminal has no time limit, and is told so. The prompts go
//! to the writer the front end gives (`arena play` gives stdout); the
//! referee picks no terminal itself.
//!
//! On a page, moves arrive as [`PageAnswer`]s on a channel (the server
//! checks them first; a move meant for another ply is dropped). A person
//! on a page has a limit per move (the page's idle limit): past it, or when
//! the page leaves, they lose on time.

use std::io::Write;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::sync::mpsc;

use super::seat::Failure;
use arena_rules::games::{Cell, Position};
use arena_rules::protocol::FailureReason;

pub struct Human {
    name: String,
    input: Input,
}

/// Where a person's moves come from.
enum Input {
    Terminal(Terminal),
    Page(Page),
}

struct Terminal {
    ansi: bool,
    input: BufReader<Box<dyn AsyncRead + Unpin + Send>>,
    output: Box<dyn Write + Send>,
    /// Whether the person has been told how to play (once per game run).
    greeted: bool,
}

/// What a page sends for the person it seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageAnswer {
    /// The move `text` for the position after `ply` moves.
    Move { ply: u32, text: String },
    /// The person left (why, in words): a loss on time.
    Leave(String),
}

struct Page {
    answers: mpsc::Receiver<PageAnswer>,
    /// Time for each move.
    limit: Duration,
}

/// Width the legal-move list is wrapped to (between moves, never inside).
const LIST_WIDTH: usize = 78;

impl std::fmt::Debug for Human {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Human").field("name", &self.name).finish()
    }
}

impl Human {
    /// A person at a terminal: prompts and boards go to `output`, moves
    /// are read from `input`.
    pub fn new(
        name: &str,
        ansi: bool,
        input: Box<dyn AsyncRead + Unpin + Send>,
        output: Box<dyn Write + Send>,
    ) -> Human {
        let terminal = Terminal {
            ansi,
            input: BufReader::new(input),
            output,
            greeted: false,
        };
        Human {
            name: name.to_string(),
            input: Input::Terminal(terminal),
        }
    }

    /// A person on a page: moves arrive on `answers`, each within `limit`.
    pub fn page(name: &str, answers: mpsc::Receiver<PageAnswer>, limit: Duration) -> Human {
        Human {
            name: name.to_string(),
            input: Input::Page(Page { answers, limit }),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The person's legal move, in notation.
    pub async fn choose_move(&mut self, pos: &Position) -> Result<String, Failure> {
        match &mut self.input {
            Input::Terminal(terminal) => terminal.choose_move(&self.name, pos).await,
            Input::Page(page) => page.choose_move(pos).await,
        }
    }
}

impl Page {
    /// Waits for a legal move for `pos` within the limit.
    async fn choose_move(&mut self, pos: &Position) -> Result<String, Failure> {
        let deadline = tokio::time::Instant::now() + self.limit;
        loop {
            let answer = match tokio::time::timeout_at(deadline, self.answers.recv()).await {
                Err(_) => {
                    return Err(Failure::new(
                        FailureReason::Timeout,
                        format!(
                            "no move within {} (the page's limit per move)",
                            seconds(self.limit)
                        ),
                    ))
                }
                Ok(None) => return Err(Failure::new(FailureReason::Timeout, "left the page")),
                Ok(Some(answer)) => answer,
            };
            match answer {
                PageAnswer::Leave(why) => return Err(Failure::new(FailureReason::Timeout, why)),
                // Sent for another position (a second click, say): not this move.
                PageAnswer::Move { ply, .. } if ply != pos.ply() => continue,
                PageAnswer::Move { text, .. } => {
                    if let Ok(m) = pos
                        .parse_move(&text)
                        .and_then(|m| pos.check(&m).map(|()| m))
                    {
                        return Ok(m.to_string());
                    }
                }
            }
        }
    }
}

/// `d` in words: `300 s`, `1.5 s`.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

impl Terminal {
    /// Asks until the person types a legal move; returns it in notation.
    async fn choose_move(&mut self, name: &str, pos: &Position) -> Result<String, Failure> {
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
                name
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
