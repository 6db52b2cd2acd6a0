//! What a Swiss ([`crate::swiss`]) and a knockout ([`crate::knockout`])
//! share: their games come in stages (a Swiss round; a knockout round, or
//! one tie-break pair of its tied matches), and a stage is computed only
//! when every game of the stage before it has finished, from those results
//! and the seed alone. So a resumed run computes the stages an
//! uninterrupted one computed, whatever order the games finished in.
//!
//! Game ids are dense in stage order. A stage is a list of boards (two bots
//! each) that all play the same number of game pairs; pair `i` of board
//! `k` is game pair `first + i * boards + k`, so consecutive games spread
//! over the boards. A board's pairs count on from `from` (0 for a match's
//! first games, more for its tie-break pairs): pair `j` is of variant
//! `j mod V`, and in the colour cycle `j / V` the board's first bot is
//! white in the pair's first game when the cycle is even, as in the round
//! robin. Openings are the run's, by game pair number.
//!
//! A sharded run (`--shard K/N`) plays, of each stage, the game pairs `p`
//! with `p mod N = K - 1`, as a round robin's shard does; it goes on to a
//! stage only when it knows every result before it, its own or a merged
//! directory's ([`crate::stage_shards`]).

use std::collections::HashMap;

use anyhow::bail;

use super::config::TournamentConfig;
use super::game_set::GameSet;
use super::openings::Openings;
use super::progress::{PairedRound, RunOutput};
use super::schedule::{game_pair, ScheduledGame};
use super::settings::resolve::Resolved;
use super::settings::values::Origin;
use super::shard::Shard;
use arena_referee::GameRow;
use arena_rules::games::{Color, Variant};
use arena_stats::{Score, Wdl};

/// One stage's boards and how many game pairs each plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// The round written to games.csv (1 for the first).
    pub round: u64,
    /// Bot indices: the first is the higher-ranked one (or seed).
    pub boards: Vec<[usize; 2]>,
    /// The first board pair's number within its match (0, or the tie-break's).
    pub from: u64,
    /// Game pairs per board.
    pub pairs: u64,
    /// The stage's first game pair.
    pub first_pair: u64,
}

impl Stage {
    /// Game pair `i` of board `k`.
    fn pair(&self, k: usize, i: u64) -> u64 {
        self.first_pair + i * self.boards.len() as u64 + k as u64
    }

    /// Games of the stage in all.
    pub fn games(&self) -> u64 {
        2 * self.pairs * self.boards.len() as u64
    }
}

/// The stages computed so far, their games, and the finished games the
/// format knows (before a resume and since).
#[derive(Clone)]
pub struct Stages {
    variants: Vec<&'static Variant>,
    openings: Openings,
    names: Vec<String>,
    stages: Vec<Stage>,
    /// Every game of the computed stages; a game's id is its index.
    games: Vec<ScheduledGame>,
    /// The finished games, by id.
    rows: HashMap<u64, GameRow>,
    /// The next game to consider starting.
    next: u64,
    /// Finished games of the last stage (so that whether it is complete
    /// is one comparison, whatever its size).
    last_done: u64,
    /// The games this run plays (the whole unless sharded).
    shard: Shard,
    /// Whether this run has started a game.
    started: bool,
}

impl Stages {
    pub fn new(config: &TournamentConfig) -> Stages {
        Stages {
            variants: config.variants(),
            openings: config.pair_openings(),
            names: config.bot_names(),
            stages: Vec::new(),
            games: Vec::new(),
            rows: HashMap::new(),
            next: 0,
            last_done: 0,
            shard: config.shard.unwrap_or(Shard::WHOLE),
            started: false,
        }
    }

    /// The part of each stage this run plays.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// Whether this run has started a game.
    pub fn started(&self) -> bool {
        self.started
    }

    /// The last stage's games: (first id, end id).
    pub fn last_range(&self) -> (u64, u64) {
        (self.last_start(), self.len())
    }

    /// Finished games of the last stage.
    pub fn last_done(&self) -> u64 {
        self.last_done
    }

    /// Whether game `id` has finished.
    pub fn has(&self, id: u64) -> bool {
        self.rows.contains_key(&id)
    }

    /// Adds a stage after the last: `pairs` game pairs on each board, the
    /// board's pairs numbered from `from`. Fails only when no opening of
    /// the configured length exists.
    pub fn push(
        &mut self,
        round: u64,
        boards: Vec<[usize; 2]>,
        from: u64,
        pairs: u64,
    ) -> anyhow::Result<()> {
        let stage = Stage {
            round,
            boards,
            from,
            pairs,
            first_pair: self.games.len() as u64 / 2,
        };
        let count = self.variants.len() as u64;
        let mut games = vec![None; stage.games() as usize];
        for (k, &[a, b]) in stage.boards.iter().enumerate() {
            for i in 0..pairs {
                let j = from + i;
                let variant = self.variants[(j % count) as usize];
                let (first, second) = if (j / count).is_multiple_of(2) {
                    (a, b)
                } else {
                    (b, a)
                };
                let pair = stage.pair(k, i);
                let opening = self.openings.for_pair(variant, pair)?;
                let offset = (2 * (pair - stage.first_pair)) as usize;
                let [g0, g1] = game_pair(variant, pair, round, first, second, opening);
                games[offset] = Some(g0);
                games[offset + 1] = Some(g1);
            }
        }
        let start = self.len();
        self.games.extend(games.into_iter().flatten());
        self.stages.push(stage);
        self.last_done = (start..self.len())
            .filter(|id| self.rows.contains_key(id))
            .count() as u64;
        Ok(())
    }

    /// The stages computed so far.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// Games of the computed stages.
    pub fn len(&self) -> u64 {
        self.games.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// A finished game, before this run or in it (counted once).
    pub fn record(&mut self, row: &GameRow) {
        let new = self.rows.insert(row.id, row.clone()).is_none();
        if new && (self.last_start()..self.len()).contains(&row.id) {
            self.last_done += 1;
        }
    }

    /// The last stage's first game id (0 before the first stage).
    fn last_start(&self) -> u64 {
        self.stages.last().map_or(0, |s| 2 * s.first_pair)
    }

    /// Finished games known.
    pub fn finished(&self) -> u64 {
        self.rows.len() as u64
    }

    /// Whether every game of the last stage has finished (true before the
    /// first stage).
    pub fn last_complete(&self) -> bool {
        self.last_done == self.len() - self.last_start()
    }

    /// The last stage's next game of this run's shard not finished and
    /// not started yet.
    pub fn next_game(&mut self, done: &GameSet) -> Option<ScheduledGame> {
        while self.next < self.len() {
            let id = self.shard.next_game(self.next);
            if id >= self.len() {
                self.next = self.len();
                break;
            }
            self.next = id + 1;
            if !done.contains(id) && !self.rows.contains_key(&id) {
                self.started = true;
                return Some(self.games[id as usize].clone());
            }
        }
        None
    }

    /// Checks the finished games of the last stage against its games (a
    /// games.csv edited, or from another plan, is refused), once the stage
    /// is complete.
    pub fn check_last(&self) -> anyhow::Result<()> {
        for game in &self.games[self.last_start() as usize..] {
            let Some(row) = self.rows.get(&game.id) else {
                continue;
            };
            game.check_row(row, &self.names)?;
        }
        Ok(())
    }

    /// When no stage follows: a finished game beyond the computed stages
    /// is not part of the plan.
    pub fn check_no_more(&self) -> anyhow::Result<()> {
        match self.rows.keys().filter(|&&id| id >= self.len()).min() {
            Some(id) => bail!("game g{id} is not part of this run's plan"),
            None => Ok(()),
        }
    }

    /// The finished games of board `k` of stage `s`: (id, row).
    fn board_rows(&self, s: usize, k: usize) -> impl Iterator<Item = (u64, &GameRow)> {
        let stage = &self.stages[s];
        (0..stage.pairs)
            .flat_map(move |i| {
                let pair = stage.pair(k, i);
                [2 * pair, 2 * pair + 1]
            })
            .filter_map(|id| self.rows.get(&id).map(|row| (id, row)))
    }

    /// The half points (win 2, draw 1) each bot of board `k` of stage `s`
    /// has scored in the board's finished games that were played: a game
    /// neither bot played (`played` false: neither started) gives nobody
    /// anything.
    pub fn board_points(&self, s: usize, k: usize) -> [u32; 2] {
        let [a, _] = self.stages[s].boards[k];
        // The board's first bot's results.
        let mut wdl = Wdl::default();
        for (id, row) in self.board_rows(s, k).filter(|(_, row)| row.played) {
            let side = if self.games[id as usize].white == a {
                Color::White
            } else {
                Color::Black
            };
            wdl.record(Score::of(row.result, side));
        }
        [wdl, wdl.flipped()].map(|w| w.half_points() as u32)
    }

    /// Finished games of board `k` of stage `s`.
    pub fn board_finished(&self, s: usize, k: usize) -> u64 {
        self.board_rows(s, k).count() as u64
    }

    /// Finished games of board `k` of stage `s` that neither bot played.
    pub fn board_unplayed(&self, s: usize, k: usize) -> u64 {
        self.board_rows(s, k).filter(|(_, row)| !row.played).count() as u64
    }

    /// The bot names.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// ` (N not played)` after a result with `unplayed` of its `games` not
/// played, ` (none played: no points)` when none was; empty when all were.
pub fn unplayed_words(unplayed: u64, games: u64) -> String {
    match unplayed {
        0 => String::new(),
        n if n == games => " (none played: no points)".into(),
        n => format!(" ({n} not played)"),
    }
}

/// The settings' check that a Swiss and a knockout share: `setting` (at
/// `origin`) belongs to `owner` alone.
pub fn check_owned(r: &Resolved, origin: &Origin, owner: &str) -> anyhow::Result<()> {
    let format = r.values.format.value;
    if format != owner && origin.given() {
        return Err(r.src.at(
            origin,
            format!(
                "is a setting of a {owner} (format = \"{owner}\"), not of a {}",
                format.replace('_', " ")
            ),
        ));
    }
    Ok(())
}

/// A format whose games come in stages (a Swiss's rounds, a knockout's):
/// its next game is the current stage's next, and when the stage is done
/// the format computes the next stage from the results.
pub trait Staged {
    fn stages(&self) -> &Stages;
    fn stages_mut(&mut self) -> &mut Stages;
    /// A problem found when a game ended, reported at the next game.
    fn error_mut(&mut self) -> &mut Option<String>;
    /// When the last stage is complete: the next one computed (`true`), or
    /// at the end the games checked (`false`).
    fn advance(&mut self) -> anyhow::Result<bool>;
    /// Whether a stage may follow the last (rounds to go, no winner yet).
    fn more_to_come(&self) -> bool;
    /// Computes what follows the complete last stage: one stage or more.
    fn compute_next(&mut self) -> anyhow::Result<()>;
    /// Stage `s` as it is announced.
    fn announced(&self, s: usize) -> PairedRound;
}

/// The next game of a staged format (its `Format::next_game`).
pub fn next_staged_game(
    format: &mut impl Staged,
    done: &GameSet,
) -> anyhow::Result<Option<ScheduledGame>> {
    if let Some(error) = format.error_mut().take() {
        bail!(error);
    }
    loop {
        if let Some(game) = format.stages_mut().next_game(done) {
            return Ok(Some(game));
        }
        // Waiting for the stage's last games, or the last stage done.
        if !format.advance()? {
            check_not_ahead(format)?;
            return Ok(None);
        }
    }
}

/// A shard that has nothing to play, though it knows the stage it is on
/// to be incomplete and has games in it: it played its part, and the
/// other shards' games are not merged yet. One line: merge first.
pub fn check_not_ahead(format: &(impl Staged + ?Sized)) -> anyhow::Result<()> {
    let stages = format.stages();
    let shard = stages.shard();
    let (first, end) = stages.last_range();
    let own = shard.games_of(end) - shard.games_of(first);
    if stages.started() || stages.last_complete() || own == 0 {
        return Ok(());
    }
    let title = format.announced(stages.stages().len() - 1).title;
    bail!(
        "{title}: shard {shard} has played its {own} games of it, and the others' are not merged here: merge the shards first (arena merge MERGED SHARD-DIRS...), then play on with --after MERGED"
    );
}

/// Computes every stage the recorded games allow (for a reader of a
/// finished, stopped or merged run).
pub fn catch_up(format: &mut (impl Staged + ?Sized)) -> anyhow::Result<()> {
    while format.advance()? {}
    Ok(())
}

/// A game of a staged format ended (its `Format::finished`): counted, and
/// when it completed the last stage, what follows is computed and each new
/// stage announced to `output`; a problem is kept for the next game.
pub fn finished_staged(format: &mut impl Staged, row: &GameRow, output: &mut dyn RunOutput) {
    format.stages_mut().record(row);
    if !(format.more_to_come() && format.stages().last_complete()) {
        return;
    }
    let before = format.stages().stages().len();
    match format.compute_next() {
        Ok(()) => {
            for s in before..format.stages().stages().len() {
                output.round_paired(&format.announced(s));
            }
        }
        Err(e) => *format.error_mut() = Some(format!("{e:#}")),
    }
}

impl PairedRound {
    /// `Round 2 of 5: a - c, b - d; bye: e`.
    pub fn line(&self) -> String {
        let boards: Vec<String> = self
            .boards
            .iter()
            .map(|[a, b]| format!("{a} - {b}"))
            .collect();
        let mut line = format!("{}: {}", self.title, boards.join(", "));
        if !self.byes.is_empty() {
            line.push_str(&format!("; bye: {}", self.byes.join(", ")));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::defs::{GAMES_PER_PAIRING, OPENING_PLIES, VARIANT};
    use crate::settings::Given;
    use crate::testing::run_of;

    fn stages(given: Given) -> Stages {
        let given = given
            .with_bot("a=x")
            .with_bot("b=y")
            .with_bot("c=z")
            .with_bot("d=w");
        Stages::new(&run_of(&given).config)
    }

    #[test]
    fn a_stage_spreads_its_boards_and_turns_variants_and_colours_as_the_round_robin() {
        let given = Given::new()
            .with(&VARIANT, "qango6,quinque")
            .with(&GAMES_PER_PAIRING, "4")
            .with(&OPENING_PLIES, "1");
        let mut s = stages(given);
        // Two boards, four pairs each (two games in each of two variants).
        s.push(1, vec![[0, 2], [1, 3]], 0, 4).unwrap();
        assert_eq!(s.len(), 16);
        let games: Vec<(u64, &str, usize, usize)> = s
            .games
            .iter()
            .map(|g| (g.pair, g.variant_id, g.white, g.black))
            .collect();
        // Pair i of board k is pair 2i + k: the boards alternate; pair j of
        // a board is of variant j mod 2, and its first bot is white first
        // in cycle j / 2 = 0, second in cycle 1.
        assert_eq!(
            games[..8],
            [
                (0, "qango6", 0, 2),
                (0, "qango6", 2, 0),
                (1, "qango6", 1, 3),
                (1, "qango6", 3, 1),
                (2, "quinque", 0, 2),
                (2, "quinque", 2, 0),
                (3, "quinque", 1, 3),
                (3, "quinque", 3, 1),
            ]
        );
        assert_eq!((games[8].0, games[8].1, games[8].2), (4, "qango6", 2));
        assert!(s
            .games
            .iter()
            .all(|g| g.round == 1 && g.id == s.games[g.id as usize].id));
        // A later stage numbers on; its pairs continue the board's count.
        s.push(2, vec![[0, 1]], 4, 1).unwrap();
        let g = &s.games[16];
        assert_eq!(
            (g.id, g.pair, g.round, g.variant_id, g.white),
            (16, 8, 2, "qango6", 0)
        );
        assert!(!s.last_complete());
    }

    #[test]
    fn a_shard_plays_its_pairs_of_each_stage_as_a_round_robin_shard_does() {
        let given = Given::new().with(&crate::settings::defs::SEED, "1");
        let mut s = stages(given);
        s.shard = Shard { index: 2, count: 2 };
        // Three boards of one pair: pairs 0, 1, 2; shard 2/2 has pair 1.
        s.push(1, vec![[0, 1], [2, 3], [0, 2]], 0, 1).unwrap();
        let done = GameSet::default();
        let ids: Vec<u64> = std::iter::from_fn(|| s.next_game(&done))
            .map(|g| g.id)
            .collect();
        assert_eq!(ids, [2, 3]);
        assert!(s.started());
        // The next stage (pairs 3, 4) is numbered on: pair 3 is shard 2's.
        s.push(2, vec![[0, 3], [1, 2]], 1, 1).unwrap();
        let ids: Vec<u64> = std::iter::from_fn(|| s.next_game(&done))
            .map(|g| g.id)
            .collect();
        assert_eq!(ids, [6, 7]);
    }
}
