//! Wire traces: `arena play --trace DIR` and `trace = true` for a
//! tournament bot write every line exchanged with the bot, in order, with
//! its direction and a millisecond timestamp; the game record names the
//! file. Checked against the game's own record (its moves) and the protocol
//! (hello, ready, new_game, a turn before each move, game_over, quit).

use crate::common;

use std::path::Path;

use common::tournament::{jsonl_records, repo_path, run_arena, run_tournament, text};

/// (ms, direction, JSON) of each line of a trace file.
fn read_trace(path: &Path) -> Vec<(u64, char, serde_json::Value)> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.contains(" # "))
        .map(|line| {
            let mut parts = line.trim_start().splitn(3, ' ');
            let ms = parts.next().unwrap().parse().unwrap();
            let direction = parts.next().unwrap().chars().next().unwrap();
            let json = serde_json::from_str(parts.next().unwrap()).unwrap();
            (ms, direction, json)
        })
        .collect()
}

/// The trace of the bot playing `color` holds the whole conversation of the
/// game in `record`, in order.
fn assert_trace_matches(trace: &Path, record: &serde_json::Value, color: &str) {
    let lines = read_trace(trace);
    let times: Vec<u64> = lines.iter().map(|l| l.0).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    let kinds: Vec<(char, &str)> = lines
        .iter()
        .map(|(_, d, j)| (*d, j["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        &kinds[..3],
        &[('>', "hello"), ('<', "ready"), ('>', "new_game")]
    );
    assert_eq!(lines[2].2["color"], color);
    let own_moves: Vec<&str> = lines
        .iter()
        .filter(|(_, d, _)| *d == '<')
        .skip(1)
        .map(|(_, _, j)| j["move"].as_str().unwrap())
        .collect();
    let opening = record["opening"].as_array().unwrap().len();
    let first = if color == "white" { 0 } else { 1 };
    let expected: Vec<&str> = record["moves"].as_array().unwrap()[opening..]
        .iter()
        .enumerate()
        .filter(|(i, _)| (opening + i) % 2 == first)
        .map(|(_, m)| m.as_str().unwrap())
        .collect();
    assert_eq!(own_moves, expected, "every move of the bot, in order");
    // Each move answers the turn just before it.
    for (i, (_, d, j)) in lines.iter().enumerate().skip(3) {
        if *d == '<' {
            assert_eq!(lines[i - 1].2["type"], "turn", "line {i}");
            let legal = lines[i - 1].2["legal_moves"].as_array().unwrap();
            assert!(legal.contains(&j["move"]), "line {i}");
        }
    }
    assert!(
        kinds.contains(&('>', "game_over")),
        "game_over is traced: {kinds:?}"
    );
}

fn good_bot() -> String {
    format!("python3 {}", repo_path("tests/bots/good_bot.py").display())
}

#[test]
fn play_trace_holds_every_line_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("traces");
    let record_path = dir.path().join("game.json");
    let out = run_arena(&[
        "play",
        "qango6",
        &good_bot(),
        &good_bot(),
        "--quiet",
        "--trace",
        traces.to_str().unwrap(),
        "--record",
        record_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    for color in ["white", "black"] {
        let trace = record[format!("{color}_trace")].as_str().unwrap();
        assert!(Path::new(trace).starts_with(&traces), "{trace}");
        assert_trace_matches(Path::new(trace), &record, color);
        let kinds: Vec<String> = read_trace(Path::new(trace))
            .iter()
            .map(|l| l.2["type"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(kinds.last().map(String::as_str), Some("quit"), "{kinds:?}");
    }
}

#[test]
fn tournament_traces_only_the_bots_that_ask() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("t.toml");
    let bot = |name: &str, trace: bool| {
        format!(
            "\n[[bot]]\nname = {name:?}\ncommand = {:?}\ntrace = {trace}\n",
            good_bot()
        )
    };
    std::fs::write(
        &config,
        format!(
            "[tournament]\nvariant = \"qango6\"\ngames_per_pairing = 2\nopening_plies = 2\n{}{}",
            bot("traced", true),
            bot("quiet", false)
        ),
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    let out = run_tournament(&config, &out_dir);
    assert!(out.status.success(), "{}", text(&out));
    let records = jsonl_records(&out_dir);
    assert_eq!(records.len(), 2);
    for record in &records {
        let color = if record["white"] == "traced" {
            "white"
        } else {
            "black"
        };
        let other = if color == "white" { "black" } else { "white" };
        assert!(record.get(format!("{other}_trace")).is_none(), "{record}");
        let trace = record[format!("{color}_trace")].as_str().unwrap();
        // Next to the logs (the bot writes no stderr, so it has no log file).
        assert!(
            Path::new(trace).parent().unwrap().ends_with("logs"),
            "{trace}"
        );
        let trace = if Path::new(trace).is_absolute() {
            Path::new(trace).to_path_buf()
        } else {
            out_dir.join(trace)
        };
        assert_trace_matches(&trace, record, color);
    }
}
