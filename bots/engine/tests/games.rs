//! Whole games on every variant: the engine only ever plays legal moves (each
//! one goes through `Position::play`, the referee's check), finishes games,
//! and respects its time budget.

use std::time::{Duration, Instant};

use arena::games::{Position, Variant};
use arena_engine::greedy::greedy_move;
use arena_engine::search::{choose_move, Limits};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const DEPTH_2: Limits = Limits {
    max_depth: 2,
    time: Some(Duration::from_millis(200)),
};

/// Engine (as white if `engine_white`) against greedy; returns the finished position.
fn engine_vs_greedy(variant: &'static Variant, engine_white: bool, seed: u64) -> Position {
    let mut pos = Position::new(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let engine_moves_at = if engine_white { 0 } else { 1 };
    while !pos.is_over() {
        let m = if pos.ply() % 2 == engine_moves_at {
            choose_move(&pos, DEPTH_2, seed).expect("a move").best
        } else {
            greedy_move(&pos, &mut rng).expect("a move")
        };
        pos.play(&m)
            .unwrap_or_else(|e| panic!("{}: illegal {m} at ply {}: {e}", variant.id, pos.ply()));
        assert!(pos.ply() <= 200, "{}: game does not end", variant.id);
    }
    pos
}

#[test]
fn plays_legal_moves_through_whole_games_on_every_variant() {
    for variant in Variant::all() {
        for engine_white in [true, false] {
            let pos = engine_vs_greedy(variant, engine_white, 3);
            assert!(pos.outcome().is_some(), "{}", variant.id);
        }
    }
}

#[test]
fn engine_against_itself_finishes_every_variant() {
    for variant in Variant::all() {
        let mut pos = Position::new(variant);
        let mut seed = 0;
        while !pos.is_over() {
            seed += 1;
            let report = choose_move(&pos, DEPTH_2, seed).expect("a move");
            pos.play(&report.best)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", variant.id, report.best));
        }
        assert!(choose_move(&pos, DEPTH_2, 0).is_none(), "no move once over");
    }
}

#[test]
fn stops_on_time_with_unlimited_depth() {
    for id in ["qango7", "quinque"] {
        let pos = Position::new(Variant::by_id(id).unwrap());
        let budget = Duration::from_millis(40);
        let started = Instant::now();
        let report = choose_move(
            &pos,
            Limits {
                max_depth: 64,
                time: Some(budget),
            },
            1,
        )
        .unwrap();
        let took = started.elapsed();
        assert!(
            took < budget + Duration::from_millis(150),
            "{id}: took {took:?} for a {budget:?} budget"
        );
        assert!(report.depth >= 1, "{id}: at least one iteration completes");
        assert!(pos.clone().play(&report.best).is_ok());
    }
}

#[test]
fn beats_greedy_at_depth_two() {
    // A quick version of the strength check (the full one is the vs_greedy
    // example): colour-swapped pairs, the engine should win nearly all.
    let mut wins = 0;
    let mut games = 0;
    for id in ["qango6", "qango7plus", "quinque"] {
        let variant = Variant::by_id(id).unwrap();
        for seed in 0..3 {
            for engine_white in [true, false] {
                let pos = engine_vs_greedy(variant, engine_white, 100 + seed);
                let winner = pos.outcome().unwrap().winner;
                let engine = if engine_white {
                    arena::games::Color::White
                } else {
                    arena::games::Color::Black
                };
                games += 1;
                wins += (winner == Some(engine)) as u32;
            }
        }
    }
    assert!(wins * 10 >= games * 9, "engine won only {wins} of {games}");
}
