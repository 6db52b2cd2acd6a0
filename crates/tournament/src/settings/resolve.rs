//! Stage two of the settings: one value per setting from the flags
//! ([`Given`]), the tournament file and the defaults, by the one rule flag
//! beats file beats default, each read by its setting's kind with where it
//! came from ([`Origin`]); and the bots, from the file's `[[bot]]` entries,
//! the front end and `--bot` flags, read by the referee's one bot reader.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use serde::Deserialize;
use toml::Spanned;

use arena_referee::spec::{bots_in_toml, toml_error, BotEntry};
use arena_referee::BotSpec;

use super::defs::{by_key, Command, Default, Setting, FORMAT, SETTINGS};
use super::kind::Value;
use super::values::{Defaults, Origin, SettingValues, Slot};

/// What the command line gave: setting values by setting, as typed (a
/// flag given several times keeps each), and `--bot NAME=COMMAND` bots in
/// order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Given {
    values: BTreeMap<&'static str, (&'static Setting, Vec<String>)>,
    bots: Vec<String>,
}

impl Given {
    pub fn new() -> Given {
        Given::default()
    }

    /// `setting` as its flag gives it (once more, for a repeatable flag).
    pub fn set(&mut self, setting: &'static Setting, value: impl Into<String>) {
        let entry = self
            .values
            .entry(setting.key)
            .or_insert((setting, Vec::new()));
        entry.1.push(value.into());
    }

    /// [`Given::set`], chained.
    pub fn with(mut self, setting: &'static Setting, value: impl Into<String>) -> Given {
        self.set(setting, value);
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

    /// The values given for `setting`.
    pub fn get(&self, setting: &Setting) -> Option<&[String]> {
        self.values
            .get(setting.key)
            .map(|(_, texts)| texts.as_slice())
    }

    pub fn bots(&self) -> &[String] {
        &self.bots
    }

    /// The settings given, in key order, with their values.
    pub fn settings(&self) -> impl Iterator<Item = (&'static Setting, &[String])> + '_ {
        self.values
            .values()
            .map(|(setting, texts)| (*setting, texts.as_slice()))
    }
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
    /// Every setting's value, by field.
    pub values: SettingValues,
    /// File bots (directories resolved), then the front end's and the
    /// `--bot` ones, each replacing a bot of the same name.
    pub bots: Vec<Sourced<BotSpec>>,
    /// The tournament file's directory: relative paths in it start there.
    pub base: PathBuf,
    /// Where relative paths given on the command line start.
    pub current_dir: PathBuf,
}

impl Resolved<'_> {
    /// `message` about the value of `slot`, located where it came from.
    pub fn at<T>(&self, slot: &Slot<T>, message: impl std::fmt::Display) -> anyhow::Error {
        self.src.at(&slot.origin, message)
    }

    /// `message` about `setting`'s value, located where it came from.
    pub fn at_setting(&self, setting: &Setting, message: impl std::fmt::Display) -> anyhow::Error {
        self.src
            .at((setting.place.get)(&self.values).origin(), message)
    }

    /// The first of `settings` a flag or the file gave.
    pub fn first_given(&self, settings: &[&'static Setting]) -> Option<&'static Setting> {
        settings
            .iter()
            .copied()
            .find(|s| (s.place.get)(&self.values).origin().given())
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
    bot: Vec<BotEntry>,
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

impl<'a> Inputs<'a> {
    /// Flags alone, no tournament file: relative paths start at the
    /// current directory.
    pub fn flags_only(command: Command, defaults: &'a Defaults) -> Inputs<'a> {
        Inputs {
            command,
            file: None,
            base: &defaults.current_dir,
            defaults,
        }
    }
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
            .get(FORMAT.key)
            .is_some_and(|f| f.get_ref().as_str() == Some("sprt"));
    let values = resolve_values(&inputs, given, &raw, &src, sprt)?;
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

/// Every setting's value for `command` from the flags alone (each flag,
/// else its default), for commands that take a few settings without
/// making a run (`arena play`).
pub fn flag_values(
    command: Command,
    given: &Given,
    defaults: &Defaults,
) -> anyhow::Result<SettingValues> {
    let inputs = Inputs::flags_only(command, defaults);
    let src = Source {
        path: Path::new("<command line>"),
        text: "",
    };
    resolve_values(&inputs, given, &RawFile::default(), &src, false)
}

/// Each setting's value, written into its slot by its definition.
fn resolve_values(
    inputs: &Inputs,
    given: &Given,
    raw: &RawFile,
    src: &Source,
    sprt: bool,
) -> anyhow::Result<SettingValues> {
    let mut values = SettingValues::default();
    for def in SETTINGS {
        let slot = (def.place.get_mut)(&mut values);
        match resolve_one(def, inputs, given, raw, src, sprt)? {
            Ok(Sourced { value, origin }) => slot.put(value, origin),
            Err(origin) => slot.locate(origin),
        }
    }
    Ok(values)
}

/// One setting's value: its flag, else the file's, else its default; `Err`
/// with its origin when it has none.
fn resolve_one(
    def: &Setting,
    inputs: &Inputs,
    given: &Given,
    raw: &RawFile,
    src: &Source,
    sprt: bool,
) -> anyhow::Result<Result<Sourced<Value>, Origin>> {
    if let (true, Some(texts)) = (def.commands.contains(&inputs.command), given.get(def)) {
        let origin = Origin::Flag(def.flag_text().unwrap_or_else(|| def.key.into()));
        let value = def.kind.read_texts(texts).map_err(|m| src.at(&origin, m))?;
        return Ok(Ok(Sourced { value, origin }));
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
        return Ok(Ok(Sourced { value, origin }));
    }
    let origin = Origin::Unlocated {
        field: def.key.to_string(),
    };
    let value = match (def.default, def.sprt_default) {
        (_, Some(text)) if sprt => def.kind.read_text(text),
        (Default::Value(text), _) => def.kind.read_text(text),
        (Default::Whole(n), _) => def.kind.whole(i128::from(n)),
        (Default::Machine(_, value), _) => Ok(value(inputs.defaults)),
        (Default::Unset(_), _) => return Ok(Err(origin)),
    };
    let value = value.map_err(|m| src.at(&origin, format!("default: {m}")))?;
    Ok(Ok(Sourced { value, origin }))
}

/// `Err` for the first `[tournament]` key (in file order) that no setting
/// has, with the nearest key when one is close.
fn refuse_unknown_keys(raw: &RawFile, src: &Source) -> anyhow::Result<()> {
    let unknown = raw
        .tournament
        .keys()
        .filter(|key| !by_key(key.get_ref()).is_some_and(|s| s.in_file))
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

/// The file key closest to `name`, when it is close.
fn nearest_key(name: &str) -> Option<&'static str> {
    arena_files::nearest(name, SETTINGS.iter().filter(|s| s.in_file).map(|s| s.key))
}

/// The run's bots: the file's, then the front end's, then `--bot`'s, each
/// replacing one of the same name; the sandbox setting resolved into each.
fn resolve_bots(
    r: &Resolved,
    entries: Vec<BotEntry>,
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
    let sandbox = &r.values.sandbox;
    let (everyone, default) = (sandbox.flagged(), sandbox.value);
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
    }
}
