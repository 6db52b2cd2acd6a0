//! A long proof of one question, in chunks that checkpoint: the
//! transposition table to `DIR/VARIANT_MOVES_SIDE.tt` ([`Table::save`])
//! and the costly subtrees proven to the settled table in DIR, so a run
//! stopped (or killed) and started again goes on from its last checkpoint:
//!
//! `cargo run --release -p arena-solver --example prove -- VARIANT "MOVES" white|black MINUTES [MiB] [DIR]`
//!
//! asks whether `white` (or `black`) wins after MOVES (spaces between
//! them), with a transposition table of MiB (default 4096) and the settled
//! table in DIR (default `solve-tables`, capped at 8 GiB; `off`: none, and
//! no checkpoints, to measure a proof from nothing: the settled table
//! knows the stored strategies' positions). Every 5 minutes
//! it saves the table, adds the proofs found so far to the settled
//! table, and prints the root's numbers.
use std::path::PathBuf;
use std::time::{Duration, Instant};

use arena_solver::dfpn::{Search, StopAt};
use arena_solver::game::Rules;
use arena_solver::qango::QangoRules;
use arena_solver::settled::Settled;
use arena_solver::table::Table;

mod common;

const CHUNK: Duration = Duration::from_secs(300);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = common::position(&args[1], &args[2]);
    let v = pos.variant();
    let attacker = common::side(&args[3]);
    let minutes: u64 = args[4].parse().expect("minutes");
    let mib: usize = args.get(5).map_or(4096, |s| s.parse().unwrap());
    let dir = PathBuf::from(args.get(6).map_or("solve-tables", |s| s.as_str()));
    let off = dir.as_os_str() == "off";
    let settled = (!off).then(|| Settled::open(&dir, v, 8 << 30).expect("the settled table"));
    let rules = QangoRules::new(v);
    let s = rules.state_of(&pos);
    let mut table = Table::with_bytes(mib << 20);
    let checkpoint = dir.join(format!(
        "{}_{}_{}.tt",
        v.id,
        args[2].split_whitespace().collect::<Vec<_>>().join("-"),
        args[3]
    ));
    if !off && checkpoint.exists() {
        let n = table.load(&checkpoint).expect("a whole checkpoint");
        println!("resuming from {} ({n} entries)", checkpoint.display());
    }
    let started = Instant::now();
    let end = started + Duration::from_secs(minutes * 60);
    let mut nodes = 0u64;
    println!(
        "{} after [{}]: does {} win? {} settled positions to start from",
        v.id,
        args[2],
        args[3],
        settled.as_ref().map_or(0, |t| t.len())
    );
    loop {
        let limits = StopAt {
            deadline: Some((Instant::now() + CHUNK).min(end)),
            max_nodes: None,
        };
        let mut search = Search::new(&rules, &mut table, limits).with_settled(settled.as_ref());
        let n = search.prove(&s, attacker);
        nodes += search.nodes;
        let saved = match &settled {
            Some(t) => {
                t.add(&search.found);
                table.save(&checkpoint).expect("the checkpoint written")
            }
            None => 0,
        };
        let proven = n.phi == 0 || n.delta == 0;
        let mover_is_attacker = rules.mover(&s).index() == attacker;
        let verdict = match (proven, (n.phi == 0) == mover_is_attacker) {
            (false, _) => "unknown",
            (true, true) => "yes",
            (true, false) => "no",
        };
        println!(
            "{:>6.0} s  {verdict}  phi {} delta {}  nodes {nodes}  table {}  saved {saved}  settled {}",
            started.elapsed().as_secs_f64(),
            n.phi,
            n.delta,
            table.used(),
            settled.as_ref().map_or(0, |t| t.len())
        );
        if proven || Instant::now() >= end {
            break;
        }
    }
}
