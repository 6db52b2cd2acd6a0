//! A league's registry, `bots.jsonl`: one event a line, appended, never
//! rewritten (a torn last line, a crash's, is left out and cut off before
//! the next append). Read in order, the events give every version of every
//! bot, which names are retired and the participants' hashed tokens.
//!
//! A bot's version is its program ([`program_identity`]): registering a
//! name whose program differs from its latest version's adds version
//! `N + 1`; its games are played as `NAME@N`, so old versions keep theirs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use crate::identity::program_identity;
use crate::lines::visit_jsonl;
use arena_referee::BotSpec;

/// One line of `bots.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// `name`'s version `version` is the program `program` run as `bot`.
    Version {
        name: String,
        version: u32,
        program: String,
        bot: Box<BotSpec>,
        at: String,
    },
    /// `name` is no longer scheduled (its games stay).
    Retire { name: String, at: String },
    /// `name`, retired, is scheduled again.
    Return { name: String, at: String },
    /// `name`'s participant token, as its SHA-256 (submissions).
    Token {
        name: String,
        sha256: String,
        at: String,
    },
}

/// One version of a bot.
#[derive(Debug, Clone, PartialEq)]
pub struct Version {
    pub name: String,
    pub version: u32,
    pub program: String,
    /// The bot as registered, named `name` (not `name@version`).
    pub bot: BotSpec,
    /// When it was registered (UTC).
    pub at: String,
}

impl Version {
    /// How its games name it: `NAME@N`.
    pub fn label(&self) -> String {
        label(&self.name, self.version)
    }

    /// The bot as its games run it: named [`Version::label`].
    pub fn player(&self) -> BotSpec {
        let mut bot = self.bot.clone();
        bot.name = self.label();
        bot
    }
}

/// `NAME@N`.
pub fn label(name: &str, version: u32) -> String {
    format!("{name}@{version}")
}

/// `NAME@N` → (NAME, N).
pub fn parse_label(label: &str) -> Option<(&str, u32)> {
    let (name, n) = label.rsplit_once('@')?;
    Some((name, n.parse().ok()?))
}

/// Every event of a league, read.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Every version, in the order registered.
    pub versions: Vec<Version>,
    pub retired: BTreeSet<String>,
    /// Each name's token's SHA-256 (the latest).
    pub tokens: BTreeMap<String, String>,
}

/// What registering a bot did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registered {
    /// A new name: `NAME@1`.
    New(String),
    /// A known name with another program: `NAME@N`, N > 1.
    NewVersion(String),
    /// The program of the name's latest version: nothing new.
    Unchanged(String),
}

impl Registered {
    /// What to tell the user, one line.
    pub fn sentence(&self) -> String {
        match self {
            Registered::New(label) => format!("registered {label}"),
            Registered::NewVersion(label) => {
                format!(
                    "the program changed: registered {label} (earlier versions keep their games)"
                )
            }
            Registered::Unchanged(label) => format!("{label}: the same program, nothing new"),
        }
    }
}

impl Registry {
    /// Reads `path` (missing: empty). A torn last line is left out; any
    /// other line that is no event is an error naming it.
    pub fn read(path: &Path) -> anyhow::Result<Registry> {
        let mut registry = Registry::default();
        visit_jsonl(path, "a registry event", |event| registry.apply(event))?;
        Ok(registry)
    }

    fn apply(&mut self, event: Event) {
        match event {
            Event::Version {
                name,
                version,
                program,
                bot,
                at,
            } => self.versions.push(Version {
                name,
                version,
                program,
                bot: *bot,
                at,
            }),
            Event::Retire { name, .. } => {
                self.retired.insert(name);
            }
            Event::Return { name, .. } => {
                self.retired.remove(&name);
            }
            Event::Token { name, sha256, .. } => {
                self.tokens.insert(name, sha256);
            }
        }
    }

    /// The latest version of `name`.
    pub fn latest(&self, name: &str) -> Option<&Version> {
        self.versions.iter().rev().find(|v| v.name == name)
    }

    /// Whether `v` is its name's latest version.
    pub fn is_latest(&self, v: &Version) -> bool {
        self.latest(&v.name).is_some_and(|l| l.version == v.version)
    }

    /// The latest version of each name not retired, in the order the
    /// names were first registered: the bots a league schedules.
    pub fn active(&self) -> Vec<&Version> {
        let mut names: Vec<&str> = Vec::new();
        for v in &self.versions {
            if !names.contains(&v.name.as_str()) {
                names.push(&v.name);
            }
        }
        names
            .into_iter()
            .filter(|n| !self.retired.contains(*n))
            .filter_map(|n| self.latest(n))
            .collect()
    }

    /// The version a game's seat names (`NAME@N`).
    pub fn by_label(&self, label: &str) -> Option<&Version> {
        let (name, n) = parse_label(label)?;
        self.versions
            .iter()
            .find(|v| v.name == name && v.version == n)
    }

    /// Registers `bot` under its name (appending to `path`): a new name, a
    /// new version when its program differs from the latest, or nothing.
    /// A retired name registered again is scheduled again.
    pub fn register(&mut self, path: &Path, bot: BotSpec) -> anyhow::Result<Registered> {
        check_name(&bot.name)?;
        let program = program_identity(&bot);
        let name = bot.name.clone();
        if self.retired.contains(&name) {
            self.append(
                path,
                Event::Return {
                    name: name.clone(),
                    at: now(),
                },
            )?;
        }
        let known = match self.latest(&name) {
            Some(latest) if latest.program == program => {
                return Ok(Registered::Unchanged(latest.label()))
            }
            latest => latest.is_some(),
        };
        let label = self.add_version(path, bot, program)?;
        Ok(if known {
            Registered::NewVersion(label)
        } else {
            Registered::New(label)
        })
    }

    /// The first version of `name` whose program is `program` (the same
    /// one whatever is registered after it).
    pub fn version_of_program(&self, name: &str, program: &str) -> Option<&Version> {
        self.versions
            .iter()
            .find(|v| v.name == name && v.program == program)
    }

    /// The versions of `name`, in order.
    pub fn versions_of<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Version> + 'a {
        self.versions.iter().filter(move |v| v.name == name)
    }

    /// Adds `bot` (named by its name) as its name's next version, with the
    /// program identity `program` as recorded elsewhere (an imported run's
    /// `tournament.json`), whatever its files are now; returns `NAME@N`.
    pub fn add_version(
        &mut self,
        path: &Path,
        bot: BotSpec,
        program: String,
    ) -> anyhow::Result<String> {
        check_name(&bot.name)?;
        let name = bot.name.clone();
        let version = self.latest(&name).map_or(1, |v| v.version + 1);
        self.append(
            path,
            Event::Version {
                name: name.clone(),
                version,
                program,
                bot: Box::new(bot),
                at: now(),
            },
        )?;
        Ok(label(&name, version))
    }

    /// Registers again each active bot whose program changed since its
    /// latest version (its files were edited): the new versions, each
    /// with its sentence.
    pub fn refresh(&mut self, path: &Path) -> anyhow::Result<Vec<Registered>> {
        let bots: Vec<BotSpec> = self.active().iter().map(|v| v.bot.clone()).collect();
        let mut changed = Vec::new();
        for bot in bots {
            let registered = self.register(path, bot)?;
            if let Registered::NewVersion(_) = registered {
                changed.push(registered);
            }
        }
        Ok(changed)
    }

    /// Stops scheduling `name`; `Err` when the league has no such bot.
    pub fn retire(&mut self, path: &Path, name: &str) -> anyhow::Result<bool> {
        if self.latest(name).is_none() {
            bail!("the league has no bot {name:?} (arena league standings lists them)");
        }
        if self.retired.contains(name) {
            return Ok(false);
        }
        self.append(
            path,
            Event::Retire {
                name: name.to_string(),
                at: now(),
            },
        )?;
        Ok(true)
    }

    /// Gives the participant `name` a fresh token (256 random bits, in
    /// hex), replacing any earlier one: returns it, and stores only its
    /// SHA-256.
    pub fn new_token(&mut self, path: &Path, name: &str) -> anyhow::Result<String> {
        check_participant(name)?;
        let bits: [u8; 32] = rand::random();
        let token: String = bits.iter().map(|b| format!("{b:02x}")).collect();
        self.append(
            path,
            Event::Token {
                name: name.to_string(),
                sha256: arena_files::sha256_hex(token.as_bytes()),
                at: now(),
            },
        )?;
        Ok(token)
    }

    /// The participant whose token is `token`: its SHA-256 is compared
    /// with every stored one, each in constant time.
    pub fn token_owner(&self, token: &str) -> Option<&str> {
        let hash = arena_files::sha256_hex(token.trim().as_bytes());
        let mut owner = None;
        for (name, stored) in &self.tokens {
            if same_in_constant_time(&hash, stored) {
                owner = Some(name.as_str());
            }
        }
        owner
    }

    /// Appends `event` (one write, synced; a torn last line is cut off
    /// first) and applies it.
    pub fn append(&mut self, path: &Path, event: Event) -> anyhow::Result<()> {
        let line = serde_json::to_vec(&event).context("encoding a registry event")?;
        append_line(path, line)?;
        self.apply(event);
        Ok(())
    }
}

/// Appends `line` and its newline to `path` in one write, synced, after
/// cutting off a torn last line (the league's append-only files).
pub(crate) fn append_line(path: &Path, mut line: Vec<u8>) -> anyhow::Result<()> {
    line.push(b'\n');
    cut_torn_tail(path)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {} for appending", path.display()))?;
    file.write_all(&line)
        .and_then(|()| file.sync_data())
        .with_context(|| format!("cannot append to {}", path.display()))
}

/// A participant's name (submissions): it names their directory of
/// uploads, so one word of `A-Z a-z 0-9 _ . -`, not starting with a dot,
/// at most 64 characters.
pub fn check_participant(name: &str) -> anyhow::Result<()> {
    let word = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    if !word || name.is_empty() || name.starts_with('.') || name.len() > 64 {
        bail!("participant name {name:?}: one word of letters, digits, '_', '.' and '-' (not starting with '.'), at most 64 characters, e.g. ada_lovelace");
    }
    Ok(())
}

/// Whether two strings are equal, in a time that depends on their lengths
/// only (a token's hash is compared without telling how much matched).
fn same_in_constant_time(a: &str, b: &str) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A bot's name in a league: not empty, no `@` (which separates the
/// version), no control characters.
pub fn check_name(name: &str) -> anyhow::Result<()> {
    if name.is_empty() || name.contains('@') || name.chars().any(char::is_control) {
        bail!("bot name {name:?}: a league's bot names are not empty and have no '@' (it separates the version: NAME@2)");
    }
    Ok(())
}

/// Cuts a last line without its newline (a write a crash tore) off `path`.
fn cut_torn_tail(path: &Path) -> anyhow::Result<()> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(());
    };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot repair {}", path.display()))?;
    file.set_len(keep as u64)
        .with_context(|| format!("cannot repair {}", path.display()))
}

fn now() -> String {
    arena_files::utc_timestamp(std::time::SystemTime::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot_in(dir: &Path, name: &str, script: &str) -> BotSpec {
        std::fs::write(dir.join("bot.sh"), script).unwrap();
        let mut bot = BotSpec::from_command_line(name, "sh bot.sh").unwrap();
        bot.cwd = Some(dir.to_path_buf());
        bot
    }

    #[test]
    fn a_changed_program_is_the_next_version_and_the_old_one_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bots.jsonl");
        let mut r = Registry::default();
        let bot = bot_in(dir.path(), "ada", "echo 1\n");
        assert_eq!(
            r.register(&path, bot.clone()).unwrap(),
            Registered::New("ada@1".into())
        );
        assert_eq!(
            r.register(&path, bot).unwrap(),
            Registered::Unchanged("ada@1".into())
        );
        let changed = bot_in(dir.path(), "ada", "echo 2\n");
        assert_eq!(
            r.register(&path, changed).unwrap(),
            Registered::NewVersion("ada@2".into())
        );
        // Read back from the file: the same versions.
        let read = Registry::read(&path).unwrap();
        let labels: Vec<String> = read.versions.iter().map(Version::label).collect();
        assert_eq!(labels, ["ada@1", "ada@2"]);
        assert_eq!(read.active()[0].label(), "ada@2");
        assert!(read.by_label("ada@1").is_some());
    }

    #[test]
    fn an_edited_file_is_found_by_refresh_and_a_retired_bot_is_not_scheduled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bots.jsonl");
        let mut r = Registry::default();
        r.register(&path, bot_in(dir.path(), "ada", "echo 1\n"))
            .unwrap();
        assert!(r.refresh(&path).unwrap().is_empty());
        std::fs::write(dir.path().join("bot.sh"), "echo 2\n").unwrap();
        let changed = r.refresh(&path).unwrap();
        assert_eq!(changed, [Registered::NewVersion("ada@2".into())]);
        assert!(r.retire(&path, "ada").unwrap());
        assert!(Registry::read(&path).unwrap().active().is_empty());
        assert!(r.retire(&path, "bob").is_err());
    }

    #[test]
    fn a_torn_last_event_is_left_out_and_cut_before_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bots.jsonl");
        let mut r = Registry::default();
        r.register(&path, bot_in(dir.path(), "ada", "echo 1\n"))
            .unwrap();
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"event\":\"retire\",\"na").unwrap();
        let mut read = Registry::read(&path).unwrap();
        assert_eq!(read.active().len(), 1);
        read.register(&path, bot_in(dir.path(), "bob", "echo 1\n"))
            .unwrap();
        assert_eq!(Registry::read(&path).unwrap().active().len(), 2);
    }

    #[test]
    fn a_token_is_stored_hashed_and_a_new_one_replaces_the_old() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bots.jsonl");
        let mut r = Registry::default();
        let first = r.new_token(&path, "ada").unwrap();
        assert_eq!(first.len(), 64);
        let second = r.new_token(&path, "ada").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&first) && !text.contains(&second), "{text}");
        let read = Registry::read(&path).unwrap();
        assert_eq!(read.token_owner(&second), Some("ada"));
        assert_eq!(read.token_owner(&first), None);
        assert_eq!(read.token_owner(""), None);
        assert!(r.new_token(&path, "../x").is_err());
        assert!(check_participant(".hidden").is_err());
        assert!(check_participant("a/b").is_err());
        assert!(check_participant("ada-1.b_c").is_ok());
    }

    #[test]
    fn names_with_an_at_sign_are_refused() {
        assert!(check_name("a@b").is_err());
        assert!(check_name("").is_err());
        assert!(check_name("ada").is_ok());
        assert_eq!(parse_label("ada@12"), Some(("ada", 12)));
        assert_eq!(parse_label("ada"), None);
    }
}
