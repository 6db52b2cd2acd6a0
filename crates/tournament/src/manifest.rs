//! `tournament.json`: the resolved settings and the plan of a run, written
//! once when the run starts so that `--resume DIR` continues exactly the
//! same tournament (same bots, time control and games) whatever flags or
//! files have changed since.
//!
//! The games themselves are not listed: each is computed from the settings
//! and the seed by the run's format (a round robin's schedule, the SPRT's
//! pairs; a Swiss's or knockout's from the results before them too,
//! [`crate::paired`]), so the file stays the same size however many games
//! the run has. The plan ([`Plan`]) is the format's, which this module
//! reads and writes without knowing its fields.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use arena_rules::protocol::ClockBasis;
use serde::de::DeserializeOwned;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::config::TournamentConfig;
use super::identity::{identify, BotIdentity};
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

/// What games the run consists of: its format's plan as tournament.json
/// holds it, `"kind"` (the format's name, [`crate::registry`]) then the
/// plan's own fields in their order. Only the format reads the fields
/// ([`Plan::read`], into its own plan type), so a new format needs nothing
/// here.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    kind: String,
    fields: Vec<(String, Value)>,
}

/// A format's own plan, the fields of its [`Plan`].
pub trait FormatPlan: Serialize + DeserializeOwned {
    /// The plan's `kind` in tournament.json: the format's name.
    const KIND: &'static str;
}

impl Plan {
    /// The plan of `plan`'s format.
    pub fn of<P: FormatPlan>(plan: &P) -> Plan {
        // Through JSON text, which keeps the fields in their order (a
        // `serde_json::Map` would sort them).
        let text = serde_json::to_string(plan).expect("a plan is plain data");
        let Fields(fields) = serde_json::from_str(&text).expect("a plan is a JSON object");
        Plan {
            kind: P::KIND.to_string(),
            fields,
        }
    }

    /// The format's name (`round_robin`, `sprt`, ...).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// Whether this is a plan of `P`'s format.
    pub fn is<P: FormatPlan>(&self) -> bool {
        self.kind == P::KIND
    }

    /// The plan as its format's plan type; fails when it is another
    /// format's, or its fields are not `P`'s.
    pub fn read<P: FormatPlan>(&self) -> anyhow::Result<P> {
        if !self.is::<P>() {
            bail!("the plan is of format {:?}, not {:?}", self.kind, P::KIND);
        }
        let map: serde_json::Map<String, Value> = self.fields.iter().cloned().collect();
        serde_json::from_value(Value::Object(map))
            .with_context(|| format!("the plan of format {:?}", self.kind))
    }
}

impl Serialize for Plan {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1 + self.fields.len()))?;
        map.serialize_entry("kind", &self.kind)?;
        for (key, value) in &self.fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Plan {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Plan, D::Error> {
        let Fields(mut fields) = Fields::deserialize(d)?;
        let Some(k) = fields.iter().position(|(key, _)| key == "kind") else {
            return Err(serde::de::Error::missing_field("kind"));
        };
        match fields.remove(k).1 {
            Value::String(kind) => Ok(Plan { kind, fields }),
            other => Err(serde::de::Error::custom(format!(
                "the plan's kind must be a string, got {other}"
            ))),
        }
    }
}

/// A JSON object's fields in the order of the text.
struct Fields(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Fields, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = a.next_entry::<String, Value>()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(Visit)
    }
}

impl Manifest {
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
        Ok(manifest)
    }

    /// The part of the schedule this run plays (the whole when unsharded).
    pub fn shard(&self) -> Shard {
        self.config.shard.unwrap_or(Shard::WHOLE)
    }
}
