//! What the solver's examples read from their arguments: a position (a
//! variant and its moves) and a side.

use arena_rules::games::{Position, Variant};

/// The position of `variant` after `moves` (separated by spaces).
pub fn position(variant: &str, moves: &str) -> Position {
    let v = Variant::by_id(variant).unwrap_or_else(|| panic!("no variant {variant}"));
    let mut pos = Position::new(v);
    for m in moves.split_whitespace() {
        pos.play_str(m)
            .unwrap_or_else(|e| panic!("{m} after {:?}: {e}", pos.history()));
    }
    pos
}

/// The colour index of `white` or `black`.
#[allow(dead_code)] // not every example reads a side
pub fn side(word: &str) -> usize {
    match word {
        "white" => 0,
        "black" => 1,
        other => panic!("white or black, not {other}"),
    }
}
