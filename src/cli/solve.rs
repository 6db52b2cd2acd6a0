//! `arena solve [FILE]`: the value of a record's position under perfect
//! play, for the side to move, as one JSON object.
//!
//! Input as `arena judge` reads it: `{"game": VARIANT, "moves": [...]}` from
//! FILE or standard input; a bad record is judge's error object (exit 1).
//! Output: `value` (`win`, `draw`, `loss` or `unknown` when the budget ran
//! out first), `best` (a move that keeps the value; absent when the value
//! is unknown or the game is over), `nodes` and `ms` (the work it took).

use std::path::PathBuf;

use serde_json::json;

use super::judge;
use arena_solver::{Budget, Solver};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game record (JSON); reads standard input when omitted.
    pub file: Option<PathBuf>,
    /// Time the proof may take, in milliseconds; past it the value is
    /// `unknown`.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub budget_ms: u64,
    /// Memory for the solver's table, in MiB (it never takes more).
    #[arg(long, value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory_mib: u64,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let result = judge::read_record(args.file.as_ref())
        .and_then(|input| judge::replay(&input))
        .map(|pos| {
            let mut solver = Solver::new(pos.variant(), (args.memory_mib as usize) << 20);
            let s = solver.solve(&pos, Budget::millis(args.budget_ms));
            let mut out = json!({
                "game": pos.variant().id,
                "plies": pos.ply(),
                "to_move": if pos.is_over() { None } else { Some(pos.to_move()) },
                "value": s.value.map_or("unknown", |v| v.word()),
                "nodes": s.nodes,
                "ms": s.elapsed.as_millis() as u64,
            });
            if let Some(best) = s.best {
                out["best"] = json!(best.to_string());
            }
            out
        });
    Ok(judge::print_json(result))
}
