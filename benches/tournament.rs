//! Tournament throughput, the all-in cost per ply against the pipe floor,
//! and the referee's memory, with instant bots.
//!
//! Run: `cargo bench --bench tournament`.
//!
//! Each tournament runs `arena tournament` (the same code path as the
//! command line: [`arena::cli::tournament::run`]) in a fresh child process
//! (this benchmark executable started again with `--child`), so that every
//! run starts cold and its peak RSS is its own. Wall time is from starting
//! the child to its exit: bot start-up (one process per bot and concurrent
//! game slot, reused across games), every game, the journal (synced every
//! 200 ms, the default) and the final standings are all included.
//!
//! 1. Throughput and memory: a round robin of 5 instant bots
//!    (`arena-instant-bot`), Qango 6 with 2-ply random openings, `-j 2`, not
//!    pinned, output on the working directory's disk (under `target/tmp`):
//!    games per second, and the child's peak RSS (`VmHWM`, the referee
//!    process alone: bots are separate processes) for 1,000 and 10,000
//!    games. `ARENA_BENCH_GAMES=N1,N2,...` replaces the sizes (multiples
//!    of 20).
//! 2. Cost per ply: two instant bots, Qango 6, 2-ply openings, `-j 1`, the
//!    child and its bots pinned to one CPU, output on the working disk and
//!    on tmpfs (`/dev/shm`), alternately: wall time divided by the plies of
//!    all games, as a multiple of the raw pipe round trip (a short line to
//!    `arena-echo` and back with blocking I/O, on the same CPU) measured
//!    between the runs, and each run against the floor measured just
//!    before it (the host's speed drifts in phases of minutes, which a
//!    pooled floor mixes). The last step of each run, writing report.html
//!    over all its games, is then timed again on its own and shown per ply
//!    (it is part of the all-in figure). `ARENA_BENCH_PLY_GAMES` (default
//!    4,000, even) and
//!    `ARENA_BENCH_PLY_RUNS` (default 5 per place) change it;
//!    `ARENA_BENCH_PIN=0` turns pinning off.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/echo.rs"]
mod echo;
#[path = "support/measure.rs"]
mod measure;
#[path = "support/pin.rs"]
mod pin;
#[path = "support/rss.rs"]
mod rss;

use arena::tournament::settings::defs::{
    CONCURRENCY, GAMES_PER_PAIRING, OPENING_PLIES, OUT, SEED, TIME_CONTROL, VARIANT,
};
use echo::RawEcho;
use measure::{env_or, median};
use pin::{pin_to_one_cpu, pinning_wanted};
use rss::peak_rss_kib;

const INSTANT_BOT: &str = env!("CARGO_BIN_EXE_arena-instant-bot");
/// Bots of the throughput round robin.
const BOTS: usize = 5;
const DEFAULT_SIZES: &str = "1000,10000";
const DEFAULT_PLY_GAMES: usize = 4000;
const DEFAULT_PLY_RUNS: usize = 5;
/// Timed round trips to the echo child before each cost-per-ply run.
const FLOOR_TRIPS: usize = 2000;
/// A line the size of a bot's answer.
const FLOOR_LINE: &str = "{\"type\":\"move\",\"move\":\"c3\"}\n";

/// What one child run plays and where.
struct Plan {
    bots: usize,
    games: usize,
    jobs: usize,
    pin: bool,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        let number = |i: usize| -> usize { args[i].parse().expect("a number") };
        let plan = Plan {
            bots: number(2),
            games: number(3),
            jobs: number(4),
            pin: args[5] == "pin",
        };
        std::process::exit(child(&plan, Path::new(&args[6])));
    }
    let disk = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    throughput(&disk);
    cost_per_ply(&disk);
}

fn throughput(disk: &Path) {
    let sizes: Vec<usize> = std::env::var("ARENA_BENCH_GAMES")
        .unwrap_or_else(|_| DEFAULT_SIZES.to_string())
        .split(',')
        .map(|n| n.trim().parse().expect("ARENA_BENCH_GAMES: numbers"))
        .collect();
    println!(
        "tournament: round-robin of {BOTS} instant bots, qango6, -j 2, one fresh process per run, \
         output in {}",
        disk.display()
    );
    println!(
        "  {:>7}  {:>9}  {:>10}  {:>13}  {:>9}",
        "games", "wall", "games/s", "peak RSS", "log files"
    );
    let mut results = Vec::new();
    for games in sizes {
        let plan = Plan {
            bots: BOTS,
            games,
            jobs: 2,
            pin: false,
        };
        let run = parent(&plan, disk);
        println!(
            "  {:>7}  {:>8.2}s  {:>10.0}  {:>10} KiB  {:>9}",
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

fn cost_per_ply(disk: &Path) {
    let games: usize = env_or("ARENA_BENCH_PLY_GAMES", DEFAULT_PLY_GAMES);
    let runs: usize = env_or("ARENA_BENCH_PLY_RUNS", DEFAULT_PLY_RUNS);
    if runs == 0 || games == 0 {
        return;
    }
    let pin = pinning_wanted();
    let tmpfs = PathBuf::from("/dev/shm");
    let places: Vec<(&str, &Path)> = if tmpfs.is_dir() {
        vec![("working disk", disk), ("tmpfs", &tmpfs)]
    } else {
        println!("  (no /dev/shm: tmpfs skipped)");
        vec![("working disk", disk)]
    };
    // The floor is measured on the CPU the children will run on.
    let floor_cpu = std::thread::spawn(move || {
        let cpu = if pin { pin_to_one_cpu() } else { None };
        let mut echo = RawEcho::start();
        let mut samples = Vec::new();
        echo.round_trips(FLOOR_LINE, FLOOR_TRIPS, &mut samples); // warm-up
        samples.clear();
        (echo, cpu, samples)
    })
    .join()
    .expect("floor thread");
    let (mut echo, cpu, mut floor) = floor_cpu;
    println!(
        "cost per ply: 2 instant bots, qango6, -j 1, {games} games per run, {runs} runs per place, {}",
        match (pin, cpu) {
            (true, Some(cpu)) => format!("pinned to CPU {cpu} (ARENA_BENCH_PIN=0: not pinned)"),
            _ => "not pinned".to_string(),
        }
    );
    let mut per_ply: Vec<Vec<Duration>> = vec![Vec::new(); places.len()];
    let mut cpu_per_ply: Vec<Vec<Duration>> = vec![Vec::new(); places.len()];
    let mut report_per_ply: Vec<Vec<Duration>> = vec![Vec::new(); places.len()];
    let mut own_ratio: Vec<Vec<f64>> = vec![Vec::new(); places.len()];
    for _ in 0..runs {
        for (place, (_, dir)) in places.iter().enumerate() {
            // The echo round trips run on a pinned thread, like the children.
            let mut before = Vec::with_capacity(FLOOR_TRIPS);
            (echo, before) = std::thread::spawn(move || {
                if pin {
                    pin_to_one_cpu();
                }
                echo.round_trips(FLOOR_LINE, FLOOR_TRIPS, &mut before);
                (echo, before)
            })
            .join()
            .expect("floor thread");
            floor.extend_from_slice(&before);
            let floor_now = median(&mut before);
            let plan = Plan {
                bots: 2,
                games,
                jobs: 1,
                pin,
            };
            let run = parent(&plan, dir);
            per_ply[place].push(run.wall / run.plies.max(1) as u32);
            // The host's speed drifts between phases: each run's cost is
            // also taken against the floor measured just before it.
            own_ratio[place]
                .push(per_ply[place].last().unwrap().as_secs_f64() / floor_now.as_secs_f64());
            cpu_per_ply[place].push(run.cpu / run.plies.max(1) as u32);
            report_per_ply[place].push(run.report_pass / run.plies.max(1) as u32);
        }
    }
    drop(echo);
    let floor = median(&mut floor);
    println!(
        "  {:<14} {:>10} {:>10} {:>10}   {:>13}   {:>10} {:>13}",
        "output on", "min", "median", "max", "median/floor", "CPU", "CPU/floor"
    );
    println!(
        "  {:<14} {:>10} {:>10} {:>10}   {:>12.2}x",
        "(pipe floor)",
        "",
        micros(floor),
        "",
        1.0
    );
    let ratio = |d: Duration| d.as_secs_f64() / floor.as_secs_f64();
    for (place, (name, _)) in places.iter().enumerate() {
        let samples = &mut per_ply[place];
        let mid = median(samples);
        let cpu = median(&mut cpu_per_ply[place]);
        println!(
            "  {:<14} {:>10} {:>10} {:>10}   {:>12.2}x   {:>10} {:>12.2}x",
            name,
            micros(samples[0]),
            micros(mid),
            micros(samples[samples.len() - 1]),
            ratio(mid),
            micros(cpu),
            ratio(cpu),
        );
    }
    for (place, (name, _)) in places.iter().enumerate() {
        let ratios = &mut own_ratio[place];
        ratios.sort_unstable_by(f64::total_cmp);
        println!(
            "  {name}, each run against the floor just before it: median {:.2}x (runs {})",
            ratios[ratios.len() / 2],
            ratios
                .iter()
                .map(|r| format!("{r:.2}x"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    for (place, (name, _)) in places.iter().enumerate() {
        let report = median(&mut report_per_ply[place]);
        println!(
            "  of which report.html, {name}: {} per ply ({:.2}x the floor), timed again on its own",
            micros(report),
            ratio(report)
        );
    }
    println!(
        "  (wall time per ply; CPU: user + system time of arena and its bots per ply, which \
         other load on the CPU does not inflate)"
    );
}

fn micros(d: Duration) -> String {
    format!("{:.2}us", d.as_secs_f64() * 1e6)
}

struct Run {
    wall: Duration,
    /// Writing report.html over the run's games, the run's last step,
    /// timed again on its own.
    report_pass: Duration,
    /// User + system time of the child and its bots.
    cpu: Duration,
    plies: u64,
    peak_rss_kib: u64,
    log_files: usize,
}

/// Starts this executable as `--child` with an output directory in
/// `place`, times it, reads what it reported and wrote.
fn parent(plan: &Plan, place: &Path) -> Run {
    std::fs::create_dir_all(place).expect("output place");
    let dir = tempfile::tempdir_in(place).expect("temporary directory");
    let out = dir.path().join("run");
    let exe = std::env::current_exe().expect("own executable");
    let cpu_before = children_cpu();
    let began = Instant::now();
    let status = Command::new(exe)
        .arg("--child")
        .args([plan.bots, plan.games, plan.jobs].map(|n| n.to_string()))
        .arg(if plan.pin { "pin" } else { "free" })
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("start the child run");
    let wall = began.elapsed();
    let cpu = children_cpu().saturating_sub(cpu_before);
    assert!(status.success(), "the child run failed: {status}");
    let report = std::fs::read_to_string(dir.path().join("peak_rss_kib")).expect("child report");
    let (rows, plies) = games_and_plies(&out.join("games.csv"));
    assert_eq!(rows, plan.games, "games.csv must hold every game");
    // The run's last step again, alone: report.html over all its games.
    let pin = plan.pin;
    let report_pass = std::thread::spawn(move || {
        if pin {
            pin_to_one_cpu();
        }
        let began = Instant::now();
        arena::report::html::write_report(std::slice::from_ref(&out), &out).expect("report");
        (began.elapsed(), out)
    })
    .join()
    .expect("report thread");
    let (report_pass, out) = report_pass;
    Run {
        wall,
        cpu,
        plies,
        report_pass,
        peak_rss_kib: report.trim().parse().expect("a number"),
        log_files: std::fs::read_dir(out.join("logs")).map_or(0, |d| d.count()),
    }
}

/// User + system time of every child process waited for so far (their own
/// waited-for children, the bots, included).
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Rows of `games.csv` and the sum of their `plies`.
fn games_and_plies(path: &Path) -> (usize, u64) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    let column = header
        .split(',')
        .position(|c| c == "plies")
        .expect("a plies column");
    let mut rows = 0;
    let mut plies = 0;
    for line in lines {
        rows += 1;
        // Bot names and openings here hold no commas or quotes.
        plies += line
            .split(',')
            .nth(column)
            .map_or(0, |p| p.parse().expect("plies"));
    }
    (rows, plies)
}

/// The measured run: a whole tournament in this process, then its peak RSS
/// into `<out>/../peak_rss_kib`.
fn child(plan: &Plan, out: &Path) -> i32 {
    if plan.pin {
        pin_to_one_cpu().expect("pin to one CPU");
    }
    let pairings = plan.bots * (plan.bots - 1) / 2;
    assert!(
        plan.games.is_multiple_of(2 * pairings),
        "games must be a multiple of {}",
        2 * pairings
    );
    let mut given = arena::tournament::Given::new()
        .with(&VARIANT, "qango6")
        .with(&TIME_CONTROL, "per-move=1000")
        .with(&CONCURRENCY, plan.jobs.to_string())
        .with(&SEED, "1")
        .with(&OUT, out.display().to_string())
        .with(&GAMES_PER_PAIRING, (plan.games / pairings).to_string())
        .with(&OPENING_PLIES, "2");
    for i in 0..plan.bots {
        given.add_bot(format!("instant{i}={INSTANT_BOT}"));
    }
    let args = arena::cli::tournament::Args {
        settings: arena::cli::setting_flags::SettingFlags::from_given(given),
        no_progress: true,
        ..Default::default()
    };
    let code = arena::cli::tournament::run(args).expect("tournament");
    let hwm = peak_rss_kib().to_string();
    let report = out.parent().expect("parent").join("peak_rss_kib");
    std::fs::write(report, hwm).expect("write report");
    code
}
