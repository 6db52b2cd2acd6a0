//! The pipe floor, shared by the benches that compare with it: a child
//! (`arena-echo`) that writes back each line, driven with blocking I/O.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const ECHO: &str = env!("CARGO_BIN_EXE_arena-echo");

pub struct RawEcho {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl RawEcho {
    pub fn start() -> RawEcho {
        let mut child = Command::new(ECHO)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {ECHO}: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        RawEcho {
            child,
            stdin,
            stdout,
        }
    }

    /// Times `count` round trips of `line` (which ends in `\n`).
    pub fn round_trips(&mut self, line: &str, count: usize, samples: &mut Vec<Duration>) {
        let mut answer = String::with_capacity(line.len());
        for _ in 0..count {
            let began = Instant::now();
            self.stdin.write_all(line.as_bytes()).expect("echo stdin");
            answer.clear();
            self.stdout.read_line(&mut answer).expect("echo stdout");
            samples.push(began.elapsed());
            assert_eq!(answer.len(), line.len(), "echo answered a different line");
        }
    }
}

impl Drop for RawEcho {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
