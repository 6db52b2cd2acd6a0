//! The starter bots in `bots/` speak the protocol: they answer `hello` with
//! `ready`, answer turns of every family with a legal move, ignore unknown
//! message types, exit on `quit` and on end of input, and the greedy bot takes
//! immediate wins and blocks immediate losses. Driven directly over pipes, so
//! it does not depend on the referee.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use arena::protocol::{decode_bot_line, BotMessage, PROTOCOL_VERSION};
use serde_json::{json, Value};

const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

fn repo_file(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path)
}

struct Bot {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Bot {
    fn start(program: &str, script: &str) -> Bot {
        let mut child = Command::new(program)
            .arg(repo_file(script))
            .args(["--seed", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {program} {script}: {e}"));
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Bot {
            label: format!("{program} {script}"),
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").unwrap_or_else(|e| panic!("{}: write: {e}", self.label));
        stdin.flush().unwrap();
    }

    fn answer(&mut self) -> BotMessage {
        let line = self
            .lines
            .recv_timeout(ANSWER_TIMEOUT)
            .unwrap_or_else(|e| panic!("{}: no answer ({e})", self.label));
        decode_bot_line(line.as_bytes())
            .unwrap_or_else(|e| panic!("{}: bad line {line:?}: {e}", self.label))
    }

    fn move_for(&mut self, turn: &Value) -> String {
        self.send(turn);
        match self.answer() {
            BotMessage::Move(m) => m.mv,
            other => panic!("{}: expected move, got {other:?}", self.label),
        }
    }

    fn handshake(&mut self) {
        self.send(&json!({"type": "hello", "protocol": 1, "referee": "test"}));
        match self.answer() {
            BotMessage::Ready(r) => assert_eq!(r.protocol, PROTOCOL_VERSION, "{}", self.label),
            other => panic!("{}: expected ready, got {other:?}", self.label),
        }
    }

    /// Waits for the process to exit by itself; kills it and fails otherwise.
    fn expect_exit(mut self, why: &str) {
        let deadline = Instant::now() + ANSWER_TIMEOUT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(
                    status.success(),
                    "{}: exit status {status} after {why}",
                    self.label
                );
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("{}: still running after {why}", self.label);
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const STARTERS: [(&str, &str); 3] = [
    ("python3", "bots/python/random_bot.py"),
    ("python3", "bots/python/greedy_bot.py"),
    ("node", "bots/js/random_bot.js"),
];

fn example_messages() -> Vec<Value> {
    std::fs::read_to_string(repo_file("protocol/example-game.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn qango6_info() -> Value {
    let messages = example_messages();
    let new_game = messages.iter().find(|m| m["type"] == "new_game").unwrap();
    new_game["variant"].clone()
}

fn cell(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

fn quinque_info() -> Value {
    let cells: Vec<String> = (0..5)
        .flat_map(|r| (0..5).map(move |c| cell(r, c)))
        .collect();
    let mut lines: Vec<Vec<String>> = Vec::new();
    for i in 0..5 {
        lines.push((0..5).map(|c| cell(i, c)).collect());
        lines.push((0..5).map(|r| cell(r, i)).collect());
    }
    lines.push((0..5).map(|i| cell(i, i)).collect());
    lines.push((0..5).map(|i| cell(4 - i, i)).collect());
    let first: Vec<&String> = cells.iter().filter(|c| *c != "c3").collect();
    json!({"id": "quinque", "family": "quinque", "rows": 5, "cols": 5, "cells": cells,
           "groups": [], "win_patterns": lines, "first_move": first, "max_discs": 40})
}

fn new_game(id: &str, info: &Value) -> Value {
    json!({"type": "new_game", "game_id": id, "variant": info, "color": "white",
           "opponent": "test", "time_control": {"type": "per_move", "move_ms": 5000}})
}

/// A white turn on `board` (rows of cell strings) with the given legal moves.
fn turn(id: &str, info: &Value, board: &[Vec<String>], legal: &[String], extra: Value) -> Value {
    let mut state = json!({"board": board, "to_move": "white"});
    for (k, v) in extra.as_object().unwrap() {
        state[k] = v.clone();
    }
    json!({"type": "turn", "game_id": id, "variant": info["id"], "color": "white", "ply": 4,
           "state": state, "history": ["x", "y", "z", "w"], "legal_moves": legal,
           "clock": {"white_ms": null, "black_ms": null, "move_ms": 5000}})
}

fn parse_board(rows: &[&str]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// Qango: every empty cell is legal after the first move.
fn qango_turn(id: &str, rows: &[&str]) -> Value {
    let board = parse_board(rows);
    let legal: Vec<String> = (0..board.len())
        .flat_map(|r| (0..board[r].len()).map(move |c| (r, c)))
        .filter(|&(r, c)| board[r][c] == ".")
        .map(|(r, c)| cell(r, c))
        .collect();
    let count = |p: &str| board.iter().flatten().filter(|c| *c == p).count() as u64;
    let discs = json!({"discs": {"white": 20 - count("w"), "black": 20 - count("b")}});
    turn(id, &qango6_info(), &board, &legal, discs)
}

/// Quinque, white to move with supply left and no triple: places, doubles,
/// triples, and captures of black singles with each white double.
fn quinque_turn(id: &str, rows: &[&str]) -> Value {
    let board = parse_board(rows);
    let mut legal = Vec::new();
    let mut white_doubles = Vec::new();
    for (r, row) in board.iter().enumerate() {
        for (c, text) in row.iter().enumerate() {
            match text.as_str() {
                "." => legal.push(format!("place {}", cell(r, c))),
                "w1" => legal.push(format!("double {}", cell(r, c))),
                "w2" => {
                    white_doubles.push(cell(r, c));
                    if cell(r, c) != "c3" {
                        legal.push(format!("triple {}", cell(r, c)));
                    }
                }
                _ => {}
            }
        }
    }
    for (r, row) in board.iter().enumerate() {
        for (c, text) in row.iter().enumerate() {
            if text == "b1" {
                for d in &white_doubles {
                    legal.push(format!("capture {} {d}", cell(r, c)));
                }
            }
        }
    }
    let extra = json!({"supply": {"white": 10, "black": 10}, "locked": null});
    turn(id, &quinque_info(), &board, &legal, extra)
}

fn legal_moves(turn: &Value) -> Vec<String> {
    serde_json::from_value(turn["legal_moves"].clone()).unwrap()
}

#[test]
fn every_starter_plays_legal_moves_in_both_families_and_exits_on_quit() {
    for (program, script) in STARTERS {
        let mut bot = Bot::start(program, script);
        bot.handshake();
        bot.send(&json!({"type": "from_the_future", "x": [1, 2]}));

        let example = example_messages();
        let qango_turn = example.iter().find(|m| m["type"] == "turn").unwrap();
        bot.send(&new_game("g1", &qango6_info()));
        let mv = bot.move_for(qango_turn);
        assert!(legal_moves(qango_turn).contains(&mv), "{script}: {mv}");

        let quinque = quinque_turn(
            "g2",
            &[
                "w2 . . . .",
                ". b1 . . .",
                ". . . w1 .",
                ". . b1 . .",
                ". . . . .",
            ],
        );
        bot.send(&new_game("g2", &quinque_info()));
        let mv = bot.move_for(&quinque);
        assert!(legal_moves(&quinque).contains(&mv), "{script}: {mv}");
        bot.send(
            &json!({"type": "game_over", "game_id": "g2", "result": "1/2-1/2",
                         "winner": null, "reason": "ply_cap", "cells": [], "message": ""}),
        );

        bot.send(&json!({"type": "quit"}));
        bot.expect_exit("quit");
    }
}

#[test]
fn every_starter_exits_at_end_of_input() {
    for (program, script) in STARTERS {
        let mut bot = Bot::start(program, script);
        bot.handshake();
        bot.stdin = None; // closes the pipe
        bot.expect_exit("end of input");
    }
}

/// Asks the greedy bot for a move in `turn` three times (in fresh games, so
/// its random tie-breaks differ) and checks every answer is one of `expected`.
fn greedy_always_plays(info: &Value, turn: &Value, expected: &[&str]) {
    let mut bot = Bot::start("python3", "bots/python/greedy_bot.py");
    bot.handshake();
    for game in 0..3 {
        let id = format!("t{game}");
        bot.send(&new_game(&id, info));
        let mut turn = turn.clone();
        turn["game_id"] = json!(id);
        let mv = bot.move_for(&turn);
        assert!(
            expected.contains(&mv.as_str()),
            "played {mv}, expected one of {expected:?}"
        );
    }
}

#[test]
fn greedy_completes_a_qango_square() {
    let turn = qango_turn(
        "q",
        &[
            "b . . . . .",
            ". . . . . .",
            ". . w w . .",
            ". . w . . .",
            ". . . . . .",
            "b . . . . b",
        ],
    );
    greedy_always_plays(&qango6_info(), &turn, &["d4"]);
}

#[test]
fn greedy_blocks_a_qango_group() {
    // Black holds a1 b1 of the red corner group a1 b1 a2.
    let turn = qango_turn(
        "q",
        &[
            "b b . . . .",
            ". . . . . .",
            ". . w . . .",
            ". . . . . .",
            ". . . . . w",
            ". . . . . .",
        ],
    );
    greedy_always_plays(&qango6_info(), &turn, &["a2"]);
}

#[test]
fn greedy_completes_a_quinque_line() {
    let turn = quinque_turn(
        "k",
        &[
            "w1 w1 w1 w1 .",
            ". b1 . . .",
            ". . b1 . .",
            ". . . b1 .",
            ". . . . .",
        ],
    );
    greedy_always_plays(&quinque_info(), &turn, &["place e1"]);
}

#[test]
fn greedy_blocks_a_quinque_line_by_placing_or_capturing() {
    // Black needs only e5; white can fill it or capture a black single of
    // row 5 with its double at a1.
    let turn = quinque_turn(
        "k",
        &[
            "w2 . . . .",
            ". . . . .",
            ". . w1 . .",
            ". . . . .",
            "b1 b1 b1 b1 .",
        ],
    );
    let blocks = [
        "place e5",
        "capture a5 a1",
        "capture b5 a1",
        "capture c5 a1",
        "capture d5 a1",
    ];
    greedy_always_plays(&quinque_info(), &turn, &blocks);
}
