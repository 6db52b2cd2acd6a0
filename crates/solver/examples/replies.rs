//! Node counts of one question over every reply of a position (each with
//! a fresh table and a node budget), to compare search changes by nodes,
//! which no machine's load changes:
//! `cargo run --release -p arena-solver --example replies -- VARIANT "MOVES" white|black NODES`.
use std::collections::HashSet;

use arena_solver::dfpn::{Search, StopAt};
use arena_solver::game::Rules;
use arena_solver::qango::QangoRules;
use arena_solver::table::Table;

mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = common::position(&args[1], &args[2]);
    let v = pos.variant();
    let attacker = common::side(&args[3]);
    let budget: u64 = args[4].parse().expect("nodes");
    let rules = QangoRules::new(v);
    let s = rules.state_of(&pos);
    let mut table = Table::with_bytes(1 << 30);
    let mut seen = HashSet::new();
    let (mut total, mut proven, mut unknown) = (0u64, 0, 0);
    for m in rules.all_moves(&s) {
        let child = rules.play(&s, m);
        if !seen.insert(rules.key(&child)) {
            continue;
        }
        table.clear();
        let limits = StopAt {
            deadline: None,
            max_nodes: Some(budget),
        };
        let mut search = Search::new(&rules, &mut table, limits);
        let n = search.prove(&child, attacker);
        let mover_is_attacker = rules.mover(&child).index() == attacker;
        let word = if n.phi != 0 && n.delta != 0 {
            unknown += 1;
            "unknown"
        } else {
            proven += 1;
            if (n.phi == 0) == mover_is_attacker {
                "yes"
            } else {
                "no"
            }
        };
        total += search.nodes;
        println!("{} {word} {}", rules.to_move(&child, m), search.nodes);
    }
    println!("proven {proven} unknown {unknown} nodes {total}");
}
