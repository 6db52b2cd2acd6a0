//! The numbers behind the per-game sections of `report.html`, accumulated
//! one game at a time from the games files (so 100,000 games take the
//! memory of their aggregates, not of the games): game lengths, move times
//! against the limit, rating progression at checkpoints, and the SPRT's LLR
//! path. What the tally of the games counts (results, crosstable, failures
//! per bot) the page reads from the tally, not from here; the progression
//! and the LLR path read a tally too, as the games arrive (the counts at
//! each checkpoint, the pairs as they complete).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::moves::Texts;
use crate::analysis::BotDecisions;
use crate::standings::Standings;
use arena_referee::{GameRecord, GameRow};
use arena_rules::protocol::TimeControl;
use arena_stats::{InvalidGame, Sprt, Tally};
use arena_tournament::tally::AddRow;

/// How many rating checkpoints the progression section computes, at most.
pub const CHECKPOINTS: u64 = 50;
/// A field of N bots rates one checkpoint in `N² / 4,000` (each is a fit
/// of every bot, whose cost grows as the cube of the field): every one up
/// to 63 bots, one in 2 at 100, one in 10 at 200 (5 points and the last).
fn checkpoint_stride(bots: usize) -> u64 {
    (bots * bots / 4000).max(1) as u64
}

/// Points of the LLR path kept, at most (thinned by halving beyond).
const MAX_LLR_POINTS: usize = 2000;

/// One bot's thinking times (its own moves, opening moves excluded).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveTimes {
    /// Milliseconds of wall time -> moves that took that long (exact
    /// quantiles in the memory of the distinct values, which the clock
    /// bounds).
    pub histogram: BTreeMap<u64, u64>,
    /// The same for the moves' CPU time, where it was measured.
    pub cpu_histogram: BTreeMap<u64, u64>,
    /// The largest per-move limit among its games (`None` with a clock).
    pub move_limit_ms: Option<u64>,
    /// The clock's base when the games had one.
    pub clock_base_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimeSummary {
    pub moves: u64,
    pub median_ms: u64,
    pub p90_ms: u64,
    pub max_ms: u64,
}

impl TimeSummary {
    /// Of the times counted in `histogram`; `None` without any.
    fn of(histogram: &BTreeMap<u64, u64>) -> Option<TimeSummary> {
        let moves: u64 = histogram.values().sum();
        (moves > 0).then(|| TimeSummary {
            moves,
            median_ms: quantile(histogram, moves, 0.5),
            p90_ms: quantile(histogram, moves, 0.9),
            max_ms: histogram.keys().next_back().copied().unwrap_or(0),
        })
    }
}

/// The smallest time with at least `q` of the `total` moves at or below it.
fn quantile(histogram: &BTreeMap<u64, u64>, total: u64, q: f64) -> u64 {
    let need = ((total as f64) * q).ceil().max(1.0) as u64;
    let mut seen = 0;
    for (&ms, &n) in histogram {
        seen += n;
        if seen >= need {
            return ms;
        }
    }
    0
}

impl MoveTimes {
    fn add(&mut self, ms: u64, cpu_ms: Option<u64>) {
        *self.histogram.entry(ms).or_default() += 1;
        if let Some(cpu) = cpu_ms {
            *self.cpu_histogram.entry(cpu).or_default() += 1;
        }
    }

    /// The wall times.
    pub fn summary(&self) -> Option<TimeSummary> {
        TimeSummary::of(&self.histogram)
    }

    /// The CPU times, where measured.
    pub fn cpu_summary(&self) -> Option<TimeSummary> {
        TimeSummary::of(&self.cpu_histogram)
    }
}

/// One bot's rating after `games` games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    pub bot: String,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checkpoint {
    pub games: u64,
    pub ratings: Vec<RatingPoint>,
}

/// The SPRT between bot A and bot B of one directory: its LLR after each
/// pair, in the order the pairs completed (paired by a tally of the
/// directory's games, as the run's tally pairs them).
#[derive(Debug)]
pub struct LlrPath {
    pub bot_a: String,
    pub bot_b: String,
    sprt: Sprt,
    /// The directory's games so far.
    tally: Tally,
    /// `(pairs, llr)` after each kept pair.
    pub points: Vec<(u64, f64)>,
    stride: u64,
}

impl LlrPath {
    pub fn new(sprt: Sprt, bot_a: String, bot_b: String) -> LlrPath {
        LlrPath {
            tally: Tally::new(),
            bot_a,
            bot_b,
            sprt,
            points: vec![(0, 0.0)],
            stride: 1,
        }
    }

    pub fn bounds(&self) -> (f64, f64) {
        (self.sprt.lower_bound(), self.sprt.upper_bound())
    }

    fn add(&mut self, row: &GameRow) -> Result<(), InvalidGame> {
        let before = self.pairs();
        self.tally.add_row(row)?;
        let pairs = self.pairs();
        // A point when this game completed a pair (one in `stride`).
        if pairs > before && pairs.is_multiple_of(self.stride) {
            let counts = self.tally.pentanomial(&self.bot_a, &self.bot_b);
            self.points.push((pairs, self.sprt.llr(&counts)));
            if self.points.len() >= MAX_LLR_POINTS {
                self.stride *= 2;
                let stride = self.stride;
                self.points.retain(|&(p, _)| p % stride == 0);
            }
        }
        Ok(())
    }

    /// A's and B's complete pairs so far.
    fn pairs(&self) -> u64 {
        self.tally.pentanomial(&self.bot_a, &self.bot_b).pairs()
    }

    /// The LLR after the last complete pair (always the last point).
    pub fn finish(&mut self) {
        let pairs = self.pairs();
        if self.points.last().map(|p| p.0) != Some(pairs) {
            let counts = self.tally.pentanomial(&self.bot_a, &self.bot_b);
            self.points.push((pairs, self.sprt.llr(&counts)));
        }
    }
}

/// Everything the per-game sections need, game by game.
#[derive(Debug)]
pub struct ReportData {
    /// Bot names in order of first appearance in the games files; indices
    /// below refer to them.
    pub bots: Vec<String>,
    bot_index: HashMap<String, usize>,
    /// Per variant id: plies -> games that lasted that long.
    pub lengths: BTreeMap<String, BTreeMap<u32, u64>>,
    pub move_times: Vec<MoveTimes>,
    pub games: u64,
    /// The games so far: each checkpoint rates what it counts then (after
    /// the last game, the tally of the page's games).
    pub tally: Tally,
    checkpoint_every: u64,
    /// Checkpoints reached so far (rated or not).
    due: u64,
    /// Whether the checkpoints are rated (each is a fit of every bot).
    rates_progression: bool,
    pub progression: Vec<Checkpoint>,
    /// One per SPRT directory, by directory index.
    pub llr: BTreeMap<usize, LlrPath>,
    /// The decisions against perfect play per bot, over the directories
    /// that hold an `analysis.csv` (`arena analyse`); empty without one.
    pub decisions: Vec<BotDecisions>,
    /// Per (directory index, game id): the viewer's value strip
    /// ([`crate::analysis::strips`]).
    pub strips: HashMap<(usize, u64), String>,
    /// One per Swiss or knockout directory, by directory index.
    pub formats: BTreeMap<usize, arena_tournament::text::FormatTables>,
    /// The texts the game lines repeat (reasons, messages), numbered.
    pub texts: Texts,
}

impl ReportData {
    /// Data for `expected` games: rating checkpoints every
    /// `expected / CHECKPOINTS` games (and after the last).
    pub fn new(expected: u64) -> ReportData {
        ReportData {
            bots: Vec::new(),
            bot_index: HashMap::new(),
            lengths: BTreeMap::new(),
            move_times: Vec::new(),
            games: 0,
            tally: Tally::new(),
            checkpoint_every: expected.div_ceil(CHECKPOINTS).max(1),
            due: 0,
            rates_progression: true,
            progression: Vec::new(),
            llr: BTreeMap::new(),
            decisions: Vec::new(),
            strips: HashMap::new(),
            formats: BTreeMap::new(),
            texts: Texts::default(),
        }
    }

    pub fn bot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.bot_index.get(name) {
            return i;
        }
        self.bots.push(name.to_string());
        self.move_times.push(MoveTimes::default());
        self.bot_index.insert(name.to_string(), self.bots.len() - 1);
        self.bots.len() - 1
    }

    /// The index of bot `name`, if it played a game seen here.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.bot_index.get(name).copied()
    }

    /// Adds one finished game of directory `dir`; fails on a game the
    /// tally cannot count (see [`Tally::add`]), which is then not added.
    pub fn add(
        &mut self,
        dir: usize,
        row: &GameRow,
        record: Option<&GameRecord>,
    ) -> Result<(), InvalidGame> {
        self.tally.add_row(row)?;
        let white = self.bot(&row.white);
        let black = self.bot(&row.black);
        self.games += 1;
        if row.played {
            // A game nobody played has no length.
            let lengths = self.lengths.entry(row.variant.clone()).or_default();
            *lengths.entry(row.plies).or_default() += 1;
        }
        if let Some(record) = record {
            self.add_times(white, black, record);
            self.texts.add_record(record);
        }
        if let Some(path) = self.llr.get_mut(&dir) {
            path.add(row)?;
        }
        if self.rates_progression && self.games.is_multiple_of(self.checkpoint_every) {
            self.due += 1;
            if self.due.is_multiple_of(checkpoint_stride(self.bots.len())) {
                self.checkpoint();
            }
        }
        Ok(())
    }

    fn add_times(&mut self, white: usize, black: usize, record: &GameRecord) {
        let skip = record.opening.len();
        for (ply, &ms) in record.move_times_ms.iter().enumerate().skip(skip) {
            let bot = if ply % 2 == 0 { white } else { black };
            let cpu = record.move_cpu_ms.get(ply).copied().flatten();
            self.move_times[bot].add(ms, cpu);
        }
        for bot in [white, black] {
            let times = &mut self.move_times[bot];
            match record.time_control {
                TimeControl::PerMove { move_ms } => {
                    times.move_limit_ms = Some(times.move_limit_ms.unwrap_or(0).max(move_ms))
                }
                TimeControl::Clock { base_ms, .. } => {
                    times.clock_base_ms = Some(times.clock_base_ms.unwrap_or(0).max(base_ms))
                }
            }
        }
    }

    /// No rating progression: no checkpoint is rated (a league of many
    /// versions, where each would be a fit of all of them).
    pub fn without_progression(mut self) -> ReportData {
        self.rates_progression = false;
        self
    }

    /// Rates the games so far (a fit that fails, e.g. one bot only, adds
    /// no checkpoint).
    fn checkpoint(&mut self) {
        if self.progression.last().map(|c| c.games) == Some(self.games) {
            return;
        }
        let counts = self.tally.counts();
        if let Ok(standings) = Standings::from_counts(&counts.bots, &counts.counts) {
            let ratings = standings
                .rows
                .iter()
                .map(|r| RatingPoint {
                    bot: r.bot.clone(),
                    elo: r.elo,
                    low: r.elo_low,
                    high: r.elo_high,
                })
                .collect();
            self.progression.push(Checkpoint {
                games: self.games,
                ratings,
            });
        }
    }

    /// Called after the last game.
    pub fn finish(&mut self) {
        if self.games > 0 && self.rates_progression {
            self.checkpoint();
        }
        for path in self.llr.values_mut() {
            path.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_referee::row::row_with_result;
    use arena_rules::games::GameResult;
    use arena_rules::games::RuleReason;
    use arena_rules::protocol::{FailureReason, Reason};
    use arena_stats::{Pentanomial, Score};

    /// Four games by hand: a beats b as white by a group, b beats a as white
    /// when a times out, a and c draw (full board, 36 plies), c beats b as
    /// black when b crashes.
    fn games() -> ReportData {
        let mut data = ReportData::new(4);
        let mut rows = vec![
            row_with_result(0, 0, "a", "b", GameResult::WhiteWins),
            row_with_result(1, 0, "b", "a", GameResult::WhiteWins),
            row_with_result(2, 1, "a", "c", GameResult::Draw),
            row_with_result(3, 1, "b", "c", GameResult::BlackWins),
        ];
        rows[1].reason = Reason::Failure(FailureReason::Timeout);
        rows[2].reason = Reason::Rule(RuleReason::Full);
        rows[2].plies = 36;
        rows[3].reason = Reason::Failure(FailureReason::Crash);
        rows[3].plies = 7;
        for row in &rows {
            data.add(0, row, None).unwrap();
        }
        data.finish();
        data
    }

    #[test]
    fn lengths_per_variant() {
        let data = games();
        assert_eq!(data.bots, ["a", "b", "c"]);
        assert_eq!(
            data.lengths["qango6"],
            BTreeMap::from([(7, 1), (20, 2), (36, 1)])
        );
    }

    #[test]
    fn progression_has_a_checkpoint_after_the_last_game() {
        let data = games();
        assert_eq!(data.progression.last().unwrap().games, 4);
        assert!(data.progression.len() <= CHECKPOINTS as usize + 1);
    }

    #[test]
    fn progression_ends_at_the_standings_of_all_games() {
        let data = games();
        let last = data.progression.last().unwrap();
        let rows = [
            row_with_result(0, 0, "a", "b", GameResult::WhiteWins),
            row_with_result(1, 0, "b", "a", GameResult::WhiteWins),
            row_with_result(2, 1, "a", "c", GameResult::Draw),
            row_with_result(3, 1, "b", "c", GameResult::BlackWins),
        ];
        let report = crate::rating::RatingReport::from_rows(&rows).unwrap();
        for r in &report.standings.rows {
            let point = last.ratings.iter().find(|p| p.bot == r.bot).unwrap();
            assert_eq!(
                (point.elo, point.low, point.high),
                (r.elo, r.elo_low, r.elo_high)
            );
        }
    }

    /// One real record (as in games.jsonl): two opening moves, then white
    /// 47 ms, black 0 ms, white 55 ms, per move 400 ms.
    const RECORD: &str = r#"{"black":"b","black_time_ms":0,"cells":["d4","e4","d5"],
        "duration_ms":740,"game":"qango6","game_id":"g1","message":"white wins",
        "move_times_ms":[0,0,47,0,55],"moves":["e4","f2","d5","c6","d4"],
        "opening":["e4","f2"],"plies":5,"reason":"group","result":"1-0",
        "time_control":{"move_ms":400,"type":"per_move"},"white":"a",
        "white_time_ms":102,"winner":"white"}"#;

    #[test]
    fn move_times_skip_the_opening_and_keep_the_limit() {
        let record: GameRecord = serde_json::from_str(RECORD).unwrap();
        let mut data = ReportData::new(1);
        data.add(0, &record.to_games_row(), Some(&record)).unwrap();
        let white = data.move_times[0].summary().unwrap();
        assert_eq!((white.moves, white.median_ms, white.max_ms), (2, 47, 55));
        let black = data.move_times[1].summary().unwrap();
        assert_eq!((black.moves, black.max_ms), (1, 0));
        assert_eq!(data.move_times[0].move_limit_ms, Some(400));
        assert_eq!(data.move_times[1].clock_base_ms, None);
        // A record without CPU times (written before arena measured them).
        assert_eq!(data.move_times[0].cpu_summary(), None);
    }

    #[test]
    fn cpu_times_are_summarised_beside_wall_times_where_measured() {
        let mut record: GameRecord = serde_json::from_str(RECORD).unwrap();
        // White's moves used 40 and 50 ms of CPU; black was not measured.
        record.move_cpu_ms = vec![Some(0), Some(0), Some(40), None, Some(50)];
        let mut data = ReportData::new(1);
        data.add(0, &record.to_games_row(), Some(&record)).unwrap();
        let white = data.move_times[0].cpu_summary().unwrap();
        assert_eq!((white.moves, white.median_ms, white.max_ms), (2, 40, 50));
        assert_eq!(data.move_times[1].cpu_summary(), None);
    }

    #[test]
    fn the_llr_path_counts_a_pair_once_both_games_are_in() {
        let sprt = Sprt::new(arena_stats::SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: arena_stats::EloModel::Normalized,
        })
        .unwrap();
        let mut path = LlrPath::new(sprt, "a".into(), "b".into());
        // Pair 0: a wins as white (game 0) and as black (game 1), the second
        // game finishing first. Pair 1: a draws both.
        let rows = [
            row_with_result(1, 0, "b", "a", GameResult::BlackWins),
            row_with_result(0, 0, "a", "b", GameResult::WhiteWins),
            row_with_result(2, 1, "a", "b", GameResult::Draw),
            row_with_result(3, 1, "b", "a", GameResult::Draw),
        ];
        path.add(&rows[0]).unwrap();
        assert_eq!(path.points, [(0, 0.0)], "half a pair is no point");
        for row in &rows[1..] {
            path.add(row).unwrap();
        }
        path.finish();
        let mut one = Pentanomial::default();
        one.add(Score::Win, Score::Win);
        let mut two = one;
        two.add(Score::Draw, Score::Draw);
        assert_eq!(
            path.points,
            [(0, 0.0), (1, sprt.llr(&one)), (2, sprt.llr(&two))]
        );
        assert!(path.points[1].1 > 0.0, "a won the first pair");
    }

    #[test]
    fn a_big_field_rates_fewer_checkpoints() {
        assert_eq!(
            [20, 63, 64, 100, 200].map(checkpoint_stride),
            [1, 1, 1, 2, 10]
        );
    }

    #[test]
    fn move_time_quantiles_are_exact() {
        let mut t = MoveTimes::default();
        for ms in [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] {
            t.add(ms, None);
        }
        let s = t.summary().unwrap();
        assert_eq!(
            (s.moves, s.median_ms, s.p90_ms, s.max_ms),
            (10, 50, 90, 100)
        );
    }
}
