//! Games an adaptive ranking (`format = "adaptive"`) needs for each goal
//! (`certify = "order"`, `"top:K"`, `"tiers"`), against a round robin
//! played cycle by cycle until a certificate as fine holds (the same
//! order, the same top set with as many tiers in it, as many tiers), at
//! 20, 100 and 500 bots, in simulation with known ratings
//! (`arena_stats::adaptive_sim`: the decisions a run makes, games drawn
//! from the fit's own model). Also the share of runs whose claim was wrong,
//! against the 5% that confidence 0.95 allows.
//!
//! Two fields per size: a *ladder* (neighbours 60/100/140/80 Elo apart, in
//! turn: every order can be certified; `top:3`) and *groups* (groups of 5
//! bots 10 Elo apart, the groups 150 Elo apart: tiers exist, the order
//! cannot be certified; `top:5`, the first group).
//!
//! Run: `cargo bench --bench adaptive -- 20 100` (sizes; a few minutes),
//! and `cargo bench --bench adaptive -- 500 top ladder` (a size, goals and
//! fields by name: `order`, `top`, `tiers`, `ladder`, `groups`; a 500-bot
//! fit is a dense 500 x 500 solve per Newton step, so 500 bots take long:
//! pick what to measure).

use arena::stats::adaptive_sim::{Field, Outcome};
use arena::stats::{Certifier, Goal};

/// A field of `bots` bots whose neighbours are `gaps` Elo apart, in turn.
fn ladder(bots: usize) -> Field {
    let gaps = [60.0, 100.0, 140.0, 80.0];
    let mut ratings = vec![0.0];
    for k in 1..bots {
        ratings.push(ratings[k - 1] + gaps[(k - 1) % gaps.len()]);
    }
    field(ratings)
}

/// Groups of 5 bots 10 Elo apart, the groups 150 Elo apart.
fn groups(bots: usize) -> Field {
    field(
        (0..bots)
            .map(|k| 150.0 * (k / 5) as f64 + 10.0 * (k % 5) as f64)
            .collect(),
    )
}

fn field(ratings: Vec<f64>) -> Field {
    Field {
        ratings,
        white_advantage: 30.0,
        draw_elo: 100.0,
    }
}

/// Games, runs that certified, runs whose claim was wrong, mean tiers claimed.
#[derive(Default)]
struct Tally {
    games: u64,
    certified: u64,
    wrong: u64,
    tiers: usize,
    runs: u64,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.games += o.games;
        self.certified += u64::from(o.certified);
        self.wrong += u64::from(o.wrong);
        self.tiers += o.claim.len();
        self.runs += 1;
    }

    fn text(&self) -> String {
        if self.runs == 0 {
            return "(not run: the adaptive runs certified nothing)".into();
        }
        format!(
            "{:>9.0} games, certified {}/{}, wrong {}, {:.1} tiers",
            self.games as f64 / self.runs as f64,
            self.certified,
            self.runs,
            self.wrong,
            self.tiers as f64 / self.runs as f64
        )
    }
}

/// `runs` adaptive runs of `goal` on `f`, each against a round robin
/// reaching a claim as fine; prints both.
fn compare(f: &Field, goal: Goal, runs: u64, limit: u64) {
    let certifier = Certifier::new(0.95);
    let (mut adaptive, mut round_robin) = (Tally::default(), Tally::default());
    for seed in 1..=runs {
        let a = f
            .adaptive_goal(&certifier, goal, limit, seed)
            .expect("fits");
        adaptive.add(&a);
        if a.claim.is_empty() {
            // Nothing certified: no round robin to compare.
            continue;
        }
        let r = f
            .round_robin_goal(&certifier, goal, a.claim.len(), 40 * limit, seed)
            .expect("fits");
        round_robin.add(&r);
    }
    println!(
        "    {:<7} adaptive {}\n            round robin {}  ({:.1}x the games)",
        goal.to_string(),
        adaptive.text(),
        round_robin.text(),
        round_robin.games as f64 / adaptive.games.max(1) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let named = |name: &str, all: &[&str]| {
        !args.iter().any(|a| all.contains(&a.as_str())) || args.iter().any(|a| a == name)
    };
    let goal_named = |goal: Goal| {
        let name = match goal {
            Goal::Order => "order",
            Goal::Top(_) => "top",
            Goal::Tiers => "tiers",
        };
        named(name, &["order", "top", "tiers"])
    };
    let sizes = if sizes.is_empty() {
        vec![20, 100, 500]
    } else {
        sizes
    };
    for bots in sizes {
        let runs = match bots {
            0..=30 => 20,
            31..=150 => 3,
            _ => 1,
        };
        let limit = 400 * bots as u64;
        for (name, f, top) in [
            ("ladder", ladder(bots), Goal::Top(3)),
            ("groups", groups(bots), Goal::Top(5)),
        ] {
            if !named(name, &["ladder", "groups"]) {
                continue;
            }
            let start = std::time::Instant::now();
            println!("{bots} bots, {name}, confidence 0.95, {runs} runs, at most {limit} games:");
            for goal in [Goal::Order, top, Goal::Tiers] {
                if (name == "groups" && goal == Goal::Order) || !goal_named(goal) {
                    continue;
                }
                compare(&f, goal, runs, limit);
            }
            println!("    ({:.1?})", start.elapsed());
        }
    }
}
