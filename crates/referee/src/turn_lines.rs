//! The per-game and per-move referee messages, encoded straight from text
//! the game keeps up to date.
//!
//! The owned message types in [`arena_rules::protocol`] need copies: the whole
//! history, the state as a `serde_json::Value`, every legal move as a
//! `String`, and the variant info for each `new_game`. On the move path
//! those copies cost more than the pipe round trip itself, so the game
//! runner keeps the history as JSON text (one item appended per move),
//! writes the state directly as text, writes each legal move's notation
//! straight from the move generator ([`write_legal_moves`]), and [`TurnRef`]
//! only joins the pieces. The lines are
//! byte for byte what the owned types give (tests check it).

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::Serialize;

use arena_rules::games::ascii::TextBuf;
use arena_rules::games::quinque::{MoveSink, CELLS as QUINQUE_CELLS, SIZE as QUINQUE_SIZE};
use arena_rules::games::{Cell, Color, Move, Position, QuinqueMove, Variant};
use arena_rules::protocol::{TimeControl, Turn, TurnClock};

/// A `turn` message made of pieces of JSON text (numbers written with
/// `itoa`, several times cheaper than `write!`).
#[derive(Debug, Clone, Copy)]
pub struct TurnRef<'a> {
    pub game_id: &'a str,
    pub variant: &'a str,
    pub color: Color,
    pub ply: u32,
    /// STATE as JSON text (see [`arena_rules::games::Position::write_state_json`]).
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
        line.push_str("\",\"ply\":");
        line.push_str(itoa::Buffer::new().format(self.ply));
        line.push_str(",\"state\":");
        line.push_str(self.state);
        line.push_str(",\"history\":[");
        line.push_str(self.history_items);
        line.push_str("],\"legal_moves\":[");
        line.push_str(self.legal_move_items);
        line.push_str("],\"clock\":{\"white_ms\":");
        push_ms(line, self.clock.white_ms);
        line.push_str(",\"black_ms\":");
        push_ms(line, self.clock.black_ms);
        line.push_str(",\"move_ms\":");
        line.push_str(itoa::Buffer::new().format(self.clock.move_ms));
        if !self.clock.basis.is_wall() {
            line.push_str(",\"basis\":\"");
            line.push_str(self.clock.basis.as_str());
            line.push('"');
        }
        line.push_str("}}\n");
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

/// Writes the legal moves of `pos` as comma-joined JSON strings into
/// `items` (cleared first), straight from the move generator: the same
/// text as [`write_items`] with [`Position::legal_moves`], without the list.
pub fn write_legal_moves(pos: &Position, items: &mut String) {
    items.clear();
    match pos.quinque() {
        // Without the `Move` around each move: the generator's shapes stay
        // apart (a capture is written as a capture) rather than joined.
        Some(quinque) => quinque.for_each_legal_move_into(&mut QuinqueItems(items)),
        None => pos.for_each_legal_move(|m| push_move_item(items, &m)),
    }
    drop_leading_comma(items);
}

/// Writes `moves` as comma-joined JSON strings into `items` (cleared first).
pub fn write_items(moves: &[Move], items: &mut String) {
    items.clear();
    for m in moves {
        push_move_item(items, m);
    }
    drop_leading_comma(items);
}

/// Every item is written after a comma (a test per move costs more than
/// moving the text once); the first one is taken off at the end.
fn drop_leading_comma(items: &mut String) {
    if !items.is_empty() {
        items.remove(0);
    }
}

/// Size of the items in [`QUINQUE_ITEMS`]: `,"capture a1 b2"`, the
/// longest, is 16 bytes.
const QUINQUE_ITEM_MAX: usize = 16;

/// Appends a comma and `m`'s notation as a JSON string.
///
/// A Quinque turn lists about seventy moves, so each is copied from a table
/// of items ([`QUINQUE_ITEMS`]), a Qango move assembled from the two bytes
/// of its cell's name ([`arena_rules::games::Cell::short_name`]), rather than
/// formatted (notation never needs JSON escaping: letters, digits and
/// spaces). Cells without a short name (boards beyond 26 columns or 9 rows,
/// which arena does not ship) go through `Display`.
#[inline(always)]
fn push_move_item(items: &mut String, m: &Move) {
    let written = match m {
        Move::Qango(c) => c.short_name().map(|[c0, c1]| {
            let mut item = TextBuf::<5>::default();
            item.push_ascii([b',', b'"', c0, c1, b'"']);
            item.append_to(items);
        }),
        Move::Quinque(q) => push_quinque_item(items, q),
    };
    if written.is_none() {
        push_long_move_item(items, m);
    }
}

/// [`push_move_item`] for moves with a cell without a short name.
#[cold]
#[inline(never)]
fn push_long_move_item(items: &mut String, m: &Move) {
    items.push(',');
    push_json_str(items, &m.to_string());
}

/// Writes each move it takes with [`push_quinque_item`].
struct QuinqueItems<'a>(&'a mut String);

impl MoveSink for QuinqueItems<'_> {
    #[inline(always)]
    fn take(&mut self, q: QuinqueMove) {
        if push_quinque_item(self.0, &q).is_none() {
            push_long_move_item(self.0, &Move::Quinque(q));
        }
    }
}

/// Appends a Quinque move as a JSON string after a comma, copied from
/// [`QUINQUE_ITEMS`] (no copy through the stack); `None`, with nothing
/// written, for a cell off the Quinque board.
#[inline(always)]
fn push_quinque_item(out: &mut String, q: &QuinqueMove) -> Option<()> {
    let index = |c: Cell| {
        let size = QUINQUE_SIZE as u8;
        (c.row < size && c.col < size).then(|| c.index(size))
    };
    let items = &QUINQUE_ITEMS;
    match *q {
        QuinqueMove::Place(c) => items.one_cell[0][index(c)?].append_to(out),
        QuinqueMove::Double(c) => items.one_cell[1][index(c)?].append_to(out),
        QuinqueMove::Triple(c) => items.one_cell[2][index(c)?].append_to(out),
        QuinqueMove::Enclose(c) => items.one_cell[3][index(c)?].append_to(out),
        QuinqueMove::Capture {
            target,
            with,
            second: None,
        } => items.capture[index(target)?][index(with)?].append_to(out),
        QuinqueMove::Capture {
            target,
            with,
            second: Some(second),
        } => {
            let (target, with, second) = (index(target)?, index(with)?, index(second)?);
            // `,"capture t1 w1"` without its quote, then ` s1"`.
            items.capture[target][with].append_to(out);
            out.pop();
            items.second[second].append_to(out);
        }
    }
    Some(())
}

/// The JSON items of every Quinque move, built at compile time: a turn
/// lists about seventy moves, and copying an item from a table costs a
/// fraction of assembling it (or of a lookup in a cache of formatted text).
struct QuinqueItemTable {
    /// `,"place c3"`, ... by action (place, double, triple, enclose) and cell.
    one_cell: [[TextBuf<QUINQUE_ITEM_MAX>; QUINQUE_CELLS]; 4],
    /// `,"capture t1 w1"` by target and the (first) dissolved double.
    capture: [[TextBuf<QUINQUE_ITEM_MAX>; QUINQUE_CELLS]; QUINQUE_CELLS],
    /// ` s1"`: the end of a capture naming a second double, by that double.
    second: [TextBuf<4>; QUINQUE_CELLS],
}

const QUINQUE_ITEMS: QuinqueItemTable = {
    const EMPTY: TextBuf<QUINQUE_ITEM_MAX> = TextBuf::from_ascii([0; QUINQUE_ITEM_MAX], 0);
    // Cell `i`'s name (`a1` is row 0, column 0): column letter, row digit.
    const fn name(i: usize) -> [u8; 2] {
        [
            b'a' + (i % QUINQUE_SIZE) as u8,
            b'1' + (i / QUINQUE_SIZE) as u8,
        ]
    }
    // `,"`, `word`, the cells' names separated by spaces, `"`.
    const fn item(word: &[u8], cells: &[usize]) -> TextBuf<QUINQUE_ITEM_MAX> {
        let mut bytes = [0; QUINQUE_ITEM_MAX];
        bytes[0] = b',';
        bytes[1] = b'"';
        let mut len = 2;
        let mut k = 0;
        while k < word.len() {
            bytes[len] = word[k];
            len += 1;
            k += 1;
        }
        let mut k = 0;
        while k < cells.len() {
            if k > 0 {
                bytes[len] = b' ';
                len += 1;
            }
            let [c0, c1] = name(cells[k]);
            bytes[len] = c0;
            bytes[len + 1] = c1;
            len += 2;
            k += 1;
        }
        bytes[len] = b'"';
        TextBuf::from_ascii(bytes, len + 1)
    }
    let words: [&[u8]; 4] = [b"place ", b"double ", b"triple ", b"enclose "];
    let mut items = QuinqueItemTable {
        one_cell: [[EMPTY; QUINQUE_CELLS]; 4],
        capture: [[EMPTY; QUINQUE_CELLS]; QUINQUE_CELLS],
        second: [TextBuf::from_ascii([0; 4], 0); QUINQUE_CELLS],
    };
    let mut i = 0;
    while i < QUINQUE_CELLS {
        let mut action = 0;
        while action < 4 {
            items.one_cell[action][i] = item(words[action], &[i]);
            action += 1;
        }
        let mut j = 0;
        while j < QUINQUE_CELLS {
            items.capture[i][j] = item(b"capture ", &[i, j]);
            j += 1;
        }
        let [c0, c1] = name(i);
        items.second[i] = TextBuf::from_ascii([b' ', c0, c1, b'"'], 4);
        i += 1;
    }
    items
};

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
        Some(ms) => line.push_str(itoa::Buffer::new().format(ms)),
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
    use arena_rules::games::Position;
    use arena_rules::protocol::{NewGame, RefereeMessage};

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
                write_items(&legal, &mut legal_move_items);
                let mut state = String::new();
                pos.write_state_json(&mut state);
                for (clock, game_id) in [
                    (
                        TurnClock {
                            white_ms: Some(900),
                            black_ms: Some(0),
                            move_ms: 700,
                            basis: Default::default(),
                        },
                        "g\"1\\\n",
                    ),
                    (
                        TurnClock {
                            white_ms: None,
                            black_ms: None,
                            move_ms: u64::MAX,
                            basis: Default::default(),
                        },
                        "round 3 / é",
                    ),
                    (
                        TurnClock {
                            white_ms: Some(5),
                            black_ms: None,
                            move_ms: 5,
                            basis: arena_rules::protocol::ClockBasis::Cpu,
                        },
                        "on a CPU clock",
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
    fn written_moves_are_the_display_notation_over_whole_games() {
        let mut captures = 0;
        for variant in Variant::all() {
            let mut pos = Position::new(variant);
            while !pos.is_over() {
                let legal = pos.legal_moves();
                let mut items = String::new();
                write_items(&legal, &mut items);
                let expected: Vec<String> = legal.iter().map(ToString::to_string).collect();
                let got: Vec<String> = serde_json::from_str(&format!("[{items}]")).unwrap();
                assert_eq!(got, expected, "{}", variant.id);
                assert_eq!(
                    items,
                    serde_json::to_string(&expected).unwrap()[1..items.len() + 1]
                );
                let mut direct = String::from("left over");
                write_legal_moves(&pos, &mut direct);
                assert_eq!(direct, items, "{}", variant.id);
                captures += expected.iter().filter(|m| m.starts_with("capture")).count();
                pos.play(&legal[legal.len() / 2]).unwrap();
            }
        }
        assert!(captures > 0, "the games reached captures");
    }

    #[test]
    fn move_items_spell_the_rules_page_notation() {
        // Notation as docs/RULES.md writes it; `a1` is row 0, column 0.
        let c = |name: &str| {
            let b = name.as_bytes();
            Cell::new(b[1] - b'1', b[0] - b'a')
        };
        let cases = [
            (Move::Qango(c("c3")), "\"c3\""),
            (Move::Qango(c("g7")), "\"g7\""),
            (Move::Quinque(QuinqueMove::Place(c("c3"))), "\"place c3\""),
            (Move::Quinque(QuinqueMove::Double(c("a1"))), "\"double a1\""),
            (Move::Quinque(QuinqueMove::Triple(c("a1"))), "\"triple a1\""),
            (
                Move::Quinque(QuinqueMove::Enclose(c("a1"))),
                "\"enclose a1\"",
            ),
            (
                Move::Quinque(QuinqueMove::Capture {
                    target: c("a1"),
                    with: c("e5"),
                    second: None,
                }),
                "\"capture a1 e5\"",
            ),
            (
                Move::Quinque(QuinqueMove::Capture {
                    target: c("d4"),
                    with: c("b2"),
                    second: Some(c("e5")),
                }),
                "\"capture d4 b2 e5\"",
            ),
            // No short name: row 10, column 27 (written through `Display`).
            (Move::Qango(Cell::new(9, 0)), "\"a10\""),
            (Move::Qango(Cell::new(0, 26)), "\"{1\""),
        ];
        let moves: Vec<Move> = cases.iter().map(|(m, _)| *m).collect();
        let mut items = String::new();
        write_items(&moves, &mut items);
        let expected: Vec<&str> = cases.iter().map(|(_, json)| *json).collect();
        assert_eq!(items, expected.join(","));
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
