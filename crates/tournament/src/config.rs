//! The tournament file (TOML) and command-line overrides, resolved into one
//! [`TournamentConfig`].
//!
//! ```toml
//! [tournament]
//! variant = "qango6"           # or "all", or "qango6,quinque"
//! variants = ["qango6", "quinque"]  # instead of `variant`: several variants in one run
//! games_per_pairing = 4        # even: games are played in pairs, colours swapped
//! time_control = "per-move=200"  # or "10+0.1" (seconds), or move_ms / base_ms + increment_ms
//! concurrency = 2              # games at once; default: number of cores
//! seed = 7                     # default: random, recorded in tournament.json
//! out = "arena-out/mine"       # default: arena-out/<timestamp>
//! opening_plies = 2            # random legal opening shared by both games of a pair
//! grace_ms = 100               # allowance beyond each move's limit before a timeout
//! sync_interval_ms = 200       # journal fdatasync at most this often (0: after every game)
//! startup_failures = 3         # stop starting a bot after this many start-up failures in a row (0: never)
//! openings = "openings/qango6.txt"  # opening suite (instead of opening_plies); relative to this file
//! openings_order = "sequential" # or "random" (one seeded shuffle); the suite cycles when short
//! openings_start = 0           # index of the first pair's opening
//! shard = "2/4"                # play only shard 2 of 4 (needs a fixed seed; `arena merge`)
//! format = "gauntlet"          # or "round_robin" (the default)
//! seeds = ["new"]              # the gauntlet's seeds (default: the first bot)
//! rating_interval = 100        # print the standings every 100 finished games (0: never)
//!
//! [[bot]]
//! name = "random"
//! command = ["python3", "bots/python/random_bot.py"]
//! cwd = "."                    # relative to this file; default: this file's directory
//! env = { PYTHONUNBUFFERED = "1" }
//! limits = { memory_mb = 512, startup_ms = 5000 }
//! time_control = "5+0.05"      # this bot's own time (time odds); default: the tournament's
//! ```
//!
//! With several variants every two bots play `games_per_pairing` games in
//! each of them (see [`super::schedule`]); an opening suite belongs to one
//! variant, so it cannot be combined with several.
//! A gauntlet (`format = "gauntlet"`, or `--gauntlet NAME`) plays only the
//! games of its seeds: each seed meets every bot that is not a seed, and
//! neither the seeds nor the others meet among themselves (cutechess-cli's
//! gauntlet, with several seeds allowed).
//!
//! Errors name the file, the line and the field, because a person edits this
//! file by hand and should not have to hunt for the mistake. Flags given on
//! the command line override the file; `--bot NAME=CMD` replaces the file's
//! bot of that name or adds a new one.
//!
//! Settings go through three stages: raw (the file as written, `RawFile`,
//! and [`Overrides`]), resolved (one value per setting with where it came
//! from, `Resolved`: flag beats file beats default) and validated (the
//! [`TournamentConfig`], produced by the one validation pass, `validate`,
//! which also re-checks a resumed `tournament.json`).

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::shard::Shard;
use arena_referee::BotSpec;
use arena_rules::games::Variant;
use arena_rules::protocol::TimeControl;
use arena_stats::MAX_BOTS;

use arena_referee::{parse_time_control, DEFAULT_GRACE};

use super::openings::{parse_suite, suite_line, OpeningOrder, OpeningSuite};
use arena_files::{sha256_hex, utc_timestamp};

fn default_grace_ms() -> u64 {
    DEFAULT_GRACE.as_millis() as u64
}

/// How often, at most, the journal is synced to disk by default.
pub const DEFAULT_SYNC_INTERVAL_MS: u64 = 200;

/// Longest accepted journal sync interval: what a machine crash may lose.
pub const MAX_SYNC_INTERVAL_MS: u64 = 60_000;

fn default_sync_interval_ms() -> u64 {
    DEFAULT_SYNC_INTERVAL_MS
}

/// Consecutive start-up failures after which a bot is no longer started.
pub const DEFAULT_STARTUP_FAILURES: u32 = 3;

fn default_startup_failures() -> u32 {
    DEFAULT_STARTUP_FAILURES
}

/// Variant used when neither the file nor a flag names one.
const DEFAULT_VARIANT: &str = "qango6";
/// Games per pairing when not configured: one game pair.
const DEFAULT_GAMES_PER_PAIRING: u32 = 2;
/// Per-move limit when no time control is configured.
const DEFAULT_MOVE_MS: u64 = 1000;

/// Everything a tournament needs, after defaults and overrides. This is what
/// `tournament.json` stores, so a resumed run uses exactly the same settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Variant id (validated against [`Variant::by_id`]): the first of
    /// [`Self::variants`] when there are several.
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
    /// Allowance beyond each move's limit before it counts as a timeout, in
    /// ms: absorbs scheduling noise when many games share few cores.
    #[serde(default = "default_grace_ms")]
    pub grace_ms: u64,
    /// The journal is synced to disk (`fdatasync`) at most this often, in
    /// ms, and at the end; 0 syncs after every game. A kill of arena loses
    /// nothing written; a machine crash loses at most this interval, which
    /// `--resume` plays again.
    #[serde(default = "default_sync_interval_ms")]
    pub sync_interval_ms: u64,
    /// After this many start-up failures in a row, a bot is disabled: its
    /// remaining games are recorded as `startup` losses without starting
    /// it. 0 never disables.
    #[serde(default = "default_startup_failures")]
    pub startup_failures: u32,
    pub bots: Vec<BotSpec>,
    /// The opening suite, when openings come from a file rather than
    /// `opening_plies` random moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// (Boxed: most runs have none, and the config is moved around.)
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
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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

    /// Indices (in `bots`) of the gauntlet's seeds, in the order given;
    /// empty for a round robin.
    pub fn seed_indices(&self) -> Vec<usize> {
        self.seeds
            .iter()
            .filter_map(|seed| self.bots.iter().position(|b| &b.name == seed))
            .collect()
    }

    /// What [`load`] checks on disk for a config built another way (flags,
    /// `arena sprt`): each bot's directory exists and its program, given as
    /// a path, is an executable file. Errors name the bot and the field.
    pub fn check_files(&self) -> anyhow::Result<()> {
        match self.bots.iter().find_map(bot_file_problem) {
            Some(problem) => Err(anyhow!(problem)),
            None => Ok(()),
        }
    }

    /// Checks the invariants every config must satisfy, by the same rules
    /// [`load`] applies: used for a `tournament.json` being resumed, whose
    /// values have no line to point at.
    pub fn validate(&self) -> anyhow::Result<()> {
        let unlocated = |field| Origin::Unlocated { field };
        let sourced = |value: i128, field| Sourced {
            value,
            origin: unlocated(field),
        };
        let resolved = Resolved {
            variant: Sourced {
                value: self.variant_ids(),
                origin: unlocated("variants"),
            },
            games_per_pairing: sourced(self.games_per_pairing.into(), "games_per_pairing"),
            time_control: Sourced {
                value: self.time_control,
                origin: unlocated("time_control"),
            },
            concurrency: sourced(self.concurrency as i128, "concurrency"),
            seed: sourced(self.seed.into(), "seed"),
            out: Sourced {
                value: self.out.clone(),
                origin: unlocated("out"),
            },
            opening_plies: sourced(self.opening_plies.into(), "opening_plies"),
            grace_ms: sourced(self.grace_ms.into(), "grace_ms"),
            sync_interval_ms: sourced(self.sync_interval_ms.into(), "sync_interval_ms"),
            startup_failures: sourced(self.startup_failures.into(), "startup_failures"),
            shard: self.shard.map(|shard| Sourced {
                value: shard.to_string(),
                origin: unlocated("shard"),
            }),
            seed_is_default: false,
            format: Sourced {
                value: if self.seeds.is_empty() {
                    Format::RoundRobin
                } else {
                    Format::Gauntlet
                },
                origin: unlocated("format"),
            },
            seeds: Sourced {
                value: self.seeds.clone(),
                origin: unlocated("seeds"),
            },
            rating_interval: sourced(self.rating_interval.into(), "rating_interval"),
            bots: self
                .bots
                .iter()
                .map(|bot| Sourced {
                    value: bot.clone(),
                    origin: unlocated("bot"),
                })
                .collect(),
            openings: self.openings.as_ref().map(|suite| Sourced {
                value: SuiteSource {
                    file: suite.file.clone(),
                    text: suite
                        .openings
                        .iter()
                        .map(|o| suite_line(o) + "\n")
                        .collect(),
                    sha256: suite.sha256.clone(),
                },
                origin: unlocated("openings"),
            }),
            openings_order: Sourced {
                value: self
                    .openings
                    .as_ref()
                    .map_or(OpeningOrder::default(), |s| s.order),
                origin: unlocated("openings_order"),
            },
            openings_start: sourced(
                self.openings.as_ref().map_or(0, |s| s.start).into(),
                "openings_start",
            ),
        };
        let nowhere = Source {
            path: Path::new(""),
            text: "",
        };
        validate(resolved, &nowhere).map(drop)
    }
}

/// Values given on the command line; each one beats the file.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--variant`: an id, a comma list of ids, or `all`.
    pub variant: Option<String>,
    pub games_per_pairing: Option<u32>,
    /// `per-move=MS` or `BASE+INC` (seconds).
    pub time_control: Option<String>,
    pub concurrency: Option<usize>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    pub opening_plies: Option<u32>,
    pub grace_ms: Option<u64>,
    pub sync_interval_ms: Option<u64>,
    pub startup_failures: Option<u32>,
    /// `--shard K/N`.
    pub shard: Option<String>,
    /// `NAME=COMMAND LINE`.
    pub bots: Vec<String>,
    /// `--sandbox`: every bot runs in the sandbox, whatever the file says.
    pub sandbox: bool,
    /// `--openings FILE`: an opening suite.
    pub openings: Option<PathBuf>,
    /// `--openings-order sequential|random`.
    pub openings_order: Option<String>,
    /// `--openings-start N`.
    pub openings_start: Option<u64>,
    /// `--gauntlet NAME` (repeatable): a gauntlet with these seeds.
    pub gauntlet: Vec<String>,
    /// `--rating-interval N`.
    pub rating_interval: Option<u64>,
}

/// The `[tournament]` table as written, every field optional and spanned so
/// that semantic errors can point at their line.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    variant: Option<Spanned<String>>,
    variants: Option<Spanned<Vec<String>>>,
    games_per_pairing: Option<Spanned<i64>>,
    time_control: Option<Spanned<String>>,
    move_ms: Option<Spanned<i64>>,
    base_ms: Option<Spanned<i64>>,
    increment_ms: Option<Spanned<i64>>,
    concurrency: Option<Spanned<i64>>,
    seed: Option<Spanned<i64>>,
    out: Option<Spanned<PathBuf>>,
    opening_plies: Option<Spanned<i64>>,
    grace_ms: Option<Spanned<i64>>,
    sync_interval_ms: Option<Spanned<i64>>,
    startup_failures: Option<Spanned<i64>>,
    shard: Option<Spanned<String>>,
    /// Default for bots without their own `sandbox` setting.
    sandbox: Option<bool>,
    openings: Option<Spanned<PathBuf>>,
    openings_order: Option<Spanned<String>>,
    openings_start: Option<Spanned<i64>>,
    format: Option<Spanned<String>>,
    seeds: Option<Spanned<Vec<String>>>,
    rating_interval: Option<Spanned<i64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    tournament: RawTournament,
    #[serde(default)]
    bot: Vec<Spanned<BotSpec>>,
}

/// Locates errors inside one file's text.
struct Source<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Source<'_> {
    fn line_of(&self, span: &Range<usize>) -> usize {
        let end = span.start.min(self.text.len());
        self.text[..end].bytes().filter(|&b| b == b'\n').count() + 1
    }

    /// "FILE:LINE: field `F`: MESSAGE".
    fn error<T>(
        &self,
        field: &'static str,
        value: &Spanned<T>,
        message: impl std::fmt::Display,
    ) -> anyhow::Error {
        self.at(
            &Origin::File {
                field,
                span: value.span(),
            },
            message,
        )
    }

    /// `message` about a value, prefixed with where the value came from:
    /// "FILE:LINE: field `F`: ", "--flag: " or "field `F`: ".
    fn at(&self, origin: &Origin, message: impl std::fmt::Display) -> anyhow::Error {
        match origin {
            Origin::Flag(flag) => anyhow!("{flag}: {message}"),
            Origin::File { field, span } => anyhow!(
                "{}:{}: field `{}`: {}",
                self.path.display(),
                self.line_of(span),
                field,
                message
            ),
            Origin::Unlocated { field } => anyhow!("field `{field}`: {message}"),
        }
    }
}

/// Where a setting's value came from, so that the rule that rejects it can
/// point there.
#[derive(Debug, Clone)]
enum Origin {
    /// A command-line flag as the user wrote it: `--games`, `--bot "a=x"`.
    Flag(String),
    /// A field of the tournament file, at `span` of its text.
    File {
        field: &'static str,
        span: Range<usize>,
    },
    /// A default, a value a front end supplied (`arena sprt`'s bots), or a
    /// saved `tournament.json`.
    Unlocated { field: &'static str },
}

/// A resolved value and its origin.
#[derive(Debug)]
struct Sourced<T> {
    value: T,
    origin: Origin,
}

/// Flag beats file beats default: the one resolution rule of every
/// setting. `read` turns the file's value into the setting's type.
fn resolve<T, F>(
    flag: Option<T>,
    flag_name: &str,
    file: Option<&Spanned<F>>,
    field: &'static str,
    default: T,
    read: impl FnOnce(&F) -> T,
) -> Sourced<T> {
    match (flag, file) {
        (Some(value), _) => Sourced {
            value,
            origin: Origin::Flag(flag_name.to_string()),
        },
        (None, Some(spanned)) => Sourced {
            value: read(spanned.get_ref()),
            origin: Origin::File {
                field,
                span: spanned.span(),
            },
        },
        (None, None) => Sourced {
            value: default,
            origin: Origin::Unlocated { field },
        },
    }
}

/// Every setting after resolution, not yet judged. Integers are held as
/// written (`i128` holds both the file's `i64` and every flag's unsigned
/// type), so the rules see a negative or oversized value as it was given.
#[derive(Debug)]
struct Resolved {
    /// The variants as given (`all` and comma lists expanded), not yet checked.
    variant: Sourced<Vec<String>>,
    games_per_pairing: Sourced<i128>,
    time_control: Sourced<TimeControl>,
    concurrency: Sourced<i128>,
    seed: Sourced<i128>,
    out: Sourced<PathBuf>,
    opening_plies: Sourced<i128>,
    grace_ms: Sourced<i128>,
    sync_interval_ms: Sourced<i128>,
    startup_failures: Sourced<i128>,
    /// `K/N` as written, when given.
    shard: Option<Sourced<String>>,
    /// Neither the file nor a flag set the seed (it is random).
    seed_is_default: bool,
    /// File bots (with directories resolved), then bots given on the
    /// command line, each replacing a bot of the same name.
    bots: Vec<Sourced<BotSpec>>,
    /// The suite file's text, read but not yet checked.
    openings: Option<Sourced<SuiteSource>>,
    openings_order: Sourced<OpeningOrder>,
    openings_start: Sourced<i128>,
    format: Sourced<Format>,
    /// Seeds as given (empty: the first bot, in a gauntlet).
    seeds: Sourced<Vec<String>>,
    rating_interval: Sourced<i128>,
}

/// The tournament's shape: who plays whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    RoundRobin,
    Gauntlet,
}

impl Format {
    fn parse(text: &str) -> Result<Format, String> {
        match text {
            "round_robin" | "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            other => Err(format!(
                "unknown format {other:?}; expected \"round_robin\" or \"gauntlet\""
            )),
        }
    }
}

/// An opening suite as read: its path, text and SHA-256.
#[derive(Debug)]
struct SuiteSource {
    file: PathBuf,
    text: String,
    sha256: String,
}

/// Reads the suite file `path` (relative to `base`) for the setting at
/// `origin`.
fn read_suite(
    src: &Source,
    origin: Origin,
    path: &Path,
    base: &Path,
) -> anyhow::Result<Sourced<SuiteSource>> {
    let file = base.join(path);
    let bytes = std::fs::read(&file).map_err(|e| {
        src.at(
            &origin,
            format!("cannot read opening suite {}: {e}", file.display()),
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        src.at(
            &origin,
            format!("opening suite {} is not UTF-8 text", file.display()),
        )
    })?;
    Ok(Sourced {
        value: SuiteSource {
            sha256: sha256_hex(text.as_bytes()),
            file,
            text,
        },
        origin,
    })
}

/// Reads a tournament file and applies `overrides`; `defaults` fill what
/// neither gives.
pub fn load(
    path: &Path,
    overrides: &Overrides,
    defaults: &Defaults,
) -> anyhow::Result<TournamentConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read tournament file {}", path.display()))?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    };
    // Absolute, so that bots start in the right place when the run is
    // resumed from another directory.
    let base = base.canonicalize().unwrap_or(base);
    build(
        &text,
        path,
        &base,
        overrides,
        defaults,
        Vec::new(),
        Files::Check,
    )
}

/// Values that depend on the moment and the machine, passed in so that the
/// resolution itself is a pure function (and testable).
#[derive(Debug, Clone)]
pub struct Defaults {
    pub concurrency: usize,
    pub seed: u64,
    pub out: PathBuf,
    /// Directory that bots given with `--bot` run in (the current one), made
    /// explicit so a resumed run finds them from anywhere.
    pub current_dir: PathBuf,
}

impl Defaults {
    /// Number of cores, a fresh random seed, `arena-out/<UTC timestamp>`.
    pub fn from_environment() -> Defaults {
        let concurrency = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        Defaults {
            concurrency,
            // Small enough to retype, and exact in every JSON reader.
            seed: u64::from(rand::random::<u32>()),
            out: PathBuf::from("arena-out").join(utc_timestamp(std::time::SystemTime::now())),
            current_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }
}

/// A config from flags alone (no tournament file).
pub fn from_overrides(
    overrides: &Overrides,
    defaults: &Defaults,
) -> anyhow::Result<TournamentConfig> {
    from_overrides_with_bots(overrides, defaults, Vec::new())
}

/// Parses `text` (the content of `path`), resolves bot directories against
/// `base`, applies `overrides` and `defaults`, and validates the result,
/// without looking at the filesystem (the bots' directories need not exist).
#[cfg(test)]
fn from_toml(
    text: &str,
    path: &Path,
    base: &Path,
    overrides: &Overrides,
    defaults: &Defaults,
) -> anyhow::Result<TournamentConfig> {
    build(
        text,
        path,
        base,
        overrides,
        defaults,
        Vec::new(),
        Files::Skip,
    )
}

/// A config from flags and ready-made bots (e.g. `arena sprt`'s two); a bot
/// without a `cwd` runs in `defaults.current_dir`. The bots' files are not
/// looked at: call [`TournamentConfig::check_files`] before running it.
pub fn from_overrides_with_bots(
    overrides: &Overrides,
    defaults: &Defaults,
    bots: Vec<BotSpec>,
) -> anyhow::Result<TournamentConfig> {
    build(
        "",
        Path::new("<command line>"),
        Path::new("."),
        overrides,
        defaults,
        bots,
        Files::Skip,
    )
}

/// Whether [`build`] checks the bots' directories and programs on disk
/// ([`bot_file_problem`]); skipped where the config is only computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Files {
    Check,
    Skip,
}

fn build(
    text: &str,
    path: &Path,
    base: &Path,
    overrides: &Overrides,
    defaults: &Defaults,
    extra_bots: Vec<BotSpec>,
    files: Files,
) -> anyhow::Result<TournamentConfig> {
    let raw: RawFile = toml::from_str(text)
        .map_err(|e| anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
    let src = Source { path, text };
    let resolved = resolve_all(&raw, &src, base, overrides, defaults, extra_bots)?;
    if files == Files::Check {
        for bot in &resolved.bots {
            if let Some(problem) = bot_file_problem(&bot.value) {
                return Err(src.at(&bot.origin, problem));
            }
        }
    }
    validate(resolved, &src)
}

/// Stage two: one value per setting from flags, file and defaults. Fails
/// only on what cannot be read at all (a time control, a `--bot` flag).
fn resolve_all(
    raw: &RawFile,
    src: &Source,
    base: &Path,
    overrides: &Overrides,
    defaults: &Defaults,
    extra_bots: Vec<BotSpec>,
) -> anyhow::Result<Resolved> {
    let t = &raw.tournament;
    let int = |n: &i64| i128::from(*n);
    let time_control = match &overrides.time_control {
        Some(tc) => Sourced {
            value: parse_time_control(tc).context("--tc")?,
            origin: Origin::Flag("--tc".into()),
        },
        None => file_time_control(src, t)?,
    };

    let mut bots: Vec<Sourced<BotSpec>> = raw
        .bot
        .iter()
        .map(|spanned| {
            let mut bot = spanned.get_ref().clone();
            bot.resolve_relative_to(base);
            Sourced {
                value: bot,
                origin: Origin::File {
                    field: "bot",
                    span: spanned.span(),
                },
            }
        })
        .collect();
    let given = extra_bots.into_iter().map(|bot| Sourced {
        value: bot,
        origin: Origin::Unlocated { field: "bot" },
    });
    let flagged = overrides
        .bots
        .iter()
        .map(|flag| {
            Ok(Sourced {
                value: parse_bot_flag(flag)?,
                origin: Origin::Flag(format!("--bot {flag:?}")),
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    for mut bot in given.chain(flagged) {
        bot.value.resolve_relative_to(&defaults.current_dir);
        match bots.iter_mut().find(|b| b.value.name == bot.value.name) {
            Some(existing) => *existing = bot,
            None => bots.push(bot),
        }
    }

    // The sandbox is resolved into each bot, so it is recorded with it.
    let sandbox_default = t.sandbox.unwrap_or(false);
    for bot in &mut bots {
        if overrides.sandbox || (bot.value.sandbox.is_none() && sandbox_default) {
            bot.value.sandbox = Some(true);
        }
    }

    let openings = match (&overrides.openings, &t.openings) {
        (Some(path), _) => Some(read_suite(
            src,
            Origin::Flag("--openings".into()),
            path,
            &defaults.current_dir,
        )?),
        (None, Some(path)) => {
            let origin = Origin::File {
                field: "openings",
                span: path.span(),
            };
            Some(read_suite(src, origin, path.get_ref(), base)?)
        }
        (None, None) => None,
    };
    let openings_order = match (&overrides.openings_order, &t.openings_order) {
        (Some(order), _) => Sourced {
            value: OpeningOrder::parse(order).map_err(|e| anyhow!("--openings-order: {e}"))?,
            origin: Origin::Flag("--openings-order".into()),
        },
        (None, Some(order)) => Sourced {
            value: OpeningOrder::parse(order.get_ref())
                .map_err(|e| src.error("openings_order", order, e))?,
            origin: Origin::File {
                field: "openings_order",
                span: order.span(),
            },
        },
        (None, None) => Sourced {
            value: OpeningOrder::default(),
            origin: Origin::Unlocated {
                field: "openings_order",
            },
        },
    };

    let (format, seeds) = resolve_format(src, t, overrides)?;
    Ok(Resolved {
        format,
        seeds,
        rating_interval: resolve(
            overrides.rating_interval.map(i128::from),
            "--rating-interval",
            t.rating_interval.as_ref(),
            "rating_interval",
            0,
            int,
        ),
        openings,
        openings_order,
        openings_start: resolve(
            overrides.openings_start.map(i128::from),
            "--openings-start",
            t.openings_start.as_ref(),
            "openings_start",
            0,
            int,
        ),
        variant: resolve_variants(src, t, overrides)?,
        games_per_pairing: resolve(
            overrides.games_per_pairing.map(i128::from),
            "--games",
            t.games_per_pairing.as_ref(),
            "games_per_pairing",
            DEFAULT_GAMES_PER_PAIRING.into(),
            int,
        ),
        time_control,
        concurrency: resolve(
            overrides.concurrency.map(|n| n as i128),
            "--concurrency",
            t.concurrency.as_ref(),
            "concurrency",
            defaults.concurrency.max(1) as i128,
            int,
        ),
        seed: resolve(
            overrides.seed.map(i128::from),
            "--seed",
            t.seed.as_ref(),
            "seed",
            defaults.seed.into(),
            int,
        ),
        out: resolve(
            overrides.out.clone(),
            "--out",
            t.out.as_ref(),
            "out",
            defaults.out.clone(),
            PathBuf::clone,
        ),
        opening_plies: resolve(
            overrides.opening_plies.map(i128::from),
            "--opening-plies",
            t.opening_plies.as_ref(),
            "opening_plies",
            0,
            int,
        ),
        grace_ms: resolve(
            overrides.grace_ms.map(i128::from),
            "--grace-ms",
            t.grace_ms.as_ref(),
            "grace_ms",
            default_grace_ms().into(),
            int,
        ),
        sync_interval_ms: resolve(
            overrides.sync_interval_ms.map(i128::from),
            "--sync-ms",
            t.sync_interval_ms.as_ref(),
            "sync_interval_ms",
            default_sync_interval_ms().into(),
            int,
        ),
        startup_failures: resolve(
            overrides.startup_failures.map(i128::from),
            "--startup-failures",
            t.startup_failures.as_ref(),
            "startup_failures",
            DEFAULT_STARTUP_FAILURES.into(),
            int,
        ),
        shard: match (&overrides.shard, &t.shard) {
            (Some(flag), _) => Some(Sourced {
                value: flag.clone(),
                origin: Origin::Flag("--shard".into()),
            }),
            (None, Some(spanned)) => Some(Sourced {
                value: spanned.get_ref().clone(),
                origin: Origin::File {
                    field: "shard",
                    span: spanned.span(),
                },
            }),
            (None, None) => None,
        },
        seed_is_default: overrides.seed.is_none() && t.seed.is_none(),
        bots,
    })
}

/// Stage three, the one validation pass: every rule, once, whatever the
/// value's source (flag, file, default, or a resumed `tournament.json`).
/// An error names where the rejected value came from. New rules go here.
fn validate(r: Resolved, src: &Source) -> anyhow::Result<TournamentConfig> {
    let check = |value: &Sourced<i128>, rule: fn(i128) -> Result<u64, String>| {
        rule(value.value).map_err(|message| src.at(&value.origin, message))
    };
    variants_rule(&r.variant.value).map_err(|m| src.at(&r.variant.origin, m))?;
    let games_per_pairing = check(&r.games_per_pairing, |n| {
        if n <= 0 || n % 2 != 0 {
            return Err(format!("games_per_pairing must be a positive even number (games are played in pairs with colours swapped), got {n}"));
        }
        at_most(n, u32::MAX.into())
    })? as u32;
    let concurrency = check(&r.concurrency, concurrency_rule)? as usize;
    let seed = check(&r.seed, non_negative)?;
    let opening_plies = check(&r.opening_plies, |n| {
        if !(0..=1000).contains(&n) {
            return Err(format!("must be between 0 and 1000, got {n}"));
        }
        Ok(n as u64)
    })? as u32;
    let grace_ms = check(&r.grace_ms, |n| {
        non_negative(n)?;
        at_most(n, MAX_TIME_MS)
    })?;
    time_control_rule(&r.time_control.value).map_err(|m| src.at(&r.time_control.origin, m))?;
    let sync_interval_ms = check(&r.sync_interval_ms, |n| {
        if !(0..=MAX_SYNC_INTERVAL_MS as i128).contains(&n) {
            return Err(format!(
                "must be between 0 and {MAX_SYNC_INTERVAL_MS}, got {n}"
            ));
        }
        Ok(n as u64)
    })?;
    let startup_failures = check(&r.startup_failures, |n| {
        if n < 0 {
            return Err(format!(
                "must be 0 (never disable a bot) or a positive count, got {n}"
            ));
        }
        at_most(n, u32::MAX.into())
    })? as u32;
    let openings = validate_openings(&r, src, opening_plies)?;
    let shard = match &r.shard {
        None => None,
        Some(given) => {
            let shard: Shard = given
                .value
                .parse()
                .map_err(|message| src.at(&given.origin, message))?;
            if r.seed_is_default {
                let message = format!(
                    "shard {shard} needs a fixed seed (`seed` in the file or --seed), the same for every shard: with a random seed each shard would play another tournament"
                );
                return Err(src.at(&given.origin, message));
            }
            Some(shard)
        }
    };

    let rating_interval = check(&r.rating_interval, non_negative)?;
    let mut names = BTreeSet::new();
    for bot in &r.bots {
        let name = &bot.value.name;
        bot.value
            .validate()
            .map_err(|e| src.at(&bot.origin, format!("{e:#}")))?;
        bot_rule(&bot.value).map_err(|m| src.at(&bot.origin, m))?;
        if let Some(tc) = &bot.value.time_control {
            time_control_rule(tc).map_err(|m| {
                src.at(
                    &bot.origin,
                    format!("bot {name:?}: field `time_control`: {m}"),
                )
            })?;
        }
        if !names.insert(name.as_str()) {
            let message = format!("a second bot is named {name:?}; bot names must be unique");
            return Err(src.at(&bot.origin, message));
        }
    }

    if r.bots.len() > MAX_BOTS {
        bail!(
            "{}: {} bots, more than the {MAX_BOTS} arena can rate together (the Elo fit holds a bots x bots matrix)",
            src.path.display(),
            r.bots.len()
        );
    }
    if r.bots.len() < 2 {
        bail!(
            "{}: a tournament needs at least two bots, got {} (add [[bot]] entries or --bot NAME=CMD)",
            src.path.display(),
            r.bots.len()
        );
    }
    let seeds = validate_seeds(&r, src)?;
    let mut variants = r.variant.value;
    let variant = variants[0].clone();
    if variants.len() == 1 {
        variants.clear();
    }
    Ok(TournamentConfig {
        seeds,
        rating_interval,
        variant,
        variants,
        games_per_pairing,
        time_control: r.time_control.value,
        concurrency,
        seed,
        out: r.out.value,
        opening_plies,
        grace_ms,
        sync_interval_ms,
        startup_failures,
        bots: r.bots.into_iter().map(|b| b.value).collect(),
        openings,
        shard,
    })
}

/// `all` (every variant), or a comma-separated list of variant ids.
fn variant_list(text: &str) -> Vec<String> {
    if text.trim() == "all" {
        return Variant::ids().iter().map(|id| id.to_string()).collect();
    }
    text.split(',').map(|id| id.trim().to_string()).collect()
}

/// The variants from `--variant`, else the file's `variant` or `variants`
/// (not both), else the default.
fn resolve_variants(
    src: &Source,
    t: &RawTournament,
    overrides: &Overrides,
) -> anyhow::Result<Sourced<Vec<String>>> {
    if let (Some(_), Some(list)) = (&t.variant, &t.variants) {
        return Err(src.error(
            "variants",
            list,
            "give either `variant` or `variants`, not both",
        ));
    }
    if let Some(flag) = &overrides.variant {
        return Ok(Sourced {
            value: variant_list(flag),
            origin: Origin::Flag("--variant".into()),
        });
    }
    if let Some(list) = &t.variants {
        return Ok(Sourced {
            value: list.get_ref().clone(),
            origin: Origin::File {
                field: "variants",
                span: list.span(),
            },
        });
    }
    Ok(resolve(
        None,
        "--variant",
        t.variant.as_ref(),
        "variant",
        vec![DEFAULT_VARIANT.to_string()],
        |text: &String| variant_list(text),
    ))
}

/// At least one variant, each known, none twice.
fn variants_rule(ids: &[String]) -> Result<(), String> {
    if ids.is_empty() {
        return Err("names no variant".into());
    }
    let mut seen = BTreeSet::new();
    for id in ids {
        if Variant::by_id(id).is_none() {
            return Err(format!(
                "unknown variant {id:?}; known: {} (or \"all\")",
                Variant::ids().join(", ")
            ));
        }
        if !seen.insert(id.as_str()) {
            return Err(format!("variant {id:?} is listed twice"));
        }
    }
    Ok(())
}

/// `format` and `seeds` from `--gauntlet` flags and the file: any
/// `--gauntlet` makes a gauntlet of the flags' seeds; seeds in the file
/// without a `format` make one too.
fn resolve_format(
    src: &Source,
    t: &RawTournament,
    overrides: &Overrides,
) -> anyhow::Result<(Sourced<Format>, Sourced<Vec<String>>)> {
    if !overrides.gauntlet.is_empty() {
        let origin = Origin::Flag("--gauntlet".into());
        let format = Sourced {
            value: Format::Gauntlet,
            origin: origin.clone(),
        };
        let seeds = Sourced {
            value: overrides.gauntlet.clone(),
            origin,
        };
        return Ok((format, seeds));
    }
    let seeds = match &t.seeds {
        Some(seeds) => Sourced {
            value: seeds.get_ref().clone(),
            origin: Origin::File {
                field: "seeds",
                span: seeds.span(),
            },
        },
        None => Sourced {
            value: Vec::new(),
            origin: Origin::Unlocated { field: "seeds" },
        },
    };
    let format = match &t.format {
        Some(format) => Sourced {
            value: Format::parse(format.get_ref()).map_err(|e| src.error("format", format, e))?,
            origin: Origin::File {
                field: "format",
                span: format.span(),
            },
        },
        None => Sourced {
            value: if seeds.value.is_empty() {
                Format::RoundRobin
            } else {
                Format::Gauntlet
            },
            origin: Origin::Unlocated { field: "format" },
        },
    };
    Ok((format, seeds))
}

/// The gauntlet's seeds, checked: each names a bot, once, and at least one
/// bot is not a seed. A gauntlet without seeds has the first bot as its
/// seed (as cutechess-cli's). A round robin has none.
fn validate_seeds(r: &Resolved, src: &Source) -> anyhow::Result<Vec<String>> {
    let given = &r.seeds;
    if r.format.value == Format::RoundRobin {
        if !given.value.is_empty() {
            return Err(src.at(
                &given.origin,
                "seeds are only for format = \"gauntlet\" (this is a round robin)",
            ));
        }
        return Ok(Vec::new());
    }
    if given.value.is_empty() {
        return Ok(r
            .bots
            .first()
            .map(|b| b.value.name.clone())
            .into_iter()
            .collect());
    }
    let names: Vec<&str> = r.bots.iter().map(|b| b.value.name.as_str()).collect();
    let mut seen = BTreeSet::new();
    for seed in &given.value {
        if !names.contains(&seed.as_str()) {
            let message = format!(
                "seed {seed:?} is not one of the bots ({})",
                names.join(", ")
            );
            return Err(src.at(&given.origin, message));
        }
        if !seen.insert(seed.as_str()) {
            return Err(src.at(&given.origin, format!("seed {seed:?} is named twice")));
        }
    }
    if seen.len() == names.len() {
        return Err(src.at(
            &given.origin,
            "every bot is a seed, so nobody is left to play them: a gauntlet needs at least one bot that is not a seed",
        ));
    }
    Ok(given.value.clone())
}

/// Games at once: far more than any machine runs, far less than what would
/// overflow the runner's semaphore (2^61) or its queues.
pub const MAX_CONCURRENCY: u64 = 1024;

/// The longest time value accepted (time control, grace, start-up): a week,
/// in ms. Longer is no real game, and clock arithmetic stays far from
/// overflow.
pub const MAX_TIME_MS: u64 = 7 * 24 * 3600 * 1000;

/// The longest bot name, in characters: it is a column in tables and part
/// of log file names.
pub const MAX_NAME_CHARS: usize = 64;

/// The `concurrency` rule, shared with `--resume -j N` ([`check_concurrency`]).
fn concurrency_rule(n: i128) -> Result<u64, String> {
    if n <= 0 {
        return Err(format!("must be positive, got {n}"));
    }
    at_most(n, MAX_CONCURRENCY)
}

/// `-j N` given to `--resume`: the same rule as any other concurrency.
pub fn check_concurrency(n: usize) -> anyhow::Result<usize> {
    concurrency_rule(n as i128)
        .map(|n| n as usize)
        .map_err(|m| anyhow!("--concurrency: {m}"))
}

/// Every time value of a time control is positive and at most a week.
fn time_control_rule(tc: &TimeControl) -> Result<(), String> {
    let values: &[(&str, u64)] = match tc {
        TimeControl::PerMove { move_ms } => &[("move_ms", *move_ms)],
        TimeControl::Clock {
            base_ms,
            increment_ms,
        } => &[("base_ms", *base_ms), ("increment_ms", *increment_ms)],
    };
    for &(name, ms) in values {
        if ms > MAX_TIME_MS {
            return Err(format!(
                "{name} too large: {ms} ms (at most {MAX_TIME_MS}, a week)"
            ));
        }
    }
    Ok(())
}

/// What one bot entry must satisfy beyond [`BotSpec::validate`]: a name that
/// is safe in tables, file names and spreadsheets, an environment and a
/// command the operating system can take, limits within range.
fn bot_rule(bot: &BotSpec) -> Result<(), String> {
    name_rule(&bot.name)?;
    for (key, value) in &bot.env {
        if key.is_empty() {
            return Err(format!(
                "bot {:?}: field `env`: an empty variable name",
                bot.name
            ));
        }
        if key.contains('=') || key.contains('\0') {
            return Err(format!(
                "bot {:?}: field `env`: variable name {key:?} contains `=` or a NUL character",
                bot.name
            ));
        }
        if value.contains('\0') {
            return Err(format!(
                "bot {:?}: field `env`: the value of {key} contains a NUL character",
                bot.name
            ));
        }
    }
    if bot.command.iter().any(|word| word.contains('\0')) {
        return Err(format!(
            "bot {:?}: field `command` contains a NUL character",
            bot.name
        ));
    }
    if let Some(ms) = bot.limits.startup_ms.filter(|&ms| ms > MAX_TIME_MS) {
        return Err(format!(
            "bot {:?}: `limits.startup_ms` too large: {ms} (at most {MAX_TIME_MS}, a week)",
            bot.name
        ));
    }
    Ok(())
}

/// Bot names: at most [`MAX_NAME_CHARS`] characters, no surrounding
/// whitespace (names that differ only by spaces would look the same), no
/// control or format characters (Unicode Cc, Cf: bidi overrides such as
/// U+202E reorder the text around them), and no leading `=`, `+`, `-` or
/// `@`, which make a spreadsheet read the CSV cell as a formula.
fn name_rule(name: &str) -> Result<(), String> {
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        return Err(format!(
            "bot name {:?}... is {count} characters long (at most {MAX_NAME_CHARS})",
            name.chars().take(20).collect::<String>()
        ));
    }
    if name.trim() != name {
        return Err(format!("bot name {name:?} starts or ends with whitespace"));
    }
    if let Some(c) = name.chars().find(|&c| c.is_control() || is_format_char(c)) {
        return Err(format!(
            "bot name {name:?} contains the control or format character U+{:04X}",
            c as u32
        ));
    }
    if name.starts_with(['=', '+', '-', '@']) {
        return Err(format!(
            "bot name {name:?} starts with `{}`, which spreadsheets read as a formula",
            &name[..1]
        ));
    }
    Ok(())
}

/// Unicode general category Cf (format characters): invisible characters
/// that change how text around them is shown (bidi controls, joiners, tags).
fn is_format_char(c: char) -> bool {
    matches!(
        c as u32,
        0x00AD
            | 0x0600..=0x0605
            | 0x061C
            | 0x06DD
            | 0x070F
            | 0x0890..=0x0891
            | 0x08E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// Why `bot` cannot run as configured, by what the filesystem says: its
/// directory is missing, or its program, given as a path, is a directory
/// or not executable. A program that is not found at all is left to the
/// start of the tournament (a warning, then lost `startup` games, as the
/// rules say).
fn bot_file_problem(bot: &BotSpec) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let name = &bot.name;
    if let Some(cwd) = &bot.cwd {
        if !cwd.is_dir() {
            return Some(format!(
                "bot {name:?}: field `cwd`: {} is not an existing directory",
                cwd.display()
            ));
        }
    }
    let program = bot
        .command
        .first()
        .filter(|p| !bot.shell && p.contains('/'))?;
    let path = bot.cwd.as_deref().unwrap_or(Path::new(".")).join(program);
    let meta = std::fs::metadata(&path).ok()?;
    if meta.is_dir() {
        return Some(format!(
            "bot {name:?}: field `command`: {program:?} is a directory, not a program"
        ));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Some(format!(
            "bot {name:?}: field `command`: {program:?} is not executable (chmod +x {program}, or run it through its interpreter, e.g. [\"python3\", {program:?}])"
        ));
    }
    None
}

/// The suite checked against the variant (every line played through the
/// rules engine), with its order and start; a suite excludes random
/// `opening_plies`, and the order and start need a suite.
fn validate_openings(
    r: &Resolved,
    src: &Source,
    opening_plies: u32,
) -> anyhow::Result<Option<Box<OpeningSuite>>> {
    let start =
        non_negative(r.openings_start.value).map_err(|e| src.at(&r.openings_start.origin, e))?;
    let Some(suite) = &r.openings else {
        for origin in [&r.openings_order.origin, &r.openings_start.origin] {
            if !matches!(origin, Origin::Unlocated { .. }) {
                return Err(src.at(origin, "needs an opening suite (`openings` / --openings)"));
            }
        }
        return Ok(None);
    };
    if opening_plies > 0 {
        return Err(src.at(
            &r.opening_plies.origin,
            "random opening plies and an opening suite (`openings`) exclude each other; give one",
        ));
    }
    if let [_, _, ..] = r.variant.value.as_slice() {
        return Err(src.at(
            &suite.origin,
            format!(
                "an opening suite belongs to one variant, but this run plays {} ({}); use random openings (`opening_plies`) or one run per variant",
                r.variant.value.len(),
                r.variant.value.join(", ")
            ),
        ));
    }
    let variant = Variant::by_id(&r.variant.value[0]).expect("variant checked first");
    let openings = parse_suite(variant, &suite.value.file, &suite.value.text)?;
    Ok(Some(Box::new(OpeningSuite {
        file: suite.value.file.clone(),
        sha256: suite.value.sha256.clone(),
        order: r.openings_order.value,
        start,
        openings,
    })))
}

fn non_negative(n: i128) -> Result<u64, String> {
    if n < 0 {
        return Err("must not be negative".into());
    }
    at_most(n, u64::MAX)
}

fn at_most(n: i128, max: u64) -> Result<u64, String> {
    u64::try_from(n)
        .ok()
        .filter(|&v| v <= max)
        .ok_or_else(|| format!("too large: {n} (at most {max})"))
}

/// `--bot NAME=COMMAND LINE`, a valid bot on its own (`arena sprt` takes
/// bots this way too); how it fits with the others is checked by
/// `validate`.
pub fn parse_bot_flag(flag: &str) -> anyhow::Result<BotSpec> {
    let (name, command) = flag
        .split_once('=')
        .ok_or_else(|| anyhow!("--bot {flag:?}: expected NAME=COMMAND, e.g. --bot greedy='python3 bots/python/greedy_bot.py'"))?;
    let spec = BotSpec::from_command_line(name.trim(), command)
        .with_context(|| format!("--bot {flag:?}"))?;
    spec.validate().with_context(|| format!("--bot {flag:?}"))?;
    Ok(spec)
}

fn positive(src: &Source, field: &'static str, value: &Spanned<i64>) -> anyhow::Result<u64> {
    let v = *value.get_ref();
    if v <= 0 {
        return Err(src.error(field, value, format!("must be positive, got {v}")));
    }
    Ok(v as u64)
}

/// The file's time control, located at the field that sets it.
fn file_time_control(src: &Source, t: &RawTournament) -> anyhow::Result<Sourced<TimeControl>> {
    let value = read_time_control(src, t)?;
    let located = [
        ("time_control", t.time_control.as_ref().map(Spanned::span)),
        ("move_ms", t.move_ms.as_ref().map(Spanned::span)),
        ("base_ms", t.base_ms.as_ref().map(Spanned::span)),
    ]
    .into_iter()
    .find_map(|(field, span)| Some((field, span?)));
    let origin = match located {
        Some((field, span)) => Origin::File { field, span },
        None => Origin::Unlocated {
            field: "time_control",
        },
    };
    Ok(Sourced { value, origin })
}

/// One of `time_control = "..."`, `move_ms = N`, or `base_ms = N` with an
/// optional `increment_ms`; mixing the forms is an error.
fn read_time_control(src: &Source, t: &RawTournament) -> anyhow::Result<TimeControl> {
    if let Some(tc) = &t.time_control {
        if let Some(other) = t
            .move_ms
            .as_ref()
            .or(t.base_ms.as_ref())
            .or(t.increment_ms.as_ref())
        {
            return Err(src.error(
                "time_control",
                other,
                "give either `time_control` or `move_ms` / `base_ms` + `increment_ms`, not both",
            ));
        }
        return parse_time_control(tc.get_ref())
            .map_err(|e| src.error("time_control", tc, format!("{e:#}")));
    }
    match (&t.move_ms, &t.base_ms, &t.increment_ms) {
        (Some(m), None, None) => Ok(TimeControl::PerMove { move_ms: positive(src, "move_ms", m)? }),
        (Some(m), _, _) => Err(src.error("move_ms", m, "`move_ms` (per-move limit) cannot be combined with `base_ms` / `increment_ms` (a clock)")),
        (None, Some(b), inc) => {
            let base_ms = positive(src, "base_ms", b)?;
            let increment_ms = match inc {
                Some(i) if *i.get_ref() < 0 => return Err(src.error("increment_ms", i, "must not be negative")),
                Some(i) => *i.get_ref() as u64,
                None => 0,
            };
            Ok(TimeControl::Clock { base_ms, increment_ms })
        }
        (None, None, Some(i)) => Err(src.error("increment_ms", i, "`increment_ms` needs `base_ms`")),
        (None, None, None) => Ok(TimeControl::PerMove { move_ms: DEFAULT_MOVE_MS }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Defaults {
        Defaults {
            concurrency: 3,
            seed: 99,
            out: PathBuf::from("arena-out/default"),
            current_dir: PathBuf::from("/here"),
        }
    }

    fn parse(text: &str, overrides: &Overrides) -> anyhow::Result<TournamentConfig> {
        from_toml(
            text,
            Path::new("t.toml"),
            Path::new("/cfg"),
            overrides,
            &defaults(),
        )
    }

    const TWO_BOTS: &str = r#"
[[bot]]
name = "a"
command = ["python3", "a.py"]

[[bot]]
name = "b"
command = "python3 b.py"
cwd = "bots"
"#;

    #[test]
    fn full_file_resolves_every_field() {
        let text = format!(
            "[tournament]\nvariant = \"qango7\"\ngames_per_pairing = 6\ntime_control = \"10+0.1\"\nconcurrency = 4\nseed = 5\nout = \"o\"\nopening_plies = 3\n{TWO_BOTS}"
        );
        let c = parse(&text, &Overrides::default()).unwrap();
        assert_eq!(c.variant, "qango7");
        assert_eq!(c.games_per_pairing, 6);
        assert_eq!(
            c.time_control,
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!(c.concurrency, 4);
        assert_eq!(c.seed, 5);
        assert_eq!(c.out, PathBuf::from("o"));
        assert_eq!(c.opening_plies, 3);
        assert_eq!(c.bot_names(), ["a", "b"]);
        assert_eq!(c.bots[0].cwd.as_deref(), Some(Path::new("/cfg")));
        assert_eq!(c.bots[1].cwd.as_deref(), Some(Path::new("/cfg/bots")));
        assert_eq!(c.bots[1].command, ["python3", "b.py"]);
    }

    #[test]
    fn defaults_fill_missing_fields() {
        let c = parse(TWO_BOTS, &Overrides::default()).unwrap();
        assert_eq!(c.variant, DEFAULT_VARIANT);
        assert_eq!(c.games_per_pairing, DEFAULT_GAMES_PER_PAIRING);
        assert_eq!(
            c.time_control,
            TimeControl::PerMove {
                move_ms: DEFAULT_MOVE_MS
            }
        );
        assert_eq!(c.concurrency, 3);
        assert_eq!(c.seed, 99);
        assert_eq!(c.out, PathBuf::from("arena-out/default"));
        assert_eq!(c.opening_plies, 0);
        assert_eq!(c.grace_ms, 100);
    }

    #[test]
    fn millisecond_time_control_fields() {
        let c = parse(
            &format!("[tournament]\nmove_ms = 150\n{TWO_BOTS}"),
            &Overrides::default(),
        )
        .unwrap();
        assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 150 });
        let c = parse(
            &format!("[tournament]\nbase_ms = 2000\nincrement_ms = 50\n{TWO_BOTS}"),
            &Overrides::default(),
        )
        .unwrap();
        assert_eq!(
            c.time_control,
            TimeControl::Clock {
                base_ms: 2000,
                increment_ms: 50
            }
        );
        let err = parse(
            &format!("[tournament]\nmove_ms = 150\nbase_ms = 10\n{TWO_BOTS}"),
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("t.toml:2: field `move_ms`"),
            "{err}"
        );
    }

    #[test]
    fn flags_override_the_file_and_bots_merge_by_name() {
        let text = format!(
            "[tournament]\nvariant = \"qango7\"\ngames_per_pairing = 6\nseed = 5\n{TWO_BOTS}"
        );
        let overrides = Overrides {
            variant: Some("quinque".into()),
            games_per_pairing: Some(2),
            time_control: Some("per-move=50".into()),
            concurrency: Some(1),
            seed: Some(8),
            out: Some("x".into()),
            opening_plies: Some(1),
            grace_ms: Some(250),
            sync_interval_ms: Some(50),
            startup_failures: Some(5),
            shard: None,
            sandbox: false,
            bots: vec!["b=node b.js".into(), "c=./c --fast".into()],
            ..Default::default()
        };
        let c = parse(&text, &overrides).unwrap();
        assert_eq!(c.variant, "quinque");
        assert_eq!(c.games_per_pairing, 2);
        assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 50 });
        assert_eq!((c.concurrency, c.seed, c.opening_plies), (1, 8, 1));
        assert_eq!(c.grace_ms, 250);
        assert_eq!(c.sync_interval_ms, 50);
        assert_eq!(c.startup_failures, 5);
        assert_eq!(c.out, PathBuf::from("x"));
        assert_eq!(c.bot_names(), ["a", "b", "c"]);
        assert_eq!(c.bots[1].command, ["node", "b.js"]);
        assert_eq!(c.bots[2].command, ["./c", "--fast"]);
    }

    #[test]
    fn gauntlet_seeds_resolve_from_file_and_flags() {
        let file = |settings: &str| format!("[tournament]\n{settings}\n{TWO_BOTS}");
        // `format = "gauntlet"` alone: the first bot is the seed.
        let c = parse(&file("format = \"gauntlet\""), &Overrides::default()).unwrap();
        assert_eq!(c.seeds, ["a"]);
        // Seeds without a format make a gauntlet.
        let c = parse(&file("seeds = [\"b\"]"), &Overrides::default()).unwrap();
        assert_eq!(
            (c.seeds.clone(), c.seed_indices()),
            (vec!["b".to_string()], vec![1])
        );
        // --gauntlet beats the file's seeds.
        let flags = Overrides {
            gauntlet: vec!["a".into()],
            rating_interval: Some(10),
            ..Default::default()
        };
        let c = parse(&file("seeds = [\"b\"]\nrating_interval = 3"), &flags).unwrap();
        assert_eq!(
            (c.seeds.clone(), c.rating_interval),
            (vec!["a".to_string()], 10)
        );
        // A round robin has none, and a resumed config re-validates.
        let c = parse(&file("rating_interval = 3"), &Overrides::default()).unwrap();
        assert!(c.seeds.is_empty());
        assert_eq!(c.rating_interval, 3);
        c.validate().unwrap();
        let err = parse(&file("rating_interval = -1"), &Overrides::default()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.toml:2: field `rating_interval`"),
            "{err}"
        );
        let unknown = Overrides {
            gauntlet: vec!["zed".into()],
            ..Default::default()
        };
        let err = parse(&file(""), &unknown).unwrap_err().to_string();
        assert_eq!(
            err,
            "--gauntlet: seed \"zed\" is not one of the bots (a, b)"
        );
    }

    #[test]
    fn errors_name_file_line_and_field() {
        let cases = [
            (
                "[tournament]\ngames_per_pairing = 3\n",
                "t.toml:2: field `games_per_pairing`",
                "even",
            ),
            (
                "[tournament]\n\nvariant = \"chess\"\n",
                "t.toml:3: field `variant`",
                "qango6",
            ),
            (
                "[tournament]\nconcurrency = 0\n",
                "t.toml:2: field `concurrency`",
                "positive",
            ),
            (
                "[tournament]\nseed = -1\n",
                "t.toml:2: field `seed`",
                "negative",
            ),
            (
                "[tournament]\ntime_control = \"fast\"\n",
                "t.toml:2: field `time_control`",
                "time control",
            ),
            (
                "[tournament]\ngrace_ms = -5\n",
                "t.toml:2: field `grace_ms`",
                "negative",
            ),
            (
                "[tournament]\n\nstartup_failures = -1\n",
                "t.toml:3: field `startup_failures`",
                "0 (never disable a bot) or a positive count",
            ),
            (
                "[tournament]\nopening_plies = -2\n",
                "t.toml:2: field `opening_plies`",
                "between",
            ),
        ];
        for (head, prefix, detail) in cases {
            let err = parse(&format!("{head}{TWO_BOTS}"), &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(prefix), "{head:?}: {err}");
            assert!(err.contains(detail), "{head:?}: {err}");
        }
    }

    /// `text` as the file t.toml in `dir`, without flags.
    fn parse_in(dir: &Path, text: &str) -> anyhow::Result<TournamentConfig> {
        from_toml(
            text,
            Path::new("t.toml"),
            dir,
            &Overrides::default(),
            &defaults(),
        )
    }

    #[test]
    fn opening_suite_settings_are_read_relative_to_the_file_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.txt"), "a1\nb2 c3\n").unwrap();
        let text = format!(
            "[tournament]\nopenings = \"s.txt\"\nopenings_order = \"random\"\nopenings_start = 4\n{TWO_BOTS}"
        );
        let c = parse_in(dir.path(), &text).unwrap();
        let suite = c.openings.as_ref().unwrap();
        assert_eq!(suite.openings, vec![vec!["a1"], vec!["b2", "c3"]]);
        assert_eq!((suite.order, suite.start), (OpeningOrder::Random, 4));
        assert_eq!(suite.file, dir.path().join("s.txt"));
        // The resumed config passes the same checks.
        c.validate().unwrap();

        let cases = [
            (
                "[tournament]\nopenings_order = \"sorted\"\n",
                "t.toml:2: field `openings_order`",
            ),
            (
                "[tournament]\nopenings_start = 2\n",
                "t.toml:2: field `openings_start`: needs an opening suite",
            ),
            (
                "[tournament]\nopenings = \"missing.txt\"\n",
                "t.toml:2: field `openings`: cannot read opening suite",
            ),
        ];
        for (head, prefix) in cases {
            let err = parse_in(dir.path(), &format!("{head}{TWO_BOTS}"))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(prefix), "{head:?}: {err}");
        }
        let flag = Overrides {
            openings_order: Some("shuffled".into()),
            ..Default::default()
        };
        let err = parse(TWO_BOTS, &flag).unwrap_err().to_string();
        assert!(
            err.starts_with("--openings-order: unknown openings order"),
            "{err}"
        );
    }

    #[test]
    fn several_variants_from_the_file_or_the_flag() {
        let text = format!("[tournament]\nvariants = [\"qango7\", \"quinque\"]\n{TWO_BOTS}");
        let c = parse(&text, &Overrides::default()).unwrap();
        assert_eq!(c.variant, "qango7");
        assert_eq!(c.variant_ids(), ["qango7", "quinque"]);
        c.validate().unwrap();
        let flag = |v: &str| Overrides {
            variant: Some(v.into()),
            ..Default::default()
        };
        let c = parse(&text, &flag("qango6, qango7")).unwrap();
        assert_eq!(c.variant_ids(), ["qango6", "qango7"]);
        let c = parse(TWO_BOTS, &flag("all")).unwrap();
        assert_eq!(c.variant_ids(), Variant::ids());
        // One variant is stored as before: no list.
        let c = parse(TWO_BOTS, &flag("quinque")).unwrap();
        assert!(c.variants.is_empty() && c.variant == "quinque");
        let c = parse(
            &format!("[tournament]\nvariant = \"qango6,quinque\"\n{TWO_BOTS}"),
            &Overrides::default(),
        )
        .unwrap();
        assert_eq!(c.variant_ids(), ["qango6", "quinque"]);

        let cases = [
            (
                "[tournament]\nvariant = \"qango6\"\nvariants = [\"qango7\"]\n",
                "t.toml:3: field `variants`: give either",
            ),
            (
                "[tournament]\nvariants = [\"qango7\", \"qango7\"]\n",
                "t.toml:2: field `variants`: variant \"qango7\" is listed twice",
            ),
            (
                "[tournament]\nvariants = []\n",
                "t.toml:2: field `variants`: names no variant",
            ),
            (
                "[tournament]\nvariants = [\"qango6\", \"go\"]\n",
                "t.toml:2: field `variants`: unknown variant \"go\"",
            ),
        ];
        for (head, prefix) in cases {
            let err = parse(&format!("{head}{TWO_BOTS}"), &Overrides::default())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(prefix), "{head:?}: {err}");
        }
        let err = parse(TWO_BOTS, &flag("qango6,chess"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--variant: unknown variant \"chess\""),
            "{err}"
        );
    }

    #[test]
    fn an_opening_suite_is_refused_with_several_variants() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.txt"), "a1\n").unwrap();
        let text = format!(
            "[tournament]\nvariants = [\"qango6\", \"qango7\"]\nopenings = \"s.txt\"\n{TWO_BOTS}"
        );
        let err = parse_in(dir.path(), &text).unwrap_err().to_string();
        assert!(
            err.starts_with("t.toml:3: field `openings`: an opening suite belongs to one variant, but this run plays 2 (qango6, qango7)"),
            "{err}"
        );
    }

    #[test]
    fn bot_errors_point_at_the_bot_entry() {
        let text = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n\n[[bot]]\nname = \"a\"\ncommand = [\"y\"]\n";
        let err = parse(text, &Overrides::default()).unwrap_err().to_string();
        assert!(
            err.starts_with("t.toml:") && err.contains("unique"),
            "{err}"
        );
        let line: usize = err.split(':').nth(1).unwrap().parse().unwrap();
        assert!((5..=7).contains(&line), "{err}");
        let err = parse(
            "[[bot]]\nname = \"a\"\ncommand = []\n",
            &Overrides::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("command") && err.contains("t.toml:"), "{err}");
    }

    #[test]
    fn syntax_and_unknown_field_errors_come_from_toml_with_location() {
        let err = parse("[tournament]\ngames = 4\n", &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.toml:") && err.contains("line 2") && err.contains("games"),
            "{err}"
        );
        let err = parse("[tournament]\nvariant = \n", &Overrides::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2"), "{err}");
        let err = parse(
            "[tournament]\ngames_per_pairing = \"four\"\n",
            &Overrides::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("line 2") && err.contains("games_per_pairing"),
            "{err}"
        );
    }

    #[test]
    fn too_few_bots_and_bad_flags() {
        let err = parse(
            "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n",
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(format!("{err:#}").contains("at least two bots"), "{err:#}");
        let bad = |o: Overrides| format!("{:#}", parse(TWO_BOTS, &o).unwrap_err());
        assert!(bad(Overrides {
            games_per_pairing: Some(3),
            ..Default::default()
        })
        .contains("--games"));
        assert!(bad(Overrides {
            variant: Some("go".into()),
            ..Default::default()
        })
        .contains("--variant"));
        assert!(bad(Overrides {
            time_control: Some("x".into()),
            ..Default::default()
        })
        .contains("--tc"));
        assert!(bad(Overrides {
            bots: vec!["nocommand".into()],
            ..Default::default()
        })
        .contains("NAME=COMMAND"));
        assert!(bad(Overrides {
            concurrency: Some(0),
            ..Default::default()
        })
        .contains("concurrency"));
    }

    #[test]
    fn sandbox_setting_per_tournament_per_bot_and_flag() {
        let text = "[tournament]\nsandbox = true\n[[bot]]\nname = 'a'\ncommand = 'x'\n\
                    [[bot]]\nname = 'b'\ncommand = 'y'\nsandbox = false\nnetwork = true\nwritable = ['data']\n";
        let c = parse(text, &Overrides::default()).unwrap();
        assert_eq!(c.bots[0].sandbox, Some(true));
        assert_eq!(c.bots[1].sandbox, Some(false));
        assert!(c.bots[1].network && c.bots[1].writable == [PathBuf::from("data")]);
        let flag = Overrides {
            sandbox: true,
            ..Default::default()
        };
        let c = parse(text, &flag).unwrap();
        assert!(c.bots.iter().all(|b| b.sandbox == Some(true)));
        let c = parse(TWO_BOTS, &Overrides::default()).unwrap();
        assert!(c.bots.iter().all(|b| b.sandbox.is_none()));
    }

    #[test]
    fn flags_and_saved_configs_meet_the_same_rules_as_the_file() {
        let err = parse(
            TWO_BOTS,
            &Overrides {
                opening_plies: Some(5000),
                ..Default::default()
            },
        )
        .unwrap_err()
        .to_string();
        assert_eq!(err, "--opening-plies: must be between 0 and 1000, got 5000");
        let mut c = parse(TWO_BOTS, &Overrides::default()).unwrap();
        c.validate().unwrap();
        c.games_per_pairing = 3;
        let err = c.validate().unwrap_err().to_string();
        assert!(
            err.starts_with("field `games_per_pairing`: ") && err.contains("even"),
            "{err}"
        );
        c.games_per_pairing = 2;
        c.bots[1].name = "a".into();
        let err = c.validate().unwrap_err().to_string();
        assert!(err.contains("unique"), "{err}");
    }

    #[test]
    fn flags_alone_make_a_config() {
        let overrides = Overrides {
            bots: vec!["a=python3 a.py".into(), "b=python3 b.py".into()],
            ..Default::default()
        };
        let c = from_overrides(&overrides, &defaults()).unwrap();
        assert_eq!(c.bot_names(), ["a", "b"]);
        assert!(c.bots.iter().all(|b| b.sandbox.is_none()));
        assert_eq!(c.bots[0].cwd.as_deref(), Some(Path::new("/here")));
    }

    #[test]
    fn config_round_trips_through_json() {
        let c = parse(TWO_BOTS, &Overrides::default()).unwrap();
        let back: TournamentConfig =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        use std::time::{Duration, UNIX_EPOCH};
        assert_eq!(utc_timestamp(UNIX_EPOCH), "19700101-000000");
        // 2024-02-29 13:45:07 UTC (a leap day).
        assert_eq!(
            utc_timestamp(UNIX_EPOCH + Duration::from_secs(1_709_214_307)),
            "20240229-134507"
        );
    }
}
