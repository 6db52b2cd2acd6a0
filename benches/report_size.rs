//! report.html for big runs: its size, the time and peak memory of
//! `arena report DIR` (a child process, so its peak RSS is its own), and the
//! time Chromium takes to load the page and run its script, for 10,000 and
//! 100,000 games between 5 bots, and for round robins of 50, 100 and 200
//! bots (2 games per pairing: 2,450, 9,900 and 39,800 games).
//!
//! Run: `cargo bench --bench report_size` (`ARENA_BENCH_GAMES=N1,N2,...`
//! replaces the sizes of the 5-bot runs, `ARENA_BENCH_BOTS=B1,B2,...` the
//! fields of the round robins; `0` skips either). The games are synthetic
//! but real games: random playouts of qango6 by the rules engine in a round
//! robin, 2-ply openings, move times drawn at random under a 400 ms per-move
//! limit, written as `games.jsonl` and `games.csv` in the journal's format
//! under `target/tmp/report-bench-N` and `target/tmp/report-bench-bots-B`
//! (kept, so `arena report` can be tried on them). The page load is navigation start to the end of the load event
//! as the page measures it (`performance.timing`) in headless Chromium driven
//! by tests/browser/cdp.js (skipped without Chromium or Node).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use arena::games::{Color, Position, Variant};
use arena::protocol::{GameResult, Reason, TimeControl};
use arena::referee::record::record_with_result;
use arena::referee::GameRecord;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const FIVE: [&str; 5] = ["alpha", "beta", "gamma", "delta", "epsilon"];
const MOVE_MS: u64 = 400;

/// One random qango6 game between `white` and `black`.
fn random_game(rng: &mut SmallRng, id: u64, white: &str, black: &str) -> GameRecord {
    let variant = Variant::by_id("qango6").expect("qango6");
    let mut pos = Position::new(variant);
    let mut moves = Vec::new();
    let mut times = Vec::new();
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let m = legal[rng.gen_range(0..legal.len())];
        pos.play(&m).expect("a legal move");
        moves.push(m.to_string());
        times.push(if moves.len() <= 2 {
            0
        } else {
            rng.gen_range(1..MOVE_MS / 2)
        });
    }
    let outcome = pos.outcome().expect("the game is over");
    let result = match outcome.winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    let side_time = |side: usize| times.iter().skip(side).step_by(2).sum();
    let mut record = record_with_result(id, 0, white, black, result);
    (record.round, record.pair) = (None, None);
    record.time_control = TimeControl::PerMove { move_ms: MOVE_MS };
    record.opening = moves[..2].to_vec();
    record.plies = moves.len() as u32;
    record.move_times_ms = times.clone();
    record.moves = moves;
    record.reason = Reason::Rule(outcome.reason);
    record.message = format!("{result} by {}", outcome.reason);
    record.cells = outcome.cells.iter().map(|c| c.to_string()).collect();
    record.white_time_ms = side_time(0);
    record.black_time_ms = side_time(1);
    record.white_log = Some(PathBuf::from(format!("logs/g{id}-white-{white}.log")));
    record.duration_ms = 1000;
    record.ended_utc = "2026-12-01T00:00:00Z".to_string();
    record
}

/// Writes `games` synthetic games between `bots` (a round robin, 2 games
/// per pairing, over again) into `dir` (games.jsonl and games.csv).
fn write_games(dir: &Path, bots: &[String], games: u64) {
    std::fs::create_dir_all(dir).unwrap();
    let mut jsonl = BufWriter::new(std::fs::File::create(dir.join("games.jsonl")).unwrap());
    let mut csv = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_path(dir.join("games.csv"))
        .unwrap();
    let mut rng = SmallRng::seed_from_u64(games);
    let pairings: Vec<(usize, usize)> = (0..bots.len())
        .flat_map(|a| (a + 1..bots.len()).map(move |b| (a, b)))
        .collect();
    for id in 0..games {
        let (a, b) = pairings[(id / 2) as usize % pairings.len()];
        let (white, black) = if id % 2 == 0 { (a, b) } else { (b, a) };
        let mut record = random_game(&mut rng, id, &bots[white], &bots[black]);
        record.set_place(id, id / 2 / pairings.len() as u64, id / 2);
        serde_json::to_writer(&mut jsonl, &record).unwrap();
        jsonl.write_all(b"\n").unwrap();
        csv.serialize(record.to_games_row()).unwrap();
    }
    jsonl.flush().unwrap();
    csv.flush().unwrap();
}

/// Wall time and peak RSS (KiB) of `command`, which must succeed.
// The child is reaped by wait4 (which also gives its own peak RSS), not by
// `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measure(command: &mut Command) -> (Duration, i64) {
    let start = Instant::now();
    let child = command.spawn().expect("start the child");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet waited for; both pointers point to
    // live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed();
    assert_eq!(waited, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "the child failed: {command:?}"
    );
    (elapsed, usage.ru_maxrss)
}

/// Milliseconds from navigation start to the end of the load event (the
/// page's script has run: list and filters built), as the page itself
/// measures them in Chromium driven by tests/browser/cdp.js. (`--dump-dom`
/// wall time would mostly measure printing the 30 MB DOM.)
fn chromium_load(chrome: &Path, profile: &Path, url: &str) -> Option<f64> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/cdp.js");
    let steps =
        r#"[{"eval": "performance.timing.loadEventEnd - performance.timing.navigationStart"}]"#;
    let out = Command::new("node")
        .arg(script)
        .arg(chrome)
        .arg(profile)
        .arg(url)
        .arg(steps)
        .output()
        .ok()?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    assert_eq!(v["errors"], serde_json::json!([]), "errors in the page");
    v["results"][0].as_f64()
}

/// The numbers of `ARENA_BENCH_<name>` (comma separated), or `default`.
fn sizes(name: &str, default: &str) -> Vec<u64> {
    std::env::var(format!("ARENA_BENCH_{name}"))
        .unwrap_or_else(|_| default.into())
        .split(',')
        .map(|n| n.trim().parse().expect("ARENA_BENCH_*: numbers"))
        .filter(|&n| n > 0)
        .collect()
}

/// Writes the report of `dir` (its games written by `write` when missing)
/// and prints its line: size, generation, peak memory, load in Chromium.
fn measure_report(
    label: &str,
    dir: &Path,
    chrome: Option<&PathBuf>,
    profile: &Path,
    write: impl FnOnce(&Path),
) {
    if !dir.join("games.csv").exists() {
        write(dir);
    }
    let (took, peak_kib) = measure(
        Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg("report")
            .arg(dir)
            .stdout(std::process::Stdio::null()),
    );
    let page = dir.join("report.html");
    let bytes = std::fs::metadata(&page).unwrap().len();
    // The best of three loads: the machine is shared and the first load
    // of a fresh profile pays Chromium's own start-up.
    let url = format!("file://{}", page.display());
    let load = chrome.and_then(|chrome| {
        (0..3)
            .filter_map(|_| chromium_load(chrome, profile, &url))
            .min_by(f64::total_cmp)
    });
    println!(
        "{label:>18}  {:>8.1} MB  {:>8.2} s  {:>5.0} MiB  {}",
        bytes as f64 / 1e6,
        took.as_secs_f64(),
        peak_kib as f64 / 1024.0,
        load.map_or("skipped (no chromium or node)".to_string(), |ms| format!(
            "{:.2} s",
            ms / 1000.0
        )),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is understood.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/tmp");
    let chrome = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    let profile = root.join("report-bench-profile");
    std::fs::create_dir_all(&root).unwrap();
    println!("             games  report.html  generation  peak RSS   load in Chromium");
    let five: Vec<String> = FIVE.iter().map(|b| b.to_string()).collect();
    for games in sizes("GAMES", "10000,100000") {
        let dir = root.join(format!("report-bench-{games}"));
        let label = format!("{games}, 5 bots");
        measure_report(&label, &dir, chrome.as_ref(), &profile, |dir| {
            write_games(dir, &five, games)
        });
    }
    for bots in sizes("BOTS", "50,100,200") {
        let dir = root.join(format!("report-bench-bots-{bots}"));
        let names: Vec<String> = (0..bots).map(|k| format!("bot{k:03}")).collect();
        let games = bots * (bots - 1);
        let label = format!("{games}, {bots} bots");
        measure_report(&label, &dir, chrome.as_ref(), &profile, |dir| {
            write_games(dir, &names, games)
        });
    }
}
