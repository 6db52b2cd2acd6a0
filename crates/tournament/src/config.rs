//! A run's settings as the run uses them: [`TournamentConfig`], which
//! `tournament.json` stores so that a resumed run uses exactly the same
//! settings, and the entry points that build it from a tournament file and
//! the flags ([`load`], [`from_given`]). What each setting is, its rule and
//! its documentation are in [`crate::settings`], defined once.
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

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};
use serde::{Deserialize, Serialize};

use arena_referee::adjudicate::Adjudication;
use arena_referee::{program_problem, BotSpec};
use arena_rules::games::Variant;
use arena_rules::protocol::{ClockBasis, TimeControl};

use super::openings::OpeningSuite;
use super::settings::build::{build, file_base, Programs, RunSettings};
use super::settings::resolve::{resolve, Inputs, Source};
use super::settings::{setting, Command, Given, Value};
use super::shard::Shard;

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
/// that `tournament.json`s of older runs leave out).
fn default_whole(key: &str) -> u64 {
    let def = setting(key);
    match def.kind.read_text(def.default.text()) {
        Ok(Value::Whole(n)) => n,
        other => panic!("the default of {key} is no whole number: {other:?}"),
    }
}

fn default_wall_cap() -> u32 {
    default_whole("wall_cap") as u32
}

fn is_default_wall_cap(cap: &u32) -> bool {
    *cap == default_wall_cap()
}

fn default_grace_ms() -> u64 {
    default_whole("grace_ms")
}

fn default_sync_interval_ms() -> u64 {
    default_whole("sync_interval_ms")
}

fn default_startup_failures() -> u32 {
    default_whole("startup_failures") as u32
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

    /// Applies the settings that may change on `--resume` (they change no
    /// game: `concurrency`, `rating_interval`), each by its rule; any other
    /// given setting is an error naming it.
    pub fn resume_with(&mut self, given: &Given) -> anyhow::Result<()> {
        for key in given.keys() {
            let def = setting(key);
            let flag = def.flag_text().unwrap_or_else(|| key.to_string());
            if !def.on_resume {
                anyhow::bail!(
                    "{flag} cannot change when a run is resumed: its settings are in tournament.json (only {} may)",
                    resumable_flags(Command::Tournament).join(" and ")
                );
            }
            let texts = given.get(key).unwrap_or_default();
            let value = def
                .kind
                .read_texts(texts)
                .map_err(|m| anyhow!("{flag}: {m}"))?;
            match (key, value) {
                ("concurrency", Value::Whole(n)) => self.concurrency = n as usize,
                ("rating_interval", Value::Whole(n)) => self.rating_interval = n,
                (key, value) => panic!("no resume rule applies {key} = {value:?}"),
            }
        }
        Ok(())
    }
}

/// The flags of `command`'s settings that may change on `--resume`, as typed.
pub fn resumable_flags(command: Command) -> Vec<String> {
    super::settings::SETTINGS
        .iter()
        .filter(|s| s.on_resume && s.commands.contains(&command))
        .filter_map(|s| match (s.short, s.flag) {
            (Some(short), _) => Some(format!("-{short}")),
            (None, flag) => flag.map(|f| format!("--{f}")),
        })
        .collect()
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
            out: PathBuf::from("arena-out")
                .join(arena_files::utc_timestamp(std::time::SystemTime::now())),
            current_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        }
    }
}

/// Reads the tournament file at `path` and applies the flags `given`;
/// `defaults` fill what neither gives. A bot whose program cannot start is
/// an error pointing at its entry.
pub fn load(path: &Path, given: &Given, defaults: &Defaults) -> anyhow::Result<RunSettings> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read tournament file {}", path.display()))?;
    let inputs = Inputs {
        command: Command::Tournament,
        file: Some(Source { path, text: &text }),
        base: &file_base(path),
        defaults,
    };
    build(resolve(inputs, given, Vec::new())?, Programs::Check)
}

/// [`load`] of `text` as the content of `path`, with relative paths
/// starting at `base`, without looking at the bots' programs.
pub fn from_toml(
    text: &str,
    path: &Path,
    base: &Path,
    given: &Given,
    defaults: &Defaults,
) -> anyhow::Result<RunSettings> {
    let inputs = Inputs {
        command: Command::Tournament,
        file: Some(Source { path, text }),
        base,
        defaults,
    };
    build(resolve(inputs, given, Vec::new())?, Programs::Skip)
}

/// A run of `command` from flags alone, plus ready-made bots (e.g. `arena
/// sprt`'s two); a bot without a `cwd` runs in `defaults.current_dir`. The
/// bots' programs are not looked at: call
/// [`TournamentConfig::check_programs`] before playing.
pub fn from_given(
    command: Command,
    given: &Given,
    defaults: &Defaults,
    bots: Vec<BotSpec>,
) -> anyhow::Result<RunSettings> {
    let inputs = Inputs {
        command,
        file: None,
        base: &defaults.current_dir,
        defaults,
    };
    build(resolve(inputs, given, bots)?, Programs::Skip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::OpeningOrder;

    fn defaults() -> Defaults {
        Defaults {
            concurrency: 3,
            seed: 99,
            out: PathBuf::from("arena-out/default"),
            current_dir: PathBuf::from("/here"),
        }
    }

    fn run(text: &str, given: &Given) -> anyhow::Result<RunSettings> {
        from_toml(
            text,
            Path::new("t.toml"),
            Path::new("/cfg"),
            given,
            &defaults(),
        )
    }

    fn parse(text: &str, given: &Given) -> anyhow::Result<TournamentConfig> {
        run(text, given).map(|run| run.config)
    }

    fn none() -> Given {
        Given::new()
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
        let c = parse(&text, &none()).unwrap();
        assert_eq!(c.variant, "qango7");
        assert_eq!(c.games_per_pairing, 6);
        assert_eq!(
            c.time_control,
            TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100
            }
        );
        assert_eq!((c.concurrency, c.seed, c.opening_plies), (4, 5, 3));
        // Relative to the file, as the bots' directories are.
        assert_eq!(c.out, PathBuf::from("/cfg/o"));
        assert_eq!(c.bot_names(), ["a", "b"]);
        assert_eq!(c.bots[0].cwd.as_deref(), Some(Path::new("/cfg")));
        assert_eq!(c.bots[1].cwd.as_deref(), Some(Path::new("/cfg/bots")));
        assert_eq!(c.bots[1].command, ["python3", "b.py"]);
    }

    /// The defaults are the definitions' (the values docs/SETTINGS.md
    /// shows), not constants of their own.
    #[test]
    fn defaults_fill_missing_fields() {
        let c = parse(TWO_BOTS, &none()).unwrap();
        assert_eq!(c.variant, "qango6");
        assert_eq!(c.games_per_pairing, 2);
        assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 1000 });
        assert_eq!((c.concurrency, c.seed), (3, 99));
        assert_eq!(c.out, PathBuf::from("arena-out/default"));
        assert_eq!(c.opening_plies, 0);
        assert_eq!(
            (c.grace_ms, c.sync_interval_ms, c.startup_failures),
            (100, 200, 3)
        );
        assert_eq!(c.rating_interval, 0);
    }

    #[test]
    fn millisecond_time_control_fields() {
        let c = parse(&format!("[tournament]\nmove_ms = 150\n{TWO_BOTS}"), &none()).unwrap();
        assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 150 });
        let c = parse(
            &format!("[tournament]\nbase_ms = 2000\nincrement_ms = 50\n{TWO_BOTS}"),
            &none(),
        )
        .unwrap();
        assert_eq!(
            c.time_control,
            TimeControl::Clock {
                base_ms: 2000,
                increment_ms: 50
            }
        );
        for (head, prefix) in [
            (
                "move_ms = 150\nbase_ms = 10",
                "t.toml:2:11: field `move_ms`: ",
            ),
            (
                "time_control = \"1+0\"\nmove_ms = 5",
                "t.toml:3:11: field `move_ms`: give either",
            ),
            (
                "increment_ms = 5",
                "t.toml:2:16: field `increment_ms`: `increment_ms` needs `base_ms`",
            ),
        ] {
            let err = parse(&format!("[tournament]\n{head}\n{TWO_BOTS}"), &none()).unwrap_err();
            assert!(err.to_string().starts_with(prefix), "{err}");
        }
    }

    #[test]
    fn flags_override_the_file_and_bots_merge_by_name() {
        let text = format!(
            "[tournament]\nvariant = \"qango7\"\ngames_per_pairing = 6\nseed = 5\n{TWO_BOTS}"
        );
        let given = Given::new()
            .with("variant", "quinque")
            .with("games_per_pairing", "2")
            .with("time_control", "per-move=50")
            .with("concurrency", "1")
            .with("seed", "8")
            .with("out", "x")
            .with("opening_plies", "1")
            .with("grace_ms", "250")
            .with("sync_interval_ms", "50")
            .with("startup_failures", "5")
            .with_bot("b=node b.js")
            .with_bot("c=./c --fast");
        let c = parse(&text, &given).unwrap();
        assert_eq!(c.variant, "quinque");
        assert_eq!(c.games_per_pairing, 2);
        assert_eq!(c.time_control, TimeControl::PerMove { move_ms: 50 });
        assert_eq!((c.concurrency, c.seed, c.opening_plies), (1, 8, 1));
        assert_eq!(
            (c.grace_ms, c.sync_interval_ms, c.startup_failures),
            (250, 50, 5)
        );
        assert_eq!(c.out, PathBuf::from("x"));
        assert_eq!(c.bot_names(), ["a", "b", "c"]);
        assert_eq!(c.bots[1].command, ["node", "b.js"]);
        assert_eq!(c.bots[2].command, ["./c", "--fast"]);
    }

    #[test]
    fn gauntlet_seeds_resolve_from_file_and_flags() {
        let file = |settings: &str| format!("[tournament]\n{settings}\n{TWO_BOTS}");
        // `format = "gauntlet"` alone: the first bot is the seed.
        let c = parse(&file("format = \"gauntlet\""), &none()).unwrap();
        assert_eq!(c.seeds, ["a"]);
        // Seeds without a format make a gauntlet.
        let c = parse(&file("seeds = [\"b\"]"), &none()).unwrap();
        assert_eq!(
            (c.seeds.clone(), c.seed_indices()),
            (vec!["b".to_string()], vec![1])
        );
        // --gauntlet beats the file's seeds.
        let flags = Given::new()
            .with("seeds", "a")
            .with("rating_interval", "10");
        let c = parse(&file("seeds = [\"b\"]\nrating_interval = 3"), &flags).unwrap();
        assert_eq!(
            (c.seeds.clone(), c.rating_interval),
            (vec!["a".to_string()], 10)
        );
        // A round robin has none, and a resumed config re-validates.
        let c = parse(&file("rating_interval = 3"), &none()).unwrap();
        assert!(c.seeds.is_empty());
        assert_eq!(c.rating_interval, 3);
        c.validate().unwrap();
        let err = parse(&file("rating_interval = -1"), &none()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.toml:2:19: field `rating_interval`: must not be negative"),
            "{err}"
        );
        let err = parse(&file(""), &Given::new().with("seeds", "zed")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--gauntlet: seed \"zed\" is not one of the bots (a, b)"
        );
        let err = parse(&file("format = \"round_robin\"\nseeds = [\"a\"]"), &none()).unwrap_err();
        assert!(
            err.to_string()
                .contains("seeds are only for format = \"gauntlet\""),
            "{err}"
        );
    }

    #[test]
    fn errors_name_file_line_column_and_field() {
        let cases = [
            (
                "games_per_pairing = 3",
                "t.toml:2:21: field `games_per_pairing`",
                "even",
            ),
            (
                "\nvariant = \"chess\"",
                "t.toml:3:11: field `variant`",
                "qango6",
            ),
            (
                "concurrency = 0",
                "t.toml:2:15: field `concurrency`",
                "between 1 and 1024",
            ),
            ("seed = -1", "t.toml:2:8: field `seed`", "negative"),
            (
                "time_control = \"fast\"",
                "t.toml:2:16: field `time_control`",
                "time control",
            ),
            ("grace_ms = -5", "t.toml:2:12: field `grace_ms`", "negative"),
            (
                "\nstartup_failures = -1",
                "t.toml:3:20: field `startup_failures`",
                "negative",
            ),
            (
                "opening_plies = -2",
                "t.toml:2:17: field `opening_plies`",
                "between",
            ),
            (
                "games_per_pairing = \"4\"",
                "t.toml:2:21: field `games_per_pairing`",
                "got the text \"4\"",
            ),
            (
                "sandbox = 1",
                "t.toml:2:11: field `sandbox`",
                "expected true or false",
            ),
        ];
        for (head, prefix, detail) in cases {
            let err = parse(&format!("[tournament]\n{head}\n{TWO_BOTS}"), &none())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(prefix), "{head:?}: {err}");
            assert!(err.contains(detail), "{head:?}: {err}");
        }
    }

    /// `text` as the file t.toml in `dir`, without flags.
    fn parse_in(dir: &Path, text: &str) -> anyhow::Result<TournamentConfig> {
        from_toml(text, Path::new("t.toml"), dir, &none(), &defaults()).map(|r| r.config)
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
                "openings_order = \"sorted\"",
                "t.toml:2:18: field `openings_order`: expected one of",
            ),
            (
                "openings_start = 2",
                "t.toml:2:18: field `openings_start`: needs an opening suite",
            ),
            (
                "openings = \"missing.txt\"",
                "t.toml:2:12: field `openings`: cannot read opening suite",
            ),
            (
                "openings = \"s.txt\"\nopening_plies = 2",
                "t.toml:3:17: field `opening_plies`: random opening plies and an opening suite",
            ),
        ];
        for (head, prefix) in cases {
            let err = parse_in(dir.path(), &format!("[tournament]\n{head}\n{TWO_BOTS}"))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with(prefix), "{head:?}: {err}");
        }
        let flag = Given::new().with("openings_order", "shuffled");
        let err = parse(TWO_BOTS, &flag).unwrap_err().to_string();
        assert!(
            err.starts_with("--openings-order: expected one of"),
            "{err}"
        );
    }

    #[test]
    fn several_variants_from_the_file_or_the_flag() {
        let text = format!("[tournament]\nvariants = [\"qango7\", \"quinque\"]\n{TWO_BOTS}");
        let c = parse(&text, &none()).unwrap();
        assert_eq!(c.variant, "qango7");
        assert_eq!(c.variant_ids(), ["qango7", "quinque"]);
        c.validate().unwrap();
        let flag = |v: &str| Given::new().with("variant", v);
        let c = parse(&text, &flag("qango6, qango7")).unwrap();
        assert_eq!(c.variant_ids(), ["qango6", "qango7"]);
        let c = parse(TWO_BOTS, &flag("all")).unwrap();
        assert_eq!(c.variant_ids(), Variant::ids());
        // One variant is stored as before: no list.
        let c = parse(TWO_BOTS, &flag("quinque")).unwrap();
        assert!(c.variants.is_empty() && c.variant == "quinque");
        let c = parse(
            &format!("[tournament]\nvariant = \"qango6,quinque\"\n{TWO_BOTS}"),
            &none(),
        )
        .unwrap();
        assert_eq!(c.variant_ids(), ["qango6", "quinque"]);
        let cases = [
            (
                "variant = \"qango6\"\nvariants = [\"qango7\"]",
                "t.toml:3:12: field `variants`: give either",
            ),
            (
                "variants = [\"qango7\", \"qango7\"]",
                "t.toml:2:12: field `variants`: variant \"qango7\" is listed twice",
            ),
            (
                "variants = []",
                "t.toml:2:12: field `variants`: names no variant",
            ),
            (
                "variants = [\"qango6\", \"go\"]",
                "t.toml:2:12: field `variants`: unknown variant \"go\"",
            ),
        ];
        for (head, prefix) in cases {
            let err = parse(&format!("[tournament]\n{head}\n{TWO_BOTS}"), &none())
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
            err.starts_with("t.toml:3:12: field `openings`: an opening suite belongs to one variant, but this run plays 2 (qango6, qango7)"),
            "{err}"
        );
    }

    #[test]
    fn bot_errors_point_at_the_bot_entry() {
        let text = "[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n\n[[bot]]\nname = \"a\"\ncommand = [\"y\"]\n";
        let err = parse(text, &none()).unwrap_err().to_string();
        assert!(
            err.starts_with("t.toml:5:1: field `bot`: ") && err.contains("unique"),
            "{err}"
        );
        let err = parse("[[bot]]\nname = \"a\"\ncommand = []\n", &none()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.toml:1:1: field `bot`: bot \"a\": field `command` is empty"),
            "{err}"
        );
        let err = parse("[[bot]]\nname = \"a\"\ncomand = [\"x\"]\n", &none()).unwrap_err();
        assert!(err.to_string().contains("unknown field `comand`"), "{err}");
    }

    #[test]
    fn syntax_errors_and_unknown_keys_are_one_line_with_a_suggestion() {
        let err = parse("[tournament]\ngames_per_paring = 4\n", &none())
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "t.toml:2:1: `games_per_paring` is not a setting of [tournament]; did you mean `games_per_pairing`? (docs/SETTINGS.md lists them all)"
        );
        let err = parse("[tournament]\nvariant = \n", &none())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t.toml:2:") && !err.contains('\n'), "{err}");
        let err = parse("[tournamnet]\nseed = 1\n", &none())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.toml:1:") && err.contains("tournamnet") && !err.contains('\n'),
            "{err}"
        );
    }

    #[test]
    fn too_few_bots_and_bad_flags() {
        let err = parse("[[bot]]\nname = \"a\"\ncommand = [\"x\"]\n", &none()).unwrap_err();
        assert!(format!("{err:#}").contains("at least two bots"), "{err:#}");
        let bad = |g: Given| format!("{:#}", parse(TWO_BOTS, &g).unwrap_err());
        assert!(bad(Given::new().with("games_per_pairing", "3")).starts_with("--games: "));
        assert!(bad(Given::new().with("variant", "go")).starts_with("--variant: "));
        assert!(bad(Given::new().with("time_control", "x")).starts_with("--tc: "));
        assert!(bad(Given::new().with_bot("nocommand")).contains("NAME=COMMAND"));
        assert!(bad(Given::new().with("concurrency", "0")).starts_with("--concurrency: "));
        assert!(bad(Given::new().with("grace_ms", "soon")).contains("expected a whole number"));
    }

    #[test]
    fn sandbox_setting_per_tournament_per_bot_and_flag() {
        let text = "[tournament]\nsandbox = true\n[[bot]]\nname = 'a'\ncommand = 'x'\n\
                    [[bot]]\nname = 'b'\ncommand = 'y'\nsandbox = false\nnetwork = true\nwritable = ['data']\n";
        let c = parse(text, &none()).unwrap();
        assert_eq!(c.bots[0].sandbox, Some(true));
        assert_eq!(c.bots[1].sandbox, Some(false));
        assert!(c.bots[1].network && c.bots[1].writable == [PathBuf::from("data")]);
        let c = parse(text, &Given::new().with("sandbox", "true")).unwrap();
        assert!(c.bots.iter().all(|b| b.sandbox == Some(true)));
        let c = parse(TWO_BOTS, &none()).unwrap();
        assert!(c.bots.iter().all(|b| b.sandbox.is_none()));
    }

    #[test]
    fn flags_and_saved_configs_meet_the_same_rules_as_the_file() {
        let err = parse(TWO_BOTS, &Given::new().with("opening_plies", "5000")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--opening-plies: must be between 0 and 1000, got 5000"
        );
        let mut c = parse(TWO_BOTS, &none()).unwrap();
        c.validate().unwrap();
        c.games_per_pairing = 3;
        let err = c.validate().unwrap_err().to_string();
        assert!(
            err.starts_with("field `games_per_pairing`: ") && err.contains("even"),
            "{err}"
        );
        c.games_per_pairing = 2;
        c.concurrency = 0;
        let err = c.validate().unwrap_err().to_string();
        assert_eq!(
            err,
            "field `concurrency`: must be between 1 and 1024, got 0"
        );
        c.concurrency = 1;
        c.bots[1].name = "a".into();
        let err = c.validate().unwrap_err().to_string();
        assert!(err.contains("unique"), "{err}");
    }

    #[test]
    fn flags_alone_make_a_config() {
        let given = Given::new()
            .with_bot("a=python3 a.py")
            .with_bot("b=python3 b.py");
        let c = from_given(Command::Tournament, &given, &defaults(), Vec::new())
            .unwrap()
            .config;
        assert_eq!(c.bot_names(), ["a", "b"]);
        assert!(c.bots.iter().all(|b| b.sandbox.is_none()));
        assert_eq!(c.bots[0].cwd.as_deref(), Some(Path::new("/here")));
    }

    #[test]
    fn an_sprt_from_a_file_or_the_flags() {
        let text = format!("[tournament]\nformat = \"sprt\"\nelo0 = 0\nelo1 = 5\n{TWO_BOTS}");
        let r = run(&text, &none()).unwrap();
        let plan = r.sprt.expect("an SPRT");
        assert_eq!(
            (plan.elo0, plan.elo1, plan.alpha, plan.max_pairs),
            (0.0, 5.0, 0.05, None)
        );
        assert_eq!((r.config.games_per_pairing, r.config.opening_plies), (2, 2));
        let err = run(
            &format!("[tournament]\nformat = \"sprt\"\nelo0 = 0\n{TWO_BOTS}"),
            &none(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("give elo0 and elo1"), "{err}");
        let err = run(&format!("[tournament]\nelo0 = 0\n{TWO_BOTS}"), &none()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.toml:2:8: field `elo0`: is a setting of an SPRT"),
            "{err}"
        );
        let given = Given::new().with("elo0", "0").with("elo1", "500");
        let err = from_given(Command::Sprt, &given, &defaults(), two_bots()).unwrap_err();
        assert!(err.to_string().contains("within -/+200 nElo"), "{err}");
    }

    fn two_bots() -> Vec<BotSpec> {
        ["a", "b"]
            .map(|n| BotSpec::from_command_line(n, "./x").unwrap())
            .to_vec()
    }

    #[test]
    fn only_resumable_settings_change_on_resume() {
        let mut c = parse(TWO_BOTS, &none()).unwrap();
        c.resume_with(
            &Given::new()
                .with("concurrency", "7")
                .with("rating_interval", "5"),
        )
        .unwrap();
        assert_eq!((c.concurrency, c.rating_interval), (7, 5));
        let err = c
            .resume_with(&Given::new().with("sync_interval_ms", "5"))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--sync-ms cannot change when a run is resumed: its settings are in tournament.json (only -j and --rating-interval may)"
        );
        let err = c
            .resume_with(&Given::new().with("concurrency", "0"))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "--concurrency: must be between 1 and 1024, got 0"
        );
    }

    #[test]
    fn config_round_trips_through_json() {
        let c = parse(TWO_BOTS, &none()).unwrap();
        let back: TournamentConfig =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }
}
