//! How to start a bot: [`BotSpec`], and the one reader and checker of bot
//! specifications behind every command. A bot comes from a `[[bot]]` entry
//! of a tournament file or a bots file ([`bots_in_toml`]), from
//! `--bot NAME=COMMAND` ([`BotSpec::from_flag`]), or from a player argument
//! of `arena play` / `arena sprt` ([`resolve_player`]); whatever the source,
//! [`BotSpec::check`] applies the same rules (name, command, environment,
//! limits, own time control), and [`crate::program::program_problem`] says
//! before any game whether its program can start.
//!
//! ```toml
//! [[bot]]
//! name = "greedy"
//! command = ["python3", "bots/greedy.py"]   # argv, run without a shell
//! cwd = "."                                  # optional
//! env = { PYTHONUNBUFFERED = "1" }           # optional, added to the environment
//! limits = { memory_mb = 512, cpu_seconds = 600, startup_ms = 5000 }  # all optional
//! sandbox = true                             # optional: run it inside bubblewrap
//! writable = ["data/"]                       # optional: writable in the sandbox
//! network = false                            # optional: network in the sandbox
//! time_control = "5+0.05"                    # optional: this bot's own time (time odds)
//! ```
//!
//! `command` may also be one string, split like a shell would split it
//! (quotes supported). With `shell = true` the command runs as `sh -c LINE`,
//! for commands that need pipes, globs or variables: a string is passed to
//! the shell untouched, a list is joined with spaces.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use std::ops::Range;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use super::clock::{format_time_control, parse_time_control};
use super::command_line::split_command_line;
use arena_rules::protocol::{TimeControl, MAX_TIME_MS};

/// Startup/handshake limit used when a bot does not set `startup_ms`.
pub const DEFAULT_STARTUP_MS: u64 = 5_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawBotSpec")]
pub struct BotSpec {
    /// Name used in tables, logs and the `opponent` field sent to bots.
    pub name: String,
    /// Program and arguments (argv); with `shell`, the words of a shell
    /// command line (usually just one: the whole line).
    pub command: Vec<String>,
    /// Run `command` (joined with spaces) through `sh -c`. Off by default:
    /// bots are started directly so no shell sits between referee and bot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shell: bool,
    /// Working directory of the bot; the referee's own when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    /// Extra environment variables, added to the referee's environment.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    #[serde(default)]
    pub limits: BotLimits,
    /// Run the bot inside the sandbox ([`super::sandbox`]); `None` follows
    /// the tournament's setting (off unless `sandbox = true` or `--sandbox`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<bool>,
    /// Paths (relative to `cwd`) the bot may write inside the sandbox; the
    /// rest of its directory is read-only there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writable: Vec<PathBuf>,
    /// Network access inside the sandbox (off by default).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub network: bool,
    /// Write a wire trace (every line both ways) per game next to the
    /// bot's stderr log ([`super::trace`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trace: bool,
    /// This bot's own time control (time odds), in the command-line
    /// spelling (`5+0.05`, `per-move=200`); `None` plays the tournament's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "time_control_text"
    )]
    pub time_control: Option<TimeControl>,
}

/// Writes a bot's time control as the text [`RawBotSpec`] reads back.
fn time_control_text<S: serde::Serializer>(
    tc: &Option<TimeControl>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match tc {
        Some(tc) => s.serialize_str(&format_time_control(tc)),
        None => s.serialize_none(),
    }
}

/// Resource limits for one bot process. Absent = unlimited (startup: 5 s).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotLimits {
    /// Address-space limit (`RLIMIT_AS`) in MiB, for each process of the
    /// bot on its own. Note this counts virtual
    /// memory: runtimes that reserve large address ranges up front (JVM,
    /// Node/V8, Go) need a generous value or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_mb: Option<u64>,
    /// CPU-time limit in seconds for the whole process lifetime (all games
    /// it plays), not per move: `RLIMIT_CPU` for each process on its own,
    /// and the sum over the bot's process tree, checked after each move
    /// ([`super::limits::tree_cpu_time`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<u64>,
    /// Time from starting the process to its `ready` answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_ms: Option<u64>,
}

impl BotLimits {
    pub fn startup(&self) -> Duration {
        Duration::from_millis(self.startup_ms.unwrap_or(DEFAULT_STARTUP_MS))
    }
}

/// The keys a `[[bot]]` entry may have: [`RawBotSpec`]'s fields.
pub const BOT_KEYS: [&str; 11] = [
    "name",
    "command",
    "shell",
    "cwd",
    "env",
    "limits",
    "sandbox",
    "writable",
    "network",
    "trace",
    "time_control",
];

/// One `[[bot]]` entry as written: each key and value with its span, so
/// that an error points at the key at fault.
pub type BotEntry = toml::Spanned<BTreeMap<toml::Spanned<String>, toml::Spanned<toml::Value>>>;

/// The file form of [`BotSpec`]: `command` may be a list or a string, and
/// what a string means depends on `shell`, which may come after it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBotSpec {
    name: String,
    command: CommandForm,
    #[serde(default)]
    shell: bool,
    #[serde(default)]
    cwd: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    limits: BotLimits,
    #[serde(default)]
    sandbox: Option<bool>,
    #[serde(default)]
    writable: Vec<PathBuf>,
    #[serde(default)]
    network: bool,
    #[serde(default)]
    trace: bool,
    #[serde(default)]
    time_control: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CommandForm {
    Words(Vec<String>),
    Line(String),
}

impl TryFrom<RawBotSpec> for BotSpec {
    type Error = String;

    fn try_from(raw: RawBotSpec) -> Result<BotSpec, String> {
        let command = match (raw.command, raw.shell) {
            (CommandForm::Words(words), _) => words,
            (CommandForm::Line(line), true) => vec![line],
            (CommandForm::Line(line), false) => split_command_line(&line)
                .map_err(|e| format!("bot {:?}: field `command`: {e}", raw.name))?,
        };
        let time_control = match &raw.time_control {
            None => None,
            Some(text) => Some(
                parse_time_control(text)
                    .map_err(|e| format!("bot {:?}: field `time_control`: {e:#}", raw.name))?,
            ),
        };
        Ok(BotSpec {
            name: raw.name,
            command,
            shell: raw.shell,
            cwd: raw.cwd,
            env: raw.env,
            limits: raw.limits,
            sandbox: raw.sandbox,
            writable: raw.writable,
            network: raw.network,
            trace: raw.trace,
            time_control,
        })
    }
}

impl BotSpec {
    /// A spec from a name and a command line typed by a person.
    pub fn from_command_line(name: &str, line: &str) -> anyhow::Result<BotSpec> {
        let command = split_command_line(line)
            .with_context(|| format!("bot {name:?}: cannot split command line {line:?}"))?;
        Ok(BotSpec {
            name: name.to_string(),
            command,
            shell: false,
            cwd: None,
            env: BTreeMap::new(),
            limits: BotLimits::default(),
            sandbox: None,
            writable: Vec::new(),
            network: false,
            trace: false,
            time_control: None,
        })
    }

    /// A bot from `--bot NAME=COMMAND LINE` (the command split as a shell
    /// would), checked; it runs in the current directory unless resolved.
    pub fn from_flag(flag: &str) -> Result<BotSpec, String> {
        let (name, command) = flag.split_once('=').ok_or_else(|| {
            "expected NAME=COMMAND, e.g. --bot greedy='python3 bots/python/greedy_bot.py'"
                .to_string()
        })?;
        let spec =
            BotSpec::from_command_line(name.trim(), command).map_err(|e| format!("{e:#}"))?;
        spec.check()?;
        Ok(spec)
    }

    /// A bot from one `[[bot]]` entry of a file, checked.
    pub fn from_toml(entry: toml::Value) -> Result<BotSpec, String> {
        let spec: BotSpec = entry
            .try_into()
            .map_err(|e: toml::de::Error| e.message().trim_end().to_string())?;
        spec.check()?;
        Ok(spec)
    }

    /// Every rule a bot must satisfy, whatever it came from: a name that is
    /// safe in tables, file names and spreadsheets ([`name_rule`]), a
    /// program to run, an environment and a command the operating system
    /// can take, positive limits of at most a week, its own time control
    /// within range. Errors name the bot and the field.
    pub fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if name.trim().is_empty() {
            return Err(format!(
                "bot with command {:?}: field `name` is empty",
                self.command
            ));
        }
        name_rule(name)?;
        self.check_command()?;
        self.check_limits()?;
        if let Some(tc) = &self.time_control {
            tc.check()
                .map_err(|m| format!("bot {name:?}: field `time_control`: {m}"))?;
        }
        Ok(())
    }

    /// What starting the bot needs of its spec: a program, and a command
    /// and environment the operating system can take (no NUL, no `=` in a
    /// variable's name). The referee asks this much of every spec it
    /// starts; [`BotSpec::check`] asks it of every bot a command reads.
    pub fn check_command(&self) -> Result<(), String> {
        let name = &self.name;
        match self.command.first() {
            None => return Err(format!("bot {name:?}: field `command` is empty")),
            Some(p) if p.is_empty() => {
                return Err(format!(
                    "bot {name:?}: field `command` starts with an empty program name"
                ))
            }
            Some(_) => {}
        }
        if self.command.iter().any(|word| word.contains('\0')) {
            return Err(format!(
                "bot {name:?}: field `command` contains a NUL character"
            ));
        }
        for (key, value) in &self.env {
            if key.is_empty() {
                return Err(format!("bot {name:?}: field `env`: an empty variable name"));
            }
            if key.contains('=') || key.contains('\0') {
                return Err(format!(
                    "bot {name:?}: field `env`: variable name {key:?} contains `=` or a NUL character"
                ));
            }
            if value.contains('\0') {
                return Err(format!(
                    "bot {name:?}: field `env`: the value of {key} contains a NUL character"
                ));
            }
        }
        Ok(())
    }

    fn check_limits(&self) -> Result<(), String> {
        let limits = [
            ("memory_mb", self.limits.memory_mb, u64::MAX),
            ("cpu_seconds", self.limits.cpu_seconds, u64::MAX),
            ("startup_ms", self.limits.startup_ms, MAX_TIME_MS),
        ];
        for (field, value, max) in limits {
            match value {
                Some(0) => {
                    return Err(format!(
                        "bot {:?}: `limits.{field}` must be positive",
                        self.name
                    ))
                }
                Some(n) if n > max => {
                    return Err(format!(
                        "bot {:?}: `limits.{field}` too large: {n} (at most {max}, a week)",
                        self.name
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// argv actually executed: `command`, or `sh -c "<joined command>"`.
    pub fn argv(&self) -> Vec<String> {
        if self.shell {
            vec!["sh".into(), "-c".into(), self.command.join(" ")]
        } else {
            self.command.clone()
        }
    }

    /// Makes a relative `cwd` relative to `base` (the directory of the file
    /// the spec came from), so configs work from any current directory.
    pub fn resolve_relative_to(&mut self, base: &Path) {
        match &self.cwd {
            Some(cwd) if cwd.is_relative() => self.cwd = Some(base.join(cwd)),
            Some(_) => {}
            None => self.cwd = Some(base.to_path_buf()),
        }
    }
}

/// Reads the `[[bot]]` entries of a bots file (a tournament file too:
/// other tables are ignored), checked and with their directories resolved
/// against the file's (a bot without `cwd` runs there, so the file works
/// from any current directory). Errors name the file and the entry's line.
pub fn read_bots_file(path: &Path) -> anyhow::Result<Vec<BotSpec>> {
    #[derive(Deserialize)]
    struct BotsFile {
        #[serde(default)]
        bot: Vec<BotEntry>,
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read bots file {}", path.display()))?;
    let file: BotsFile = toml::from_str(&text).map_err(|e| toml_error(path, &text, &e))?;
    let base = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let bots = bots_in_toml(file.bot, base).map_err(|(span, message)| {
        at(path, &text, span.start, &format!("field `bot`: {message}"))
    })?;
    Ok(bots.into_iter().map(|(bot, _)| bot).collect())
}

/// The bots of a file's `[[bot]]` entries, each read and checked
/// ([`BotSpec::from_toml`]), with directories resolved against `base`, and
/// each with its entry's span; names must be unique. `Err` holds the span
/// at fault (an unknown key's, the key a message names, else the entry's)
/// and the message; a misspelt key gets the nearest one suggested.
#[allow(clippy::type_complexity)]
pub fn bots_in_toml(
    entries: Vec<BotEntry>,
    base: &Path,
) -> Result<Vec<(BotSpec, Range<usize>)>, (Range<usize>, String)> {
    let mut bots: Vec<(BotSpec, Range<usize>)> = Vec::new();
    for entry in entries {
        let span = entry.span();
        let table = entry.into_inner();
        refuse_unknown_bot_keys(&table)?;
        let named_key = |message: &str| {
            table
                .keys()
                .find(|key| {
                    let key = key.get_ref();
                    message.contains(&format!("field `{key}`"))
                        || message.contains(&format!("`{key}."))
                })
                .map(|key| key.span())
        };
        let value = table
            .iter()
            .map(|(key, value)| (key.get_ref().clone(), value.get_ref().clone()))
            .collect();
        let mut bot = BotSpec::from_toml(toml::Value::Table(value))
            .map_err(|m| (named_key(&m).unwrap_or(span.clone()), m))?;
        if bots.iter().any(|(b, _)| b.name == bot.name) {
            let message = format!(
                "a second bot is named {:?}; bot names must be unique",
                bot.name
            );
            return Err((span, message));
        }
        bot.resolve_relative_to(base);
        bots.push((bot, span));
    }
    Ok(bots)
}

/// `Err` at the first key (in file order) of a `[[bot]]` entry that is not
/// one of [`BOT_KEYS`], with the nearest key when one is close.
fn refuse_unknown_bot_keys(
    table: &BTreeMap<toml::Spanned<String>, toml::Spanned<toml::Value>>,
) -> Result<(), (Range<usize>, String)> {
    let unknown = table
        .keys()
        .filter(|key| !BOT_KEYS.contains(&key.get_ref().as_str()))
        .min_by_key(|key| key.span().start);
    let Some(key) = unknown else { return Ok(()) };
    let name = key.get_ref();
    let hint = match arena_files::nearest(name, BOT_KEYS) {
        Some(near) => format!("did you mean `{near}`?"),
        None => format!("it takes {}", BOT_KEYS.join(", ")),
    };
    Err((
        key.span(),
        format!("`{name}` is not a key of [[bot]]; {hint} (docs/GUIDE.md, \"Tournaments\")"),
    ))
}

/// A player argument of `arena play` or `arena sprt`: the name of a bot of
/// `known` (a bots file), `NAME=COMMAND`, or a command line (named after
/// its program or script, see [`name_from_command`]); checked. With a bots
/// file, a single bare word that names none of its bots is an error rather
/// than a program to look for.
pub fn resolve_player(arg: &str, known: &[BotSpec]) -> Result<BotSpec, String> {
    if let Some(spec) = known.iter().find(|b| b.name == arg) {
        return Ok(spec.clone());
    }
    if let Some((name, _)) = arg.split_once('=') {
        if !name.is_empty() && !name.contains(char::is_whitespace) {
            return BotSpec::from_flag(arg);
        }
    }
    let spec =
        BotSpec::from_command_line(&name_from_command(arg), arg).map_err(|e| format!("{e:#}"))?;
    if !known.is_empty() && spec.command.len() == 1 && !spec.command[0].contains('/') {
        let names: Vec<&str> = known.iter().map(|b| b.name.as_str()).collect();
        return Err(format!(
            "{arg:?} is not a bot in the bots file (it has: {})",
            names.join(", ")
        ));
    }
    spec.check()?;
    Ok(spec)
}

/// A bot's name from its command line: the script after a known
/// interpreter (`python3 bots/greedy.py` is `greedy`), else the program
/// (`./target/release/engine --depth 4` is `engine`).
pub fn name_from_command(line: &str) -> String {
    const INTERPRETERS: &[&str] = &[
        "python", "python3", "node", "nodejs", "ruby", "perl", "sh", "bash", "java", "pypy3",
        "deno", "bun",
    ];
    let words = split_command_line(line).unwrap_or_default();
    let mut chosen = words.first().map(String::as_str).unwrap_or("bot");
    let program = Path::new(chosen)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(chosen);
    if INTERPRETERS.contains(&program) {
        if let Some(script) = words.iter().skip(1).find(|w| !w.starts_with('-')) {
            chosen = script;
        }
    }
    Path::new(chosen)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("bot")
        .to_string()
}

/// The longest bot name, in characters: it is a column in tables and part
/// of log file names.
pub const MAX_NAME_CHARS: usize = 64;

/// Bot names: at most [`MAX_NAME_CHARS`] characters, no surrounding
/// whitespace (names that differ only by spaces would look the same), no
/// control or format characters (Unicode Cc, Cf: bidi overrides such as
/// U+202E reorder the text around them), and no leading `=`, `+`, `-` or
/// `@`, which make a spreadsheet read the CSV cell as a formula.
pub fn name_rule(name: &str) -> Result<(), String> {
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

/// `FILE:LINE:COL: message` for the byte `offset` of `text`.
pub fn at(path: &Path, text: &str, offset: usize, message: &str) -> anyhow::Error {
    let (line, col) = arena_files::line_col(text, offset);
    anyhow::anyhow!("{}:{line}:{col}: {message}", path.display())
}

/// A TOML error as one line: `FILE:LINE:COL: message`.
pub fn toml_error(path: &Path, text: &str, error: &toml::de::Error) -> anyhow::Error {
    let message = error.message().trim_end().replace('\n', "; ");
    match error.span() {
        Some(span) => at(path, text, span.start, &message),
        None => anyhow::anyhow!("{}: {message}", path.display()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct File {
        bot: Vec<BotSpec>,
    }

    /// A bot's own time control is read in the command-line spelling and
    /// written back the same way (tournament.json is read by the same path).
    #[test]
    fn a_bots_time_control_round_trips_as_text() {
        let file: File = toml::from_str(
            "[[bot]]\nname = \"a\"\ncommand = \"./a\"\ntime_control = \"5+0.05\"\n\
             [[bot]]\nname = \"b\"\ncommand = \"./b\"\ntime_control = \"per-move=200\"\n",
        )
        .unwrap();
        let [a, b] = [&file.bot[0], &file.bot[1]];
        assert_eq!(
            a.time_control,
            Some(TimeControl::Clock {
                base_ms: 5000,
                increment_ms: 50
            })
        );
        assert_eq!(b.time_control, Some(TimeControl::PerMove { move_ms: 200 }));
        let json = serde_json::to_string(a).unwrap();
        assert!(json.contains("\"time_control\":\"5+0.05\""), "{json}");
        assert_eq!(&serde_json::from_str::<BotSpec>(&json).unwrap(), a);
        let plain = BotSpec::from_command_line("c", "./c").unwrap();
        assert!(!serde_json::to_string(&plain)
            .unwrap()
            .contains("time_control"));
        let bad = "[[bot]]\nname = \"x\"\ncommand = \"./x\"\ntime_control = \"soon\"\n";
        let Err(err) = toml::from_str::<File>(bad) else {
            panic!("a time control of \"soon\" was accepted")
        };
        let err = err.to_string();
        assert!(err.contains("bot \"x\": field `time_control`"), "{err}");
    }

    #[test]
    fn toml_with_all_fields_and_both_command_forms() {
        let text = r#"
            [[bot]]
            name = "a"
            command = ["python3", "a b.py"]
            cwd = "bots"
            env = { X = "1" }
            limits = { memory_mb = 256, cpu_seconds = 60, startup_ms = 2000 }

            [[bot]]
            name = "b"
            command = "node 'my bot.js' --depth 3 | tee x"
            shell = true

            [[bot]]
            name = "c"
            command = "node 'my bot.js' --depth 3"
        "#;
        let file: File = toml::from_str(text).unwrap();
        let a = &file.bot[0];
        assert_eq!(a.command, ["python3", "a b.py"]);
        assert_eq!(a.cwd.as_deref(), Some(Path::new("bots")));
        assert_eq!(a.env["X"], "1");
        assert_eq!(a.limits.memory_mb, Some(256));
        assert_eq!(a.limits.startup(), Duration::from_millis(2000));
        assert!(!a.shell);
        assert_eq!(a.argv(), a.command);
        let b = &file.bot[1];
        assert_eq!(b.command, ["node 'my bot.js' --depth 3 | tee x"]);
        assert_eq!(b.argv(), ["sh", "-c", "node 'my bot.js' --depth 3 | tee x"]);
        let c = &file.bot[2];
        assert_eq!(c.command, ["node", "my bot.js", "--depth", "3"]);
        assert_eq!(c.argv(), c.command);
        assert_eq!(b.limits, BotLimits::default());
        assert_eq!(
            b.limits.startup(),
            Duration::from_millis(DEFAULT_STARTUP_MS)
        );
    }

    #[test]
    fn a_bad_command_string_is_an_error_naming_the_bot() {
        let err = toml::from_str::<File>("[[bot]]\nname='q'\ncommand=\"run 'x\"\n")
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("\"q\"") && err.contains("unterminated single quote"),
            "{err}"
        );
    }

    #[test]
    fn serialized_specs_read_back_the_same() {
        let mut spec = BotSpec::from_command_line("s", "a 'b c'").unwrap();
        spec.limits.cpu_seconds = Some(5);
        let text = toml::to_string(&spec).unwrap();
        assert_eq!(toml::from_str::<BotSpec>(&text).unwrap(), spec);
    }

    #[test]
    fn unknown_fields_are_rejected_by_name() {
        let err = toml::from_str::<File>("[[bot]]\nname='a'\ncommand=['x']\ncomand=1\n")
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("comand"), "{err}");
        let err = toml::from_str::<File>("[[bot]]\nname='a'\ncommand=['x']\nlimits={memory=1}\n")
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("memory"), "{err}");
    }

    /// The keys an entry may have, for the "did you mean", are exactly
    /// those the file form reads.
    #[test]
    fn bot_keys_are_the_file_forms_fields() {
        let every_key = "[[bot]]\nname='a'\ncommand=['x']\nshell=false\ncwd='.'\nenv={}\n\
             limits={}\nsandbox=false\nwritable=[]\nnetwork=false\ntrace=false\n\
             time_control='per-move=5'\n";
        let file: File = toml::from_str(every_key).unwrap();
        assert_eq!(file.bot.len(), 1);
        assert_eq!(every_key.matches('=').count() - 1, BOT_KEYS.len());
        for key in BOT_KEYS {
            assert!(every_key.contains(&format!("\n{key}=")), "{key}");
        }
    }

    #[test]
    fn check_names_the_bot_and_field() {
        let mut spec = BotSpec::from_command_line("x", "prog").unwrap();
        spec.check().unwrap();
        spec.command.clear();
        let err = spec.check().unwrap_err();
        assert!(err.contains("\"x\"") && err.contains("command"), "{err}");
        let mut spec = BotSpec::from_command_line("y", "prog").unwrap();
        spec.limits.memory_mb = Some(0);
        assert!(spec.check().unwrap_err().contains("memory_mb"));
        spec.limits.memory_mb = None;
        spec.limits.startup_ms = Some(MAX_TIME_MS + 1);
        assert!(spec.check().unwrap_err().contains("a week"));
        spec.limits.startup_ms = None;
        spec.env.insert("A=B".into(), "1".into());
        assert!(spec.check().unwrap_err().contains("`env`"));
        assert!(BotSpec::from_command_line("z", "'unterminated").is_err());
    }

    /// One set of rules, whatever the bot came from: a name a spreadsheet
    /// would read as a formula is refused by `--bot`, by a file's
    /// `[[bot]]`, and by a player argument of `arena play` / `arena sprt`.
    #[test]
    fn every_source_of_a_bot_applies_the_same_rules() {
        let bad_names = ["=cmd", "+x", "@x", " padded", "a\u{202E}b", &"n".repeat(65)];
        for name in bad_names {
            let entry: toml::Value = toml::from_str(&format!(
                "name = {}\ncommand = [\"./bot\"]\n",
                toml::Value::String(name.to_string())
            ))
            .unwrap();
            let file = BotSpec::from_toml(entry).unwrap_err();
            assert!(file.contains("bot name"), "{name:?}: {file}");
            // A name a flag can carry (no `=`; a flag's name is trimmed)
            // meets the same rule there.
            if !name.contains(['=', ' ']) {
                let flag = BotSpec::from_flag(&format!("{name}=./bot")).unwrap_err();
                assert_eq!(flag, file, "{name:?}");
            }
            if !name.contains(['=', ' ']) {
                let player = resolve_player(&format!("{name}=./bot"), &[]).unwrap_err();
                assert_eq!(player, file, "{name:?}");
            }
        }
        let bad_tc = "name = \"t\"\ncommand = \"./t\"\ntime_control = \"per-move=999999999999\"\n";
        let err = BotSpec::from_toml(toml::from_str(bad_tc).unwrap()).unwrap_err();
        assert!(
            err.contains("bot \"t\": field `time_control`") && err.contains("a week"),
            "{err}"
        );
    }

    #[test]
    fn player_arguments_name_a_known_bot_a_flag_or_a_command_line() {
        let known = vec![BotSpec::from_command_line("greedy", "python3 g.py").unwrap()];
        assert_eq!(
            resolve_player("greedy", &known).unwrap().command,
            ["python3", "g.py"]
        );
        let named = resolve_player("fast=./engine --depth 2", &known).unwrap();
        assert_eq!((named.name.as_str(), named.command.len()), ("fast", 3));
        let line = resolve_player("python3 bots/random_bot.py", &[]).unwrap();
        assert_eq!(line.name, "random_bot");
        let err = resolve_player("greddy", &known).unwrap_err();
        assert!(
            err.contains("not a bot in the bots file (it has: greedy)"),
            "{err}"
        );
        assert_eq!(
            name_from_command("./target/release/engine --depth 4"),
            "engine"
        );
        assert_eq!(name_from_command("node --stack-size=1 b.js"), "b");
        assert_eq!(
            name_from_command("python3 bots/python/greedy_bot.py --seed 3"),
            "greedy_bot"
        );
        assert_eq!(name_from_command("python3 -u bots/x.py"), "x");
        assert_eq!(name_from_command("/usr/bin/node 'my bot.js'"), "my bot");
        assert_eq!(name_from_command("python3"), "python3");
    }

    #[test]
    fn bots_file_resolves_paths_and_reports_errors_with_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bots.toml");
        std::fs::write(
            &path,
            "[tournament]\nrounds = 2\n\n[[bot]]\nname = 'a'\ncommand = 'python3 a.py'\n\n[[bot]]\nname = 'b'\ncommand = ['b']\ncwd = 'sub'\n",
        )
        .unwrap();
        let bots = read_bots_file(&path).unwrap();
        assert_eq!(bots[0].command, ["python3", "a.py"]);
        assert_eq!(bots[0].cwd.as_deref(), Some(dir.path()));
        assert_eq!(bots[1].cwd, Some(dir.path().join("sub")));

        std::fs::write(
            &path,
            "[[bot]]\nname = 'a'\ncommand = ['x']\n[[bot]]\nname = 'a'\ncommand = ['y']\n",
        )
        .unwrap();
        let err = format!("{:#}", read_bots_file(&path).unwrap_err());
        assert!(
            err.contains("bots.toml:4:1: field `bot`: a second bot is named \"a\""),
            "{err}"
        );

        std::fs::write(&path, "[[bot]]\nname = 'a'\n").unwrap();
        let err = format!("{:#}", read_bots_file(&path).unwrap_err());
        assert!(
            err.contains("bots.toml") && err.contains("command"),
            "{err}"
        );
        assert!(read_bots_file(&dir.path().join("none.toml")).is_err());
    }

    #[test]
    fn relative_cwd_resolves_against_config_dir() {
        let mut spec = BotSpec::from_command_line("x", "prog").unwrap();
        spec.resolve_relative_to(Path::new("/cfg"));
        assert_eq!(spec.cwd.as_deref(), Some(Path::new("/cfg")));
        spec.cwd = Some("bots".into());
        spec.resolve_relative_to(Path::new("/cfg"));
        assert_eq!(spec.cwd.as_deref(), Some(Path::new("/cfg/bots")));
        spec.resolve_relative_to(Path::new("/other"));
        assert_eq!(spec.cwd.as_deref(), Some(Path::new("/cfg/bots")));
    }
}
