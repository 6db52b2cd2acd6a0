//! How a game ends, as the rules see it: the [`GameResult`] from white's side
//! and the [`RuleReason`] a rules ending gives. The one result type of the
//! crate (protocol, records, `games.csv`, statistics); strings appear only
//! where serde writes or reads them.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::Color;

/// Final score of a game from white's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "0-1")]
    BlackWins,
}

impl GameResult {
    pub const ALL: [GameResult; 3] = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
    ];

    /// The wire and CSV spelling: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result where `winner` won, or a draw for `None`.
    pub fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// From white's score: 1, 0.5 or 0. `None` for anything else.
    pub fn from_white_score(score: f64) -> Option<GameResult> {
        if score == 1.0 {
            Some(GameResult::WhiteWins)
        } else if score == 0.5 {
            Some(GameResult::Draw)
        } else if score == 0.0 {
            Some(GameResult::BlackWins)
        } else {
            None
        }
    }

    /// White's score: 1, 0.5 or 0.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl std::str::FromStr for GameResult {
    type Err = String;

    fn from_str(s: &str) -> Result<GameResult, String> {
        GameResult::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| format!("unknown result {s:?} (expected 1-0, 0-1 or 1/2-1/2)"))
    }
}

/// Written by hand so that a bad result reads as `unknown result "2-0"
/// (expected ...)` in every format, e.g. with the line and field of a
/// `games.csv` row.
impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameResult, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a game ended by the rules (or by the referee's ply cap): every
/// ending that is no player's failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleReason {
    /// A colour group completed (Qango).
    Group,
    /// A 2x2 square of one colour (Qango).
    Square,
    /// Five in a row (Qango variants that have it, Quinque).
    Line,
    /// The board is full without a win: a draw.
    Full,
    /// Both supplies are placed without a win: a draw.
    OutOfDiscs,
    /// The side to move has no legal move and loses (Quinque).
    NoMoves,
    /// The referee's safety cap on the number of plies: a draw.
    PlyCap,
    /// The referee's solver proved the position's value: the result is
    /// that of perfect play from there (`adjudicate = "solved"`).
    Adjudicated,
}

impl RuleReason {
    pub const ALL: [RuleReason; 8] = [
        RuleReason::Group,
        RuleReason::Square,
        RuleReason::Line,
        RuleReason::Full,
        RuleReason::OutOfDiscs,
        RuleReason::NoMoves,
        RuleReason::PlyCap,
        RuleReason::Adjudicated,
    ];

    /// The `reason` string of `game_over` and `games.csv`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleReason::Group => "group",
            RuleReason::Square => "square",
            RuleReason::Line => "line",
            RuleReason::Full => "full",
            RuleReason::OutOfDiscs => "out_of_discs",
            RuleReason::NoMoves => "no_moves",
            RuleReason::PlyCap => "ply_cap",
            RuleReason::Adjudicated => "adjudicated",
        }
    }
}

impl fmt::Display for RuleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Lets tests and callers compare with the wire spelling: `reason == "line"`.
impl PartialEq<&str> for RuleReason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_back_what_they_write() {
        for result in GameResult::ALL {
            let json = serde_json::to_string(&result).unwrap();
            assert_eq!(json, format!("\"{result}\""));
            assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), result);
            assert_eq!(GameResult::from_winner(result.winner()), result);
            assert_eq!(
                GameResult::from_white_score(result.white_score()),
                Some(result)
            );
        }
        let err = serde_json::from_str::<GameResult>("\"2-0\"").unwrap_err();
        assert!(
            err.to_string().starts_with("unknown result \"2-0\""),
            "{err}"
        );
    }

    #[test]
    fn rule_reasons_serialize_as_their_strings() {
        for reason in RuleReason::ALL {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.as_str()));
            assert_eq!(serde_json::from_str::<RuleReason>(&json).unwrap(), reason);
        }
    }
}
