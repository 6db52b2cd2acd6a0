//! A league played by several machines at once (`arena league play DIR
//! --shard K/N`, e.g. a Slurm job array), and their games brought into the
//! league afterwards.
//!
//! The shards of one array share one **plan**, made from the league as it
//! is when they start (they do not change it: no version is registered,
//! nothing is appended to the league): its stamp is a hash of the league's
//! state and of what was asked, so every shard of the array finds the same
//! one, `DIR/shards/STAMP/plan.json`, written once under the league's lock.
//! A plan **reserves** its game ids, `base ..  base + games`, after the
//! league's largest id and after every other plan's range, so a league
//! play (or another plan) never takes them. Shard K of N plays the plan's
//! pairs `p` with `p mod N = K - 1`, as a tournament's shard does, into its
//! own journal, `DIR/shards/STAMP/K-of-N/` (its own lock; a shard
//! restarted after a kill goes on with the games it lacks).
//!
//! An unsharded `arena league play` (`--games 0` plays nothing else)
//! **collects** first: each shard's finished games whose ids the league
//! lacks are appended to its journal as they are, ids included. A game the
//! league has is not added again, so collecting twice, or while shards
//! still play, adds each game once.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use arena_files::{sha256_hex, write_atomically};
use arena_referee::GameRecord;

use super::League;
use crate::game_set::GameSet;
use crate::journal::{Journal, GAMES_JSONL};
use crate::lines::visit_jsonl;
use crate::shard::Shard;

/// The shards' directory of a league.
pub const SHARDS_DIR: &str = "shards";
const PLAN_JSON: &str = "plan.json";

/// The games a league's shards share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub stamp: String,
    /// The first id it reserves.
    pub base: u64,
    /// How many ids it reserves (whole pairs).
    pub games: u64,
    /// The seed of its openings.
    pub seed: u64,
}

impl Plan {
    /// The end of its reserved ids.
    pub fn end(&self) -> u64 {
        self.base + self.games
    }
}

/// The stamp of a plan made from `state` (the league's state and what was
/// asked, in words).
pub fn stamp(state: &str) -> String {
    sha256_hex(state.as_bytes())[..16].to_string()
}

/// Every plan of `league`.
pub fn plans(league: &League) -> anyhow::Result<Vec<Plan>> {
    let dir = league.dir().join(SHARDS_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut plans = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path().join(PLAN_JSON);
        if let Ok(text) = std::fs::read_to_string(&path) {
            let plan = serde_json::from_str(&text)
                .with_context(|| format!("{}: not a shards' plan", path.display()))?;
            plans.push(plan);
        }
    }
    Ok(plans)
}

/// The end of every plan's reserved ids (0 without plans).
pub fn reserved_end(league: &League) -> anyhow::Result<u64> {
    Ok(plans(league)?.iter().map(Plan::end).max().unwrap_or(0))
}

/// The plan of `stamp`: the one written, else `make()`'s, written now.
/// The caller holds the league's lock.
pub fn plan_of(league: &League, stamp: &str, make: impl FnOnce() -> Plan) -> anyhow::Result<Plan> {
    let dir = league.dir().join(SHARDS_DIR).join(stamp);
    let path = dir.join(PLAN_JSON);
    if let Ok(text) = std::fs::read_to_string(&path) {
        return serde_json::from_str(&text)
            .with_context(|| format!("{}: not a shards' plan", path.display()));
    }
    let plan = make();
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let json = serde_json::to_vec_pretty(&plan).context("encoding a shards' plan")?;
    write_atomically(&path, &json)?;
    Ok(plan)
}

/// Shard `shard`'s directory in the plan of `stamp`.
pub fn shard_dir(league: &League, stamp: &str, shard: Shard) -> PathBuf {
    league
        .dir()
        .join(SHARDS_DIR)
        .join(stamp)
        .join(format!("{}-of-{}", shard.index, shard.count))
}

/// Appends to `journal` every finished game of every shard that `finished`
/// (the league's games) lacks; returns how many.
pub fn collect(
    league: &League,
    journal: &mut Journal,
    finished: &mut GameSet,
) -> anyhow::Result<u64> {
    let mut added = 0;
    for dir in shard_journals(league) {
        for record in records(&dir.join(GAMES_JSONL))? {
            let Some(id) = record.number() else { continue };
            if finished.contains(id) {
                continue;
            }
            journal.append(&record)?;
            finished.insert(id);
            added += 1;
        }
    }
    Ok(added)
}

/// Every shard's directory (`shards/STAMP/K-of-N`), in order.
fn shard_journals(league: &League) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(league.dir().join(SHARDS_DIR))
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|plan| {
            std::fs::read_dir(plan.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.join(GAMES_JSONL).is_file())
        .collect();
    dirs.sort();
    dirs
}

/// The complete records of a shard's journal (a torn last line, a game
/// still being written, left out).
fn records(path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    visit_jsonl(path, "a game record", |record| records.push(record))?;
    Ok(records)
}
