//! A person playing at the terminal (`arena play VARIANT human BOT`).
//!
//! Before each of their moves the board is drawn and a move in RULES.md
//! notation is read; an illegal or malformed move is explained (with the
//! rules engine's reason) and asked again. `?` lists the legal moves. End of
//! input (Ctrl-D) leaves the game, which counts as a disconnect. A person
//! has no time limit. The prompts go to the writer the front end gives
//! (`arena play` gives stdout); the referee picks no terminal itself.

use std::io::Write;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use super::seat::Failure;
use crate::games::Position;
use crate::protocol::FailureReason;

pub struct Human {
    name: String,
    ansi: bool,
    input: BufReader<Box<dyn AsyncRead + Unpin + Send>>,
    output: Box<dyn Write + Send>,
}

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
        loop {
            let _ = write!(
                self.output,
                "{color} ({}) to move (? lists legal moves): ",
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
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if text == "?" {
                let moves: Vec<String> =
                    pos.legal_moves().iter().map(ToString::to_string).collect();
                let _ = writeln!(self.output, "legal moves: {}", moves.join(" "));
                continue;
            }
            match pos.parse_move(text).and_then(|m| pos.check(&m).map(|()| m)) {
                Ok(m) => return Ok(m.to_string()),
                Err(e) => {
                    let _ = writeln!(self.output, "{text:?} is not a legal move: {e}");
                }
            }
        }
    }
}
