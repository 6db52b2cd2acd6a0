//! A run's settings as the run uses them: [`TournamentConfig`], which
//! `tournament.json` stores so that a resumed run uses exactly the same
//! settings, with its identity and the settings `--resume` may change.
//! What each setting is, its rule and its documentation are in
//! [`crate::settings`], defined once; the entry points that build a config
//! from a tournament file and the flags are
//! [`settings::build`](crate::settings::build) ([`load`](crate::settings::build::load),
//! [`from_given`](crate::settings::build::from_given)).
//!
//! ```toml
//! [tournament]
//! variant = "qango6"           # or "all", or "qango6,quinque"; or variants = [...]
//! games_per_pairing = 4        # even: games are played in pairs, colours swapped
//! time_control = "per-move=200"  # or "10+0.1" (seconds)
//! seed = 7                     # default: random, recorded in tournament.json
//!
//! [[bot]]
//! name = "random"
//! command = ["python3", "bots/python/random_bot.py"]
//! cwd = "."                    # relative to this file; default: this file's directory
//! time_control = "5+0.05"      # this bot's own time (time odds); default: the tournament's
//! ```
//!
//! docs/SETTINGS.md lists every setting (it is generated from the
//! definitions). Errors name the file, the line and the field, because a
//! person edits this file by hand and should not have to hunt for the
//! mistake. Flags override the file; `--bot NAME=CMD` replaces the file's
//! bot of that name or adds a new one.

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use serde::{Deserialize, Serialize};

use arena_referee::adjudicate::Adjudication;
use arena_referee::{program_problem, BotSpec, DEFAULT_GRACE_MS};
use arena_rules::games::Variant;
use arena_rules::protocol::{ClockBasis, TimeControl};

use super::openings::{OpeningSuite, Openings};
use super::settings::defs::{self, resumable_flags, Command, Default, Setting, SETTINGS};
use super::settings::resolve::Given;
use super::settings::values::{Origin, SettingValues};
use super::shard::Shard;

/// The machine's defaults, defined with the settings' values.
pub use super::settings::values::Defaults;

/// Everything a run needs, after defaults and flags. This is what
/// `tournament.json` stores, so a resumed run uses exactly the same
/// settings; the fields are the settings' keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Variant id: the first of [`Self::variants`] when there are several.
    pub variant: String,
    /// Every variant of a run of several, in schedule order; empty when the
    /// run plays only `variant` (so one-variant settings, and their
    /// identity, read as before several existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<String>,
    /// Games between each two bots; even, since games come in colour-swapped pairs.
    pub games_per_pairing: u32,
    pub time_control: TimeControl,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Seed of the opening generator.
    pub seed: u64,
    /// Output directory.
    pub out: PathBuf,
    /// Plies of the random opening played before the bots take over.
    pub opening_plies: u32,
    /// Allowance beyond each move's limit before it counts as a timeout, in ms.
    #[serde(default = "default_grace_ms")]
    pub grace_ms: u64,
    /// What the bots' clocks count (`clock`).
    #[serde(default, skip_serializing_if = "ClockBasis::is_wall")]
    pub clock: ClockBasis,
    /// On a CPU clock, a move's most wall time as a multiple of its limit.
    #[serde(
        default = "default_wall_cap",
        skip_serializing_if = "is_default_wall_cap"
    )]
    pub wall_cap: u32,
    /// The journal is synced to disk at most this often, in ms (0: after
    /// every game).
    #[serde(default = "default_sync_interval_ms")]
    pub sync_interval_ms: u64,
    /// After this many start-up failures in a row a bot is disabled (0: never).
    #[serde(default = "default_startup_failures")]
    pub startup_failures: u32,
    pub bots: Vec<BotSpec>,
    /// The opening suite, when openings come from a file rather than
    /// `opening_plies` random moves. (Boxed: most runs have none, and the
    /// config is moved around.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<Box<OpeningSuite>>,
    /// This run plays only this shard of the schedule (`--shard K/N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The gauntlet's seeds, by name: each plays every bot that is not a
    /// seed, and no other games are played. Empty: a round robin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<String>,
    /// Show the standings every this many finished games (0: only at the end).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rating_interval: u64,
    /// Stop the bot that is not on move until its next turn. Left out when
    /// off, so the identity of runs without it is what it was.
    #[serde(default, skip_serializing_if = "is_false")]
    pub suspend_idle: bool,
    /// End games whose value the solver proves (`adjudicate = "solved"`).
    /// Left out when off, so the identity of runs without it is what it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicate: Option<Adjudication>,
}

/// A setting's default whole number, from its definition (for the fields
/// that `tournament.json`s of older runs leave out). Panics on a setting
/// whose default is no whole number: the tests read each one.
fn default_whole(def: &Setting) -> u64 {
    match def.default {
        Default::Whole(n) => n,
        Default::Value(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("the default of {} is no whole number", def.key)),
        _ => panic!("{} has no fixed default", def.key),
    }
}

fn default_wall_cap() -> u32 {
    default_whole(&defs::WALL_CAP) as u32
}

fn is_default_wall_cap(cap: &u32) -> bool {
    *cap == default_wall_cap()
}

fn default_grace_ms() -> u64 {
    DEFAULT_GRACE_MS
}

fn default_sync_interval_ms() -> u64 {
    default_whole(&defs::SYNC_INTERVAL_MS)
}

fn default_startup_failures() -> u32 {
    default_whole(&defs::STARTUP_FAILURES) as u32
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_false(on: &bool) -> bool {
    !*on
}

impl TournamentConfig {
    pub fn variant(&self) -> &'static Variant {
        Variant::by_id(&self.variant).expect("variant validated when the config was built")
    }

    /// The variants the run plays, in schedule order (at least one).
    pub fn variants(&self) -> Vec<&'static Variant> {
        self.variant_ids()
            .iter()
            .map(|id| Variant::by_id(id).expect("variants validated when the config was built"))
            .collect()
    }

    /// Where each game pair's opening comes from: the suite, else random
    /// plies.
    pub fn pair_openings(&self) -> Openings {
        match &self.openings {
            None => Openings::Random {
                plies: self.opening_plies,
                seed: self.seed,
            },
            Some(suite) => Openings::from_suite(suite, self.seed),
        }
    }

    /// The ids of [`Self::variants`].
    pub fn variant_ids(&self) -> Vec<String> {
        if self.variants.is_empty() {
            vec![self.variant.clone()]
        } else {
            self.variants.clone()
        }
    }

    pub fn bot_names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// Each bot with its own time control (time odds), as `NAME TC`:
    /// `["rnd per-move=1500"]`; empty when every bot plays `time_control`.
    pub fn time_odds(&self) -> Vec<String> {
        self.bots
            .iter()
            .filter_map(|bot| Some(format!("{} {}", bot.name, bot.time_control?)))
            .collect()
    }

    /// Indices (in `bots`) of the gauntlet's seeds, in the order given;
    /// empty for a round robin.
    pub fn seed_indices(&self) -> Vec<usize> {
        self.seeds
            .iter()
            .filter_map(|seed| self.bots.iter().position(|b| &b.name == seed))
            .collect()
    }

    /// `Err` naming the first bot whose program cannot start (missing, not
    /// executable, not a valid executable, or its directory missing), with
    /// the fix: asked before any game of a new or resumed run.
    pub fn check_programs(&self) -> anyhow::Result<()> {
        match self.bots.iter().find_map(program_problem) {
            Some(problem) => Err(anyhow!(problem)),
            None => Ok(()),
        }
    }

    /// Applies the settings that may change on `--resume` (those defined
    /// `on_resume`: they change no game), each read by its definition; any
    /// other given setting is an error naming it.
    pub fn resume_with(&mut self, given: &Given) -> anyhow::Result<()> {
        let mut values = SettingValues::default();
        for (def, texts) in given.settings() {
            let flag = def.flag_text().unwrap_or_else(|| def.key.to_string());
            if !def.on_resume {
                anyhow::bail!(
                    "{flag} cannot change when a run is resumed: its settings are in tournament.json (only {} may)",
                    resumable_flags(Command::Tournament).join(" and ")
                );
            }
            let value = def
                .kind
                .read_texts(texts)
                .map_err(|m| anyhow!("{flag}: {m}"))?;
            (def.place.get_mut)(&mut values).put(value, Origin::Flag(flag));
        }
        if values.concurrency.given() {
            self.concurrency = values.concurrency.value as usize;
        }
        if values.rating_interval.given() {
            self.rating_interval = values.rating_interval.value;
        }
        Ok(())
    }

    /// The tournament's identity: 16 hex digits of a 64-bit FNV-1a hash of
    /// the config's JSON without the settings that are not part of it
    /// (their definitions say: the output directory, the shard, the
    /// concurrency, the rating interval). Shards of one tournament share
    /// it, and `arena merge` refuses directories whose identities differ.
    /// Stable across runs and machines of one arena version; it guards
    /// against mixing up directories, it is not a cryptographic seal.
    pub fn identity(&self) -> anyhow::Result<String> {
        let mut value = serde_json::to_value(self).context("serializing the settings")?;
        if let Some(object) = value.as_object_mut() {
            for def in SETTINGS.iter().filter(|s| !s.identity) {
                object.remove(def.key);
            }
        }
        let text = serde_json::to_string(&value).context("serializing the settings")?;
        Ok(format!("{:016x}", fnv1a(text.as_bytes())))
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
