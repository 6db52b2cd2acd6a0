//! What the search needs of a game: a compact state, an exact key merged
//! over the board's symmetries, the moves, and a first look at a position
//! (over, won at once, lost at once, or open with so many moves).
//!
//! One implementation per rules family ([`crate::qango`], [`crate::quinque`]);
//! the proof-number search ([`crate::dfpn`]) is written once over this trait.

use arena_rules::games::{Color, Move};

/// A first look at a position, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glance {
    /// The game is over or will be at once: the mover has won (a winning
    /// move on the board) or has lost (the opponent has won, or has two
    /// threats the mover cannot both stop).
    Won,
    Lost,
    /// Over without a winner (board full, discs spent), or neither side
    /// can complete a pattern any more.
    Drawn,
    /// Play goes on.
    Open {
        /// How many moves the search will try (fewer than the legal moves
        /// when the mover must stop a threat).
        moves: u32,
        /// Whether the mover / the opponent can still win at all: a side
        /// with no pattern it can complete (enough free cells and discs)
        /// cannot, so a search for its win fails at once.
        mover_can_win: bool,
        opponent_can_win: bool,
    },
}

/// One rules family as the search sees it.
pub trait Rules {
    type State: Clone;
    type Move: Copy;

    fn mover(&self, s: &Self::State) -> Color;
    /// Equal for two states exactly when one symmetry of the rules maps
    /// one onto the other (with the same side to move).
    fn key(&self, s: &Self::State) -> u128;
    fn glance(&self, s: &Self::State) -> Glance;
    /// The moves to search from an open state, best guesses first; only
    /// the forced block when the mover faces one threat.
    fn moves(&self, s: &Self::State, out: &mut Vec<Self::Move>);
    fn play(&self, s: &Self::State, m: Self::Move) -> Self::State;
    /// The move in the rules crate's terms.
    fn to_move(&self, s: &Self::State, m: Self::Move) -> Move;
}
