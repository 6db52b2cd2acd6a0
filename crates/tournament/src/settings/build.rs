//! Stage three of the settings: the resolved values judged together and
//! assembled into a [`Run`] (the [`TournamentConfig`] and, for an SPRT, its
//! plan). The rules that tie settings together are written once against
//! the assembled config ([`check_config`]), so a saved `tournament.json`
//! meets them on `--resume` too ([`TournamentConfig::validate`]); an error
//! names where the rejected value came from.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context};

use arena_referee::adjudicate::Adjudication;
use arena_referee::program_problem;
use arena_rules::games::Variant;
use arena_rules::protocol::{ClockBasis, TimeControl};
use arena_stats::{EloModel, MAX_BOTS};

use super::defs::{setting, SETTINGS};
use super::kind::Value;
use super::resolve::{Origin, Resolved};
use crate::config::TournamentConfig;
use crate::openings::{parse_suite, suite_line, OpeningOrder, OpeningSuite};
use crate::shard::Shard;
use crate::{AdaptivePlan, KnockoutPlan, SprtPlan, SwissPlan};

/// A run's settings: the config, and the SPRT's, Swiss's or knockout's
/// plan when it is one.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub config: TournamentConfig,
    pub sprt: Option<SprtPlan>,
    pub swiss: Option<SwissPlan>,
    pub knockout: Option<KnockoutPlan>,
    /// An adaptive ranking's plan (`format = "adaptive"`).
    pub adaptive: Option<AdaptivePlan>,
}

/// What a rule found wrong, and with what: a setting, a bot (its index),
/// or the run as a whole.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    Setting(&'static str, String),
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

/// Stage three: the [`Run`] of `r`, or the first rule it breaks, located.
pub fn build(r: Resolved, programs: Programs) -> anyhow::Result<Run> {
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
            r.whole("games_per_pairing") as u32
        },
        time_control,
        concurrency: r.whole("concurrency") as usize,
        seed: r.whole("seed"),
        out: r.path("out").map(Path::to_path_buf).unwrap_or_default(),
        // A suite replaces the random openings, so their default (2 in an
        // SPRT) does not apply; given with a suite, they are refused.
        opening_plies: match openings {
            Some(_) if !r.given("opening_plies") => 0,
            _ => r.whole("opening_plies") as u32,
        },
        grace_ms: r.whole("grace_ms"),
        clock: r
            .word("clock")
            .and_then(ClockBasis::from_word)
            .unwrap_or_default(),
        wall_cap: r.whole("wall_cap") as u32,
        sync_interval_ms: r.whole("sync_interval_ms"),
        startup_failures: r.whole("startup_failures") as u32,
        bots: r.bots.iter().map(|b| b.value.clone()).collect(),
        openings,
        shard,
        seeds,
        rating_interval: r.whole("rating_interval"),
        suspend_idle: r.switch("suspend_idle"),
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
    let sprt = sprt_plan(&r, &config)?;
    let (swiss, knockout) = paired_plans(&r, &config)?;
    let adaptive = adaptive_plan(&r)?;
    Ok(Run {
        config,
        sprt,
        swiss,
        knockout,
        adaptive,
    })
}

/// Where `problem`'s value came from, and what is wrong.
fn locate(r: &Resolved, problem: Problem) -> anyhow::Error {
    match problem {
        Problem::Setting(key, message) => r.error(key, message),
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
    let problem = |m: String| Problem::Setting("seeds", m);
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
            "opening_plies",
            "random opening plies and an opening suite (`openings`) exclude each other; give one"
                .into(),
        ));
    }
    let ids = c.variant_ids();
    if ids.len() > 1 {
        return Err(Problem::Setting(
            "openings",
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
        .map_err(|e| Problem::Setting("openings", format!("{e:#}")))
}

/// The variants from `--variant`, else the file's `variant` or `variants`
/// (not both), else the default.
fn variants(r: &Resolved) -> anyhow::Result<Vec<String>> {
    if r.given("variant") && r.given("variants") {
        let from_file = |key| matches!(r.origin(key), Origin::File { .. });
        if from_file("variant") && from_file("variants") {
            return Err(r.error("variants", "give either `variant` or `variants`, not both"));
        }
    }
    let key = if r.given("variants") && !matches!(r.origin("variant"), Origin::Flag(_)) {
        "variants"
    } else {
        "variant"
    };
    let ids = r.list(key).expect("variant has a default").to_vec();
    if r.sprt && ids.len() > 1 {
        return Err(r.error(
            key,
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
    let tc = r.get("time_control").expect("time_control has a default");
    let ms_forms = ["move_ms", "base_ms", "increment_ms"];
    let given_ms = ms_forms.iter().find(|&&key| r.given(key));
    if matches!(tc.origin, Origin::Flag(_)) {
        return Ok(time_control_of(&tc.value));
    }
    match (r.given("time_control"), given_ms) {
        (true, Some(&key)) => Err(r.error(
            key,
            "give either `time_control` or `move_ms` / `base_ms` + `increment_ms`, not both",
        )),
        (_, None) => Ok(time_control_of(&tc.value)),
        (false, Some(_)) => match (r.given("move_ms"), r.given("base_ms")) {
            (true, false) if !r.given("increment_ms") => Ok(TimeControl::PerMove {
                move_ms: r.whole("move_ms"),
            }),
            (true, _) => Err(r.error(
                "move_ms",
                "`move_ms` (per-move limit) cannot be combined with `base_ms` / `increment_ms` (a clock)",
            )),
            (false, true) => Ok(TimeControl::Clock {
                base_ms: r.whole("base_ms"),
                increment_ms: r.whole("increment_ms"),
            }),
            (false, false) => Err(r.error("increment_ms", "`increment_ms` needs `base_ms`")),
        },
    }
}

fn time_control_of(value: &Value) -> TimeControl {
    match value {
        Value::TimeControl(tc) => *tc,
        other => panic!("time_control read as {other:?}"),
    }
}

/// The gauntlet's seeds: `--gauntlet` flags make a gauntlet of them; the
/// file's `seeds` without a `format` make one too; a gauntlet without
/// seeds has the first bot as its seed (as cutechess-cli's). A round robin
/// and an SPRT have none.
fn seeds(r: &Resolved) -> anyhow::Result<Vec<String>> {
    let given = r.list("seeds").unwrap_or_default().to_vec();
    let flagged = matches!(r.origin("seeds"), Origin::Flag(_));
    let format = match r.word("format") {
        _ if flagged => "gauntlet",
        Some("round_robin") if !r.given("format") && !given.is_empty() => "gauntlet",
        _ if r.sprt => "sprt",
        Some(word) => word,
        None => "round_robin",
    };
    match format {
        "gauntlet" if given.is_empty() => Ok(r
            .bots
            .first()
            .map(|b| b.value.name.clone())
            .into_iter()
            .collect()),
        "gauntlet" => Ok(given),
        _ if !given.is_empty() => Err(r.error(
            "seeds",
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
    let Some(path) = r.path("openings") else {
        for key in ["openings_order", "openings_start"] {
            if r.given(key) {
                return Err(r.error(key, "needs an opening suite (`openings` / --openings)"));
            }
        }
        return Ok(None);
    };
    // A path from the file is already absolute (see `resolve`).
    let file = r.current_dir.join(path);
    let bytes = std::fs::read(&file).map_err(|e| {
        r.error(
            "openings",
            format!("cannot read opening suite {}: {e}", file.display()),
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        r.error(
            "openings",
            format!("opening suite {} is not UTF-8 text", file.display()),
        )
    })?;
    let order = match r.word("openings_order") {
        Some("random") => OpeningOrder::Random,
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
        start: r.whole("openings_start"),
        openings,
    })))
}

/// `--shard K/N` or the file's `shard`, which needs a fixed seed.
fn shard(r: &Resolved) -> anyhow::Result<Option<Shard>> {
    let shard = match r.get("shard").map(|v| &v.value) {
        Some(Value::Shard(shard)) => *shard,
        _ => return Ok(None),
    };
    if !r.given("seed") {
        let message = format!(
            "shard {shard} needs a fixed seed (`seed` in the file or --seed), the same for every shard: with a random seed each shard would play another tournament"
        );
        return Err(r.error("shard", message));
    }
    Ok(Some(shard))
}

/// The SPRT's plan when the run is one: two bots, `elo0` and `elo1` given
/// and acceptable to the test; a run that is not an SPRT takes none of its
/// settings.
fn sprt_plan(r: &Resolved, config: &TournamentConfig) -> anyhow::Result<Option<SprtPlan>> {
    const SPRT_KEYS: [&str; 6] = ["elo0", "elo1", "model", "alpha", "beta", "max_pairs"];
    if !r.sprt {
        if let Some(key) = SPRT_KEYS.iter().find(|&&key| r.given(key)) {
            return Err(r.error(key, "is a setting of an SPRT (format = \"sprt\")"));
        }
        return Ok(None);
    }
    if r.given("games_per_pairing") {
        return Err(r.error(
            "games_per_pairing",
            "an SPRT plays game pairs until it decides; give `max_pairs` to limit it",
        ));
    }
    if config.bots.len() != 2 {
        return Err(anyhow!(
            "{}: an SPRT is between exactly two bots, got {}",
            r.src.path.display(),
            config.bots.len()
        ));
    }
    let (Some(elo0), Some(elo1)) = (r.decimal("elo0"), r.decimal("elo1")) else {
        let missing = if r.decimal("elo0").is_none() {
            "elo0"
        } else {
            "elo1"
        };
        return Err(r.error(missing, "an SPRT needs its bounds: give elo0 and elo1"));
    };
    let plan = SprtPlan {
        elo0,
        elo1,
        alpha: r.decimal("alpha").expect("alpha has a default"),
        beta: r.decimal("beta").expect("beta has a default"),
        max_pairs: r.get("max_pairs").map(|_| r.whole("max_pairs")),
        model: match r.word("model") {
            Some("logistic") => EloModel::Logistic,
            _ => EloModel::Normalized,
        },
    };
    plan.sprt().map_err(|e| r.error("elo1", format!("{e:#}")))?;
    Ok(Some(plan))
}

/// `adjudicate = "solved"` with its budget; `adjudicate_ms` alone is a
/// mistake worth saying.
fn adjudication(r: &Resolved) -> anyhow::Result<Option<Adjudication>> {
    let on = r.word("adjudicate") == Some("solved");
    if !on && r.given("adjudicate_ms") {
        return Err(r.error(
            "adjudicate_ms",
            "is the budget of `adjudicate = \"solved\"` (--adjudicate solved), which is off",
        ));
    }
    Ok(on.then(|| Adjudication {
        budget_ms: r.whole("adjudicate_ms"),
    }))
}

/// The Swiss's or the knockout's plan when the run is one; `rounds` and
/// `tiebreak_pairs` belong to them alone, and neither is sharded (each
/// round depends on the results before it). An SPRT is made by the file's
/// `format = "sprt"` or `arena sprt`, not by `--format`.
fn paired_plans(
    r: &Resolved,
    config: &TournamentConfig,
) -> anyhow::Result<(Option<SwissPlan>, Option<KnockoutPlan>)> {
    let format = r.word("format").unwrap_or("round_robin");
    if r.command == super::Command::Tournament && (format == "sprt") != r.sprt {
        return Err(r.error(
            "format",
            "an SPRT is `format = \"sprt\"` in the tournament file (with elo0 and elo1), or `arena sprt BOT_A BOT_B --elo0 E0 --elo1 E1`; --format cannot make or unmake one",
        ));
    }
    for (key, owner) in [("rounds", "swiss"), ("tiebreak_pairs", "knockout")] {
        if format != owner && r.given(key) {
            return Err(r.error(
                key,
                format!(
                    "is a setting of a {owner} (format = \"{owner}\"), not of a {}",
                    format.replace('_', " ")
                ),
            ));
        }
    }
    if !matches!(format, "swiss" | "knockout") {
        return Ok((None, None));
    }
    if config.shard.is_some() {
        return Err(r.error(
            "shard",
            format!("a {format} cannot be sharded: each round is paired from the results before it, so one run plays it whole (leave out shard)"),
        ));
    }
    if format == "knockout" {
        let tiebreak_pairs = r.whole("tiebreak_pairs") as u32;
        return Ok((None, Some(KnockoutPlan { tiebreak_pairs })));
    }
    if !r.given("rounds") {
        return Err(r.error(
            "format",
            "a swiss needs its number of rounds: give `rounds = N` (--rounds N)",
        ));
    }
    let rounds = r.whole("rounds") as u32;
    Ok((Some(SwissPlan { rounds }), None))
}

/// The adaptive ranking's plan when the run is one (`format =
/// "adaptive"`): `max_games` given, `confidence` in range, no games per
/// pairing and no shard; a run that is not one takes neither setting.
fn adaptive_plan(r: &Resolved) -> anyhow::Result<Option<AdaptivePlan>> {
    if r.sprt || r.word("format") != Some("adaptive") {
        for key in ["max_games", "confidence"] {
            if r.given(key) {
                return Err(r.error(
                    key,
                    "is a setting of an adaptive ranking (format = \"adaptive\")",
                ));
            }
        }
        return Ok(None);
    }
    if r.given("games_per_pairing") {
        return Err(r.error(
            "games_per_pairing",
            "an adaptive ranking chooses its game pairs from the results; give `max_games` to limit it",
        ));
    }
    if r.given("shard") {
        return Err(r.error(
            "shard",
            "an adaptive ranking cannot be sharded: each round is chosen from all the games before it",
        ));
    }
    if !r.given("max_games") {
        return Err(r.error(
            "max_games",
            "an adaptive ranking needs `max_games` (two bots of equal strength are never separated), e.g. max_games = 2000",
        ));
    }
    let plan = AdaptivePlan {
        confidence: r.decimal("confidence").expect("confidence has a default"),
        max_games: r.whole("max_games"),
    };
    plan.check()
        .map_err(|e| r.error("confidence", format!("{e:#}")))?;
    Ok(Some(plan))
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
            Problem::Setting(key, m) => anyhow!("field `{}`: {m}", setting(key).key),
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
