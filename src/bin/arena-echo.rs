//! `arena-echo`: writes back every line it reads, one flush per line, and
//! exits at end of input.
//!
//! The benchmarks use it as the floor for the referee: one line to a child
//! process and one line back over pipes is the least any referee can spend
//! per move, so the referee's time per move is reported as a multiple of
//! this round trip measured in the same run.

use std::io::{BufRead, BufWriter, Write};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        output.write_all(&line)?;
        output.flush()?;
    }
}
