//! Solves each first move of a variant apart (moves a symmetry maps onto
//! each other once), each with a fresh table:
//! `cargo run --release -p arena-solver --example starts -- qango7-pro1 [seconds] [MiB]`.
use arena_rules::games::{Position, Variant};
use arena_solver::game::Rules;
use arena_solver::qango::QangoRules;
use arena_solver::{Budget, Solver};
use std::collections::HashSet;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::by_id(&args[1]).expect("variant");
    let secs: u64 = args.get(2).map_or(60, |s| s.parse().unwrap());
    let mib: usize = args.get(3).map_or(1024, |s| s.parse().unwrap());
    let start = Position::new(v);
    let rules = QangoRules::new(v);
    let mut seen = HashSet::new();
    for m in start.legal_moves() {
        let mut pos = start.clone();
        pos.play(&m).unwrap();
        let key = rules.key(&rules.state_of(&pos));
        if !seen.insert(key) {
            continue;
        }
        let mut solver = Solver::new(v, mib << 20);
        let s = solver.solve(
            &pos,
            Budget {
                time: Some(Duration::from_secs(secs)),
                nodes: None,
            },
        );
        println!(
            "{} {m}: black's value={:?} nodes={} ms={} used={}",
            v.id,
            s.value,
            s.nodes,
            s.elapsed.as_millis(),
            solver.memory().1
        );
    }
}
