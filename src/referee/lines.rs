//! The per-game and per-move referee messages, encoded straight from text
//! the game keeps up to date.
//!
//! The owned message types in [`crate::protocol`] need copies: the whole
//! history, the state as a `serde_json::Value`, every legal move as a
//! `String`, and the variant info for each `new_game`. On the move path
//! those copies cost more than the pipe round trip itself, so the game
//! runner keeps the history as JSON text (one item appended per move),
//! writes the state directly as text, takes each legal move's notation from
//! a [`NotationCache`], and [`TurnRef`] only joins the pieces. The lines are
//! byte for byte what the owned types give (tests check it).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use serde::Serialize;

use crate::games::quinque::{CELLS as QUINQUE_CELLS, SIZE as QUINQUE_SIZE};
use crate::games::{Cell, Color, Move, Position, QuinqueMove, Variant};
use crate::protocol::{TimeControl, Turn, TurnClock};

/// A `turn` message made of pieces of JSON text.
#[derive(Debug, Clone, Copy)]
pub struct TurnRef<'a> {
    pub game_id: &'a str,
    pub variant: &'a str,
    pub color: Color,
    pub ply: u32,
    /// STATE as JSON text (see [`crate::games::Position::write_state_json`]).
    pub state: &'a str,
    /// The items of the `history` array: JSON strings joined by commas,
    /// without the brackets (so that a move is appended, not re-encoded).
    pub history_items: &'a str,
    /// The items of the `legal_moves` array, the same way.
    pub legal_move_items: &'a str,
    pub clock: TurnClock,
}

impl TurnRef<'_> {
    /// One `\n`-terminated line.
    pub fn to_line(&self) -> String {
        let mut line = String::new();
        self.write_line(&mut line);
        line
    }

    /// Appends the `\n`-terminated line to `line`: a game reuses one buffer
    /// for all its turns rather than allocating a line (kilobytes in
    /// Quinque) per move.
    pub fn write_line(&self, line: &mut String) {
        line.reserve(
            200 + self.state.len() + self.history_items.len() + self.legal_move_items.len(),
        );
        line.push_str("{\"type\":\"turn\",\"game_id\":");
        push_json_str(line, self.game_id);
        line.push_str(",\"variant\":");
        push_json_str(line, self.variant);
        line.push_str(",\"color\":\"");
        line.push_str(self.color.name());
        let _ = write!(line, "\",\"ply\":{},\"state\":", self.ply);
        line.push_str(self.state);
        line.push_str(",\"history\":[");
        line.push_str(self.history_items);
        line.push_str("],\"legal_moves\":[");
        line.push_str(self.legal_move_items);
        line.push_str("],\"clock\":{\"white_ms\":");
        push_ms(line, self.clock.white_ms);
        line.push_str(",\"black_ms\":");
        push_ms(line, self.clock.black_ms);
        let _ = writeln!(line, ",\"move_ms\":{}}}}}", self.clock.move_ms);
    }
}

/// The pieces of text for an owned [`Turn`], to build a [`TurnRef`] from.
#[derive(Debug, Default)]
pub struct TurnText {
    pub state: String,
    pub history_items: String,
    pub legal_move_items: String,
}

impl TurnText {
    pub fn of(turn: &Turn) -> TurnText {
        let items = |list: &[String]| {
            let mut items = String::new();
            for item in list {
                push_item(&mut items, item);
            }
            items
        };
        TurnText {
            state: serde_json::to_string(&turn.state).expect("JSON values serialize"),
            history_items: items(&turn.history),
            legal_move_items: items(&turn.legal_moves),
        }
    }

    pub fn turn_ref<'a>(&'a self, turn: &'a Turn) -> TurnRef<'a> {
        TurnRef {
            game_id: &turn.game_id,
            variant: &turn.variant,
            color: turn.color,
            ply: turn.ply,
            state: &self.state,
            history_items: &self.history_items,
            legal_move_items: &self.legal_move_items,
            clock: turn.clock,
        }
    }
}

/// Appends `item` as one more JSON string to comma-joined array items.
pub fn push_item(items: &mut String, item: &str) {
    if !items.is_empty() {
        items.push(',');
    }
    push_json_str(items, item);
}

/// The notation of moves as JSON strings, formatted once per distinct move.
///
/// Most legal moves stay legal from one turn to the next and recur from game
/// to game, and formatting a move costs several times a lookup. One-cell
/// moves are looked up by position, Quinque captures by their three cells
/// in a table (most of a Quinque turn's moves are captures late in a game,
/// and a hash lookup each was a fifth of the referee's time per move), other
/// moves by a cheap hash of the move packed into one number. Each thread keeps one cache across games
/// ([`NotationCache::with_thread_cache`]); it holds at most the distinct
/// moves of all variants (a few thousand), and is cleared should it ever
/// pass [`NotationCache::MAX_ENTRIES`].
#[derive(Debug, Default)]
pub struct NotationCache {
    /// Moves on one cell (a Qango move; a Quinque place, double, triple or
    /// enclose) by `kind * 256 + row * 16 + col` (boards up to 16 x 16).
    cells: Vec<Option<Box<str>>>,
    /// Quinque captures by [`capture_slot`].
    captures: Vec<Option<Box<str>>>,
    /// Other moves (captures on boards larger than Quinque's) by [`packed_key`].
    other: HashMap<u64, Box<str>, BuildHasherDefault<SmallKeyHasher>>,
}

/// Slots of the capture table: target, capturing double and second double
/// or none, on the Quinque board.
const CAPTURE_SLOTS: usize = QUINQUE_CELLS * QUINQUE_CELLS * (QUINQUE_CELLS + 1);

/// A capture's place in the capture table, if its cells are on a Quinque
/// board.
fn capture_slot(target: &Cell, with: &Cell, second: &Option<Cell>) -> Option<usize> {
    let index = |c: &Cell| {
        let size = QUINQUE_SIZE as u8;
        (c.row < size && c.col < size).then(|| c.index(size))
    };
    let second = match second {
        Some(c) => index(c)?,
        None => QUINQUE_CELLS,
    };
    Some((index(target)? * QUINQUE_CELLS + index(with)?) * (QUINQUE_CELLS + 1) + second)
}

/// A move as one number, a byte per cell coordinate (cells are at most
/// 255 x 255): a capture's three cells and whether it has a second
/// dissolved double; a one-cell move's kind and cell, under the top bit.
fn packed_key(m: &Move) -> u64 {
    let cell = |c: &crate::games::Cell| (c.row as u64) << 8 | c.col as u64;
    match m {
        Move::Quinque(QuinqueMove::Capture {
            target,
            with,
            second,
        }) => {
            let second = second.as_ref().map_or(0, |s| 1 << 16 | cell(s));
            cell(target) << 40 | cell(with) << 24 | second
        }
        Move::Qango(c) => 1 << 63 | cell(c),
        Move::Quinque(q) => {
            let kind: u64 = match q {
                QuinqueMove::Place(_) => 1,
                QuinqueMove::Double(_) => 2,
                QuinqueMove::Triple(_) => 3,
                _ => 4,
            };
            1 << 63 | kind << 56 | cell(&q.target())
        }
    }
}

impl NotationCache {
    pub const MAX_ENTRIES: usize = 100_000;

    /// Runs `f` with the calling thread's cache.
    pub fn with_thread_cache<R>(f: impl FnOnce(&mut NotationCache) -> R) -> R {
        thread_local! {
            static CACHE: std::cell::RefCell<NotationCache> = Default::default();
        }
        CACHE.with(|cache| f(&mut cache.borrow_mut()))
    }

    /// `m`'s notation as a JSON string.
    #[inline]
    pub fn json(&mut self, m: &Move) -> &str {
        let one_cell = match m {
            Move::Qango(cell) => Some((0, cell)),
            Move::Quinque(QuinqueMove::Place(cell)) => Some((1, cell)),
            Move::Quinque(QuinqueMove::Double(cell)) => Some((2, cell)),
            Move::Quinque(QuinqueMove::Triple(cell)) => Some((3, cell)),
            Move::Quinque(QuinqueMove::Enclose(cell)) => Some((4, cell)),
            Move::Quinque(QuinqueMove::Capture { .. }) => None,
        };
        let capture = match m {
            Move::Quinque(QuinqueMove::Capture {
                target,
                with,
                second,
            }) => capture_slot(target, with, second),
            _ => None,
        };
        let slot = match (one_cell, capture) {
            (Some((kind, cell)), _) if cell.row < 16 && cell.col < 16 => {
                if self.cells.is_empty() {
                    self.cells.resize(5 * 256, None);
                }
                &mut self.cells[kind * 256 + cell.row as usize * 16 + cell.col as usize]
            }
            (_, Some(index)) => {
                if self.captures.is_empty() {
                    self.captures.resize(CAPTURE_SLOTS, None);
                }
                &mut self.captures[index]
            }
            _ => {
                if self.other.len() >= Self::MAX_ENTRIES {
                    self.other.clear();
                }
                return self
                    .other
                    .entry(packed_key(m))
                    .or_insert_with(|| encode_notation(m));
            }
        };
        slot.get_or_insert_with(|| encode_notation(m))
    }

    /// Writes the legal moves of `pos` as comma-joined JSON strings into
    /// `items` (cleared first), as [`NotationCache::write_items`] does with
    /// [`Position::legal_moves`] but without the list.
    pub fn write_legal_moves(&mut self, pos: &Position, items: &mut String) {
        items.clear();
        pos.for_each_legal_move(|m| {
            if !items.is_empty() {
                items.push(',');
            }
            items.push_str(self.json(&m));
        });
    }

    /// Writes `moves` as comma-joined JSON strings into `items` (cleared
    /// first).
    pub fn write_items(&mut self, moves: &[Move], items: &mut String) {
        items.clear();
        for m in moves {
            if !items.is_empty() {
                items.push(',');
            }
            items.push_str(self.json(m));
        }
    }
}

fn encode_notation(m: &Move) -> Box<str> {
    let mut json = String::new();
    push_json_str(&mut json, &m.to_string());
    json.into_boxed_str()
}

/// FxHash-style hashing for small, trusted keys (moves the engine made):
/// a multiply and a rotate per word instead of SipHash's rounds.
#[derive(Debug, Default)]
pub struct SmallKeyHasher(u64);

impl Hasher for SmallKeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `s` as a JSON string, as `serde_json` writes it. Only `"`, `\` and
/// control characters need escaping; text without them (notation, ids) is
/// copied as it is.
pub fn push_json_str(line: &mut String, s: &str) {
    if s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        line.push('"');
        line.push_str(s);
        line.push('"');
    } else {
        push_json(line, s);
    }
}

fn push_ms(line: &mut String, ms: Option<u64>) {
    match ms {
        Some(ms) => {
            let _ = write!(line, "{ms}");
        }
        None => line.push_str("null"),
    }
}

fn push_json<T: Serialize + ?Sized>(line: &mut String, value: &T) {
    line.push_str(&serde_json::to_string(value).expect("strings and enums always serialize"));
}

/// A `new_game` message borrowing the game's data.
#[derive(Clone, Copy)]
pub struct NewGameRef<'a> {
    pub game_id: &'a str,
    pub variant: &'static Variant,
    pub color: Color,
    pub opponent: &'a str,
    pub time_control: TimeControl,
}

impl NewGameRef<'_> {
    /// One `\n`-terminated line. The variant info, the bulk of the line, is
    /// copied from its cached JSON text rather than built and serialized
    /// again for every game.
    pub fn to_line(&self) -> String {
        let info = variant_info_json(self.variant);
        let mut line = String::with_capacity(info.len() + 160);
        line.push_str("{\"type\":\"new_game\",\"game_id\":");
        push_json_str(&mut line, self.game_id);
        line.push_str(",\"variant\":");
        line.push_str(&info);
        line.push_str(",\"color\":");
        push_json(&mut line, &self.color);
        line.push_str(",\"opponent\":");
        push_json_str(&mut line, self.opponent);
        line.push_str(",\"time_control\":");
        push_json(&mut line, &self.time_control);
        line.push_str("}\n");
        line
    }
}

/// `VARIANT_INFO` of `variant` as JSON text, built once per variant and
/// process: it is the same for every game, and building it (every win
/// pattern as cell names) costs as much as several moves.
pub fn variant_info_json(variant: &'static Variant) -> Cow<'static, str> {
    static INFOS: OnceLock<Vec<(&'static str, OnceLock<String>)>> = OnceLock::new();
    let infos = INFOS.get_or_init(|| {
        Variant::all()
            .iter()
            .map(|v| (v.id, OnceLock::new()))
            .collect()
    });
    let encode = || serde_json::to_string(&variant.info_json()).expect("JSON values serialize");
    match infos.iter().find(|(id, _)| *id == variant.id) {
        Some((_, info)) => Cow::Borrowed(info.get_or_init(encode)),
        // Not one of `Variant::all()`: encoded for this game only.
        None => Cow::Owned(encode()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Position;
    use crate::protocol::{NewGame, RefereeMessage};

    fn midgame(id: &str, plies: usize) -> Position {
        let mut pos = Position::new(Variant::by_id(id).unwrap());
        for _ in 0..plies {
            let m = pos.legal_moves()[0];
            pos.play(&m).unwrap();
        }
        pos
    }

    #[test]
    fn turn_line_is_the_owned_encoding() {
        let mut cache = NotationCache::default();
        for id in ["qango6", "qango7", "quinque"] {
            for plies in [0, 1, 6, 7] {
                let pos = midgame(id, plies);
                let history: Vec<String> = pos.history().iter().map(ToString::to_string).collect();
                let mut history_items = String::new();
                for m in &history {
                    push_item(&mut history_items, m);
                }
                let legal = pos.legal_moves();
                let mut legal_move_items = String::new();
                cache.write_items(&legal, &mut legal_move_items);
                let mut state = String::new();
                pos.write_state_json(&mut state);
                for (clock, game_id) in [
                    (
                        TurnClock {
                            white_ms: Some(900),
                            black_ms: Some(0),
                            move_ms: 700,
                        },
                        "g\"1\\\n",
                    ),
                    (
                        TurnClock {
                            white_ms: None,
                            black_ms: None,
                            move_ms: u64::MAX,
                        },
                        "round 3 / é",
                    ),
                ] {
                    let owned = Turn {
                        game_id: game_id.into(),
                        variant: id.into(),
                        color: Color::Black,
                        ply: pos.ply(),
                        state: pos.state_json(),
                        history: history.clone(),
                        legal_moves: legal.iter().map(ToString::to_string).collect(),
                        clock,
                    };
                    let expected = RefereeMessage::Turn(owned.clone()).to_line();
                    let borrowed = TurnRef {
                        game_id,
                        variant: id,
                        color: Color::Black,
                        ply: pos.ply(),
                        state: &state,
                        history_items: &history_items,
                        legal_move_items: &legal_move_items,
                        clock,
                    };
                    assert_eq!(borrowed.to_line(), expected);
                    let text = TurnText::of(&owned);
                    assert_eq!(text.turn_ref(&owned).to_line(), expected);
                }
            }
        }
    }

    #[test]
    fn cached_notation_is_the_display_notation() {
        let mut cache = NotationCache::default();
        let mut keys: HashMap<u64, Move> = HashMap::new();
        let mut slots: HashMap<usize, Move> = HashMap::new();
        for variant in Variant::all() {
            let mut pos = Position::new(variant);
            while !pos.is_over() {
                let legal = pos.legal_moves();
                for m in &legal {
                    assert_eq!(*keys.entry(packed_key(m)).or_insert(*m), *m, "key clash");
                    if let Move::Quinque(QuinqueMove::Capture {
                        target,
                        with,
                        second,
                    }) = m
                    {
                        let slot = capture_slot(target, with, second).expect("on the board");
                        assert_eq!(*slots.entry(slot).or_insert(*m), *m, "slot clash");
                    }
                }
                for _ in 0..2 {
                    let mut items = String::new();
                    cache.write_items(&legal, &mut items);
                    let expected: Vec<String> = legal.iter().map(ToString::to_string).collect();
                    let got: Vec<String> = serde_json::from_str(&format!("[{items}]")).unwrap();
                    assert_eq!(got, expected, "{}", variant.id);
                    let mut direct = String::new();
                    cache.write_legal_moves(&pos, &mut direct);
                    assert_eq!(direct, items, "{}", variant.id);
                }
                pos.play(&legal[legal.len() / 2]).unwrap();
            }
        }
        assert!(!slots.is_empty(), "the games reached captures");
    }

    #[test]
    fn strings_that_need_escaping_are_escaped() {
        for s in [
            "plain",
            "",
            "quo\"te",
            "back\\slash",
            "new\nline",
            "tab\t",
            "\u{7f}é",
        ] {
            let mut line = String::new();
            push_json_str(&mut line, s);
            assert_eq!(line, serde_json::to_string(s).unwrap());
        }
    }

    #[test]
    fn new_game_line_is_the_owned_encoding() {
        for variant in Variant::all() {
            let tc = TimeControl::Clock {
                base_ms: 1000,
                increment_ms: 10,
            };
            let expected = RefereeMessage::NewGame(NewGame {
                game_id: "g2".into(),
                variant: variant.info_json(),
                color: Color::Black,
                opponent: "o\\pp".into(),
                time_control: tc,
            })
            .to_line();
            let borrowed = NewGameRef {
                game_id: "g2",
                variant,
                color: Color::Black,
                opponent: "o\\pp",
                time_control: tc,
            };
            assert_eq!(borrowed.to_line(), expected, "{}", variant.id);
        }
    }
}
