//! Engine against engine at two strength settings, in process: checks that
//! more search wins (a sanity check of search and evaluation) and helps tune
//! the default strength.
//!
//! ```text
//! cargo run --release -p arena-engine --example engine_match -- --a-depth 4 --b-depth 2
//! cargo run --release -p arena-engine --example engine_match -- --a-movetime 100 --b-depth 3
//! ```

use arena_engine::flags;
use arena_engine::matchplay::{print_matches, Player};

const HELP: &str = "engine_match [--games N] [--a-depth N] [--a-movetime MS] [--b-depth N] [--b-movetime MS] [--variants A,B] [--seed S]
  --games        games per variant, rounded up to an even number [default: 40]
  --a-depth, --b-depth          each engine's depth limit
  --a-movetime, --b-movetime    each engine's ms per move; 0 = no time limit [default: 0]
  --variants     comma-separated variant ids [default: qango6,qango7,qango7plus,quinque]
  --seed         [default: 1]";

struct Args {
    games: u32,
    a_depth: Option<u32>,
    a_movetime: u64,
    b_depth: Option<u32>,
    b_movetime: u64,
    variants: String,
    seed: u64,
}

impl Args {
    fn parse() -> Args {
        let mut flags = flags::from_env("engine_match", HELP);
        let args = (|| {
            Ok::<_, String>(Args {
                games: flags.number("games", 1, u32::MAX)?.unwrap_or(40),
                a_depth: flags.number("a-depth", 1, 64)?,
                a_movetime: flags.number("a-movetime", 0, u64::MAX)?.unwrap_or(0),
                b_depth: flags.number("b-depth", 1, 64)?,
                b_movetime: flags.number("b-movetime", 0, u64::MAX)?.unwrap_or(0),
                variants: flags
                    .text("variants")
                    .unwrap_or_else(|| "qango6,qango7,qango7plus,quinque".into()),
                seed: flags.number("seed", 0, u64::MAX)?.unwrap_or(1),
            })
        })();
        args.and_then(|args| flags.finish().map(|()| args))
            .unwrap_or_else(|message| flags::exit_with("engine_match", &message))
    }
}

fn engine(depth: Option<u32>, movetime: u64) -> anyhow::Result<Player> {
    if depth.is_none() && movetime == 0 {
        anyhow::bail!("give each engine a depth or a movetime");
    }
    Ok(Player::engine(depth, movetime))
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
    let total = print_matches(&args.variants, a, b, pairs, args.seed)?;
    println!("{:<11} {}", "total", total.summary());
    Ok(())
}
