//! STATE written straight to JSON text.
//!
//! The referee sends the state with every turn. [`Position::state_json`]
//! builds a `serde_json::Value` (an allocation per cell and per key) that is
//! then serialized; that cost more than the pipe round trip to the bot.
//! [`Position::write_state_json`] writes the same bytes directly. A test
//! checks that both agree for every variant over whole games.

use super::ascii::TextBuf;
use super::quinque::{self, QuinqueState};
use super::{variant, Position, QangoState, State};

impl Position {
    /// Appends STATE as JSON text to `out`: byte for byte what
    /// `serde_json::to_string(&self.state_json())` gives (keys in sorted
    /// order, as `serde_json` writes its maps).
    pub fn write_state_json(&self, out: &mut String) {
        let rows = self.variant.rows() as usize;
        let cols = self.variant.cols() as usize;
        let to_move = self.to_move().name();
        out.push_str("{\"board\":[");
        match &self.state {
            State::Qango(s) => write_qango_state(s, rows, cols, out),
            State::Quinque(s) => write_quinque_state(s, out),
        }
        out.push_str(",\"to_move\":\"");
        out.push_str(to_move);
        out.push_str("\"}");
    }
}

/// The longest Qango board text: at most 64 cells (a bitboard), each
/// with a comma or `],[` before it, and `]],"discs":{"black":`.
const QANGO_BOARD_MAX: usize = 64 * 6 + 32;

/// A Qango cell as JSON text: off the board, white, black, empty.
const QANGO_CELL_TEXT: [TextBuf<3>; 4] = [
    TextBuf::from_ascii(*b"\"#\"", 3),
    TextBuf::from_ascii(*b"\"w\"", 3),
    TextBuf::from_ascii(*b"\"b\"", 3),
    TextBuf::from_ascii(*b"\".\"", 3),
];

/// The Qango part of STATE after `{"board":[`, up to `to_move`, assembled
/// in a stack buffer like [`write_quinque_state`].
fn write_qango_state(s: &QangoState, rows: usize, cols: usize, out: &mut String) {
    let playable = s.geometry().playable;
    let mut board = TextBuf::<QANGO_BOARD_MAX>::default();
    for row in 0..rows {
        board.push_str(if row == 0 { "[" } else { "],[" });
        for col in 0..cols {
            if col > 0 {
                board.push_ascii([b',']);
            }
            // Off the board 0, else white 1, black 2, empty 3 (a cell holds
            // at most one disc), without a branch per case.
            let i = row * cols + col;
            let bit = |mask: u64| (mask >> i & 1) as usize;
            let cell = bit(playable) * (3 - 2 * bit(s.discs[0]) - bit(s.discs[1]));
            board.push_text(&QANGO_CELL_TEXT[cell]);
        }
    }
    board.push_str("]],\"discs\":{\"black\":");
    board.append_to(out);
    let left = |side: usize| variant::QANGO_MAX_DISCS / 2 - s.discs[side].count_ones();
    out.push_str(itoa::Buffer::new().format(left(1)));
    out.push_str(",\"white\":");
    out.push_str(itoa::Buffer::new().format(left(0)));
    out.push('}');
}

/// The longest Quinque board text and `locked`: 25 cells of up to 6 bytes
/// (`"w127"`, were a stack set by hand that high), their commas and
/// brackets, and `],"locked":"c3"`.
const QUINQUE_BOARD_MAX: usize = quinque::CELLS * 7 + 2 * quinque::SIZE + 2 + 16;

/// A stack as JSON text by height, `-3` (a black triple) to `3`.
const STACK_TEXT: [TextBuf<4>; 7] = [
    TextBuf::from_ascii(*b"\"b3\"", 4),
    TextBuf::from_ascii(*b"\"b2\"", 4),
    TextBuf::from_ascii(*b"\"b1\"", 4),
    TextBuf::from_ascii(*b"\".\" ", 3),
    TextBuf::from_ascii(*b"\"w1\"", 4),
    TextBuf::from_ascii(*b"\"w2\"", 4),
    TextBuf::from_ascii(*b"\"w3\"", 4),
];

/// The Quinque part of STATE after `{"board":[`, up to `to_move`. The board
/// is assembled in a stack buffer from a table of the seven possible
/// stacks: it is written for every turn, and a push onto the `String` per
/// piece cost more than the rest of the turn's text.
fn write_quinque_state(s: &QuinqueState, out: &mut String) {
    let mut board = TextBuf::<QUINQUE_BOARD_MAX>::default();
    for (i, &h) in s.stacks.iter().enumerate() {
        match (i % quinque::SIZE, i) {
            (0, 0) => board.push_str("["),
            (0, _) => board.push_str("],["),
            _ => board.push_str(","),
        }
        match STACK_TEXT.get((h as isize + 3) as usize) {
            Some(text) => board.push_text(text),
            // Higher stacks cannot arise in a game, only be set by hand.
            None => {
                board.push_str(if h > 0 { "\"w" } else { "\"b" });
                board.push_str(itoa::Buffer::new().format(h.unsigned_abs()));
                board.push_str("\"");
            }
        }
    }
    board.push_str("]],\"locked\":");
    match s.locked.map(|cell| (cell, cell.short_name())) {
        Some((_, Some(name))) => {
            board.push_str("\"");
            board.push_ascii(name);
            board.push_str("\"");
        }
        // Not a cell of the 5x5 board: only a state set by hand.
        Some((cell, None)) => board.push_str(&format!("\"{cell}\"")),
        None => board.push_str("null"),
    }
    board.append_to(out);
    out.push_str(",\"supply\":{\"black\":");
    out.push_str(itoa::Buffer::new().format(s.supply[1]));
    out.push_str(",\"white\":");
    out.push_str(itoa::Buffer::new().format(s.supply[0]));
    out.push('}');
}

#[cfg(test)]
mod tests {
    use crate::games::{Position, Variant};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn text_is_the_serialized_value_over_whole_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for variant in Variant::all() {
            for _ in 0..20 {
                let mut pos = Position::new(variant);
                loop {
                    let mut text = String::new();
                    pos.write_state_json(&mut text);
                    let expected = serde_json::to_string(&pos.state_json()).unwrap();
                    assert_eq!(text, expected, "{} at ply {}", variant.id, pos.ply());
                    if pos.is_over() {
                        break;
                    }
                    let moves = pos.legal_moves();
                    let m = *moves.choose(&mut rng).unwrap();
                    pos.play(&m).unwrap();
                }
            }
        }
    }
}
