//! What `--serve` costs a big run: a round robin of 100 instant bots
//! (Qango 6, 2 games per pairing: 9,900 games) without `--serve`, and with
//! `--serve 0` and no page, one page and ten pages open, and without
//! `--serve` with the bots started by a fork (`ARENA_SPAWN=fork`: how arena
//! started them before `crates/referee/src/spawn.rs`), in turn (the order
//! rotates from one repetition to the next), `ARENA_BENCH_OVERHEAD_RUNS`
//! times each (default 5). Each run's wall time and CPU time (user and
//! system of arena and the bots it reaped, from `wait4`); then each mode's
//! median, and the median over the repetitions of its ratio to the run
//! without `--serve` of the same repetition (a machine that slows through
//! the bench slows both sides of a ratio alike). Also the CPU time of the
//! server's own threads (`arena-serve…`: the server and the watcher that
//! renders), read from /proc, as a share of the run's: the cost of
//! watching as work done, which a busy machine does not blur as it does
//! times.
//!
//! Run: `cargo bench --bench serve_overhead` (`ARENA_BENCH_OVERHEAD_BOTS=N`
//! for another field). A page is what live.js does: it holds
//! `_live/events` open and, at each new version, fetches
//! `_live/update?from=N` (the page without the N games it has).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
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

/// How a run is served: not at all, or with this many pages open.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Alone,
    /// Without `--serve`, the bots started by a fork (`ARENA_SPAWN=fork`),
    /// as before arena started them without copying itself.
    Forked,
    Pages(usize),
}

impl Mode {
    fn name(self) -> String {
        match self {
            Mode::Alone => "without --serve".into(),
            Mode::Forked => "bots forked".into(),
            Mode::Pages(0) => "--serve, no page".into(),
            Mode::Pages(1) => "--serve, one page".into(),
            Mode::Pages(n) => format!("--serve, {n} pages"),
        }
    }
}

const MODES: [Mode; 5] = [
    Mode::Alone,
    Mode::Forked,
    Mode::Pages(0),
    Mode::Pages(1),
    Mode::Pages(10),
];

/// `GET path` on its own connection: the answer's bytes.
fn get(addr: &str, path: &str) -> Vec<u8> {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return Vec::new();
    };
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    );
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    answer
}

/// What a live page does at a new version: fetch the page without the
/// `have` games it has; the games it has then.
fn update(addr: &str, have: usize) -> usize {
    games_after_update(&get(addr, &format!("/_live/update?from={have}")))
}

/// One page: the live page once, then its event stream, until `stop`.
fn page(addr: String, stop: Arc<AtomicBool>, fetched: Arc<AtomicU64>) {
    get(&addr, "/");
    let Ok(mut events) = TcpStream::connect(&addr) else {
        return;
    };
    events
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let _ = write!(events, "GET /_live/events HTTP/1.1\r\nHost: x\r\n\r\n");
    let (mut shown, mut have) = (0u64, 0usize);
    let mut buf = vec![0u8; 64 * 1024];
    while !stop.load(Ordering::Relaxed) {
        let n = match events.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => n,
            Err(_) => continue,
        };
        let text = String::from_utf8_lossy(&buf[..n]);
        let newest = text
            .split("\"version\":")
            .skip(1)
            .filter_map(|t| t.split(',').next()?.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        if newest > shown {
            shown = newest;
            have = update(&addr, have);
            fetched.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// CPU seconds of `pid` itself (all its threads, not its bots), and of its
/// threads named `arena-serve…` (the server and its watcher, which render
/// and send the pages), read from /proc every 100 ms until `stop`: the
/// last readings.
fn own_cpu(pid: libc::pid_t, stop: Arc<AtomicBool>) -> (f64, f64) {
    // SAFETY: sysconf takes no pointers.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    // utime + stime of a stat line (`pid (comm) state ...`: fields 14, 15).
    let used = |stat: &str| -> Option<(bool, u64)> {
        let (head, rest) = stat.rsplit_once(") ")?;
        let f: Vec<&str> = rest.split(' ').collect();
        let t = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
        Some((head.contains("(arena-serve"), t))
    };
    let (mut own, mut server) = (0, std::collections::HashMap::new());
    while !stop.load(Ordering::Relaxed) {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            break;
        };
        own = used(&stat).map_or(own, |(_, t)| t);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            break;
        };
        for task in tasks.flatten() {
            let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
            if let Some((true, t)) = used(&stat) {
                server.insert(task.file_name(), t);
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    (
        own as f64 / ticks,
        server.values().sum::<u64>() as f64 / ticks,
    )
}

/// One run: its wall time, its CPU time (arena's and its bots'), arena's
/// own CPU time and its server threads', and the pages fetched.
// The child is reaped by wait4 (which gives its CPU with its children's),
// not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(out: &Path, bots: usize, mode: Mode) -> (f64, f64, (f64, f64), u64) {
    let _ = std::fs::remove_dir_all(out);
    let mut args: Vec<String> = vec!["tournament".into()];
    for k in 0..bots {
        args.extend(["--bot".into(), format!("b{k}={INSTANT_BOT}")]);
    }
    for a in ["--games", "2", "--opening-plies", "2", "--no-progress"] {
        args.push(a.into());
    }
    args.extend(["--out".into(), out.display().to_string()]);
    if let Mode::Pages(_) = mode {
        args.extend(["--serve".into(), "0".into()]);
    }
    let started = Instant::now();
    let mut command = Command::new(ARENA);
    if mode == Mode::Forked {
        command.env("ARENA_SPAWN", "fork");
    }
    let mut child = command
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("run arena tournament");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let stop = Arc::new(AtomicBool::new(false));
    let fetched = Arc::new(AtomicU64::new(0));
    let mut pages = Vec::new();
    if let Mode::Pages(n) = mode {
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        let addr = first
            .trim_end()
            .strip_prefix("Serving http://")
            .and_then(|a| a.strip_suffix('/'))
            .expect("the Serving line")
            .to_string();
        for _ in 0..n {
            let (addr, stop, fetched) = (addr.clone(), Arc::clone(&stop), Arc::clone(&fetched));
            pages.push(std::thread::spawn(move || page(addr, stop, fetched)));
        }
    }
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let pid = child.id() as libc::pid_t;
    let polled = Arc::new(AtomicBool::new(false));
    let poller = {
        let polled = Arc::clone(&polled);
        std::thread::spawn(move || own_cpu(pid, polled))
    };
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own child, not yet waited for; both pointers point
    // to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed().as_secs_f64();
    assert_eq!(waited, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "arena tournament failed"
    );
    stop.store(true, Ordering::Relaxed);
    polled.store(true, Ordering::Relaxed);
    let own = poller.join().unwrap();
    for p in pages {
        let _ = p.join();
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    (wall, cpu, own, fetched.load(Ordering::Relaxed))
}

fn main() {
    let bots: usize = env_or("ARENA_BENCH_OVERHEAD_BOTS", 100);
    let runs: usize = env_or("ARENA_BENCH_OVERHEAD_RUNS", 5);
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-overhead-bench");
    std::fs::create_dir_all(&root).unwrap();
    let games = bots * (bots - 1);
    println!(
        "round robin of {bots} instant bots, qango6, 2 games per pairing ({games} games), \
         {runs} runs of each mode, in turn"
    );
    let mut walls = vec![Vec::new(); MODES.len()];
    let mut cpus = vec![Vec::new(); MODES.len()];
    let mut shares = vec![Vec::new(); MODES.len()];
    for r in 0..runs {
        for k in 0..MODES.len() {
            let m = (k + r) % MODES.len();
            let out = root.join(format!("run-{m}"));
            let (wall, cpu, (own, serve_cpu), fetched) = run(&out, bots, MODES[m]);
            println!(
                "  {:<20} wall {wall:>6.1} s  CPU {cpu:>6.1} s: arena {own:.1} s, its server \
                 {serve_cpu:.2} s, the bots {:.1} s  ({fetched} pages fetched)",
                MODES[m].name(),
                cpu - own
            );
            walls[m].push(wall);
            cpus[m].push(cpu);
            shares[m].push(100.0 * serve_cpu / cpu);
        }
    }
    // Each mode against the run without --serve of the same repetition
    // (the modes of one repetition run back to back, so a machine that
    // slows through the bench slows both sides of each ratio alike), and
    // the median of those ratios.
    let ratios = |of: &[Vec<f64>], m: usize| -> f64 {
        let mut r: Vec<f64> = of[m].iter().zip(&of[0]).map(|(x, a)| x / a).collect();
        median(&mut r)
    };
    println!("medians, and the median of each repetition's ratio to the run without --serve:");
    for (m, mode) in MODES.iter().enumerate() {
        let (wall_ratio, cpu_ratio) = (ratios(&walls, m), ratios(&cpus, m));
        let (wall, cpu) = (median(&mut walls[m].clone()), median(&mut cpus[m].clone()));
        let share = median(&mut shares[m]);
        println!(
            "  {:<20} wall {wall:>6.1} s ({wall_ratio:.2}x)  CPU {cpu:>6.1} s ({cpu_ratio:.2}x), \
             the server's threads {share:.1}% of it",
            mode.name(),
        );
    }
}
