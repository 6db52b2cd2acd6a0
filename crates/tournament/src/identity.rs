//! Which program each bot was: the SHA-256 of its program file (`argv[0]`,
//! resolved against the bot's directory or `PATH`) and of every other
//! argument that names an existing regular file (so `python3 bot.py` hashes
//! both the interpreter and the script). `tournament.json` records them; on
//! `--resume` a bot whose files changed since is warned about, since the
//! games already played were played by another program.

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
    if bot.shell {
        return Vec::new();
    }
    let cwd = bot.cwd.as_deref().unwrap_or(Path::new("."));
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    let mut files = Vec::new();
    for (i, word) in bot.command.iter().enumerate() {
        let found = if i == 0 && !word.contains('/') {
            std::env::split_paths(&path_var)
                .map(|dir| dir.join(word))
                .find(|p| p.is_file())
        } else {
            Some(cwd.join(word)).filter(|p| p.is_file())
        };
        files.extend(found);
    }
    files
}

/// Hashes every file of every bot (a file that cannot be read is left out).
/// A file several bots share (the same engine with other options, the same
/// interpreter) is read and hashed once: hashing a large binary takes
/// milliseconds.
pub fn identify(bots: &[BotSpec]) -> Vec<BotIdentity> {
    let mut hashed: HashMap<PathBuf, Option<String>> = HashMap::new();
    bots.iter()
        .map(|bot| BotIdentity {
            bot: bot.name.clone(),
            files: program_files(bot)
                .into_iter()
                .filter_map(|path| {
                    let sha256 = hashed
                        .entry(path.clone())
                        .or_insert_with(|| std::fs::read(&path).ok().map(|b| sha256_hex(&b)))
                        .clone()?;
                    Some(ProgramFile { sha256, path })
                })
                .collect(),
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
        let warnings = changed_programs(&before, &identify(&[bot]));
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("bot.py changed"), "{warnings:?}");
    }
}
