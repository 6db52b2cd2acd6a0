//! Why a game ended: the one [`Reason`] type of the crate, in `game_over`,
//! game records, `games.csv` and the compliance report.
//!
//! Rule reasons ([`RuleReason`]) come from the games engine (and the
//! referee's ply cap); failure reasons ([`FailureReason`]) are decided by the
//! referee when a bot misbehaves, and always make the failing bot lose. Both
//! are written as one flat snake_case string (`group`, `timeout`, ...).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::games::RuleReason;

/// Why the referee ended a game against a bot; the opponent of that bot wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureReason {
    /// No complete `move` line before the move's time limit.
    Timeout,
    /// A well-formed `move` naming a move that is not legal in the position.
    IllegalMove,
    /// The process exited (or was killed by a signal) during a game.
    Crash,
    /// A line that is not a valid message of the expected type, or too long.
    ProtocolError,
    /// The bot closed its stdout (end of file) while a game was running.
    Disconnect,
    /// No valid `ready` before the startup limit, or a wrong protocol version.
    Startup,
    /// The bot exceeded its memory limit.
    Memory,
    /// The bot exceeded its CPU-time limit.
    Cpu,
}

impl FailureReason {
    pub const ALL: [FailureReason; 8] = [
        FailureReason::Timeout,
        FailureReason::IllegalMove,
        FailureReason::Crash,
        FailureReason::ProtocolError,
        FailureReason::Disconnect,
        FailureReason::Startup,
        FailureReason::Memory,
        FailureReason::Cpu,
    ];

    /// The `reason` string used in `game_over` and `games.csv`.
    pub const fn as_str(self) -> &'static str {
        match self {
            FailureReason::Timeout => "timeout",
            FailureReason::IllegalMove => "illegal_move",
            FailureReason::Crash => "crash",
            FailureReason::ProtocolError => "protocol_error",
            FailureReason::Disconnect => "disconnect",
            FailureReason::Startup => "startup",
            FailureReason::Memory => "memory",
            FailureReason::Cpu => "cpu",
        }
    }
}

impl fmt::Display for FailureReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Why a game ended: by the rules, or by one bot's failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    Rule(RuleReason),
    Failure(FailureReason),
}

impl Reason {
    /// Every reason: the rule reasons, then the failure reasons, each in the
    /// order of its `ALL`. Built from those two lists at compile time, so a
    /// new reason is added to its enum only.
    pub const ALL: [Reason; RuleReason::ALL.len() + FailureReason::ALL.len()] = {
        let mut all =
            [Reason::Rule(RuleReason::Group); RuleReason::ALL.len() + FailureReason::ALL.len()];
        let mut i = 0;
        while i < RuleReason::ALL.len() {
            all[i] = Reason::Rule(RuleReason::ALL[i]);
            i += 1;
        }
        let mut j = 0;
        while j < FailureReason::ALL.len() {
            all[i + j] = Reason::Failure(FailureReason::ALL[j]);
            j += 1;
        }
        all
    };

    /// The `reason` string of `game_over` and `games.csv`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Rule(r) => r.as_str(),
            Reason::Failure(f) => f.as_str(),
        }
    }

    /// An ending by the rules (or the ply cap), not by a failure.
    pub fn is_rule(self) -> bool {
        matches!(self, Reason::Rule(_))
    }

    /// The failure, if a bot's failure ended the game.
    pub fn failure(self) -> Option<FailureReason> {
        match self {
            Reason::Failure(f) => Some(f),
            Reason::Rule(_) => None,
        }
    }
}

impl From<RuleReason> for Reason {
    fn from(reason: RuleReason) -> Reason {
        Reason::Rule(reason)
    }
}

impl From<FailureReason> for Reason {
    fn from(reason: FailureReason) -> Reason {
        Reason::Failure(reason)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl std::str::FromStr for Reason {
    type Err = String;

    fn from_str(s: &str) -> Result<Reason, String> {
        Reason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                let all: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
                format!("unknown reason {s:?} (expected one of {})", all.join(", "))
            })
    }
}

/// Lets tests and callers compare with the wire spelling: `reason == "crash"`.
impl PartialEq<&str> for Reason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The flat string, not `{"Rule": ...}`.
impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Reason, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_is_listed_once_with_rules_first() {
        let strings: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        let rules: Vec<&str> = RuleReason::ALL.iter().map(|r| r.as_str()).collect();
        let failures: Vec<&str> = FailureReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(strings, [rules, failures].concat());
        let mut sorted = strings.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), strings.len());
    }

    #[test]
    fn reasons_are_flat_strings_both_ways() {
        for reason in Reason::ALL {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.as_str()));
            assert_eq!(serde_json::from_str::<Reason>(&json).unwrap(), reason);
        }
        assert_eq!(
            serde_json::to_string(&FailureReason::IllegalMove).unwrap(),
            "\"illegal_move\""
        );
        let err = serde_json::from_str::<Reason>("\"boredom\"").unwrap_err();
        assert!(
            err.to_string().starts_with("unknown reason \"boredom\""),
            "{err}"
        );
    }
}
