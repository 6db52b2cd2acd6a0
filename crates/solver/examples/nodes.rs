//! Nodes one question takes on a fixed set of positions that are proven
//! in 10^4 to 10^6 nodes, to compare search changes by nodes (which no
//! machine's load changes):
//! `cargo run --release -p arena-solver --example nodes`.
use arena_solver::dfpn::{Search, StopAt};
use arena_solver::qango::QangoRules;
use arena_solver::table::Table;

/// Variant, moves, the side whose win is asked.
const SET: &[(&str, &str, usize)] = &[
    ("qango7plus-edge", "", 0),
    ("qango7-pro2", "c1", 1),
    ("qango7-pro1", "d1", 0),
    ("qango6-tournament", "c1 c2 c3", 0),
    ("qango6-tournament", "c1 c2 d2", 0),
    ("qango6-tournament", "c1 b1", 0),
    ("qango6-castle", "", 0),
    ("qango7plus-tournament", "e2", 1),
];

mod common;

fn main() {
    let mut table = Table::with_bytes(1 << 30);
    let mut total = 0;
    for &(id, moves, attacker) in SET {
        let pos = common::position(id, moves);
        let rules = QangoRules::new(pos.variant());
        table.clear();
        let limits = StopAt {
            deadline: None,
            max_nodes: Some(5_000_000),
        };
        let mut search = Search::new(&rules, &mut table, limits);
        let n = search.prove(&rules.state_of(&pos), attacker);
        total += search.nodes;
        println!(
            "{id} [{moves}] attacker {attacker}: phi {} delta {} nodes {}",
            n.phi, n.delta, search.nodes
        );
    }
    println!("total {total}");
}
