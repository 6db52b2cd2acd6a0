//! Tests of the Swiss: the pairing of hand-made score tables (each
//! expected pairing worked out by hand in its comment), the tie-breaks, and
//! the format played game by game through a [`RunState`].

use super::*;
use crate::settings::defs::{FORMAT, OPENING_PLIES, ROUNDS, SEED};
use crate::settings::Given;
use crate::swiss_table::rank;
use crate::swiss_table::{BoardResult, SwissRound};
use crate::testing::{lower_index_wins, manifest_of, play_to_end, row_of};
use crate::text::render_tables;

/// A field of these scores (half points) where `met` pairs met once.
fn field(score: &[u32], met: &[(usize, usize)]) -> Field {
    let mut field = Field::new(score.len());
    field.score = score.to_vec();
    for &(a, b) in met {
        field.met[a][b] += 1;
        field.met[b][a] += 1;
    }
    field
}

fn boards(pairing: &RoundPairing) -> Vec<[usize; 2]> {
    pairing.boards.clone()
}

#[test]
fn a_first_round_pairs_the_top_half_against_the_bottom_half() {
    // One score group of six: 1-4, 2-5, 3-6 (0-based 0-3, 1-4, 2-5).
    let p = pair_round(&Field::new(6));
    assert_eq!(boards(&p), [[0, 3], [1, 4], [2, 5]]);
    assert_eq!(p.bye, None);
    // Five: the last bot has the bye, the other four pair 0-2, 1-3.
    let p = pair_round(&Field::new(5));
    assert_eq!(boards(&p), [[0, 2], [1, 3]]);
    assert_eq!(p.bye, Some(4));
}

#[test]
fn score_groups_pair_top_down() {
    // Groups {0, 1} at 2 points, {2, 3, 4} at 1, {5} at 0: 0-1 inside the
    // top group; 2 meets 3 (its group of three with 2 first: half of it
    // away), 4 is left over and drops to meet 5.
    let p = pair_round(&field(&[4, 4, 2, 2, 2, 0], &[]));
    assert_eq!(boards(&p), [[0, 1], [2, 3], [4, 5]]);
    // 0 and 1 met: 0 takes the top of the next group down (2); 1, left
    // over, joins {3, 4} and meets the bot half that group away (3); 4-5.
    let p = pair_round(&field(&[4, 4, 2, 2, 2, 0], &[(0, 1)]));
    assert_eq!(boards(&p), [[0, 2], [1, 3], [4, 5]]);
}

#[test]
fn a_bot_left_alone_joins_the_next_group() {
    // 0 leads alone; with {1, 2, 3} it is a group of four, where 0 meets
    // the bot two places down (2), and 1 then meets 3; 4-5 below.
    let p = pair_round(&field(&[4, 2, 2, 2, 0, 0], &[]));
    assert_eq!(boards(&p), [[0, 2], [1, 3], [4, 5]]);
}

#[test]
fn rematches_are_avoided_by_searching_further() {
    // Round 1 was 0-2 and 1-3; all drew. 0 prefers 2 (met), then 3: 0-3,
    // leaving 1-2.
    let p = pair_round(&field(&[1, 1, 1, 1], &[(0, 2), (1, 3)]));
    assert_eq!(boards(&p), [[0, 3], [1, 2]]);
    // 0 met 1 and 2, and 1 met 2: only 0-3 is new, and it leaves 1-2, a
    // rematch. No pairing avoids one, so top-down each bot meets the
    // preferred bot it met least: 0 meets 3 (never met), and 1-2 again.
    let p = pair_round(&field(&[2, 2, 2, 2], &[(0, 1), (0, 2), (1, 2)]));
    assert_eq!(boards(&p), [[0, 3], [1, 2]]);
}

#[test]
fn a_deep_dead_end_backtracks() {
    // Six bots of one score. 0's first choices are 3 then 4; 0-3 leaves
    // {1, 2, 4, 5} where 1 met 4 and 5, so 1 must meet 2, and 4-5 have
    // met: a dead end two levels down. 0-4 leaves {1, 2, 3, 5}: 1 prefers
    // 3 (in a group of four, two places down), then 2-5, who never met.
    let met = [(1, 4), (1, 5), (2, 4), (4, 5)];
    let p = pair_round(&field(&[0; 6], &met));
    assert_eq!(boards(&p), [[0, 4], [1, 3], [2, 5]]);
}

#[test]
fn the_bye_goes_to_the_lowest_ranked_bot_without_one() {
    // Bot 2 leads and had the bye; 1 is lowest: bye 1, 2-0.
    let mut f = field(&[0, 0, 2], &[]);
    f.byes = vec![0, 0, 1];
    let p = pair_round(&f);
    assert_eq!((boards(&p), p.bye), (vec![[2, 0]], Some(1)));
    // 2-0 met: with the bye to 1 the others would meet again, so the bye
    // goes to 0 and 2-1 play.
    let mut f = field(&[0, 0, 2], &[(0, 2)]);
    f.byes = vec![0, 0, 1];
    let p = pair_round(&f);
    assert_eq!((boards(&p), p.bye), (vec![[2, 1]], Some(0)));
    // Everyone but 0 had a bye: 0 gets it even though it leads.
    let mut f = field(&[4, 2, 2], &[]);
    f.byes = vec![0, 1, 1];
    assert_eq!(pair_round(&f).bye, Some(0));
}

#[test]
fn ties_break_by_buchholz_then_points_among_the_tied_then_all_points() {
    let f = field(&[2, 2, 2, 2, 4], &[]);
    // 1 and 2 tie on score and Buchholz; 2 beat 1 3-1 in their games.
    // 0 and 3 tie on both and never met: all game points (5 against 4).
    let buchholz = [3, 5, 5, 3, 0];
    let game_points = [5, 9, 2, 4, 8];
    let meetings = [(1, 2, [1, 3]), (0, 4, [0, 4])];
    let order = rank(&f, &buchholz, &game_points, &meetings);
    assert_eq!(
        order,
        [
            (4, None),
            (2, Some(3)),
            (1, Some(1)),
            (0, Some(0)),
            (3, Some(0))
        ]
    );
    // All equal: config order.
    let order = rank(&field(&[2, 2], &[]), &[1, 1], &[3, 3], &[]);
    assert_eq!(order, [(0, Some(0)), (1, Some(0))]);
}

/// A Swiss of `bots` bots (named a, b, ...) over `rounds` rounds, two
/// games per pairing.
fn swiss(bots: usize, rounds: u32) -> Swiss {
    let mut given = Given::new().with(&OPENING_PLIES, "1").with(&SEED, "4");
    for name in ('a'..).take(bots) {
        given = given.with_bot(format!("{name}=x"));
    }
    given = given
        .with(&FORMAT, "swiss")
        .with(&ROUNDS, rounds.to_string());
    let manifest = manifest_of(&given);
    Swiss::new(&manifest, manifest.plan.read().unwrap()).unwrap()
}

/// The row of `game`, won by the bot with the lower index.
fn row(game: &ScheduledGame, names: &[String]) -> GameRow {
    row_of(game, names, lower_index_wins(game))
}

struct Quiet;
impl RunOutput for Quiet {}

/// Plays `swiss` to the end (lower index wins every game), a round's
/// games all started before any finishes; returns every game, in order.
fn play(swiss: &mut Swiss, run: &mut RunState) -> Vec<ScheduledGame> {
    let names: Vec<String> = swiss.stages.names().to_vec();
    play_to_end(swiss, &names, run, &mut Quiet, lower_index_wins)
}

#[test]
fn an_odd_field_meets_no_one_twice_and_each_bot_has_at_most_one_bye() {
    let mut s = swiss(5, 5);
    let mut run = RunState::new();
    let games = play(&mut s, &mut run);
    // 5 rounds of 2 boards of 2 games.
    assert_eq!(games.len(), 20);
    assert_eq!(Some(games.len() as u64), s.total());
    // One pair per board: its games swap colours on one opening.
    let mut met = std::collections::BTreeSet::new();
    for pair in games.chunks(2) {
        let [g0, g1] = pair else { unreachable!() };
        assert_eq!(
            (g1.white, g1.black, &g1.opening),
            (g0.black, g0.white, &g0.opening)
        );
        let (a, b) = (g0.white.min(g0.black), g0.white.max(g0.black));
        assert!(met.insert((a, b)), "{a}-{b} met twice");
    }
    assert_eq!(met.len(), 10, "every pairing of 5 bots once");
    let summary = s.summary();
    assert_eq!(summary.complete, 5);
    let byes: Vec<u32> = summary.table.iter().map(|r| r.byes).collect();
    assert_eq!(byes, [1, 1, 1, 1, 1]);
    for (r, round) in summary.played.iter().enumerate() {
        assert_eq!(round.round, r as u64 + 1);
        assert!(round.bye.is_some());
    }
    // a wins every pairing it plays: 4 wins and a bye, 5 points.
    assert_eq!(summary.table[0].bot, "a");
    assert_eq!(summary.table[0].score, 10);
}

#[test]
fn a_round_waits_for_the_last_game_of_the_one_before() {
    let mut s = swiss(4, 2);
    let mut run = RunState::new();
    let names: Vec<String> = s.stages.names().to_vec();
    let first: Vec<ScheduledGame> = std::iter::from_fn(|| s.next_game(&run).unwrap()).collect();
    assert_eq!(first.len(), 4);
    assert!(first.iter().all(|g| g.round == 1));
    for game in &first[..3] {
        let row = row(game, &names);
        run.add(&row).unwrap();
        s.finished(&row, &run, &mut Quiet);
        assert!(
            s.next_game(&run).unwrap().is_none(),
            "round 2 started early"
        );
    }
    let row3 = row(&first[3], &names);
    run.add(&row3).unwrap();
    s.finished(&row3, &run, &mut Quiet);
    let second = s.next_game(&run).unwrap().expect("round 2");
    assert_eq!(second.round, 2);
    // Round 1 was a-c, b-d; a and b won: a-b, c-d.
    assert_eq!((second.white, second.black), (0, 1));
}

#[test]
fn a_resumed_swiss_plays_the_games_an_uninterrupted_one_plays() {
    let mut whole = swiss(5, 3);
    let everything = play(&mut whole, &mut RunState::new());
    let names: Vec<String> = whole.stages.names().to_vec();
    // Stopped after the first round and one game of the second.
    let mut resumed = swiss(5, 3);
    let mut run = RunState::new();
    for game in &everything[..5] {
        let row = row(game, &names);
        run.add(&row).unwrap();
        resumed.recorded(&row).unwrap();
    }
    let mut rest = play(&mut resumed, &mut run);
    rest.sort_by_key(|g| g.id);
    assert_eq!(rest, everything[5..]);
    assert_eq!(resumed.summary(), whole.summary());
}

#[test]
fn a_replayed_game_that_the_plan_does_not_have_is_refused() {
    let mut s = swiss(4, 1);
    let names: Vec<String> = s.stages.names().to_vec();
    let first: Vec<ScheduledGame> =
        std::iter::from_fn(|| s.next_game(&RunState::new()).unwrap()).collect();
    let mut s = swiss(4, 1);
    let mut run = RunState::new();
    for game in &first {
        let mut row = row(game, &names);
        if game.id == 2 {
            row.white = names[3].clone();
            row.black = names[0].clone();
        }
        run.add(&row).unwrap();
        s.recorded(&row).unwrap();
    }
    let err = s.next_game(&run).unwrap_err().to_string();
    assert!(err.contains("game g2 does not match the plan"), "{err}");
}

#[test]
fn rematches_and_second_byes_come_only_when_unavoidable() {
    // Three bots, four rounds: one board a round. Rounds 1-3 pair each two
    // bots once and give each bot one bye; round 4 must repeat both.
    let mut s = swiss(3, 4);
    let games = play(&mut s, &mut RunState::new());
    assert_eq!(games.len(), 4 * 2);
    let boards: Vec<(usize, usize)> = games
        .chunks(2)
        .map(|p| (p[0].white.min(p[0].black), p[0].white.max(p[0].black)))
        .collect();
    let first_three: std::collections::BTreeSet<_> = boards[..3].iter().collect();
    assert_eq!(first_three.len(), 3, "{boards:?}");
    let summary = s.summary();
    let byes: Vec<&str> = summary
        .played
        .iter()
        .map(|r| r.bye.as_deref().unwrap())
        .collect();
    let first_byes: std::collections::BTreeSet<_> = byes[..3].iter().collect();
    assert_eq!(first_byes.len(), 3, "{byes:?}");
    let total: u32 = summary.table.iter().map(|r| r.byes).sum();
    assert_eq!(total, 4);
}

#[test]
fn a_swiss_shows_its_table_then_each_round() {
    let summary = SwissSummary {
        rounds: 2,
        complete: 1,
        played: vec![SwissRound {
            round: 1,
            boards: vec![BoardResult {
                bots: ["a".into(), "b".into()],
                points: [3, 1],
                finished: 2,
                unplayed: 0,
                games: 2,
            }],
            bye: Some("c".into()),
        }],
        table: vec![SwissRow {
            rank: 1,
            bot: "a".into(),
            score: 2,
            buchholz: 0,
            tied_points: None,
            game_points: 3,
            byes: 0,
        }],
    };
    let text = render_tables(&summary.tables());
    assert!(
        text.starts_with("Swiss table after 1 of 2 rounds"),
        "{text}"
    );
    assert!(
        text.contains("1  a        1         0     -          1.5     0"),
        "{text}"
    );
    assert!(text.contains("    1  a    1.5 - 0.5      b"), "{text}");
    assert!(text.contains("c    bye (1 point)"), "{text}");
}
