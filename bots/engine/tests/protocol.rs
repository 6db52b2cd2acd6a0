//! Protocol round trips against the built `arena-engine` binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use arena_rules::games::{Position, Variant};
use serde_json::{json, Value};

const ENGINE: &str = env!("CARGO_BIN_EXE_arena-engine");

/// A running engine with a line reader that cannot hang the test.
struct Engine {
    child: Child,
    /// `None` once closed, to test the exit on end of input.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(ENGINE)
            .args(args)
            // No settled table: the tests must not read or fill the user's cache.
            .env("ARENA_TABLE_DIR", "off")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start arena-engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().unwrap();
    }

    fn send_json(&mut self, value: Value) {
        self.send(&value.to_string());
    }

    fn read(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(10))
            .expect("engine answered within 10 s");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line}: {e}"))
    }

    fn expect_silence(&self) {
        if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(300)) {
            panic!("unexpected output: {line}");
        }
    }

    /// Waits for the process to exit on its own.
    fn exit_status(mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                self.child.kill().ok();
                panic!("engine did not exit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

fn hello() -> Value {
    json!({"type": "hello", "protocol": 1, "referee": "arena 0.1.0"})
}

fn new_game(variant: &str, color: &str, tc: Value) -> Value {
    json!({"type": "new_game", "game_id": "g1",
           "variant": Variant::by_id(variant).unwrap().info_json(),
           "color": color, "opponent": "test", "time_control": tc})
}

/// A turn message exactly as the referee builds it, from `history`.
fn turn(variant: &str, history: &[&str], clock: Value) -> Value {
    let mut pos = Position::new(Variant::by_id(variant).unwrap());
    for m in history {
        pos.play_str(m).unwrap();
    }
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    json!({"type": "turn", "game_id": "g1", "variant": variant,
           "color": pos.to_move().name(), "ply": pos.ply(), "state": pos.state_json(),
           "history": history, "legal_moves": legal, "clock": clock})
}

fn per_move_clock(ms: u64) -> Value {
    json!({"white_ms": null, "black_ms": null, "move_ms": ms})
}

/// Asserts `answer` is a legal move after `history`.
fn assert_legal(variant: &str, history: &[&str], answer: &Value) {
    assert_eq!(answer["type"], "move", "{answer}");
    let mv = answer["move"].as_str().expect("move is a string");
    let mut pos = Position::new(Variant::by_id(variant).unwrap());
    for m in history {
        pos.play_str(m).unwrap();
    }
    pos.play_str(mv)
        .unwrap_or_else(|e| panic!("{mv} is illegal: {e}"));
}

#[test]
fn answers_hello_and_a_qango_turn_then_quits() {
    let mut engine = Engine::start(&["--depth", "3", "--seed", "9"]);
    engine.send_json(hello());
    let ready = engine.read();
    assert_eq!(ready["type"], "ready");
    assert_eq!(ready["name"], "engine-d3");
    assert_eq!(ready["protocol"], 1);

    engine.send_json(new_game(
        "qango6",
        "black",
        json!({"type": "per_move", "move_ms": 1000}),
    ));
    engine.send(r#"{"type":"future_message","x":1}"#);
    engine.send("this is not json");
    engine.expect_silence();

    // White threatens a2 (a1 b1 of the red corner group): black must block.
    let history = ["a1", "d3", "b1"];
    engine.send_json(turn("qango6", &history, per_move_clock(1000)));
    let answer = engine.read();
    assert_legal("qango6", &history, &answer);
    assert_eq!(answer["move"], "a2");

    engine.send_json(
        json!({"type": "game_over", "game_id": "g1", "result": "1-0",
        "winner": "white", "reason": "group", "cells": ["a1", "b1", "a2"], "message": ""}),
    );
    engine.send_json(json!({"type": "quit"}));
    let status = engine.exit_status();
    assert!(status.success(), "{status:?}");
}

#[test]
fn plays_quinque_under_a_clock_and_exits_on_eof() {
    let mut engine = Engine::start(&["--movetime", "50"]);
    engine.send_json(hello());
    assert_eq!(engine.read()["name"], "engine-50ms");
    engine.send_json(new_game(
        "quinque",
        "white",
        json!({"type": "clock", "base_ms": 10000, "increment_ms": 100}),
    ));
    let mut history: Vec<String> = Vec::new();
    // Alternate engine moves with fixed replies for a few plies.
    for reply in ["place a5", "place e5", "place e1"] {
        let refs: Vec<&str> = history.iter().map(String::as_str).collect();
        engine.send_json(turn(
            "quinque",
            &refs,
            json!({"white_ms": 9000, "black_ms": 9000, "move_ms": 9000}),
        ));
        let answer = engine.read();
        assert_legal("quinque", &refs, &answer);
        history.push(answer["move"].as_str().unwrap().to_string());
        let mut pos = Position::new(Variant::by_id("quinque").unwrap());
        for m in &history {
            pos.play_str(m).unwrap();
        }
        let reply = if pos.clone().play_str(reply).is_ok() {
            reply.to_string()
        } else {
            pos.legal_moves()[0].to_string()
        };
        history.push(reply);
    }
    engine.stdin = None; // end of input, no quit
    assert!(engine.exit_status().success());
}

#[test]
fn answers_well_inside_a_short_move_limit() {
    // Default strength (100 ms cap) but the referee allows only 400 ms: the
    // engine plans for 400 / 4 - 5 ms and must answer well before the limit
    // (the rest is slack for a loaded test machine).
    let mut engine = Engine::start(&[]);
    engine.send_json(hello());
    assert_eq!(engine.read()["name"], "engine-100ms");
    let history = ["d4"];
    let started = Instant::now();
    engine.send_json(turn("qango7", &history, per_move_clock(400)));
    let answer = engine.read();
    let took = started.elapsed();
    assert_legal("qango7", &history, &answer);
    assert!(took < Duration::from_millis(400), "took {took:?}");
    engine.send_json(json!({"type": "quit"}));
    assert!(engine.exit_status().success());
}

#[test]
fn falls_back_to_a_listed_move_when_the_history_is_illegal() {
    let mut engine = Engine::start(&["--depth", "2"]);
    engine.send_json(hello());
    engine.read();
    let mut bad = turn("qango6", &[], per_move_clock(1000));
    bad["history"] = json!(["a1", "a1"]);
    bad["legal_moves"] = json!(["f6", "e6"]);
    engine.send_json(bad);
    assert_eq!(engine.read()["move"], "f6");
    engine.send_json(json!({"type": "quit"}));
    assert!(engine.exit_status().success());
}
