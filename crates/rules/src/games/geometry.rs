//! A Qango board's type ([`QangoBoard`]: its letter layout and groups; the
//! tables themselves are in [`super::boards`]) and the masks and win
//! patterns derived from it.
//!
//! Patterns are computed here once: the groups from the table, every 2x2
//! square of playable cells, every five-in-a-row of playable cells. The
//! per-cell lists let a move be checked against only the patterns it touches.

use super::cell::Cell;
use super::RuleReason;
use std::sync::OnceLock;

/// How a pattern wins; also the `reason` reported for the win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PatternKind {
    Group,
    Square,
    Line,
}

impl PatternKind {
    pub fn reason(self) -> RuleReason {
        match self {
            PatternKind::Group => RuleReason::Group,
            PatternKind::Square => RuleReason::Square,
            PatternKind::Line => RuleReason::Line,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Pattern {
    pub mask: u64,
    pub kind: PatternKind,
}

/// A Qango board: a letter layout (for drawing) and the winning colour groups.
pub struct QangoBoard {
    pub name: &'static str,
    /// One string per row, one letter per cell, separated by spaces. `*` is a
    /// cell that belongs to no group.
    pub layout: &'static [&'static str],
    /// The groups, each three (row, col) cells.
    pub groups: &'static [[(u8, u8); 3]],
    /// Cells carrying this letter are not part of the board (Qango 7 Plus
    /// removes the grey corners).
    pub removed_letter: Option<char>,
    pub(crate) geometry: OnceLock<Geometry>,
}

impl std::fmt::Debug for QangoBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl QangoBoard {
    pub fn rows(&self) -> u8 {
        self.layout.len() as u8
    }

    pub fn cols(&self) -> u8 {
        self.letters(0).count() as u8
    }

    /// The layout letters of one row.
    pub fn letters(&self, row: usize) -> impl Iterator<Item = char> + '_ {
        self.layout[row]
            .split_whitespace()
            .map(|s| s.chars().next().unwrap_or('?'))
    }

    pub fn letter(&self, row: u8, col: u8) -> char {
        self.letters(row as usize).nth(col as usize).unwrap_or('?')
    }

    /// The derived masks and patterns, computed once.
    pub fn geometry(&self) -> &Geometry {
        self.geometry.get_or_init(|| Geometry::derive(self))
    }
}

/// Derived data of one Qango board.
#[derive(Debug)]
pub struct Geometry {
    pub rows: u8,
    pub cols: u8,
    /// Bit `row * cols + col` is set for every cell a disc may go on.
    pub playable: u64,
    /// Playable cells with an orthogonal neighbour that is off the board or
    /// not playable: the edge of the playing area.
    pub edge: u64,
    /// All win patterns: groups first, then squares, then lines.
    pub patterns: Vec<Pattern>,
    /// `cell_patterns[cell_start[i]..cell_start[i + 1]]` are the masks of the
    /// patterns containing cell `i`, so a move checks only those.
    pub cell_masks: Vec<u64>,
    pub cell_start: Vec<u16>,
    /// The pattern index for each entry of `cell_masks`.
    pub cell_pattern: Vec<u16>,
}

impl Geometry {
    pub fn derive(board: &QangoBoard) -> Geometry {
        let rows = board.rows();
        let cols = board.cols();
        let bit = |r: i32, c: i32| -> Option<u64> {
            if r < 0 || c < 0 || r >= rows as i32 || c >= cols as i32 {
                None
            } else {
                Some(1u64 << (r as usize * cols as usize + c as usize))
            }
        };
        let mut playable = 0u64;
        for r in 0..rows {
            for c in 0..cols {
                if Some(board.letter(r, c)) != board.removed_letter {
                    playable |= 1 << Cell::new(r, c).index(cols);
                }
            }
        }
        let is_playable = |r: i32, c: i32| bit(r, c).is_some_and(|b| playable & b != 0);

        let mut edge = 0u64;
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                if !is_playable(r, c) {
                    continue;
                }
                let open = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                    .iter()
                    .any(|(dr, dc)| !is_playable(r + dr, c + dc));
                if open {
                    edge |= bit(r, c).unwrap_or(0);
                }
            }
        }

        let mut patterns = Vec::new();
        for group in board.groups {
            let mask = group
                .iter()
                .fold(0u64, |m, &(r, c)| m | (1 << Cell::new(r, c).index(cols)));
            if mask & playable == mask {
                patterns.push(Pattern {
                    mask,
                    kind: PatternKind::Group,
                });
            }
        }
        // Every run of `len` playable cells from (r, c) in direction (dr, dc).
        let run = |r: i32, c: i32, dr: i32, dc: i32, len: i32| -> Option<u64> {
            (0..len).try_fold(0u64, |m, k| {
                let (rr, cc) = (r + dr * k, c + dc * k);
                is_playable(rr, cc).then(|| m | bit(rr, cc).unwrap_or(0))
            })
        };
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                let square = run(r, c, 0, 1, 2).zip(run(r + 1, c, 0, 1, 2));
                if let Some((top, bottom)) = square {
                    patterns.push(Pattern {
                        mask: top | bottom,
                        kind: PatternKind::Square,
                    });
                }
            }
        }
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            for r in 0..rows as i32 {
                for c in 0..cols as i32 {
                    if let Some(mask) = run(r, c, dr, dc, 5) {
                        patterns.push(Pattern {
                            mask,
                            kind: PatternKind::Line,
                        });
                    }
                }
            }
        }

        let (cell_masks, cell_start, cell_pattern) =
            patterns_per_cell(&patterns, rows as usize * cols as usize);
        Geometry {
            rows,
            cols,
            playable,
            edge,
            patterns,
            cell_masks,
            cell_start,
            cell_pattern,
        }
    }

    /// The masks of the patterns through cell `index`.
    #[inline]
    pub fn masks_at(&self, index: usize) -> &[u64] {
        &self.cell_masks[self.cell_start[index] as usize..self.cell_start[index + 1] as usize]
    }

    /// The first pattern through `index` that `discs` completes, if any.
    #[inline]
    pub fn completed_at(&self, discs: u64, index: usize) -> Option<usize> {
        let start = self.cell_start[index] as usize;
        self.masks_at(index)
            .iter()
            .position(|&m| discs & m == m)
            .map(|k| self.cell_pattern[start + k] as usize)
    }

    pub fn cell(&self, index: usize) -> Cell {
        Cell::from_index(index, self.cols)
    }

    pub fn cells_of(&self, mask: u64) -> Vec<Cell> {
        bits(mask).map(|i| self.cell(i)).collect()
    }
}

/// Indices of the set bits of `mask`, lowest first.
pub fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// The patterns through each of `cells` cells, as the flat lists of
/// [`Geometry`]: the masks, where each cell's run starts, and which
/// pattern each mask is.
fn patterns_per_cell(patterns: &[Pattern], cells: usize) -> (Vec<u64>, Vec<u16>, Vec<u16>) {
    let mut cell_masks = Vec::new();
    let mut cell_pattern = Vec::new();
    let mut cell_start = Vec::with_capacity(cells + 1);
    for i in 0..cells {
        cell_start.push(cell_masks.len() as u16);
        for (p, pattern) in patterns.iter().enumerate() {
            if pattern.mask & (1 << i) != 0 {
                cell_masks.push(pattern.mask);
                cell_pattern.push(p as u16);
            }
        }
    }
    cell_start.push(cell_masks.len() as u16);
    (cell_masks, cell_start, cell_pattern)
}
