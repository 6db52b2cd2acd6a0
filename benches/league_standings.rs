//! `arena league standings` of synthetic leagues: wall time and peak memory
//! at 10,000, 100,000 and 1,000,000 games (the bound: under 2 s at
//! 1,000,000 on the project machine).
//!
//! Run: `cargo bench --bench league_standings` (`ARENA_BENCH_LEAGUE_GAMES=N1,N2,...`
//! replaces the sizes; `ARENA_BENCH_LEAGUE_RUNS=K` the runs per size, 3 by
//! default, of which the median is shown; `ARENA_BENCH_LEAGUE_KEEP=true`
//! keeps the last league, e.g. to profile `arena league standings` on it).
//!
//! For each size the bench writes a league under `target/tmp` as arena
//! would: `league.toml`, `bots.jsonl` with 20 bots of 3 versions each, and
//! `games.csv` with the games, each between two versions drawn at random
//! (seeded), in colour-swapped pairs, with a plausible result and the
//! columns a played game has (`games.jsonl` stays empty: the standings
//! read `games.csv` only, and a million records would be 650 MB). Then it
//! runs the `arena` binary built with the bench, `arena league standings
//! DIR` (a fresh process: reading the registry and `games.csv` into a
//! tally, the joint fit of the 60 versions, the terminal table, and
//! `standings.csv` and `versions.csv` written), and measures its wall time
//! and its peak RSS (`ru_maxrss` from `wait4`).

use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use arena::games::GameResult;
use arena::referee::row::row_with_result;
use arena::referee::BotSpec;
use arena::tournament::journal::{csv_header, format_row};
use arena::tournament::league::registry::{label, Registry};
use arena::tournament::league::{settings_text, League};

#[path = "support/measure.rs"]
mod measure;
use measure::{env_or, median};

const DEFAULT_SIZES: &str = "10000,100000,1000000";
const BOTS: usize = 20;
const VERSIONS: u32 = 3;

fn main() {
    let sizes: Vec<u64> = std::env::var("ARENA_BENCH_LEAGUE_GAMES")
        .unwrap_or_else(|_| DEFAULT_SIZES.to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("ARENA_BENCH_LEAGUE_GAMES: numbers"))
        .collect();
    let runs: usize = env_or("ARENA_BENCH_LEAGUE_RUNS", 3);
    let keep: bool = env_or("ARENA_BENCH_LEAGUE_KEEP", false);
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-bench");
    println!(
        "league standings: {BOTS} bots x {VERSIONS} versions, one fresh `arena league standings` \
         process per run, median of {runs}; files in {}",
        root.display()
    );
    println!(
        "  {:>9}  {:>9}  {:>9}  {:>11}  {:>13}",
        "games", "games.csv", "time", "games/s", "peak RSS"
    );
    for games in sizes {
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let league = root.join("league");
        write_league(&league, games);
        let csv_bytes = std::fs::metadata(league.join("games.csv")).unwrap().len();
        let (mut times, mut peaks): (Vec<f64>, Vec<u64>) =
            (0..runs).map(|_| standings(&league)).unzip();
        let (time, peak) = (median(&mut times), median(&mut peaks));
        println!(
            "  {:>9}  {:>6} MB  {:>8.3}s  {:>11.0}  {:>9} KiB",
            games,
            csv_bytes >> 20,
            time,
            games as f64 / time,
            peak
        );
        if !keep {
            let _ = std::fs::remove_dir_all(&root);
        }
    }
}

/// A league of `BOTS` x `VERSIONS` versions and `games` games.
fn write_league(dir: &Path, games: u64) {
    let league = League::init(dir, &settings_text(&["qango6".into()], None)).unwrap();
    let mut registry = Registry::default();
    let mut labels = Vec::new();
    for bot in 0..BOTS {
        for _ in 0..VERSIONS {
            let name = format!("bot{bot:02}");
            let spec = BotSpec::from_command_line(&name, "true").unwrap();
            let program = format!("{name}-{}", labels.len());
            labels.push(
                registry
                    .add_version(&league.registry_path(), spec, program)
                    .unwrap(),
            );
        }
    }
    assert_eq!(labels[0], label("bot00", 1));
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let file = std::fs::File::create(dir.join("games.csv")).unwrap();
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(csv_header().as_bytes()).unwrap();
    let (mut white, mut black) = (0, 1);
    for id in 0..games {
        if id % 2 == 0 {
            white = rng.gen_range(0..labels.len());
            black = (white + rng.gen_range(1..labels.len())) % labels.len();
        } else {
            std::mem::swap(&mut white, &mut black);
        }
        // The stronger version (a later one, a higher bot) wins more.
        let edge = (white as f64 - black as f64) / labels.len() as f64;
        let result = match rng.gen::<f64>() {
            x if x < 0.40 + 0.3 * edge => GameResult::WhiteWins,
            x if x < 0.55 + 0.2 * edge => GameResult::Draw,
            _ => GameResult::BlackWins,
        };
        let mut row = row_with_result(id, id / 2, &labels[white], &labels[black], result);
        row.plies = 20 + (id % 17) as u32;
        row.white_time_ms = 900 + id % 300;
        row.black_time_ms = 880 + id % 310;
        row.ended_utc = "2026-12-02T04:00:00Z".into();
        row.white_tc = "per-move=100".into();
        row.black_tc = "per-move=100".into();
        out.write_all(format_row(&row).unwrap().as_bytes()).unwrap();
    }
    out.flush().unwrap();
}

/// Runs `arena league standings DIR`: its wall time in seconds and peak
/// RSS in KiB. (The child is waited for with `wait4`, for its resource
/// usage, which `Child::wait` does not give.)
#[allow(clippy::zombie_processes)]
fn standings(league: &Path) -> (f64, u64) {
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["league", "standings"])
        .arg(league)
        .stdout(Stdio::null())
        .spawn()
        .expect("start arena");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our child's, not waited for yet; status and usage
    // are valid for writes for the call.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let time = started.elapsed().as_secs_f64();
    assert_eq!(pid, child.id() as i32, "wait4 failed");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "arena league standings failed: status {status}"
    );
    (time, usage.ru_maxrss as u64)
}
