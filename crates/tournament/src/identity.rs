//! Which program each bot was: the SHA-256 of its program file (`argv[0]`,
//! resolved against the bot's directory or `PATH`) and of every other
//! argument that names an existing regular file (so `python3 bot.py` hashes
//! both the interpreter and the script). `tournament.json` records them; on
//! `--resume` a bot whose files changed since is warned about, since the
//! games already played were played by another program.
//!
//! A bot's **program identity** ([`program_identity`]) is one SHA-256 over
//! its command line with each word that names a file replaced by that
//! file's SHA-256, its `shell` flag and its environment: the same program
//! installed elsewhere has the same identity, the same files run with
//! other flags (`--depth 3`, `--delay`) do not. A league's versions are
//! told apart by it, and `arena rate` warns when one name stands for two.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use arena_files::sha256_hex;
use arena_referee::BotSpec;
use arena_rules::protocol::Ready;

/// One hashed file of a bot's command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramFile {
    pub path: PathBuf,
    pub sha256: String,
}

/// A bot's hashed files, and what it said about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotIdentity {
    pub bot: String,
    pub files: Vec<ProgramFile>,
    /// Its program identity ([`program_identity`]); absent in runs of
    /// versions of arena before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// The bot's latest `ready` answer (its own name, version, author);
    /// absent until a game of the run started it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<Ready>,
}

/// Records in `identities` the `ready` answers of `seen` (bot name and
/// answer) for bots that have none yet or answered differently; returns
/// whether anything changed.
pub fn note_ready(identities: &mut [BotIdentity], seen: &[(String, Ready)]) -> bool {
    let mut changed = false;
    for (bot, ready) in seen {
        if let Some(identity) = identities.iter_mut().find(|i| &i.bot == bot) {
            if identity.ready.as_ref() != Some(ready) {
                identity.ready = Some(ready.clone());
                changed = true;
            }
        }
    }
    changed
}

/// The files of `bot`'s command line that exist as regular files: `argv[0]`
/// through the bot's directory or `PATH`, the other arguments relative to
/// the bot's directory. Shell command lines are not taken apart.
pub fn program_files(bot: &BotSpec) -> Vec<PathBuf> {
    command_files(bot).into_iter().flatten().collect()
}

/// Each word of `bot`'s command line with the file it names, if any (see
/// [`program_files`]); none for a shell command line.
fn command_files(bot: &BotSpec) -> Vec<Option<PathBuf>> {
    if bot.shell {
        return vec![None; bot.command.len()];
    }
    let cwd = bot.cwd.as_deref().unwrap_or(Path::new("."));
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    bot.command
        .iter()
        .enumerate()
        .map(|(i, word)| {
            if i == 0 && !word.contains('/') {
                std::env::split_paths(&path_var)
                    .map(|dir| dir.join(word))
                    .find(|p| p.is_file())
            } else {
                Some(cwd.join(word)).filter(|p| p.is_file())
            }
        })
        .collect()
}

/// `bot`'s program identity: the SHA-256 of its command line, each word
/// that names a file replaced by the file's SHA-256 (`hash_of` gives it;
/// `None`: unreadable, the word is kept), with its `shell` flag and
/// environment.
pub fn program_identity_with(
    bot: &BotSpec,
    mut hash_of: impl FnMut(&Path) -> Option<String>,
) -> String {
    let hashes = command_files(bot)
        .into_iter()
        .map(|file| file.and_then(|f| hash_of(&f)));
    identity_of_words(bot, hashes)
}

/// `bot`'s program identity from the files a run recorded (`files`, its
/// [`BotIdentity::files`]) rather than the files as they are now: for runs
/// of an arena that recorded no [`BotIdentity::program`]. Each word is
/// matched to the recorded file it named (`argv[0]` by its file name, the
/// other words by their path in the bot's directory).
pub fn program_identity_recorded(bot: &BotSpec, files: &[ProgramFile]) -> String {
    let cwd = bot.cwd.as_deref().unwrap_or(Path::new("."));
    let hashes = bot.command.iter().enumerate().map(|(i, word)| {
        if bot.shell {
            return None;
        }
        let file = if i == 0 && !word.contains('/') {
            files
                .first()
                .filter(|f| f.path.file_name() == Some(std::ffi::OsStr::new(word)))
        } else {
            files.iter().find(|f| f.path == cwd.join(word))
        };
        file.map(|f| f.sha256.clone())
    });
    identity_of_words(bot, hashes)
}

/// The program identity of the bot `name` of a run: as `recorded` (the
/// run's `programs`) says it, or computed from its recorded files; `None`
/// when the run recorded nothing of the bot.
pub fn recorded_program(bot: &BotSpec, recorded: &[BotIdentity]) -> Option<String> {
    let identity = recorded.iter().find(|i| i.bot == bot.name)?;
    Some(
        identity
            .program
            .clone()
            .unwrap_or_else(|| program_identity_recorded(bot, &identity.files)),
    )
}

/// The identity text of `bot` with each word's file hash (`None`: no file,
/// the word is kept), hashed.
fn identity_of_words(bot: &BotSpec, hashes: impl Iterator<Item = Option<String>>) -> String {
    let mut text = format!("shell {}\n", bot.shell);
    for (word, hash) in bot.command.iter().zip(hashes) {
        match hash {
            Some(sha256) => text.push_str(&format!("file {sha256}\n")),
            None => text.push_str(&format!("word {word:?}\n")),
        }
    }
    for (key, value) in &bot.env {
        text.push_str(&format!("env {key:?}={value:?}\n"));
    }
    sha256_hex(text.as_bytes())
}

/// `bot`'s program identity, its files read now.
pub fn program_identity(bot: &BotSpec) -> String {
    program_identity_with(bot, |f| std::fs::read(f).ok().map(|b| sha256_hex(&b)))
}

/// Hashes every file of every bot (a file that cannot be read is left out).
/// A file several bots share (the same engine with other options, the same
/// interpreter) is read and hashed once: hashing a large binary takes
/// milliseconds.
pub fn identify(bots: &[BotSpec]) -> Vec<BotIdentity> {
    let mut hashed: HashMap<PathBuf, Option<String>> = HashMap::new();
    let mut hash_of = |path: &Path| {
        hashed
            .entry(path.to_path_buf())
            .or_insert_with(|| std::fs::read(path).ok().map(|b| sha256_hex(&b)))
            .clone()
    };
    bots.iter()
        .map(|bot| BotIdentity {
            bot: bot.name.clone(),
            files: program_files(bot)
                .into_iter()
                .filter_map(|path| {
                    let sha256 = hash_of(&path)?;
                    Some(ProgramFile { sha256, path })
                })
                .collect(),
            program: Some(program_identity_with(bot, &mut hash_of)),
            ready: None,
        })
        .collect()
}

/// One warning per bot whose recorded files changed or went missing.
pub fn changed_programs(recorded: &[BotIdentity], now: &[BotIdentity]) -> Vec<String> {
    recorded
        .iter()
        .filter_map(|before| {
            let after = now.iter().find(|n| n.bot == before.bot)?;
            let changed: Vec<String> = before
                .files
                .iter()
                .filter(|f| !after.files.contains(f))
                .map(|f| f.path.display().to_string())
                .collect();
            (!changed.is_empty()).then(|| {
                format!(
                    "warning: bot {:?}: {} changed since the games already played (SHA-256 differs or the file is gone); old and new games come from different programs",
                    before.bot,
                    changed.join(", ")
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_and_interpreters_are_hashed_and_changes_warned_about() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("bot.py");
        std::fs::write(&script, "print('v1')\n").unwrap();
        let mut bot = BotSpec::from_command_line("b", "sh bot.py --depth 3").unwrap();
        bot.cwd = Some(dir.path().to_path_buf());
        let files = program_files(&bot);
        assert_eq!(files.len(), 2, "{files:?}");
        assert!(files[0].ends_with("sh"));
        assert_eq!(files[1], script);

        let before = identify(std::slice::from_ref(&bot));
        assert_eq!(before[0].files[1].sha256, sha256_hex(b"print('v1')\n"));
        assert!(changed_programs(&before, &identify(std::slice::from_ref(&bot))).is_empty());
        std::fs::write(&script, "print('v2')\n").unwrap();
        let warnings = changed_programs(&before, &identify(std::slice::from_ref(&bot)));
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("bot.py changed"), "{warnings:?}");
    }

    /// The identity follows the files' contents and the flags, not where
    /// the files are.
    #[test]
    fn a_program_is_its_files_and_flags_wherever_it_lies() {
        let bot_in = |dir: &Path, line: &str, text: &str| {
            std::fs::write(dir.join("bot.py"), text).unwrap();
            let mut bot = BotSpec::from_command_line("b", line).unwrap();
            bot.cwd = Some(dir.to_path_buf());
            program_identity(&bot)
        };
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let v1 = bot_in(a.path(), "sh bot.py", "echo 1\n");
        assert_eq!(bot_in(b.path(), "sh bot.py", "echo 1\n"), v1, "moved");
        assert_ne!(
            bot_in(b.path(), "sh bot.py --delay", "echo 1\n"),
            v1,
            "a flag"
        );
        assert_ne!(bot_in(b.path(), "sh bot.py", "echo 2\n"), v1, "an edit");
    }

    /// A run of an older arena recorded its files but not the identity:
    /// computed from what it recorded, it is the identity the run had,
    /// whatever the files are now.
    #[test]
    fn the_identity_of_recorded_files_is_the_identity_then() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bot.py"), "echo 1\n").unwrap();
        let mut bot = BotSpec::from_command_line("b", "sh bot.py --depth 3").unwrap();
        bot.cwd = Some(dir.path().to_path_buf());
        let mut recorded = identify(std::slice::from_ref(&bot));
        let then = recorded[0].program.take().unwrap();
        assert_eq!(recorded_program(&bot, &recorded).as_deref(), Some(&*then));
        std::fs::write(dir.path().join("bot.py"), "echo 2\n").unwrap();
        assert_eq!(recorded_program(&bot, &recorded).as_deref(), Some(&*then));
        assert_ne!(program_identity(&bot), then);
        assert_eq!(recorded_program(&bot, &[]), None);
    }
}
