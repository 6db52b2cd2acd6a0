//! One game as one line of the page's game table: its facts, and its moves
//! replayed by the rules engine into a compact per-ply diff of cells, so the
//! viewer draws any ply of any game offline without a second rules engine
//! in JavaScript.
//!
//! Fields are tab-separated, in [`FIELDS`] order. Free text (names, paths,
//! messages) is percent-escaped for `%`, tab, newlines and `<`, so a line is
//! one line and cannot close the `<script>` element it lives in. A ply's diff
//! is the cells it changed, two characters each: the cell index in
//! [`INDEX_ALPHABET`] and its new content (`0` empty, `1`..`3` a white stack
//! of that height, `4`..`6` a black one; a Qango disc is a stack of 1).

use std::fmt::Write;

use crate::games::{Position, Variant};
use crate::referee::GameRecord;

/// Cell indices (row * cols + col) as one character each; boards have at most 64 cells.
pub const INDEX_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The columns of a game line, for the page's script (which reads them by name).
pub const FIELDS: [&str; 18] = [
    "key",
    "dir",
    "variant",
    "white",
    "black",
    "result",
    "reason",
    "plies",
    "opening",
    "moves",
    "times",
    "diffs",
    "cells",
    "white_log",
    "black_log",
    "white_trace",
    "black_trace",
    "message",
];

/// The content code of every cell of `pos`, by index.
pub fn cell_codes(pos: &Position) -> Vec<u8> {
    let cells = pos.variant().rows() as usize * pos.variant().cols() as usize;
    if let Some(s) = pos.qango() {
        (0..cells)
            .map(|i| {
                let bit = 1u64 << i;
                if s.discs[0] & bit != 0 {
                    b'1'
                } else if s.discs[1] & bit != 0 {
                    b'4'
                } else {
                    b'0'
                }
            })
            .collect()
    } else if let Some(s) = pos.quinque() {
        s.stacks
            .iter()
            .map(|&h| match h {
                0 => b'0',
                h if h > 0 => b'0' + h.min(3) as u8,
                h => b'3' + (-h).min(3) as u8,
            })
            .collect()
    } else {
        vec![b'0'; cells]
    }
}

/// The per-ply diffs of `moves` from the empty board, space separated; stops
/// at the first move the rules engine refuses (the record's last move is the
/// one that ended the game, legal or not only for the referee to say).
pub fn diffs(variant: &'static Variant, moves: &[String]) -> String {
    let mut pos = Position::new(variant);
    let mut before = cell_codes(&pos);
    let mut out = String::with_capacity(moves.len() * 3);
    for (ply, m) in moves.iter().enumerate() {
        if pos.play_str(m).is_err() {
            break;
        }
        let after = cell_codes(&pos);
        if ply > 0 {
            out.push(' ');
        }
        for (i, (&a, &b)) in after.iter().zip(&before).enumerate() {
            if a != b {
                out.push(INDEX_ALPHABET[i] as char);
                out.push(a as char);
            }
        }
        before = after;
    }
    out
}

/// Escapes free text for a field (see the module docs).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\t' => out.push_str("%09"),
            '\n' => out.push_str("%0A"),
            '\r' => out.push_str("%0D"),
            '<' => out.push_str("%3C"),
            c => out.push(c),
        }
    }
    out
}

/// Where a game's things are for the page.
pub struct LineContext<'a> {
    pub key: &'a str,
    pub dir: usize,
    pub white: usize,
    pub black: usize,
    /// Links to the two stderr logs, relative to the page (`None`: no log;
    /// logs are created on a bot's first byte of stderr).
    pub logs: [Option<String>; 2],
    /// Links to the two wire traces (`None`: the bot was not traced).
    pub traces: [Option<String>; 2],
}

/// The game's line (without the newline).
pub fn game_line(ctx: &LineContext, record: &GameRecord) -> String {
    let mut line = String::with_capacity(64 + record.moves.len() * 12);
    let diffs = Variant::by_id(&record.game)
        .map(|v| diffs(v, &record.moves))
        .unwrap_or_default();
    let moves: Vec<String> = record.moves.iter().map(|m| escape(m)).collect();
    let times: Vec<String> = record.move_times_ms.iter().map(u64::to_string).collect();
    let log = |l: &Option<String>| l.as_deref().map(escape).unwrap_or_default();
    let _ = write!(
        line,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        escape(ctx.key),
        ctx.dir,
        escape(&record.game),
        ctx.white,
        ctx.black,
        record.result,
        record.reason,
        record.plies,
        record.opening.len(),
        moves.join(","),
        times.join(","),
        diffs,
        record.cells.join(","),
        log(&ctx.logs[0]),
        log(&ctx.logs[1]),
        log(&ctx.traces[0]),
        log(&ctx.traces[1]),
        escape(&record.message),
    );
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_fits_the_index_alphabet() {
        for v in Variant::all() {
            assert!(v.rows() as usize * v.cols() as usize <= 64, "{}", v.id);
        }
    }

    #[test]
    fn qango_diffs_are_one_disc_per_ply() {
        // c3 is row 3 (index 2), column c (2): 2 * 6 + 2 = 14 -> 'O';
        // d4: 3 * 6 + 3 = 21 -> 'V'. White's disc is 1, black's 4.
        let v = Variant::by_id("qango6").unwrap();
        let moves = vec!["c3".to_string(), "d4".to_string()];
        let mut pos = Position::new(v);
        assert!(pos.play_str("c3").is_ok(), "c3 opens qango6");
        assert_eq!(diffs(v, &moves), "O1 V4");
    }

    #[test]
    fn a_refused_move_ends_the_diffs() {
        let v = Variant::by_id("qango6").unwrap();
        let moves = vec!["c3".to_string(), "c3".to_string()];
        assert_eq!(diffs(v, &moves), "O1");
    }

    #[test]
    fn quinque_stacks_grow_in_place() {
        // place b2 (white, height 1; the first stone may not go on the
        // centre), place a1 (black), double b2 (white 2).
        let v = Variant::by_id("quinque").unwrap();
        let moves: Vec<String> = ["place b2", "place a1", "double b2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut pos = Position::new(v);
        for m in &moves {
            pos.play_str(m).expect("legal by RULES.md");
        }
        // b2 = 1 * 5 + 1 = 6 -> 'G'; a1 = 0 -> 'A'.
        assert_eq!(diffs(v, &moves), "G1 A4 G2");
    }

    #[test]
    fn free_text_cannot_break_a_line_or_the_script() {
        assert_eq!(escape("a\tb\nc</script>%"), "a%09b%0Ac%3C/script>%25");
    }
}
