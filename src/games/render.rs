//! Board drawings for terminals: colour groups as ANSI backgrounds, or plain
//! letters when the output is not a terminal.

use super::cell::Cell;
use super::variant::{Family, Variant};
use super::Position;

const RESET: &str = "\x1b[0m";

/// ANSI background (256-colour) for a layout letter.
fn background(letter: char) -> &'static str {
    match letter {
        'R' => "\x1b[48;5;160m",
        'Y' => "\x1b[48;5;220m",
        'O' => "\x1b[48;5;208m",
        'B' => "\x1b[48;5;33m",
        'G' => "\x1b[48;5;34m",
        'P' => "\x1b[48;5;213m",
        'X' => "\x1b[48;5;244m",
        '*' => "\x1b[48;5;228m",
        _ => "",
    }
}

fn letter_of(variant: &Variant, cell: Cell) -> Option<char> {
    match variant.family {
        Family::Qango(board) => {
            let playable = board.geometry().playable & (1 << cell.index(board.cols())) != 0;
            playable.then(|| board.letter(cell.row, cell.col))
        }
        Family::Quinque => Some('.'),
    }
}

/// Draws a grid: `cell_text` gives each cell's three-character body and its letter.
fn grid(variant: &Variant, ansi: bool, mut cell_text: impl FnMut(Cell, char) -> String) -> String {
    let (rows, cols) = (variant.rows(), variant.cols());
    let mut out = String::from("    ");
    for c in 0..cols {
        out.push_str(&format!(" {} ", (b'a' + c) as char));
    }
    out.push('\n');
    for r in 0..rows {
        out.push_str(&format!("{:>3} ", r + 1));
        for c in 0..cols {
            let cell = Cell::new(r, c);
            match letter_of(variant, cell) {
                None => out.push_str("   "),
                Some(letter) => {
                    let body = cell_text(cell, letter);
                    if ansi && !background(letter).is_empty() {
                        out.push_str(&format!("{}\x1b[1;30m{body}{RESET}", background(letter)));
                    } else {
                        out.push_str(&body);
                    }
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The empty board of a variant with its colour groups; `+` marks the cells
/// allowed for the first move.
pub fn board(variant: &Variant, ansi: bool) -> String {
    let cols = variant.cols();
    let first = variant.first_move_mask();
    let mut out = grid(variant, ansi, |cell, letter| {
        let mark = if first & (1 << cell.index(cols)) != 0 {
            '+'
        } else {
            ' '
        };
        format!(" {letter}{mark}")
    });
    if let Family::Qango(_) = variant.family {
        out.push_str(
            "\nR red  Y yellow  O orange  B blue  G green  P pink  X grey  * centre (no group)\n",
        );
    }
    out.push_str(&format!(
        "+ allowed for the first move ({} cells): {}\n",
        first.count_ones(),
        variant.opening_text
    ));
    out
}

/// A position: discs as `W`/`B` (Quinque stacks as `W2`, `B1`, ...).
pub fn position(pos: &Position, ansi: bool) -> String {
    let variant = pos.variant();
    let cols = variant.cols();
    let mut out = match (pos.qango(), pos.quinque()) {
        (Some(s), _) => grid(variant, ansi, |cell, letter| {
            let bit = 1u64 << cell.index(cols);
            let body = if s.discs[0] & bit != 0 {
                'W'
            } else if s.discs[1] & bit != 0 {
                'B'
            } else if ansi {
                ' '
            } else {
                letter.to_ascii_lowercase()
            };
            format!(" {body} ")
        }),
        (_, Some(s)) => grid(variant, ansi, |cell, _| {
            let text = s.cell_text(cell.index(cols)).to_uppercase();
            format!("{text:^3}")
        }),
        _ => String::new(),
    };
    if let Some(s) = pos.quinque() {
        out.push_str(&format!(
            "supply: white {}, black {}\n",
            s.supply[0], s.supply[1]
        ));
    }
    out
}
