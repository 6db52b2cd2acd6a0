//! Writes a variant's winning strategy from the empty board (the first
//! player's or the second's, whichever wins):
//! `cargo run --release -p arena-solver --example strategy -- qango6 OUT [seconds] [MiB] [DIR]`,
//! taking the proofs of the settled table in DIR (a long run's, written
//! by the `prove` example) as proven.
use arena_rules::games::{Position, Variant};
use arena_solver::dfpn::StopAt;
use arena_solver::settled::Settled;
use arena_solver::strategy::qango_win_strategy;
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::by_id(&args[1]).expect("variant");
    let secs: u64 = args.get(3).map_or(600, |s| s.parse().unwrap());
    let mib: usize = args.get(4).map_or(1024, |s| s.parse().unwrap());
    let settled = args
        .get(5)
        .map(|dir| Settled::open(Path::new(dir), v, 8 << 30).expect("the settled table"));
    let t = Instant::now();
    let limits = StopAt {
        deadline: Some(t + Duration::from_secs(secs)),
        max_nodes: None,
    };
    let text =
        qango_win_strategy(&Position::new(v), mib << 20, limits, settled.as_ref()).expect("a win");
    std::fs::write(&args[2], &text).unwrap();
    println!(
        "{} lines={} bytes={} ms={}",
        v.id,
        text.lines().count(),
        text.len(),
        t.elapsed().as_millis()
    );
}
