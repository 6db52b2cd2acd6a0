//! `tournament.json`: the resolved settings and the plan of a run, written
//! once when the run starts so that `--resume DIR` continues exactly the
//! same tournament (same bots, time control and games) whatever flags or
//! files have changed since.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::config::TournamentConfig;
use super::schedule::{game_pair, random_opening, ScheduledGame};

pub const MANIFEST_FILE: &str = "tournament.json";

/// Bumped when the file's meaning changes incompatibly.
pub const MANIFEST_FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// `arena` version that started the run.
    pub arena_version: String,
    pub config: TournamentConfig,
    pub plan: Plan,
}

/// What games the run consists of.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Plan {
    /// A fixed round-robin schedule, stored in full.
    RoundRobin { schedule: Vec<ScheduledGame> },
    /// Game pairs between bot 0 and bot 1 until the test decides; pair `p`
    /// has games `2p` and `2p + 1` and its opening from the config's seed.
    Sprt(SprtPlan),
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SprtPlan {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Stop undecided after this many pairs (`None`: no limit).
    pub max_pairs: Option<u64>,
}

impl Manifest {
    pub fn new(config: TournamentConfig, plan: Plan) -> Manifest {
        Manifest {
            format: MANIFEST_FORMAT,
            arena_version: env!("CARGO_PKG_VERSION").to_string(),
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
        super::journal::write_atomically(&Self::path(dir), format!("{text}\n").as_bytes())
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
        if let Plan::RoundRobin { schedule } = &manifest.plan {
            super::schedule::validate(
                schedule,
                manifest.config.variant(),
                manifest.config.bots.len(),
            )
            .with_context(|| format!("{}", path.display()))?;
        }
        Ok(manifest)
    }

    /// The game with id `id` under this plan, or `None` if the plan has no
    /// such game. SPRT games are computed: pair `id / 2`, bot 0 white in
    /// the pair's first game, the pair's seeded opening.
    pub fn scheduled_game(&self, id: u64) -> anyhow::Result<Option<ScheduledGame>> {
        match &self.plan {
            Plan::RoundRobin { schedule } => Ok(usize::try_from(id)
                .ok()
                .and_then(|i| schedule.get(i))
                .cloned()),
            Plan::Sprt(sprt) => {
                let pair = id / 2;
                if sprt.max_pairs.is_some_and(|max| pair >= max) {
                    return Ok(None);
                }
                let config = &self.config;
                let opening =
                    random_opening(config.variant(), config.opening_plies, config.seed, pair)?;
                let [first, second] = game_pair(pair, pair, 0, 1, opening);
                Ok(Some(if id.is_multiple_of(2) { first } else { second }))
            }
        }
    }
}
