//! Solve times: the start positions arena proves, and a set of late
//! positions (random play that completes no pattern, 10 to 12 empty cells,
//! no win in one, as in `tests/rules/solver/late_positions.rs`).
//!
//! Run: `cargo bench -p arena-solver --bench solve`. `ARENA_BENCH_START`
//! (a comma list of variants) replaces the start positions solved.

use std::time::{Duration, Instant};

use arena_rules::games::{Family, Position, Variant};
use arena_solver::{Budget, Solver, DEFAULT_MEMORY};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const START: &str = "qango6,qango6-castle,qango6-tournament,qango7,qango7-castle,qango7-pro1,qango7-pro2,qango7plus,qango7plus-edge,qango7plus-tournament";
const LATE_PER_VARIANT: usize = 50;

fn main() {
    println!("start positions (table {} MiB):", DEFAULT_MEMORY >> 20);
    println!(
        "{:<24} {:>6} {:>12} {:>10} {:>12}",
        "variant", "value", "nodes", "ms", "entries"
    );
    let start = std::env::var("ARENA_BENCH_START").unwrap_or_else(|_| START.into());
    for id in start.split(',') {
        let v = Variant::by_id(id).expect("a variant id");
        let mut solver = Solver::new(v, DEFAULT_MEMORY);
        let s = solver.solve(&Position::new(v), Budget::millis(3_600_000));
        let value = s.value.map_or("unknown", |v| v.word());
        let (_, used) = solver.memory();
        println!(
            "{:<24} {:>6} {:>12} {:>10} {:>12}",
            id,
            value,
            s.nodes,
            s.elapsed.as_millis(),
            used
        );
    }
    late_positions();
}

fn late_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    println!("\nlate positions ({LATE_PER_VARIANT} per Qango variant, a fresh 16 MiB table each):");
    println!(
        "{:<24} {:>10} {:>12} {:>12}",
        "variant", "positions", "mean µs", "max µs"
    );
    for v in Variant::all() {
        let Family::Qango(_) = v.family else { continue };
        let mut times = Vec::new();
        while times.len() < LATE_PER_VARIANT {
            let Some(pos) = late_position(v, 10 + (times.len() % 3) as u32, &mut rng) else {
                continue;
            };
            let mut solver = Solver::new(v, 16 << 20);
            let t = Instant::now();
            let s = solver.solve(&pos, Budget::default());
            times.push(t.elapsed());
            assert!(s.value.is_some());
        }
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        let max = times.iter().max().unwrap();
        println!(
            "{:<24} {:>10} {:>12} {:>12}",
            v.id,
            times.len(),
            mean.as_micros(),
            max.as_micros()
        );
    }
}

fn late_position(v: &'static Variant, empty: u32, rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut pos = Position::new(v);
    let playable = v.playable_mask().count_ones();
    while playable - pos.ply() > empty {
        let mut moves = pos.legal_moves();
        moves.shuffle(rng);
        let quiet = moves.into_iter().find(|m| {
            let mut next = pos.clone();
            next.play(m).unwrap();
            next.outcome().is_none()
        })?;
        pos.play(&quiet).unwrap();
    }
    let wins_at_once = pos.legal_moves().iter().any(|m| {
        let mut next = pos.clone();
        next.play(m).unwrap();
        next.outcome().is_some_and(|o| o.winner.is_some())
    });
    (!wins_at_once).then_some(pos)
}
