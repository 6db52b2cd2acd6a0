//! `arena show DIR GAME_ID`: a recorded game replayed in the terminal, at
//! `--ply N` or step by step with Enter; a game that ended on a refused move
//! is shown up to it, not an error. Records written by hand (the rules page:
//! a1 b1 a2 is a colour group of qango6's top-left corner).

use crate::common;

use std::path::Path;

/// Writes games.jsonl with game 0: white a1 b1 a2, black c3 d4; white wins
/// by the group a1 b1 a2. Game 1: white a1, black a1 again (illegal).
fn write_games(dir: &Path) {
    let record = |id: u32, moves: &str, result: &str, reason: &str, message: &str| {
        format!(
            r#"{{"id":{id},"round":0,"pair":0,"game":"qango6","game_id":"g{id}","white":"w","black":"b","time_control":{{"type":"per_move","move_ms":400}},"opening":[],"moves":[{moves}],"move_times_ms":[5,6,7,8,9],"result":"{result}","winner":null,"reason":"{reason}","message":"{message}","cells":[],"plies":5,"white_time_ms":0,"black_time_ms":0,"duration_ms":1}}"#
        )
    };
    let text = [
        record(
            0,
            r#""a1","c3","b1","d4","a2""#,
            "1-0",
            "group",
            "white wins: colour group a1 b1 a2",
        ),
        record(
            1,
            r#""a1","a1""#,
            "1-0",
            "illegal_move",
            "black (b): played a1, which is illegal",
        ),
    ]
    .join("\n");
    std::fs::write(dir.join("games.jsonl"), text + "\n").unwrap();
}

fn show(dir: &Path, args: &[&str], input: &str) -> String {
    let mut command = common::arena();
    command.arg("show").arg(dir).args(args);
    common::stdout_of_success(&common::output_with_stdin(&mut command, input.as_bytes()))
}

/// The board lines of a rendering: rows starting with a rank number.
fn discs(text: &str, mark: char) -> usize {
    text.lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .filter(|c| *c == mark.to_string())
                .count()
        })
        .sum()
}

#[test]
fn a_ply_shows_that_position() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let out = show(dir.path(), &["g0", "--ply", "2"], "");
    assert!(
        out.contains("g0: w (white) vs b (black), qango6: 1-0 by group"),
        "{out}"
    );
    assert!(out.contains("ply 2"), "{out}");
    assert_eq!((discs(&out, 'W'), discs(&out, 'B')), (1, 1), "{out}");
    assert!(
        !out.contains("colour group a1 b1 a2"),
        "not the end yet: {out}"
    );
}

#[test]
fn enter_steps_to_the_end_and_says_how_it_ended() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let out = show(dir.path(), &["0"], "\n\n\n\n\n");
    for ply in 1..=5 {
        assert!(out.contains(&format!("ply {ply}: ")), "{out}");
    }
    assert!(
        out.contains("1-0: white wins: colour group a1 b1 a2"),
        "{out}"
    );
    // q stops at once.
    let out = show(dir.path(), &["g0"], "q\n");
    assert!(
        out.contains("ply 1: a1") && !out.contains("ply 2:"),
        "{out}"
    );
}

#[test]
fn a_refused_last_move_is_shown_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let out = show(dir.path(), &["g1", "--ply", "2"], "");
    assert!(out.contains("ply 2: a1 was refused by the rules"), "{out}");
    assert!(out.contains("played a1, which is illegal"), "{out}");
}

#[test]
fn an_unknown_game_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let out = common::arena()
        .arg("show")
        .arg(dir.path())
        .arg("g9")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no game g9 in"), "{err}");
}

#[test]
fn color_always_draws_in_colour_and_never_in_plain_text() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    // Piped, so `auto` is plain: only `always` may colour.
    let auto = show(dir.path(), &["g0", "--ply", "3"], "");
    let always = show(dir.path(), &["g0", "--ply", "3", "--color", "always"], "");
    let never = show(dir.path(), &["g0", "--ply", "3", "--color", "never"], "");
    assert!(!auto.contains('\x1b'), "{auto}");
    assert!(!never.contains('\x1b'), "{never}");
    assert!(always.contains("\x1b["), "{always}");
    assert_eq!(never, auto);
}
