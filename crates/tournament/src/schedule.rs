//! The round-robin schedule: which bots meet, with which colours, from which
//! opening, under which game id. A gauntlet is the same schedule over fewer
//! pairings ([`gauntlet_pairings`]): each seed against every other bot.
//!
//! Games come in pairs: the two games of a pair have the same two bots, the
//! same opening, and swapped colours, so neither bot profits from a lucky
//! opening or from moving first. Every two bots meet `games_per_pairing`
//! times. Ids are positions in the schedule (game `2p` and `2p + 1` form pair
//! `p`), so a schedule rebuilt from the same settings names the same games.
//!
//! Openings are random legal move sequences drawn from a ChaCha stream keyed
//! by the tournament seed and the pair number: the same seed gives the same
//! openings, and one pair's opening does not depend on how many pairs exist.
//!
//! A run of several variants plays the whole round robin in each variant,
//! interleaved: pair `p` is of variant `p mod V` (in the order the variants
//! are configured), and is pair `p / V` of that variant's round robin
//! (cycle, pairing and colours as in a one-variant run). So every two bots
//! meet `games_per_pairing` times in every variant, a run stopped early has
//! played all variants about equally, and with one variant the schedule is
//! the one-variant schedule. Each pair's opening is of its own variant.

use anyhow::{bail, Context};
use arena_rules::games::{Position, Variant};

use super::openings::Openings;

/// One game of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule, 0-based.
    pub id: u64,
    /// Id of the variant the game is played in ([`ScheduledGame::variant`]).
    pub variant_id: &'static str,
    /// Round-robin cycle: in each cycle every two bots play one game pair.
    pub round: u64,
    /// Game pair; games `2 * pair` and `2 * pair + 1`.
    pub pair: u64,
    /// Index of the white bot in the config's bot list.
    pub white: usize,
    pub black: usize,
    /// Moves played before the bots take over.
    pub opening: Vec<String>,
}

impl ScheduledGame {
    /// Refuses a recorded game that is not this game of the plan (a
    /// games.csv edited, or from another plan): other variant, bots (by
    /// `names`, the config's order) or opening.
    pub fn check_row(&self, row: &arena_referee::GameRow, names: &[String]) -> anyhow::Result<()> {
        let expected = (
            self.variant_id,
            names[self.white].as_str(),
            names[self.black].as_str(),
            self.opening.join(" "),
        );
        let found = (
            row.variant.as_str(),
            row.white.as_str(),
            row.black.as_str(),
            row.opening.clone(),
        );
        if expected != found {
            bail!(
                "game g{} does not match the plan in tournament.json: expected {expected:?}, found {found:?}",
                row.id
            );
        }
        Ok(())
    }

    /// The variant the game is played in.
    pub fn variant(&self) -> &'static Variant {
        Variant::by_id(self.variant_id).expect("scheduled games name a variant of the table")
    }

    /// The id sent to bots in `new_game` and written to every file (`gN`).
    pub fn game_id(&self) -> String {
        arena_referee::game_id::game_id(self.id)
    }
}

/// The two games of pair `pair`: `first` is white in the first game.
pub fn game_pair(
    variant: &'static Variant,
    pair: u64,
    round: u64,
    first: usize,
    second: usize,
    opening: Vec<String>,
) -> [ScheduledGame; 2] {
    [
        ScheduledGame {
            id: 2 * pair,
            variant_id: variant.id,
            round,
            pair,
            white: first,
            black: second,
            opening: opening.clone(),
        },
        ScheduledGame {
            id: 2 * pair + 1,
            variant_id: variant.id,
            round,
            pair,
            white: second,
            black: first,
            opening,
        },
    ]
}

/// The pairings of one cycle, in an order where consecutive pairings involve
/// different bots where possible (the circle method), so concurrent games
/// spread over the field instead of piling onto one bot.
pub fn pairings(bots: usize) -> Vec<(usize, usize)> {
    if bots < 2 {
        return Vec::new();
    }
    // With an odd count a dummy seat (index `bots`) gives someone a bye.
    let seats = bots + bots % 2;
    let mut ring: Vec<usize> = (0..seats).collect();
    let mut out = Vec::with_capacity(bots * (bots - 1) / 2);
    for round in 0..seats - 1 {
        for i in 0..seats / 2 {
            let (a, b) = (ring[i], ring[seats - 1 - i]);
            if a == bots || b == bots {
                continue;
            }
            // Alternate who is listed first so first-game colours spread evenly.
            if (round + i) % 2 == 0 {
                out.push((a, b));
            } else {
                out.push((b, a));
            }
        }
        // Keep seat 0 fixed, rotate the others by one.
        let last = ring.pop().expect("at least two seats");
        ring.insert(1, last);
    }
    out
}

/// The pairings of a gauntlet: each seed (indices in `seeds`) against every
/// bot that is not a seed, once; seeds do not meet each other, nor do the
/// others. Opponents are dealt in rotation (seed `i` meets the others in the
/// order `i, i + 1, ...`), so with several seeds concurrent games spread
/// over the opponents, and who is listed first (white in the pair's first
/// game) alternates.
pub fn gauntlet_pairings(bots: usize, seeds: &[usize]) -> Vec<(usize, usize)> {
    let others: Vec<usize> = (0..bots).filter(|bot| !seeds.contains(bot)).collect();
    let mut out = Vec::with_capacity(seeds.len() * others.len());
    for turn in 0..others.len() {
        for (i, &seed) in seeds.iter().enumerate() {
            let other = others[(i + turn) % others.len()];
            if (i + turn) % 2 == 0 {
                out.push((seed, other));
            } else {
                out.push((other, seed));
            }
        }
    }
    out
}

/// The round-robin schedule as a function from game id to game: nothing is
/// stored per game, so a tournament of any length takes the same memory.
/// `games_per_pairing / 2` cycles of every pairing; in odd cycles the
/// pair's first game has the colours the other way round.
#[derive(Clone)]
pub struct RoundRobinSchedule {
    /// At least one; pair `p` is of `variants[p mod len]`.
    variants: Vec<&'static Variant>,
    pairings: Vec<(usize, usize)>,
    cycles: u64,
    openings: Openings,
}

/// Bumped whenever [`RoundRobinSchedule::game`] would give a different game
/// for the same settings; `tournament.json` records it, so a run is never
/// resumed under another schedule.
pub const SCHEDULE_VERSION: u32 = 1;

impl RoundRobinSchedule {
    pub fn new(
        variant: &'static Variant,
        bots: usize,
        games_per_pairing: u32,
        opening_plies: u32,
        seed: u64,
    ) -> RoundRobinSchedule {
        RoundRobinSchedule {
            variants: vec![variant],
            pairings: pairings(bots),
            cycles: u64::from(games_per_pairing / 2),
            openings: Openings::Random {
                plies: opening_plies,
                seed,
            },
        }
    }

    /// The same cycles, colours and openings over other `pairings` (a
    /// gauntlet's, [`gauntlet_pairings`]).
    pub fn with_pairings(self, pairings: Vec<(usize, usize)>) -> RoundRobinSchedule {
        RoundRobinSchedule { pairings, ..self }
    }

    /// The same schedule with each pair's opening from `openings` (a suite).
    pub fn with_openings(self, openings: Openings) -> RoundRobinSchedule {
        RoundRobinSchedule { openings, ..self }
    }

    /// The same schedule played in each of `variants` (see the module
    /// docs); an empty list keeps the one variant.
    pub fn with_variants(self, variants: Vec<&'static Variant>) -> RoundRobinSchedule {
        if variants.is_empty() {
            return self;
        }
        RoundRobinSchedule { variants, ..self }
    }

    /// Number of games.
    pub fn len(&self) -> u64 {
        2 * self.cycles * self.pairings.len() as u64 * self.variants.len() as u64
    }

    /// The first game of each variant (ids `0, 2, ..`), where an opening
    /// length no game of that variant allows shows first.
    pub fn first_games(&self) -> Vec<u64> {
        (0..self.variants.len() as u64)
            .map(|v| 2 * v)
            .filter(|&id| id < self.len())
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `id`, or `None` past the end. Fails only when no random opening
    /// of the configured length exists (see [`crate::openings::random_opening`]).
    pub fn game(&self, id: u64) -> anyhow::Result<Option<ScheduledGame>> {
        if id >= self.len() {
            return Ok(None);
        }
        let pair = id / 2;
        let count = self.variants.len() as u64;
        let variant = self.variants[(pair % count) as usize];
        // The pair's place in its variant's round robin.
        let inner = pair / count;
        let per_cycle = self.pairings.len() as u64;
        let round = inner / per_cycle;
        let (a, b) = self.pairings[(inner % per_cycle) as usize];
        let (first, second) = if round.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        let opening = self.openings.for_pair(variant, pair)?;
        let [first_game, second_game] = game_pair(variant, pair, round, first, second, opening);
        Ok(Some(if id.is_multiple_of(2) {
            first_game
        } else {
            second_game
        }))
    }

    /// Every game in id order, computed as it is reached.
    pub fn games(&self) -> impl Iterator<Item = anyhow::Result<ScheduledGame>> + '_ {
        (0..self.len()).filter_map(|id| self.game(id).transpose())
    }
}

/// The full round-robin as a list (for tests and tools; the tournament
/// computes games one at a time with [`RoundRobinSchedule`]).
pub fn round_robin(
    variant: &'static Variant,
    bots: usize,
    games_per_pairing: u32,
    opening_plies: u32,
    seed: u64,
) -> anyhow::Result<Vec<ScheduledGame>> {
    RoundRobinSchedule::new(variant, bots, games_per_pairing, opening_plies, seed)
        .games()
        .collect()
}

/// Plays `opening` from the start and returns the position, or an error if a
/// move is illegal or the game is over afterwards.
pub fn opening_position(variant: &'static Variant, opening: &[String]) -> anyhow::Result<Position> {
    let mut pos = Position::new(variant);
    for (ply, text) in opening.iter().enumerate() {
        pos.play_str(text).map_err(|e| {
            anyhow::anyhow!(
                "opening move {ply} ({text:?}) is illegal in {}: {e}",
                variant.id
            )
        })?;
    }
    if pos.is_over() || pos.legal_moves().is_empty() {
        bail!("opening {:?} already ends the game", opening.join(" "));
    }
    Ok(pos)
}

/// Checks a schedule read back from disk: ids are `0..len` in order, every
/// game is of `variant`, pairs hold their two games with swapped colours and
/// one opening, bot indices exist, and every opening is legal and leaves the
/// game open.
pub fn validate(
    games: &[ScheduledGame],
    variant: &'static Variant,
    bots: usize,
) -> anyhow::Result<()> {
    for (index, game) in games.iter().enumerate() {
        let context = || format!("scheduled game {index}");
        if game.id != index as u64 || game.pair != game.id / 2 {
            bail!(
                "scheduled game {index} has id {} and pair {}: the schedule is out of order",
                game.id,
                game.pair
            );
        }
        if game.variant_id != variant.id {
            bail!(
                "scheduled game {index} is of variant {}, not {}",
                game.variant_id,
                variant.id
            );
        }
        if game.white >= bots || game.black >= bots || game.white == game.black {
            bail!(
                "scheduled game {index}: bots {} and {} do not name two of the {bots} bots",
                game.white,
                game.black
            );
        }
        if !game.id.is_multiple_of(2) {
            let first = &games[index - 1];
            if first.white != game.black
                || first.black != game.white
                || first.opening != game.opening
            {
                bail!("scheduled games {} and {index} form a pair but do not swap colours on one opening", index - 1);
            }
        }
        opening_position(variant, &game.opening).with_context(context)?;
    }
    if !games.len().is_multiple_of(2) {
        bail!(
            "the schedule has an odd number of games ({}); games come in pairs",
            games.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::random_opening;

    #[test]
    fn pairings_cover_every_pair_once() {
        for n in 2..=9 {
            let p = pairings(n);
            assert_eq!(p.len(), n * (n - 1) / 2, "{n} bots");
            let mut seen = std::collections::BTreeSet::new();
            for &(a, b) in &p {
                assert!(a < n && b < n && a != b);
                assert!(seen.insert((a.min(b), a.max(b))), "{n} bots: {a}-{b} twice");
            }
        }
        assert!(pairings(1).is_empty());
    }

    #[test]
    fn gauntlet_pairings_deal_the_others_to_each_seed_in_rotation() {
        // One seed (2 of 4): others 0, 1, 3; first colours alternate.
        assert_eq!(gauntlet_pairings(4, &[2]), [(2, 0), (1, 2), (2, 3)]);
        // Seeds 1 and 3: others 0 and 2; seed 1 meets 0 then 2, seed 3
        // meets 2 then 0; the seeds never meet, nor do 0 and 2.
        assert_eq!(
            gauntlet_pairings(4, &[1, 3]),
            [(1, 0), (2, 3), (2, 1), (3, 0)]
        );
        // Every seed meets every other bot exactly once.
        let p = gauntlet_pairings(7, &[0, 4, 5]);
        assert_eq!(p.len(), 3 * 4);
        let mut met = std::collections::BTreeSet::new();
        for &(a, b) in &p {
            let (seed, other) = if [0, 4, 5].contains(&a) {
                (a, b)
            } else {
                (b, a)
            };
            assert!(
                [0, 4, 5].contains(&seed) && ![0, 4, 5].contains(&other),
                "{a}-{b}"
            );
            assert!(met.insert((seed, other)), "{seed}-{other} twice");
        }
    }

    #[test]
    fn consecutive_pairings_use_different_bots_when_possible() {
        // Within one circle round (n/2 pairings for even n) no bot repeats.
        let p = pairings(6);
        for chunk in p.chunks(3) {
            let mut bots: Vec<usize> = chunk.iter().flat_map(|&(a, b)| [a, b]).collect();
            bots.sort();
            bots.dedup();
            assert_eq!(bots.len(), 6, "{chunk:?}");
        }
    }

    #[test]
    fn computed_games_follow_cycles_pairings_and_colour_swaps() {
        let v = Variant::by_id("qango6").unwrap();
        let schedule = RoundRobinSchedule::new(v, 4, 4, 1, 9);
        assert_eq!(schedule.len(), 6 * 4);
        let p = pairings(4);
        let g = schedule.game(13).unwrap().unwrap();
        // Pair 6 is the first pairing of cycle 1, colours turned round.
        assert_eq!((g.pair, g.round), (6, 1));
        assert_eq!((g.white, g.black), p[0]);
        assert_eq!(g.opening, random_opening(v, 1, 9, 6).unwrap());
        assert!(schedule.game(24).unwrap().is_none());
    }

    #[test]
    fn validate_rejects_tampered_schedules() {
        let v = Variant::by_id("qango6").unwrap();
        let games = round_robin(v, 3, 2, 2, 5).unwrap();
        validate(&games, v, 3).unwrap();
        let mut bad = games.clone();
        bad[1].opening = vec!["a1".into(), "a1".into()];
        assert!(validate(&bad, v, 3).is_err());
        let mut bad = games.clone();
        bad[3].white = bad[3].black;
        assert!(validate(&bad, v, 3).is_err());
        assert!(validate(&games, v, 2).is_err());
        assert!(validate(&games[1..], v, 3).is_err());
    }
}
