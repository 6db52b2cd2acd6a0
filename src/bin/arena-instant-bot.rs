//! `arena-instant-bot`: the fastest possible protocol-1 bot. It answers
//! `hello` with `ready`, every `turn` with the first entry of `legal_moves`,
//! ignores `new_game` and `game_over`, and exits on `quit` or end of input.
//!
//! The benchmarks play it against itself so that what is measured is the
//! referee (and the pipes), not a bot: it reads stdin through a buffer,
//! decodes only the two fields it needs, and flushes once per answer.
//! Usage: `arena-instant-bot [NAME]` (the name it reports in `ready`).

use std::borrow::Cow;
use std::io::{BufRead, BufWriter, Write};

use serde::Deserialize;

/// The parts of a referee message this bot looks at; serde skips the rest.
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    legal_moves: Vec<Cow<'a, str>>,
}

fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "instant".to_string());
    if let Err(e) = run(&name) {
        eprintln!("arena-instant-bot: {e}");
        std::process::exit(1);
    }
}

fn run(name: &str) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(std::io::stdout().lock());
    let ready = serde_json::json!({"type": "ready", "name": name, "protocol": 1}).to_string();
    let mut line = String::with_capacity(4096);
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let message: Incoming = match serde_json::from_str(line.trim_end()) {
            Ok(message) => message,
            Err(e) => {
                eprintln!("arena-instant-bot: ignoring a line that is not a message: {e}");
                continue;
            }
        };
        match message.kind.as_ref() {
            "hello" => writeln!(output, "{ready}")?,
            "turn" => match message.legal_moves.first() {
                Some(first) => {
                    output.write_all(b"{\"type\":\"move\",\"move\":")?;
                    serde_json::to_writer(&mut output, first)?;
                    output.write_all(b"}\n")?;
                }
                None => eprintln!("arena-instant-bot: a turn without legal moves"),
            },
            "quit" => return Ok(()),
            _ => continue,
        }
        output.flush()?;
    }
}
