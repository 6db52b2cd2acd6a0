//! Tests of the knockout: the bracket's order and byes, tie-break pairs up
//! to the cap and the higher seed after it, and that losers play no more.

use super::*;
use crate::settings::defs::{FORMAT, OPENING_PLIES, SEED, TIEBREAK_PAIRS};
use crate::settings::Given;
use crate::testing::{manifest_of, play_to_end, row_of};
use crate::text::render_tables;
use arena_rules::games::GameResult;

#[test]
fn the_bracket_keeps_the_top_seeds_apart() {
    assert_eq!(bracket_order(2), [0, 1]);
    assert_eq!(bracket_order(4), [0, 3, 1, 2]);
    assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
}

fn knockout(bots: usize, tiebreak_pairs: u32) -> Knockout {
    let mut given = Given::new()
        .with(&OPENING_PLIES, "1")
        .with(&SEED, "4")
        .with(&FORMAT, "knockout")
        .with(&TIEBREAK_PAIRS, tiebreak_pairs.to_string());
    for name in ('a'..).take(bots) {
        given = given.with_bot(format!("{name}=x"));
    }
    let manifest = manifest_of(&given);
    Knockout::new(&manifest, manifest.plan.read().unwrap()).unwrap()
}

/// Records every paired stage.
#[derive(Default)]
struct Rounds(Vec<PairedRound>);
impl RunOutput for Rounds {
    fn round_paired(&mut self, round: &PairedRound) {
        self.0.push(round.clone());
    }
}

/// Plays `k` to the end, a stage at a time, each game's result by
/// `result`; returns every game in order and the stages announced.
fn play(
    k: &mut Knockout,
    result: impl Fn(&ScheduledGame) -> GameResult,
) -> (Vec<ScheduledGame>, Rounds) {
    let names: Vec<String> = k.stages.names().to_vec();
    let mut rounds = Rounds::default();
    let all = play_to_end(k, &names, &mut RunState::new(), &mut rounds, result);
    (all, rounds)
}

/// The lower index (the higher seed) wins every game.
use crate::testing::lower_index_wins as higher_seed_wins;

#[test]
fn five_bots_fill_eight_places_with_three_byes() {
    let mut k = knockout(5, 2);
    // Round 1: only seeds 4 and 5 play; 1, 2 and 3 have byes.
    assert_eq!(k.first.boards, [["d".to_string(), "e".to_string()]]);
    assert_eq!(k.first.byes, ["a", "b", "c"]);
    let (games, rounds) = play(&mut k, higher_seed_wins);
    let by_round = |r: u64| -> Vec<(usize, usize)> {
        let mut m: Vec<(usize, usize)> = games
            .iter()
            .filter(|g| g.round == r)
            .map(|g| (g.white.min(g.black), g.white.max(g.black)))
            .collect();
        m.dedup();
        m
    };
    assert_eq!(by_round(1), [(3, 4)]);
    // d beat e: a-d and b-c; then a-b.
    assert_eq!(by_round(2), [(0, 3), (1, 2)]);
    assert_eq!(by_round(3), [(0, 1)]);
    assert_eq!(games.len(), 8);
    let titles: Vec<&str> = rounds.0.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(titles, ["Round 2 of 3", "Round 3 of 3"]);
    let bracket = k.bracket();
    assert_eq!(bracket.winner.as_deref(), Some("a"));
    assert_eq!(bracket.size, 8);
    let first: Vec<bool> = bracket.rounds[0].matches.iter().map(|m| m.bye).collect();
    assert_eq!(first, [true, false, true, true]);
    // Losers play no more: e after round 1, d and c after round 2.
    for (loser, last) in [(4, 1), (3, 2), (2, 2)] {
        assert!(games
            .iter()
            .filter(|g| g.white == loser || g.black == loser)
            .all(|g| g.round <= last));
    }
}

#[test]
fn six_bots_give_the_top_two_seeds_byes() {
    let k = knockout(6, 2);
    assert_eq!(
        k.first.boards,
        [
            ["d".to_string(), "e".to_string()],
            ["c".to_string(), "f".to_string()]
        ]
    );
    assert_eq!(k.first.byes, ["a", "b"]);
}

#[test]
fn a_tied_match_plays_tie_break_pairs_up_to_the_cap_then_the_higher_seed_advances() {
    // White wins every game: each pair is 1-1, so every match stays tied.
    let mut k = knockout(2, 2);
    let (games, rounds) = play(&mut k, |_| GameResult::WhiteWins);
    // The match's pair, then two tie-break pairs, each its own opening.
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g.round == 1));
    let titles: Vec<&str> = rounds.0.iter().map(|r| r.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Round 1 of 1, tie-break pair 1 of at most 2",
            "Round 1 of 1, tie-break pair 2 of at most 2"
        ]
    );
    let bracket = k.bracket();
    let m = &bracket.rounds[0].matches[0];
    assert_eq!((m.points, m.tiebreak_pairs, m.by_seed), ([6, 6], 2, true));
    assert_eq!(bracket.winner.as_deref(), Some("a"));
}

#[test]
fn a_tie_break_pair_that_decides_ends_the_match() {
    // The first pair is 1-1; in the first tie-break pair (games 2 and 3)
    // b wins both: b advances, and no second tie-break pair is played.
    let mut k = knockout(2, 3);
    let (games, _) = play(&mut k, |g| match g.id {
        0 | 1 => GameResult::WhiteWins,
        _ if g.white == 1 => GameResult::WhiteWins,
        _ => GameResult::BlackWins,
    });
    assert_eq!(games.len(), 4);
    let bracket = k.bracket();
    let m = &bracket.rounds[0].matches[0];
    assert_eq!((m.points, m.tiebreak_pairs, m.by_seed), ([2, 6], 1, false));
    assert_eq!(bracket.winner.as_deref(), Some("b"));
}

#[test]
fn a_resumed_knockout_plays_what_an_uninterrupted_one_plays() {
    let result = |g: &ScheduledGame| {
        if g.id.is_multiple_of(3) {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        }
    };
    let mut whole = knockout(6, 2);
    let (everything, _) = play(&mut whole, result);
    let names: Vec<String> = whole.stages.names().to_vec();
    let mut resumed = knockout(6, 2);
    for game in &everything[..5] {
        resumed
            .recorded(&row_of(game, &names, result(game)))
            .unwrap();
    }
    // The resumed run's state holds the earlier games as done.
    let mut run = RunState::new();
    for game in &everything[..5] {
        run.add(&row_of(game, &names, result(game))).unwrap();
    }
    let mut rest = Vec::new();
    loop {
        let stage: Vec<ScheduledGame> =
            std::iter::from_fn(|| resumed.next_game(&run).unwrap()).collect();
        if stage.is_empty() {
            break;
        }
        for game in &stage {
            let row = row_of(game, &names, result(game));
            run.add(&row).unwrap();
            resumed.finished(&row, &run, &mut Rounds::default());
        }
        rest.extend(stage);
    }
    assert_eq!(rest, everything[5..]);
    assert_eq!(resumed.bracket(), whole.bracket());
}

#[test]
fn a_bracket_shows_byes_tie_breaks_and_the_seed_decision() {
    let m = |bye: bool, by_seed: bool| BracketMatch {
        seeds: [1, if bye { 0 } else { 4 }],
        bots: ["a".into(), if bye { "" } else { "d" }.into()],
        points: [4, 4],
        finished: 4,
        unplayed: 0,
        tiebreak_pairs: 1,
        winner: Some("a".into()),
        by_seed,
        bye,
    };
    let bracket = Bracket {
        size: 4,
        tiebreak_pairs: 1,
        rounds: vec![BracketRound {
            round: 1,
            matches: vec![m(true, false), m(false, true)],
        }],
        winner: None,
    };
    let text = render_tables(&bracket.tables());
    assert!(text.starts_with("Knockout round 1 of 2:"), "{text}");
    assert!(text.contains("a    bye"), "{text}");
    assert!(
        text.contains("2 - 2 (with 1 tie-break pair)     4  d    a (tied: higher seed)"),
        "{text}"
    );
    assert_eq!(
        bracket.winner_line(),
        "No winner yet: the bracket is not decided."
    );
    let paired = PairedRound {
        title: "Round 1 of 2".into(),
        boards: vec![["d".into(), "e".into()]],
        byes: vec!["a".into()],
    };
    assert_eq!(paired.line(), "Round 1 of 2: d - e; bye: a");
}
