//! `arena-instant-bot`: the fastest possible protocol-1 bot. It answers
//! `hello` with `ready`, every `turn` with the first entry of `legal_moves`,
//! ignores `new_game`, `game_over` and unknown types, and exits on `quit`
//! or end of input.
//!
//! The benchmarks play it against itself so that what is measured is the
//! referee (and the pipes), not a bot: it reads stdin through a buffer,
//! flushes once per answer, and does not parse more than it needs. A line
//! that starts `{"type":"...",` is classified from that prefix, and a turn's
//! first legal move is taken from the text after `"legal_moves":["` (a key
//! that cannot occur elsewhere in a turn: inside a JSON string the quote
//! before `:` would be escaped). Any other shape of line, a move with an
//! escape in it, or invalid UTF-8, goes through a full JSON parse.
//!
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

/// What to do with one line.
#[derive(Debug, PartialEq, Eq)]
enum Action<'a> {
    Ready,
    Play(Cow<'a, str>),
    Quit,
    Ignore,
    /// A turn without a legal move, or a line that is not a message.
    Complain(String),
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
    let mut line = Vec::with_capacity(64 * 1024);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        while line.last().is_some_and(u8::is_ascii_whitespace) {
            line.pop();
        }
        match decide(&line) {
            Action::Ready => writeln!(output, "{ready}")?,
            Action::Play(first) => {
                output.write_all(b"{\"type\":\"move\",\"move\":")?;
                serde_json::to_writer(&mut output, &first)?;
                output.write_all(b"}\n")?;
            }
            Action::Quit => return Ok(()),
            Action::Ignore => continue,
            Action::Complain(problem) => {
                eprintln!("arena-instant-bot: {problem}");
                continue;
            }
        }
        output.flush()?;
    }
}

fn decide(line: &[u8]) -> Action<'_> {
    if let Some(action) = decide_fast(line) {
        return action;
    }
    match serde_json::from_slice::<Incoming>(line) {
        Ok(message) => act(&message.kind, message.legal_moves.into_iter().next()),
        Err(e) => Action::Complain(format!("ignoring a line that is not a message: {e}")),
    }
}

/// The prefix-and-key reading; `None` when the line needs a full parse.
fn decide_fast(line: &[u8]) -> Option<Action<'_>> {
    let rest = line.strip_prefix(b"{\"type\":\"")?;
    let end = rest.iter().position(|&b| b == b'"')?;
    let (kind, after) = (&rest[..end], &rest[end + 1..]);
    if kind.contains(&b'\\') || !(after.starts_with(b",") || after.starts_with(b"}")) {
        return None;
    }
    let kind = std::str::from_utf8(kind).ok()?;
    if kind != "turn" {
        return Some(act(kind, None));
    }
    let start = find_legal_moves(line)?;
    let len = line[start..].iter().position(|&b| b == b'"')?;
    let first = std::str::from_utf8(&line[start..start + len]).ok()?;
    if first.contains('\\') {
        return None;
    }
    Some(Action::Play(Cow::Borrowed(first)))
}

/// Where the first legal move starts: just after `"legal_moves":["`. Jumps
/// from underscore to underscore (there are few in a turn) with `str`'s
/// word-at-a-time character search, several times faster than a general
/// substring search over the whole line.
fn find_legal_moves(line: &[u8]) -> Option<usize> {
    const BEFORE: &str = "\"legal";
    const AFTER: &str = "_moves\":[\"";
    let text = std::str::from_utf8(line).ok()?;
    let mut from = 0;
    while let Some(i) = text[from..].find('_') {
        let at = from + i;
        if text[..at].ends_with(BEFORE) && text[at..].starts_with(AFTER) {
            return Some(at + AFTER.len());
        }
        from = at + 1;
    }
    None
}

fn act<'a>(kind: &str, first: Option<Cow<'a, str>>) -> Action<'a> {
    match (kind, first) {
        ("hello", _) => Action::Ready,
        ("turn", Some(first)) => Action::Play(first),
        ("turn", None) => Action::Complain("a turn without legal moves".into()),
        ("quit", _) => Action::Quit,
        _ => Action::Ignore,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_reading_agrees_with_the_full_parse() {
        let lines = [
            r#"{"type":"hello","protocol":1,"referee":"arena 0.1.0"}"#,
            r#"{"type":"turn","game_id":"g1","state":{"board":[["."]]},"history":[],"legal_moves":["c3","d4"],"clock":{}}"#,
            r#"{"type":"turn","game_id":"g1","legal_moves":["capture d4 b2 e5"]}"#,
            r#"{"type":"turn","game_id":"g1","legal_moves":["c\u0033"]}"#,
            r#"{"type":"turn","game_id":"g1","legal_moves":[]}"#,
            r#"{"type":"new_game","game_id":"g1","variant":{"legal_moves":["x"]}}"#,
            r#"{"type":"game_over","game_id":"g1"}"#,
            r#"{"type":"quit"}"#,
            r#"{"type":"something_new","x":1}"#,
            r#"{"game_id":"g1","legal_moves":["e5"],"type":"turn"}"#,
            r#"{ "type" : "turn", "legal_moves" : [ "f6" ] }"#,
        ];
        for line in lines {
            let full = match serde_json::from_str::<Incoming>(line) {
                Ok(m) => act(&m.kind, m.legal_moves.into_iter().next()),
                Err(e) => Action::Complain(e.to_string()),
            };
            assert_eq!(decide(line.as_bytes()), full, "{line}");
        }
        assert_eq!(
            decide(br#"{"type":"turn","game_id":"a_b","state":{"to_move":"white"},"legal_moves":["c3"]}"#),
            Action::Play("c3".into())
        );
        assert!(matches!(decide(b"not json"), Action::Complain(_)));
        assert!(matches!(
            decide(b"{\"type\":\"t\xffrn\"}"),
            Action::Complain(_)
        ));
    }
}
