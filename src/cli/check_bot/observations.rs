//! What a compliance run saw, as plain data: gathered by
//! [`super::run`], judged by [`super::evaluate`]. Keeping the two apart lets
//! the judging be tested on made-up observations.

use std::path::PathBuf;

use crate::games::{Color, GameResult};
use crate::protocol::{FailureReason, Reason};
use crate::referee::ExitInfo;

/// Everything seen while checking one bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observations {
    /// The per-move limit the bot was told, and the allowance beyond it.
    pub move_ms: u64,
    pub grace_ms: u64,
    pub startup_limit_ms: u64,
    pub handshake: Handshake,
    /// Checked right after `ready`, before anything else was sent.
    pub after_ready: Option<IdleProblem>,
    pub unknown_type: UnknownType,
    pub games: Vec<GameSeen>,
    /// Total bytes written to stderr by every process of the bot.
    pub stderr_bytes: u64,
    /// How much of a game's stderr the referee keeps in its log file.
    pub log_cap: u64,
    pub quit: Quit,
    /// The last lines exchanged with the bot up to its first failure.
    pub wire_tail: Option<WireTail>,
}

/// The end of the wire trace where the bot first failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireTail {
    /// Where: "the handshake" or a game's label.
    pub when: String,
    pub lines: Vec<String>,
}

/// The first `hello`/`ready` exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handshake {
    Ready {
        ms: u64,
        name: String,
        author: Option<String>,
        version: Option<String>,
    },
    /// The referee's explanation (no answer, wrong version, bad line, ...).
    Failed(String),
}

/// Something a bot did while nothing was asked of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdleProblem {
    /// It wrote a line (quoted, shortened).
    Wrote(String),
    /// It wrote a line longer than the protocol allows.
    WroteTooLong,
    /// Its process ended or it closed its output (how, in words).
    Ended(String),
}

impl IdleProblem {
    pub fn describe(&self) -> String {
        match self {
            IdleProblem::Wrote(line) => format!("wrote a line nobody asked for: {line}"),
            IdleProblem::WroteTooLong => {
                "wrote a line nobody asked for, longer than 64 KiB".to_string()
            }
            IdleProblem::Ended(how) => how.clone(),
        }
    }
}

/// The message of a type the bot cannot know, sent before the first game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnknownType {
    /// Not sent (why: an earlier problem).
    NotSent(String),
    /// Sent, and the bot went on as if nothing happened.
    Ignored { line: String },
    /// Sent, and the bot reacted.
    Broke { line: String, problem: IdleProblem },
}

/// One game against the random mover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSeen {
    pub variant: &'static str,
    /// 1-based number of the game within its variant.
    pub number: u32,
    pub bot_color: Color,
    /// The result and the reason from the game record.
    pub result: GameResult,
    pub reason: Reason,
    pub plies: u32,
    /// How the bot failed, if it did: the reason and the referee's message.
    pub failure: Option<(FailureReason, String)>,
    /// Thinking time of each of the bot's answered moves, in ms.
    pub bot_move_times_ms: Vec<u64>,
    /// The bot's process had already played a game to its `game_over`
    /// without problems, so this game tested a reused process.
    pub reused_process: bool,
    /// The process that had finished the previous game cleanly turned out
    /// unusable for this one (it exited or wrote something late, after the
    /// watch), so the game runner started a new one.
    pub replaced_process: bool,
    /// Checked after `game_over` when the bot did not fail the game.
    pub after_game_over: Option<IdleProblem>,
    /// The bot's stderr log of this game, if it wrote any and logs were kept.
    pub log: Option<PathBuf>,
    /// Problems of the referee in this game (a log it could not write).
    pub warnings: Vec<String>,
}

impl GameSeen {
    /// `qango6 game 2 (bot as black)`: where something happened.
    pub fn label(&self) -> String {
        format!(
            "{} game {} (bot as {})",
            self.variant, self.number, self.bot_color
        )
    }

    /// The width of the widest [`label`](Self::label) among `games_per_variant`
    /// games of each of `variant_ids`: the label column of the games list.
    pub fn label_width(variant_ids: &[&str], games_per_variant: u32) -> usize {
        let id = variant_ids.iter().map(|v| v.len()).max().unwrap_or(0);
        let number = games_per_variant.max(1).to_string().len();
        id + " game ".len() + number + " (bot as white)".len()
    }

    /// One line for the running list of games, the label padded to
    /// `label_width` (from [`label_width`](Self::label_width)) so that the
    /// columns line up whatever the variant names.
    pub fn summary_line(&self, label_width: usize) -> String {
        let outcome = match self.bot_won() {
            Some(true) => "bot won",
            Some(false) => "bot lost",
            None => "draw",
        };
        let plies = match self.plies {
            1 => "1 ply".to_string(),
            n => format!("{n} plies"),
        };
        let mut line = format!(
            "{:<label_width$}  {:<7} {outcome:<8}  {:<14} {plies:>9}",
            self.label(),
            self.result,
            self.reason,
        );
        if let Some((_, message)) = &self.failure {
            line.push_str(&format!("  ({message})"));
            if let Some(log) = &self.log {
                line.push_str(&format!("  log: {}", log.display()));
            }
        }
        for warning in &self.warnings {
            line.push_str(&format!("  [arena warning: {warning}]"));
        }
        line
    }

    fn bot_won(&self) -> Option<bool> {
        self.result.winner().map(|winner| winner == self.bot_color)
    }
}

/// What happened when the bot was told to `quit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Quit {
    NotRun(String),
    /// Exited by itself `ms` after `quit` was written.
    Exited {
        ms: u64,
        exit: ExitInfo,
    },
    /// Ignored `quit`, but exited once its stdin was closed.
    ExitedOnEof {
        exit: ExitInfo,
    },
    /// Neither: the referee killed it.
    Killed {
        exit: ExitInfo,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: &'static str, number: u32, color: Color) -> GameSeen {
        GameSeen {
            variant,
            number,
            bot_color: color,
            result: GameResult::WhiteWins,
            reason: Reason::Rule(crate::games::RuleReason::Line),
            plies: 17,
            failure: None,
            bot_move_times_ms: Vec::new(),
            reused_process: false,
            replaced_process: false,
            after_game_over: None,
            log: None,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn the_games_list_lines_up_for_every_variant_name() {
        let ids: Vec<&str> = crate::games::Variant::ids();
        let width = GameSeen::label_width(&ids, 12);
        let lines: Vec<String> = crate::games::Variant::all()
            .iter()
            .flat_map(|v| [game(v.id, 1, Color::White), game(v.id, 12, Color::Black)])
            .map(|g| g.summary_line(width))
            .collect();
        let column = |line: &String| line.find("1-0").expect("the result column");
        let first = column(&lines[0]);
        for line in &lines {
            assert_eq!(column(line), first, "misaligned:\n{}", lines.join("\n"));
            assert_eq!(line.len(), lines[0].len(), "{line}");
        }
    }
}
