//! Random playouts per second for each board (issue: at least 1,000,000
//! Qango 6 playouts per second on one core). Run: `cargo bench --bench playouts`.
//! Criterion's "thrpt" line is playouts per second.

use arena::games::{Position, Variant};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const BATCH: u64 = 1000;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(BATCH));
    for id in ["qango6", "qango6-tournament", "qango7", "qango7plus"] {
        let start = *Position::new(Variant::by_id(id).unwrap()).qango().unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        group.bench_function(id, |b| {
            b.iter(|| {
                let mut white = 0u32;
                for _ in 0..BATCH {
                    white +=
                        (start.random_playout(&mut rng) == Some(arena::games::Color::White)) as u32;
                }
                white
            })
        });
    }
    // Quinque through the general interface (legal move list per ply).
    group.throughput(Throughput::Elements(10));
    let quinque = Variant::by_id("quinque").unwrap();
    let mut rng = SmallRng::seed_from_u64(2);
    group.bench_function("quinque", |b| {
        b.iter(|| {
            let mut plies = 0;
            for _ in 0..10 {
                let mut pos = Position::new(quinque);
                while !pos.is_over() {
                    let moves = pos.legal_moves();
                    let m = moves[rng.gen_range(0..moves.len())];
                    pos.play(&m).unwrap();
                }
                plies += pos.ply();
            }
            plies
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = playouts
}
criterion_main!(benches);
