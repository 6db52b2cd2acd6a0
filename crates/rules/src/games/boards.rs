//! The Qango boards as data: colour layout and groups, exactly as in RULES.md.
//!
//! Everything else (playable cells, squares, lines, edges) is derived from
//! these tables in [`super::geometry`]; nothing here is typed twice.

use std::sync::OnceLock;

pub use super::geometry::QangoBoard;

/// Qango 6: 6x6, 12 groups (RULES.md, confirmed by KlausTh/qango).
pub static QANGO6: QangoBoard = QangoBoard {
    name: "Qango 6",
    layout: &[
        "R R Y O R R",
        "R Y B G O R",
        "Y B B G G O",
        "O G G B B Y",
        "R O G B Y R",
        "R R O Y R R",
    ],
    groups: &[
        // red corners
        [(0, 0), (0, 1), (1, 0)],
        [(0, 4), (0, 5), (1, 5)],
        [(4, 0), (5, 0), (5, 1)],
        [(4, 5), (5, 4), (5, 5)],
        // yellow
        [(0, 2), (1, 1), (2, 0)],
        [(3, 5), (4, 4), (5, 3)],
        // orange
        [(0, 3), (1, 4), (2, 5)],
        [(3, 0), (4, 1), (5, 2)],
        // blue
        [(1, 2), (2, 1), (2, 2)],
        [(3, 3), (3, 4), (4, 3)],
        // green
        [(1, 3), (2, 3), (2, 4)],
        [(3, 1), (3, 2), (4, 2)],
    ],
    removed_letter: None,
    geometry: OnceLock::new(),
};

const QANGO7_LAYOUT: &[&str] = &[
    "X X P G Y X X",
    "X P G G B Y X",
    "P B O O B B Y",
    "B B O * P G G",
    "Y G G P P G O",
    "X Y G B B O X",
    "X X Y B O X X",
];

/// Qango 7 groups; the four grey corner groups come first so Qango 7 Plus can drop them.
const QANGO7_GROUPS: &[[(u8, u8); 3]] = &[
    // grey corners
    [(0, 0), (0, 1), (1, 0)],
    [(0, 5), (0, 6), (1, 6)],
    [(5, 0), (6, 0), (6, 1)],
    [(5, 6), (6, 5), (6, 6)],
    // pink
    [(0, 2), (1, 1), (2, 0)],
    [(3, 4), (4, 3), (4, 4)],
    // yellow
    [(0, 4), (1, 5), (2, 6)],
    [(4, 0), (5, 1), (6, 2)],
    // orange
    [(2, 2), (2, 3), (3, 2)],
    [(4, 6), (5, 5), (6, 4)],
    // green
    [(0, 3), (1, 2), (1, 3)],
    [(3, 5), (3, 6), (4, 5)],
    [(4, 1), (4, 2), (5, 2)],
    // blue
    [(1, 4), (2, 4), (2, 5)],
    [(2, 1), (3, 0), (3, 1)],
    [(5, 3), (5, 4), (6, 3)],
];

/// Qango 7: 7x7, 16 groups and the free centre `d4` (RULES.md, source GABOR).
pub static QANGO7: QangoBoard = QangoBoard {
    name: "Qango 7",
    layout: QANGO7_LAYOUT,
    groups: QANGO7_GROUPS,
    removed_letter: None,
    geometry: OnceLock::new(),
};

/// Qango 7 Plus: the Qango 7 board without its grey corner cells.
pub static QANGO7_PLUS: QangoBoard = QangoBoard {
    name: "Qango 7 Plus",
    layout: QANGO7_LAYOUT,
    groups: QANGO7_GROUPS,
    removed_letter: Some('X'),
    geometry: OnceLock::new(),
};
