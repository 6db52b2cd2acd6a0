//! The variant table: every game arena knows, as data.
//!
//! A variant is a rules family with its board, an opening restriction on the
//! first move, and a draw rule. Adding a variant is adding a row here.

use serde_json::{json, Value};

use super::boards::{QangoBoard, QANGO6, QANGO7, QANGO7_PLUS};
use super::cell::Cell;
use super::geometry::bits;
use super::quinque;

/// Which rules engine plays the variant.
pub enum Family {
    Qango(&'static QangoBoard),
    Quinque,
}

/// Where the first disc (white's first move) may go.
#[derive(Debug, Clone, Copy)]
pub enum Opening {
    Anywhere,
    /// Anywhere except these cells.
    Not(&'static [(u8, u8)]),
    /// Only these cells.
    Only(&'static [(u8, u8)]),
    /// On the edge of the playing area.
    Edge,
    /// On the edge or on the centre cell.
    EdgeOrCentre,
    /// On the edge, but not on the middle cell of a side.
    EdgeNotMiddle,
}

pub struct Variant {
    pub id: &'static str,
    pub family: Family,
    pub opening: Opening,
    /// How the opening rule reads in a sentence: "the first disc must be ...".
    pub opening_text: &'static str,
    pub draw_text: &'static str,
}

/// Qango: each player has 20 discs.
pub const QANGO_MAX_DISCS: u32 = 40;

const QANGO6_CASTLE: &[(u8, u8)] = &[
    (1, 1),
    (1, 4),
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (4, 1),
    (4, 4),
];
const QANGO7_CASTLE: &[(u8, u8)] = &[
    (1, 1),
    (1, 5),
    (5, 1),
    (5, 5),
    (2, 2),
    (2, 3),
    (2, 4),
    (3, 2),
    (3, 4),
    (4, 2),
    (4, 3),
    (4, 4),
];
const QANGO7PLUS_TOURNAMENT: &[(u8, u8)] = &[(1, 4), (2, 5), (4, 1), (5, 2)];

static VARIANTS: &[Variant] = &[
    Variant {
        id: "qango6",
        family: Family::Qango(&QANGO6),
        opening: Opening::Anywhere,
        opening_text: "anywhere",
        draw_text: "board full (36 discs)",
    },
    Variant {
        id: "qango6-castle",
        family: Family::Qango(&QANGO6),
        opening: Opening::Not(QANGO6_CASTLE),
        opening_text: "outside the 8 castle cells",
        draw_text: "board full (36 discs)",
    },
    Variant {
        id: "qango6-tournament",
        family: Family::Qango(&QANGO6),
        opening: Opening::Edge,
        opening_text: "on the edge",
        draw_text: "board full (36 discs)",
    },
    Variant {
        id: "qango7",
        family: Family::Qango(&QANGO7),
        opening: Opening::Anywhere,
        opening_text: "anywhere",
        draw_text: "all 40 discs placed",
    },
    Variant {
        id: "qango7-castle",
        family: Family::Qango(&QANGO7),
        opening: Opening::Not(QANGO7_CASTLE),
        opening_text: "outside the 12 castle cells",
        draw_text: "all 40 discs placed",
    },
    Variant {
        id: "qango7-pro1",
        family: Family::Qango(&QANGO7),
        opening: Opening::EdgeOrCentre,
        opening_text: "on the edge or the centre d4",
        draw_text: "all 40 discs placed",
    },
    Variant {
        id: "qango7-pro2",
        family: Family::Qango(&QANGO7),
        opening: Opening::EdgeNotMiddle,
        opening_text: "on the edge but not the middle of a side",
        draw_text: "all 40 discs placed",
    },
    Variant {
        id: "qango7plus",
        family: Family::Qango(&QANGO7_PLUS),
        opening: Opening::Anywhere,
        opening_text: "anywhere",
        draw_text: "board full (37 discs)",
    },
    Variant {
        id: "qango7plus-edge",
        family: Family::Qango(&QANGO7_PLUS),
        opening: Opening::Edge,
        opening_text: "on the edge of the playing area",
        draw_text: "board full (37 discs)",
    },
    Variant {
        id: "qango7plus-tournament",
        family: Family::Qango(&QANGO7_PLUS),
        opening: Opening::Only(QANGO7PLUS_TOURNAMENT),
        opening_text: "only on b5, c6, e2 or f3",
        draw_text: "board full (37 discs)",
    },
    Variant {
        id: "quinque",
        family: Family::Quinque,
        opening: Opening::Not(&[(2, 2)]),
        opening_text: "anywhere but the centre c3",
        draw_text: "none: a player without a legal action loses",
    },
];

impl Variant {
    pub fn all() -> &'static [Variant] {
        VARIANTS
    }

    pub fn by_id(id: &str) -> Option<&'static Variant> {
        VARIANTS.iter().find(|v| v.id == id)
    }

    /// The ids, for error messages and help.
    pub fn ids() -> Vec<&'static str> {
        VARIANTS.iter().map(|v| v.id).collect()
    }

    // Both read the board's cached geometry: counting the layout's letters
    // each time was a visible cost of every move (the state and the move
    // parser ask for them).
    pub fn rows(&self) -> u8 {
        match self.family {
            Family::Qango(board) => board.geometry().rows,
            Family::Quinque => quinque::SIZE as u8,
        }
    }

    pub fn cols(&self) -> u8 {
        match self.family {
            Family::Qango(board) => board.geometry().cols,
            Family::Quinque => quinque::SIZE as u8,
        }
    }

    pub fn board_name(&self) -> &'static str {
        match self.family {
            Family::Qango(board) => board.name,
            Family::Quinque => "Quinque 5x5",
        }
    }

    /// Playable cells as a row-major bitmask.
    pub fn playable_mask(&self) -> u64 {
        match self.family {
            Family::Qango(board) => board.geometry().playable,
            Family::Quinque => (1u64 << quinque::CELLS) - 1,
        }
    }

    /// The cells allowed for the first move, as a row-major bitmask.
    pub fn first_move_mask(&self) -> u64 {
        let cols = self.cols();
        let rows = self.rows();
        let playable = self.playable_mask();
        let edge = match self.family {
            Family::Qango(board) => board.geometry().edge,
            Family::Quinque => 0,
        };
        let mask_of = |cells: &[(u8, u8)]| {
            cells
                .iter()
                .fold(0u64, |m, &(r, c)| m | 1 << Cell::new(r, c).index(cols))
        };
        let centre = 1u64 << Cell::new(rows / 2, cols / 2).index(cols);
        let middles = mask_of(&[
            (0, cols / 2),
            (rows / 2, 0),
            (rows / 2, cols - 1),
            (rows - 1, cols / 2),
        ]);
        let allowed = match self.opening {
            Opening::Anywhere => playable,
            Opening::Not(cells) => playable & !mask_of(cells),
            Opening::Only(cells) => mask_of(cells),
            Opening::Edge => edge,
            Opening::EdgeOrCentre => edge | centre,
            Opening::EdgeNotMiddle => edge & !middles,
        };
        allowed & playable
    }

    fn cell_names(&self, mask: u64) -> Vec<String> {
        bits(mask)
            .map(|i| Cell::from_index(i, self.cols()).to_string())
            .collect()
    }

    /// Every set of cells that wins, as cell-name lists.
    pub fn win_patterns(&self) -> Vec<Vec<String>> {
        match self.family {
            Family::Qango(board) => board
                .geometry()
                .patterns
                .iter()
                .map(|p| self.cell_names(p.mask))
                .collect(),
            Family::Quinque => quinque::lines()
                .iter()
                .map(|&m| self.cell_names(m as u64))
                .collect(),
        }
    }

    /// The colour groups (Qango only; empty for Quinque).
    pub fn groups(&self) -> Vec<Vec<String>> {
        match self.family {
            Family::Qango(board) => board
                .geometry()
                .patterns
                .iter()
                .filter(|p| p.kind == super::geometry::PatternKind::Group)
                .map(|p| self.cell_names(p.mask))
                .collect(),
            Family::Quinque => Vec::new(),
        }
    }

    pub fn family_name(&self) -> &'static str {
        match self.family {
            Family::Qango(_) => "qango",
            Family::Quinque => "quinque",
        }
    }

    /// The variant description sent to bots in `new_game` (VARIANT_INFO).
    pub fn info_json(&self) -> Value {
        let max_discs = match self.family {
            Family::Qango(_) => QANGO_MAX_DISCS,
            Family::Quinque => 2 * quinque::SUPPLY as u32,
        };
        json!({
            "id": self.id,
            "family": self.family_name(),
            "rows": self.rows(),
            "cols": self.cols(),
            "cells": self.cell_names(self.playable_mask()),
            "groups": self.groups(),
            "win_patterns": self.win_patterns(),
            "first_move": self.cell_names(self.first_move_mask()),
            "max_discs": max_discs,
        })
    }
}
