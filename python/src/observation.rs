//! A position as planes of numbers (`Game.observation`), float32 of shape
//! `(planes, rows, cols)`, seen from one player ("me", by default the side
//! to move) so that one network can play both colours:
//!
//! - **Qango** (`3 + groups` planes): 0 my discs, 1 the opponent's discs,
//!   2 the playable cells, then one plane per colour group of the board
//!   (its three cells), in the order of `variant_info(v)["groups"]`:
//!   (15, 6, 6) for Qango 6 (12 groups), (19, 7, 7) for Qango 7 (16),
//!   (15, 7, 7) for Qango 7 Plus (its 12 groups; the grey corners are gone).
//! - **Quinque** (9 planes, 5 x 5): 0-2 my singles, doubles and triples,
//!   3-5 the opponent's, 6 the stack just taken by a capture or enclosure
//!   (which may not be captured back this turn), 7 my supply / 20 and 8 the
//!   opponent's supply / 20 (constant planes).

use arena_rules::games::geometry::PatternKind;
use arena_rules::games::quinque::SUPPLY;
use arena_rules::games::{Color, Family, Position};

/// Planes in row-major order, with their shape.
pub struct Planes {
    pub shape: [usize; 3],
    pub data: Vec<f32>,
}

impl Planes {
    fn new(planes: usize, rows: usize, cols: usize) -> Planes {
        Planes {
            shape: [planes, rows, cols],
            data: vec![0.0; planes * rows * cols],
        }
    }

    fn set(&mut self, plane: usize, cell: usize, value: f32) {
        let area = self.shape[1] * self.shape[2];
        self.data[plane * area + cell] = value;
    }

    /// Sets every cell of `mask` (bit `row * cols + col`) on `plane` to 1.
    fn set_mask(&mut self, plane: usize, mask: u64) {
        let area = self.shape[1] * self.shape[2];
        for cell in (0..area).filter(|&i| mask >> i & 1 == 1) {
            self.set(plane, cell, 1.0);
        }
    }
}

/// The planes of `pos` seen by `me` (module docs).
pub fn planes(pos: &Position, me: Color) -> Planes {
    let variant = pos.variant();
    let (rows, cols) = (variant.rows() as usize, variant.cols() as usize);
    match (&variant.family, pos.qango(), pos.quinque()) {
        (Family::Qango(_), Some(s), _) => {
            let g = s.geometry();
            let groups = g.patterns.iter().filter(|p| p.kind == PatternKind::Group);
            let mut p = Planes::new(3 + groups.clone().count(), rows, cols);
            p.set_mask(0, s.discs[me.index()]);
            p.set_mask(1, s.discs[me.opponent().index()]);
            p.set_mask(2, g.playable);
            for (k, group) in groups.enumerate() {
                p.set_mask(3 + k, group.mask);
            }
            p
        }
        (_, _, Some(s)) => {
            let mut p = Planes::new(9, rows, cols);
            for (cell, &h) in s.stacks.iter().enumerate() {
                let owner = if h > 0 { Color::White } else { Color::Black };
                if h != 0 {
                    let side = if owner == me { 0 } else { 3 };
                    let height = (h.unsigned_abs() as usize).clamp(1, 3);
                    p.set(side + height - 1, cell, 1.0);
                }
            }
            if let Some(locked) = s.locked {
                p.set(6, locked.index(cols as u8), 1.0);
            }
            for cell in 0..rows * cols {
                p.set(7, cell, f32::from(s.supply[me.index()]) / f32::from(SUPPLY));
                p.set(
                    8,
                    cell,
                    f32::from(s.supply[me.opponent().index()]) / f32::from(SUPPLY),
                );
            }
            p
        }
        _ => unreachable!("a position is of its variant's family"),
    }
}
