//! Games an adaptive ranking (`format = "adaptive"`) needs to certify a
//! field's order, against a round robin played cycle by cycle until the
//! same certificate holds, at 6 and 20 bots, in simulation with known
//! ratings (`arena_stats::adaptive_sim`: the decisions a run makes, games
//! drawn from the fit's own model). Also the share of runs that certified
//! a wrong order, against the 5% that confidence 0.95 allows.
//!
//! Run: `cargo bench --bench adaptive`.

use arena::stats::adaptive_sim::{Field, Summary};
use arena::stats::Certifier;

/// A field of `bots` bots whose neighbours are `gaps` Elo apart, in turn.
fn field(bots: usize, gaps: &[f64]) -> Field {
    let mut ratings = vec![0.0];
    for k in 1..bots {
        ratings.push(ratings[k - 1] + gaps[(k - 1) % gaps.len()]);
    }
    Field {
        ratings,
        white_advantage: 30.0,
        draw_elo: 100.0,
    }
}

fn line(label: &str, s: &Summary) -> String {
    format!(
        "{label:<12} {:>9.0} games  certified {:>3}/{:<3} wrong {}",
        s.mean_games(),
        s.certified,
        s.runs,
        s.wrong
    )
}

fn main() {
    let certifier = Certifier::new(0.95);
    let limit = 2_000_000;
    for (bots, runs) in [(6, 200), (20, 40)] {
        let f = field(bots, &[60.0, 100.0, 140.0, 80.0]);
        let start = std::time::Instant::now();
        let adaptive = f.adaptive_runs(&certifier, limit, runs, 1).expect("fits");
        let round_robin = f
            .round_robin_runs(&certifier, limit, runs, 1)
            .expect("fits");
        println!(
            "{bots} bots, gaps 60/100/140/80 Elo, confidence 0.95, {runs} runs each ({:.1?}):",
            start.elapsed()
        );
        println!("  {}", line("adaptive", &adaptive));
        println!("  {}", line("round robin", &round_robin));
        println!(
            "  round robin / adaptive: {:.2}x the games",
            round_robin.mean_games() / adaptive.mean_games()
        );
    }
}
