//! The tally of a set of games: every count arena shows of them, kept as
//! the games arrive, one at a time, so that counting a tournament (or
//! `arena rate` over many files) takes memory that grows with the number of
//! bots, not with the number of games. A run counts its games once, here;
//! the progress display, the SPRT, the standings during and after the run,
//! the CSV tables and report.html all read this tally.
//!
//! A game comes in as a [`TalliedGame`], plain names and numbers (turning a
//! `games.csv` row into one is the job of the layer that knows rows).
//!
//! Kept per game: nothing. Kept per bot: its [`Wdl`] with each colour (for
//! [`Tally::leader`]) and the games it lost by each failure reason. Kept
//! per variant and ordered (white, black) pair of bots: white's [`Wdl`]
//! (the Elo fit, the standings and the crosstable need no more; they read
//! it through [`Tally::counts`]: per ordered pair [`PairCounts::wdl`], per
//! pair of bots [`PairCounts::head_to_head`], per bot and colour
//! [`PairCounts::by_bot`]). Kept per unordered pair of bots: its
//! pentanomial counts ([`Tally::pentanomial`]). Kept until its
//! partner arrives: a game of a colour-swapped pair ([`PairMatcher`]; the
//! partner usually ends moments later, so this stays small). This is the
//! one place where games are paired: whoever needs pairs (the SPRT, the
//! report's LLR path, the adaptive format) reads them from a tally.
//!
//! The counts after the first N games (a progress line, a rating
//! checkpoint, a point of the LLR path) are the tally read when N games
//! have been added; a format that needs the counts of an earlier prefix
//! (the adaptive format replaying its rounds) adds those games to a tally
//! of its own ([`Tally::with_bots`] keeps its numbering of the bots).
//!
//! A game neither bot played ([`TalliedGame::played`] false: both failed
//! to start) is counted apart ([`Tally::unplayed`]) and nowhere else: no
//! result, no pair, no failure, no bot it alone would add; so no fit,
//! standings, SPRT or leader sees it.
//!
//! Kept per variant: the same counts over that variant's games alone
//! ([`Tally::by_variant`]), and the per-pair counts of its games over all
//! bots (for the pooled fit, [`TallyCounts::variant_counts`]).
//!
//! Bots and variants are numbered in order of first appearance, so the
//! same games in the same order give the same numbers, and the fits the
//! same ratings to the last bit.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use serde::ser::{Serialize, SerializeTuple, Serializer};

use crate::elo::{PairCounts, MAX_BOTS};
use crate::pentanomial::{PairMatcher, Pentanomial};
use crate::wdl::{Colours, Score, Wdl};
use arena_rules::games::{Color, GameResult};
use arena_rules::protocol::FailureReason;

/// One finished game, as the tally counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TalliedGame<'a> {
    /// The game's id, for errors.
    pub id: u64,
    pub variant: &'a str,
    /// Games of one colour-swapped pair share it (within a variant).
    pub pair: u64,
    pub white: &'a str,
    pub black: &'a str,
    pub result: GameResult,
    /// The failure that ended the game, when a bot's failure did (the
    /// failing bot is the loser).
    pub failure: Option<FailureReason>,
    /// `false` when neither bot played the game (both failed to start):
    /// counted in [`Tally::unplayed`] only.
    pub played: bool,
}

/// The games neither bot played (both failed to start), which a tally
/// counts apart from every result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unplayed {
    pub games: u64,
    /// Per bot, by name: its games that did not happen.
    pub by_bot: BTreeMap<String, u64>,
}

/// The most bots [`Unplayed::line`] names.
const UNPLAYED_NAMED: usize = 8;

impl Unplayed {
    fn add(&mut self, white: &str, black: &str) {
        self.games += 1;
        for bot in [white, black] {
            *self.by_bot.entry(bot.to_string()).or_default() += 1;
        }
    }

    /// `3 games did not happen (neither bot started them), so no rating
    /// counts them: a 3, b 2, c 1` (the bots with the most first, at most
    /// eight named); `None` when every game was played.
    pub fn line(&self) -> Option<String> {
        if self.games == 0 {
            return None;
        }
        let mut bots: Vec<(&String, &u64)> = self.by_bot.iter().collect();
        bots.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut named: Vec<String> = bots
            .iter()
            .take(UNPLAYED_NAMED)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        if bots.len() > UNPLAYED_NAMED {
            named.push(format!("and {} more bots", bots.len() - UNPLAYED_NAMED));
        }
        let games = match self.games {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        Some(format!(
            "{games} did not happen (neither bot started; kept in games.jsonl with the reasons), so no rating counts them: {}",
            named.join(", ")
        ))
    }
}

/// A game the tally cannot count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvalidGame {
    SelfPlay { id: u64, bot: String },
    TooManyBots { id: u64, bot: String, max: usize },
}

impl fmt::Display for InvalidGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidGame::SelfPlay { id, bot } => {
                write!(f, "game g{id}: bot {bot:?} cannot play itself")
            }
            InvalidGame::TooManyBots { id, bot, max } => write!(
                f,
                "game g{id}: bot {bot:?} is the {}th different bot, more than the {max} arena \
                 can rate together (the Elo fit holds a bots x bots matrix)",
                max + 1
            ),
        }
    }
}

impl std::error::Error for InvalidGame {}

/// Number of failure reasons: the width of [`LostBy`].
pub const FAILURE_KINDS: usize = FailureReason::ALL.len();

/// Games one bot lost, per failure reason (in the order of
/// [`FailureReason::ALL`]). Serialises as that many plain numbers, so it can
/// sit in a CSV row under one column per reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LostBy(pub [u64; FAILURE_KINDS]);

impl LostBy {
    pub fn get(&self, reason: FailureReason) -> u64 {
        self.0[failure_index(reason)]
    }

    /// Counts a game this bot lost by `reason`.
    pub fn add(&mut self, reason: FailureReason) {
        self.0[failure_index(reason)] += 1;
    }

    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// `timeout 2, crash 1` for the reasons that occurred (empty if none).
    pub fn text(&self) -> String {
        FailureReason::ALL
            .iter()
            .filter(|&&r| self.get(r) > 0)
            .map(|&r| format!("{r} {}", self.get(r)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Serialize for LostBy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(FAILURE_KINDS)?;
        for count in &self.0 {
            tuple.serialize_element(count)?;
        }
        tuple.end()
    }
}

fn failure_index(reason: FailureReason) -> usize {
    FailureReason::ALL
        .iter()
        .position(|&r| r == reason)
        .expect("FailureReason::ALL lists every reason")
}

/// The bot with the most points so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leader {
    pub name: String,
    /// Points times two (a draw is one).
    pub half_points: u64,
    pub games: u64,
}

/// The head-to-head of bots A < B (by index), from A's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchCounts {
    pub pentanomial: Pentanomial,
    /// A's results in games whose partner never arrived.
    pub unpaired: Wdl,
}

impl MatchCounts {
    /// The same games from B's side.
    pub fn reversed(&self) -> MatchCounts {
        MatchCounts {
            pentanomial: self.pentanomial.reversed(),
            unpaired: self.unpaired.flipped(),
        }
    }
}

impl std::ops::AddAssign for MatchCounts {
    /// Pools the games of two heads-to-head from the same side (a
    /// gauntlet's seed against all its opponents).
    fn add_assign(&mut self, other: MatchCounts) {
        self.pentanomial += other.pentanomial;
        self.unpaired += other.unpaired;
    }
}

/// (A, B, variant, pair): the games that may form one colour-swapped pair.
type PairKey = (usize, usize, u32, u64);

/// Games added one by one; see the module docs.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    bots: Vec<String>,
    bot_index: HashMap<String, usize>,
    variants: HashMap<String, u32>,
    /// Variant ids by index, in order of first appearance.
    variant_ids: Vec<String>,
    /// (variant, white, black) -> white's results.
    results: BTreeMap<(u32, usize, usize), Wdl>,
    /// Per variant (by index): its games alone, as if no other variant had
    /// been added (their own bot numbering). Kept only by the tally games
    /// are added to, not by these, and only from the second variant on
    /// (until then the tally itself is the first variant's games alone).
    by_variant: Vec<Tally>,
    /// (A, B) with A < B -> A's pentanomial counts.
    matches: BTreeMap<(usize, usize), Pentanomial>,
    /// Games waiting for their colour-swapped partner.
    pairing: PairMatcher<PairKey>,
    /// Per bot: games lost by each failure reason.
    lost_by: Vec<LostBy>,
    /// Per bot: its results with each colour.
    colours: Vec<Colours>,
    games: u64,
    /// The games neither bot played, counted nowhere else.
    unplayed: Unplayed,
}

/// Every count of a [`Tally`] at one moment, as the fits and tables read
/// them.
#[derive(Debug, Clone, PartialEq)]
pub struct TallyCounts {
    /// Bot names in order of first appearance; indices below refer to them.
    pub bots: Vec<String>,
    /// All games, whatever their variant.
    pub counts: PairCounts,
    /// Per variant, in order of first appearance: its id and its games.
    pub variant_counts: Vec<(String, PairCounts)>,
    /// Per (A, B) with A < B, from A's side; games still waiting for their
    /// partner count as unpaired.
    pub matches: BTreeMap<(usize, usize), MatchCounts>,
    /// Per bot: games lost by each failure reason.
    pub lost_by: Vec<LostBy>,
    pub games: u64,
}

impl Tally {
    pub fn new() -> Tally {
        Tally::default()
    }

    /// A tally whose bots are numbered as in `bots` (then new ones in order
    /// of appearance), as a caller that numbers its bots needs (the adaptive
    /// format's fits); a bot named here counts as met, with no game, for
    /// [`Tally::leader`] and [`Tally::bots`]. Fails on more than
    /// [`MAX_BOTS`].
    pub fn with_bots(bots: &[String]) -> Result<Tally, InvalidGame> {
        let mut tally = Tally::new();
        for name in bots {
            tally.bot_number(name, 0)?;
        }
        Ok(tally)
    }

    /// Games added so far, but those neither bot played.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The games added that neither bot played (not in [`Tally::games`]).
    pub fn unplayed(&self) -> &Unplayed {
        &self.unplayed
    }

    /// Bot names, in order of first appearance.
    pub fn bots(&self) -> &[String] {
        &self.bots
    }

    /// Number of variants among the games added.
    pub fn variant_count(&self) -> usize {
        self.variant_ids.len()
    }

    /// The index of bot `name`, new ones numbered in order of appearance;
    /// refuses a bot beyond [`MAX_BOTS`].
    fn bot_number(&mut self, name: &str, id: u64) -> Result<usize, InvalidGame> {
        if let Some(&i) = self.bot_index.get(name) {
            return Ok(i);
        }
        if self.bots.len() >= MAX_BOTS {
            return Err(InvalidGame::TooManyBots {
                id,
                bot: name.to_string(),
                max: MAX_BOTS,
            });
        }
        self.bots.push(name.to_string());
        self.lost_by.push(LostBy::default());
        self.colours.push(Colours::default());
        self.bot_index.insert(name.to_string(), self.bots.len() - 1);
        Ok(self.bots.len() - 1)
    }

    fn variant(&mut self, id: &str) -> u32 {
        if let Some(&v) = self.variants.get(id) {
            return v;
        }
        let next = self.variants.len() as u32;
        self.variants.insert(id.to_string(), next);
        self.variant_ids.push(id.to_string());
        next
    }

    /// Adds one game. Fails on a bot playing itself, or on one bot more than
    /// the fit can hold; the game is then not counted. A game neither bot
    /// played is counted in [`Tally::unplayed`] alone.
    pub fn add(&mut self, game: &TalliedGame) -> Result<(), InvalidGame> {
        if !game.played {
            if game.white == game.black {
                return Err(InvalidGame::SelfPlay {
                    id: game.id,
                    bot: game.white.to_string(),
                });
            }
            self.unplayed.add(game.white, game.black);
            return Ok(());
        }
        let second_variant = self.by_variant.is_empty()
            && self.variant_ids.len() == 1
            && !self.variants.contains_key(game.variant);
        if second_variant {
            // Every game so far was of the first variant.
            self.by_variant.push(self.clone());
        }
        self.add_here(game)?;
        if self.by_variant.is_empty() {
            return Ok(());
        }
        let variant = self.variants[game.variant] as usize;
        if variant == self.by_variant.len() {
            self.by_variant.push(Tally::new());
        }
        // The same checks passed above, so this cannot fail.
        self.by_variant[variant].add_here(game)
    }

    /// Each variant's games alone, in order of first appearance, each as if
    /// only its games had been added (what `arena rate --variant` rates).
    pub fn by_variant(&self) -> Vec<(&str, &Tally)> {
        let tallies: Vec<&Tally> = if self.by_variant.is_empty() {
            vec![self]
        } else {
            self.by_variant.iter().collect()
        };
        self.variant_ids
            .iter()
            .map(String::as_str)
            .zip(tallies)
            .collect()
    }

    /// [`Tally::add`] without the per-variant copy.
    fn add_here(&mut self, game: &TalliedGame) -> Result<(), InvalidGame> {
        if game.white == game.black {
            return Err(InvalidGame::SelfPlay {
                id: game.id,
                bot: game.white.to_string(),
            });
        }
        let white = self.bot_number(game.white, game.id)?;
        let black = self.bot_number(game.black, game.id)?;
        let variant = self.variant(game.variant);
        self.games += 1;
        let white_score = Score::of_white(game.result);
        self.results
            .entry((variant, white, black))
            .or_default()
            .record(white_score);
        self.colours[white].record(Color::White, white_score);
        self.colours[black].record(Color::Black, white_score.reversed());
        if let Some(failure) = game.failure {
            let loser = match game.result {
                GameResult::WhiteWins => Some(black),
                GameResult::BlackWins => Some(white),
                GameResult::Draw => None,
            };
            if let Some(loser) = loser {
                self.lost_by[loser].add(failure);
            }
        }

        let (a, b, a_white, a_score) = if white < black {
            (white, black, true, white_score)
        } else {
            (black, white, false, white_score.reversed())
        };
        let penta = self.matches.entry((a, b)).or_default();
        let key = (a, b, variant, game.pair);
        if let Some((partner, this)) = self.pairing.add(key, a_white, a_score) {
            penta.add(partner, this);
        }
        Ok(())
    }

    /// A's pentanomial counts of its completed pairs against B (by name;
    /// none when they have not met).
    pub fn pentanomial(&self, a: &str, b: &str) -> Pentanomial {
        let (Some(&a), Some(&b)) = (self.bot_index.get(a), self.bot_index.get(b)) else {
            return Pentanomial::default();
        };
        let counts = self
            .matches
            .get(&(a.min(b), a.max(b)))
            .copied()
            .unwrap_or_default();
        if a < b {
            counts
        } else {
            counts.reversed()
        }
    }

    /// The bot with the most points (the fewest games on a tie, then the
    /// name that sorts last); `None` before any game.
    pub fn leader(&self) -> Option<Leader> {
        let key = |i: usize| {
            let total = self.colours[i].total();
            (
                total.half_points(),
                std::cmp::Reverse(total.games()),
                &self.bots[i],
            )
        };
        let best = (0..self.bots.len()).max_by(|&a, &b| key(a).cmp(&key(b)))?;
        let total = self.colours[best].total();
        Some(Leader {
            name: self.bots[best].clone(),
            half_points: total.half_points(),
            games: total.games(),
        })
    }

    /// Per variant, in order of first appearance: its id and white's
    /// results in its games.
    pub fn variant_results(&self) -> Vec<(String, Wdl)> {
        let mut totals = vec![Wdl::default(); self.variant_ids.len()];
        for (&(variant, _, _), &counts) in &self.results {
            totals[variant as usize] += counts;
        }
        self.variant_ids.iter().cloned().zip(totals).collect()
    }

    /// The counts so far; games still waiting for a partner count as
    /// unpaired.
    pub fn counts(&self) -> TallyCounts {
        let mut counts = PairCounts::new(self.bots.len());
        let mut variant_counts: Vec<(String, PairCounts)> = self
            .variant_ids
            .iter()
            .map(|id| (id.clone(), PairCounts::new(self.bots.len())))
            .collect();
        for (&(variant, white, black), &c) in &self.results {
            counts.add_counts(white, black, c);
            variant_counts[variant as usize]
                .1
                .add_counts(white, black, c);
        }
        let mut matches: BTreeMap<(usize, usize), MatchCounts> = self
            .matches
            .iter()
            .map(|(&pair, &pentanomial)| {
                let counts = MatchCounts {
                    pentanomial,
                    unpaired: Wdl::default(),
                };
                (pair, counts)
            })
            .collect();
        for (&(a, b, _, _), score) in self.pairing.waiting() {
            matches.entry((a, b)).or_default().unpaired.record(score);
        }
        TallyCounts {
            bots: self.bots.clone(),
            counts,
            variant_counts,
            matches,
            lost_by: self.lost_by.clone(),
            games: self.games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game<'a>(
        id: u64,
        pair: u64,
        white: &'a str,
        black: &'a str,
        result: &str,
    ) -> TalliedGame<'a> {
        TalliedGame {
            id,
            variant: "qango6",
            pair,
            white,
            black,
            result: result.parse().unwrap(),
            failure: None,
            played: true,
        }
    }

    /// Eight games counted by hand: a and b play pairs 0 (a wins both) and
    /// 1 (a wins one, loses one), b and c pair 2 (two draws) and a lone
    /// game of pair 3 (c wins as white, b times out).
    fn tally() -> Tally {
        let mut games = vec![
            game(0, 0, "a", "b", "1-0"),
            game(2, 1, "a", "b", "1-0"),
            game(1, 0, "b", "a", "0-1"),
            game(3, 1, "b", "a", "1-0"),
            game(4, 2, "b", "c", "1/2-1/2"),
            game(5, 2, "c", "b", "1/2-1/2"),
            game(6, 3, "c", "b", "1-0"),
        ];
        games[6].failure = Some(FailureReason::Timeout);
        let mut tally = Tally::new();
        for g in &games {
            tally.add(g).unwrap();
        }
        tally
    }

    #[test]
    fn counts_results_pairs_and_failures() {
        let tally = tally();
        let counts = tally.counts();
        assert_eq!(counts.bots, ["a", "b", "c"]);
        assert_eq!(counts.games, 7);
        // a as white against b: two wins; b as white against a: one win,
        // one loss.
        assert_eq!(counts.counts.get(0, 1), [2.0, 0.0, 0.0]);
        assert_eq!(counts.counts.get(1, 0), [1.0, 0.0, 1.0]);
        assert_eq!(counts.counts.get(2, 1), [1.0, 1.0, 0.0]);
        let ab = counts.matches[&(0, 1)];
        assert_eq!((ab.pentanomial.ww, ab.pentanomial.wl), (1, 1));
        assert_eq!(ab.pentanomial.pairs(), 2);
        assert_eq!(ab.unpaired, Wdl::default());
        let bc = counts.matches[&(1, 2)];
        assert_eq!((bc.pentanomial.dd, bc.pentanomial.pairs()), (1, 1));
        // The lone game, from b's side: a loss.
        assert_eq!(bc.unpaired, Wdl::of(Score::Loss));
        assert_eq!(counts.lost_by[1].get(FailureReason::Timeout), 1);
        assert_eq!(counts.lost_by[0].total() + counts.lost_by[2].total(), 0);
        // White won games 0, 2, 3 and 6, lost game 1, drew 4 and 5.
        let white = Wdl {
            wins: 4,
            draws: 2,
            losses: 1,
        };
        assert_eq!(tally.variant_results(), [("qango6".to_string(), white)]);
        // From either side, by name.
        assert_eq!(tally.pentanomial("a", "b"), ab.pentanomial);
        assert_eq!(tally.pentanomial("b", "a"), ab.pentanomial.reversed());
        assert_eq!(tally.pentanomial("a", "c"), Pentanomial::default());
    }

    /// Two games neither bot played (both failed to start: a draw by
    /// `startup`) among the hand-counted ones change no count, add no bot,
    /// and are counted apart.
    #[test]
    fn games_nobody_played_are_counted_apart_and_nowhere_else() {
        let mut tally = tally();
        let before = tally.counts();
        for (id, white, black) in [(8, "c", "d"), (9, "d", "c")] {
            let mut g = game(id, 4, white, black, "1/2-1/2");
            g.failure = Some(FailureReason::Startup);
            g.played = false;
            tally.add(&g).unwrap();
        }
        assert_eq!(tally.counts(), before);
        assert_eq!(tally.games(), 7);
        assert_eq!(tally.bots(), ["a", "b", "c"]);
        assert_eq!(tally.pentanomial("c", "d"), Pentanomial::default());
        let unplayed = tally.unplayed();
        assert_eq!(unplayed.games, 2);
        assert_eq!(unplayed.by_bot["c"], 2);
        assert_eq!(unplayed.by_bot["d"], 2);
        assert_eq!(
            unplayed.line().unwrap(),
            "2 games did not happen (neither bot started; kept in games.jsonl with the reasons), so no rating counts them: c 2, d 2"
        );
        assert_eq!(Tally::new().unplayed().line(), None);
        let mut nine = Unplayed::default();
        for i in 0..9 {
            nine.add(&format!("x{i}"), "y");
        }
        let line = nine.line().unwrap();
        assert!(line.starts_with("9 games did not happen"), "{line}");
        assert!(
            line.ends_with(": y 9, x0 1, x1 1, x2 1, x3 1, x4 1, x5 1, x6 1, and 2 more bots"),
            "{line}"
        );
    }

    #[test]
    fn the_leader_has_most_points_then_fewest_games() {
        let mut tally = Tally::new();
        assert_eq!(tally.leader(), None);
        for g in [
            game(0, 0, "a", "b", "1-0"),
            game(1, 0, "b", "c", "1/2-1/2"),
            game(2, 1, "c", "a", "1-0"),
            game(3, 1, "b", "a", "0-1"),
        ] {
            tally.add(&g).unwrap();
        }
        // a: won twice, lost once; b: one draw; c: a draw and a win.
        let leader = |name: &str, half_points, games| Leader {
            name: name.into(),
            half_points,
            games,
        };
        assert_eq!(tally.leader(), Some(leader("a", 4, 3)));
        tally.add(&game(4, 2, "c", "b", "1-0")).unwrap();
        // c: 2.5 of 3 beats a's 2 of 3.
        assert_eq!(tally.leader(), Some(leader("c", 5, 3)));
        // A tie goes to the bot with fewer games.
        let mut tie = Tally::new();
        tie.add(&game(0, 0, "a", "b", "1-0")).unwrap();
        tie.add(&game(1, 1, "c", "b", "1-0")).unwrap();
        tie.add(&game(2, 1, "c", "b", "0-1")).unwrap();
        assert_eq!(tie.leader(), Some(leader("a", 2, 1)));
    }

    #[test]
    fn each_variant_alone_numbers_its_own_bots() {
        let mut tally = Tally::new();
        let mut quinque = game(2, 1, "c", "b", "0-1");
        quinque.variant = "quinque";
        for g in [
            game(0, 0, "a", "b", "1-0"),
            game(1, 0, "b", "a", "1-0"),
            quinque,
        ] {
            tally.add(&g).unwrap();
        }
        let split = tally.by_variant();
        assert_eq!(split.len(), 2);
        assert_eq!(split[0].0, "qango6");
        assert_eq!(split[0].1.bots(), ["a", "b"]);
        assert_eq!(split[1].0, "quinque");
        assert_eq!(split[1].1.bots(), ["c", "b"]);
        assert_eq!(split[1].1.games(), 1);
        let counts = tally.counts();
        assert_eq!(counts.variant_counts[1].1.get(2, 1), [0.0, 0.0, 1.0]);
        // One variant: the tally itself.
        let one = Tally::new();
        assert!(one.by_variant().is_empty());
    }

    #[test]
    fn bad_games_name_the_game_and_are_not_counted() {
        let mut tally = Tally::new();
        let err = tally.add(&game(5, 0, "a", "a", "1-0")).unwrap_err();
        assert!(err.to_string().contains("game g5"), "{err}");
        assert!(err.to_string().contains("itself"), "{err}");
        assert_eq!(tally.games(), 0);
    }

    #[test]
    fn a_failure_counts_against_the_loser_only() {
        let mut tally = Tally::new();
        let mut lost = game(0, 0, "a", "b", "0-1");
        lost.failure = Some(FailureReason::Crash);
        tally.add(&lost).unwrap();
        // A failure in a drawn game names no loser.
        let mut drawn = game(1, 0, "b", "a", "1/2-1/2");
        drawn.failure = Some(FailureReason::Crash);
        tally.add(&drawn).unwrap();
        let counts = tally.counts();
        assert_eq!(counts.lost_by[0].get(FailureReason::Crash), 1);
        assert_eq!(counts.lost_by[1].total(), 0);
        assert_eq!(counts.lost_by[0].text(), "crash 1");
    }

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// The views of the seven games of [`tally`] (bots a, b, c numbered
    /// 0, 1, 2), counted by hand.
    #[test]
    fn views_per_pair_per_colour_and_per_bot() {
        let counts = tally().counts().counts;
        // b as white against a: lost game 1, won game 3.
        assert_eq!(counts.wdl(1, 0), wdl(1, 0, 1));
        // c as white against b: drew 5, won 6.
        assert_eq!(counts.wdl(2, 1), wdl(1, 1, 0));
        // a against b: won games 0, 2, 1 (as black), lost game 3.
        assert_eq!(counts.head_to_head(0, 1), wdl(3, 0, 1));
        assert_eq!(counts.head_to_head(1, 0), wdl(1, 0, 3));
        // b against c: drew 4 and 5, lost 6.
        assert_eq!(counts.head_to_head(1, 2), wdl(0, 2, 1));
        assert_eq!(counts.head_to_head(0, 2), Wdl::default());
        let bots = counts.by_bot();
        // a: white in 0 and 2 (won both), black in 1 (won) and 3 (lost).
        assert_eq!((bots[0].white, bots[0].black), (wdl(2, 0, 0), wdl(1, 0, 1)));
        // b: white in 1 (lost), 3 (won), 4 (drew); black in 0, 2 (lost),
        // 5 (drew), 6 (lost): 1-2-4 in all, 4 half points of 7 games.
        assert_eq!((bots[1].white, bots[1].black), (wdl(1, 1, 1), wdl(0, 1, 3)));
        assert_eq!(bots[1].total().half_points(), 4);
        // c: white in 5 (drew), 6 (won); black in 4 (drew).
        assert_eq!(bots[2].total(), wdl(1, 2, 0));
    }

    #[test]
    fn a_tally_with_bots_keeps_their_numbers() {
        let names = ["x".to_string(), "y".to_string(), "z".to_string()];
        let mut tally = Tally::with_bots(&names).unwrap();
        tally.add(&game(0, 0, "z", "y", "1-0")).unwrap();
        tally.add(&game(1, 0, "y", "z", "1/2-1/2")).unwrap();
        let counts = tally.counts();
        assert_eq!(counts.bots, names);
        // z (number 2) won as white against y (number 1).
        assert_eq!(counts.counts.wdl(2, 1), wdl(1, 0, 0));
        // From y's side (the lower number): lost, then drew: LD.
        assert_eq!(counts.matches[&(1, 2)].pentanomial.ld, 1);
        assert_eq!(tally.pentanomial("z", "y").wd, 1);
        assert_eq!(tally.games(), 2);
    }

    /// The counts after each game are those of the games so far: a
    /// checkpoint reads the tally as the games arrive, and a pair shows
    /// once both its games are in.
    #[test]
    fn read_as_games_arrive_the_tally_is_each_prefix() {
        let games = [
            game(0, 0, "a", "b", "1-0"),
            game(2, 1, "a", "b", "0-1"),
            game(1, 0, "b", "a", "1/2-1/2"),
            game(3, 1, "b", "a", "0-1"),
        ];
        let mut tally = Tally::new();
        let mut seen = Vec::new();
        for g in &games {
            tally.add(g).unwrap();
            let penta = tally.pentanomial("a", "b");
            seen.push((tally.counts().counts.head_to_head(0, 1), penta.pairs()));
        }
        assert_eq!(
            seen,
            [
                (wdl(1, 0, 0), 0),
                (wdl(1, 0, 1), 0),
                // Pair 0: a won, then drew: WD.
                (wdl(1, 1, 1), 1),
                // Pair 1: a lost, then won: WL.
                (wdl(2, 1, 1), 2),
            ]
        );
        let penta = tally.pentanomial("a", "b");
        assert_eq!((penta.wd, penta.wl), (1, 1));
    }
}
