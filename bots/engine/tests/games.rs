//! Whole games on every variant: the engine only ever plays legal moves (each
//! one goes through `Position::play`, the referee's check), finishes games,
//! and respects its time budget.

use std::time::{Duration, Instant};

use arena_engine::matchplay::{play_match, print_matches, EngineUse, Player};
use arena_engine::rating::Tally;
use arena_engine::search::{choose_move, SearchLimits};
use arena_rules::games::{Position, Variant};

const DEPTH_2: SearchLimits = SearchLimits {
    max_depth: 2,
    time: Some(Duration::from_millis(200)),
};

const ENGINE: Player = Player::Engine(DEPTH_2);

#[test]
fn plays_legal_moves_through_whole_games_on_every_variant() {
    // play_game checks every move with Position::play and fails on an illegal one.
    for variant in Variant::all() {
        let mut usage = EngineUse::default();
        let result = play_match(variant, ENGINE, Player::Greedy, 1, 3, &mut usage)
            .unwrap_or_else(|e| panic!("{}: {e:#}", variant.id));
        assert_eq!(result.tally.games(), 2);
        assert!(usage.moves > 0);
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
            SearchLimits {
                max_depth: 64,
                time: Some(budget),
            },
            1,
        )
        .unwrap();
        let took = started.elapsed();
        assert!(
            took < budget + Duration::from_millis(300),
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
    let mut total = Tally::default();
    for id in ["qango6", "qango7plus", "quinque"] {
        let variant = Variant::by_id(id).unwrap();
        let result = play_match(
            variant,
            ENGINE,
            Player::Greedy,
            3,
            100,
            &mut EngineUse::default(),
        )
        .unwrap();
        total += result.tally;
    }
    assert!(total.score() >= 0.9, "{}", total.summary());
}

#[test]
fn print_matches_totals_the_variants_and_rejects_an_unknown_one_up_front() {
    let total = print_matches("qango6, quinque", ENGINE, Player::Greedy, 1, 5).unwrap();
    assert_eq!(total.games(), 4);
    let started = Instant::now();
    let err = print_matches("qango6,qango9", ENGINE, Player::Greedy, 50, 5).unwrap_err();
    assert!(err.to_string().contains("qango9"), "{err:#}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "played before failing"
    );
}
