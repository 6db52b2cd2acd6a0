//! Solves a variant's empty board: `cargo run --release -p arena-solver --example start -- qango6 [seconds] [MiB]`.
use arena_rules::games::{Position, Variant};
use arena_solver::{Budget, Solver};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::by_id(&args[1]).expect("variant");
    let secs: u64 = args.get(2).map_or(60, |s| s.parse().unwrap());
    let mib: usize = args.get(3).map_or(1024, |s| s.parse().unwrap());
    let mut solver = Solver::new(v, mib << 20);
    let pos = Position::new(v);
    let s = solver.solve(
        &pos,
        Budget {
            time: Some(Duration::from_secs(secs)),
            nodes: None,
        },
    );
    let (bytes, used) = solver.memory();
    println!(
        "{} value={:?} best={:?} nodes={} ms={} table={}MiB used={}",
        v.id,
        s.value,
        s.best.map(|m| m.to_string()),
        s.nodes,
        s.elapsed.as_millis(),
        bytes >> 20,
        used
    );
}
