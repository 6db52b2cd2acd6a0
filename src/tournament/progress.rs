//! What a running tournament shows on the terminal: one line per finished
//! game (on stdout, so it can be logged), and a progress bar on stderr with
//! games done / total, the ETA and a status such as the current leader.
//! The bar draws only on a terminal; in a pipe only the lines appear.

use std::collections::BTreeMap;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::referee::GameRecord;
use crate::referee::GameRow;

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar at `done` of `total` (`None`: open-ended, e.g. an SPRT).
    pub fn new(done: u64, total: Option<u64>, enabled: bool) -> Progress {
        let target = if enabled {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = match total {
            Some(total) => {
                let bar = ProgressBar::with_draw_target(Some(total), target);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise} ETA {eta}  {msg}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                bar
            }
            None => {
                let bar = ProgressBar::with_draw_target(None, target);
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {pos} games  {elapsed_precise}  {msg}")
                        .expect("valid template"),
                );
                bar
            }
        };
        bar.set_position(done);
        bar.reset_eta();
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress { bar }
    }

    /// Prints a line above the bar (or plainly when the bar is hidden).
    pub fn println(&self, line: &str) {
        if self.bar.is_hidden() {
            println!("{line}");
        } else {
            self.bar.suspend(|| println!("{line}"));
        }
    }

    /// One more game done; `status` replaces the bar's message.
    pub fn advance(&self, status: String) {
        self.bar.inc(1);
        self.bar.set_message(status);
    }

    pub fn set_status(&self, status: String) {
        self.bar.set_message(status);
    }

    /// Removes the bar so that final output starts on a clean line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
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
    if !row.reason.is_rule() && !record.message.is_empty() {
        line.push_str(": ");
        line.push_str(&record.message);
    }
    line
}

/// Points per bot over finished games, for the "leader" status.
#[derive(Debug, Default, Clone)]
pub struct Scoreboard {
    /// Bot name -> (half-points, games).
    points: BTreeMap<String, (u64, u64)>,
}

impl Scoreboard {
    pub fn add(&mut self, row: &GameRow) {
        let white_score = row.result.white_score();
        let white_half = (white_score * 2.0).round() as u64;
        let w = self.points.entry(row.white.clone()).or_default();
        w.0 += white_half;
        w.1 += 1;
        let b = self.points.entry(row.black.clone()).or_default();
        b.0 += 2 - white_half;
        b.1 += 1;
    }

    /// The bot with the most points (the fewest games on a tie), as
    /// `leader: NAME 7.5/10`.
    pub fn leader(&self) -> String {
        let best = self.points.iter().max_by(|a, b| {
            (a.1 .0, std::cmp::Reverse(a.1 .1)).cmp(&(b.1 .0, std::cmp::Reverse(b.1 .1)))
        });
        match best {
            Some((name, (half, games))) => {
                format!("leader: {name} {}/{games}", half_points(*half))
            }
            None => String::new(),
        }
    }
}

fn half_points(half: u64) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(white: &str, black: &str, result: &str) -> GameRow {
        crate::referee::row::row_with_result(0, 0, white, black, result.parse().unwrap())
    }

    #[test]
    fn leader_has_most_points() {
        let mut board = Scoreboard::default();
        assert_eq!(board.leader(), "");
        board.add(&row("a", "b", "1-0"));
        board.add(&row("b", "c", "1/2-1/2"));
        board.add(&row("c", "a", "1-0"));
        board.add(&row("b", "a", "0-1"));
        assert_eq!(board.leader(), "leader: a 2/3");
        board.add(&row("c", "b", "1-0"));
        assert_eq!(board.leader(), "leader: c 2.5/3");
    }
}
