//! `tournament.json`: the resolved settings and the plan of a run, written
//! once when the run starts so that `--resume DIR` continues exactly the
//! same tournament (same bots, time control and games) whatever flags or
//! files have changed since.
//!
//! The games themselves are not listed: each is computed from the settings
//! and the seed ([`RoundRobinSchedule`], the SPRT's pairs; a Swiss's or
//! knockout's from the results before them too, [`crate::paired`]), so the
//! file stays the same size however many games the run has. The plan
//! records the schedule version it was made with.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use arena_rules::protocol::ClockBasis;
use arena_stats::EloModel;
use serde::{Deserialize, Serialize};

use super::config::TournamentConfig;
use super::identity::{identify, BotIdentity};
use super::schedule::{
    game_pair, gauntlet_pairings, RoundRobinSchedule, ScheduledGame, SCHEDULE_VERSION,
};
use super::shard::Shard;

pub use super::output_files::MANIFEST_FILE;

/// Bumped when the file's meaning changes incompatibly.
/// Format 1 listed every scheduled game; format 2 computes them.
pub const MANIFEST_FORMAT: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// `arena` version that started the run.
    pub arena_version: String,
    /// The tournament's identity ([`TournamentConfig::identity`]): the same for every
    /// shard of one tournament and for their merge. Files written before
    /// sharding existed have none (empty).
    #[serde(default)]
    pub identity: String,
    pub config: TournamentConfig,
    pub plan: Plan,
    /// SHA-256 of each bot's program files when the run started (absent in
    /// runs recorded before it existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<BotIdentity>,
    /// On a CPU clock (`clock = "cpu"`), how a move's CPU time is measured
    /// ([`cpu_time_source`]); absent on a wall clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_time: Option<String>,
}

/// How arena measures a move's CPU time on this machine (said in
/// `tournament.json` on a CPU clock): a cgroup per bot where it can make
/// one (`arena_referee::cgroup`), else the bot's process clock
/// (`arena_referee::cpu_clock`).
pub fn cpu_time_source() -> &'static str {
    if arena_referee::cgroup::available() {
        "a cgroup v2 per bot (cpu.stat): user + system time of the bot's whole process tree"
    } else {
        "the POSIX CPU-time clock of each bot's process (user + system time of all its threads; processes it starts are not counted: no writable cgroup v2 here)"
    }
}

/// What games the run consists of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Plan {
    /// A round-robin (or, when the config has seeds, a gauntlet) computed
    /// from the config ([`RoundRobinSchedule`]): `games` games, by schedule
    /// version `schedule_version`.
    RoundRobin { schedule_version: u32, games: u64 },
    /// Game pairs between bot 0 and bot 1 until the test decides; pair `p`
    /// has games `2p` and `2p + 1` and its opening from the config's seed.
    Sprt(SprtPlan),
    /// A Swiss of `rounds` rounds ([`crate::swiss`]): each round's games
    /// follow from the results of the rounds before it and the seed.
    Swiss(SwissPlan),
    /// A seeded single-elimination bracket ([`crate::knockout`]).
    Knockout(KnockoutPlan),
    /// Rounds of game pairs chosen from the results until the ranking is
    /// certified or `max_games` are played ([`crate::adaptive`]).
    Adaptive(AdaptivePlan),
}

/// An adaptive ranking's plan (`format = "adaptive"`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AdaptivePlan {
    /// The certified order is wrong with at most `1 - confidence`.
    pub confidence: f64,
    /// Stop uncertified after this many games (rounded down to pairs).
    pub max_games: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlan {
    pub rounds: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnockoutPlan {
    /// Extra game pairs a tied match plays, one at a time, before the
    /// higher seed advances.
    pub tiebreak_pairs: u32,
}

impl Plan {
    /// Whether the plan's games depend on the results of earlier games (a
    /// Swiss, a knockout, an adaptive ranking): then no game can be
    /// computed from its id alone, and the format checks the finished games
    /// it replays.
    pub fn follows_results(&self) -> bool {
        matches!(self, Plan::Swiss(_) | Plan::Knockout(_) | Plan::Adaptive(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtPlan {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Stop undecided after this many pairs (`None`: no limit).
    pub max_pairs: Option<u64>,
    /// The Elo scale of `elo0` and `elo1`. Runs recorded before the choice
    /// existed used logistic Elo, so a missing field means that.
    #[serde(default = "logistic")]
    pub model: EloModel,
}

fn logistic() -> EloModel {
    EloModel::Logistic
}

impl Manifest {
    /// A round-robin of `config`'s bots.
    pub fn round_robin(config: TournamentConfig) -> Manifest {
        let games = round_robin_schedule(&config).len();
        Manifest::new(
            config,
            Plan::RoundRobin {
                schedule_version: SCHEDULE_VERSION,
                games,
            },
        )
    }

    pub fn new(config: TournamentConfig, plan: Plan) -> Manifest {
        // A config always serializes (plain data); an empty identity would
        // only make `arena merge` refuse the directory.
        let identity = config.identity().unwrap_or_default();
        Manifest {
            programs: identify(&config.bots),
            cpu_time: (config.clock == ClockBasis::Cpu).then(|| cpu_time_source().to_string()),
            format: MANIFEST_FORMAT,
            arena_version: env!("CARGO_PKG_VERSION").to_string(),
            identity,
            config,
            plan,
        }
    }

    pub fn path(dir: &Path) -> PathBuf {
        dir.join(MANIFEST_FILE)
    }

    /// Writes the manifest atomically (temporary file, fsync, rename).
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self).context("serializing tournament.json")?;
        arena_files::write_atomically(&Self::path(dir), format!("{text}\n").as_bytes())
    }

    /// Reads and checks `DIR/tournament.json`.
    pub fn read(dir: &Path) -> anyhow::Result<Manifest> {
        let path = Self::path(dir);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "cannot read {} (is {} the output directory of a tournament?)",
                path.display(),
                dir.display()
            )
        })?;
        let manifest: Manifest = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a valid tournament file", path.display()))?;
        if manifest.format != MANIFEST_FORMAT {
            bail!(
                "{}: format {} is not supported by this arena (expects {MANIFEST_FORMAT})",
                path.display(),
                manifest.format
            );
        }
        manifest
            .config
            .validate()
            .with_context(|| format!("{}", path.display()))?;
        if let Plan::RoundRobin {
            schedule_version,
            games,
        } = manifest.plan
        {
            if schedule_version != SCHEDULE_VERSION {
                bail!(
                    "{}: schedule version {schedule_version} is not supported by this arena (expects {SCHEDULE_VERSION})",
                    path.display()
                );
            }
            let computed = round_robin_schedule(&manifest.config).len();
            if games != computed {
                bail!(
                    "{}: the plan says {games} games, but its settings give {computed}",
                    path.display()
                );
            }
        }
        Ok(manifest)
    }

    /// The plan's format as `format` names it (a gauntlet is a round robin's plan).
    pub fn format_name(&self) -> &'static str {
        match self.plan {
            Plan::RoundRobin { .. } if !self.config.seeds.is_empty() => "gauntlet",
            Plan::RoundRobin { .. } => "round_robin",
            Plan::Sprt(_) => "sprt",
            Plan::Swiss(_) => "swiss",
            Plan::Knockout(_) => "knockout",
            Plan::Adaptive(_) => "adaptive",
        }
    }

    /// The part of the schedule this run plays (the whole when unsharded).
    pub fn shard(&self) -> Shard {
        self.config.shard.unwrap_or(Shard::WHOLE)
    }

    /// The round-robin schedule, if the plan is one.
    pub fn schedule(&self) -> Option<RoundRobinSchedule> {
        match self.plan {
            Plan::RoundRobin { .. } => Some(round_robin_schedule(&self.config)),
            Plan::Sprt(_) | Plan::Swiss(_) | Plan::Knockout(_) | Plan::Adaptive(_) => None,
        }
    }

    /// The game with id `id` under this plan, or `None` if the plan has no
    /// such game. SPRT games are computed: pair `id / 2`, bot 0 white in
    /// the pair's first game, the pair's seeded opening. (To look up many
    /// round-robin games, keep [`Manifest::schedule`] instead.) An adaptive
    /// plan's games depend on the results, so it has none here.
    pub fn scheduled_game(&self, id: u64) -> anyhow::Result<Option<ScheduledGame>> {
        match &self.plan {
            Plan::RoundRobin { .. } => round_robin_schedule(&self.config).game(id),
            Plan::Adaptive(_) => Ok(None),
            Plan::Sprt(sprt) => {
                let pair = id / 2;
                if sprt.max_pairs.is_some_and(|max| pair >= max) {
                    return Ok(None);
                }
                let config = &self.config;
                let opening = config.pair_openings().for_pair(config.variant(), pair)?;
                let [first, second] = game_pair(config.variant(), pair, pair, 0, 1, opening);
                Ok(Some(if id.is_multiple_of(2) { first } else { second }))
            }
            Plan::Swiss(_) | Plan::Knockout(_) => bail!(
                "game g{id}: the games of a {} follow from the results before them; its format computes them",
                self.format_name()
            ),
        }
    }
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
