//! The terminal's view of a tournament or SPRT run: the [`RunOutput`]
//! implementation behind `arena tournament` and `arena sprt`. It prints the
//! settings, one line per finished game (on stdout, so it can be logged),
//! SPRT pair lines (a game whose failure repeats one seen before, the same
//! bot and cause, is counted instead and summarized when the games end:
//! [`Repeats`]), the standings table (during the run every
//! `rating_interval` games, rated from the run's tally, and at the end) and
//! the run's last words, and draws a progress bar on stderr with games
//! done / total, the ETA and the leader or the LLR. The bar draws only on a
//! terminal; in a pipe only the lines appear.

use std::io::{Stdout, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::serve::Live;
use crate::protocol::ClockBasis;
use crate::referee::run_queue;
use crate::referee::start_slots::cores;
use crate::referee::GameRecord;
use crate::referee::GameRow;
use crate::report::comparison::render_failures_top;
use crate::report::gauntlet::render_seed;
use crate::report::rating::{RatingReport, Ratings, RunRatings};
use crate::report::standings::POOLED;
use crate::stats::{FitOptions, Tally};
use crate::tournament::cpu_wait::CpuWait;
use crate::tournament::driver::Finished;
use crate::tournament::live::LiveGames;
use crate::tournament::progress::{
    PairedRound, Resumed, RunOutput, RunStarted, RunStatus, SprtProgress,
};
use crate::tournament::repeats::Repeats;
use crate::tournament::text::{render_tables, Said};

/// The most bots a table in the terminal lists (standings, failures); the
/// rest are counted in one line that says where they all are.
pub const TERMINAL_ROWS: usize = 20;

/// The most bots whose crosstable the terminal prints (one column per
/// opponent); a bigger field's is in crosstable.csv and report.html.
pub const TERMINAL_CROSSTABLE_BOTS: usize = 10;

/// Prints a run's events to stdout (`out`), with an optional progress bar
/// on stderr.
pub struct Terminal<W: Write = Stdout> {
    out: W,
    show_bar: bool,
    /// The bar while games are played (only when `show_bar`).
    bar: Option<ProgressBar>,
    /// The run's gauntlet seeds, whose tables follow the standings.
    seeds: Vec<String>,
    /// How often this run's bots waited for a CPU, said at its end.
    cpu_wait: CpuWait,
    /// The live page to start once the run has its directory (`--serve`).
    serve: Option<Live>,
    /// The games being played, which that page shows (`--serve` only).
    live_games: Option<Arc<LiveGames>>,
    /// The failures so far, per bot and cause: a repeated one is counted,
    /// not shown again.
    repeats: Repeats,
}

impl Terminal {
    /// `show_bar`: draw the progress bar (see `RunFlags::show_progress`).
    pub fn new(show_bar: bool) -> Terminal {
        Terminal {
            out: std::io::stdout(),
            show_bar,
            bar: None,
            seeds: Vec::new(),
            cpu_wait: CpuWait::default(),
            serve: None,
            live_games: None,
            repeats: Repeats::new(),
        }
    }

    /// Starts `live` on the run's directory when the run starts.
    /// The runner then publishes the games being played for that page.
    pub fn serve_on(&mut self, live: Live) {
        self.serve = Some(live);
        self.live_games = Some(LiveGames::new());
    }
}

impl<W: Write> Terminal<W> {
    /// Prints a line, above the bar while there is one. A closed stdout
    /// (`arena ... | head`) does not stop the run: the lines are a view,
    /// the files are the record.
    fn println(&mut self, line: &str) {
        let out = &mut self.out;
        match &self.bar {
            Some(bar) => bar.suspend(|| {
                let _ = writeln!(out, "{line}");
            }),
            None => {
                let _ = writeln!(out, "{line}");
            }
        }
    }

    /// The last words of a run, as its format has them, after how long
    /// the machine kept the bots waiting for a CPU.
    pub fn run_ended(&mut self, finished: &Finished) {
        let config = &finished.manifest.config;
        if config.clock == ClockBasis::Wall {
            if let Some(warning) = self.cpu_wait.warning(config.concurrency, cores()) {
                self.println(&warning);
            }
        }
        if !run_queue::available() {
            self.println(run_queue::UNAVAILABLE);
        } else if let Some(line) = run_queue::machine_wait().summary() {
            self.println(&line);
        }
        self.say(&finished.verdict.summary(&finished.run));
    }

    /// What a format says: its lines, and its tables aligned.
    pub fn say(&mut self, said: &[Said]) {
        for piece in said {
            match piece {
                Said::Line(line) => self.println(line),
                Said::Tables(tables) => {
                    let text = render_tables(tables);
                    self.println(text.strip_suffix('\n').unwrap_or(&text));
                }
            }
        }
    }

    /// The end of a run: the standings, then the files in its directory
    /// (none listed before any game finished).
    pub fn ratings(&mut self, dir: &Path, rated: &RunRatings) {
        match (&rated.report, &rated.unplayed) {
            (None, Some(unplayed)) => {
                self.println("No game was played, so no standings.");
                self.println(unplayed);
            }
            (_, unplayed) => {
                self.standings(rated.report.as_ref());
                if let Some(unplayed) = unplayed {
                    self.println("");
                    self.println(unplayed);
                }
            }
        }
        for warning in &rated.warnings {
            self.warning(warning);
        }
        if rated.report.is_some() {
            self.files(dir, &rated.files);
        }
    }

    /// The standings of the rated games, or that there are none yet. With
    /// several variants: each variant's standings under a heading, then the
    /// pooled ones; the crosstable and failures are those of all games.
    pub fn standings(&mut self, ratings: Option<&Ratings>) {
        let Some(ratings) = ratings else {
            self.println("No finished games yet, so no standings.");
            return;
        };
        let several = ratings.fits.len() > 1;
        for fit in &ratings.fits {
            self.println("");
            if several {
                let label = fit.standings.label();
                self.println(&if label == POOLED {
                    "All variants pooled (one rating per bot; each variant's own first-player advantage and draw elo):".to_string()
                } else {
                    format!("{label} (its games alone):")
                });
            }
            // The table ends with its own newline.
            let table = fit.standings.render_table_top(TERMINAL_ROWS);
            self.println(table.strip_suffix('\n').unwrap_or(&table));
        }
        if let Some(all) = ratings.overall() {
            self.crosstable(all);
        }
    }

    /// The crosstable, a gauntlet's seed tables and the failure summary of
    /// the fit of every game.
    fn crosstable(&mut self, report: &RatingReport) {
        self.println("");
        let bots = report.standings.rows.len();
        if bots <= TERMINAL_CROSSTABLE_BOTS {
            let crosstable = report.crosstable.render_table();
            self.println(crosstable.strip_suffix('\n').unwrap_or(&crosstable));
        } else {
            self.println(&format!(
                "The crosstable of {bots} bots is in crosstable.csv and report.html."
            ));
        }
        self.seed_tables(report);
        let failures = render_failures_top(&report.standings.lost_by(), TERMINAL_ROWS);
        if !failures.is_empty() {
            self.println("");
            self.println(failures.strip_suffix('\n').unwrap_or(&failures));
        }
    }

    /// A gauntlet's tables, one per seed, each after a blank line.
    fn seed_tables(&mut self, report: &RatingReport) {
        for seed in &report.gauntlet {
            self.println("");
            let table = render_seed(seed);
            self.println(table.strip_suffix('\n').unwrap_or(&table));
        }
    }

    /// The files the run has in `dir`.
    pub fn files(&mut self, dir: &Path, files: &[PathBuf]) {
        self.println("");
        self.println(&format!("Files in {}:", dir.display()));
        for path in files {
            self.println(&format!("  {}", path.display()));
        }
    }
}

impl<W: Write> RunOutput for Terminal<W> {
    fn started(&mut self, run: &RunStarted) {
        if let Some(live) = self.serve.take() {
            if let Err(e) = live.start(run.dir, self.live_games.clone()) {
                self.println(&format!("warning: no live page: {e:#}"));
            }
        }
        self.seeds = run.config.seeds.clone();
        for line in run.lines {
            self.println(line);
        }
    }

    fn resumed(&mut self, resumed: &Resumed) {
        for repair in resumed.repairs {
            self.println(&format!("resume: {repair}"));
        }
        if resumed.finished == 0 {
            return;
        }
        let line = match (resumed.total, &resumed.status.resumed) {
            (_, Some(status)) => format!(
                "resume: {} games already played; {status}",
                resumed.finished
            ),
            (Some(total), None) => format!(
                "resume: {} of {total} games already played",
                resumed.finished
            ),
            (None, None) => format!("resume: {} games already played", resumed.finished),
        };
        self.println(&line);
    }

    fn warning(&mut self, text: &str) {
        self.println(text);
    }

    fn standings_due(&mut self, finished: u64, tally: &Tally) {
        let rated = RatingReport::from_tally(tally, &FitOptions::default(), &self.seeds);
        let Ok(report) = rated else { return };
        self.println("");
        self.println(&format!("Standings after {finished} games:"));
        let table = report.standings.render_table_top(TERMINAL_ROWS);
        self.println(table.strip_suffix('\n').unwrap_or(&table));
        if let Some(unplayed) = tally.unplayed().line() {
            self.println(&unplayed);
        }
        self.seed_tables(&report);
    }

    fn playing(&mut self, done: u64, total: Option<u64>, status: &RunStatus) {
        if self.show_bar {
            let bar = new_bar(done, total);
            bar.set_message(status.brief.clone());
            self.bar = Some(bar);
        }
    }

    fn checking_starts(&mut self, bots: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "starting each of the {bots} bots once before the first game"
            ));
        }
    }

    fn game_finished(&mut self, row: &GameRow, record: &GameRecord) {
        self.cpu_wait.add(record);
        // A failure seen before (the same bot, the same cause) is counted
        // and summarized at the end, not shown again.
        if self.repeats.note(record) {
            self.println(&game_line(row, &record.message));
        }
        // The referee's own problems in the game (a log it could not write).
        for warning in &record.warnings {
            self.println(&format!("{}: warning: {warning}", record.game_id));
        }
    }

    fn game_not_recorded(&mut self, game_id: u64, why: &str) {
        self.println(&format!("g{game_id}: not recorded: {why}"));
    }

    fn bot_disabled(&mut self, name: &str, why: &str) {
        if !self.repeats.note_disabled(name) {
            return;
        }
        self.println(&format!(
            "bot {name}: not started any more: {why}; its remaining games end at once (reason startup)"
        ));
    }

    fn sprt_pair(&mut self, _pair: u64, progress: &SprtProgress) {
        self.println(&progress.pair_line());
    }

    fn round_paired(&mut self, round: &PairedRound) {
        self.println(&round.line());
    }

    fn progress(&mut self, status: &RunStatus) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.set_message(status.brief.clone());
        }
    }

    fn finishing(&mut self, games: usize) {
        self.println(&format!(
            "Interrupted: finishing {}; Ctrl-C again to stop now",
            games_text(games)
        ));
    }

    fn stopping_now(&mut self, abandoned: usize) {
        self.println(&if abandoned == 0 {
            "Stopping now.".to_string()
        } else {
            format!(
                "Stopping now: {} in flight not recorded (--resume plays {} again)",
                games_text(abandoned),
                if abandoned == 1 { "it" } else { "them" }
            )
        });
    }

    fn stopped_playing(&mut self) {
        // Removes the bar so that what follows starts on a clean line.
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        let repeated = self.repeats.summary();
        if !repeated.is_empty() {
            self.println("");
            self.println(
                "Failures counted, not shown game by game (every message is in games.jsonl):",
            );
            for line in repeated {
                self.println(&format!("  {line}"));
            }
        }
    }

    fn live_games(&self) -> Option<Arc<LiveGames>> {
        self.live_games.clone()
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
fn game_line(row: &GameRow, message: &str) -> String {
    let mut line = format!(
        "{:>6}  {} - {}  {:<7}  {} ({} plies)",
        format!("g{}", row.id),
        row.white,
        row.black,
        row.result,
        row.reason,
        row.plies
    );
    if !row.reason.is_rule() && !message.is_empty() {
        line.push_str(": ");
        line.push_str(message);
    }
    line
}

/// `1 game`, `2 games`.
fn games_text(games: usize) -> String {
    match games {
        1 => "1 game".to_string(),
        n => format!("{n} games"),
    }
}

#[cfg(test)]
mod tests {
    //! The expected lines are what arena printed for these runs before the
    //! output moved behind `RunOutput` (see the commit that moved it), with
    //! the SPRT lines since naming the Elo model and the running estimate.

    use super::*;
    use crate::referee::row::row_with_result;
    use crate::stats::{EloModel, Pentanomial, SprtDecision, SprtEstimate, SprtStatus};
    use crate::tournament::format::{Format, Standings, Verdict};
    use crate::tournament::progress::RunOutcome;
    use crate::tournament::round_robin::RoundRobin;
    use crate::tournament::runner::RunEnd;
    use crate::tournament::settings::defs::{GAMES_PER_PAIRING, OPENING_PLIES, SEED};
    use crate::tournament::settings::Given;
    use crate::tournament::sprt::{SprtMatch, SprtPlan, SprtVerdict};
    use crate::tournament::testing::run_of;
    use crate::tournament::{Manifest, Plan, TournamentConfig};

    fn terminal() -> Terminal<Vec<u8>> {
        Terminal {
            out: Vec::new(),
            show_bar: false,
            bar: None,
            seeds: Vec::new(),
            cpu_wait: CpuWait::default(),
            serve: None,
            live_games: None,
            repeats: Repeats::new(),
        }
    }

    fn text(terminal: &Terminal<Vec<u8>>) -> &str {
        std::str::from_utf8(&terminal.out).unwrap()
    }

    fn config(bots: [&str; 2]) -> TournamentConfig {
        let mut given = Given::new()
            .with(&GAMES_PER_PAIRING, "2")
            .with(&OPENING_PLIES, "2")
            .with(&SEED, "4");
        for name in bots {
            given.add_bot(format!("{name}=x"));
        }
        run_of(&given).config
    }

    fn row(id: u64, white: &str, black: &str, result: &str, reason: &str) -> GameRow {
        GameRow {
            opening: "c5 c1".into(),
            reason: reason.parse().unwrap(),
            plies: 12,
            ..row_with_result(id, id / 2, white, black, result.parse().unwrap())
        }
    }

    fn sprt(llr: f64, pairs: u64, decision: SprtDecision, counts: Pentanomial) -> SprtProgress {
        SprtProgress {
            status: SprtStatus {
                llr,
                lower: -2.944,
                upper: 2.944,
                decision,
                pairs,
                model: EloModel::Normalized,
                estimate: Some(SprtEstimate {
                    elo: 12.34,
                    low: -4.56,
                    high: 29.1,
                    los: 0.9312,
                }),
            },
            counts,
        }
    }

    #[test]
    fn a_resumed_round_robin_interrupted() {
        let config = config(["good", "missing"]);
        let dir = Path::new("out");
        let mut terminal = terminal();
        let format = RoundRobin::of(&Manifest::round_robin(config.clone())).unwrap();
        terminal.started(&RunStarted {
            config: &config,
            dir,
            format: "round_robin",
            total: Some(2),
            lines: &format.started(&config, dir),
        });
        let repairs = [
            "games.jsonl: dropped an unfinished last line 2 (9 bytes, cut off by a crash)".into(),
        ];
        terminal.resumed(&Resumed {
            repairs: &repairs,
            finished: 1,
            total: Some(2),
            status: &RunStatus::leader(None),
        });
        terminal.warning("warning: bot \"missing\": program \"/no/bot\" not found");
        terminal.playing(1, Some(2), &RunStatus::leader(None));
        terminal.game_not_recorded(1, "the game task failed: boom");
        terminal.stopped_playing();
        terminal.standings(None);
        terminal.say(&Standings.summary(&RunOutcome {
            dir: dir.into(),
            end: RunEnd::Interrupted,
            finished: 1,
            total: Some(2),
            failed: vec![(1, "the game task failed: boom".into())],
        }));
        assert_eq!(
            text(&terminal),
            "Round robin: 2 bots, qango6, 2 games (2 per pairing), per-move=1000 (+100 ms grace), 1 at a time, seed 4, openings of 2 plies\n\
             Output: out\n\
             resume: games.jsonl: dropped an unfinished last line 2 (9 bytes, cut off by a crash)\n\
             resume: 1 of 2 games already played\n\
             warning: bot \"missing\": program \"/no/bot\" not found\n\
             g1: not recorded: the game task failed: boom\n\
             No finished games yet, so no standings.\n\
             \n\
             Interrupted: 1 of 2 games played. Continue with: arena tournament --resume out\n"
        );
    }

    #[test]
    fn game_lines_explain_failures_but_not_rule_endings() {
        assert_eq!(
            game_line(&row(9, "random", "good", "0-1", "line"), ""),
            "    g9  random - good  0-1      line (12 plies)"
        );
        assert_eq!(
            game_line(
                &row(12, "crash", "good", "0-1", "crash"),
                "white (crash): process ended: exit code 3"
            ),
            "   g12  crash - good  0-1      crash (12 plies): white (crash): process ended: exit code 3"
        );
    }

    #[test]
    fn files_are_listed_after_a_blank_line() {
        let mut terminal = terminal();
        let dir = Path::new("out");
        terminal.files(dir, &[dir.join("games.csv"), dir.join("logs/")]);
        assert_eq!(
            text(&terminal),
            "\nFiles in out:\n  out/games.csv\n  out/logs/\n"
        );
    }

    #[test]
    fn an_sprt_that_accepts_h1() {
        let config = config(["good", "crash"]);
        let plan = SprtPlan {
            elo0: 0.0,
            elo1: 200.0,
            alpha: 0.05,
            beta: 0.05,
            max_pairs: None,
            model: EloModel::Normalized,
        };
        let mut terminal = terminal();
        let dir = Path::new("sp");
        let manifest = Manifest::new(config.clone(), Plan::of(&plan));
        let format = SprtMatch::new(&manifest, plan).unwrap();
        terminal.started(&RunStarted {
            config: &config,
            dir,
            format: "sprt",
            total: None,
            lines: &format.started(&config, dir),
        });
        let ww = |ww| Pentanomial {
            ww,
            ..Default::default()
        };
        terminal.sprt_pair(0, &sprt(0.42, 1, SprtDecision::Continue, ww(1)));
        let decided = sprt(3.35, 8, SprtDecision::AcceptH1, ww(8));
        terminal.sprt_pair(7, &decided);
        let verdict = SprtVerdict {
            bots: ["good".into(), "crash".into()],
            plan,
            progress: decided,
        };
        terminal.say(&verdict.summary(&RunOutcome {
            dir: "sp".into(),
            end: RunEnd::Stopped,
            finished: 16,
            total: None,
            failed: Vec::new(),
        }));
        assert_eq!(
            text(&terminal),
            "SPRT good vs crash: H0 nElo <= 0 against H1 nElo >= 200 (normalized model), alpha 0.05, beta 0.05; qango6, per-move=1000 (+100 ms grace), 1 at a time, seed 4, openings of 2 plies\n\
             LLR bounds [-2.94, +2.94]. Output: sp\n\
             nElo: normalized Elo of the game pairs (their mean score over its spread, as fastchess and fishtest test), another scale than the standings' logistic Elo (the joint fit of every game): the two are not comparable number for number.\n\
             pair    1: LLR +0.42  bounds [-2.94, +2.94] normalized  nElo +12.3 [-4.6, +29.1]  LOS 93.1%  pentanomial [0, 0, 0, 0, 1]\n\
             pair    8: LLR +3.35  bounds [-2.94, +2.94] normalized  nElo +12.3 [-4.6, +29.1]  LOS 93.1%  pentanomial [0, 0, 0, 0, 8]\n\
             \n\
             H1 accepted (normalized model, bounds [0, 200] nElo): good is stronger than crash by at least 200 nElo (LLR +3.35 >= +2.94, 8 pairs; nElo +12.3 [-4.6, +29.1]  LOS 93.1%).\n"
        );
    }

    #[test]
    fn a_resumed_sprt_undecided_at_its_limit() {
        let counts = Pentanomial {
            dd: 1,
            ww: 2,
            ..Default::default()
        };
        let progress = sprt(0.04, 3, SprtDecision::Continue, counts);
        let mut terminal = terminal();
        terminal.resumed(&Resumed {
            repairs: &[],
            finished: 6,
            total: None,
            status: &RunStatus {
                brief: String::new(),
                resumed: Some(progress.text()),
            },
        });
        let verdict = SprtVerdict {
            bots: ["good".into(), "rnd".into()],
            plan: SprtPlan {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                max_pairs: Some(3),
                model: EloModel::Normalized,
            },
            progress,
        };
        terminal.say(&verdict.summary(&RunOutcome {
            dir: "sp2".into(),
            end: RunEnd::Complete,
            finished: 6,
            total: Some(6),
            failed: Vec::new(),
        }));
        assert_eq!(
            text(&terminal),
            "resume: 6 games already played; LLR +0.04 within [-2.94, +2.94] (normalized model), nElo +12.3 [-4.6, +29.1]  LOS 93.1%, pentanomial [0, 0, 1, 0, 2]\n\
             \n\
             Undecided after 3 pairs: LLR +0.04 within [-2.94, +2.94] (normalized model), nElo +12.3 [-4.6, +29.1]  LOS 93.1%, pentanomial [0, 0, 1, 0, 2].\n"
        );
    }

    /// A round robin of `bots` in which the lower number wins, and every
    /// bot numbered from 31 on loses its games as black on time.
    fn big_field(bots: usize) -> crate::report::fits::Ratings {
        use crate::report::fits::{Pooling, Ratings};
        use crate::tournament::tally::AddRow;
        let mut tally = Tally::new();
        let mut id = 0;
        for i in 1..=bots {
            for j in i + 1..=bots {
                for (white, black) in [(i, j), (j, i)] {
                    let result = if white < black { "1-0" } else { "0-1" };
                    let reason = if black > 30 && white < black {
                        "timeout"
                    } else {
                        "line"
                    };
                    let game = row(
                        id,
                        &format!("b{white}"),
                        &format!("b{black}"),
                        result,
                        reason,
                    );
                    tally.add_row(&game).unwrap();
                    id += 1;
                }
            }
        }
        Ratings::from_tally(&tally, &FitOptions::default(), Pooling::Pooled, &[]).unwrap()
    }

    #[test]
    fn a_big_fields_tables_are_summaries_in_the_terminal() {
        let mut terminal = terminal();
        terminal.standings(Some(&big_field(60)));
        let text = text(&terminal);
        let lines: Vec<&str> = text.lines().collect();
        // Two tables of at most 20 bots each, and a few lines around them.
        assert!(lines.len() < 2 * TERMINAL_ROWS + 20, "{text}");
        assert!(lines.iter().all(|l| l.chars().count() < 200), "{text}");
        let b21 = lines.iter().position(|l| l.contains(" b20 ")).unwrap();
        assert!(lines[b21 + 1].starts_with("… and 40 more bots"), "{text}");
        assert!(!text.contains(" b21 "), "{text}");
        assert!(text.contains("The crosstable of 60 bots is in crosstable.csv"));
        // Bots 31 to 60 lost games on time: the 20 that lost most, then a count.
        assert!(
            text.contains("… and 10 more bots: the lost_* columns"),
            "{text}"
        );
        assert!(
            text.contains("  b60  "),
            "b60 lost most games on time: {text}"
        );
    }

    #[test]
    fn the_guide_gives_the_terminals_bounds() {
        let guide = include_str!("../../docs/GUIDE.md").replace('\n', " ");
        assert!(guide.contains(&format!("lists the best {TERMINAL_ROWS} bots")));
        assert!(guide.contains(&format!("the {TERMINAL_ROWS} bots that lost most")));
        assert!(guide.contains(&format!("for at most {TERMINAL_CROSSTABLE_BOTS} bots")));
    }

    #[test]
    fn a_small_fields_crosstable_is_printed_whole() {
        let mut terminal = terminal();
        terminal.standings(Some(&big_field(TERMINAL_CROSSTABLE_BOTS)));
        let text = text(&terminal);
        assert!(!text.contains("more bots"), "{text}");
        assert!(text.contains(&format!(" b{TERMINAL_CROSSTABLE_BOTS} ")));
        assert!(text.contains(" x "), "the crosstable's diagonal: {text}");
    }

    #[test]
    fn ctrl_c_says_what_it_finishes_or_abandons() {
        let mut terminal = terminal();
        terminal.finishing(2);
        terminal.finishing(1);
        terminal.stopping_now(2);
        terminal.stopping_now(1);
        terminal.stopping_now(0);
        assert_eq!(
            text(&terminal),
            "Interrupted: finishing 2 games; Ctrl-C again to stop now\n\
             Interrupted: finishing 1 game; Ctrl-C again to stop now\n\
             Stopping now: 2 games in flight not recorded (--resume plays them again)\n\
             Stopping now: 1 game in flight not recorded (--resume plays it again)\n\
             Stopping now.\n"
        );
    }
}
