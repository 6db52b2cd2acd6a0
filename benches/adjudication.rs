//! What adjudication by proof does to a tournament's throughput: a round
//! robin of two instant bots (`arena-instant-bot`), 2-ply random openings,
//! `-j 2`, with and without `--adjudicate solved` (default budget),
//! alternating, on Qango 6 (where the solver proves most positions at
//! once) and Quinque (where it proves little before the end).
//!
//! Run: `cargo bench --bench adjudication`. `ARENA_BENCH_ADJ_GAMES`
//! (default 400, even; Quinque plays a tenth of it: with adjudication most
//! of its positions spend the whole budget) and `ARENA_BENCH_ADJ_RUNS`
//! (default 3) change it.

use std::process::Command;
use std::time::Instant;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");

fn env_number(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Games per second of one run, and how many were adjudicated.
fn run(variant: &str, games: usize, adjudicate: bool) -> (f64, usize, f64) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut cmd = Command::new(ARENA);
    cmd.args([
        "tournament",
        "--no-progress",
        "-j",
        "2",
        "--opening-plies",
        "2",
    ])
    .args([
        "--variant",
        variant,
        "--games",
        &games.to_string(),
        "--seed",
        "1",
    ])
    .arg("--bot")
    .arg(format!("a={INSTANT_BOT}"))
    .arg("--bot")
    .arg(format!("b={INSTANT_BOT}"))
    .arg("--out")
    .arg(&out);
    if adjudicate {
        cmd.args(["--adjudicate", "solved"]);
    }
    let t = Instant::now();
    let status = cmd.output().expect("run arena");
    let secs = t.elapsed().as_secs_f64();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let journal = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let adjudicated = journal.matches("\"reason\":\"adjudicated\"").count();
    let plies: usize = journal
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["moves"].as_array().map_or(0, |m| m.len())
        })
        .sum();
    (
        games as f64 / secs,
        adjudicated,
        plies as f64 / games as f64,
    )
}

fn main() {
    let games = env_number("ARENA_BENCH_ADJ_GAMES", 400) / 2 * 2;
    let runs = env_number("ARENA_BENCH_ADJ_RUNS", 3);
    println!("{runs} runs each way, alternating");
    println!(
        "{:<10} {:<12} {:>10} {:>12} {:>12}",
        "variant", "adjudicate", "games/s", "adjudicated", "plies/game"
    );
    for (variant, games) in [("qango6", games), ("quinque", (games / 20).max(1) * 2)] {
        let mut rates = [Vec::new(), Vec::new()];
        for _ in 0..runs {
            for (i, adjudicate) in [false, true].into_iter().enumerate() {
                let (rate, adjudicated, plies) = run(variant, games, adjudicate);
                let word = if adjudicate { "solved" } else { "off" };
                println!("{variant:<10} {word:<12} {rate:>10.1} {adjudicated:>12} {plies:>12.1}");
                rates[i].push(rate);
            }
        }
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (off, on) = (median(&mut rates[0]), median(&mut rates[1]));
        println!(
            "{variant}, {games} games a run: median {off:.1} games/s off, {on:.1} with \
             adjudication: {:.2}x\n",
            on / off
        );
    }
}
