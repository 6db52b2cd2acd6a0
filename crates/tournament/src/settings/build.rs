//! Stage three of the settings: the resolved values judged together and
//! assembled into a [`RunSettings`] (the [`TournamentConfig`] and the plan
//! its format makes of them: [`crate::format::FormatRow::plan`]), and the
//! entry points that go through the three stages
//! ([`load`], [`from_toml`], [`from_given`], [`with_bots`]). The rules that tie settings
//! together are written once against the assembled config
//! ([`check_config`]), so a saved `tournament.json` meets them on
//! `--resume` too ([`TournamentConfig::validate`]); an error names where
//! the rejected value came from.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};

use arena_referee::adjudicate::Adjudication;
use arena_referee::{program_problem, BotSpec};
use arena_rules::games::Variant;
use arena_rules::protocol::{ClockBasis, TimeControl};
use arena_stats::MAX_BOTS;

use super::defs::{self, Command, Setting, SETTINGS};
use super::resolve::{resolve, Given, Inputs, Resolved, Source};
use super::values::{Defaults, SettingValues};
use crate::config::TournamentConfig;
use crate::manifest::{Manifest, Plan};
use crate::openings::{parse_suite, suite_line, OpeningOrder, OpeningSuite};
use crate::registry::FORMATS;
use crate::shard::Shard;

/// A run's settings: the config, and the plan of the format they choose
/// (made by the format: [`crate::format::FormatRow::plan`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    pub config: TournamentConfig,
    pub plan: Plan,
}

impl RunSettings {
    /// The manifest of a new run of these settings.
    pub fn manifest(self) -> Manifest {
        Manifest::new(self.config, self.plan)
    }
}

/// What a rule found wrong, and with what: a setting, a bot (its index),
/// or the run as a whole.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    Setting(&'static Setting, String),
    Bot(usize, String),
    Run(String),
}

/// Whether [`build`] also asks whether each bot's program can start
/// ([`program_problem`]), so that the error points at the bot's entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Programs {
    Check,
    /// Left to the caller ([`TournamentConfig::check_programs`]) or to a
    /// computation that plays nothing.
    Skip,
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

/// The `[[bot]]` entries of a bots or tournament file at `path`, and
/// the settings `command` takes from its `[tournament]` table and the flags
/// `given` (a flag wins), for a command that plays the file's bots without
/// making a run (`arena serve --play`). The bots' programs are not looked
/// at.
pub fn bots_and_values(
    command: Command,
    path: &Path,
    given: &Given,
    defaults: &Defaults,
) -> anyhow::Result<(Vec<BotSpec>, SettingValues)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read bots file {}", path.display()))?;
    let inputs = Inputs {
        command,
        file: Some(Source { path, text: &text }),
        base: &file_base(path),
        defaults,
    };
    let resolved = resolve(inputs, given, Vec::new())?;
    let bots = resolved.bots.into_iter().map(|b| b.value).collect();
    Ok((bots, resolved.values))
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

/// The settings of the file at `path` (a `[tournament]` table, as a
/// league's `league.toml`), the flags `given`, and the bots `bots` given by
/// the caller (a league's versions), as [`load`] would read a tournament
/// file with those `[[bot]]` entries. The bots' programs are not looked
/// at: call [`TournamentConfig::check_programs`] before playing.
pub fn with_bots(
    path: &Path,
    given: &Given,
    defaults: &Defaults,
    bots: Vec<BotSpec>,
) -> anyhow::Result<RunSettings> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the settings file {}", path.display()))?;
    let inputs = Inputs {
        command: Command::Tournament,
        file: Some(Source { path, text: &text }),
        base: &file_base(path),
        defaults,
    };
    build(resolve(inputs, given, bots)?, Programs::Skip)
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
    build(
        resolve(Inputs::flags_only(command, defaults), given, bots)?,
        Programs::Skip,
    )
}

/// Stage three: the [`RunSettings`] of `r`, or the first rule it breaks, located.
pub fn build(r: Resolved, programs: Programs) -> anyhow::Result<RunSettings> {
    let v = &r.values;
    let variants = variants(&r)?;
    let time_control = time_control(&r)?;
    let seeds = seeds(&r)?;
    let openings = openings(&r, &variants)?;
    let shard = shard(&r)?;
    let config = TournamentConfig {
        variant: variants[0].clone(),
        variants: if variants.len() > 1 {
            variants
        } else {
            Vec::new()
        },
        games_per_pairing: if r.sprt {
            2
        } else {
            v.games_per_pairing.value as u32
        },
        time_control,
        concurrency: v.concurrency.value as usize,
        seed: v.seed.value,
        out: v.out.value.clone(),
        // A suite replaces the random openings, so their default (2 in an
        // SPRT) does not apply; given with a suite, they are refused.
        opening_plies: match openings {
            Some(_) if !v.opening_plies.given() => 0,
            _ => v.opening_plies.value as u32,
        },
        grace_ms: v.grace_ms.value,
        clock: ClockBasis::from_word(v.clock.value).unwrap_or_default(),
        wall_cap: v.wall_cap.value as u32,
        sync_interval_ms: v.sync_interval_ms.value,
        startup_failures: v.startup_failures.value as u32,
        bots: r.bots.iter().map(|b| b.value.clone()).collect(),
        openings,
        shard,
        seeds,
        rating_interval: v.rating_interval.value,
        suspend_idle: v.suspend_idle.value,
        adjudicate: adjudication(&r)?,
    };
    check_config(&config).map_err(|problem| locate(&r, problem))?;
    if programs == Programs::Check {
        for bot in &r.bots {
            if let Some(problem) = program_problem(&bot.value) {
                return Err(r.src.at(&bot.origin, problem));
            }
        }
    }
    // Every format judges the settings: the one they choose makes its
    // plan, the others refuse their own settings given.
    let mut plan = None;
    for format in FORMATS {
        if let Some(chosen) = (format.plan)(&r, &config)? {
            plan.get_or_insert(chosen);
        }
    }
    let plan = plan.ok_or_else(|| {
        r.at(
            &r.values.format,
            format!("no format of this arena is {:?}", r.values.format.value),
        )
    })?;
    Ok(RunSettings { config, plan })
}

/// Where `problem`'s value came from, and what is wrong.
fn locate(r: &Resolved, problem: Problem) -> anyhow::Error {
    match problem {
        Problem::Setting(setting, message) => r.at_setting(setting, message),
        Problem::Bot(index, message) => match r.bots.get(index) {
            Some(bot) => r.src.at(&bot.origin, message),
            None => anyhow!(message),
        },
        Problem::Run(message) => anyhow!("{}: {message}", r.src.path.display()),
    }
}

/// The rules that tie a config's settings together, written once for a
/// new run and a resumed `tournament.json`: the bots (each by the one bot
/// checker, names unique, two to [`MAX_BOTS`]), the gauntlet's seeds, and
/// the opening suite against the variants and the random plies.
pub fn check_config(c: &TournamentConfig) -> Result<(), Problem> {
    for (i, bot) in c.bots.iter().enumerate() {
        bot.check().map_err(|m| Problem::Bot(i, m))?;
        if c.bots[..i].iter().any(|b| b.name == bot.name) {
            let message = format!(
                "a second bot is named {:?}; bot names must be unique",
                bot.name
            );
            return Err(Problem::Bot(i, message));
        }
    }
    if c.bots.len() > MAX_BOTS {
        return Err(Problem::Run(format!(
            "{} bots, more than the {MAX_BOTS} arena can rate together (the Elo fit holds a bots x bots matrix)",
            c.bots.len()
        )));
    }
    if c.bots.len() < 2 {
        return Err(Problem::Run(format!(
            "a tournament needs at least two bots, got {} (add [[bot]] entries or --bot NAME=COMMAND)",
            c.bots.len()
        )));
    }
    check_seeds(c)?;
    check_suite(c)
}

/// Each seed names a bot, once, and at least one bot is not a seed.
fn check_seeds(c: &TournamentConfig) -> Result<(), Problem> {
    let names = c.bot_names();
    let problem = |m: String| Problem::Setting(&defs::SEEDS, m);
    for (i, seed) in c.seeds.iter().enumerate() {
        if !names.contains(seed) {
            return Err(problem(format!(
                "seed {seed:?} is not one of the bots ({})",
                names.join(", ")
            )));
        }
        if c.seeds[..i].contains(seed) {
            return Err(problem(format!("seed {seed:?} is named twice")));
        }
    }
    if !c.seeds.is_empty() && c.seeds.len() == names.len() {
        return Err(problem(
            "every bot is a seed, so nobody is left to play them: a gauntlet needs at least one bot that is not a seed".into(),
        ));
    }
    Ok(())
}

/// A suite excludes random plies and several variants, and every opening
/// of it is legal in the variant.
fn check_suite(c: &TournamentConfig) -> Result<(), Problem> {
    let Some(suite) = &c.openings else {
        return Ok(());
    };
    if c.opening_plies > 0 {
        return Err(Problem::Setting(
            &defs::OPENING_PLIES,
            "random opening plies and an opening suite (`openings`) exclude each other; give one"
                .into(),
        ));
    }
    let ids = c.variant_ids();
    if ids.len() > 1 {
        return Err(Problem::Setting(
            &defs::OPENINGS,
            format!(
                "an opening suite belongs to one variant, but this run plays {} ({}); use random openings (`opening_plies`) or one run per variant",
                ids.len(),
                ids.join(", ")
            ),
        ));
    }
    let text: String = suite
        .openings
        .iter()
        .map(|o| suite_line(o) + "\n")
        .collect();
    parse_suite(c.variant(), &suite.file, &text)
        .map(drop)
        .map_err(|e| Problem::Setting(&defs::OPENINGS, format!("{e:#}")))
}

/// The variants from `--variant`, else the file's `variant` or `variants`
/// (not both), else the default.
fn variants(r: &Resolved) -> anyhow::Result<Vec<String>> {
    let v = &r.values;
    if v.variant.from_file() && v.variants.from_file() {
        return Err(r.at(&v.variants, "give either `variant` or `variants`, not both"));
    }
    let (ids, origin) = match &v.variants.value {
        Some(ids) if !v.variant.flagged() => (ids.clone(), &v.variants.origin),
        _ => (v.variant.value.clone(), &v.variant.origin),
    };
    if r.sprt && ids.len() > 1 {
        return Err(r.src.at(
            origin,
            format!(
                "an SPRT plays one variant, got {} ({}); run one test per variant",
                ids.len(),
                ids.join(", ")
            ),
        ));
    }
    Ok(ids)
}

/// `time_control`, or in the file `move_ms`, or `base_ms` with an optional
/// `increment_ms`; mixing the forms is an error.
fn time_control(r: &Resolved) -> anyhow::Result<TimeControl> {
    let v = &r.values;
    let tc = v.time_control.value.expect("time_control has a default");
    let given_ms = [&v.move_ms, &v.base_ms]
        .into_iter()
        .map(|slot| &slot.origin)
        .chain([&v.increment_ms.origin])
        .find(|origin| origin.given());
    if v.time_control.flagged() {
        return Ok(tc);
    }
    match (v.time_control.given(), given_ms) {
        (true, Some(origin)) => Err(r.src.at(
            origin,
            "give either `time_control` or `move_ms` / `base_ms` + `increment_ms`, not both",
        )),
        (_, None) => Ok(tc),
        (false, Some(_)) => match (v.move_ms.value, v.base_ms.value) {
            (Some(move_ms), None) if !v.increment_ms.given() => Ok(TimeControl::PerMove { move_ms }),
            (Some(_), _) => Err(r.at(
                &v.move_ms,
                "`move_ms` (per-move limit) cannot be combined with `base_ms` / `increment_ms` (a clock)",
            )),
            (None, Some(base_ms)) => Ok(TimeControl::Clock {
                base_ms,
                increment_ms: v.increment_ms.value,
            }),
            (None, None) => Err(r.at(&v.increment_ms, "`increment_ms` needs `base_ms`")),
        },
    }
}

/// The gauntlet's seeds: `--gauntlet` flags make a gauntlet of them; the
/// file's `seeds` without a `format` make one too; a gauntlet without
/// seeds has the first bot as its seed (as cutechess-cli's). A round robin
/// and an SPRT have none.
fn seeds(r: &Resolved) -> anyhow::Result<Vec<String>> {
    let v = &r.values;
    let given = v.seeds.value.clone().unwrap_or_default();
    let format = match v.format.value {
        _ if v.seeds.flagged() => "gauntlet",
        "round_robin" if !v.format.given() && !given.is_empty() => "gauntlet",
        _ if r.sprt => "sprt",
        word => word,
    };
    match format {
        "gauntlet" if given.is_empty() => Ok(r
            .bots
            .first()
            .map(|b| b.value.name.clone())
            .into_iter()
            .collect()),
        "gauntlet" => Ok(given),
        _ if !given.is_empty() => Err(r.at(
            &v.seeds,
            format!(
                "seeds are only for format = \"gauntlet\" (this is a {})",
                format.replace('_', " ")
            ),
        )),
        _ => Ok(Vec::new()),
    }
}

/// The suite named by `openings`, read and checked against the variant, with its order
/// and start; the order and start need a suite.
fn openings(r: &Resolved, variants: &[String]) -> anyhow::Result<Option<Box<OpeningSuite>>> {
    let v = &r.values;
    let Some(path) = &v.openings.value else {
        let order = &v.openings_order;
        let start = &v.openings_start;
        for origin in [&order.origin, &start.origin] {
            if origin.given() {
                return Err(r
                    .src
                    .at(origin, "needs an opening suite (`openings` / --openings)"));
            }
        }
        return Ok(None);
    };
    // A path from the file is already absolute (see `resolve`).
    let file = r.current_dir.join(path);
    let bytes = std::fs::read(&file).map_err(|e| {
        r.at(
            &v.openings,
            format!("cannot read opening suite {}: {e}", file.display()),
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        r.at(
            &v.openings,
            format!("opening suite {} is not UTF-8 text", file.display()),
        )
    })?;
    let order = match v.openings_order.value {
        "random" => OpeningOrder::Random,
        _ => OpeningOrder::Sequential,
    };
    // A suite with several variants is refused by check_config; the first
    // variant's rules read it meanwhile.
    let variant = Variant::by_id(&variants[0]).expect("variants are checked when read");
    let openings = parse_suite(variant, &file, &text)?;
    Ok(Some(Box::new(OpeningSuite {
        sha256: arena_files::sha256_hex(text.as_bytes()),
        file,
        order,
        start: v.openings_start.value,
        openings,
    })))
}

/// `--shard K/N` or the file's `shard`, which needs a fixed seed.
fn shard(r: &Resolved) -> anyhow::Result<Option<Shard>> {
    let v = &r.values;
    let Some(shard) = v.shard.value else {
        return Ok(None);
    };
    if !v.seed.given() {
        let message = format!(
            "shard {shard} needs a fixed seed (`seed` in the file or --seed), the same for every shard: with a random seed each shard would play another tournament"
        );
        return Err(r.at(&v.shard, message));
    }
    Ok(Some(shard))
}

/// `adjudicate = "solved"` with its budget; `adjudicate_ms` alone is a
/// mistake worth saying.
fn adjudication(r: &Resolved) -> anyhow::Result<Option<Adjudication>> {
    let v = &r.values;
    let on = v.adjudicate.value == "solved";
    if !on && v.adjudicate_ms.given() {
        return Err(r.at(
            &v.adjudicate_ms,
            "is the budget of `adjudicate = \"solved\"` (--adjudicate solved), which is off",
        ));
    }
    Ok(on.then_some(Adjudication {
        budget_ms: v.adjudicate_ms.value,
    }))
}

impl TournamentConfig {
    /// Checks a saved config (a `tournament.json` being resumed, whose
    /// values have no line to point at) by the rules a new one meets: every
    /// stored setting by its kind, then [`check_config`].
    pub fn validate(&self) -> anyhow::Result<()> {
        let json = serde_json::to_value(self).context("serializing the settings")?;
        for def in SETTINGS.iter().filter(|s| s.stored) {
            let Some(saved) = json.get(def.key) else {
                continue;
            };
            if let Some(Err(message)) = def.kind.read_json(saved) {
                return Err(anyhow!("field `{}`: {message}", def.key));
            }
        }
        check_config(self).map_err(|problem| match problem {
            Problem::Setting(setting, m) => anyhow!("field `{}`: {m}", setting.key),
            Problem::Bot(_, m) => anyhow!("field `bot`: {m}"),
            Problem::Run(m) => anyhow!(m),
        })
    }
}

/// The directory a tournament file's relative paths start from: its own,
/// made absolute so bots start in the right place when the run is resumed
/// from elsewhere.
pub fn file_base(path: &Path) -> PathBuf {
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let base = if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    };
    base.canonicalize().unwrap_or(base)
}

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
