//! Strength check: arena-engine against the greedy baseline, in process.
//!
//! For each variant, games are played in pairs with colours swapped (the
//! engine is white in one game of the pair and black in the other), on the
//! same rules engine the referee uses; every move is checked by
//! `Position::play`. Prints W/D/L, score, Elo with a 95% interval and LOS.
//!
//! ```text
//! cargo run --release -p arena-engine --example vs_greedy -- --games 100
//! cargo run --release -p arena-engine --example vs_greedy -- --depth 2 --movetime 0
//! ```

use std::time::{Duration, Instant};

use anyhow::Context;
use arena::games::Variant;
use arena_engine::matchplay::{play_match, EngineUse, Player};
use arena_engine::rating::Tally;
use arena_engine::search::{Limits, MAX_DEPTH};
use clap::Parser;

#[derive(Parser, Debug)]
struct Args {
    /// Games per variant (rounded up to an even number: colour-swapped pairs).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Engine depth limit (default: none, time only).
    #[arg(long)]
    depth: Option<u32>,
    /// Engine time per move in ms (default 100, the bot's default; 0 = no time limit).
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Comma-separated variant ids.
    #[arg(long, default_value = "qango6,qango7,qango7plus,quinque")]
    variants: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let engine = Player::Engine(Limits {
        max_depth: args.depth.unwrap_or(MAX_DEPTH),
        time: (args.movetime > 0).then(|| Duration::from_millis(args.movetime)),
    });
    let pairs = args.games.div_ceil(2);
    println!(
        "{} vs greedy, {} games per variant (colour-swapped pairs), seed {}",
        engine.label(),
        pairs * 2,
        args.seed
    );
    let mut total = Tally::default();
    for id in args.variants.split(',') {
        let variant =
            Variant::by_id(id.trim()).with_context(|| format!("unknown variant \"{id}\""))?;
        let started = Instant::now();
        let mut usage = EngineUse::default();
        let result = play_match(
            variant,
            engine,
            Player::Greedy,
            pairs,
            args.seed,
            &mut usage,
        )?;
        total.wins += result.tally.wins;
        total.draws += result.tally.draws;
        total.losses += result.tally.losses;
        println!(
            "{:<11} {} | {}, {:.0} s",
            variant.id,
            result.summary(),
            usage.summary(),
            started.elapsed().as_secs_f64()
        );
    }
    println!("{:<11} {}", "total", total.summary());
    Ok(())
}
