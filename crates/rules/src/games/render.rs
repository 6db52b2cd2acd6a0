//! Board drawings for terminals: colour groups as ANSI backgrounds, or plain
//! letters when the output is not a terminal. The kinds of cell, their
//! letters and colours are the pages' ([`super::look`]).
//!
//! The plain-letter scheme (the legend of docs/RULES.md): colour groups in
//! lower case (`r` red, `y` yellow, `o` orange, `u` blue, `g` green, `p`
//! pink, `x` grey, `*` the centre of no group), discs and stacks in upper
//! case (`W` white, `B` black). No colour letter is `w` or `b`, so a letter
//! names a colour or a disc, never both.

use super::cell::Cell;
use super::look::{kind_of, KINDS};
use super::variant::{Family, Variant};
use super::Position;

pub use super::look::letter_of;

const RESET: &str = "\x1b[0m";

/// ANSI background (256-colour) for a layout letter; empty for none.
fn background(letter: char) -> String {
    kind_of(letter)
        .and_then(|k| k.ansi)
        .map_or(String::new(), |code| format!("\x1b[48;5;{code}m"))
}

/// The plain letter of a layout letter: lower case, blue as `u` (`b` is black).
fn plain(letter: char) -> char {
    kind_of(letter).map_or(letter.to_ascii_lowercase(), |k| k.plain)
}

/// The legend of the plain letters, for Qango boards:
/// `r red  y yellow  ...  * centre (no group)  W white  B black`.
pub fn legend() -> String {
    let kinds = KINDS
        .iter()
        .filter_map(|k| Some(format!("{} {}", k.plain, k.short?)));
    kinds
        .chain(["W white".to_string(), "B black".to_string()])
        .collect::<Vec<_>>()
        .join("  ")
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
                    if ansi && kind_of(letter).is_some_and(|k| k.ansi.is_some()) {
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
        format!(" {}{mark}", plain(letter))
    });
    if let Family::Qango(_) = variant.family {
        out.push('\n');
        out.push_str(&legend());
        out.push('\n');
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
                plain(letter)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_is_the_one_of_the_rules_page() {
        assert_eq!(
            legend(),
            "r red  y yellow  o orange  u blue  g green  p pink  x grey  * centre (no group)  W white  B black"
        );
        assert_eq!(background('R'), "\x1b[48;5;160m");
        assert_eq!((background('.'), plain('B')), (String::new(), 'u'));
    }

    /// The cell bodies of a plain drawing (rows only, without the row numbers).
    fn bodies(drawing: &str) -> String {
        drawing
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .flat_map(|l| l.chars().skip(4))
            .filter(|c| !c.is_whitespace())
            .collect()
    }

    #[test]
    fn plain_letters_never_confuse_a_colour_with_a_disc() {
        for variant in Variant::all() {
            let empty = bodies(&board(variant, false));
            assert!(
                empty.chars().all(|c| "ryougpx*.+".contains(c)),
                "{}: {empty}",
                variant.id
            );
            let mut pos = Position::new(variant);
            for _ in 0..2 {
                let m = pos.legal_moves()[0];
                pos.play(&m).unwrap();
            }
            let played = bodies(&position(&pos, false));
            assert!(played.contains('W') && played.contains('B'), "{played}");
            assert!(!played.contains('b') && !played.contains('w'), "{played}");
        }
    }
}
