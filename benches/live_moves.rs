//! What publishing the games in progress (`--serve`) costs: per ply in the
//! table itself, and on a tournament's throughput.
//!
//! Run: `cargo bench --bench live_moves`.
//!
//! 1. Per ply: `LiveGames` with one subscriber (as the server holds),
//!    `ARENA_BENCH_LIVE_GAMES` games (default 100,000) of 36 plies each
//!    begun, moved and ended one after the other: nanoseconds per ply
//!    (a move's publication; the begin and end spread over its plies).
//! 2. Throughput: a round robin of 5 instant bots, Qango 6, `-j 2`,
//!    `ARENA_BENCH_LIVE_TOURNAMENT` games (default 4,000), without
//!    `--serve` and with `--serve 0` and one live page holding
//!    `_live/events` open (so every move is published and sent as `games`
//!    events), alternately (which goes first alternates too),
//!    `ARENA_BENCH_LIVE_RUNS` times each (default 3): games per second of
//!    each run, and the median of each.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena::tournament::live::{LiveGame, LiveGames};

#[path = "support/measure.rs"]
mod measure;
use measure::{env_or, median};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");
const PLIES: usize = 36;

fn per_ply() {
    let games = env_or("ARENA_BENCH_LIVE_GAMES", 100_000usize);
    let live = LiveGames::new();
    let _server = live.subscribe();
    let cells: Vec<String> = (0..PLIES)
        .map(|i| format!("{}{}", (b'a' + (i % 6) as u8) as char, i / 6 + 1))
        .collect();
    let started = Instant::now();
    for id in 0..games as u64 {
        let playing = live.begin(LiveGame {
            id,
            game: "qango6".into(),
            family: "qango",
            rows: 6,
            cols: 6,
            white: "a".into(),
            black: "b".into(),
            moves: Vec::new(),
            opening: 0,
        });
        for cell in &cells {
            playing.moved(cell);
        }
    }
    let ns = started.elapsed().as_nanos() as f64 / (games * PLIES) as f64;
    println!("per ply: {games} games of {PLIES} plies: {ns:.0} ns a ply");
}

/// A tournament: its wall time, and how many `games` events a live page
/// holding `_live/events` open heard (`None`: not served).
fn tournament(out: &Path, games: usize, serve: bool) -> (Duration, Option<u64>) {
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["a", "b", "c", "d", "e"] {
        args.push("--bot".into());
        args.push(format!("{name}={INSTANT_BOT}"));
    }
    let per_pairing = (games / 20).max(1) * 2;
    for a in [
        "--games",
        &per_pairing.to_string(),
        "--opening-plies",
        "2",
        "-j",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--no-progress",
    ] {
        args.push(a.to_string());
    }
    if serve {
        args.extend(["--serve".into(), "0".into()]);
    }
    let started = Instant::now();
    let mut child = Command::new(ARENA)
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("run arena tournament");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let events = Arc::new(AtomicU64::new(0));
    if serve {
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        let addr = first
            .trim_end()
            .strip_prefix("Serving http://")
            .and_then(|a| a.strip_suffix('/'))
            .expect("the Serving line")
            .to_string();
        let heard = Arc::clone(&events);
        std::thread::spawn(move || {
            let mut stream = TcpStream::connect(addr).unwrap();
            write!(stream, "GET /_live/events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { return };
                if line == "event: games" {
                    heard.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
    }
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    assert!(child.wait().unwrap().success(), "arena tournament failed");
    let wall = started.elapsed();
    (wall, serve.then(|| events.load(Ordering::Relaxed)))
}

fn throughput(root: &Path) {
    let games = env_or("ARENA_BENCH_LIVE_TOURNAMENT", 4000usize);
    let runs = env_or("ARENA_BENCH_LIVE_RUNS", 3usize);
    if runs == 0 {
        return;
    }
    println!(
        "throughput: round robin of 5 instant bots, qango6, -j 2, {games} games, without \
         --serve and with --serve and one live page, alternately"
    );
    let (mut alone, mut served) = (Vec::new(), Vec::new());
    for run in 0..runs {
        for serve in [run % 2 == 1, run % 2 == 0] {
            let out = root.join(format!("run-{run}-{serve}"));
            let _ = std::fs::remove_dir_all(&out);
            let (wall, events) = tournament(&out, games, serve);
            let rate = games as f64 / wall.as_secs_f64();
            match events {
                Some(n) => {
                    println!("  --serve, one page: {rate:>7.0} games/s ({n} games events)");
                    served.push(rate);
                }
                None => {
                    println!("  without --serve:   {rate:>7.0} games/s");
                    alone.push(rate);
                }
            }
        }
    }
    let (a, s) = (median(&mut alone), median(&mut served));
    println!(
        "  median: without {a:.0} games/s, served {s:.0} games/s ({:.2}x)",
        s / a
    );
}

fn main() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("live-moves-bench");
    std::fs::create_dir_all(&root).unwrap();
    per_ply();
    throughput(&root);
}
