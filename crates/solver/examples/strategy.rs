//! Writes the strategy files of a variant's value from the empty board:
//! `cargo run --release -p arena-solver --example strategy -- qango6 OUT_DIR [seconds] [MiB] [TABLE_DIR]`
//! writes `OUT_DIR/VARIANT.txt` for a win (the winner's strategy, the
//! first player's or the second's), or `VARIANT.white.txt` and
//! `VARIANT.black.txt` for a draw (each side's way never to lose), taking
//! the proofs of the settled table in TABLE_DIR (a long run's, written by
//! the `prove` example) as proven.
use arena_rules::games::{Position, Variant};
use arena_solver::dfpn::StopAt;
use arena_solver::settled::Settled;
use arena_solver::strategy::{qango_claims, qango_strategy, Claim};
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = Variant::by_id(&args[1]).expect("variant");
    let out = Path::new(&args[2]);
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
    let start = Position::new(v);
    let claims = qango_claims(&start, mib << 20, limits, settled.as_ref()).expect("a proven value");
    for claim in claims {
        let name = match claim {
            Claim::Wins(_) => format!("{}.txt", v.id),
            Claim::DoesNotLose(c) => format!("{}.{}.txt", v.id, c.name()),
        };
        let text = qango_strategy(&start, claim, mib << 20, limits, settled.as_ref())
            .expect("the strategy within the time");
        std::fs::write(out.join(&name), &text).unwrap();
        println!(
            "{name}: {} lines={} bytes={} ms={}",
            claim.words(),
            text.lines().count(),
            text.len(),
            t.elapsed().as_millis()
        );
    }
}
