//! arena-engine: the reference alpha-beta bot, speaking the arena protocol
//! on stdin/stdout. See `arena_engine::session` for the loop.

use arena_engine::flags;
use arena_engine::perfect::SolveConfig;
use arena_engine::session::{run, EngineConfig};

/// Default time cap per move when neither --depth nor --movetime is given.
const DEFAULT_MOVETIME_MS: u64 = 100;

const HELP: &str = concat!(
    "arena-engine ",
    env!("CARGO_PKG_VERSION"),
    ": alpha-beta engine for every arena variant (Qango and Quinque).

Usage: arena-engine [--depth N] [--movetime MS] [--seed S] [--solve-share F]
                    [--solve-memory MIB]

  --depth N       Deepest search iteration (plies, 1..=64). Without --movetime
                  only the referee's clock limits the time.
  --movetime MS   Time cap per move in milliseconds (the referee's clock may
                  allow less). Default 100 when --depth is not given either.
  --seed S        Seed for breaking ties between equal moves (games vary with
                  it) [default: 1]
  --solve-share F Share of each move's time (0..=1) kept from the search for
                  the solver, which also gets any time the search leaves: a
                  proven win is played by a winning move, a proven draw never
                  by a losing one; 0 turns the solver off [default: 0.1; 0
                  with --depth and no --movetime, whose moves are then
                  reproducible: the solver's proofs depend on its time]
  --solve-memory MIB
                  The solver's table in MiB, allocated once per process
                  (1..=65536) [default: 256]

The solver answers from, and adds to, the settled table shared with arena
(docs/SOLVED.md): $ARENA_TABLE_DIR, else $XDG_CACHE_HOME/arena, else
~/.cache/arena; ARENA_TABLE_DIR=off for none."
);

/// The engine's settings from `flags`.
fn config(flags: &mut flags::Flags) -> Result<EngineConfig, String> {
    let max_depth = flags.number("depth", 1u32, 64)?;
    let movetime = flags.number("movetime", 1u64, u64::MAX)?;
    let seed = flags.number("seed", 0u64, u64::MAX)?.unwrap_or(1);
    // A depth-only engine is reproducible; the solver's proofs depend on
    // its time, so it joins only when asked.
    let default_share = match (max_depth, movetime) {
        (Some(_), None) => 0.0,
        _ => SolveConfig::DEFAULT.share,
    };
    let solve = SolveConfig {
        share: flags
            .fraction("solve-share", 0.0, 1.0)?
            .unwrap_or(default_share),
        memory: flags
            .number("solve-memory", 1usize, 65536)?
            .map_or(SolveConfig::DEFAULT.memory, |mib| mib << 20),
    };
    let movetime_ms = match (max_depth, movetime) {
        (None, None) => Some(DEFAULT_MOVETIME_MS),
        (_, movetime) => movetime,
    };
    Ok(EngineConfig {
        max_depth,
        movetime_ms,
        seed,
        solve,
    })
}

fn main() -> anyhow::Result<()> {
    let mut flags = flags::from_env("arena-engine", HELP);
    let config = config(&mut flags)
        .and_then(|config| flags.finish().map(|()| config))
        .unwrap_or_else(|message| flags::exit_with("arena-engine", &message));
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    run(stdin, stdout, &config)
}
