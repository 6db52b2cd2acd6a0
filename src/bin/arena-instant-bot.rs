//! `arena-instant-bot`: the fastest possible protocol-1 bot. It answers
//! `hello` with `ready`, every `turn` with the first entry of `legal_moves`,
//! ignores `new_game`, `game_over` and unknown types, and exits on `quit`
//! or end of input.
//!
//! The benchmarks play it against itself so that what is measured is the
//! referee (and the pipes), not a bot: it reads stdin in large blocks and
//! takes each line where it lies in the buffer (no copy), flushes once per
//! answer, and does not look at more than it needs. A line that starts
//! `{"type":"...",` is classified from that prefix, and a turn's first legal
//! move is taken from the text after `"legal_moves":["` (a key that cannot
//! occur elsewhere in a turn: inside a JSON string the quote before `:`
//! would be escaped). Newlines and that key are found with `memchr`'s SIMD
//! searches, and only the move taken is checked to be UTF-8: a Quinque turn
//! is over a kilobyte, and scanning it byte by word cost more than all the
//! rest. Any other shape of line, a move with an escape in it, or a move
//! that is not UTF-8, goes through a full JSON parse (which reports invalid
//! UTF-8 elsewhere in a line it reads).
//!
//! Usage: `arena-instant-bot [NAME]` (the name it reports in `ready`).

use std::borrow::Cow;
use std::io::{BufWriter, Read, Write};
use std::sync::OnceLock;

use memchr::memmem;
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
    let mut input = Lines::new(std::io::stdin().lock());
    let mut output = BufWriter::new(std::io::stdout().lock());
    let ready = serde_json::json!({"type": "ready", "name": name, "protocol": 1}).to_string();
    while let Some(mut line) = input.next_line()? {
        while let [rest @ .., last] = line {
            if !last.is_ascii_whitespace() {
                break;
            }
            line = rest;
        }
        match decide(line) {
            Action::Ready => writeln!(output, "{ready}")?,
            Action::Play(first) => {
                output.write_all(b"{\"type\":\"move\",\"move\":")?;
                if first.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
                    // Nothing to escape (the usual case: notation).
                    output.write_all(b"\"")?;
                    output.write_all(first.as_bytes())?;
                    output.write_all(b"\"")?;
                } else {
                    serde_json::to_writer(&mut output, &first)?;
                }
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
    Ok(())
}

/// Lines of input taken in place from one growing buffer, refilled in large
/// reads: a line is not copied, and its end is found with `memchr`.
struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    /// Where the next line starts in `buf`.
    start: usize,
    /// The end of the bytes read so far.
    end: usize,
    /// `buf[start..searched]` holds no newline.
    searched: usize,
}

impl<R: Read> Lines<R> {
    const BLOCK: usize = 64 * 1024;

    fn new(input: R) -> Self {
        Lines {
            input,
            buf: vec![0; Self::BLOCK],
            start: 0,
            end: 0,
            searched: 0,
        }
    }

    /// The next line without its `\n`, or the rest of the input at its end
    /// (`None` once nothing is left).
    fn next_line(&mut self) -> std::io::Result<Option<&[u8]>> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.searched..self.end]) {
                let (start, newline) = (self.start, self.searched + i);
                self.start = newline + 1;
                self.searched = self.start;
                return Ok(Some(&self.buf[start..newline]));
            }
            self.searched = self.end;
            // Move the partial line to the front, and make room for a block.
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                (self.end, self.start) = (self.end - self.start, 0);
                self.searched = self.end;
            }
            if self.buf.len() - self.end < Self::BLOCK {
                self.buf.resize(self.end + Self::BLOCK, 0);
            }
            let read = match self.input.read(&mut self.buf[self.end..]) {
                Ok(read) => read,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if read == 0 {
                let rest = (self.start, self.end);
                self.start = self.end;
                return Ok((rest.0 < rest.1).then(|| &self.buf[rest.0..rest.1]));
            }
            self.end += read;
        }
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
    if kind != b"turn" {
        return Some(act(std::str::from_utf8(kind).ok()?, None));
    }
    let start = find_legal_moves(line)?;
    let len = memchr::memchr(b'"', &line[start..])?;
    let first = &line[start..start + len];
    if first.contains(&b'\\') {
        return None;
    }
    Some(Action::Play(Cow::Borrowed(
        std::str::from_utf8(first).ok()?,
    )))
}

/// Where the first legal move starts: just after `"legal_moves":["`,
/// found with `memchr`'s vectorised substring search.
fn find_legal_moves(line: &[u8]) -> Option<usize> {
    const KEY: &[u8] = b"\"legal_moves\":[\"";
    static FINDER: OnceLock<memmem::Finder<'static>> = OnceLock::new();
    let finder = FINDER.get_or_init(|| memmem::Finder::new(KEY));
    finder.find(line).map(|at| at + KEY.len())
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
        // The key is found however long the line before it is.
        let long = format!(
            r#"{{"type":"turn","history":[{}],"legal_moves":["capture d4 b2 e5","x"]}}"#,
            vec![r#""place a1""#; 500].join(",")
        );
        assert_eq!(
            decide(long.as_bytes()),
            Action::Play("capture d4 b2 e5".into())
        );
        // Only the move taken must be UTF-8; a move that is not goes to the
        // full parse, which refuses the line.
        assert_eq!(
            decide(b"{\"type\":\"turn\",\"game_id\":\"\xff\",\"legal_moves\":[\"c3\"]}"),
            Action::Play("c3".into())
        );
        assert!(matches!(
            decide(b"{\"type\":\"turn\",\"legal_moves\":[\"c\xff\"]}"),
            Action::Complain(_)
        ));
        assert!(matches!(decide(b"not json"), Action::Complain(_)));
        assert!(matches!(
            decide(b"{\"type\":\"t\xffrn\"}"),
            Action::Complain(_)
        ));
    }

    /// Reads in blocks of at most `chunk` bytes, to split lines across reads.
    struct Trickle<'a> {
        data: &'a [u8],
        chunk: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.chunk.min(buf.len()).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn lines_come_whole_however_the_input_is_split() {
        let long = "x".repeat(3 * Lines::<&[u8]>::BLOCK);
        let text = format!("a\n\nbc\n{long}\nlast without newline");
        let expected: Vec<&str> = vec!["a", "", "bc", &long, "last without newline"];
        for chunk in [1, 2, 3, 7, 4096, usize::MAX] {
            let mut lines = Lines::new(Trickle {
                data: text.as_bytes(),
                chunk,
            });
            let mut got = Vec::new();
            while let Some(line) = lines.next_line().unwrap() {
                got.push(String::from_utf8(line.to_vec()).unwrap());
            }
            assert_eq!(got, expected, "chunk {chunk}");
        }
        let mut empty = Lines::new(&b""[..]);
        assert!(empty.next_line().unwrap().is_none());
        let mut one = Lines::new(&b"only\n"[..]);
        assert_eq!(one.next_line().unwrap(), Some(&b"only"[..]));
        assert!(one.next_line().unwrap().is_none());
    }
}
