//! The record of one finished game, as written by `arena play --record` and
//! kept by tournaments: a line of `games.jsonl`, the journal, from which the
//! game's `games.csv` row is derived ([`GameRecord::to_games_row`]). Its
//! `game` and `moves` fields are what `arena judge` replays; its place in the
//! schedule (`game_id` `gN`, `round`, `pair`) is set by the tournament;
//! everything else is the referee's account of the game.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::clock::format_time_control;
use super::game_id::{game_id, parse_game_id};
use super::row::GameRow;
use arena_rules::games::Color;
use arena_rules::protocol::{ClockBasis, GameResult, Ready, Reason, TimeControl};

/// What is wrong with a journal line of a record without a place.
pub const NO_PLACE: &str =
    "the record has no place in a schedule (a \"game_id\" gN, N the game's number)";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's id, as the bots were told it (the protocol's `game_id`):
    /// in a tournament `gN`, N the game's number in the schedule (unique
    /// within the tournament, 0-based; see [`crate::game_id`]); another
    /// name for a game that has no place (`play` for `arena play
    /// --record`). Serialized first with the rest of the place, so a
    /// journal line starts `{"game_id":"g7","round":0,"pair":3,`. Journals
    /// of older versions also hold the number as `"id":7`, which is read
    /// past (the number is the id's).
    pub game_id: String,
    /// The game's round-robin cycle and game pair, set by the tournament
    /// with its id ([`GameRecord::set_place`]). Absent in a record that
    /// has no place (`arena play --record`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<u64>,
    /// Variant id, e.g. `qango6` (the field `arena judge` reads).
    pub game: String,
    /// Names of the two players.
    pub white: String,
    pub black: String,
    /// The game's time control: the tournament's (each side's own is below).
    pub time_control: TimeControl,
    /// Each side's own time control, which differs from `time_control`
    /// when a bot has time odds. Absent in records written before arena
    /// recorded it (both sides then played `time_control`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_time_control: Option<TimeControl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_time_control: Option<TimeControl>,
    /// Moves forced before the bots played; also the first moves of `moves`.
    pub opening: Vec<String>,
    /// Every move of the game in notation, opening included.
    pub moves: Vec<String>,
    /// An adjudicated game (reason `adjudicated`): the continuation of
    /// perfect play the solver proved from the last position of `moves`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proven_line: Vec<String>,
    /// What the clocks counted: `cpu` (CPU time) or, when absent, wall time.
    #[serde(default, skip_serializing_if = "ClockBasis::is_wall")]
    pub clock: ClockBasis,
    /// Thinking time of each move in `moves`, in ms (0 for opening moves):
    /// wall time from writing the turn to reading the move.
    pub move_times_ms: Vec<u64>,
    /// CPU time (user + system, all threads of the bot's process) of each
    /// move in `moves` over the same span, in ms; 0 for opening moves,
    /// `null` where not measured (a person, an in-process player). Absent
    /// in records written before arena measured it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_cpu_ms: Vec<Option<u64>>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: GameResult,
    /// `null` for a draw.
    pub winner: Option<Color>,
    /// `false` for a game neither bot played: both failed to start (reason
    /// `startup`, the message says why each failed). Its result stays
    /// `1/2-1/2` for older readers, but it enters no rating: no Elo, no
    /// points, no SPRT pair (see [`GameRecord::played`]). Absent (`true`)
    /// for every other game, and in records written before arena recorded
    /// it.
    #[serde(default = "played_default", skip_serializing_if = "is_played")]
    pub played: bool,
    /// A rules reason (`group`, `square`, `line`, `full`, ...) or a failure
    /// reason (`timeout`, `illegal_move`, `crash`, ...).
    pub reason: Reason,
    /// What happened in words: the winning pattern, the rules engine's
    /// explanation of an illegal move, a crash's exit status, ...
    pub message: String,
    /// Winning cells for a pattern win, else empty.
    pub cells: Vec<String>,
    pub plies: u32,
    /// Total thinking time of each side, in ms.
    pub white_time_ms: u64,
    pub black_time_ms: u64,
    /// The bots' stderr log files of this game. Absent when there is none:
    /// the bot wrote nothing to stderr during the game (a file is created
    /// on its first byte), logging was off, or the file could not be written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_log: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_log: Option<PathBuf>,
    /// When a bot's log file could not be created or written: the end of
    /// what it wrote to stderr in this game (up to 64 KiB). Else absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_log_tail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_log_tail: Option<String>,
    /// Problems of the referee itself that did not change the game (a log
    /// file that could not be written, and why). Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The bots' wire traces for this game (absent when not traced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_trace: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_trace: Option<PathBuf>,
    /// What each bot said about itself in `ready` (name, version, author,
    /// protocol); absent for a player that is no bot or never got ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_ready: Option<Ready>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_ready: Option<Ready>,
    /// Wall-clock duration of the whole game, startup included, in ms.
    pub duration_ms: u64,
    /// When the game ended, UTC, RFC 3339 (see [`arena_files::utc_rfc3339`]);
    /// empty in records written before arena recorded it.
    #[serde(default)]
    pub ended_utc: String,
}

fn played_default() -> bool {
    true
}

fn is_played(played: &bool) -> bool {
    *played
}

impl GameRecord {
    /// The loser, if a side lost.
    pub fn loser(&self) -> Option<Color> {
        self.winner.map(Color::opponent)
    }

    /// The sides whose failure ended the game: the loser of a failure,
    /// both sides of a game neither played, none for a rules ending.
    pub fn failed_sides(&self) -> Vec<Color> {
        if self.reason.failure().is_none() {
            return Vec::new();
        }
        match self.winner {
            Some(winner) => vec![winner.opponent()],
            None if !self.played => vec![Color::White, Color::Black],
            None => Vec::new(),
        }
    }

    /// What the message says of `color`'s failure: after `white (NAME): `
    /// (up to black's part when both failed), the whole message when it
    /// names no side.
    pub fn failure_message(&self, color: Color) -> &str {
        let name = match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        };
        let message = self.message.as_str();
        let prefix = format!("{color} ({name}): ");
        let Some(at) = message.find(&prefix) else {
            return message;
        };
        let rest = &message[at + prefix.len()..];
        // Both failed: white's part ends where black's begins.
        let black = format!("; black ({}): ", self.black);
        match (color, rest.find(&black)) {
            (Color::White, Some(end)) => &rest[..end],
            _ => rest,
        }
    }

    /// The time control `color` played under.
    pub fn time_control_of(&self, color: Color) -> TimeControl {
        match color {
            Color::White => self.white_time_control,
            Color::Black => self.black_time_control,
        }
        .unwrap_or(self.time_control)
    }

    /// Puts the game at its place in a schedule (game number `id`, so
    /// `game_id` `g{id}`, of `round`, in game pair `pair`).
    pub fn set_place(&mut self, id: u64, round: u64, pair: u64) {
        self.game_id = game_id(id);
        (self.round, self.pair) = (Some(round), Some(pair));
    }

    /// The game's number in its schedule: that of a `gN` id; `None` for a
    /// record without a place.
    pub fn number(&self) -> Option<u64> {
        parse_game_id(&self.game_id)
    }

    /// The `games.csv` row of this game: everything a row holds comes from
    /// the record, its id, `round` and `pair` from the record's place (0
    /// where the record has none, so readers of the journal check
    /// [`GameRecord::number`]).
    pub fn to_games_row(&self) -> GameRow {
        GameRow {
            id: self.number().unwrap_or(0),
            round: self.round.unwrap_or(0),
            pair: self.pair.unwrap_or(0),
            variant: self.game.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            opening: self.opening.join(" "),
            result: self.result,
            reason: self.reason,
            plies: self.plies,
            white_time_ms: self.white_time_ms,
            black_time_ms: self.black_time_ms,
            ended_utc: self.ended_utc.clone(),
            white_tc: format_time_control(&self.time_control_of(Color::White)),
            black_tc: format_time_control(&self.time_control_of(Color::Black)),
            played: self.played,
        }
    }
}

/// What a record says of its `games.csv` row, read from a `games.jsonl`
/// line without the rest of the record (moves, move times, messages, logs,
/// `ready` answers, which serde skips without building them): resume and
/// `arena merge` read this of every record. The fields are the record's
/// own, by name; a test holds it to [`GameRecord::to_games_row`].
#[derive(Deserialize)]
struct RowOfRecord {
    #[serde(default)]
    game_id: Option<String>,
    /// The number as journals of older versions also wrote it.
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    round: Option<u64>,
    #[serde(default)]
    pair: Option<u64>,
    game: String,
    white: String,
    black: String,
    time_control: TimeControl,
    #[serde(default)]
    white_time_control: Option<TimeControl>,
    #[serde(default)]
    black_time_control: Option<TimeControl>,
    opening: Vec<String>,
    result: GameResult,
    reason: Reason,
    plies: u32,
    white_time_ms: u64,
    black_time_ms: u64,
    #[serde(default)]
    ended_utc: String,
    #[serde(default = "played_default")]
    played: bool,
}

/// The place (the number of its `gN` `game_id`) and `games.csv` row of the
/// record on `line` of a journal; `Err` when the line is not a record, or
/// one without a place. A line of an older journal, with `"id":N` besides
/// the `game_id`, or only `"id":N`, is read alike.
pub fn row_of_record_line(line: &[u8]) -> Result<(u64, GameRow), String> {
    let r: RowOfRecord =
        serde_json::from_slice(line).map_err(|e| format!("not a game record: {e}"))?;
    let id = match (r.game_id.as_deref(), r.id) {
        (Some(text), _) if parse_game_id(text).is_some() => parse_game_id(text),
        (_, id) => id,
    }
    .ok_or(NO_PLACE)?;
    let tc = |own: Option<TimeControl>| format_time_control(&own.unwrap_or(r.time_control));
    let row = GameRow {
        id,
        round: r.round.unwrap_or(0),
        pair: r.pair.unwrap_or(0),
        white_tc: tc(r.white_time_control),
        black_tc: tc(r.black_time_control),
        variant: r.game,
        white: r.white,
        black: r.black,
        opening: r.opening.join(" "),
        result: r.result,
        reason: r.reason,
        plies: r.plies,
        white_time_ms: r.white_time_ms,
        black_time_ms: r.black_time_ms,
        ended_utc: r.ended_utc,
        played: r.played,
    };
    Ok((id, row))
}

/// A finished `qango6` game at place (`id`, round 0, `pair`) between `white`
/// and `black` with `result`, ended by a `group` after 5 plies under
/// `per-move=100`: the record whose row is [`super::row::row_with_result`]'s
/// but for the plies and time controls. For unit tests that need records
/// without playing games (of this crate, and of the crates above with the
/// `testing` feature).
#[cfg(any(test, feature = "testing"))]
pub fn record_with_result(
    id: u64,
    pair: u64,
    white: &str,
    black: &str,
    result: GameResult,
) -> GameRecord {
    let moves: Vec<String> = ["a1", "f6", "b1", "e6", "a2"].map(String::from).into();
    GameRecord {
        game_id: game_id(id),
        round: Some(0),
        pair: Some(pair),
        game: "qango6".into(),
        white: white.into(),
        black: black.into(),
        time_control: TimeControl::PerMove { move_ms: 100 },
        white_time_control: None,
        black_time_control: None,
        opening: Vec::new(),
        proven_line: Vec::new(),
        clock: ClockBasis::Wall,
        move_times_ms: vec![1; moves.len()],
        move_cpu_ms: vec![Some(1); moves.len()],
        plies: moves.len() as u32,
        moves,
        result,
        winner: result.winner(),
        played: true,
        reason: arena_rules::games::RuleReason::Group.into(),
        message: String::new(),
        cells: Vec::new(),
        white_time_ms: 3,
        black_time_ms: 2,
        white_log: None,
        black_log: None,
        white_log_tail: None,
        black_log_tail: None,
        warnings: Vec::new(),
        white_trace: None,
        black_trace: None,
        white_ready: None,
        black_ready: None,
        duration_ms: 9,
        ended_utc: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row read from a journal line alone is the row of the whole
    /// record, for records with every field and for older ones without
    /// `ended_utc` or per-side time controls.
    #[test]
    fn the_row_of_a_line_is_the_row_of_its_record() {
        let mut full = record_with_result(7, 3, "a", "b", GameResult::BlackWins);
        full.white_time_control = Some(TimeControl::Clock {
            base_ms: 5000,
            increment_ms: 50,
        });
        full.ended_utc = "2026-12-01T10:00:00Z".into();
        full.moves.push("b2".into());
        full.message = "five in a row".into();
        let mut old = record_with_result(8, 4, "b", "a", GameResult::Draw);
        old.white_time_control = None;
        old.black_time_control = None;
        old.ended_utc.clear();
        for record in [full, old] {
            let line = serde_json::to_vec(&record).unwrap();
            let (id, row) = row_of_record_line(&line).unwrap();
            assert_eq!(Some(id), record.number());
            assert_eq!(row, record.to_games_row());
        }
        let err = row_of_record_line(br#"{"game_id":"g7","game":"qango6"}"#).unwrap_err();
        assert!(err.starts_with("not a game record"), "{err}");
        let mut placeless = record_with_result(1, 0, "a", "b", GameResult::Draw);
        placeless.game_id = "play".into();
        let err = row_of_record_line(&serde_json::to_vec(&placeless).unwrap()).unwrap_err();
        assert_eq!(err, NO_PLACE);
    }

    /// A line of an older journal, which held the number twice (`"id":7`
    /// first, then `"game_id":"g7"`), or only as `id`, gives the same place
    /// and row, and the whole record reads.
    #[test]
    fn lines_of_older_journals_are_read() {
        let record = record_with_result(7, 3, "a", "b", GameResult::WhiteWins);
        let line = serde_json::to_string(&record).unwrap();
        let rest = line
            .strip_prefix(r#"{"game_id":"g7","round":0,"pair":3,"#)
            .unwrap();
        let both = format!(r#"{{"id":7,"round":0,"pair":3,"game_id":"g7",{rest}"#);
        let only_id = format!(r#"{{"id":7,"round":0,"pair":3,"game_id":"x",{rest}"#);
        for old in [&both, &only_id] {
            let (id, row) = row_of_record_line(old.as_bytes()).unwrap();
            assert_eq!((id, row), (7, record.to_games_row()));
        }
        assert_eq!(serde_json::from_str::<GameRecord>(&both).unwrap(), record);
    }

    /// A tournament's journal line starts with the place (as lines did when
    /// it was spliced onto the record), and a record without a place
    /// serializes without it (as `arena play --record` writes it).
    #[test]
    fn the_place_is_serialized_first_and_only_when_there_is_one() {
        let mut record = record_with_result(7, 3, "a", "b", GameResult::WhiteWins);
        let line = serde_json::to_string(&record).unwrap();
        assert!(
            line.starts_with(r#"{"game_id":"g7","round":0,"pair":3,"game":"qango6","#),
            "{line}"
        );
        assert!(!line.contains(r#""id""#), "{line}");
        assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), record);
        record.game_id = "play".into();
        (record.round, record.pair) = (None, None);
        let line = serde_json::to_string(&record).unwrap();
        assert!(
            line.starts_with(r#"{"game_id":"play","game":"qango6","#),
            "{line}"
        );
        assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), record);
    }

    #[test]
    fn each_failed_side_has_its_part_of_the_message() {
        let mut record = record_with_result(1, 0, "a", "b", GameResult::Draw);
        assert!(record.failed_sides().is_empty());
        record.reason = Reason::Failure(arena_rules::protocol::FailureReason::Startup);
        record.played = false;
        record.message =
            "both failed: white (a): never answered hello; black (b): process ended: exit code 2"
                .into();
        assert_eq!(record.failed_sides(), [Color::White, Color::Black]);
        assert_eq!(record.failure_message(Color::White), "never answered hello");
        assert_eq!(
            record.failure_message(Color::Black),
            "process ended: exit code 2"
        );
        let mut lost = record_with_result(2, 1, "a", "b", GameResult::WhiteWins);
        lost.reason = Reason::Failure(arena_rules::protocol::FailureReason::Crash);
        lost.message = "black (b): process ended: exit code 3".into();
        assert_eq!(lost.failed_sides(), [Color::Black]);
        assert_eq!(
            lost.failure_message(Color::Black),
            "process ended: exit code 3"
        );
    }

    #[test]
    fn the_row_is_the_record_at_its_place() {
        let mut record = record_with_result(7, 3, "a", "b", GameResult::BlackWins);
        record.white_time_control = Some(TimeControl::PerMove { move_ms: 200 });
        record.ended_utc = "2026-12-01T00:23:28Z".into();
        let row = record.to_games_row();
        assert_eq!((row.id, row.round, row.pair), (7, 0, 3));
        assert_eq!((row.white.as_str(), row.black.as_str()), ("a", "b"));
        assert_eq!((row.result, row.plies), (GameResult::BlackWins, 5));
        assert_eq!((row.white_time_ms, row.black_time_ms), (3, 2));
        assert_eq!(row.ended_utc, "2026-12-01T00:23:28Z");
        // Each side's own time control, else the game's.
        assert_eq!(
            (row.white_tc.as_str(), row.black_tc.as_str()),
            ("per-move=200", "per-move=100")
        );
        record.set_place(9, 1, 4);
        let row = record.to_games_row();
        assert_eq!((row.id, row.round, row.pair), (9, 1, 4));
    }
}
