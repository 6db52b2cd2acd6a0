//! Judging [`Observations`]: one [`Finding`] per [`Check`], each a plain
//! sentence plus the referee messages that showed a problem.
//!
//! A failure ends a game with one reason, so each failed game is evidence
//! for exactly one check: `illegal_move` for legal moves, `protocol_error`
//! for stdout, `timeout` for timing, `crash`/`disconnect`/`memory`/`cpu` for
//! staying up, `startup` (a restarted process) for the handshake.

use super::observations::{GameSeen, Handshake, IdleProblem, Observations, Quit, UnknownType};
use super::report::{Check, Finding, Report, Status};
use crate::protocol::FailureReason;

/// A worst response above this share of the limit is a warning.
const SLOW_SHARE: f64 = 0.5;

pub fn evaluate(obs: &Observations) -> Report {
    let findings = Check::ALL
        .iter()
        .map(|&check| match check {
            Check::Handshake => handshake(obs),
            Check::UnknownTypes => unknown_types(obs),
            Check::LegalMoves => legal_moves(obs),
            Check::Stdout => stdout(obs),
            Check::Timing => timing(obs),
            Check::StaysUp => stays_up(obs),
            Check::Stderr => stderr(obs),
            Check::GameEnd => game_end(obs),
            Check::Quit => quit(obs),
        })
        .collect();
    Report { findings }
}

/// The never-ran finding when the handshake failed: every check after it.
fn not_run(check: Check) -> Finding {
    Finding::new(
        check,
        Status::Skip,
        "not checked: the bot never completed the handshake",
    )
}

fn handshake_failed(obs: &Observations) -> bool {
    matches!(obs.handshake, Handshake::Failed(_))
}

/// `qango6 game 2 (bot as black), ply 3: <message>` for each game that
/// the bot failed for one of `reasons`.
fn failures(obs: &Observations, reasons: &[FailureReason]) -> Vec<String> {
    obs.games
        .iter()
        .filter_map(|g| {
            let (reason, message) = g.failure.as_ref()?;
            reasons.contains(reason).then(|| match reason {
                FailureReason::Startup => format!("{}, restarting the bot: {message}", g.label()),
                FailureReason::Timeout
                | FailureReason::IllegalMove
                | FailureReason::Crash
                | FailureReason::ProtocolError
                | FailureReason::Disconnect
                | FailureReason::Memory
                | FailureReason::Cpu => format!("{}, ply {}: {message}", g.label(), g.plies),
            })
        })
        .collect()
}

fn handshake(obs: &Observations) -> Finding {
    let restarts = failures(obs, &[FailureReason::Startup]);
    match &obs.handshake {
        Handshake::Failed(message) => Finding::new(
            Check::Handshake,
            Status::Fail,
            format!(
                "no valid ready to hello (the startup limit is {} ms)",
                obs.startup_limit_ms
            ),
        )
        .with_evidence(vec![format!("the bot {message}")]),
        Handshake::Ready { .. } if !restarts.is_empty() => Finding::new(
            Check::Handshake,
            Status::Fail,
            format!(
                "answered the first hello, but a restarted process gave no valid ready in {} of {}",
                restarts.len(),
                count(obs.games.len(), "game")
            ),
        )
        .with_evidence(restarts),
        Handshake::Ready {
            ms,
            name,
            author,
            version,
        } => {
            let mut about = format!("name {name:?}");
            if let Some(author) = author {
                about.push_str(&format!(", author {author:?}"));
            }
            if let Some(version) = version {
                about.push_str(&format!(", version {version:?}"));
            }
            Finding::new(
                Check::Handshake,
                Status::Pass,
                format!(
                    "answered hello with a valid ready (protocol 1, {about}) in {ms} ms; the limit is {} ms",
                    obs.startup_limit_ms
                ),
            )
        }
    }
}

fn unknown_types(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::UnknownTypes);
    }
    match &obs.unknown_type {
        UnknownType::NotSent(why) => Finding::new(
            Check::UnknownTypes,
            Status::Skip,
            format!("not checked: {why}"),
        ),
        UnknownType::Ignored { .. } => Finding::new(
            Check::UnknownTypes,
            Status::Pass,
            "ignored a message of a type it cannot know, as PROTOCOL.md asks (later versions may add types)",
        ),
        UnknownType::Broke { line, problem } => Finding::new(
            Check::UnknownTypes,
            Status::Fail,
            "did not ignore a message of an unknown type; PROTOCOL.md: bots must ignore message types they do not know",
        )
        .with_evidence(vec![format!(
            "after {line} the bot {}",
            problem.describe()
        )]),
    }
}

fn answered_moves(obs: &Observations) -> usize {
    obs.games.iter().map(|g| g.bot_move_times_ms.len()).sum()
}

fn legal_moves(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::LegalMoves);
    }
    let illegal = failures(obs, &[FailureReason::IllegalMove]);
    let games = obs.games.len();
    let answered = answered_moves(obs);
    if !illegal.is_empty() {
        return Finding::new(
            Check::LegalMoves,
            Status::Fail,
            format!(
                "played an illegal move in {} of {}; a move must be one of the turn's legal_moves",
                illegal.len(),
                count(games, "game")
            ),
        )
        .with_evidence(illegal);
    }
    if answered == 0 {
        return Finding::new(
            Check::LegalMoves,
            Status::Skip,
            "not checked: the bot answered no turn with a move (see the problems below)",
        );
    }
    let mut variants: Vec<&str> = obs.games.iter().map(|g| g.variant).collect();
    variants.dedup();
    let cut_short = obs.games.iter().filter(|g| g.failure.is_some()).count();
    let mut summary = format!(
        "{} in {} ({}), every one legal",
        count(answered, "move"),
        count(games, "game"),
        variants.join(", ")
    );
    if cut_short > 0 {
        summary.push_str(&format!(
            "; {} cut short by other problems",
            match cut_short {
                1 => "1 game was".to_string(),
                n => format!("{n} games were"),
            }
        ));
    }
    Finding::new(Check::LegalMoves, Status::Pass, summary)
}

fn stdout(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::Stdout);
    }
    let mut evidence = Vec::new();
    if let Some(problem) = &obs.after_ready {
        if !matches!(problem, IdleProblem::Ended(_)) {
            evidence.push(format!("right after ready, the bot {}", problem.describe()));
        }
    }
    evidence.extend(failures(obs, &[FailureReason::ProtocolError]));
    if evidence.is_empty() {
        Finding::new(
            Check::Stdout,
            Status::Pass,
            "wrote only protocol lines to stdout: one ready per hello, one move per turn",
        )
    } else {
        Finding::new(
            Check::Stdout,
            Status::Fail,
            "wrote something on stdout that is not the expected protocol line; stdout is only for ready and move (logs go to stderr)",
        )
        .with_evidence(evidence)
    }
}

/// Median (mean of the middle two for an even count) and maximum.
pub fn median_and_worst(times: &[u64]) -> Option<(f64, u64)> {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    let worst = *sorted.last()?;
    let median = if n % 2 == 1 {
        sorted[n / 2] as f64
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0
    };
    Some((median, worst))
}

/// `<1 ms` (the referee times moves in whole milliseconds), `3 ms`, `2.5 ms`.
fn format_ms(ms: f64) -> String {
    if ms < 1.0 {
        "<1 ms".to_string()
    } else if ms.fract() == 0.0 {
        format!("{ms} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

fn timing(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::Timing);
    }
    let times: Vec<u64> = obs
        .games
        .iter()
        .flat_map(|g| g.bot_move_times_ms.iter().copied())
        .collect();
    let limit = format!(
        "the limit is {} ms per move (+{} ms grace)",
        obs.move_ms, obs.grace_ms
    );
    let stats = median_and_worst(&times).map(|(median, worst)| {
        (
            worst,
            format!(
                "median {}, worst {} over {}",
                format_ms(median),
                format_ms(worst as f64),
                count(times.len(), "move")
            ),
        )
    });
    let over = over_limit(obs);
    let timeouts = failures(obs, &[FailureReason::Timeout]);
    if !timeouts.is_empty() {
        let answered = stats
            .map(|(_, s)| format!("; answered moves: {s}"))
            .unwrap_or_default();
        let saved = match over.moves {
            0 => String::new(),
            1 => "; 1 answered move took longer than the limit, and only the grace kept it from losing on time".to_string(),
            n => format!("; {n} answered moves took longer than the limit, and only the grace kept them from losing on time"),
        };
        return Finding::new(
            Check::Timing,
            Status::Fail,
            format!(
                "ran out of time in {}; {limit}{answered}{saved}",
                count(timeouts.len(), "game")
            ),
        )
        .with_evidence(timeouts);
    }
    let Some((worst, stats)) = stats else {
        return Finding::new(
            Check::Timing,
            Status::Skip,
            "not checked: the bot answered no turn with a move",
        );
    };
    if over.moves > 0 {
        // Not lost, so not a problem here; but over the limit it was told.
        let (it, they) = if over.moves == 1 {
            ("it", "it loses")
        } else {
            ("them", "they lose")
        };
        Finding::new(
            Check::Timing,
            Status::Warn,
            format!(
                "{} of {} took longer than the {} ms limit (worst {} ms); only the {} ms grace kept {it} from losing on time, and in a tournament with a smaller grace (`grace_ms`) {they}. {}; {limit}",
                over.moves,
                count(times.len(), "move"),
                obs.move_ms,
                worst,
                obs.grace_ms,
                capitalized(&stats),
            ),
        )
        .with_evidence(over.evidence)
    } else if worst as f64 > SLOW_SHARE * obs.move_ms as f64 {
        Finding::new(
            Check::Timing,
            Status::Warn,
            format!(
                "{stats}; {limit}. The worst is over half the limit: on a loaded machine it may run out of time"
            ),
        )
    } else {
        Finding::new(Check::Timing, Status::Pass, format!("{stats}; {limit}"))
    }
}

/// Answered moves that took longer than the limit (and were played, being
/// within the grace).
struct OverLimit {
    moves: usize,
    /// Per game with such moves: where, and how long they took.
    evidence: Vec<String>,
}

fn over_limit(obs: &Observations) -> OverLimit {
    let mut moves = 0;
    let mut evidence = Vec::new();
    for game in &obs.games {
        let over: Vec<String> = game
            .bot_move_times_ms
            .iter()
            .filter(|&&t| t > obs.move_ms)
            .map(|t| format!("{t} ms"))
            .collect();
        if over.is_empty() {
            continue;
        }
        moves += over.len();
        evidence.push(format!(
            "{}: {} over the {} ms limit ({})",
            game.label(),
            count(over.len(), "move"),
            obs.move_ms,
            over.join(", ")
        ));
    }
    OverLimit { moves, evidence }
}

fn stays_up(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::StaysUp);
    }
    let mut evidence = Vec::new();
    if let Some(problem @ IdleProblem::Ended(_)) = &obs.after_ready {
        evidence.push(format!("right after ready, the bot {}", problem.describe()));
    }
    evidence.extend(failures(
        obs,
        &[
            FailureReason::Crash,
            FailureReason::Disconnect,
            FailureReason::Memory,
            FailureReason::Cpu,
        ],
    ));
    if evidence.is_empty() {
        Finding::new(
            Check::StaysUp,
            Status::Pass,
            "never exited, crashed or closed its output while a game was on",
        )
    } else {
        Finding::new(
            Check::StaysUp,
            Status::Fail,
            "the process ended or closed its output while it was needed",
        )
        .with_evidence(evidence)
    }
}

fn stderr(obs: &Observations) -> Finding {
    let bytes = obs.stderr_bytes;
    let games = obs.games.len().max(1) as u64;
    let size = human_bytes(bytes);
    if bytes == 0 {
        Finding::new(
            Check::Stderr,
            Status::Pass,
            "wrote nothing to stderr (fine: stderr is the bot's log, and optional)",
        )
    } else if bytes / games > obs.log_cap {
        Finding::new(
            Check::Stderr,
            Status::Warn,
            format!(
                "wrote {size} to stderr, more than the {} per game that arena keeps in the bot's log; the rest is dropped",
                human_bytes(obs.log_cap)
            ),
        )
    } else {
        Finding::new(
            Check::Stderr,
            Status::Pass,
            format!(
                "wrote {size} to stderr; that is the bot's log (fine: arena saves it per game and never reads it as protocol)"
            ),
        )
    }
}

/// `text` with its first letter in upper case, to start a sentence.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `1 game`, `3 games`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn human_bytes(bytes: u64) -> String {
    const KIB: u64 = 1024;
    match bytes {
        b if b < KIB => format!("{b} bytes"),
        b if b < KIB * KIB => format!("{:.1} KiB", b as f64 / KIB as f64),
        b => format!("{:.1} MiB", b as f64 / (KIB * KIB) as f64),
    }
}

fn game_end(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::GameEnd);
    }
    let clean: Vec<&GameSeen> = obs.games.iter().filter(|g| g.failure.is_none()).collect();
    let mut evidence: Vec<String> = clean
        .iter()
        .filter_map(|g| {
            let problem = g.after_game_over.as_ref()?;
            Some(format!(
                "after game_over of {}: the bot {}",
                g.label(),
                problem.describe()
            ))
        })
        .collect();
    evidence.extend(obs.games.iter().filter(|g| g.replaced_process).map(|g| {
        format!(
            "before {}: the process that had finished the previous game had exited or written a line by itself; arena had to start a new one",
            g.label()
        )
    }));
    if !evidence.is_empty() {
        return Finding::new(
            Check::GameEnd,
            Status::Fail,
            "did not wait quietly after game_over; arena reuses one process for many games, so after game_over a bot must wait for new_game or quit",
        )
        .with_evidence(evidence);
    }
    if clean.is_empty() {
        return Finding::new(
            Check::GameEnd,
            Status::Skip,
            "not checked: no game reached game_over without a problem of the bot",
        );
    }
    let reused = obs.games.iter().filter(|g| g.reused_process).count();
    let summary = if reused == 0 {
        format!(
            "stayed up and quiet after game_over in {}; a new_game to the same process was not tested (play at least 2 games)",
            count(clean.len(), "game")
        )
    } else {
        format!(
            "stayed up and quiet after game_over in {}, and played {} in a process that had already finished one",
            count(clean.len(), "game"),
            count(reused, "game")
        )
    };
    Finding::new(Check::GameEnd, Status::Pass, summary)
}

fn quit(obs: &Observations) -> Finding {
    if handshake_failed(obs) {
        return not_run(Check::Quit);
    }
    match &obs.quit {
        Quit::NotRun(why) => {
            Finding::new(Check::Quit, Status::Skip, format!("not checked: {why}"))
        }
        Quit::Exited { ms, exit } => Finding::new(
            Check::Quit,
            Status::Pass,
            format!("exited {ms} ms after quit ({exit})"),
        ),
        Quit::ExitedOnEof { exit } => Finding::new(
            Check::Quit,
            Status::Fail,
            "did not exit on quit within the grace period; it exited only when its stdin was closed",
        )
        .with_evidence(vec![format!(
            "still running after quit; after its stdin was closed: {exit}"
        )]),
        Quit::Killed { exit } => {
            let sigterm = if exit.signal == Some(libc::SIGKILL) {
                " (it ignored SIGTERM too)"
            } else {
                ""
            };
            Finding::new(
                Check::Quit,
                Status::Fail,
                "did not exit on quit, nor when its stdin was closed: arena had to kill it",
            )
            .with_evidence(vec![format!(
                "still running after quit and after its stdin was closed; {exit}{sigterm}"
            )])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Color, GameResult, RuleReason};
    use crate::referee::ExitInfo;

    fn game(number: u32, failure: Option<(FailureReason, &str)>, times: &[u64]) -> GameSeen {
        GameSeen {
            variant: "qango6",
            number,
            bot_color: if number % 2 == 1 {
                Color::White
            } else {
                Color::Black
            },
            result: GameResult::WhiteWins,
            reason: failure.map_or(RuleReason::Group.into(), |(r, _)| r.into()),
            plies: 4,
            failure: failure.map(|(r, m)| (r, m.to_string())),
            bot_move_times_ms: times.to_vec(),
            reused_process: number > 1,
            replaced_process: false,
            after_game_over: None,
            log: None,
            warnings: Vec::new(),
        }
    }

    fn good() -> Observations {
        Observations {
            move_ms: 1000,
            grace_ms: 100,
            startup_limit_ms: 5000,
            handshake: Handshake::Ready {
                ms: 40,
                name: "mybot".into(),
                author: None,
                version: Some("0.1".into()),
            },
            after_ready: None,
            unknown_type: UnknownType::Ignored {
                line: "{\"type\":\"x\"}".into(),
            },
            games: vec![game(1, None, &[1, 2, 3]), game(2, None, &[2, 10])],
            stderr_bytes: 2048,
            log_cap: 1024 * 1024,
            wire_tail: None,
            quit: Quit::Exited {
                ms: 12,
                exit: ExitInfo {
                    code: Some(0),
                    signal: None,
                    killed_by_referee: false,
                },
            },
        }
    }

    fn status(report: &Report, check: Check) -> Status {
        report.finding(check).unwrap().status
    }

    #[test]
    fn a_well_behaved_bot_passes_everything() {
        let report = evaluate(&good());
        for f in &report.findings {
            assert_eq!(f.status, Status::Pass, "{f:?}");
        }
        let timing = &report.finding(Check::Timing).unwrap().summary;
        assert!(
            timing.starts_with("median 2 ms, worst 10 ms over 5 moves"),
            "{timing}"
        );
        let stderr = &report.finding(Check::Stderr).unwrap().summary;
        assert!(stderr.contains("2.0 KiB"), "{stderr}");
        assert!(report.is_compliant());
    }

    #[test]
    fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median_and_worst(&[4, 1, 3, 2]), Some((2.5, 4)));
        assert_eq!(median_and_worst(&[7]), Some((7.0, 7)));
        assert_eq!(median_and_worst(&[]), None);
        assert_eq!(format_ms(0.0), "<1 ms");
        assert_eq!(format_ms(0.5), "<1 ms");
        assert_eq!(format_ms(2.0), "2 ms");
        assert_eq!(format_ms(2.5), "2.5 ms");
    }

    #[test]
    fn a_failed_handshake_fails_once_and_skips_the_rest() {
        let mut obs = good();
        obs.handshake = Handshake::Failed("did not answer hello within 5000 ms".into());
        obs.games.clear();
        let report = evaluate(&obs);
        assert_eq!(report.problems(), 1);
        let f = report.finding(Check::Handshake).unwrap();
        assert_eq!(f.evidence, ["the bot did not answer hello within 5000 ms"]);
        assert_eq!(status(&report, Check::LegalMoves), Status::Skip);
        assert_eq!(status(&report, Check::Quit), Status::Skip);
    }

    #[test]
    fn each_failure_reason_is_evidence_for_its_own_check() {
        let cases = [
            (FailureReason::IllegalMove, Check::LegalMoves),
            (FailureReason::ProtocolError, Check::Stdout),
            (FailureReason::Timeout, Check::Timing),
            (FailureReason::Crash, Check::StaysUp),
            (FailureReason::Disconnect, Check::StaysUp),
            (FailureReason::Memory, Check::StaysUp),
            (FailureReason::Cpu, Check::StaysUp),
            (FailureReason::Startup, Check::Handshake),
        ];
        for (reason, check) in cases {
            let mut obs = good();
            obs.games[1] = game(2, Some((reason, "did the bad thing")), &[5]);
            let report = evaluate(&obs);
            assert_eq!(report.problems(), 1, "{reason}: {report:#?}");
            let f = report.finding(check).unwrap();
            assert_eq!(f.status, Status::Fail, "{reason}");
            assert_eq!(f.evidence.len(), 1);
            assert!(
                f.evidence[0].starts_with("qango6 game 2 (bot as black)")
                    && f.evidence[0].ends_with("did the bad thing"),
                "{reason}: {:?}",
                f.evidence
            );
        }
    }

    #[test]
    fn no_answered_move_skips_legality_and_timing() {
        let mut obs = good();
        obs.games = vec![game(
            1,
            Some((FailureReason::ProtocolError, "garbage")),
            &[],
        )];
        let report = evaluate(&obs);
        assert_eq!(status(&report, Check::LegalMoves), Status::Skip);
        assert_eq!(status(&report, Check::Timing), Status::Skip);
        assert_eq!(status(&report, Check::GameEnd), Status::Skip);
        assert_eq!(report.problems(), 1);
    }

    #[test]
    fn a_slow_worst_move_is_a_warning_not_a_problem() {
        let mut obs = good();
        obs.games[0].bot_move_times_ms.push(501);
        let report = evaluate(&obs);
        assert_eq!(status(&report, Check::Timing), Status::Warn);
        assert!(report.is_compliant());
        obs.games[0].bot_move_times_ms.pop();
        obs.games[0].bot_move_times_ms.push(500);
        assert_eq!(status(&evaluate(&obs), Check::Timing), Status::Pass);
    }

    /// Moves over the limit but within the grace were played: a warning
    /// that says so and names the grace, not the "over half" one.
    #[test]
    fn moves_saved_only_by_the_grace_are_a_plain_warning() {
        let mut obs = good();
        obs.games[0].bot_move_times_ms = vec![1002, 3, 1005];
        obs.games[1].bot_move_times_ms = vec![1003, 700];
        let report = evaluate(&obs);
        assert!(report.is_compliant());
        let f = report.finding(Check::Timing).unwrap();
        assert_eq!(f.status, Status::Warn);
        assert!(
            f.summary.starts_with(
                "3 of 5 moves took longer than the 1000 ms limit (worst 1005 ms); only the 100 ms grace kept them from losing on time, and in a tournament with a smaller grace (`grace_ms`) they lose. Median 1002 ms, worst 1005 ms over 5 moves; the limit is 1000 ms per move (+100 ms grace)"
            ),
            "{}",
            f.summary
        );
        assert!(!f.summary.contains("over half"), "{}", f.summary);
        assert_eq!(
            f.evidence,
            [
                "qango6 game 1 (bot as white): 2 moves over the 1000 ms limit (1002 ms, 1005 ms)",
                "qango6 game 2 (bot as black): 1 move over the 1000 ms limit (1003 ms)",
            ]
        );
        // One such move, and a timeout elsewhere: the failure mentions it.
        obs.games[0].bot_move_times_ms = vec![1001];
        obs.games[1] = game(
            2,
            Some((FailureReason::Timeout, "answered after 1400 ms")),
            &[],
        );
        let f = evaluate(&obs).finding(Check::Timing).unwrap().clone();
        assert_eq!(f.status, Status::Fail);
        assert!(
            f.summary.ends_with(
                "; 1 answered move took longer than the limit, and only the grace kept it from losing on time"
            ),
            "{}",
            f.summary
        );
        // Exactly at the limit is within it.
        let mut obs = good();
        obs.games[0].bot_move_times_ms = vec![1000];
        let f = evaluate(&obs).finding(Check::Timing).unwrap().clone();
        assert_eq!(f.status, Status::Warn);
        assert!(f.summary.contains("over half the limit"), "{}", f.summary);
    }

    #[test]
    fn talking_after_game_over_or_ready_or_unknown_types_fails() {
        let mut obs = good();
        obs.games[0].after_game_over =
            Some(IdleProblem::Ended("process ended: exit code 0".into()));
        let report = evaluate(&obs);
        assert_eq!(status(&report, Check::GameEnd), Status::Fail);
        assert!(report.finding(Check::GameEnd).unwrap().evidence[0]
            .contains("after game_over of qango6 game 1 (bot as white): the bot process ended"));

        let mut obs = good();
        obs.games[1].reused_process = false;
        obs.games[1].replaced_process = true;
        let report = evaluate(&obs);
        let f = report.finding(Check::GameEnd).unwrap();
        assert_eq!(f.status, Status::Fail);
        assert!(
            f.evidence[0].starts_with("before qango6 game 2 (bot as black): the process"),
            "{:?}",
            f.evidence
        );

        let mut obs = good();
        obs.after_ready = Some(IdleProblem::Wrote("hello there".into()));
        let report = evaluate(&obs);
        assert_eq!(status(&report, Check::Stdout), Status::Fail);
        assert_eq!(report.problems(), 1);

        let mut obs = good();
        obs.unknown_type = UnknownType::Broke {
            line: "{\"type\":\"x\"}".into(),
            problem: IdleProblem::Wrote("{\"type\":\"error\"}".into()),
        };
        assert_eq!(status(&evaluate(&obs), Check::UnknownTypes), Status::Fail);
    }

    #[test]
    fn quit_must_end_the_process_by_itself() {
        let exit = |code, signal| ExitInfo {
            code,
            signal,
            killed_by_referee: true,
        };
        let mut obs = good();
        obs.quit = Quit::ExitedOnEof {
            exit: exit(Some(0), None),
        };
        assert_eq!(status(&evaluate(&obs), Check::Quit), Status::Fail);
        obs.quit = Quit::Killed {
            exit: exit(None, Some(libc::SIGKILL)),
        };
        let report = evaluate(&obs);
        let f = report.finding(Check::Quit).unwrap();
        assert_eq!(f.status, Status::Fail);
        assert!(f.summary.contains("had to kill it"), "{}", f.summary);
        assert!(
            f.evidence[0].contains("ignored SIGTERM too"),
            "{:?}",
            f.evidence
        );
    }

    #[test]
    fn a_huge_log_is_a_warning() {
        let mut obs = good();
        obs.stderr_bytes = 5 * 1024 * 1024;
        let report = evaluate(&obs);
        assert_eq!(status(&report, Check::Stderr), Status::Warn);
        assert!(report.is_compliant());
    }
}
