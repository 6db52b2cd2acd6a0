//! Failures that repeat, counted instead of shown game after game: a bot
//! that fails the same way in every game (a script gone, a module it
//! cannot import) would otherwise fill the terminal with one identical
//! message per game. [`Repeats::note`] says whether a finished game shows
//! something new (a bot failing in a way not seen before): the first game
//! of each bot and cause is shown in full (of the first [`SHOWN`] bots and
//! causes: a field of 500 bots that all fail shows 20), the later ones are
//! only counted, and [`Repeats::summary`] gives one line per bot and cause
//! with its count, at most [`SUMMARY_LINES`] whatever the field. Bots
//! disabled after start-up failures are said alike: the first
//! [`DISABLED_SHOWN`] as it happens, the others named (a few) in the
//! summary. Every game keeps its own full message in `games.jsonl`.
//!
//! A cause is what the failure says: the bot's first line on stderr when
//! the message quotes it (or its last line, when a crash quotes that),
//! else the message with its numbers left out (a timeout "after 633 ms"
//! and one "after 641 ms" are the same cause); a disabled bot's games
//! are one cause.

use std::collections::HashMap;

use arena_referee::seat::FIRST_STDERR_LINE;
use arena_referee::GameRecord;
use arena_rules::protocol::Reason;

/// The most lines [`Repeats::summary`] gives (the last one saying how many
/// more there were).
pub const SUMMARY_LINES: usize = 12;

/// The longest cause quoted, in characters.
const CAUSE_CHARS: usize = 120;

/// The bots and causes whose first failure is shown in full.
pub const SHOWN: usize = 20;

/// The disabled bots said as they are disabled.
pub const DISABLED_SHOWN: usize = 5;

/// The bots disabled later that the summary names.
const DISABLED_NAMED: usize = 8;

/// A bot, its failure reason and the cause, as the counts are kept.
type Key = (String, Reason, String);

#[derive(Debug, Clone)]
struct Seen {
    count: u64,
    /// The game it was first seen in (`g0`).
    first: String,
    /// The cause as first quoted.
    cause: String,
    /// Its first game was shown in full.
    shown: bool,
}

/// The failures of a run so far, per bot and cause.
#[derive(Debug, Default, Clone)]
pub struct Repeats {
    seen: HashMap<Key, Seen>,
    /// Bots disabled, in order.
    disabled: Vec<String>,
}

impl Repeats {
    pub fn new() -> Repeats {
        Repeats::default()
    }

    /// Counts the failures that ended `record`; `true` when the game shows
    /// something new (a rules ending, or a bot failing in a way not seen
    /// before), `false` when each of its failures was seen already.
    pub fn note(&mut self, record: &GameRecord) -> bool {
        let sides = record.failed_sides();
        let mut new = sides.is_empty();
        for color in sides {
            let bot = match color {
                arena_rules::games::Color::White => &record.white,
                arena_rules::games::Color::Black => &record.black,
            };
            let (key_cause, cause) = cause_of(record.failure_message(color));
            let room = self.seen.len() < SHOWN;
            let seen = self
                .seen
                .entry((bot.clone(), record.reason, key_cause))
                .or_insert_with(|| {
                    new |= room;
                    Seen {
                        count: 0,
                        first: record.game_id.clone(),
                        cause,
                        shown: room,
                    }
                });
            seen.count += 1;
        }
        new
    }

    /// Counts bot `name` disabled; `true` when it is said now (one of the
    /// first [`DISABLED_SHOWN`]), else the summary names it.
    pub fn note_disabled(&mut self, name: &str) -> bool {
        self.disabled.push(name.to_string());
        self.disabled.len() <= DISABLED_SHOWN
    }

    /// One line per bot and cause seen in more than one game, the most
    /// frequent first (`bot "x": 37 startup failures ("Can't open perl
    /// script ..."), the first in g0`), at most [`SUMMARY_LINES`] in all;
    /// none when nothing repeated.
    pub fn summary(&self) -> Vec<String> {
        let mut repeated: Vec<(&Key, &Seen)> = self
            .seen
            .iter()
            .filter(|(_, seen)| seen.count > 1 || !seen.shown)
            .collect();
        repeated.sort_by(|a, b| {
            (b.1.count, &a.0 .0, &a.1.first).cmp(&(a.1.count, &b.0 .0, &b.1.first))
        });
        let room = SUMMARY_LINES - usize::from(self.disabled.len() > DISABLED_SHOWN);
        let shown = if repeated.len() > room {
            room - 1
        } else {
            repeated.len()
        };
        let mut lines: Vec<String> = repeated[..shown]
            .iter()
            .map(|((bot, reason, _), seen)| {
                format!(
                    "bot {bot:?}: {} {reason} failures ({:?}), the first in {}",
                    seen.count, seen.cause, seen.first
                )
            })
            .collect();
        if shown < repeated.len() {
            let rest = &repeated[shown..];
            let games: u64 = rest.iter().map(|(_, seen)| seen.count).sum();
            lines.push(format!(
                "and {} more bots or causes repeated, in {games} games (each game's message: games.jsonl)",
                rest.len()
            ));
        }
        if let Some(later) = self
            .disabled
            .get(DISABLED_SHOWN..)
            .filter(|l| !l.is_empty())
        {
            let mut named: Vec<String> = later
                .iter()
                .take(DISABLED_NAMED)
                .map(|n| format!("{n:?}"))
                .collect();
            if later.len() > DISABLED_NAMED {
                named.push(format!("and {} more", later.len() - DISABLED_NAMED));
            }
            lines.push(format!(
                "{} more bots disabled after start-up failures in a row: {}",
                later.len(),
                named.join(", ")
            ));
        }
        lines
    }
}

/// The cause a failure's `message` counts under, and as it is quoted.
pub(crate) fn cause_of(message: &str) -> (String, String) {
    if message.starts_with("not started: ") {
        let cause = "not started: disabled after start-up failures".to_string();
        return (cause.clone(), cause);
    }
    let quoted = [FIRST_STDERR_LINE, "; last stderr line: "]
        .iter()
        .find_map(|marker| message.split_once(marker).map(|(_, line)| line));
    let cause = quoted.unwrap_or(message);
    let shown: String = cause.chars().take(CAUSE_CHARS).collect();
    let key: String = cause.chars().filter(|c| !c.is_ascii_digit()).collect();
    (key, shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::record::record_with_result;
    use arena_rules::games::GameResult;
    use arena_rules::protocol::FailureReason;

    fn failed(
        id: u64,
        white: &str,
        black: &str,
        message: &str,
        reason: FailureReason,
    ) -> GameRecord {
        let mut record = record_with_result(id, id / 2, white, black, GameResult::BlackWins);
        record.reason = Reason::Failure(reason);
        record.message = format!("white ({white}): {message}");
        record
    }

    #[test]
    fn a_repeated_failure_is_shown_once_and_counted() {
        let mut repeats = Repeats::new();
        let perl = "failed before ready: process ended: exit code 2; last stderr line: Can't open perl script \"x.pl\"";
        assert!(repeats.note(&failed(0, "me", "b", perl, FailureReason::Startup)));
        assert!(!repeats.note(&failed(1, "me", "c", perl, FailureReason::Startup)));
        assert!(!repeats.note(&failed(2, "me", "d", perl, FailureReason::Startup)));
        // Another bot, another cause, a rules ending: each new.
        assert!(repeats.note(&failed(3, "b", "me", perl, FailureReason::Startup)));
        assert!(repeats.note(&failed(
            4,
            "me",
            "b",
            "answered after 633 ms",
            FailureReason::Timeout
        )));
        assert!(!repeats.note(&failed(
            5,
            "me",
            "b",
            "answered after 641 ms",
            FailureReason::Timeout
        )));
        assert!(repeats.note(&record_with_result(6, 3, "me", "b", GameResult::WhiteWins)));
        assert_eq!(
            repeats.summary(),
            [
                "bot \"me\": 3 startup failures (\"Can't open perl script \\\"x.pl\\\"\"), the first in g0",
                "bot \"me\": 2 timeout failures (\"answered after 633 ms\"), the first in g4",
            ]
        );
    }

    #[test]
    fn both_sides_of_a_game_nobody_played_count_and_the_summary_is_bounded() {
        let mut repeats = Repeats::new();
        for id in 0..2 * 500u64 {
            let (white, black) = (format!("w{}", id % 500), format!("b{}", id % 500));
            let mut record = record_with_result(id, id / 2, &white, &black, GameResult::Draw);
            record.reason = Reason::Failure(FailureReason::Startup);
            record.played = false;
            record.message = format!(
                "both failed: white ({white}): x{FIRST_STDERR_LINE}gone; black ({black}): y{FIRST_STDERR_LINE}lost"
            );
            // Both sides new, in the first ten games only.
            assert_eq!(repeats.note(&record), id < SHOWN as u64 / 2, "game {id}");
        }
        for i in 0..500 {
            assert_eq!(repeats.note_disabled(&format!("w{i}")), i < DISABLED_SHOWN);
        }
        let summary = repeats.summary();
        assert_eq!(summary.len(), SUMMARY_LINES);
        assert_eq!(
            summary[0],
            "bot \"b0\": 2 startup failures (\"lost\"), the first in g0"
        );
        assert_eq!(
            summary[SUMMARY_LINES - 2],
            "and 990 more bots or causes repeated, in 1980 games (each game's message: games.jsonl)"
        );
        assert_eq!(
            summary[SUMMARY_LINES - 1],
            "495 more bots disabled after start-up failures in a row: \"w5\", \"w6\", \"w7\", \"w8\", \"w9\", \"w10\", \"w11\", \"w12\", and 487 more"
        );
    }
}
