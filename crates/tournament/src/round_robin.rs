//! The round robin (`format = "round_robin"`), or a gauntlet (the same
//! schedule over fewer pairings, when the config has seeds), as a
//! [`Format`]: every game of the schedule (of this run's shard), in
//! schedule order, each computed when it is due.

use std::path::Path;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use super::config::TournamentConfig;
use super::format::{Format, FormatRow, RunState, Standings, Verdict};
use super::manifest::{FormatPlan, Manifest, Plan};
use super::progress::RunOutput;
use super::runner::Flow;
use super::schedule::{gauntlet_pairings, RoundRobinSchedule, ScheduledGame, SCHEDULE_VERSION};
use super::shard::Shard;
use super::text::{describe_suspension, run_settings};
use arena_referee::GameRow;

/// The round robin's line in the registry.
pub const FORMAT: FormatRow = FormatRow {
    kind: RoundRobinPlan::KIND,
    plan: |r, config| {
        // A gauntlet is a round robin over fewer pairings (the config's seeds).
        let chosen = !r.sprt && matches!(r.values.format.value, "round_robin" | "gauntlet");
        Ok(chosen.then(|| Plan::of(&RoundRobinPlan::of(config))))
    },
    open: |manifest| Ok(Box::new(RoundRobin::of(manifest)?)),
};

/// A round robin's plan: `games` games computed from the config
/// ([`round_robin_schedule`]) by schedule version `schedule_version`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinPlan {
    pub schedule_version: u32,
    pub games: u64,
}

impl FormatPlan for RoundRobinPlan {
    const KIND: &'static str = "round_robin";
}

impl RoundRobinPlan {
    /// The plan of `config`'s round robin (its gauntlet when it has seeds).
    pub fn of(config: &TournamentConfig) -> RoundRobinPlan {
        RoundRobinPlan {
            schedule_version: SCHEDULE_VERSION,
            games: round_robin_schedule(config).len(),
        }
    }
}

impl Manifest {
    /// A round-robin of `config`'s bots (a gauntlet when it has seeds).
    pub fn round_robin(config: TournamentConfig) -> Manifest {
        let plan = Plan::of(&RoundRobinPlan::of(&config));
        Manifest::new(config, plan)
    }

    /// The round-robin schedule, if the plan is one.
    pub fn schedule(&self) -> Option<RoundRobinSchedule> {
        self.plan
            .is::<RoundRobinPlan>()
            .then(|| round_robin_schedule(&self.config))
    }
}

/// The round-robin plan of `manifest`, checked against this arena's
/// schedule (its version, and the games its settings give).
pub fn checked_plan(manifest: &Manifest) -> anyhow::Result<RoundRobinPlan> {
    let plan: RoundRobinPlan = manifest.plan.read()?;
    if plan.schedule_version != SCHEDULE_VERSION {
        bail!(
            "schedule version {} is not supported by this arena (expects {SCHEDULE_VERSION})",
            plan.schedule_version
        );
    }
    let computed = round_robin_schedule(&manifest.config).len();
    if plan.games != computed {
        bail!(
            "the plan says {} games, but its settings give {computed}",
            plan.games
        );
    }
    Ok(plan)
}

/// The round-robin of `config`'s bots, games and openings; a gauntlet's
/// pairings when the config has seeds.
pub fn round_robin_schedule(config: &TournamentConfig) -> RoundRobinSchedule {
    let schedule = RoundRobinSchedule::new(
        config.variant(),
        config.bots.len(),
        config.games_per_pairing,
        config.opening_plies,
        config.seed,
    )
    .with_openings(config.pair_openings())
    .with_variants(config.variants());
    if config.seeds.is_empty() {
        schedule
    } else {
        schedule.with_pairings(gauntlet_pairings(config.bots.len(), &config.seed_indices()))
    }
}

/// The scheduled games not played yet (of this run's shard), in schedule
/// order; which are finished is the driver's to know.
#[derive(Clone)]
pub struct RoundRobin {
    schedule: RoundRobinSchedule,
    shard: Shard,
    next_id: u64,
}

impl RoundRobin {
    /// Every game of `schedule`.
    pub fn new(schedule: RoundRobinSchedule) -> RoundRobin {
        RoundRobin {
            schedule,
            shard: Shard::WHOLE,
            next_id: 0,
        }
    }

    /// The round robin (or gauntlet) `manifest` plans, of its shard. Fails
    /// on a plan of another schedule, and when an opening length no game
    /// allows makes its first games impossible (here, not mid-run).
    pub fn of(manifest: &Manifest) -> anyhow::Result<RoundRobin> {
        checked_plan(manifest)?;
        let schedule = round_robin_schedule(&manifest.config);
        for id in schedule.first_games() {
            schedule.game(id)?;
        }
        Ok(RoundRobin::new(schedule).with_shard(manifest.shard()))
    }

    /// Plays only `shard`'s games of the schedule.
    pub fn with_shard(mut self, shard: Shard) -> RoundRobin {
        self.shard = shard;
        self
    }

    /// Games this run plays: its shard's part of the schedule.
    pub fn games(&self) -> u64 {
        self.shard.games_of(self.schedule.len())
    }
}

impl Format for RoundRobin {
    fn started(&self, config: &TournamentConfig, dir: &Path) -> Vec<String> {
        let format = match config.seeds.as_slice() {
            [] => "Round robin".to_string(),
            seeds => format!("Gauntlet of {}", seeds.join(", ")),
        };
        vec![
            format!(
                "{format}: {} bots, {}, {} games ({} per pairing), {}{}",
                config.bots.len(),
                config.variant_ids().join(", "),
                self.games(),
                config.games_per_pairing,
                run_settings(config, true),
                describe_suspension(config),
            ),
            format!("Output: {}", dir.display()),
        ]
    }

    fn total(&self) -> Option<u64> {
        Some(self.games())
    }

    fn check_recorded(&self, row: &GameRow, config: &TournamentConfig) -> anyhow::Result<()> {
        let Some(game) = self.schedule.game(row.id)? else {
            bail!("game g{} is not part of this run's plan", row.id);
        };
        if !self.shard.contains_game(row.id) {
            bail!(
                "game g{} is not part of this run's shard {}",
                row.id,
                self.shard
            );
        }
        game.check_row(row, &config.bot_names())
    }

    fn next_game(&mut self, run: &RunState) -> anyhow::Result<Option<ScheduledGame>> {
        loop {
            let id = self.shard.next_game(self.next_id);
            if id >= self.schedule.len() {
                break;
            }
            self.next_id = id + 1;
            if !run.done.contains(id) {
                return self.schedule.game(id);
            }
        }
        Ok(None)
    }

    fn finished(&mut self, _row: &GameRow, _run: &RunState, _output: &mut dyn RunOutput) -> Flow {
        Flow::Continue
    }

    fn verdict(&self, _run: &RunState) -> Box<dyn Verdict> {
        Box::new(Standings)
    }

    fn describe(&self, config: &TournamentConfig, _dir: &Path) -> String {
        let games = self.schedule.len();
        match config.seeds.as_slice() {
            [] => format!("round robin, {games} games"),
            seeds => format!("gauntlet of {}, {games} games", seeds.join(", ")),
        }
    }
}
