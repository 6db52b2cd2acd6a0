//! Checks before the first game that each bot's program can be found, so a
//! typo in a command is reported once at the start instead of showing up
//! only as a column of lost `startup` games; and that the sandbox works for
//! every sandboxed bot, since a sandbox that cannot start is the machine's
//! failure, not the bot's.

use std::path::{Path, PathBuf};

use crate::referee::sandbox::{check_available, Sandbox};
use crate::referee::BotSpec;

/// `Err` (stop before the first game) when a bot runs in the sandbox and
/// `bwrap` is missing or unusable, or its `writable` paths or directory do
/// not fit (a missing path, a directory inside the output directory `out`).
pub fn check_sandbox(bots: &[BotSpec], out: &Path) -> anyhow::Result<()> {
    let sandboxed: Vec<&BotSpec> = bots.iter().filter(|b| b.sandbox == Some(true)).collect();
    if sandboxed.is_empty() {
        return Ok(());
    }
    check_available()?;
    for bot in sandboxed {
        Sandbox::for_bot(bot, &[out.to_path_buf()])?;
    }
    Ok(())
}

/// One warning per bot whose program is neither an existing path (relative
/// to the bot's `cwd`) nor found on `PATH`. The tournament still runs: the
/// bot loses its games with reason `startup`, as the rules say.
pub fn missing_programs(bots: &[BotSpec]) -> Vec<String> {
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    let search: Vec<PathBuf> = std::env::split_paths(&path_var).collect();
    bots.iter()
        .filter(|bot| !bot.shell)
        .filter_map(|bot| {
            let program = bot.command.first()?;
            let found = if program.contains('/') {
                let cwd = bot.cwd.as_deref().unwrap_or(Path::new("."));
                cwd.join(program).is_file()
            } else {
                search.iter().any(|dir| dir.join(program).is_file())
            };
            (!found).then(|| {
                format!(
                    "warning: bot {:?}: program {program:?} not found; its games will be lost as startup failures",
                    bot.name
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_only_programs_that_cannot_be_found() {
        let mut relative = BotSpec::from_command_line("rel", "./bot.py").unwrap();
        relative.cwd = Some(PathBuf::from("/nonexistent-dir"));
        let bots = [
            BotSpec::from_command_line("sh", "sh -c true").unwrap(),
            BotSpec::from_command_line("abs", "/bin/sh").unwrap(),
            BotSpec::from_command_line("typo", "definitely-not-a-program-xyz").unwrap(),
            relative,
        ];
        let warnings = missing_programs(&bots);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(warnings[0].contains("\"typo\""));
        assert!(warnings[1].contains("\"rel\""));
    }

    #[test]
    fn sandbox_settings_that_cannot_work_stop_the_run() {
        let tmp = tempfile::tempdir().unwrap();
        let mut bot = BotSpec::from_command_line("b", "prog").unwrap();
        bot.cwd = Some(tmp.path().to_path_buf());
        bot.writable = vec!["missing".into()];
        // Not sandboxed: its sandbox settings do not matter.
        check_sandbox(std::slice::from_ref(&bot), tmp.path()).unwrap();
        bot.sandbox = Some(true);
        let err = format!(
            "{:#}",
            check_sandbox(&[bot], Path::new("/nonexistent")).unwrap_err()
        );
        assert!(err.contains("bwrap") || err.contains("writable"), "{err}");
    }
}
