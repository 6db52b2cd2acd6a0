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

use arena_referee::GameRecord;
use arena_rules::games::quinque::CELLS as QUINQUE_CELLS;
use arena_rules::games::{geometry, Position, Variant};

/// Cell indices (row * cols + col) as one character each; boards have at most 64 cells.
pub const INDEX_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The columns of a game line, for the page's script (which reads them by name).
pub const FIELDS: [&str; 19] = [
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
    "values",
];

/// A position's cells in a form that is cheap to compare from ply to ply
/// (the report replays every move of every game): Qango's two bitboards,
/// Quinque's signed stack heights.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cells {
    Qango([u64; 2]),
    Quinque([i8; QUINQUE_CELLS]),
}

impl Cells {
    fn of(pos: &Position) -> Cells {
        match (pos.qango(), pos.quinque()) {
            (Some(q), _) => Cells::Qango(q.discs),
            (None, Some(q)) => Cells::Quinque(q.stacks),
            (None, None) => unreachable!("a position is of Qango or of Quinque"),
        }
    }

    /// The cells that differ from `before`, each as its index character and
    /// its new content code, in index order.
    fn push_changes(&self, before: &Cells, out: &mut String) {
        let mut push = |i: usize, code: u8| {
            out.push(INDEX_ALPHABET[i] as char);
            out.push(code as char);
        };
        match (self, before) {
            (Cells::Qango(now), Cells::Qango(was)) => {
                for i in geometry::bits((now[0] ^ was[0]) | (now[1] ^ was[1])) {
                    let code = match (now[0] >> i & 1, now[1] >> i & 1) {
                        (1, _) => b'1',
                        (_, 1) => b'4',
                        _ => b'0',
                    };
                    push(i, code);
                }
            }
            (Cells::Quinque(now), Cells::Quinque(was)) => {
                for (i, (&h, &old)) in now.iter().zip(was).enumerate() {
                    if h != old {
                        push(i, stack_code(h));
                    }
                }
            }
            _ => unreachable!("one game's positions are of one kind"),
        }
    }
}

/// A Quinque stack's content code: `0` empty, `1`..`3` white, `4`..`6` black.
fn stack_code(height: i8) -> u8 {
    match height {
        0 => b'0',
        h if h > 0 => b'0' + h.min(3) as u8,
        h => b'3' + (-h).min(3) as u8,
    }
}

/// A position as a page draws it ([`super::board`]): each cell's content
/// code, the cells the last move changed, and those the opening placed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BoardNow {
    /// One content code per cell (`0`, `1`..`3`, `4`..`6`), index `row *
    /// cols + col`.
    pub codes: String,
    /// Cell indices the last move changed.
    pub last: Vec<u8>,
    /// Cell indices whose content the opening placed (and nothing changed
    /// since).
    pub opening: Vec<u8>,
}

/// The position after `moves` (the first `opening` of them the opening's),
/// replayed by the rules engine with the viewer's diffs; stops at the first
/// move the rules refuse, like [`push_diffs`].
pub fn board_now(variant: &'static Variant, moves: &[String], opening: usize) -> BoardNow {
    let cells = variant.rows() as usize * variant.cols() as usize;
    let mut diffs = String::new();
    push_diffs(&mut diffs, variant, moves);
    let mut codes = vec![b'0'; cells];
    let mut changed_at = vec![0; cells];
    let mut last = Vec::new();
    for (ply, diff) in diffs.split(' ').filter(|d| !d.is_empty()).enumerate() {
        last.clear();
        for pair in diff.as_bytes().chunks_exact(2) {
            let i = INDEX_ALPHABET
                .iter()
                .position(|&c| c == pair[0])
                .expect("a diff names cells by the alphabet");
            codes[i] = pair[1];
            changed_at[i] = ply + 1;
            last.push(i as u8);
        }
    }
    let opening = (0..cells)
        .filter(|&i| codes[i] != b'0' && changed_at[i] <= opening)
        .map(|i| i as u8)
        .collect();
    BoardNow {
        codes: String::from_utf8(codes).expect("codes are ASCII"),
        last,
        opening,
    }
}

/// The per-ply diffs of `moves` from the empty board, space separated, into
/// `out`; stops at the first move the rules engine refuses (the record's
/// last move is the one that ended the game, legal or not only for the
/// referee to say).
pub fn push_diffs(out: &mut String, variant: &'static Variant, moves: &[String]) {
    let mut pos = Position::new(variant);
    let mut before = Cells::of(&pos);
    for (ply, m) in moves.iter().enumerate() {
        if pos.play_str(m).is_err() {
            break;
        }
        let after = Cells::of(&pos);
        if ply > 0 {
            out.push(' ');
        }
        after.push_changes(&before, out);
        before = after;
    }
}

/// Escapes free text for a field (see the module docs).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

/// [`escape`], appended to `out`.
pub fn push_escaped(out: &mut String, text: &str) {
    if !text.contains(['%', '\t', '\n', '\r', '<']) {
        out.push_str(text);
        return;
    }
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
}

/// `items` joined by `,`, each written by `push`.
fn push_joined<T>(out: &mut String, items: &[T], mut push: impl FnMut(&mut String, &T)) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push(out, item);
    }
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
    /// The game's value strip from `analysis.csv`
    /// ([`crate::analysis::strips`]; `None`: not analysed).
    pub values: Option<&'a str>,
}

/// The game's line (without the newline), in [`FIELDS`] order. Written
/// piece by piece into one string: the report writes one per game.
pub fn game_line(ctx: &LineContext, record: &GameRecord) -> String {
    let mut line = String::with_capacity(160 + record.moves.len() * 12);
    let tab = |line: &mut String| line.push('\t');
    push_escaped(&mut line, ctx.key);
    let _ = write!(line, "\t{}\t", ctx.dir);
    push_escaped(&mut line, &record.game);
    let _ = write!(
        line,
        "\t{}\t{}\t{}\t{}\t{}\t{}\t",
        ctx.white,
        ctx.black,
        record.result,
        record.reason,
        record.plies,
        record.opening.len(),
    );
    push_joined(&mut line, &record.moves, |l, m| push_escaped(l, m));
    tab(&mut line);
    push_joined(&mut line, &record.move_times_ms, |l, t| {
        let _ = write!(l, "{t}");
    });
    tab(&mut line);
    if let Some(variant) = Variant::by_id(&record.game) {
        push_diffs(&mut line, variant, &record.moves);
    }
    tab(&mut line);
    push_joined(&mut line, &record.cells, |l, c| l.push_str(c));
    for link in ctx.logs.iter().chain(&ctx.traces) {
        tab(&mut line);
        if let Some(link) = link {
            push_escaped(&mut line, link);
        }
    }
    tab(&mut line);
    push_escaped(&mut line, &record.message);
    tab(&mut line);
    line.push_str(ctx.values.unwrap_or(""));
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diffs(variant: &'static Variant, moves: &[String]) -> String {
        let mut out = String::new();
        push_diffs(&mut out, variant, moves);
        out
    }

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

    /// The live page's position: the last move's cells, the opening's
    /// stones, stack heights as the viewer's codes.
    #[test]
    fn the_board_now_is_the_diffs_applied() {
        let v = Variant::by_id("quinque").unwrap();
        let moves: Vec<String> = ["place b2", "place a1", "double b2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let now = board_now(v, &moves, 2);
        assert_eq!(&now.codes[..7], "4000002");
        assert_eq!((now.last, now.opening), (vec![6], vec![0]));
        let now = board_now(v, &moves[..2], 2);
        assert_eq!((now.last, now.opening), (vec![0], vec![0, 6]));
    }

    #[test]
    fn free_text_cannot_break_a_line_or_the_script() {
        assert_eq!(escape("a\tb\nc</script>%"), "a%09b%0Ac%3C/script>%25");
    }

    #[test]
    fn a_game_line_has_every_field_in_order() {
        let record: GameRecord = serde_json::from_str(
            r#"{"game":"qango6","game_id":"g4","white":"a","black":"b",
                "time_control":{"type":"per_move","move_ms":1000},
                "opening":["c3"],"moves":["c3","d4","e5"],"move_times_ms":[0,7,12],
                "result":"0-1","winner":"black","reason":"timeout",
                "message":"white did not answer\t<in time>","cells":[],"plies":3,
                "white_time_ms":12,"black_time_ms":7,"duration_ms":40}"#,
        )
        .unwrap();
        let ctx = LineContext {
            key: "run 1",
            dir: 0,
            white: 2,
            black: 5,
            logs: [Some("logs/g4 a%.log".into()), None],
            traces: [None, Some("traces/g4.b".into())],
            values: Some("-Wd"),
        };
        // c3 is index 14 ('O'), d4 21 ('V'), e5 28 ('c'): white 1, black 4.
        let fields = [
            "run 1",
            "0",
            "qango6",
            "2",
            "5",
            "0-1",
            "timeout",
            "3",
            "1",
            "c3,d4,e5",
            "0,7,12",
            "O1 V4 c1",
            "",
            "logs/g4 a%25.log",
            "",
            "",
            "traces/g4.b",
            "white did not answer%09%3Cin time>",
            "-Wd",
        ];
        assert_eq!(fields.len(), FIELDS.len());
        assert_eq!(game_line(&ctx, &record), fields.join("\t"));
    }
}
