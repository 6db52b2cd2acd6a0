//! The terminal's view of a tournament or SPRT run: the [`RunOutput`]
//! implementation behind `arena tournament` and `arena sprt`. It prints the
//! settings, one line per finished game (on stdout, so it can be logged),
//! SPRT pair lines, the standings table and the run's last words, and draws
//! a progress bar on stderr with games done / total, the ETA and the
//! leader or the LLR. The bar draws only on a terminal; in a pipe only the
//! lines appear.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::protocol::RULE_REASONS;
use crate::referee::{format_time_control, GameRecord};
use crate::report::games_csv::GameRow;
use crate::report::rating::RatingReport;
use crate::stats::{Pentanomial, SprtDecision};
use crate::tournament::progress::{
    Leader, Resumed, RunKind, RunOutcome, RunOutput, RunStarted, SprtProgress, Standing,
};
use crate::tournament::runner::RunEnd;
use crate::tournament::sprt::SprtOutcome;

/// Prints a run's events to stdout, with an optional progress bar on stderr.
pub struct Terminal {
    show_bar: bool,
    /// The bar while games are played (only when `show_bar`).
    bar: Option<ProgressBar>,
}

impl Terminal {
    /// `show_bar`: draw the progress bar (see `RunFlags::show_progress`).
    pub fn new(show_bar: bool) -> Terminal {
        Terminal {
            show_bar,
            bar: None,
        }
    }

    /// Prints a line, above the bar while there is one.
    fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }

    /// The last words of a round robin: how to continue it when it did not
    /// record every game.
    pub fn round_robin_ended(&mut self, outcome: &RunOutcome) {
        let dir = outcome.dir.display();
        if outcome.end == RunEnd::Interrupted {
            self.println(&format!(
                "\nInterrupted: {} of {} games played. Continue with: arena tournament --resume {dir}",
                outcome.finished,
                outcome.total.unwrap_or(outcome.finished)
            ));
        } else if !outcome.failed.is_empty() {
            self.println(&format!(
                "\n{} games could not be run (see above); play them with: arena tournament --resume {dir}",
                outcome.failed.len()
            ));
        }
    }

    /// The verdict of an SPRT.
    pub fn sprt_ended(&mut self, outcome: &SprtOutcome) {
        let [a, b] = &outcome.bots;
        let status = &outcome.progress.status;
        let elo1 = outcome.plan.elo1;
        let dir = outcome.run.dir.display();
        self.println("");
        match status.decision {
            SprtDecision::AcceptH1 => self.println(&format!(
                "H1 accepted: {a} is stronger than {b} by at least {elo1} Elo (LLR {:+.2} >= {:+.2}, {} pairs).",
                status.llr, status.upper, status.pairs
            )),
            SprtDecision::AcceptH0 => self.println(&format!(
                "H0 accepted: {a} is not stronger than {b} by {elo1} Elo or more (LLR {:+.2} <= {:+.2}, {} pairs).",
                status.llr, status.lower, status.pairs
            )),
            SprtDecision::Continue if outcome.run.end == RunEnd::Interrupted => {
                self.println(&format!(
                    "Interrupted undecided: {}. Continue with: arena sprt --resume {dir}",
                    sprt_text(&outcome.progress)
                ))
            }
            SprtDecision::Continue => {
                self.println(&format!(
                    "Undecided after {} pairs: {}.",
                    status.pairs,
                    sprt_text(&outcome.progress)
                ));
                if !outcome.run.failed.is_empty() {
                    self.println(&format!(
                        "{} games could not be run (see above); play them with: arena sprt --resume {dir}",
                        outcome.run.failed.len()
                    ));
                }
            }
        }
    }
}

impl RunOutput for Terminal {
    fn started(&mut self, run: &RunStarted) {
        let config = run.config;
        let dir = run.dir.display();
        match run.kind {
            RunKind::RoundRobin { games } => {
                self.println(&format!(
                    "Round robin: {} bots, {}, {} games ({} per pairing), {} (+{} ms grace), {} at a time, seed {}, openings of {} plies",
                    config.bots.len(),
                    config.variant,
                    games,
                    config.games_per_pairing,
                    format_time_control(&config.time_control),
                    config.grace_ms,
                    config.concurrency,
                    config.seed,
                    config.opening_plies,
                ));
                self.println(&format!("Output: {dir}"));
            }
            RunKind::Sprt { plan, lower, upper } => {
                self.println(&format!(
                    "SPRT {} vs {}: H0 elo <= {} against H1 elo >= {}, alpha {}, beta {}; {}, {} (+{} ms grace), {} at a time, seed {}, openings of {} plies{}",
                    config.bots[0].name,
                    config.bots[1].name,
                    plan.elo0,
                    plan.elo1,
                    plan.alpha,
                    plan.beta,
                    config.variant,
                    format_time_control(&config.time_control),
                    config.grace_ms,
                    config.concurrency,
                    config.seed,
                    config.opening_plies,
                    plan.max_pairs.map_or(String::new(), |m| format!(", at most {m} pairs")),
                ));
                self.println(&format!(
                    "LLR bounds [{lower:+.2}, {upper:+.2}]. Output: {dir}"
                ));
            }
        }
    }

    fn resumed(&mut self, resumed: &Resumed) {
        for repair in resumed.repairs {
            self.println(&format!("resume: {repair}"));
        }
        if resumed.finished == 0 {
            return;
        }
        let line = match (resumed.total, resumed.standing) {
            (_, Standing::Sprt(progress)) => format!(
                "resume: {} games already played; {}",
                resumed.finished,
                sprt_text(progress)
            ),
            (Some(total), _) => format!(
                "resume: {} of {total} games already played",
                resumed.finished
            ),
            (None, _) => format!("resume: {} games already played", resumed.finished),
        };
        self.println(&line);
    }

    fn warning(&mut self, text: &str) {
        self.println(text);
    }

    fn playing(&mut self, done: u64, total: Option<u64>, standing: &Standing) {
        if self.show_bar {
            let bar = new_bar(done, total);
            bar.set_message(status_text(standing));
            self.bar = Some(bar);
        }
    }

    fn game_finished(&mut self, row: &GameRow, record: &GameRecord) {
        self.println(&game_line(row, record));
    }

    fn game_not_recorded(&mut self, game_id: u64, why: &str) {
        self.println(&format!("g{game_id}: not recorded: {why}"));
    }

    fn sprt_pair(&mut self, pair: u64, progress: &SprtProgress) {
        let status = &progress.status;
        self.println(&format!(
            "pair {pair:>4}: LLR {:+.2}  bounds [{:+.2}, {:+.2}]  pentanomial {}",
            status.llr,
            status.lower,
            status.upper,
            pentanomial_text(&progress.counts)
        ));
    }

    fn progress(&mut self, standing: &Standing) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.set_message(status_text(standing));
        }
    }

    fn stopped_playing(&mut self) {
        // Removes the bar so that what follows starts on a clean line.
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn standings(&mut self, report: Option<&RatingReport>) {
        match report {
            None => self.println("No finished games yet, so no standings."),
            Some(report) => {
                self.println("");
                // The table ends with its own newline.
                let table = report.standings.render_table();
                self.println(table.strip_suffix('\n').unwrap_or(&table));
            }
        }
    }

    fn files(&mut self, dir: &Path, files: &[PathBuf]) {
        self.println("");
        self.println(&format!("Files in {}:", dir.display()));
        for path in files {
            self.println(&format!("  {}", path.display()));
        }
    }
}

/// A bar at `done` of `total` (`None`: open-ended, e.g. an SPRT), on stderr.
fn new_bar(done: u64, total: Option<u64>) -> ProgressBar {
    let target = ProgressDrawTarget::stderr();
    let bar = ProgressBar::with_draw_target(total, target);
    let template = match total {
        Some(_) => "{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise} ETA {eta}  {msg}",
        None => "{spinner} {pos} games  {elapsed_precise}  {msg}",
    };
    let mut style = ProgressStyle::with_template(template).expect("valid template");
    if total.is_some() {
        style = style.progress_chars("=> ");
    }
    bar.set_style(style);
    bar.set_position(done);
    bar.reset_eta();
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// `g12  greedy - random  1-0  group (23 plies)`, plus the referee's message
/// when the game ended by a failure (so the reason is visible at once).
pub fn game_line(row: &GameRow, record: &GameRecord) -> String {
    let mut line = format!(
        "{:>6}  {} - {}  {:<7}  {} ({} plies)",
        format!("g{}", row.id),
        row.white,
        row.black,
        row.result,
        row.reason,
        row.plies
    );
    if !RULE_REASONS.contains(&row.reason.as_str()) && !record.message.is_empty() {
        line.push_str(": ");
        line.push_str(&record.message);
    }
    line
}

/// The bar's message: the leader, or the SPRT's pairs and LLR.
fn status_text(standing: &Standing) -> String {
    match standing {
        Standing::RoundRobin { leader: None } => String::new(),
        Standing::RoundRobin {
            leader: Some(leader),
        } => leader_text(leader),
        Standing::Sprt(progress) => {
            let s = &progress.status;
            format!(
                "{} pairs  LLR {:+.2} [{:+.2}, {:+.2}]",
                s.pairs, s.llr, s.lower, s.upper
            )
        }
    }
}

/// `leader: NAME 7.5/10`.
fn leader_text(leader: &Leader) -> String {
    let half = leader.half_points;
    let points = if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    };
    format!("leader: {} {points}/{}", leader.name, leader.games)
}

/// `LLR x within [lo, hi], pentanomial [...]`.
fn sprt_text(progress: &SprtProgress) -> String {
    let s = &progress.status;
    format!(
        "LLR {:+.2} within [{:+.2}, {:+.2}], pentanomial {}",
        s.llr,
        s.lower,
        s.upper,
        pentanomial_text(&progress.counts)
    )
}

/// `LL-LD-DD+WL-WD-WW` counts.
fn pentanomial_text(p: &Pentanomial) -> String {
    let [ll, ld, even, wd, ww] = p.by_score();
    format!("[{ll}, {ld}, {even}, {wd}, {ww}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leader_shows_half_points() {
        let leader = |half_points, games| Leader {
            name: "a".into(),
            half_points,
            games,
        };
        assert_eq!(leader_text(&leader(4, 3)), "leader: a 2/3");
        assert_eq!(leader_text(&leader(5, 3)), "leader: a 2.5/3");
        assert_eq!(leader_text(&leader(1, 1)), "leader: a 0.5/1");
    }
}
