//! `arena serve`: its memory over directories of 1,000 and 100,000 games,
//! and a tournament's throughput with 20 live pages open on it against
//! none.
//!
//! Run: `cargo bench --bench serve`.
//!
//! 1. Memory: a real round robin of 5 instant bots (200 games) is played
//!    once, and its games.jsonl copied row by row (new ids) into
//!    directories of N games (`ARENA_BENCH_SERVE_GAMES=N1,N2,...`, default
//!    1,000 and 100,000) under the bench's temporary directory, beside its
//!    tournament.json. `arena serve DIR --port 0` (the release binary, a
//!    child) is started on each; the time to its first page (the first
//!    rendering, polled on `_live/status`), the page's size, and the
//!    child's resident memory after the page was fetched twice (`VmRSS`)
//!    and at its peak (`VmHWM`); and what an update sends a page that has
//!    every game but the last (`_live/update?from=N-1`).
//! 2. Throughput: a round robin of 5 instant bots, Qango 6, `-j 2`,
//!    `ARENA_BENCH_SERVE_TOURNAMENT` games (default 10,000), alone and with
//!    `arena serve` on its directory and 20 clients that each do what a
//!    live page does (hold `_live/events` open and, at every new version,
//!    fetch `_live/update?from=N`: the page without the N games it has), alternately (which goes first alternates too),
//!    `ARENA_BENCH_SERVE_RUNS` times each (default 3): games per second of
//!    each run, and the median of each. `ARENA_BENCH_SERVE_RUNS=0` skips it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "support/live_page.rs"]
mod live_page;
#[path = "support/measure.rs"]
mod measure;
use live_page::games_after_update;
use measure::{env_or, median};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");
const CLIENTS: usize = 20;

/// Writes a round robin of 5 instant bots, `-j 2`, into `out`.
fn tournament(out: &Path, games: usize) -> Duration {
    let mut args: Vec<String> = vec!["tournament".into()];
    for name in ["a", "b", "c", "d", "e"] {
        args.push("--bot".into());
        args.push(format!("{name}={INSTANT_BOT}"));
    }
    // 10 pairings of 5 bots.
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
    let started = Instant::now();
    let status = Command::new(ARENA)
        .args(&args)
        .stdout(Stdio::null())
        .status()
        .expect("run arena tournament");
    assert!(status.success(), "arena tournament failed");
    started.elapsed()
}

/// A started `arena serve` and its address.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(dir: &Path) -> Server {
        let mut child = Command::new(ARENA)
            .args(["serve", dir.to_str().unwrap(), "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start arena serve");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let addr = first
            .trim()
            .trim_start_matches("Serving http://")
            .trim_end_matches('/')
            .parse()
            .expect("the address");
        Server { child, addr }
    }

    fn rss_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("a memory line")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `GET path` on its own connection: the answer's bytes.
fn get(addr: SocketAddr, path: &str) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    answer
}

/// The status's version (0 before the first page).
fn version(addr: SocketAddr) -> u64 {
    let answer = String::from_utf8(get(addr, "/_live/status")).unwrap();
    let json = answer.split_once("\r\n\r\n").unwrap().1;
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["version"].as_u64().unwrap()
}

/// `dir` with `games` games: the seed run's records, again and again, each
/// with a new id.
fn copy_games(seed: &Path, dir: &Path, games: u64) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::copy(seed.join("tournament.json"), dir.join("tournament.json")).unwrap();
    let text = std::fs::read_to_string(seed.join("games.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("games.jsonl")).unwrap());
    for id in 0..games {
        let mut record = records[id as usize % records.len()].clone();
        record["game_id"] = serde_json::json!(format!("g{id}"));
        record["pair"] = serde_json::json!(id / 2);
        serde_json::to_writer(&mut out, &record).unwrap();
        out.write_all(b"\n").unwrap();
    }
    out.flush().unwrap();
}

fn memory(root: &Path) {
    let seed = root.join("seed");
    if !seed.join("games.jsonl").exists() {
        let _ = std::fs::remove_dir_all(&seed);
        tournament(&seed, 200);
    }
    println!("memory of arena serve (release), one directory of N games copied from a real run");
    println!(
        "  {:>7}  {:>11}  {:>9}  {:>13}  {:>9}  {:>9}",
        "games", "first page", "page", "update, 1 new", "RSS", "peak RSS"
    );
    for games in env_or("ARENA_BENCH_SERVE_GAMES", "1000,100000".to_string()).split(',') {
        let games: u64 = games
            .trim()
            .parse()
            .expect("ARENA_BENCH_SERVE_GAMES: numbers");
        let dir = root.join(format!("games-{games}"));
        if !dir.join("games.jsonl").exists() {
            copy_games(&seed, &dir, games);
        }
        let started = Instant::now();
        let server = Server::start(&dir);
        while version(server.addr) == 0 {
            std::thread::sleep(Duration::from_millis(20));
        }
        let first = started.elapsed();
        let page = get(server.addr, "/").len();
        get(server.addr, "/_live/page");
        // What a page that has all games but the last is sent.
        let update = get(server.addr, &format!("/_live/update?from={}", games - 1)).len();
        println!(
            "  {games:>7}  {:>9.2} s  {:>6.1} MB  {:>10.0} kB  {:>5} MiB  {:>5} MiB",
            first.as_secs_f64(),
            page as f64 / 1e6,
            update as f64 / 1e3,
            server.rss_kib("VmRSS:") / 1024,
            server.rss_kib("VmHWM:") / 1024
        );
    }
}

/// What a live page does at a new version: fetch the page without the
/// `have` games it has; the games it has then.
fn update(addr: SocketAddr, have: usize) -> usize {
    games_after_update(&get(addr, &format!("/_live/update?from={have}")))
}

/// 20 clients doing what live pages do, until `stop`; the pages fetched.
fn clients(
    addr: SocketAddr,
    stop: &Arc<AtomicBool>,
) -> (Vec<std::thread::JoinHandle<()>>, Arc<AtomicU64>) {
    let fetched = Arc::new(AtomicU64::new(0));
    let handles = (0..CLIENTS)
        .map(|_| {
            let (stop, fetched) = (Arc::clone(stop), Arc::clone(&fetched));
            std::thread::spawn(move || {
                let mut events = TcpStream::connect(addr).unwrap();
                events
                    .set_read_timeout(Some(Duration::from_millis(100)))
                    .unwrap();
                write!(events, "GET /_live/events HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
                let (mut shown, mut have) = (0u64, 0usize);
                let mut buf = vec![0u8; 16 * 1024];
                while !stop.load(Ordering::Relaxed) {
                    let Ok(n) = events.read(&mut buf) else {
                        continue;
                    };
                    if n == 0 {
                        break;
                    }
                    let text = String::from_utf8_lossy(&buf[..n]);
                    let newest = text
                        .split("\"version\":")
                        .skip(1)
                        .filter_map(|t| t.split(',').next()?.parse::<u64>().ok())
                        .max()
                        .unwrap_or(0);
                    if newest > shown {
                        shown = newest;
                        have = update(addr, have);
                        fetched.fetch_add(1, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    (handles, fetched)
}

/// One run with `arena serve` and its clients on it: games per second.
fn watched_run(root: &Path, run: usize, games: usize) -> f64 {
    let out = root.join(format!("watched-{run}"));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let server = Server::start(&out);
    let stop = Arc::new(AtomicBool::new(false));
    let (handles, fetched) = clients(server.addr, &stop);
    std::thread::sleep(Duration::from_millis(300));
    let wall = tournament(&out, games);
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        let _ = h.join();
    }
    let rate = games as f64 / wall.as_secs_f64();
    println!(
        "  with {CLIENTS} live pages: {rate:>7.0} games/s ({} pages fetched)",
        fetched.load(Ordering::Relaxed)
    );
    rate
}

fn throughput(root: &Path) {
    let games: usize = env_or("ARENA_BENCH_SERVE_TOURNAMENT", 10_000);
    let runs: usize = env_or("ARENA_BENCH_SERVE_RUNS", 3);
    if runs == 0 {
        return;
    }
    println!(
        "throughput: round robin of 5 instant bots, qango6, -j 2, {games} games, alone and with \
         arena serve + {CLIENTS} live clients, alternately"
    );
    let (mut alone, mut watched) = (Vec::new(), Vec::new());
    for run in 0..runs {
        // Which goes first alternates, so that a drift of the host's speed
        // does not favour one.
        for watched_now in [run % 2 == 1, run % 2 == 0] {
            if watched_now {
                watched.push(watched_run(root, run, games));
            } else {
                let out = root.join(format!("alone-{run}"));
                let _ = std::fs::remove_dir_all(&out);
                let wall = tournament(&out, games);
                let rate = games as f64 / wall.as_secs_f64();
                println!("  alone:              {rate:>7.0} games/s");
                alone.push(rate);
            }
        }
    }
    let (a, w) = (median(&mut alone), median(&mut watched));
    println!(
        "  median: alone {a:.0} games/s, watched {w:.0} games/s ({:.2}x)",
        w / a
    );
}

fn main() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-bench");
    std::fs::create_dir_all(&root).unwrap();
    memory(&root);
    throughput(&root);
}
