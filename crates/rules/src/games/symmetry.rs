//! Board symmetries of a variant, computed from its geometry.
//!
//! A candidate is one of the eight rotations and reflections of the
//! rectangle (four when it is not square). It is a symmetry of the variant
//! when it maps playable cells onto playable cells, every winning pattern
//! onto a pattern of the same kind (colour groups onto colour groups,
//! squares onto squares, lines onto lines) and the cells allowed for the
//! first move onto themselves. Two openings that one symmetry maps onto the
//! other are the same opening for every purpose of the rules.

use std::collections::HashSet;

use super::cell::Cell;
use super::geometry::{bits, PatternKind};
use super::quinque;
use super::{Family, Position, Variant};

/// A permutation of the board's cells that the rules cannot tell apart
/// from the identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symmetry {
    /// `map[i]` is the index (row-major) that cell `i` goes to.
    map: Vec<usize>,
    cols: u8,
    rows: u8,
}

impl Symmetry {
    pub fn map_cell(&self, cell: Cell) -> Cell {
        Cell::from_index(self.map[cell.index(self.cols)], self.cols)
    }

    fn map_mask(&self, mask: u64) -> u64 {
        bits(mask).fold(0, |m, i| m | 1 << self.map[i])
    }

    /// A move in notation with each of its cells mapped; words that are not
    /// cells (Quinque's action names) stay as they are.
    pub fn map_move(&self, text: &str) -> String {
        text.split_whitespace()
            .map(|word| match Cell::parse(word, self.rows, self.cols) {
                Ok(cell) => self.map_cell(cell).to_string(),
                Err(_) => word.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The row-major index that cell index `i` goes to.
    pub fn map_index(&self, i: usize) -> usize {
        self.map[i]
    }

    pub fn is_identity(&self) -> bool {
        self.map.iter().enumerate().all(|(i, &j)| i == j)
    }
}

/// The winning patterns of `variant` with their kinds.
fn patterns(variant: &Variant) -> Vec<(u64, PatternKind)> {
    match variant.family {
        Family::Qango(board) => board
            .geometry()
            .patterns
            .iter()
            .map(|p| (p.mask, p.kind))
            .collect(),
        Family::Quinque => quinque::lines()
            .iter()
            .map(|&m| (u64::from(m), PatternKind::Line))
            .collect(),
    }
}

/// Every symmetry of `variant`, the identity first.
pub fn symmetries(variant: &Variant) -> Vec<Symmetry> {
    symmetries_where(variant, true)
}

/// Every symmetry of `variant`'s board and patterns, whether or not it keeps
/// the cells allowed for the first move: the symmetries of every position
/// after the first move (the opening rule restricts only that move).
pub fn board_symmetries(variant: &Variant) -> Vec<Symmetry> {
    symmetries_where(variant, false)
}

fn symmetries_where(variant: &Variant, keep_first_move: bool) -> Vec<Symmetry> {
    let (rows, cols) = (variant.rows(), variant.cols());
    let square = rows == cols;
    let (r_max, c_max) = (rows - 1, cols - 1);
    // (row, col) -> (row, col) for each transform of the rectangle: the
    // identity, two mirrors and the half turn, then (square boards only)
    // the two diagonal mirrors and the quarter turns.
    let transform = move |t: u8, r: u8, c: u8| -> (u8, u8) {
        match t {
            0 => (r, c),
            1 => (r, c_max - c),
            2 => (r_max - r, c),
            3 => (r_max - r, c_max - c),
            4 => (c, r),
            5 => (c_max - c, r_max - r),
            6 => (c, r_max - r),
            _ => (c_max - c, r),
        }
    };
    let transforms = if square { 0..8 } else { 0..4 };
    let playable = variant.playable_mask();
    let first = variant.first_move_mask();
    let patterns = patterns(variant);
    let known: HashSet<(u64, PatternKind)> = patterns.iter().copied().collect();
    transforms
        .map(|t| {
            let map = (0..rows as usize * cols as usize)
                .map(|i| {
                    let cell = Cell::from_index(i, cols);
                    let (r, c) = transform(t, cell.row, cell.col);
                    Cell::new(r, c).index(cols)
                })
                .collect();
            Symmetry { map, cols, rows }
        })
        .filter(|s| {
            s.map_mask(playable) == playable
                && (!keep_first_move || s.map_mask(first) == first)
                && patterns
                    .iter()
                    .all(|&(mask, kind)| known.contains(&(s.map_mask(mask), kind)))
        })
        .collect()
}

/// A key equal for two openings exactly when a symmetry maps one onto the
/// other as positions: Qango positions are the two players' disc sets (the
/// order of placement does not matter), Quinque positions depend on the
/// sequence, so there the mapped move sequence is compared. `None` when a
/// mapped opening is illegal (it cannot be, for a symmetry of the rules).
pub fn canonical_key(
    variant: &'static Variant,
    symmetries: &[Symmetry],
    moves: &[String],
) -> Option<String> {
    symmetries
        .iter()
        .map(|s| {
            let mut pos = Position::new(variant);
            let mut mapped: Vec<String> = Vec::with_capacity(moves.len());
            for m in moves {
                mapped.push(pos.play_str(&s.map_move(m)).ok()?.to_string());
            }
            Some(position_key(variant, mapped))
        })
        .collect::<Option<Vec<String>>>()?
        .into_iter()
        .min()
}

fn position_key(variant: &Variant, mut moves: Vec<String>) -> String {
    if let Family::Qango(_) = variant.family {
        let mut white: Vec<String> = moves.iter().step_by(2).cloned().collect();
        let mut black: Vec<String> = moves.iter().skip(1).step_by(2).cloned().collect();
        white.sort();
        black.sort();
        moves = white;
        moves.push("|".into());
        moves.extend(black);
    }
    moves.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(id: &str) -> usize {
        symmetries(Variant::by_id(id).unwrap()).len()
    }

    #[test]
    fn symmetry_counts_follow_the_boards() {
        // Counted by hand from the board pictures in RULES.md / docs/RULES.md.
        // Quinque: a plain 5x5 board with a closed centre: all eight.
        assert_eq!(count("quinque"), 8);
        // Qango 6: row 1 reads like column a (r r y o r r), row 2 like
        // column b, and so on, and left-right mirroring swaps yellow and
        // orange groups: all eight.
        assert_eq!(count("qango6"), 8);
        // The first move restriction to four cells b5 c6 e2 f3 keeps only
        // the symmetries that permute those four cells.
        let plus = count("qango7plus");
        let plus_tournament = count("qango7plus-tournament");
        assert!(plus_tournament <= plus, "{plus_tournament} > {plus}");
        for id in Variant::ids() {
            let syms = symmetries(Variant::by_id(id).unwrap());
            assert!(syms[0].is_identity(), "{id}");
            assert!(
                [1, 2, 4, 8].contains(&syms.len()),
                "{id}: {} symmetries do not form a subgroup of the square's",
                syms.len()
            );
        }
    }

    #[test]
    fn mirrored_openings_share_a_key() {
        let v = Variant::by_id("quinque").unwrap();
        let syms = symmetries(v);
        let a: Vec<String> = vec!["place a1".into(), "place e5".into()];
        let b: Vec<String> = vec!["place e1".into(), "place a5".into()];
        let c: Vec<String> = vec!["place a1".into(), "place e4".into()];
        let key = |m: &[String]| canonical_key(v, &syms, m).unwrap();
        assert_eq!(key(&a), key(&b));
        assert_ne!(key(&a), key(&c));
    }

    #[test]
    fn qango_keys_ignore_the_order_of_placement() {
        let v = Variant::by_id("qango6").unwrap();
        let syms = symmetries(v);
        let key = |m: &[&str]| {
            let m: Vec<String> = m.iter().map(|s| s.to_string()).collect();
            canonical_key(v, &syms, &m).unwrap()
        };
        assert_eq!(
            key(&["a1", "b2", "c3", "d4"]),
            key(&["c3", "b2", "a1", "d4"])
        );
        // The mirror image in the long diagonal a1-f6 is the same position.
        assert_eq!(key(&["a2", "b2"]), key(&["b1", "b2"]));
        assert_ne!(
            key(&["a1", "b2", "c3", "d4"]),
            key(&["a1", "b2", "d4", "c3"])
        );
    }
}
