//! The rules engine: every Qango variant and Quinque.
//!
//! Variants are rows in a table ([`Variant`]); boards are data
//! ([`boards`]); win patterns are derived from that data ([`geometry`]).
//! How a board looks, for every drawing of it, is [`look`].
//! [`Position`] is the one interface the referee, `arena judge` and the
//! bots use: legal moves, play with a reason on refusal, outcome, notation.
//!
//! - [`variant`]: the variant table; [`boards`]: the Qango boards as data;
//!   [`geometry`]: masks and win patterns derived from them; [`symmetry`]:
//!   each board's symmetries.
//! - [`cell`]: cells and their names; [`qango`]: Qango positions on two
//!   bitboards; [`quinque`]: Quinque's stacks, supply and actions.
//! - [`result`]: how a game ends, as the rules see it.
//! - [`render`]: boards drawn for terminals; [`ascii`]: the small text
//!   buffer of the per-move writers; `state_text`: a position's protocol
//!   `state` as text.

pub mod ascii;
pub mod boards;
pub mod cell;
pub mod geometry;
pub mod look;
pub mod qango;
pub mod quinque;
pub mod render;
pub mod result;
mod state_text;
pub mod symmetry;
pub mod variant;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use cell::shorten;
pub use cell::Cell;
pub use qango::QangoState;
pub use quinque::{QuinqueMove, QuinqueState};
pub use result::{GameResult, RuleReason};
pub use variant::{Family, Opening, Variant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black: the index into per-colour arrays.
    pub fn index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }

    /// Who moves at 0-based `ply`: white on even plies.
    pub fn to_move_at(ply: u32) -> Color {
        if ply.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended by the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// Any [`RuleReason`] but `ply_cap` and `adjudicated` (the referee's).
    pub reason: RuleReason,
    /// The winning cells (empty for draws and `no_moves`).
    pub cells: Vec<Cell>,
}

/// A move in either family; `Display` prints RULES.md notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    Qango(Cell),
    Quinque(QuinqueMove),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Qango(c) => c.fmt(f),
            Move::Quinque(m) => m.fmt(f),
        }
    }
}

/// A refused move, with a message written for the bot author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    pub message: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MoveError {}

impl From<String> for MoveError {
    fn from(message: String) -> Self {
        MoveError { message }
    }
}

#[derive(Debug, Clone)]
enum State {
    Qango(QangoState),
    Quinque(QuinqueState),
}

/// A game in progress: the variant, its state, and the moves so far.
#[derive(Clone)]
pub struct Position {
    variant: &'static Variant,
    state: State,
    history: Vec<Move>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("variant", &self.variant.id)
            .field("state", &self.state)
            .field("history", &self.history)
            .finish()
    }
}

impl Position {
    pub fn new(variant: &'static Variant) -> Position {
        let state = match variant.family {
            Family::Qango(board) => State::Qango(QangoState::new(board, variant)),
            Family::Quinque => State::Quinque(QuinqueState::default()),
        };
        Position {
            variant,
            state,
            history: Vec::new(),
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    pub fn to_move(&self) -> Color {
        match &self.state {
            State::Qango(s) => s.to_move(),
            State::Quinque(s) => s.to_move(),
        }
    }

    pub fn ply(&self) -> u32 {
        self.history.len() as u32
    }

    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The Qango state, for fast search and playouts (None for Quinque).
    pub fn qango(&self) -> Option<&QangoState> {
        match &self.state {
            State::Qango(s) => Some(s),
            State::Quinque(_) => None,
        }
    }

    /// The Quinque state (None for Qango).
    pub fn quinque(&self) -> Option<&QuinqueState> {
        match &self.state {
            State::Quinque(s) => Some(s),
            State::Qango(_) => None,
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match &self.state {
            State::Qango(s) => s.outcome(),
            State::Quinque(s) => s.outcome(),
        }
    }

    pub fn is_over(&self) -> bool {
        match &self.state {
            State::Qango(s) => s.is_over(),
            State::Quinque(s) => s.result.is_some(),
        }
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.for_each_legal_move(|m| moves.push(m));
        moves
    }

    /// Calls `f` with each move of [`Position::legal_moves`], in the same
    /// order, without building the list (the referee writes them as text).
    pub fn for_each_legal_move(&self, mut f: impl FnMut(Move)) {
        match &self.state {
            State::Qango(s) => {
                let cols = s.geometry().cols;
                for i in geometry::bits(s.legal_mask()) {
                    f(Move::Qango(Cell::from_index(i, cols)));
                }
            }
            State::Quinque(s) => s.for_each_legal_move(|m| f(Move::Quinque(m))),
        }
    }

    /// Parses a move in this variant's notation (syntax and board bounds
    /// only), forgivingly: case, surrounding and repeated spaces and the
    /// order of a capture's doubles do not matter. For people typing moves
    /// (the human seat); bots and records must use [`Position::play_str`],
    /// which takes only the exact spelling.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        match &self.state {
            State::Qango(_) => Cell::parse(text, self.variant.rows(), self.variant.cols())
                .map(Move::Qango)
                .map_err(MoveError::from),
            State::Quinque(_) => QuinqueMove::parse(text)
                .map(Move::Quinque)
                .map_err(MoveError::from),
        }
    }

    /// `text` as a move if it is exactly a move's notation (what
    /// `to_string` gives) on this board, legal or not; `None` otherwise.
    fn parse_canonical(&self, text: &str) -> Option<Move> {
        match &self.state {
            State::Qango(_) => {
                Cell::parse_canonical(text, self.variant.rows(), self.variant.cols())
                    .map(Move::Qango)
            }
            State::Quinque(_) => QuinqueMove::parse_canonical(text).map(Move::Quinque),
        }
    }

    /// Why `m` is illegal now, or `Ok` if it may be played.
    pub fn check(&self, m: &Move) -> Result<(), MoveError> {
        match (&self.state, m) {
            (State::Qango(s), Move::Qango(c)) => s
                .check(*c, self.variant.id, self.variant.opening_text)
                .map(|_| ())
                .map_err(MoveError::from),
            (State::Quinque(s), Move::Quinque(q)) => s.check(q).map_err(MoveError::from),
            _ => Err(MoveError::from(format!(
                "{m} is not a move of {}",
                self.variant.id
            ))),
        }
    }

    /// Plays `m`, or explains why it is illegal and leaves the position unchanged.
    pub fn play(&mut self, m: &Move) -> Result<(), MoveError> {
        self.check(m)?;
        match (&mut self.state, m) {
            (State::Qango(s), Move::Qango(c)) => {
                let index = c.index(s.geometry().cols);
                s.place_unchecked(index);
            }
            (State::Quinque(s), Move::Quinque(q)) => s.apply_unchecked(q),
            _ => unreachable!("check() rejects moves of the other family"),
        }
        self.history.push(*m);
        Ok(())
    }

    /// Plays a move given as text, which must be spelt exactly as in the
    /// legal moves (the canonical notation, as PROTOCOL.md requires): a
    /// spelling that only [`Position::parse_move`] would forgive is illegal,
    /// and the error shows the exact one (`` `C3` is not a legal move; did
    /// you mean `c3`? ``).
    pub fn play_str(&mut self, text: &str) -> Result<Move, MoveError> {
        // The common case, an exactly spelt move, without the forgiving
        // parse's allocations and the comparison with `to_string`.
        if let Some(m) = self.parse_canonical(text) {
            self.play(&m)?;
            return Ok(m);
        }
        let m = self.parse_move(text)?;
        let exact = m.to_string();
        if exact != text {
            // What the text would have meant, so the suggestion is only
            // made when the exact spelling is a move that may be played.
            return Err(match self.check(&m) {
                Ok(()) => MoveError::from(format!(
                    "`{}` is not a legal move; did you mean `{exact}`?",
                    shorten(text)
                )),
                Err(e) => MoveError::from(format!(
                    "`{}` is not a legal move (not the exact spelling of `{exact}`, which would also be illegal: {e})",
                    shorten(text)
                )),
            });
        }
        self.play(&m)?;
        Ok(m)
    }

    /// The current state for the protocol's `turn` message (STATE).
    pub fn state_json(&self) -> Value {
        let rows = self.variant.rows() as usize;
        let cols = self.variant.cols() as usize;
        let to_move = self.to_move().name();
        match &self.state {
            State::Qango(s) => {
                let playable = s.geometry().playable;
                let board: Vec<Vec<&str>> = (0..rows)
                    .map(|r| {
                        (0..cols)
                            .map(|c| {
                                let bit = 1u64 << (r * cols + c);
                                if playable & bit == 0 {
                                    "#"
                                } else if s.discs[0] & bit != 0 {
                                    "w"
                                } else if s.discs[1] & bit != 0 {
                                    "b"
                                } else {
                                    "."
                                }
                            })
                            .collect()
                    })
                    .collect();
                let placed = |side: usize| s.discs[side].count_ones();
                json!({
                    "board": board,
                    "to_move": to_move,
                    "discs": {
                        "white": variant::QANGO_MAX_DISCS / 2 - placed(0),
                        "black": variant::QANGO_MAX_DISCS / 2 - placed(1),
                    },
                })
            }
            State::Quinque(s) => {
                let board: Vec<Vec<String>> = (0..rows)
                    .map(|r| (0..cols).map(|c| s.cell_text(r * cols + c)).collect())
                    .collect();
                json!({
                    "board": board,
                    "to_move": to_move,
                    "supply": {"white": s.supply[0], "black": s.supply[1]},
                    "locked": s.locked.map(|c| c.to_string()),
                })
            }
        }
    }

    /// The board as text for a terminal; `ansi` adds colours.
    pub fn render(&self, ansi: bool) -> String {
        render::position(self, ansi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Spellings that name a move but not exactly (RULES.md: "a move must be
    /// spelt exactly that way"), or name none.
    const NOT_CANONICAL: [(&str, &str); 16] = [
        ("quinque", "Place c3"),
        ("quinque", "place C3"),
        ("quinque", "place  c3"),
        ("quinque", " place c3"),
        ("quinque", "place c3 "),
        ("quinque", "place c03"),
        ("quinque", "place f1"),
        ("quinque", "place c6"),
        ("quinque", "capture d4 e5 b2"),
        ("quinque", "capture d4 b2 b2"),
        ("quinque", "capture d4 b2 e5 a1"),
        ("quinque", "pass c3"),
        ("qango6", "C3"),
        ("qango6", "c03"),
        ("qango6", "g1"),
        ("qango6", "a7"),
    ];

    #[test]
    fn canonical_parse_reads_every_legal_move_of_whole_games() {
        for variant in Variant::all() {
            let mut pos = Position::new(variant);
            while !pos.is_over() {
                let legal = pos.legal_moves();
                for m in &legal {
                    assert_eq!(pos.parse_canonical(&m.to_string()), Some(*m));
                }
                pos.play_str(&legal[legal.len() / 2].to_string()).unwrap();
            }
        }
    }

    #[test]
    fn canonical_parse_refuses_other_spellings() {
        for (id, text) in NOT_CANONICAL {
            let pos = Position::new(Variant::by_id(id).unwrap());
            assert_eq!(pos.parse_canonical(text), None, "{id}: {text:?}");
        }
        let qango7 = Position::new(Variant::by_id("qango7").unwrap());
        assert_eq!(
            qango7.parse_canonical("g7"),
            Some(Move::Qango(Cell::new(6, 6)))
        );
        let quinque = Position::new(Variant::by_id("quinque").unwrap());
        assert_eq!(
            quinque.parse_canonical("capture d4 b2 e5"),
            Some(Move::Quinque(QuinqueMove::Capture {
                target: Cell::new(3, 3),
                with: Cell::new(1, 1),
                second: Some(Cell::new(4, 4)),
            }))
        );
    }

    #[test]
    fn play_str_refuses_spellings_that_are_not_exact() {
        let mut pos = Position::new(Variant::by_id("quinque").unwrap());
        let e = pos.play_str("place A1").unwrap_err();
        assert!(e.message.contains("did you mean `place a1`"), "{e}");
        assert_eq!(
            pos.play_str("place a1"),
            Ok(Move::Quinque(QuinqueMove::Place(Cell::new(0, 0))))
        );
        // Exact spelling, illegal move: the rules' reason (RULES.md: the
        // first stone may not go on the centre).
        let mut pos = Position::new(Variant::by_id("quinque").unwrap());
        assert!(pos
            .play_str("place c3")
            .unwrap_err()
            .message
            .contains("centre"));
        assert_eq!(pos.ply(), 0);
    }

    proptest! {
        /// The canonical parse accepts exactly the texts that the forgiving
        /// parse reads as a move spelt as `to_string` spells it.
        #[test]
        fn canonical_parse_is_the_exact_spelling(
            id in prop::sample::select(vec!["quinque", "qango6", "qango7"]),
            text in "(place |double |triple |enclose |capture |Place )?[a-hA-H ][0-9]{1,2}( ?[a-f][0-9]){0,3} ?",
        ) {
            let pos = Position::new(Variant::by_id(id).unwrap());
            let exact = pos
                .parse_move(&text)
                .ok()
                .filter(|m| m.to_string() == text);
            prop_assert_eq!(pos.parse_canonical(&text), exact);
        }
    }
}
