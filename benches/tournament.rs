//! Tournament throughput and the referee's memory, with instant bots.
//!
//! Run: `cargo bench --bench tournament`.
//!
//! Each measurement runs `arena tournament` (the same code path as the
//! command line: [`arena::cli::tournament::run`]) in a fresh child process
//! (this benchmark executable started again with `--child`), so that every
//! run starts cold and its peak RSS is its own:
//!
//! - throughput: a round-robin of 5 instant bots (`arena-instant-bot`),
//!   Qango 6 with 2-ply random openings, `-j 2`, games per second of wall
//!   time from starting the process to its exit: bot start-up (one process
//!   per bot and concurrent game slot, reused across games), every game,
//!   the journal and the final standings are all included;
//! - memory: the child's peak RSS (`VmHWM` in `/proc/self/status`, the
//!   referee process alone: bots are separate processes) for 1,000 and for
//!   10,000 games of the same tournament.
//!
//! `ARENA_BENCH_GAMES=N1,N2,...` replaces the list of tournament sizes
//! (games per run; multiples of 20).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");
const BOTS: usize = 5;
/// Pairings in a round-robin of `BOTS` bots.
const PAIRINGS: usize = BOTS * (BOTS - 1) / 2;
const DEFAULT_SIZES: &str = "1000,10000";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        let games: usize = args[2].parse().expect("games");
        let out = PathBuf::from(&args[3]);
        std::process::exit(child(games, &out));
    }
    let sizes: Vec<usize> = std::env::var("ARENA_BENCH_GAMES")
        .unwrap_or_else(|_| DEFAULT_SIZES.to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("ARENA_BENCH_GAMES: numbers"))
        .collect();
    println!(
        "tournament: round-robin of {BOTS} instant bots, qango6, -j 2, one fresh process per run"
    );
    println!(
        "  {:>7}  {:>9}  {:>10}  {:>13}  {:>14}",
        "games", "wall", "games/s", "peak RSS", "log files"
    );
    let mut results = Vec::new();
    for games in sizes {
        let run = parent(games);
        println!(
            "  {:>7}  {:>8.2}s  {:>10.0}  {:>10} KiB  {:>14}",
            games,
            run.wall.as_secs_f64(),
            games as f64 / run.wall.as_secs_f64(),
            run.peak_rss_kib,
            run.log_files
        );
        results.push((games, run));
    }
    if let [(small, a), .., (large, b)] = results.as_slice() {
        let growth = b.peak_rss_kib as f64 - a.peak_rss_kib as f64;
        println!(
            "  peak RSS {large} games - {small} games: {growth:+.0} KiB ({:+.3} KiB per extra game)",
            growth / (large - small) as f64
        );
    }
}

struct Run {
    wall: Duration,
    peak_rss_kib: u64,
    log_files: usize,
}

/// Starts this executable as `--child`, times it, reads what it reported.
fn parent(games: usize) -> Run {
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = dir.path().join("run");
    let exe = std::env::current_exe().expect("own executable");
    let began = Instant::now();
    let status = Command::new(exe)
        .arg("--child")
        .arg(games.to_string())
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("start the child run");
    let wall = began.elapsed();
    assert!(status.success(), "the child run failed: {status}");
    let report = std::fs::read_to_string(dir.path().join("peak_rss_kib")).expect("child report");
    let rows = count_lines(&out.join("games.csv")) - 1;
    assert_eq!(rows, games, "games.csv must hold every game");
    Run {
        wall,
        peak_rss_kib: report.trim().parse().expect("a number"),
        log_files: std::fs::read_dir(out.join("logs")).map_or(0, |d| d.count()),
    }
}

fn count_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .count()
}

/// The measured run: a whole tournament in this process, then its peak RSS
/// into `<out>/../peak_rss_kib`.
fn child(games: usize, out: &Path) -> i32 {
    assert!(
        games.is_multiple_of(2 * PAIRINGS),
        "games must be a multiple of {}",
        2 * PAIRINGS
    );
    let args = arena::cli::tournament::Args {
        run: arena::cli::run_flags::RunFlags {
            variant: Some("qango6".into()),
            tc: Some("per-move=1000".into()),
            concurrency: Some(2),
            seed: Some(1),
            out: Some(out.to_path_buf()),
            grace_ms: None,
            no_progress: true,
            sandbox: false,
            ..Default::default()
        },
        games: Some((games / PAIRINGS) as u32),
        opening_plies: Some(2),
        bots: (0..BOTS)
            .map(|i| format!("instant{i}={INSTANT_BOT}"))
            .collect(),
        ..Default::default()
    };
    let code = arena::cli::tournament::run(args).expect("tournament");
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .expect("VmHWM line")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .to_string();
    let report = out.parent().expect("parent").join("peak_rss_kib");
    std::fs::write(report, hwm).expect("write report");
    code
}
