//! Engine against engine at two strength settings, in process: checks that
//! more search wins (a sanity check of search and evaluation) and helps tune
//! the default strength.
//!
//! ```text
//! cargo run --release -p arena-engine --example engine_match -- --a-depth 4 --b-depth 2
//! cargo run --release -p arena-engine --example engine_match -- --a-movetime 100 --b-depth 3
//! ```

use std::time::{Duration, Instant};

use anyhow::Context;
use arena::games::Variant;
use arena_engine::matchplay::{play_match, EngineUse, Player};
use arena_engine::search::{Limits, MAX_DEPTH};
use clap::Parser;

#[derive(Parser, Debug)]
struct Args {
    /// Games per variant (rounded up to an even number: colour-swapped pairs).
    #[arg(long, default_value_t = 40)]
    games: u32,
    #[arg(long)]
    a_depth: Option<u32>,
    /// Milliseconds per move for engine A (0 = no time limit).
    #[arg(long, default_value_t = 0)]
    a_movetime: u64,
    #[arg(long)]
    b_depth: Option<u32>,
    #[arg(long, default_value_t = 0)]
    b_movetime: u64,
    #[arg(long, default_value = "qango6,qango7,qango7plus,quinque")]
    variants: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn engine(depth: Option<u32>, movetime: u64) -> anyhow::Result<Player> {
    if depth.is_none() && movetime == 0 {
        anyhow::bail!("give each engine a depth or a movetime");
    }
    Ok(Player::Engine(Limits {
        max_depth: depth.unwrap_or(MAX_DEPTH),
        time: (movetime > 0).then(|| Duration::from_millis(movetime)),
    }))
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let a = engine(args.a_depth, args.a_movetime)?;
    let b = engine(args.b_depth, args.b_movetime)?;
    let pairs = args.games.div_ceil(2);
    println!(
        "A = {} vs B = {}, {} games per variant, seed {} (results for A)",
        a.label(),
        b.label(),
        pairs * 2,
        args.seed
    );
    for id in args.variants.split(',') {
        let variant =
            Variant::by_id(id.trim()).with_context(|| format!("unknown variant \"{id}\""))?;
        let started = Instant::now();
        let mut usage = EngineUse::default();
        let result = play_match(variant, a, b, pairs, args.seed, &mut usage)?;
        println!(
            "{:<11} {} | {}, {:.0} s",
            variant.id,
            result.summary(),
            usage.summary(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
