//! arena-engine: the reference alpha-beta bot, speaking the arena protocol
//! on stdin/stdout. See `arena_engine::session` for the loop.

use clap::Parser;

use arena_engine::session::{run, EngineConfig};

/// Default time cap per move when neither --depth nor --movetime is given.
const DEFAULT_MOVETIME_MS: u64 = 100;

/// Alpha-beta engine for every arena variant (Qango and Quinque).
#[derive(Parser, Debug)]
#[command(name = "arena-engine", version)]
struct Args {
    /// Deepest search iteration (plies). Without --movetime only the
    /// referee's clock limits the time.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Time cap per move in milliseconds (the referee's clock may allow less).
    /// Default 100 when --depth is not given either.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Seed for breaking ties between equal moves (games vary with it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let movetime_ms = match (args.depth, args.movetime) {
        (None, None) => Some(DEFAULT_MOVETIME_MS),
        (_, movetime) => movetime,
    };
    let config = EngineConfig {
        max_depth: args.depth,
        movetime_ms,
        seed: args.seed,
    };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    run(stdin, stdout, &config)
}
