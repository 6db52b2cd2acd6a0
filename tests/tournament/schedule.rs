//! Properties of the round-robin schedule: every two bots meet equally
//! often, colours balance exactly, the two games of a pair share one legal
//! opening, and the same seed always gives the same schedule.

use std::collections::BTreeMap;

use arena::games::Variant;
use arena::tournament::schedule::{opening_position, round_robin, validate};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_pair_meets_equally_often_with_balanced_colours(
        variant_index in 0..Variant::all().len(),
        bots in 2usize..8,
        cycles in 1u32..4,
        plies in 0u32..5,
        seed in any::<u64>(),
    ) {
        let variant = &Variant::all()[variant_index];
        let games_per_pairing = 2 * cycles;
        let games = round_robin(variant, bots, games_per_pairing, plies, seed).unwrap();
        prop_assert_eq!(games.len(), bots * (bots - 1) / 2 * games_per_pairing as usize);

        // Ordered (white, black) counts: each bot is white against each other
        // bot exactly half the pairing's games.
        let mut ordered: BTreeMap<(usize, usize), u32> = BTreeMap::new();
        let mut white_games = vec![0u32; bots];
        let mut black_games = vec![0u32; bots];
        for g in &games {
            *ordered.entry((g.white, g.black)).or_default() += 1;
            white_games[g.white] += 1;
            black_games[g.black] += 1;
        }
        for a in 0..bots {
            for b in 0..bots {
                if a != b {
                    prop_assert_eq!(ordered.get(&(a, b)).copied().unwrap_or(0), cycles);
                }
            }
            prop_assert_eq!(white_games[a], (bots as u32 - 1) * cycles);
            prop_assert_eq!(black_games[a], white_games[a]);
        }

        for (i, g) in games.iter().enumerate() {
            prop_assert_eq!(g.id, i as u64);
            prop_assert_eq!(g.pair, g.id / 2);
            prop_assert!(g.round < u64::from(cycles));
            prop_assert_eq!(g.opening.len(), plies as usize);
            prop_assert_eq!(g.game_id(), format!("g{i}"));
        }
        for pair in games.chunks(2) {
            prop_assert_eq!(&pair[0].opening, &pair[1].opening);
            prop_assert_eq!((pair[0].white, pair[0].black), (pair[1].black, pair[1].white));
            prop_assert_eq!(pair[0].round, pair[1].round);
            // Legal under the variant's opening rule and not already over.
            let pos = opening_position(variant, &pair[0].opening).unwrap();
            prop_assert!(!pos.is_over());
            prop_assert!(!pos.legal_moves().is_empty());
        }
        validate(&games, variant, bots).unwrap();
        prop_assert_eq!(&games, &round_robin(variant, bots, games_per_pairing, plies, seed).unwrap());
    }
}

#[test]
fn opening_rules_restrict_the_first_opening_move() {
    // qango6-tournament only allows the 20 edge cells for the first disc.
    let variant = Variant::by_id("qango6-tournament").unwrap();
    let games = round_robin(variant, 4, 20, 1, 3).unwrap();
    for g in &games {
        let cell = &g.opening[0];
        let col = cell.as_bytes()[0] - b'a';
        let row: u8 = cell[1..].parse::<u8>().unwrap() - 1;
        assert!(
            row == 0 || row == 5 || col == 0 || col == 5,
            "{cell} is not an edge cell"
        );
    }
    // And the draws are not all the same cell.
    let distinct: std::collections::BTreeSet<_> = games.iter().map(|g| &g.opening[0]).collect();
    assert!(distinct.len() > 5, "{distinct:?}");
}

#[test]
fn different_seeds_give_different_openings() {
    let variant = Variant::by_id("qango7").unwrap();
    let a = round_robin(variant, 3, 4, 3, 1).unwrap();
    let b = round_robin(variant, 3, 4, 3, 2).unwrap();
    assert_ne!(a, b);
    // Pairings and colours do not depend on the seed, only openings do.
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(
            (x.white, x.black, x.pair, x.round),
            (y.white, y.black, y.pair, y.round)
        );
    }
}
