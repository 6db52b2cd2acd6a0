//! The line sizes PROTOCOL.md promises bot authors: many random games per
//! variant are encoded with the referee's own line encoder
//! (`referee::lines`, the code that writes to bots), and the longest
//! `new_game` and `turn` line of each variant must stay below the safe
//! buffer size stated in PROTOCOL.md ("Line sizes" table), which is read
//! from the page, not copied here. Run with `--nocapture` to see the
//! measured figures that the page quotes.

use std::collections::BTreeMap;

use arena::games::{Color, Position, Variant};
use arena::protocol::{TimeControl, TurnClock, MAX_LINE_BYTES};
use arena::referee::lines::{push_item, write_items, NewGameRef, TurnRef};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const GAMES_PER_VARIANT: usize = 1000;

/// The largest values the fields of variable length take in the measurement:
/// a seven-digit game id, clock figures of 20 digits (the largest u64), and
/// an opponent name of 32 characters (the name is the tournament's, so a
/// longer name makes `new_game` longer by the difference).
const GAME_ID: &str = "g1000000";
const OPPONENT: &str = "an-opponent-name-of-32-chars-abc";
const MS: u64 = u64::MAX;

#[derive(Debug, Default, Clone, Copy)]
struct Longest {
    new_game: usize,
    turn: usize,
}

fn new_game_line(variant: &'static Variant) -> String {
    NewGameRef {
        game_id: GAME_ID,
        variant,
        color: Color::Black,
        opponent: OPPONENT,
        time_control: TimeControl::Clock {
            base_ms: MS,
            increment_ms: MS,
        },
    }
    .to_line()
}

/// Plays one random game and returns the longest `turn` line sent in it.
fn longest_turn_of_a_random_game(variant: &'static Variant, rng: &mut SmallRng) -> usize {
    let mut pos = Position::new(variant);
    let (mut history, mut legal_items, mut state) = (String::new(), String::new(), String::new());
    let mut longest = 0;
    while !pos.is_over() {
        let legal = pos.legal_moves();
        write_items(&legal, &mut legal_items);
        state.clear();
        pos.write_state_json(&mut state);
        let line = TurnRef {
            game_id: GAME_ID,
            variant: variant.id,
            color: pos.to_move(),
            ply: pos.ply(),
            state: &state,
            history_items: &history,
            legal_move_items: &legal_items,
            clock: TurnClock {
                white_ms: Some(MS),
                black_ms: Some(MS),
                move_ms: MS,
                basis: Default::default(),
            },
        }
        .to_line();
        assert!(!line[..line.len() - 1].contains('\n'), "{line}");
        longest = longest.max(line.len() - 1);
        let m = legal[rng.gen_range(0..legal.len())];
        pos.play(&m).unwrap();
        push_item(&mut history, &m.to_string());
    }
    longest
}

fn measure() -> BTreeMap<&'static str, Longest> {
    let mut rng = SmallRng::seed_from_u64(13);
    let mut figures = BTreeMap::new();
    for variant in Variant::all() {
        let new_game = new_game_line(variant);
        assert!(!new_game[..new_game.len() - 1].contains('\n'));
        let turn = (0..GAMES_PER_VARIANT)
            .map(|_| longest_turn_of_a_random_game(variant, &mut rng))
            .max()
            .unwrap_or(0);
        figures.insert(
            variant.id,
            Longest {
                new_game: new_game.len() - 1,
                turn,
            },
        );
    }
    figures
}

/// The safe buffer size in bytes stated in PROTOCOL.md's line-size section:
/// the line "A buffer of N bytes holds every line ...".
fn documented_safe_size() -> usize {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol/PROTOCOL.md"))
            .unwrap();
    let line = page
        .lines()
        .find(|l| l.contains("A buffer of") && l.contains("bytes holds every line"))
        .expect("PROTOCOL.md states a safe buffer size (\"A buffer of N bytes holds every line\")");
    let after = line.split("A buffer of").nth(1).unwrap();
    let number: String = after
        .trim_start()
        .trim_start_matches('*')
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no number in {line:?}"))
}

#[test]
fn every_line_sent_in_random_games_fits_the_documented_safe_buffer() {
    let figures = measure();
    println!("variant                 longest new_game   longest turn  (bytes, without the \\n)");
    for (id, l) in &figures {
        println!("{id:<23} {:>16} {:>14}", l.new_game, l.turn);
    }
    let safe = documented_safe_size();
    assert!(
        safe <= MAX_LINE_BYTES,
        "the safe size exceeds MAX_LINE_BYTES"
    );
    for (id, l) in &figures {
        assert!(
            l.new_game < safe && l.turn < safe,
            "{id}: a line of {} bytes does not fit the documented {safe}",
            l.new_game.max(l.turn)
        );
    }
    // The bound must be one a reader can use: not far above what arena sends.
    let largest = figures
        .values()
        .map(|l| l.new_game.max(l.turn))
        .max()
        .unwrap();
    assert!(
        safe <= 8 * largest,
        "the documented {safe} is far above the largest line ({largest})"
    );
}
