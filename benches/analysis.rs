//! Throughput of `arena analyse` (plies per second) on games generated in
//! process: a seeded player that takes a win in one when it has one and
//! otherwise plays a random legal move, after a 2-ply random opening, on
//! each variant of `ARENA_BENCH_ANALYSIS_VARIANTS` (default `qango6,qango7`).
//! Each set is analysed as `arena analyse` does ([`analyse_games`]: a
//! solver with a 256 MiB table per worker, 200 ms a position), with 1 and
//! with 2 workers; the figures are plies/s, the share of positions left
//! unknown, and the 2-worker speed-up (a ratio within one run). No
//! settled table: every position is searched (the table's effect is
//! measured with `arena analyse` itself, docs/PERFORMANCE.md).
//!
//! Run: `cargo bench --bench analysis` (`ARENA_BENCH_ANALYSIS_GAMES=N`, default
//! 200 games a variant; `ARENA_BENCH_ANALYSIS_BUDGET_MS`, default 200).

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use arena::games::{Color, Position, Variant};
use arena::report::analyse::{analyse_games, Game, Plan};
use arena_solver::Budget;

#[path = "support/measure.rs"]
mod measure;
use measure::env_or;

/// A game of a player that wins at once when it can, else plays at random.
fn game(id: u64, variant: &'static Variant, rng: &mut SmallRng) -> Game {
    let mut pos = Position::new(variant);
    let mut moves = Vec::new();
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let mover = pos.to_move();
        let winning = (moves.len() >= 2)
            .then(|| {
                legal.iter().find(|m| {
                    let mut next = pos.clone();
                    next.play(m).is_ok() && next.outcome().is_some_and(|o| o.winner == Some(mover))
                })
            })
            .flatten();
        let m = winning
            .copied()
            .unwrap_or_else(|| legal[rng.gen_range(0..legal.len())]);
        pos.play(&m).expect("a legal move");
        moves.push(m.to_string());
    }
    Game {
        id,
        variant,
        white: "a".into(),
        black: "b".into(),
        opening: 2,
        moves,
        winner: pos.outcome().and_then(|o| o.winner),
    }
}

fn main() {
    arena_solver::settled::configure(arena_solver::settled::Location::Off, 0);
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let variants = env_or("ARENA_BENCH_ANALYSIS_VARIANTS", "qango6,qango7".to_string());
    let count: u64 = env_or("ARENA_BENCH_ANALYSIS_GAMES", 200);
    let budget_ms: u64 = env_or("ARENA_BENCH_ANALYSIS_BUDGET_MS", 200);
    println!(
        "analysis throughput: {count} games a variant, {budget_ms} ms a position, 256 MiB a worker"
    );
    for id in variants.split(',') {
        let variant = Variant::by_id(id).unwrap_or_else(|| panic!("unknown variant {id}"));
        let mut rng = SmallRng::seed_from_u64(7);
        let games: Vec<Game> = (0..count).map(|i| game(i, variant, &mut rng)).collect();
        let white_wins = games
            .iter()
            .filter(|g| g.winner == Some(Color::White))
            .count();
        let mut per_sec = Vec::new();
        for jobs in [1, 2] {
            let plan = Plan {
                budget: Budget::millis(budget_ms),
                jobs,
                memory: 256 << 20,
            };
            let started = Instant::now();
            let mut rows = Vec::new();
            analyse_games(&games, plan, |_, game_rows| {
                rows.extend(game_rows);
                Ok(())
            })
            .expect("the analysis");
            let secs = started.elapsed().as_secs_f64();
            let unknown = rows.iter().filter(|r| r.before.is_none()).count();
            let rate = rows.len() as f64 / secs;
            per_sec.push(rate);
            println!(
                "{id}: -j {jobs}: {} plies of {count} games ({white_wins} white wins) in {secs:.2} s: \
                 {rate:.0} plies/s; {unknown} positions unknown ({:.1}%)",
                rows.len(),
                100.0 * unknown as f64 / rows.len().max(1) as f64
            );
        }
        println!("{id}: -j 2 / -j 1 = {:.2}x", per_sec[1] / per_sec[0]);
    }
}
