//! The analysis of games against perfect play (`arena analyse`, and the
//! strip of a game just played on `arena serve --play`'s page):
//! each game replayed by the rules engine, every position from the first
//! move a bot chose to the end proven by the solver ([`arena_solver`]), and
//! each bot move judged by the values before and after it
//! ([`crate::analysis::PlyRow`], which `analysis` writes and sums up). Games are spread over worker
//! threads, each with its own solver (and table) per variant.
//!
//! A game's positions are solved from its last to its first: late
//! positions are quick to prove, and their entries in the table then
//! shorten the proofs of the earlier ones. A position whose played move
//! reaches a position its mover wins is a win without a search, and one
//! reached from a position its last mover loses is a loss for them.
//!
//! The solvers answer from the process's settled table
//! ([`arena_solver::settled`]) where it has a position, and add to it
//! what they prove: a second analysis of the same games searches nothing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use anyhow::{anyhow, Context};

use crate::analysis::PlyRow;
use arena_referee::GameRecord;
use arena_rules::games::{Color, Position, Variant};
use arena_solver::{Budget, Solver, Value};

/// A game as the analysis needs it.
#[derive(Clone)]
pub struct Game {
    pub id: u64,
    pub variant: &'static Variant,
    pub white: String,
    pub black: String,
    /// Leading moves of `moves` that were the opening, not the bots'.
    pub opening: usize,
    pub moves: Vec<String>,
    /// `None`: a draw.
    pub winner: Option<Color>,
}

impl Game {
    /// The game of a journal record (its variant must be one arena knows).
    pub fn of_record(record: &GameRecord) -> anyhow::Result<Game> {
        let id = record
            .number()
            .ok_or_else(|| anyhow!(arena_referee::record::NO_PLACE))?;
        let variant = Variant::by_id(&record.game).ok_or_else(|| {
            anyhow!(
                "game {}: unknown variant {:?} (`arena games` lists them)",
                record.game_id,
                record.game
            )
        })?;
        Ok(Game {
            id,
            variant,
            white: record.white.clone(),
            black: record.black.clone(),
            opening: record.opening.len().min(record.moves.len()),
            moves: record.moves.clone(),
            winner: record.result.winner(),
        })
    }

    /// Moves the bots chose (at most; a refused last move is not analysed).
    pub fn bot_plies(&self) -> usize {
        self.moves.len() - self.opening
    }

    fn name(&self, c: Color) -> &str {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The result for `c`.
    fn result_for(&self, c: Color) -> Value {
        match self.winner {
            None => Value::Draw,
            Some(w) if w == c => Value::Win,
            Some(_) => Value::Loss,
        }
    }
}

/// How the positions of an analysis were settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Values taken from the settled table (or a stored proof).
    pub from_table: u64,
    /// Values the solver proved by a search.
    pub searched: u64,
    /// Values proven without a search (a win or a loss in one move).
    pub at_once: u64,
    /// Positions left unknown within the budget.
    pub unknown: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.from_table += other.from_table;
        self.searched += other.searched;
        self.at_once += other.at_once;
        self.unknown += other.unknown;
    }
}

/// One worker's solvers, one per variant met, each with `memory` bytes
/// and the process's settled table of its variant.
pub struct Solvers {
    memory: usize,
    by_variant: HashMap<&'static str, Solver>,
    /// What the solves of this worker found.
    pub counts: Counts,
}

impl Solvers {
    pub fn new(memory: usize) -> Solvers {
        Solvers {
            memory,
            by_variant: HashMap::new(),
            counts: Counts::default(),
        }
    }

    fn of(&mut self, variant: &'static Variant) -> &mut Solver {
        let memory = self.memory;
        self.by_variant
            .entry(variant.id)
            .or_insert_with(|| Solver::new(variant, memory).with_shared_table())
    }

    /// `pos`'s value for its mover, counted.
    fn value(&mut self, pos: &Position, budget: Budget) -> (Option<Value>, u64) {
        let s = self.of(pos.variant()).value(pos, budget);
        match (s.value, s.from_table) {
            (None, _) => self.counts.unknown += 1,
            (Some(_), true) => self.counts.from_table += 1,
            (Some(_), false) if s.nodes == 0 => self.counts.at_once += 1,
            (Some(_), false) => self.counts.searched += 1,
        }
        (s.value, s.nodes)
    }
}

/// `v`, a value for `side`, as white's.
fn for_white(v: Value, side: Color) -> Value {
    match side {
        Color::White => v,
        Color::Black => v.flip(),
    }
}

/// The positions of `game` from the start, up to the last move the rules
/// accept.
fn positions(game: &Game) -> Vec<Position> {
    let mut positions = vec![Position::new(game.variant)];
    for m in &game.moves {
        let mut next = positions.last().expect("the start").clone();
        if next.play_str(m).is_err() {
            // The move that ended the game by a failure: not a decision.
            break;
        }
        positions.push(next);
    }
    positions
}

/// How many rows [`analyse_game`] gives `game` (without solving).
pub fn row_count(game: &Game) -> usize {
    (positions(game).len() - 1).saturating_sub(game.opening)
}

/// The rows of `game`: one per move a bot chose that the rules accept,
/// each position proven within `budget`.
pub fn analyse_game(game: &Game, solvers: &mut Solvers, budget: Budget) -> Vec<PlyRow> {
    let positions = positions(game);
    let last = positions.len() - 1;
    if last <= game.opening {
        return Vec::new();
    }
    // Each position's value for white, and the nodes it took.
    let mut values: Vec<(Option<Value>, u64)> = vec![(None, 0); positions.len()];
    for k in (game.opening..=last).rev() {
        let pos = &positions[k];
        values[k] = match pos.outcome() {
            Some(outcome) => (
                Some(match outcome.winner {
                    None => Value::Draw,
                    Some(Color::White) => Value::Win,
                    Some(Color::Black) => Value::Loss,
                }),
                0,
            ),
            // The move played from here reaches a position the mover wins:
            // so does this one (a position is worth its best child), proven
            // without a search.
            None if k < last
                && values[k + 1].0.map(|v| for_white(v, pos.to_move())) == Some(Value::Win) =>
            {
                (values[k + 1].0, 0)
            }
            None => {
                let (value, nodes) = solvers.value(pos, budget);
                (value.map(|v| for_white(v, pos.to_move())), nodes)
            }
        };
    }
    // Every move from a position its mover loses reaches one they lose: a
    // position left unknown after such a move is proven by its parent.
    for p in game.opening..last {
        let mover = positions[p].to_move();
        if values[p].0.map(|v| for_white(v, mover)) == Some(Value::Loss)
            && values[p + 1].0.is_none()
        {
            values[p + 1].0 = Some(for_white(Value::Loss, mover));
        }
    }
    (game.opening..last)
        .map(|p| {
            let mover = positions[p].to_move();
            let (before, nodes) = values[p];
            PlyRow {
                game_id: game.id,
                // Move p + 1, which leads to ply p + 1.
                ply: p as u32 + 1,
                mover: game.name(mover).to_string(),
                color: mover,
                mv: game.moves[p].clone(),
                before: before.map(|v| for_white(v, mover)),
                after: values[p + 1].0.map(|v| for_white(v, mover)),
                result: game.result_for(mover),
                nodes,
            }
        })
        .collect()
}

/// How the analysis of many games is run.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub budget: Budget,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Bytes of each worker's solver table.
    pub memory: usize,
}

/// The rows of every game of `games`, analysed by `plan.jobs` threads
/// that take the next game from a shared index; `done` is called on this
/// thread with each game's index and rows as it ends (in the order they
/// end), and its error stops the analysis. Returns how the positions were
/// settled.
pub fn analyse_games(
    games: &[Game],
    plan: Plan,
    mut done: impl FnMut(usize, Vec<PlyRow>) -> anyhow::Result<()>,
) -> anyhow::Result<Counts> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<(usize, Vec<PlyRow>), Counts>>();
    let mut counts = Counts::default();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..plan.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            std::thread::Builder::new()
                .name("analyse".into())
                .spawn_scoped(scope, move || {
                    let mut solvers = Solvers::new(plan.memory);
                    while !stop.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(game) = games.get(i) else { break };
                        let rows = analyse_game(game, &mut solvers, plan.budget);
                        if tx.send(Ok((i, rows))).is_err() {
                            return;
                        }
                    }
                    let _ = tx.send(Err(solvers.counts));
                })
                .context("cannot start an analysis thread")?;
        }
        drop(tx);
        let mut failed = Ok(());
        for message in rx {
            match message {
                Ok((i, rows)) if failed.is_ok() => {
                    failed = done(i, rows);
                    if failed.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Ok(_) => {}
                Err(worker) => counts.add(worker),
            }
        }
        failed
    })?;
    Ok(counts)
}
