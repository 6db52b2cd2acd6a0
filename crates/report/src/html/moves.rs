//! One game as one line of the page's game table: its facts, and its moves
//! replayed by the rules engine into a compact per-ply diff of cells, so the
//! viewer draws any ply of any game offline without a second rules engine
//! in JavaScript.
//!
//! Fields are tab-separated, in [`FIELDS`] order; the page's script
//! (`viewer.js`) decodes them. Free text (names, paths, messages) is
//! percent-escaped for `%`, tab, newlines and `<`, so a line is one line and
//! cannot close the `<script>` element it lives in. A ply's diff is the
//! cells it changed, two characters each: the cell index in
//! [`INDEX_ALPHABET`] and its new content (`0` empty, `1`..`3` a white stack
//! of that height, `4`..`6` a black one; a Qango disc is a stack of 1).
//!
//! Compact, as a page holds tens of thousands of games: the variant is its
//! place in `Variant::all()`; the result one character (`1`, `0`, `=`);
//! moves and winning cells that are cells of the board are `@` and one
//! index character each; move times are base-32 digits
//! ([`push_numbers`]); diffs that only put the mover's disc on the move's
//! cell (every Qango game) are `=`; directory 0 and empty fields at the
//! end of a line are left out; reasons and messages that repeat are
//! `#K`, the K-th of the page's table of texts ([`Texts`]), a message
//! whose winning cells were cut from its end starting with `*`; the logs
//! and traces are file names in the directory's `logs/`, joined by `|`, a
//! log named as the referee names it (`g7-white-NAME.log`) written `=`.

use std::fmt::Write;

use arena_referee::GameRecord;
use arena_rules::games::quinque::CELLS as QUINQUE_CELLS;
use arena_rules::games::{geometry, Position, Variant};

/// Cell indices (row * cols + col) as one character each; boards have at most 64 cells.
pub const INDEX_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The columns of a game line, for the page's script (which reads them by name).
pub const FIELDS: [&str; 16] = [
    "key", "dir", "variant", "white", "black", "result", "reason", "plies", "opening", "moves",
    "times", "diffs", "cells", "message", "links", "values",
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
    /// The file names (in the directory's `logs/`, whose link the page
    /// data holds per directory) of the two stderr logs (`None`: no log;
    /// logs are created on a bot's first byte of stderr), then of the two
    /// wire traces (`None`: the bot was not traced).
    pub links: [Option<String>; 4],
    /// The game's value strip from `analysis.csv`
    /// ([`crate::analysis::strips`]; `None`: not analysed).
    pub values: Option<&'a str>,
    /// The page's table of repeated texts (reasons, messages without their
    /// cells), by text: a text in it is written `#K`.
    pub texts: &'a Texts,
}

/// Texts that repeat from game to game (reasons, and messages without
/// the winning cells they end with), numbered in the order each was first
/// seen: the games files only grow, so a line is written the same from
/// one rendering to the next (the live page keeps the lines it has). At
/// most [`Texts::MAX`]; a text seen after the table is full stays in its
/// line.
#[derive(Debug, Default)]
pub struct Texts {
    numbers: std::collections::HashMap<String, usize>,
    pub list: Vec<String>,
}

impl Texts {
    pub const MAX: usize = 1024;

    /// Numbers `text` if it is new and the table has room.
    pub fn add(&mut self, text: &str) {
        if self.list.len() < Self::MAX && !self.numbers.contains_key(text) {
            self.numbers.insert(text.to_string(), self.list.len());
            self.list.push(text.to_string());
        }
    }

    /// The reason and the message template of `record`, as counted.
    pub fn add_record(&mut self, record: &GameRecord) {
        self.add(&record.reason.to_string());
        self.add(message_template(record).0);
    }

    /// `#K` for a text in the table, else the text escaped (a text starting
    /// with `#` or `*` escapes it).
    fn push(&self, out: &mut String, text: &str) {
        if let Some(k) = self.numbers.get(text) {
            let _ = write!(out, "#{k}");
            return;
        }
        match text.as_bytes().first() {
            Some(b'#') => out.push_str("%23"),
            Some(b'*') => out.push_str("%2A"),
            _ => {}
        }
        let rest = if text.starts_with(['#', '*']) {
            &text[1..]
        } else {
            text
        };
        push_escaped(out, rest);
    }
}

/// A record's message without the winning cells it ends with (` c1 c2`),
/// and whether they were cut (the viewer appends them again).
fn message_template(record: &GameRecord) -> (&str, bool) {
    if record.cells.is_empty() {
        return (&record.message, false);
    }
    let tail = format!(" {}", record.cells.join(" "));
    match record.message.strip_suffix(&tail) {
        Some(head) => (head, true),
        None => (&record.message, false),
    }
}

/// The index of the cell `name` (column letter, row number from 1) on the
/// board of `variant`, when it is one and is written so.
fn cell_index(variant: &Variant, name: &str) -> Option<usize> {
    let (rows, cols) = (variant.rows() as usize, variant.cols() as usize);
    let mut chars = name.chars();
    let col = (chars.next()? as usize).checked_sub('a' as usize)?;
    let row = chars.as_str().parse::<usize>().ok()?.checked_sub(1)?;
    let canonical =
        col < cols && row < rows && format!("{}{}", (b'a' + col as u8) as char, row + 1) == name;
    canonical.then_some(row * cols + col)
}

/// `@` and one index character per name when every name is a cell of the
/// board, else the names escaped and joined by `,`.
fn push_cells(out: &mut String, variant: Option<&Variant>, names: &[String]) {
    let indices: Option<Vec<usize>> =
        variant.and_then(|v| names.iter().map(|n| cell_index(v, n)).collect());
    match indices {
        Some(indices) if !names.is_empty() => {
            out.push('@');
            out.extend(indices.iter().map(|&i| INDEX_ALPHABET[i] as char));
        }
        _ => push_joined(out, names, |l, m| push_escaped(l, m)),
    }
}

/// Numbers as base-32 digits, most significant first, one character each
/// from [`INDEX_ALPHABET`]: a digit that is not the number's last is
/// written 32 places further (`0`..`31`: one character; up to 1023: two).
pub fn push_numbers(out: &mut String, numbers: &[u64]) {
    for &n in numbers {
        let mut digits = [0u8; 13];
        let (mut n, mut k) = (n, 0);
        loop {
            digits[k] = (n % 32) as u8;
            n /= 32;
            k += 1;
            if n == 0 {
                break;
            }
        }
        for j in (0..k).rev() {
            let more = if j > 0 { 32 } else { 0 };
            out.push(INDEX_ALPHABET[(digits[j] + more) as usize] as char);
        }
    }
}

/// The diffs of `moves`, or `=` where each ply only put the mover's disc
/// on the move's cell (Qango: the viewer derives them from the moves).
fn push_game_diffs(out: &mut String, variant: &'static Variant, moves: &[String]) {
    let mut diffs = String::new();
    push_diffs(&mut diffs, variant, moves);
    let mut derived = String::new();
    for (ply, m) in moves.iter().enumerate() {
        let Some(i) = cell_index(variant, m) else {
            out.push_str(&diffs);
            return;
        };
        if ply > 0 {
            derived.push(' ');
        }
        derived.push(INDEX_ALPHABET[i] as char);
        derived.push(if ply % 2 == 0 { '1' } else { '4' });
    }
    if diffs == derived {
        out.push('=');
    } else {
        out.push_str(&diffs);
    }
}

/// A result as one character: `1` (1-0), `0` (0-1), `=` (1/2-1/2).
fn result_code(result: &str) -> &str {
    match result {
        "1-0" => "1",
        "0-1" => "0",
        "1/2-1/2" => "=",
        other => other,
    }
}

/// The game's line (without the newline), in [`FIELDS`] order. Written
/// piece by piece into one string: the report writes one per game.
pub fn game_line(ctx: &LineContext, record: &GameRecord) -> String {
    let mut line = String::with_capacity(100 + record.moves.len() * 4);
    let tab = |line: &mut String| line.push('\t');
    let variant = Variant::by_id(&record.game);
    push_escaped(&mut line, ctx.key);
    // Directory 0 (the only one of most pages) is written as nothing.
    line.push('\t');
    if ctx.dir > 0 {
        let _ = write!(line, "{}", ctx.dir);
    }
    line.push('\t');
    match Variant::all().iter().position(|v| v.id == record.game) {
        Some(k) => {
            let _ = write!(line, "{k}");
        }
        None => push_escaped(&mut line, &format!("{}?", record.game)),
    }
    let result = record.result.to_string();
    let _ = write!(
        line,
        "\t{}\t{}\t{}\t",
        ctx.white,
        ctx.black,
        result_code(&result)
    );
    ctx.texts.push(&mut line, &record.reason.to_string());
    let _ = write!(line, "\t{}\t{}\t", record.plies, record.opening.len());
    push_cells(&mut line, variant, &record.moves);
    tab(&mut line);
    push_numbers(&mut line, &record.move_times_ms);
    tab(&mut line);
    if let Some(variant) = variant {
        push_game_diffs(&mut line, variant, &record.moves);
    }
    tab(&mut line);
    push_cells(&mut line, variant, &record.cells);
    tab(&mut line);
    let (template, cut) = message_template(record);
    if cut {
        line.push('*');
    }
    ctx.texts.push(&mut line, template);
    tab(&mut line);
    if ctx.links.iter().any(Option::is_some) {
        for (k, link) in ctx.links.iter().enumerate() {
            if k > 0 {
                line.push('|');
            }
            if let Some(link) = link {
                line.push_str(&escape(link).replace('|', "%7C"));
            }
        }
    }
    tab(&mut line);
    line.push_str(ctx.values.unwrap_or(""));
    // Empty fields at the end are left out (the page reads them as empty).
    line.truncate(line.trim_end_matches('\t').len());
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
                "opening":["c3"],"moves":["c3","d4","e5"],"move_times_ms":[0,7,1000],
                "result":"0-1","winner":"black","reason":"timeout",
                "message":"white did not answer\t<in time>","cells":[],"plies":3,
                "white_time_ms":12,"black_time_ms":7,"duration_ms":40}"#,
        )
        .unwrap();
        let mut texts = Texts::default();
        // "timeout" in the table; the message not (the table was full).
        texts.add("timeout");
        texts.list.extend((1..Texts::MAX).map(|k| k.to_string()));
        texts.add_record(&record);
        let ctx = LineContext {
            key: "run 1",
            dir: 0,
            white: 2,
            black: 5,
            links: [Some("g4 a%|.log".into()), None, None, Some("g4.b".into())],
            values: Some("-Wd"),
            texts: &texts,
        };
        let qango6 = Variant::all()
            .iter()
            .position(|v| v.id == "qango6")
            .unwrap();
        // c3 is index 14 ('O'), d4 21 ('V'), e5 28 ('c'): white 1, black 4,
        // one disc a ply on the move's cell, so "=". Times 0, 7, and 1000 =
        // 31 * 32 + 8: '_' (31 + 32, more to come) then 'I' (8).
        let fields = [
            "run 1",
            "",
            &qango6.to_string(),
            "2",
            "5",
            "0",
            "#0",
            "3",
            "1",
            "@OVc",
            "AH_I",
            "=",
            "",
            "white did not answer%09%3Cin time>",
            "g4 a%25%7C.log|||g4.b",
            "-Wd",
        ];
        assert_eq!(fields.len(), FIELDS.len());
        assert_eq!(game_line(&ctx, &record), fields.join("\t"));
    }

    #[test]
    fn a_won_game_names_its_cells_once_and_repeated_texts_by_number() {
        let record: GameRecord = serde_json::from_str(
            r#"{"game":"qango6","game_id":"g5","white":"a","black":"b",
                "time_control":{"type":"per_move","move_ms":1000},
                "opening":[],"moves":["c3","d4"],"move_times_ms":[3,4],
                "result":"1-0","winner":"white","reason":"group",
                "message":"white wins: colour group c3 a1","cells":["c3","a1"],"plies":2,
                "white_time_ms":3,"black_time_ms":4,"duration_ms":40}"#,
        )
        .unwrap();
        let mut texts = Texts::default();
        texts.add("#odd");
        texts.add_record(&record);
        texts.add_record(&record);
        assert_eq!(texts.list, ["#odd", "group", "white wins: colour group"]);
        let ctx = LineContext {
            key: "g5",
            dir: 0,
            white: 0,
            black: 1,
            links: [None, None, None, None],
            values: None,
            texts: &texts,
        };
        let line = game_line(&ctx, &record);
        let fields: Vec<&str> = line.split('\t').collect();
        // a1 is index 0 ('A'); "group" is text 1, the message's head text 2.
        // Empty fields at the end (links, values) are left out.
        assert_eq!(
            fields[5..],
            ["1", "#1", "2", "0", "@OV", "DE", "=", "@OA", "*#2"]
        );
        let mut escaped = String::new();
        texts.push(&mut escaped, "#once");
        assert_eq!(escaped, "%23once");
    }
}
