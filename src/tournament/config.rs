//! The tournament file (TOML) and command-line overrides, resolved into one
//! [`TournamentConfig`].
//!
//! ```toml
//! [tournament]
//! variant = "qango6"
//! games_per_pairing = 4        # even: games are played in pairs, colours swapped
//! time_control = "per-move=200"  # or "10+0.1" (seconds), or move_ms / base_ms + increment_ms
//! concurrency = 2              # games at once; default: number of cores
//! seed = 7                     # default: random, recorded in tournament.json
//! out = "arena-out/mine"       # default: arena-out/<timestamp>
//! opening_plies = 2            # random legal opening shared by both games of a pair
//! grace_ms = 100               # allowance beyond each move's limit before a timeout
//!
//! [[bot]]
//! name = "random"
//! command = ["python3", "bots/python/random_bot.py"]
//! cwd = "."                    # relative to this file; default: this file's directory
//! env = { PYTHONUNBUFFERED = "1" }
//! limits = { memory_mb = 512, startup_ms = 5000 }
//! ```
//!
//! Errors name the file, the line and the field, because a person edits this
//! file by hand and should not have to hunt for the mistake. Flags given on
//! the command line override the file; `--bot NAME=CMD` replaces the file's
//! bot of that name or adds a new one.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::games::Variant;
use crate::protocol::TimeControl;
use crate::referee::BotSpec;

use crate::referee::{parse_time_control, DEFAULT_GRACE};

fn default_grace_ms() -> u64 {
    DEFAULT_GRACE.as_millis() as u64
}

/// Variant used when neither the file nor a flag names one.
pub const DEFAULT_VARIANT: &str = "qango6";
/// Games per pairing when not configured: one game pair.
pub const DEFAULT_GAMES_PER_PAIRING: u32 = 2;
/// Per-move limit when no time control is configured.
pub const DEFAULT_MOVE_MS: u64 = 1000;

/// Everything a tournament needs, after defaults and overrides. This is what
/// `tournament.json` stores, so a resumed run uses exactly the same settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// Variant id (validated against [`Variant::by_id`]).
    pub variant: String,
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
    pub bots: Vec<BotSpec>,
}

impl TournamentConfig {
    pub fn variant(&self) -> &'static Variant {
        Variant::by_id(&self.variant).expect("variant validated when the config was built")
    }

    pub fn bot_names(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.name.clone()).collect()
    }

    /// Checks the invariants every config must satisfy, whatever its source
    /// (file + flags, or a `tournament.json` being resumed).
    pub fn validate(&self) -> anyhow::Result<()> {
        if Variant::by_id(&self.variant).is_none() {
            bail!(
                "unknown variant {:?}; known: {}",
                self.variant,
                Variant::ids().join(", ")
            );
        }
        check_games_per_pairing(self.games_per_pairing as i64)?;
        if self.concurrency == 0 {
            bail!("concurrency must be at least 1");
        }
        if self.bots.len() < 2 {
            bail!(
                "a tournament needs at least two bots, got {} (add [[bot]] entries or --bot NAME=CMD)",
                self.bots.len()
            );
        }
        let mut names = BTreeSet::new();
        for bot in &self.bots {
            bot.validate()?;
            if bot.name.chars().any(char::is_control) {
                bail!("bot name {:?} contains a control character", bot.name);
            }
            if !names.insert(bot.name.as_str()) {
                bail!(
                    "two bots are named {:?}; bot names must be unique",
                    bot.name
                );
            }
        }
        Ok(())
    }
}

fn check_games_per_pairing(n: i64) -> anyhow::Result<()> {
    if n <= 0 || n % 2 != 0 {
        bail!("games_per_pairing must be a positive even number (games are played in pairs with colours swapped), got {n}");
    }
    Ok(())
}

/// Values given on the command line; each one beats the file.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub variant: Option<String>,
    pub games_per_pairing: Option<u32>,
    /// `per-move=MS` or `BASE+INC` (seconds).
    pub time_control: Option<String>,
    pub concurrency: Option<usize>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    pub opening_plies: Option<u32>,
    pub grace_ms: Option<u64>,
    /// `NAME=COMMAND LINE`.
    pub bots: Vec<String>,
    /// `--sandbox`: every bot runs in the sandbox, whatever the file says.
    pub sandbox: bool,
}

/// The `[tournament]` table as written, every field optional and spanned so
/// that semantic errors can point at their line.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    variant: Option<Spanned<String>>,
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
    /// Default for bots without their own `sandbox` setting.
    sandbox: Option<bool>,
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
        field: &str,
        value: &Spanned<T>,
        message: impl std::fmt::Display,
    ) -> anyhow::Error {
        anyhow!(
            "{}:{}: field `{}`: {}",
            self.path.display(),
            self.line_of(&value.span()),
            field,
            message
        )
    }
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
    from_toml(&text, path, &base, overrides, defaults)
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
/// `base`, applies `overrides` and `defaults`, and validates the result.
pub fn from_toml(
    text: &str,
    path: &Path,
    base: &Path,
    overrides: &Overrides,
    defaults: &Defaults,
) -> anyhow::Result<TournamentConfig> {
    build(text, path, base, overrides, defaults, Vec::new())
}

/// A config from flags and ready-made bots (e.g. `arena sprt`'s two); a bot
/// without a `cwd` runs in `defaults.current_dir`.
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
    )
}

fn build(
    text: &str,
    path: &Path,
    base: &Path,
    overrides: &Overrides,
    defaults: &Defaults,
    extra_bots: Vec<BotSpec>,
) -> anyhow::Result<TournamentConfig> {
    let raw: RawFile = toml::from_str(text)
        .map_err(|e| anyhow!("{}: {}", path.display(), e.to_string().trim_end()))?;
    let src = Source { path, text };
    let t = &raw.tournament;

    let variant = match (&overrides.variant, &t.variant) {
        (Some(v), _) => {
            Variant::by_id(v).ok_or_else(|| {
                anyhow!(
                    "--variant: unknown variant {v:?}; known: {}",
                    Variant::ids().join(", ")
                )
            })?;
            v.clone()
        }
        (None, Some(v)) => {
            Variant::by_id(v.get_ref()).ok_or_else(|| {
                src.error(
                    "variant",
                    v,
                    format!(
                        "unknown variant {:?}; known: {}",
                        v.get_ref(),
                        Variant::ids().join(", ")
                    ),
                )
            })?;
            v.get_ref().clone()
        }
        (None, None) => DEFAULT_VARIANT.to_string(),
    };

    let games_per_pairing = match (overrides.games_per_pairing, &t.games_per_pairing) {
        (Some(n), _) => {
            check_games_per_pairing(n as i64).context("--games")?;
            n
        }
        (None, Some(n)) => {
            check_games_per_pairing(*n.get_ref())
                .map_err(|e| src.error("games_per_pairing", n, e))?;
            u32::try_from(*n.get_ref())
                .map_err(|_| src.error("games_per_pairing", n, "too large"))?
        }
        (None, None) => DEFAULT_GAMES_PER_PAIRING,
    };

    let time_control = match &overrides.time_control {
        Some(tc) => parse_time_control(tc).context("--tc")?,
        None => file_time_control(&src, t)?,
    };

    let concurrency = match (overrides.concurrency, &t.concurrency) {
        (Some(0), _) => bail!("--concurrency must be at least 1"),
        (Some(n), _) => n,
        (None, Some(n)) => positive(&src, "concurrency", n)? as usize,
        (None, None) => defaults.concurrency.max(1),
    };

    let seed = match (overrides.seed, &t.seed) {
        (Some(s), _) => s,
        (None, Some(s)) => {
            u64::try_from(*s.get_ref()).map_err(|_| src.error("seed", s, "must not be negative"))?
        }
        (None, None) => defaults.seed,
    };

    let out = match (&overrides.out, &t.out) {
        (Some(o), _) => o.clone(),
        (None, Some(o)) => o.get_ref().clone(),
        (None, None) => defaults.out.clone(),
    };

    let opening_plies = match (overrides.opening_plies, &t.opening_plies) {
        (Some(n), _) => n,
        (None, Some(n)) => {
            let v = *n.get_ref();
            if !(0..=1000).contains(&v) {
                return Err(src.error(
                    "opening_plies",
                    n,
                    format!("must be between 0 and 1000, got {v}"),
                ));
            }
            v as u32
        }
        (None, None) => 0,
    };

    let grace_ms = match (overrides.grace_ms, &t.grace_ms) {
        (Some(ms), _) => ms,
        (None, Some(ms)) => u64::try_from(*ms.get_ref())
            .map_err(|_| src.error("grace_ms", ms, "must not be negative"))?,
        (None, None) => default_grace_ms(),
    };

    let mut bots = Vec::with_capacity(raw.bot.len());
    let mut seen = BTreeSet::new();
    for spanned in &raw.bot {
        let mut bot = spanned.get_ref().clone();
        bot.validate().map_err(|e| src.error("bot", spanned, e))?;
        if !seen.insert(bot.name.clone()) {
            return Err(src.error(
                "bot",
                spanned,
                format!(
                    "a second bot is named {:?}; bot names must be unique",
                    bot.name
                ),
            ));
        }
        bot.resolve_relative_to(base);
        bots.push(bot);
    }
    let flag_bots = overrides
        .bots
        .iter()
        .map(|flag| parse_bot_flag(flag))
        .collect::<anyhow::Result<Vec<_>>>()?;
    for mut bot in extra_bots.into_iter().chain(flag_bots) {
        bot.resolve_relative_to(&defaults.current_dir);
        match bots.iter_mut().find(|b| b.name == bot.name) {
            Some(existing) => *existing = bot,
            None => bots.push(bot),
        }
    }

    // The sandbox is resolved into each bot, so it is recorded with it.
    let sandbox_default = t.sandbox.unwrap_or(false);
    for bot in &mut bots {
        if overrides.sandbox || (bot.sandbox.is_none() && sandbox_default) {
            bot.sandbox = Some(true);
        }
    }

    let config = TournamentConfig {
        variant,
        games_per_pairing,
        time_control,
        concurrency,
        seed,
        out,
        opening_plies,
        grace_ms,
        bots,
    };
    config
        .validate()
        .with_context(|| format!("{}", path.display()))?;
    Ok(config)
}

/// `--bot NAME=COMMAND LINE`.
pub fn parse_bot_flag(flag: &str) -> anyhow::Result<BotSpec> {
    let (name, command) = flag
        .split_once('=')
        .ok_or_else(|| anyhow!("--bot {flag:?}: expected NAME=COMMAND, e.g. --bot greedy='python3 bots/python/greedy_bot.py'"))?;
    let spec = BotSpec::from_command_line(name.trim(), command)
        .with_context(|| format!("--bot {flag:?}"))?;
    spec.validate().with_context(|| format!("--bot {flag:?}"))?;
    Ok(spec)
}

fn positive(src: &Source, field: &str, value: &Spanned<i64>) -> anyhow::Result<u64> {
    let v = *value.get_ref();
    if v <= 0 {
        return Err(src.error(field, value, format!("must be positive, got {v}")));
    }
    Ok(v as u64)
}

/// One of `time_control = "..."`, `move_ms = N`, or `base_ms = N` with an
/// optional `increment_ms`; mixing the forms is an error.
fn file_time_control(src: &Source, t: &RawTournament) -> anyhow::Result<TimeControl> {
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

/// `YYYYMMDD-HHMMSS` in UTC, for default output directory names.
pub fn utc_timestamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil-from-days (Howard Hinnant), valid for every date after 1970.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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
            sandbox: false,
            bots: vec!["b=node b.js".into(), "c=./c --fast".into()],
        };
        let c = parse(&text, &overrides).unwrap();
        assert_eq!(c.variant, "quinque");
        assert_eq!(c.games_per_pairing, 2);
        assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 50 });
        assert_eq!((c.concurrency, c.seed, c.opening_plies), (1, 8, 1));
        assert_eq!(c.grace_ms, 250);
        assert_eq!(c.out, PathBuf::from("x"));
        assert_eq!(c.bot_names(), ["a", "b", "c"]);
        assert_eq!(c.bots[1].command, ["node", "b.js"]);
        assert_eq!(c.bots[2].command, ["./c", "--fast"]);
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
