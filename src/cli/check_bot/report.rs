//! The verdict of a compliance check, in words for a bot author: one line
//! per check (PASS/WARN/FAIL/SKIP and a plain sentence), the messages that
//! showed each problem, and a last line saying COMPLIANT or not.

use std::fmt;

/// How many offending messages a check quotes before summarising the rest.
pub const EVIDENCE_SHOWN: usize = 3;

/// What a check concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    /// Works, but is close to a limit or unusual; not a problem.
    Warn,
    /// A problem: the bot would lose games in a tournament because of it.
    Fail,
    /// Could not be checked because of another problem (or too few games).
    Skip,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Warn => "WARN",
            Status::Fail => "FAIL",
            Status::Skip => "SKIP",
        }
    }
}

/// The things checked, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Handshake,
    UnknownTypes,
    LegalMoves,
    Stdout,
    Timing,
    StaysUp,
    Stderr,
    GameEnd,
    Quit,
}

impl Check {
    pub const ALL: [Check; 9] = [
        Check::Handshake,
        Check::UnknownTypes,
        Check::LegalMoves,
        Check::Stdout,
        Check::Timing,
        Check::StaysUp,
        Check::Stderr,
        Check::GameEnd,
        Check::Quit,
    ];

    /// Short label for the report column.
    pub fn label(self) -> &'static str {
        match self {
            Check::Handshake => "handshake",
            Check::UnknownTypes => "unknown types",
            Check::LegalMoves => "legal moves",
            Check::Stdout => "stdout",
            Check::Timing => "timing",
            Check::StaysUp => "stays up",
            Check::Stderr => "stderr",
            Check::GameEnd => "game end",
            Check::Quit => "quit",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One check's conclusion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub check: Check,
    pub status: Status,
    /// One plain sentence.
    pub summary: String,
    /// The messages that showed the problem (each names where it happened).
    pub evidence: Vec<String>,
}

impl Finding {
    pub fn new(check: Check, status: Status, summary: impl Into<String>) -> Finding {
        Finding {
            check,
            status,
            summary: summary.into(),
            evidence: Vec::new(),
        }
    }

    pub fn with_evidence(mut self, evidence: Vec<String>) -> Finding {
        self.evidence = evidence;
        self
    }
}

/// Everything `arena check-bot` concluded about one bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub findings: Vec<Finding>,
}

impl Report {
    /// The finding of `check`, if it was made.
    pub fn finding(&self, check: Check) -> Option<&Finding> {
        self.findings.iter().find(|f| f.check == check)
    }

    /// Number of failed checks.
    pub fn problems(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.status == Status::Fail)
            .count()
    }

    pub fn is_compliant(&self) -> bool {
        self.problems() == 0
    }

    /// `COMPLIANT` or `NOT COMPLIANT: N problems`.
    pub fn verdict(&self) -> String {
        match self.problems() {
            0 => "COMPLIANT".to_string(),
            1 => "NOT COMPLIANT: 1 problem".to_string(),
            n => format!("NOT COMPLIANT: {n} problems"),
        }
    }

    /// The checks, one per line with their evidence indented below, then a
    /// blank line and the verdict.
    pub fn render(&self) -> String {
        let width = Check::ALL
            .iter()
            .map(|c| c.label().len())
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        for finding in &self.findings {
            out.push_str(&format!(
                "{}  {:<width$}  {}\n",
                finding.status.label(),
                finding.check.label(),
                finding.summary
            ));
            let indent = " ".repeat(4 + 2 + width + 2);
            for line in finding.evidence.iter().take(EVIDENCE_SHOWN) {
                out.push_str(&format!("{indent}- {line}\n"));
            }
            let more = finding.evidence.len().saturating_sub(EVIDENCE_SHOWN);
            if more > 0 {
                out.push_str(&format!("{indent}  ... and {more} more like these\n"));
            }
        }
        out.push('\n');
        out.push_str(&self.verdict());
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_and_skips_are_not_problems() {
        let report = Report {
            findings: vec![
                Finding::new(Check::Handshake, Status::Pass, "ok"),
                Finding::new(Check::Timing, Status::Warn, "slow"),
                Finding::new(Check::GameEnd, Status::Skip, "one game"),
            ],
        };
        assert!(report.is_compliant());
        assert_eq!(report.verdict(), "COMPLIANT");
        assert!(report.render().ends_with("\nCOMPLIANT\n"));
    }

    #[test]
    fn failures_are_counted_and_their_evidence_listed_with_a_cap() {
        let evidence: Vec<String> = (1..=5).map(|i| format!("game {i}: bad")).collect();
        let report = Report {
            findings: vec![
                Finding::new(Check::LegalMoves, Status::Fail, "illegal moves")
                    .with_evidence(evidence),
                Finding::new(Check::Quit, Status::Fail, "killed"),
            ],
        };
        assert_eq!(report.problems(), 2);
        assert_eq!(report.verdict(), "NOT COMPLIANT: 2 problems");
        let text = report.render();
        assert!(
            text.starts_with("FAIL  legal moves    illegal moves\n"),
            "{text}"
        );
        assert!(text.contains("- game 3: bad\n"), "{text}");
        assert!(!text.contains("game 4"), "{text}");
        assert!(text.contains("... and 2 more like these"), "{text}");
        assert!(text.ends_with("\nNOT COMPLIANT: 2 problems\n"), "{text}");

        let one = Report {
            findings: vec![Finding::new(Check::Quit, Status::Fail, "killed")],
        };
        assert_eq!(one.verdict(), "NOT COMPLIANT: 1 problem");
    }
}
