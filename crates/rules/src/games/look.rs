//! How a variant's board looks, defined once for every drawing of it: the
//! report's viewer, the live page of `arena serve` / `--serve`, the play
//! page, and the terminal (`arena games`, `arena show`).
//!
//! - [`KINDS`]: the kinds of cell (the colour groups, the centre of no
//!   group, a plain cell), each with its layout letter, its plain letter
//!   for text, its name, its colour on a page (CSS) and in a terminal
//!   (ANSI 256).
//! - [`BoardLook`]: one variant's board as data (size, each cell's layout
//!   letter, the cells allowed for the first move, the legend of the kinds
//!   it has), which the pages' one drawing script (arena-report's
//!   `board.js`) draws, with coordinates `a`.. and `1`.. as the notation
//!   names cells.
//! - [`kind_css`]: the pages' colour of each kind, from [`KINDS`].

use serde::Serialize;

use super::cell::Cell;
use super::variant::{Family, Variant};

/// One kind of cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellKind {
    /// The letter of the board layouts (`boards.rs`): `R` red, ... `*` the
    /// centre of no group, `.` a cell of no colour (Quinque's).
    pub letter: char,
    /// The letter in text without colour: lower case, blue as `u` (`b` is
    /// black), so no colour letter is a disc's `W` or `B`.
    pub plain: char,
    /// Its name in a legend.
    pub name: &'static str,
    /// Its name in the terminal's one-line legend (`None`: not listed).
    pub short: Option<&'static str>,
    /// The CSS `background` of the pages' cells.
    pub css: &'static str,
    /// The ANSI 256-colour background of the terminal's cells (`None`:
    /// the terminal's own).
    pub ansi: Option<u8>,
}

/// Every kind of cell, in the order of the legends (docs/RULES.md).
pub const KINDS: [CellKind; 9] = [
    kind('R', 'r', "red group", Some("red"), "#d33", Some(160)),
    kind('Y', 'y', "yellow group", Some("yellow"), "#fc3", Some(220)),
    kind('O', 'o', "orange group", Some("orange"), "#f83", Some(208)),
    kind('B', 'u', "blue group", Some("blue"), "#39f", Some(33)),
    kind('G', 'g', "green group", Some("green"), "#3a3", Some(34)),
    kind('P', 'p', "pink group", Some("pink"), "#f8d", Some(213)),
    kind('X', 'x', "grey group", Some("grey"), "#999", Some(244)),
    // Hatched, so that it is not taken for a yellow group.
    kind(
        '*',
        '*',
        "* centre, no group (counts for squares and lines only)",
        Some("centre (no group)"),
        "repeating-linear-gradient(45deg, #eee 0 4px, #cfcfcf 4px 8px)",
        Some(228),
    ),
    kind('.', '.', "empty cell", None, "#eed9b0", None),
];

const fn kind(
    letter: char,
    plain: char,
    name: &'static str,
    short: Option<&'static str>,
    css: &'static str,
    ansi: Option<u8>,
) -> CellKind {
    CellKind {
        letter,
        plain,
        name,
        short,
        css,
        ansi,
    }
}

/// The kind of a layout letter.
pub fn kind_of(letter: char) -> Option<&'static CellKind> {
    KINDS.iter().find(|k| k.letter == letter)
}

/// The class the pages give a cell of layout letter `letter`: `c-R`, ...,
/// `c-star`, `c-dot`.
pub fn css_class(letter: char) -> String {
    match letter {
        '*' => "c-star".into(),
        '.' => "c-dot".into(),
        other => format!("c-{other}"),
    }
}

/// The pages' colour of every kind: one CSS rule per class of [`css_class`].
pub fn kind_css() -> String {
    KINDS
        .iter()
        .map(|k| format!(".{} {{ background: {}; }}\n", css_class(k.letter), k.css))
        .collect()
}

/// The layout letter of `cell` (`None` off the board): its group's colour,
/// `*` for a centre of no group, `.` for a cell of no colour.
pub fn letter_of(variant: &Variant, cell: Cell) -> Option<char> {
    match variant.family {
        Family::Qango(board) => {
            let playable = board.geometry().playable & (1 << cell.index(board.cols())) != 0;
            playable.then(|| board.letter(cell.row, cell.col))
        }
        Family::Quinque => Some('.'),
    }
}

/// One variant's board as the pages draw it (serialized into their data).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardLook {
    /// `qango` or `quinque` (a Quinque cell holds a stack, drawn with its
    /// height).
    pub family: &'static str,
    pub rows: u8,
    pub cols: u8,
    /// Each cell's layout letter, row by row from `a1` (index `row * cols +
    /// col`); `' '` off the board.
    pub letters: String,
    /// The cells allowed for the first move, as `letters`: `+` allowed.
    pub first: String,
    /// The kinds this board has, in [`KINDS`] order: (letter, name).
    pub legend: Vec<(char, &'static str)>,
}

impl BoardLook {
    pub fn of(variant: &Variant) -> BoardLook {
        let (rows, cols) = (variant.rows(), variant.cols());
        let cells = || (0..rows).flat_map(move |r| (0..cols).map(move |c| Cell::new(r, c)));
        let letters: String = cells()
            .map(|cell| letter_of(variant, cell).unwrap_or(' '))
            .collect();
        let mask = variant.first_move_mask();
        let first = cells()
            .map(|cell| {
                if mask & (1 << cell.index(cols)) != 0 {
                    '+'
                } else {
                    '.'
                }
            })
            .collect();
        let legend = KINDS
            .iter()
            .filter(|k| letters.contains(k.letter))
            .map(|k| (k.letter, k.name))
            .collect();
        BoardLook {
            family: variant.family_name(),
            rows,
            cols,
            letters,
            first,
            legend,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every letter of every board is a kind, and a board's look has a
    /// letter per cell and names exactly the kinds it has.
    #[test]
    fn every_board_letter_is_a_kind_of_the_one_table() {
        for variant in Variant::all() {
            let look = BoardLook::of(variant);
            let cells = look.rows as usize * look.cols as usize;
            assert_eq!((look.letters.len(), look.first.len()), (cells, cells));
            for letter in look.letters.chars().filter(|&c| c != ' ') {
                assert!(kind_of(letter).is_some(), "{}: {letter}", variant.id);
                assert!(look.legend.iter().any(|(l, _)| *l == letter));
            }
            assert!(look.first.contains('+'), "{}", variant.id);
        }
        let kinds = |id| {
            BoardLook::of(Variant::by_id(id).unwrap())
                .legend
                .into_iter()
                .map(|(letter, _)| letter)
                .collect::<String>()
        };
        // docs/RULES.md: Qango 6 has red, yellow, orange, blue and green
        // groups; Qango 7 grey, pink, yellow, orange, green and blue ones and
        // the centre d4 of no group; Qango 7 Plus loses the grey; Quinque
        // has no colours.
        assert_eq!(kinds("qango6"), "RYOBG");
        assert_eq!(kinds("qango7"), "YOBGPX*");
        assert_eq!(kinds("qango7plus"), "YOBGP*");
        assert_eq!(kinds("quinque"), ".");
        let qango7 = BoardLook::of(Variant::by_id("qango7").unwrap());
        let centre = qango7.legend.iter().find(|(l, _)| *l == '*').unwrap();
        assert!(centre.1.contains("no group"), "{centre:?}");
        assert!(kind_css().contains(".c-star { background: repeating-linear-gradient"));
    }
}
