//! The start check: before a run's first game, each bot is started once
//! as in a game (its limits, its sandbox, `hello` and one `ready`), at most
//! `concurrency` at once, and ended again (`quit`). A bot that cannot
//! start stops the run before any game is recorded, with one error that
//! quotes what the bot itself wrote first on stderr ([`CannotStart`]),
//! instead of a `startup` loss in every one of its games whose cause is
//! only in a log file.
//!
//! The program check ([`arena_referee::program_problem`]) finds a program
//! that is missing; this finds what only starting it shows: a script
//! missing behind an interpreter (`perl bots/missing.pl`), a module it
//! cannot import, a bot that never answers `hello`. A bot gets two tries,
//! so that one start slowed by a busy machine does not stop the run; its
//! stderr goes to `logs/start-check-NAME.log` (created only when it writes
//! there, and kept only when the bot fails the check). The check runs on every run and every resume that has a game to
//! play (a bot may have been moved or fixed in between), and costs one
//! start of each bot, `concurrency` at a time. A failure of arena itself
//! (out of descriptors or processes) stops the run with that failure.

use std::fmt;
use std::path::{Path, PathBuf};

use tokio::task::JoinSet;

use arena_referee::game::file_safe;
use arena_referee::log::GameLog;
use arena_referee::seat::{StartError, FIRST_STDERR_LINE};
use arena_referee::{BotSpec, Seat, SpawnOptions};

/// Starts a bot gets before it fails the check.
const TRIES: u32 = 2;

/// The most bots that cannot start an error names after the first.
const MORE_NAMED: usize = 3;

/// One bot that could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartProblem {
    pub bot: String,
    /// Its command line, as it was run.
    pub command: String,
    /// The referee's account of the last try (without the quoted line).
    pub diagnosis: String,
    /// The first line the bot wrote on stderr, if any.
    pub stderr: Option<String>,
    /// The log of all it wrote on stderr, if it wrote anything.
    pub log: Option<PathBuf>,
}

impl StartProblem {
    /// `Can't open perl script "x.pl": ... (its first line on stderr;
    /// arena: failed before ready ...)`, or the diagnosis alone.
    fn cause(&self) -> String {
        match &self.stderr {
            Some(line) => format!(
                "{line} (its first line on stderr; arena: {})",
                self.diagnosis
            ),
            None => self.diagnosis.clone(),
        }
    }
}

/// The error of a run whose bots cannot start: the first one's cause and
/// the fix in one line, then how many more, the next few named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CannotStart {
    /// Every bot that failed, in the config's order (at least one).
    pub problems: Vec<StartProblem>,
}

impl fmt::Display for CannotStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some((first, more)) = self.problems.split_first() else {
            return write!(f, "every bot started");
        };
        let log = match &first.log {
            Some(path) => format!("; its stderr: {}", path.display()),
            None => String::new(),
        };
        write!(
            f,
            "bot {:?} cannot start: {}; its command is `{}`: fix it or what it needs, then run again (no game was played{log})",
            first.bot,
            first.cause(),
            first.command
        )?;
        if !more.is_empty() {
            let named: Vec<String> = more
                .iter()
                .take(MORE_NAMED)
                .map(|p| {
                    format!(
                        "{:?} ({})",
                        p.bot,
                        p.stderr.as_ref().unwrap_or(&p.diagnosis)
                    )
                })
                .collect();
            let rest = more.len().saturating_sub(MORE_NAMED);
            let others = if rest > 0 {
                format!(" and {rest} more")
            } else {
                String::new()
            };
            write!(
                f,
                "; {} more cannot start either: {}{others}",
                more.len(),
                named.join(", ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for CannotStart {}

/// Where a bot's stderr goes during the check.
pub fn log_path(log_dir: &Path, bot: &str) -> PathBuf {
    log_dir.join(format!("start-check-{}.log", file_safe(bot)))
}

/// Starts each of `bots` once (at most `concurrency` at a time; see the
/// module docs) and ends it. `Err` is a [`CannotStart`] when some bot
/// cannot start, or arena's own failure to start one.
pub async fn start_each_bot(
    bots: &[BotSpec],
    options: &SpawnOptions,
    log_dir: &Path,
    concurrency: usize,
) -> anyhow::Result<()> {
    let mut running = JoinSet::new();
    let mut problems: Vec<(usize, StartProblem)> = Vec::new();
    let mut next = bots.iter().enumerate();
    loop {
        while running.len() < concurrency.max(1) {
            let Some((index, spec)) = next.next() else {
                break;
            };
            let log = log_path(log_dir, &spec.name);
            running.spawn(try_starts(index, spec.clone(), options.clone(), log));
        }
        let Some(joined) = running.join_next().await else {
            break;
        };
        match joined {
            Ok(Ok(())) => {}
            Ok(Err(Tried::Bot(index, problem))) => problems.push((index, *problem)),
            Ok(Err(Tried::Referee(error))) => return Err(error),
            Err(error) => anyhow::bail!("the start check of a bot failed: {error}"),
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    problems.sort_by_key(|(index, _)| *index);
    let problems = problems.into_iter().map(|(_, problem)| problem).collect();
    Err(CannotStart { problems }.into())
}

/// Why a bot's tries failed: its own failure (with its index in the
/// config's list), or arena's.
enum Tried {
    Bot(usize, Box<StartProblem>),
    Referee(anyhow::Error),
}

/// Up to [`TRIES`] starts of `spec`, each ended at once when it answered.
async fn try_starts(
    index: usize,
    spec: BotSpec,
    options: SpawnOptions,
    log: PathBuf,
) -> Result<(), Tried> {
    let mut last = None;
    for _ in 0..TRIES {
        let mut seat = Seat::new(spec.clone(), options.clone());
        let header = "[arena: the start check before the first game]\n";
        match seat.prepare(Some(GameLog::new(&log, header))).await {
            Ok(()) => {
                seat.shutdown().await;
                // Kept only to explain a failure: logs/ holds games' logs.
                let _ = std::fs::remove_file(&log);
                return Ok(());
            }
            Err(StartError::Referee(failure)) => {
                return Err(Tried::Referee(anyhow::anyhow!(
                    "arena could not start bot {:?} to check it before the first game: {}",
                    spec.name,
                    failure.message
                )))
            }
            Err(StartError::Bot(failure)) => {
                let stderr = seat.failed_start_stderr().map(str::to_string);
                last = Some((failure.message, stderr));
            }
        }
    }
    let (message, stderr) = last.unwrap_or_default();
    Err(Tried::Bot(
        index,
        Box::new(StartProblem {
            bot: spec.name.clone(),
            command: spec.argv().join(" "),
            diagnosis: diagnosis(&message, stderr.as_deref()),
            stderr,
            log: log.exists().then_some(log),
        }),
    ))
}

/// `message` without the quotes of the bot's first stderr `line` (the
/// error quotes it first): the one the seat appended, and a crash's "last
/// stderr line" when it is the same line.
fn diagnosis(message: &str, line: Option<&str>) -> String {
    let Some(line) = line else {
        return message.to_string();
    };
    message
        .replace(&format!("{FIRST_STDERR_LINE}{line}"), "")
        .replace(&format!("; last stderr line: {line}"), "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(bot: &str, stderr: Option<&str>) -> StartProblem {
        StartProblem {
            bot: bot.into(),
            command: format!("perl bots/{bot}.pl"),
            diagnosis: "failed before ready: process ended: exit code 2".into(),
            stderr: stderr.map(str::to_string),
            log: None,
        }
    }

    #[test]
    fn the_error_quotes_the_first_bot_and_names_a_few_more() {
        let line = "Can't open perl script \"bots/me.pl\": No such file or directory";
        let mut one = CannotStart {
            problems: vec![problem("me", Some(line))],
        };
        assert_eq!(
            one.to_string(),
            format!(
                "bot \"me\" cannot start: {line} (its first line on stderr; arena: failed before \
                 ready: process ended: exit code 2); its command is `perl bots/me.pl`: fix it or \
                 what it needs, then run again (no game was played)"
            )
        );
        one.problems[0].log = Some("out/logs/start-check-me.log".into());
        assert!(
            one.to_string()
                .ends_with("(no game was played; its stderr: out/logs/start-check-me.log)"),
            "{one}"
        );
        let mut many = vec![problem("me", Some(line)), problem("b", None)];
        for name in ["c", "d", "e", "f"] {
            many.push(problem(name, Some("boom")));
        }
        let text = CannotStart { problems: many }.to_string();
        assert!(
            text.ends_with(
                "; 5 more cannot start either: \"b\" (failed before ready: process ended: exit \
                 code 2), \"c\" (boom), \"d\" (boom) and 2 more"
            ),
            "{text}"
        );
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn the_diagnosis_does_not_quote_the_line_twice() {
        let line = "Can't open perl script";
        let crash =
            format!("failed before ready: process ended: exit code 2; last stderr line: {line}");
        assert_eq!(
            diagnosis(&crash, Some(line)),
            "failed before ready: process ended: exit code 2"
        );
        let slow = format!("never answered hello{FIRST_STDERR_LINE}loading");
        assert_eq!(diagnosis(&slow, Some("loading")), "never answered hello");
        assert_eq!(
            diagnosis("never answered hello", None),
            "never answered hello"
        );
    }
}
