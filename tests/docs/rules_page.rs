//! docs/RULES.md is the rules page bot authors read; this keeps it true.
//! Every variant id of the code appears on it (as a code span), every board
//! drawn in a ```board ID``` block is what `arena games ID --color never`
//! draws, and every ```judge``` example (a game record, then `-> ` and the
//! expected result) replays with the built `arena judge` to that result: each
//! field written after `->` must equal the same field of judge's answer,
//! except `why`, which must be part of judge's message for a refused move.

use crate::common;

use std::process::Output;

use arena::games::Variant;
use common::output_with_stdin;
use serde_json::Value;

fn page() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/RULES.md"))
        .expect("docs/RULES.md exists")
}

/// The fenced blocks whose info string starts with `tag`: (info, body).
fn blocks(page: &str, tag: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in page.lines() {
        match open.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    if info.split_whitespace().next() == Some(tag) {
                        open = Some((info.to_string(), String::new()));
                    }
                }
            }
            Some((_, body)) if line == "```" => {
                let body = std::mem::take(body);
                let (info, _) = open.take().unwrap();
                found.push((info, body));
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    assert!(open.is_none(), "an unclosed ```{tag} block");
    found
}

fn arena(args: &[&str], stdin: &[u8]) -> Output {
    output_with_stdin(common::arena().args(args), stdin)
}

#[test]
fn every_variant_id_is_on_the_page_with_its_board() {
    let page = page();
    let boards: Vec<String> = blocks(&page, "board")
        .into_iter()
        .map(|(info, _)| info.split_whitespace().nth(1).unwrap_or("").to_string())
        .collect();
    for id in Variant::ids() {
        assert!(
            page.contains(&format!("`{id}`")),
            "{id} is not on the rules page"
        );
        assert!(
            boards.iter().any(|b| b == id),
            "no ```board {id}``` drawing"
        );
    }
}

#[test]
fn the_drawn_boards_are_what_arena_games_draws() {
    let page = page();
    let drawings = blocks(&page, "board");
    assert!(!drawings.is_empty());
    for (info, body) in drawings {
        let id = info.split_whitespace().nth(1).expect("```board ID");
        let out = arena(&["games", id, "--color", "never"], b"");
        assert!(out.status.success(), "arena games {id} failed");
        let stdout = String::from_utf8(out.stdout).unwrap();
        // The grid: the column header and the rows, the lines that start with a space.
        let grid: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with(' '))
            .map(str::trim_end)
            .collect();
        let drawn: Vec<&str> = body.lines().map(str::trim_end).collect();
        assert_eq!(drawn, grid, "the drawing of {id} differs from arena games");
    }
}

#[test]
fn every_judge_example_replays_to_its_stated_result() {
    let page = page();
    let examples = blocks(&page, "judge");
    assert!(examples.len() >= 20, "only {} examples", examples.len());
    let mut quinque_moves = std::collections::BTreeSet::new();
    for (_, body) in examples {
        let (record, expected) = body
            .split_once("\n-> ")
            .unwrap_or_else(|| panic!("a judge block without \"-> RESULT\":\n{body}"));
        let expected: Value = serde_json::from_str(expected.trim())
            .unwrap_or_else(|e| panic!("bad expected result {expected:?}: {e}"));
        let parsed: Value =
            serde_json::from_str(record).unwrap_or_else(|e| panic!("bad record {record:?}: {e}"));
        if parsed["game"] == "quinque" {
            for m in parsed["moves"].as_array().unwrap() {
                let word = m.as_str().unwrap().split(' ').next().unwrap().to_string();
                quinque_moves.insert(word);
            }
        }
        let out = arena(&["judge"], record.as_bytes());
        let verdict: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("judge wrote no JSON for {record}: {e}"));
        for (key, want) in expected.as_object().expect("the result is an object") {
            if key == "why" {
                let message = verdict["message"].as_str().unwrap_or_default();
                let why = want.as_str().expect("why is a string");
                assert!(
                    message.contains(why),
                    "{record}: {message:?} does not say {why:?}"
                );
                continue;
            }
            assert_eq!(
                verdict.get(key),
                Some(want),
                "{key} of\n{record}\nis not {want}; judge says {verdict}"
            );
        }
        let is_error = expected.get("error").is_some();
        assert_eq!(out.status.success(), !is_error, "exit status of {record}");
    }
    for action in ["place", "double", "triple", "enclose", "capture"] {
        assert!(quinque_moves.contains(action), "no example uses {action}");
    }
}
