//! The `reason` strings of `game_over`: why a game ended.
//!
//! Rule reasons come from the games engine; failure reasons are decided by the
//! referee when a bot misbehaves, and always make the failing bot lose.

/// Reasons produced by the rules of the game.
pub const RULE_REASONS: &[&str] = &[
    "group",
    "square",
    "line",
    "full",
    "out_of_discs",
    "no_moves",
    "ply_cap",
];

/// Every reason that may appear in `game_over`: [`RULE_REASONS`], then the
/// strings of [`FailureReason::ALL`] in that order. Built from those two lists
/// at compile time so that a new reason is added in one place only.
pub const ALL_REASONS: &[&str] = &{
    let mut all = [""; RULE_REASONS.len() + FailureReason::ALL.len()];
    let mut i = 0;
    while i < RULE_REASONS.len() {
        all[i] = RULE_REASONS[i];
        i += 1;
    }
    let mut j = 0;
    while j < FailureReason::ALL.len() {
        all[i + j] = FailureReason::ALL[j].as_str();
        j += 1;
    }
    all
};

/// Why the referee ended a game against a bot; the opponent of that bot wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

impl std::fmt::Display for FailureReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_is_listed_once_with_rules_first() {
        assert_eq!(&ALL_REASONS[..RULE_REASONS.len()], RULE_REASONS);
        let failures: Vec<&str> = FailureReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(&ALL_REASONS[RULE_REASONS.len()..], failures.as_slice());
        let mut sorted = ALL_REASONS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ALL_REASONS.len());
    }
}
