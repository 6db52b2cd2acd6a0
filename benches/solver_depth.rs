//! How far the solver gets from the start of Quinque (issue 35): for each
//! depth d (plies from the empty board), the open positions after d plies,
//! each solved alone with the solver crate's own API (`Solver::solve`, as
//! `arena solve` calls it) under a per-position budget, one thread a
//! position (`--threads` positions at once), a fresh
//! table a position and no settled table (so no proof of one position
//! helps another, and the user's cache is neither read nor written).
//!
//! Positions at depth d: where the distinct ones (merged over the board's
//! eight symmetries by the solver's own key) are at most `--enumerate`
//! (2,000), all of them, found by expanding every open position of depth
//! d-1; otherwise `--samples` distinct positions reached by uniform random
//! legal moves from the empty board with a fixed seed per depth (the row
//! says "sampled", with an estimate of the move sequences of length d
//! that end in an open position: Knuth's estimator, the mean over the
//! playouts of the product of their branching factors). A game over at or
//! before ply d is no position at depth d: the `ended` column counts them
//! (enumerated: distinct final positions reached at ply d; sampled:
//! playouts over before ply d, of all those drawn).
//!
//! A row per depth, deepest first: the positions, how many are settled
//! (a win or a loss for the side to move; Quinque has no draws), how many
//! unknown, the median and largest time per position, the median nodes
//! and the depth's total time. Times are the solving thread's CPU time, so
//! that other work on the machine does not inflate them; `--budget-nodes`
//! makes the settled counts the same on any machine, `--budget-ms` is the
//! wall time `arena solve --budget-ms` gives. The figures are in
//! docs/SOLVED.md.
//!
//! Run: `cargo bench --bench solver_depth -- quinque [--budget-ms N |
//! --budget-nodes N] [--samples K] [--depths A..B] [--memory-mib M]
//! [--seed S] [--enumerate N] [--stop-below PCT] [--threads T]`.
//! `--stop-below` ends the run after the first depth whose settled share
//! is below PCT percent; `--threads` solves T positions at once.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use arena_rules::games::{Family, Position, Variant};
use arena_solver::game::Rules;
use arena_solver::quinque::QuinqueRules;
use arena_solver::{Budget, Solver, Value};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[path = "support/measure.rs"]
mod measure;
use measure::median;

/// The command line (after cargo's own `--bench`).
struct Args {
    variant: &'static Variant,
    budget: Budget,
    samples: usize,
    depths: (u32, u32),
    memory_mib: usize,
    seed: u64,
    enumerate: usize,
    stop_below: f64,
    threads: usize,
}

fn args() -> Args {
    let mut a = Args {
        variant: Variant::by_id("quinque").expect("the quinque variant"),
        budget: Budget::millis(1000),
        samples: 20,
        depths: (0, 40),
        memory_mib: 256,
        seed: 35,
        enumerate: 2000,
        stop_below: 0.0,
        threads: 1,
    };
    let mut it = std::env::args().skip(1);
    let value = |it: &mut dyn Iterator<Item = String>, flag: &str| -> String {
        it.next().unwrap_or_else(|| panic!("{flag} needs a value"))
    };
    fn num<T: std::str::FromStr>(text: &str, flag: &str) -> T {
        text.parse()
            .unwrap_or_else(|_| panic!("{flag} {text:?}: not a number"))
    }
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--bench" => {}
            "--budget-ms" => a.budget = Budget::millis(num(&value(&mut it, &arg), &arg)),
            "--budget-nodes" => {
                a.budget = Budget {
                    time: None,
                    nodes: Some(num(&value(&mut it, &arg), &arg)),
                }
            }
            "--samples" => a.samples = num(&value(&mut it, &arg), &arg),
            "--memory-mib" => a.memory_mib = num(&value(&mut it, &arg), &arg),
            "--seed" => a.seed = num(&value(&mut it, &arg), &arg),
            "--enumerate" => a.enumerate = num(&value(&mut it, &arg), &arg),
            "--stop-below" => a.stop_below = num(&value(&mut it, &arg), &arg),
            "--threads" => a.threads = num(&value(&mut it, &arg), &arg),
            "--depths" => {
                let text = value(&mut it, &arg);
                let (lo, hi) = text
                    .split_once("..")
                    .unwrap_or_else(|| panic!("--depths {text:?}: A..B"));
                let (lo, hi): (u32, u32) = (num(lo, &arg), num(hi, &arg));
                a.depths = (lo.min(hi), lo.max(hi));
            }
            id if !id.starts_with('-') => {
                let v = Variant::by_id(id).unwrap_or_else(|| panic!("no variant {id:?}"));
                assert!(
                    matches!(v.family, Family::Quinque),
                    "{id}: this bench measures Quinque variants"
                );
                a.variant = v;
            }
            other => panic!("unknown argument {other:?}"),
        }
    }
    assert!(a.samples > 0, "--samples must be at least 1");
    assert!(a.threads > 0, "--threads must be at least 1");
    a
}

/// The positions of one depth and how they were found.
struct Level {
    positions: Vec<Position>,
    /// `None`: every distinct open position; `Some(n)`: a sample, of about
    /// `n` move sequences.
    sampled_of: Option<f64>,
    /// Enumerated: distinct positions whose game ended at this ply;
    /// sampled: (playouts over before this ply, playouts drawn).
    ended: Ended,
}

enum Ended {
    AtPly(usize),
    Playouts { over: usize, drawn: usize },
}

/// Every distinct open position at each depth from 0 while there are at
/// most `cap` of them, up to `max_depth`: `levels[d]` with the distinct
/// final positions reached at ply d.
fn enumerate(
    v: &'static Variant,
    rules: &QuinqueRules,
    cap: usize,
    max_depth: u32,
) -> Vec<(Vec<Position>, usize)> {
    let mut levels = vec![(vec![Position::new(v)], 0)];
    while (levels.len() as u32) <= max_depth {
        let last = &levels.last().expect("depth 0").0;
        let mut open: HashMap<u128, Position> = HashMap::new();
        let mut ended: HashMap<u128, ()> = HashMap::new();
        for pos in last {
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play(&m).expect("a legal move");
                let key = rules.key(&rules.state_of(&next));
                if next.is_over() {
                    ended.insert(key, ());
                } else {
                    open.entry(key).or_insert(next);
                }
            }
            if open.len() > cap {
                return levels;
            }
        }
        let mut positions: Vec<(u128, Position)> = open.into_iter().collect();
        positions.sort_by_key(|(k, _)| *k);
        levels.push((positions.into_iter().map(|(_, p)| p).collect(), ended.len()));
    }
    levels
}

/// `k` distinct open positions at `depth` from uniform random playouts
/// (seeded by `seed` and the depth), with Knuth's estimate of the move
/// sequences of length `depth` ending in an open position.
fn sample(v: &'static Variant, rules: &QuinqueRules, depth: u32, k: usize, seed: u64) -> Level {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (depth as u64).wrapping_mul(0x9E37_79B9));
    let mut seen: HashMap<u128, ()> = HashMap::new();
    let mut positions = Vec::new();
    let (mut over, mut drawn) = (0usize, 0usize);
    let mut weight_sum = 0.0f64;
    while positions.len() < k && drawn < 1000 * k {
        drawn += 1;
        let mut pos = Position::new(v);
        let mut weight = 1.0f64;
        while pos.ply() < depth && !pos.is_over() {
            let moves = pos.legal_moves();
            weight *= moves.len() as f64;
            let m = moves.choose(&mut rng).expect("an open position has a move");
            pos.play(m).expect("a legal move");
        }
        if pos.is_over() {
            over += 1;
            continue;
        }
        weight_sum += weight;
        if seen.insert(rules.key(&rules.state_of(&pos)), ()).is_none() {
            positions.push(pos);
        }
    }
    Level {
        positions,
        sampled_of: Some(weight_sum / drawn as f64),
        ended: Ended::Playouts { over, drawn },
    }
}

/// One depth's results.
#[derive(Default)]
struct Row {
    wins: usize,
    draws: usize,
    losses: usize,
    unknown: usize,
    times: Vec<Duration>,
    nodes: Vec<u64>,
}

/// Solves every position, `a.threads` at a time (each alone on its
/// thread, its time that thread's CPU time); a position that takes more
/// than a minute is reported as it ends.
fn solve_all(v: &'static Variant, positions: &[Position], a: &Args) -> Row {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let solved = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..a.threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(pos) = positions.get(i) else { break };
                let cpu = thread_cpu();
                let mut solver = Solver::new(v, a.memory_mib << 20);
                let s = solver.solve(pos, a.budget);
                drop(solver);
                let time = thread_cpu() - cpu;
                if time.as_secs() >= 60 {
                    eprintln!(
                        "  ply {} position {i}: {:?} in {} nodes, {:.1} s CPU",
                        pos.ply(),
                        s.value,
                        s.nodes,
                        time.as_secs_f64()
                    );
                }
                solved.lock().unwrap().push((s.value, time, s.nodes));
            });
        }
    });
    let mut row = Row::default();
    for (value, time, nodes) in solved.into_inner().unwrap() {
        match value {
            Some(Value::Win) => row.wins += 1,
            Some(Value::Draw) => row.draws += 1,
            Some(Value::Loss) => row.losses += 1,
            None => row.unknown += 1,
        }
        row.times.push(time);
        row.nodes.push(nodes);
    }
    row
}

/// This thread's CPU time so far: what a position costs, whatever else
/// the machine runs (a time budget, by contrast, is wall time).
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(ok, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn main() {
    let a = args();
    let v = a.variant;
    let rules = QuinqueRules::new(v);
    let budget = match (a.budget.time, a.budget.nodes) {
        (Some(t), _) => format!("{} ms", t.as_millis()),
        (_, Some(n)) => format!("{n} nodes"),
        _ => "none".into(),
    };
    println!(
        "{}: depths {}..{} deepest first; budget {budget} a position, a fresh {} MiB table each, \
         no settled table, {} thread(s) each solving one position at a time; all distinct positions (merged over symmetries) where \
         at most {}, else {} sampled (seed {})",
        v.id, a.depths.0, a.depths.1, a.memory_mib, a.threads, a.enumerate, a.samples, a.seed
    );
    let exact = enumerate(v, &rules, a.enumerate, a.depths.1);
    println!(
        "{:>5} | {:<28} | {:>24} | {:>5} {:>5} {:>5} | {:>7} | {:>10} | {:>10} | {:>12} | {:>9}",
        "depth",
        "positions",
        "ended",
        "win",
        "draw",
        "loss",
        "unknown",
        "median ms",
        "max ms",
        "median nodes",
        "total s"
    );
    let started = Instant::now();
    for depth in (a.depths.0..=a.depths.1).rev() {
        let level = match exact.get(depth as usize) {
            Some((positions, ended)) => Level {
                positions: positions.clone(),
                sampled_of: None,
                ended: Ended::AtPly(*ended),
            },
            None => sample(v, &rules, depth, a.samples, a.seed),
        };
        let ended = match level.ended {
            Ended::AtPly(n) => format!("{n} at this ply"),
            Ended::Playouts { over, drawn } => format!("{over} of {drawn} playouts"),
        };
        if level.positions.is_empty() {
            println!("{depth:>5} | {:<28} | {ended:>24} |", "none open");
            continue;
        }
        let described = match level.sampled_of {
            None => format!("{} (all)", level.positions.len()),
            Some(n) => format!("{} sampled of ~{n:.1e} lines", level.positions.len()),
        };
        let mut row = solve_all(v, &level.positions, &a);
        let total: Duration = row.times.iter().sum();
        let count = row.times.len();
        let settled = row.wins + row.draws + row.losses;
        println!(
            "{depth:>5} | {described:<28} | {ended:>24} | {:>5} {:>5} {:>5} | {:>7} | {:>10} | {:>10} | {:>12} | {:>9.1}",
            row.wins,
            row.draws,
            row.losses,
            row.unknown,
            ms(median(&mut row.times)),
            ms(*row.times.iter().max().expect("a position")),
            median(&mut row.nodes),
            total.as_secs_f64()
        );
        if (settled as f64) * 100.0 < a.stop_below * count as f64 {
            println!(
                "settled share {settled}/{count} below {}%: stopping",
                a.stop_below
            );
            break;
        }
    }
    println!(
        "times: CPU time of the solving thread (table set-up included); wall time of the run {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
