//! Action indices: every move a variant can spell, numbered, for learning
//! code that wants a fixed-size discrete action space.
//!
//! - **Qango**: action `row * cols + col` is the disc on that cell, over
//!   the whole rows x cols grid (`action_size` 36 for Qango 6, 49 for
//!   Qango 7 and 7 Plus, whose removed corner cells are never legal).
//! - **Quinque** (7,600 actions), cells numbered `row * 5 + col` (`a1` = 0,
//!   `e1` = 4, `a2` = 5, ..., `e5` = 24):
//!   - `0..25` `place` cell, `25..50` `double` cell, `50..75` `triple`
//!     cell (`triple c3` is never legal), `75..100` `enclose` cell;
//!   - `100..700` `capture T W` (one own double `W` dissolved):
//!     `100 + T * 24 + w`, where `w` numbers the 24 cells other than `T`
//!     in board order;
//!   - `700..7600` `capture T W S` (two own doubles, `W` before `S` in
//!     board order): `700 + T * 276 + k`, where `k` numbers the 276 pairs
//!     of cells other than `T` in the order (0,1), (0,2), ..., (22,23) of
//!     those cells' numbers.
//!
//! The tables are built once per variant from this enumeration, and the
//! moves themselves are the rules crate's.

use std::collections::HashMap;
use std::sync::OnceLock;

use arena_rules::games::quinque::{QuinqueMove, CELLS};
use arena_rules::games::{Cell, Family, Move, Variant};

/// The moves of one variant by action index, and the reverse.
pub struct Actions {
    moves: Vec<Move>,
    index: HashMap<Move, usize>,
}

impl Actions {
    /// The table of `variant`, built on first use.
    pub fn of(variant: &'static Variant) -> &'static Actions {
        static TABLES: OnceLock<Vec<Actions>> = OnceLock::new();
        let tables = TABLES.get_or_init(|| Variant::all().iter().map(Actions::build).collect());
        let at = Variant::all()
            .iter()
            .position(|v| std::ptr::eq(v, variant))
            .expect("a variant of the table");
        &tables[at]
    }

    fn build(variant: &Variant) -> Actions {
        let moves: Vec<Move> = match variant.family {
            Family::Qango(_) => {
                let cells = variant.rows() as usize * variant.cols() as usize;
                (0..cells)
                    .map(|i| Move::Qango(Cell::from_index(i, variant.cols())))
                    .collect()
            }
            Family::Quinque => quinque_moves().into_iter().map(Move::Quinque).collect(),
        };
        let index: HashMap<Move, usize> = moves.iter().enumerate().map(|(i, m)| (*m, i)).collect();
        Actions { moves, index }
    }

    pub fn size(&self) -> usize {
        self.moves.len()
    }

    pub fn move_at(&self, action: usize) -> Option<Move> {
        self.moves.get(action).copied()
    }

    pub fn index_of(&self, m: &Move) -> Option<usize> {
        self.index.get(m).copied()
    }
}

/// Every Quinque move in action order (module docs).
fn quinque_moves() -> Vec<QuinqueMove> {
    let cell = |i: usize| Cell::from_index(i, 5);
    let mut moves = Vec::with_capacity(7600);
    for kind in [
        QuinqueMove::Place,
        QuinqueMove::Double,
        QuinqueMove::Triple,
        QuinqueMove::Enclose,
    ] {
        moves.extend((0..CELLS).map(|i| kind(cell(i))));
    }
    let others = |t: usize| (0..CELLS).filter(move |&i| i != t);
    for t in 0..CELLS {
        moves.extend(others(t).map(|w| QuinqueMove::Capture {
            target: cell(t),
            with: cell(w),
            second: None,
        }));
    }
    for t in 0..CELLS {
        for w in others(t) {
            moves.extend(others(t).filter(|&s| s > w).map(|s| QuinqueMove::Capture {
                target: cell(t),
                with: cell(w),
                second: Some(cell(s)),
            }));
        }
    }
    moves
}
