//! How to start a bot: the `[[bot]]` entry of a bots file or tournament
//! config, deserialized with serde.
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

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::clock::{format_time_control, parse_time_control};
use super::command_line::split_command_line;
use arena_rules::protocol::TimeControl;

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
    pub limits: Limits,
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
pub struct Limits {
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

impl Limits {
    pub fn startup(&self) -> Duration {
        Duration::from_millis(self.startup_ms.unwrap_or(DEFAULT_STARTUP_MS))
    }
}

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
    limits: Limits,
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
            limits: Limits::default(),
            sandbox: None,
            writable: Vec::new(),
            network: false,
            trace: false,
            time_control: None,
        })
    }

    /// Checks what serde cannot: a program to run, a usable name, limits
    /// that make sense. Errors name the bot and the field.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.name.trim().is_empty() {
            bail!("bot with command {:?}: field `name` is empty", self.command);
        }
        match self.command.first() {
            None => bail!("bot {:?}: field `command` is empty", self.name),
            Some(p) if p.is_empty() => bail!(
                "bot {:?}: field `command` starts with an empty program name",
                self.name
            ),
            Some(_) => {}
        }
        if self.limits.memory_mb == Some(0) {
            bail!("bot {:?}: `limits.memory_mb` must be positive", self.name);
        }
        if self.limits.cpu_seconds == Some(0) {
            bail!("bot {:?}: `limits.cpu_seconds` must be positive", self.name);
        }
        if self.limits.startup_ms == Some(0) {
            bail!("bot {:?}: `limits.startup_ms` must be positive", self.name);
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

/// Reads the `[[bot]]` entries of a TOML file (a bots file, or a tournament
/// config: other tables are ignored). Relative `cwd`s resolve against the
/// file's directory, and a bot without `cwd` runs there, so the file works
/// from any current directory. Errors name the file (and TOML's line and
/// column, or the bot).
pub fn read_bots_file(path: &Path) -> anyhow::Result<Vec<BotSpec>> {
    #[derive(Deserialize)]
    struct BotsFile {
        #[serde(default)]
        bot: Vec<BotSpec>,
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read bots file {}", path.display()))?;
    let file: BotsFile =
        toml::from_str(&text).with_context(|| format!("bots file {}", path.display()))?;
    let base = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut seen = std::collections::HashSet::new();
    let mut bots = Vec::new();
    for mut spec in file.bot {
        spec.validate()
            .with_context(|| format!("bots file {}", path.display()))?;
        if !seen.insert(spec.name.clone()) {
            bail!(
                "bots file {}: two bots are named {:?}",
                path.display(),
                spec.name
            );
        }
        spec.resolve_relative_to(base);
        bots.push(spec);
    }
    Ok(bots)
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
        assert_eq!(b.limits, Limits::default());
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

    #[test]
    fn validate_names_the_bot_and_field() {
        let mut spec = BotSpec::from_command_line("x", "prog").unwrap();
        spec.validate().unwrap();
        spec.command.clear();
        let err = spec.validate().unwrap_err().to_string();
        assert!(err.contains("\"x\"") && err.contains("command"), "{err}");
        let mut spec = BotSpec::from_command_line("y", "prog").unwrap();
        spec.limits.memory_mb = Some(0);
        assert!(spec
            .validate()
            .unwrap_err()
            .to_string()
            .contains("memory_mb"));
        assert!(BotSpec::from_command_line("z", "'unterminated").is_err());
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
            err.contains("bots.toml") && err.contains("two bots are named \"a\""),
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
