//! Strength check: arena-engine against the greedy baseline, in process.
//!
//! For each variant, games are played in pairs with colours swapped (the
//! engine is white in one game of the pair and black in the other), on the
//! same rules engine the referee uses; every move is checked by
//! `Position::play`. Prints W/D/L, score, Elo with a 95% interval and LOS.
//!
//! ```text
//! cargo run --release -p arena-engine --example vs_greedy -- --games 100
//! cargo run --release -p arena-engine --example vs_greedy -- --depth 2 --variants quinque
//! ```

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arena::games::{Color, Position, Variant};
use arena_engine::greedy::greedy_move;
use arena_engine::rating::Tally;
use arena_engine::search::{choose_move, mix, Limits, MAX_DEPTH};
use clap::Parser;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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

/// Engine statistics over a match.
#[derive(Default)]
struct EngineUse {
    moves: u64,
    depth_sum: u64,
    max_time: Duration,
    total_time: Duration,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let limits = Limits {
        max_depth: args.depth.unwrap_or(MAX_DEPTH),
        time: (args.movetime > 0).then(|| Duration::from_millis(args.movetime)),
    };
    println!(
        "engine (depth {}, movetime {} ms) vs greedy, {} games per variant, seed {}",
        args.depth.map_or("-".to_string(), |d| d.to_string()),
        args.movetime,
        args.games.div_ceil(2) * 2,
        args.seed
    );
    let mut total = Tally::default();
    for id in args.variants.split(',') {
        let variant =
            Variant::by_id(id.trim()).with_context(|| format!("unknown variant \"{id}\""))?;
        let started = Instant::now();
        let mut tally = Tally::default();
        let mut usage = EngineUse::default();
        for pair in 0..args.games.div_ceil(2) {
            for engine_color in [Color::White, Color::Black] {
                let game_seed = mix(args.seed ^ mix(pair as u64));
                let winner = play_game(variant, engine_color, limits, game_seed, &mut usage)?;
                match winner {
                    Some(c) if c == engine_color => tally.wins += 1,
                    Some(_) => tally.losses += 1,
                    None => tally.draws += 1,
                }
            }
        }
        total.wins += tally.wins;
        total.draws += tally.draws;
        total.losses += tally.losses;
        println!(
            "{:<12} {}  | avg depth {:.1}, avg {:.0} ms/move, max {} ms, {:.0} s",
            variant.id,
            tally.summary(),
            usage.depth_sum as f64 / usage.moves.max(1) as f64,
            usage.total_time.as_millis() as f64 / usage.moves.max(1) as f64,
            usage.max_time.as_millis(),
            started.elapsed().as_secs_f64()
        );
    }
    println!("{:<12} {}", "total", total.summary());
    Ok(())
}

/// Plays one game; returns the winner (None for a draw).
fn play_game(
    variant: &'static Variant,
    engine_color: Color,
    limits: Limits,
    seed: u64,
    usage: &mut EngineUse,
) -> anyhow::Result<Option<Color>> {
    let mut pos = Position::new(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !pos.is_over() {
        let m = if pos.to_move() == engine_color {
            let report = choose_move(&pos, limits, seed).context("engine found no move")?;
            usage.moves += 1;
            usage.depth_sum += report.depth as u64;
            usage.total_time += report.elapsed;
            usage.max_time = usage.max_time.max(report.elapsed);
            report.best
        } else {
            greedy_move(&pos, &mut rng).context("greedy found no move")?
        };
        if let Err(e) = pos.play(&m) {
            bail!(
                "{} played an illegal move {m} in {} at ply {}: {e}",
                if pos.to_move() == engine_color {
                    "engine"
                } else {
                    "greedy"
                },
                variant.id,
                pos.ply()
            );
        }
    }
    Ok(pos.outcome().and_then(|o| o.winner))
}
