//! Writes a variant's winning strategy from the empty board:
//! `cargo run --release -p arena-solver --example strategy -- qango6 OUT [seconds]`.
use arena_rules::games::{Position, Variant};
use arena_solver::dfpn::StopAt;
use arena_solver::strategy::qango_win_strategy;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::by_id(&args[1]).expect("variant");
    let secs: u64 = args.get(3).map_or(600, |s| s.parse().unwrap());
    let t = Instant::now();
    let limits = StopAt {
        deadline: Some(t + Duration::from_secs(secs)),
        max_nodes: None,
    };
    let text = qango_win_strategy(&Position::new(v), 1 << 30, limits).expect("a win");
    std::fs::write(&args[2], &text).unwrap();
    println!(
        "{} lines={} bytes={} ms={}",
        v.id,
        text.lines().count(),
        text.len(),
        t.elapsed().as_millis()
    );
}
