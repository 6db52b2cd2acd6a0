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

use arena_engine::flags;
use arena_engine::matchplay::{print_matches, Player};

const HELP: &str = "vs_greedy [--games N] [--depth N] [--movetime MS] [--variants A,B] [--seed S]
  --games      games per variant, rounded up to an even number [default: 100]
  --depth      engine depth limit [default: none, time only]
  --movetime   engine time per move in ms; 0 = no time limit [default: 100]
  --variants   comma-separated variant ids [default: qango6,qango7,qango7plus,quinque]
  --seed       [default: 1]";

struct Args {
    games: u32,
    depth: Option<u32>,
    movetime: u64,
    variants: String,
    seed: u64,
}

impl Args {
    fn parse() -> Args {
        let mut flags = flags::from_env("vs_greedy", HELP);
        let args = (|| {
            Ok::<_, String>(Args {
                games: flags.number("games", 1, u32::MAX)?.unwrap_or(100),
                depth: flags.number("depth", 1, 64)?,
                movetime: flags.number("movetime", 0, u64::MAX)?.unwrap_or(100),
                variants: flags
                    .text("variants")
                    .unwrap_or_else(|| "qango6,qango7,qango7plus,quinque".into()),
                seed: flags.number("seed", 0, u64::MAX)?.unwrap_or(1),
            })
        })();
        args.and_then(|args| flags.finish().map(|()| args))
            .unwrap_or_else(|message| flags::exit_with("vs_greedy", &message))
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let engine = Player::engine(args.depth, args.movetime);
    let pairs = args.games.div_ceil(2);
    println!(
        "{} vs greedy, {} games per variant (colour-swapped pairs), seed {}",
        engine.label(),
        pairs * 2,
        args.seed
    );
    let total = print_matches(&args.variants, engine, Player::Greedy, pairs, args.seed)?;
    println!("{:<11} {}", "total", total.summary());
    Ok(())
}
