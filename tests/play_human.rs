//! `arena play VARIANT human BOT`: a person plays white at the terminal
//! against the bundled random bot, typing moves in RULES.md notation; an
//! illegal or malformed move is explained and asked again.

mod common;

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
