//! `arena play VARIANT human BOT`: a person plays white at the terminal
//! against the bundled random bot, typing moves in RULES.md notation; an
//! illegal or malformed move is explained and asked again.

use crate::common;

use std::path::PathBuf;

use common::{arena, output_with_stdin, stdout_of_success};

#[test]
fn a_person_plays_qango6_against_the_random_bot_with_illegal_moves_explained() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bot = format!(
        "python3 {} --seed 11",
        root.join("bots/python/random_bot.py").display()
    );
    // c3, then c3 again (occupied), a word that is no cell, a request for
    // the legal moves, then every cell in order: whichever are free get
    // played, the taken ones are refused, until the game ends by the rules.
    let mut input = String::from("c3\nc3\nzz\n?\n");
    for row in 1..=6 {
        for col in 'a'..='f' {
            input.push_str(&format!("{col}{row}\n"));
        }
    }
    let out = output_with_stdin(
        arena().args(["play", "qango6", "human", &bot, "--color", "never"]),
        input.as_bytes(),
    );
    let stdout = stdout_of_success(&out);
    assert!(
        stdout.starts_with("qango6 | white: human | black: random_bot | per-move=1000"),
        "{stdout}"
    );
    // The board is drawn with its colour groups (a letter per group colour).
    assert!(stdout.contains("     a  b  c  d  e  f"), "{stdout}");
    assert!(stdout.contains("  1  r  r  y  o  r  r"), "{stdout}");
    assert!(stdout.contains("  1. white c3"), "{stdout}");
    assert!(stdout.contains("  2. black "), "{stdout}");
    assert!(
        stdout.contains("\"c3\" is not a legal move: c3 is occupied"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\"zz\" is not a legal move: \"zz\" is not a cell name"),
        "{stdout}"
    );
    assert!(stdout.contains("legal moves: a1 b1 c1"), "{stdout}");
    // After the refusals the game went on to a result decided by the rules.
    assert!(stdout.contains("  3. white "), "{stdout}");
    let result = stdout
        .lines()
        .find(|l| l.starts_with("result "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let reason = result.rsplit(' ').next().unwrap();
    assert!(
        ["group", "square", "line", "full", "out_of_discs"].contains(&reason),
        "{result}\n{stdout}"
    );
}

/// Quinque from a RULES.md position in which white has just captured into
/// a1: the person (black) is told a1 is locked and that they are untimed,
/// `help` explains the notation, `?` lists the moves grouped by action and
/// wrapped between moves, an arrow key's escape sequence is ignored, the
/// locked capture is refused, and bare cells are played as `place`.
#[test]
fn a_person_plays_quinque_with_help_grouped_moves_and_bare_cells() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bot = format!(
        "python3 {} --seed 3",
        root.join("bots/python/random_bot.py").display()
    );
    let mut input = String::from("\u{1b}[A\nhelp\n?\ncapture a1 e5\n\u{1b}[Bc3\n");
    for _ in 0..6 {
        for row in 1..=5 {
            for col in 'a'..='e' {
                input.push_str(&format!("{col}{row}\n"));
            }
        }
    }
    let out = output_with_stdin(
        arena().args([
            "play",
            "quinque",
            &bot,
            "human",
            "--color",
            "never",
            "--opening",
            "place b1;place a1;place a2;place e5;place c5;double e5;enclose a1",
        ]),
        input.as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("locked: a1 (just captured into"),
        "{stdout}"
    );
    assert!(stdout.contains("You are untimed"), "{stdout}");
    assert!(
        stdout.contains("Quinque moves: place c3 (or just c3), double c3"),
        "{stdout}"
    );
    // Grouped by action, one group per line start, no line over 78 columns.
    assert!(stdout.lines().any(|l| l.starts_with("place: ")), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("capture: ")),
        "{stdout}"
    );
    for line in stdout.lines().filter(|l| l.starts_with("place: ")) {
        assert!(line.chars().count() <= 78, "{line:?}");
    }
    assert!(
        stdout.contains("\"capture a1 e5\" is not a legal move:"),
        "{stdout}"
    );
    assert!(
        !stdout.contains('\u{1b}'),
        "no escape sequence echoed:\n{stdout}"
    );
    // The arrow key before c3 was dropped and the bare cell placed.
    assert!(stdout.contains("  8. black place c3"), "{stdout}");
}
