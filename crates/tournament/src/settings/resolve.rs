//! Stage two of the settings: one value per setting from the flags
//! ([`Given`]), the tournament file and the defaults, by the one rule flag
//! beats file beats default, each read by its setting's kind with where it
//! came from ([`Origin`]); and the bots, from the file's `[[bot]]` entries,
//! the front end and `--bot` flags, read by the referee's one bot reader.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use serde::Deserialize;
use toml::Spanned;

use arena_referee::spec::{bots_in_toml, toml_error};
use arena_referee::BotSpec;

use super::defs::{setting, Command, Default, Setting, SETTINGS};
use super::kind::Value;
use crate::config::Defaults;

/// What the command line gave: setting values by key, as typed (a flag
/// given several times keeps each), and `--bot NAME=COMMAND` bots in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Given {
    values: BTreeMap<&'static str, Vec<String>>,
    bots: Vec<String>,
}

impl Given {
    pub fn new() -> Given {
        Given::default()
    }

    /// `key` as its flag gives it (once more, for a repeatable flag).
    /// Panics on a key no setting has: keys are written in the code.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let key = setting(key).key;
        self.values.entry(key).or_default().push(value.into());
    }

    /// [`Given::set`], chained.
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Given {
        self.set(key, value);
        self
    }

    /// A `--bot NAME=COMMAND` flag.
    pub fn add_bot(&mut self, flag: impl Into<String>) {
        self.bots.push(flag.into());
    }

    /// [`Given::add_bot`], chained.
    pub fn with_bot(mut self, flag: impl Into<String>) -> Given {
        self.add_bot(flag);
        self
    }

    /// The values given for `key`.
    pub fn get(&self, key: &str) -> Option<&[String]> {
        self.values.get(key).map(Vec::as_slice)
    }

    pub fn bots(&self) -> &[String] {
        &self.bots
    }

    /// The keys given, in key order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.values.keys().copied()
    }
}

/// Where a value came from, so that the rule that rejects it can point there.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A command-line flag as the user wrote it: `--games`, `--bot "a=x"`.
    Flag(String),
    /// A field of the tournament file, at `span` of its text.
    File { field: String, span: Range<usize> },
    /// A default, a value a front end supplied, or a saved `tournament.json`.
    Unlocated { field: String },
}

/// The file being read, to locate errors in.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

impl Source<'_> {
    /// `message` about a value, prefixed with where the value came from:
    /// `FILE:LINE:COL: field `F`: `, `--flag: ` or `field `F`: `.
    pub fn at(&self, origin: &Origin, message: impl std::fmt::Display) -> anyhow::Error {
        match origin {
            Origin::Flag(flag) => anyhow!("{flag}: {message}"),
            Origin::File { field, span } => {
                let (line, col) = arena_files::line_col(self.text, span.start);
                anyhow!(
                    "{}:{line}:{col}: field `{field}`: {message}",
                    self.path.display()
                )
            }
            Origin::Unlocated { field } => anyhow!("field `{field}`: {message}"),
        }
    }
}

/// A resolved value and its origin.
#[derive(Debug, Clone)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

/// Every setting after resolution, not yet judged together.
#[derive(Debug)]
pub struct Resolved<'a> {
    pub src: Source<'a>,
    pub command: Command,
    /// The run is an SPRT (`arena sprt`, or `format = "sprt"` in the file).
    pub sprt: bool,
    values: BTreeMap<&'static str, Sourced<Value>>,
    /// File bots (directories resolved), then the front end's and the
    /// `--bot` ones, each replacing a bot of the same name.
    pub bots: Vec<Sourced<BotSpec>>,
    /// The tournament file's directory: relative paths in it start there.
    pub base: PathBuf,
    /// Where relative paths given on the command line start.
    pub current_dir: PathBuf,
}

impl Resolved<'_> {
    /// The value of `key`, if it has one (given, or a default).
    pub fn get(&self, key: &str) -> Option<&Sourced<Value>> {
        self.values.get(key)
    }

    /// Whether a flag or the file gave `key` (not a default).
    pub fn given(&self, key: &str) -> bool {
        self.get(key)
            .is_some_and(|v| !matches!(v.origin, Origin::Unlocated { .. }))
    }

    /// Where `key`'s value came from (its definition's default when none).
    pub fn origin(&self, key: &str) -> Origin {
        self.get(key).map_or_else(
            || Origin::Unlocated {
                field: setting(key).key.to_string(),
            },
            |v| v.origin.clone(),
        )
    }

    /// `message` about `key`, located where its value came from.
    pub fn error(&self, key: &str, message: impl std::fmt::Display) -> anyhow::Error {
        self.src.at(&self.origin(key), message)
    }

    /// `key`'s whole number; settings with a default always have one.
    pub fn whole(&self, key: &str) -> u64 {
        match self.get(key).map(|v| &v.value) {
            Some(Value::Whole(n)) => *n,
            other => panic!("setting {key} is no whole number: {other:?}"),
        }
    }

    /// `key`'s switch; off when it has no value.
    pub fn switch(&self, key: &str) -> bool {
        matches!(self.get(key).map(|v| &v.value), Some(Value::Switch(true)))
    }

    /// `key`'s number, if it has one.
    pub fn decimal(&self, key: &str) -> Option<f64> {
        match self.get(key).map(|v| &v.value) {
            Some(Value::Decimal(x)) => Some(*x),
            _ => None,
        }
    }

    /// `key`'s word (a choice), if it has one.
    pub fn word(&self, key: &str) -> Option<&'static str> {
        match self.get(key).map(|v| &v.value) {
            Some(Value::Word(w)) => Some(w),
            _ => None,
        }
    }

    /// `key`'s list (variants, names), if it has one.
    pub fn list(&self, key: &str) -> Option<&[String]> {
        match self.get(key).map(|v| &v.value) {
            Some(Value::List(items)) => Some(items),
            _ => None,
        }
    }

    /// `key`'s path, if it has one.
    pub fn path(&self, key: &str) -> Option<&Path> {
        match self.get(key).map(|v| &v.value) {
            Some(Value::Path(p)) => Some(p),
            _ => None,
        }
    }
}

/// The tournament file as written: `[tournament]` values with their spans
/// (read by the settings' kinds) and the `[[bot]]` entries.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    tournament: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    bot: Vec<Spanned<toml::Value>>,
}

/// Where the settings come from, besides the flags.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    pub command: Command,
    /// The tournament file (`None`: flags only).
    pub file: Option<Source<'a>>,
    /// The file's directory, absolute.
    pub base: &'a Path,
    pub defaults: &'a Defaults,
}

/// Stage two: every setting's value and every bot, located. Fails on what
/// cannot be read at all: the file's syntax, an unknown key, a value its
/// kind refuses, a bot entry.
pub fn resolve<'a>(
    inputs: Inputs<'a>,
    given: &Given,
    front_end_bots: Vec<BotSpec>,
) -> anyhow::Result<Resolved<'a>> {
    let src = inputs.file.unwrap_or(Source {
        path: Path::new("<command line>"),
        text: "",
    });
    let raw: RawFile = toml::from_str(src.text).map_err(|e| toml_error(src.path, src.text, &e))?;
    refuse_unknown_keys(&raw, &src)?;
    let sprt = inputs.command == Command::Sprt
        || raw
            .tournament
            .get("format")
            .is_some_and(|f| f.get_ref().as_str() == Some("sprt"));
    let mut values = BTreeMap::new();
    for def in SETTINGS {
        if let Some(value) = resolve_one(def, &inputs, given, &raw, &src, sprt)? {
            values.insert(def.key, value);
        }
    }
    let mut resolved = Resolved {
        src,
        command: inputs.command,
        sprt,
        values,
        bots: Vec::new(),
        base: inputs.base.to_path_buf(),
        current_dir: inputs.defaults.current_dir.clone(),
    };
    resolved.bots = resolve_bots(&resolved, raw.bot, given, front_end_bots)?;
    Ok(resolved)
}

/// `key`'s value for `command` from the flags alone (its flag, else its
/// default), for commands that take a few settings without making a run
/// (`arena play`); `None` for a setting with no default.
pub fn flag_value(
    command: Command,
    given: &Given,
    key: &str,
    defaults: &Defaults,
) -> anyhow::Result<Option<Value>> {
    let inputs = Inputs {
        command,
        file: None,
        base: &defaults.current_dir,
        defaults,
    };
    let src = Source {
        path: Path::new("<command line>"),
        text: "",
    };
    let value = resolve_one(
        setting(key),
        &inputs,
        given,
        &RawFile::default(),
        &src,
        false,
    )?;
    Ok(value.map(|v| v.value))
}

/// One setting's value: its flag, else the file's, else its default.
fn resolve_one(
    def: &Setting,
    inputs: &Inputs,
    given: &Given,
    raw: &RawFile,
    src: &Source,
    sprt: bool,
) -> anyhow::Result<Option<Sourced<Value>>> {
    if let (true, Some(texts)) = (def.commands.contains(&inputs.command), given.get(def.key)) {
        let origin = Origin::Flag(def.flag_text().unwrap_or_else(|| def.key.into()));
        let value = def.kind.read_texts(texts).map_err(|m| src.at(&origin, m))?;
        return Ok(Some(Sourced { value, origin }));
    }
    if let Some(spanned) = raw.tournament.get(def.key) {
        let origin = Origin::File {
            field: def.key.to_string(),
            span: spanned.span(),
        };
        let value = def
            .kind
            .read_toml(spanned.get_ref())
            .map_err(|m| src.at(&origin, m))?;
        // Everything in a file is relative to the file; on the command
        // line, to the current directory (where the process runs).
        let value = match value {
            Value::Path(path) => Value::Path(inputs.base.join(path)),
            other => other,
        };
        return Ok(Some(Sourced { value, origin }));
    }
    let origin = Origin::Unlocated {
        field: def.key.to_string(),
    };
    let value = match (def.default, def.sprt_default) {
        (_, Some(text)) if sprt => def.kind.read_text(text),
        (Default::Value(text), _) => def.kind.read_text(text),
        (Default::Machine(_), _) => Ok(machine_default(def.key, inputs.defaults)),
        (Default::Unset(_), _) => return Ok(None),
    };
    let value = value.map_err(|m| src.at(&origin, format!("default: {m}")))?;
    Ok(Some(Sourced { value, origin }))
}

/// The value of a setting whose default depends on the machine or the moment.
fn machine_default(key: &str, defaults: &Defaults) -> Value {
    match key {
        "concurrency" => Value::Whole(defaults.concurrency.max(1) as u64),
        "seed" => Value::Whole(defaults.seed),
        "out" => Value::Path(defaults.out.clone()),
        other => panic!("setting {other} has no machine default"),
    }
}

/// `Err` for the first `[tournament]` key (in file order) that no setting
/// has, with the nearest key when one is close.
fn refuse_unknown_keys(raw: &RawFile, src: &Source) -> anyhow::Result<()> {
    let unknown = raw
        .tournament
        .keys()
        .filter(|key| !SETTINGS.iter().any(|s| s.in_file && s.key == key.get_ref()))
        .min_by_key(|key| key.span().start);
    let Some(key) = unknown else { return Ok(()) };
    let name = key.get_ref();
    let hint = match nearest_key(name) {
        Some(near) => format!("; did you mean `{near}`?"),
        None => String::new(),
    };
    let (line, col) = arena_files::line_col(src.text, key.span().start);
    Err(anyhow!(
        "{}:{line}:{col}: `{name}` is not a setting of [tournament]{hint} (docs/SETTINGS.md lists them all)",
        src.path.display()
    ))
}

/// The file key closest to `name` by edit distance, when it is close.
fn nearest_key(name: &str) -> Option<&'static str> {
    SETTINGS
        .iter()
        .filter(|s| s.in_file)
        .map(|s| (edit_distance(name, s.key), s.key))
        .filter(|&(d, key)| d <= 2.max(key.len() / 4))
        .min()
        .map(|(_, key)| key)
}

/// Levenshtein distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The run's bots: the file's, then the front end's, then `--bot`'s, each
/// replacing one of the same name; the sandbox setting resolved into each.
fn resolve_bots(
    r: &Resolved,
    entries: Vec<Spanned<toml::Value>>,
    given: &Given,
    front_end: Vec<BotSpec>,
) -> anyhow::Result<Vec<Sourced<BotSpec>>> {
    let file_bots = bots_in_toml(entries, &r.base).map_err(|(span, message)| {
        r.src.at(
            &Origin::File {
                field: "bot".into(),
                span,
            },
            message,
        )
    })?;
    let mut bots: Vec<Sourced<BotSpec>> = file_bots
        .into_iter()
        .map(|(value, span)| Sourced {
            value,
            origin: Origin::File {
                field: "bot".into(),
                span,
            },
        })
        .collect();
    let unlocated = front_end.into_iter().map(|value| {
        Ok(Sourced {
            value,
            origin: Origin::Unlocated {
                field: "bot".into(),
            },
        })
    });
    let flagged = given.bots().iter().map(|flag| {
        let origin = Origin::Flag(format!("--bot {flag:?}"));
        BotSpec::from_flag(flag)
            .map(|value| Sourced {
                value,
                origin: origin.clone(),
            })
            .map_err(|m| r.src.at(&origin, m))
    });
    for bot in unlocated.chain(flagged) {
        let mut bot: Sourced<BotSpec> = bot?;
        bot.value.resolve_relative_to(&r.current_dir);
        match bots.iter_mut().find(|b| b.value.name == bot.value.name) {
            Some(existing) => *existing = bot,
            None => bots.push(bot),
        }
    }
    // The sandbox is resolved into each bot, so it is recorded with it: the
    // flag puts every bot in it, the file's value is the default of bots
    // without their own.
    let sandbox = r.get("sandbox");
    let everyone = sandbox.is_some_and(|s| matches!(s.origin, Origin::Flag(_)));
    let default = sandbox.is_some_and(|s| s.value == Value::Switch(true));
    for bot in &mut bots {
        if default && (everyone || bot.value.sandbox.is_none()) {
            bot.value.sandbox = Some(true);
        }
    }
    Ok(bots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_get_a_suggestion() {
        assert_eq!(nearest_key("games_per_paring"), Some("games_per_pairing"));
        assert_eq!(nearest_key("concurency"), Some("concurrency"));
        assert_eq!(nearest_key("colour"), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
