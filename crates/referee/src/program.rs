//! Whether a bot's program can start at all, asked before any game by
//! every command (`tournament` and its `--resume`, `sprt`, `play`,
//! `check-bot`): a directory that does not exist, a program that is
//! missing, not executable or not a valid executable is one error naming
//! the bot, the path and the fix, instead of a column of lost `startup`
//! games. A program that exists but fails when it starts (crashes, never
//! says `ready`) is still the bot's `startup` loss, game by game.

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::spec::BotSpec;

/// Why `bot` cannot start as configured, or `None` when its program is
/// there to run (which says nothing about how it behaves then).
pub fn program_problem(bot: &BotSpec) -> Option<String> {
    let name = &bot.name;
    if let Some(cwd) = &bot.cwd {
        if !cwd.is_dir() {
            return Some(format!(
                "bot {name:?}: field `cwd`: {} is not an existing directory",
                cwd.display()
            ));
        }
    }
    if bot.shell {
        // `sh -c LINE`: the shell reports what the line needs.
        return None;
    }
    let program = bot.command.first()?;
    let search = search_path(bot);
    let path = match locate(bot, program, &search) {
        Ok(path) => path,
        Err(problem) => return Some(format!("bot {name:?}: {problem}")),
    };
    runnable(&path, program, &search)
        .err()
        .map(|problem| format!("bot {name:?}: {problem}"))
}

/// The `PATH` the bot's program is looked up on: its own (`env`), else
/// arena's, as the child will have it.
fn search_path(bot: &BotSpec) -> std::ffi::OsString {
    bot.env
        .get("PATH")
        .map(Into::into)
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default()
}

/// The first executable file called `program` in the directories of `search`.
fn on_path(program: &str, search: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(search)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file() && is_executable(path))
}

/// The file `program` names: a path (relative to the bot's directory), or
/// a bare name looked up on `search`, the bot's `PATH`.
fn locate(bot: &BotSpec, program: &str, search: &std::ffi::OsStr) -> Result<PathBuf, String> {
    if program.contains('/') {
        // A bot without a directory runs in arena's.
        let dir = bot
            .cwd
            .clone()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let path: PathBuf = dir
            .join(program)
            .components()
            .filter(|c| !matches!(c, std::path::Component::CurDir))
            .collect();
        if !path.exists() {
            return Err(format!(
                "program {program:?} not found: {} does not exist (check the path in `command`; it is relative to the bot's directory, {})",
                path.display(),
                dir.display()
            ));
        }
        return Ok(path);
    }
    on_path(program, search).ok_or_else(|| {
        format!(
            "program {program:?} not found on PATH: check its spelling, install it, or give its path (e.g. \"./{program}\")"
        )
    })
}

/// `Err` when the file at `path` cannot be executed: a directory, no
/// execute permission, or neither a binary (ELF) nor a `#!` script whose
/// interpreter exists. `program` is the word as the command gave it.
fn runnable(path: &Path, program: &str, search: &std::ffi::OsStr) -> Result<(), String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("program {program:?} cannot be read: {e}"))?;
    if meta.is_dir() {
        return Err(format!(
            "field `command`: {program:?} is a directory, not a program"
        ));
    }
    let through_interpreter =
        format!("run it through its interpreter, e.g. [\"python3\", {program:?}]");
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(format!(
            "field `command`: {program:?} is not executable (chmod +x {program}, or {through_interpreter})"
        ));
    }
    let mut head = [0u8; 256];
    let read = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(|e| format!("program {program:?} cannot be read: {e}"))?;
    let head = &head[..read];
    if head.starts_with(b"\x7fELF") {
        return Ok(());
    }
    let Some(line) = head.strip_prefix(b"#!") else {
        return Err(format!(
            "field `command`: {program:?} is not a valid executable (neither a program nor a script starting with #!): add a #! line, or {through_interpreter}"
        ));
    };
    interpreter_problem(line, program, search)
}

/// `Err` when the `#!` line (after `#!`) names an interpreter that is not
/// there, including the program of `#!/usr/bin/env PROGRAM`.
fn interpreter_problem(line: &[u8], program: &str, search: &std::ffi::OsStr) -> Result<(), String> {
    let line = line.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let Some(interpreter) = words.next() else {
        return Err(format!(
            "field `command`: {program:?} starts with an empty #! line"
        ));
    };
    let missing = |what: &str| {
        format!("field `command`: {program:?} is a script for {what}, which is not installed here (its #! line: #!{})", line.trim())
    };
    if !Path::new(interpreter).is_file() {
        return Err(missing(interpreter));
    }
    if Path::new(interpreter).file_name() == Some("env".as_ref()) {
        let target = words.find(|w| !w.starts_with('-'));
        if let Some(target) = target.filter(|t| !t.contains('=')) {
            if on_path(target, search).is_none() && !Path::new(target).is_file() {
                return Err(missing(target));
            }
        }
    }
    Ok(())
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bot_in(dir: &Path, command: &str) -> BotSpec {
        let mut bot = BotSpec::from_command_line("b", command).unwrap();
        bot.cwd = Some(dir.to_path_buf());
        bot
    }

    fn write(dir: &Path, name: &str, text: &str, mode: u32) {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn programs_that_can_start_pass() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "ok.sh", "#!/bin/sh\necho\n", 0o755);
        for command in ["./ok.sh", "sh -c true", "/bin/sh"] {
            assert_eq!(
                program_problem(&bot_in(dir.path(), command)),
                None,
                "{command}"
            );
        }
        let mut shell = bot_in(dir.path(), "no-such-program | tee x");
        shell.shell = true;
        assert_eq!(program_problem(&shell), None);
    }

    #[test]
    fn each_problem_names_the_bot_the_path_and_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "plain.py", "print('hi')\n", 0o644);
        write(dir.path(), "noshebang.py", "print('hi')\n", 0o755);
        write(
            dir.path(),
            "python4.py",
            "#!/usr/bin/env python4-nowhere\n",
            0o755,
        );
        write(dir.path(), "gone.sh", "#!/no/such/interpreter\n", 0o755);
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let cases = [
            (
                "./missing",
                "not found: ",
                "relative to the bot's directory",
            ),
            (
                "definitely-not-a-program-xyz",
                "not found on PATH",
                "give its path",
            ),
            ("./plain.py", "is not executable", "chmod +x ./plain.py"),
            (
                "./noshebang.py",
                "is not a valid executable",
                "add a #! line",
            ),
            (
                "./python4.py",
                "script for python4-nowhere",
                "not installed",
            ),
            (
                "./gone.sh",
                "script for /no/such/interpreter",
                "#!/no/such/interpreter",
            ),
            ("./sub", "is a directory", "not a program"),
        ];
        for (command, what, fix) in cases {
            let problem = program_problem(&bot_in(dir.path(), command))
                .unwrap_or_else(|| panic!("{command} passed"));
            assert!(problem.starts_with("bot \"b\": "), "{problem}");
            assert!(problem.contains(what) && problem.contains(fix), "{problem}");
        }
        let mut elsewhere = bot_in(dir.path(), "./plain.py");
        elsewhere.cwd = Some(dir.path().join("nowhere"));
        let problem = program_problem(&elsewhere).unwrap();
        assert!(problem.contains("field `cwd`"), "{problem}");
    }
}
