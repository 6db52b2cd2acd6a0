//! Playing whole games in process between engine settings and the greedy
//! baseline, for the strength harnesses and tests.
//!
//! Every move goes through `Position::play`, the referee's own legality
//! check, so an illegal move is reported as an error, never played.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arena_rules::games::{Color, Position, Variant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::greedy::greedy_move;
use crate::rating::Tally;
use crate::search::{choose_move, mix, SearchLimits, MAX_DEPTH};

/// Who makes the moves for one side.
#[derive(Debug, Clone, Copy)]
pub enum Player {
    Engine(SearchLimits),
    Greedy,
}

impl Player {
    /// An engine searching at most `depth` plies (`None`: no depth limit)
    /// and `movetime_ms` per move (0: no time limit).
    pub fn engine(depth: Option<u32>, movetime_ms: u64) -> Player {
        Player::Engine(SearchLimits {
            max_depth: depth.unwrap_or(MAX_DEPTH),
            time: (movetime_ms > 0).then(|| Duration::from_millis(movetime_ms)),
        })
    }

    pub fn label(&self) -> String {
        match self {
            Player::Greedy => "greedy".to_string(),
            Player::Engine(limits) => {
                let mut label = "engine".to_string();
                if limits.max_depth < MAX_DEPTH {
                    label.push_str(&format!(" depth {}", limits.max_depth));
                }
                if let Some(t) = limits.time {
                    label.push_str(&format!(" {} ms", t.as_millis()));
                }
                label
            }
        }
    }
}

/// How much the engine side(s) thought during a match.
#[derive(Debug, Default, Clone, Copy)]
pub struct EngineUse {
    pub moves: u64,
    pub depth_sum: u64,
    pub total_time: Duration,
    pub max_time: Duration,
}

impl EngineUse {
    pub fn summary(&self) -> String {
        let moves = self.moves.max(1) as f64;
        format!(
            "avg depth {:.1}, avg {:.1} ms/move, max {} ms",
            self.depth_sum as f64 / moves,
            self.total_time.as_secs_f64() * 1000.0 / moves,
            self.max_time.as_millis()
        )
    }
}

/// Plays one game; returns the winner (`None` for a draw).
pub fn play_game(
    variant: &'static Variant,
    white: Player,
    black: Player,
    seed: u64,
    usage: &mut EngineUse,
) -> anyhow::Result<Option<Color>> {
    let mut pos = Position::new(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while !pos.is_over() {
        let mover = pos.to_move();
        let player = if mover == Color::White { white } else { black };
        // The two sides get different seeds so engine mirrors do not coincide.
        let side_seed = mix(seed ^ mover as u64);
        let m = match player {
            Player::Engine(limits) => {
                let report = choose_move(&pos, limits, side_seed).context("engine has no move")?;
                usage.moves += 1;
                usage.depth_sum += report.depth as u64;
                usage.total_time += report.elapsed;
                usage.max_time = usage.max_time.max(report.elapsed);
                report.best
            }
            Player::Greedy => greedy_move(&pos, &mut rng).context("greedy has no move")?,
        };
        if let Err(e) = pos.play(&m) {
            bail!(
                "{} ({mover}) played the illegal move {m} in {} at ply {}: {e}",
                player.label(),
                variant.id,
                pos.ply()
            );
        }
    }
    Ok(pos.outcome().and_then(|o| o.winner))
}

/// The outcome of a match, from the first player's view.
#[derive(Debug, Default, Clone, Copy)]
pub struct MatchResult {
    pub tally: Tally,
    /// Games won by whoever had white: shows first-move advantage.
    pub white_wins: u32,
    pub black_wins: u32,
}

impl MatchResult {
    pub fn summary(&self) -> String {
        format!(
            "{} [white won {}, black won {}]",
            self.tally.summary(),
            self.white_wins,
            self.black_wins
        )
    }
}

/// Plays `pairs` colour-swapped pairs of `a` against `b`; the tally is `a`'s.
pub fn play_match(
    variant: &'static Variant,
    a: Player,
    b: Player,
    pairs: u32,
    seed: u64,
    usage: &mut EngineUse,
) -> anyhow::Result<MatchResult> {
    let mut result = MatchResult::default();
    for pair in 0..pairs {
        let game_seed = mix(seed ^ mix(pair as u64));
        for a_color in [Color::White, Color::Black] {
            let (white, black) = if a_color == Color::White {
                (a, b)
            } else {
                (b, a)
            };
            let winner = play_game(variant, white, black, game_seed, usage)?;
            match winner {
                Some(Color::White) => result.white_wins += 1,
                Some(Color::Black) => result.black_wins += 1,
                None => {}
            }
            match winner {
                Some(c) if c == a_color => result.tally.wins += 1,
                Some(_) => result.tally.losses += 1,
                None => result.tally.draws += 1,
            }
        }
    }
    Ok(result)
}

/// Plays a match of `pairs` colour-swapped pairs on each variant of the
/// comma-separated `variant_ids`, printing one line per variant (result,
/// engine thinking, wall time); returns `a`'s tally over all of them. An
/// unknown variant id is an error before any game is played.
pub fn print_matches(
    variant_ids: &str,
    a: Player,
    b: Player,
    pairs: u32,
    seed: u64,
) -> anyhow::Result<Tally> {
    let variants = variant_ids
        .split(',')
        .map(|id| Variant::by_id(id.trim()).with_context(|| format!("unknown variant \"{id}\"")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut total = Tally::default();
    for variant in variants {
        let started = Instant::now();
        let mut usage = EngineUse::default();
        let result = play_match(variant, a, b, pairs, seed, &mut usage)?;
        total += result.tally;
        println!(
            "{:<11} {} | {}, {:.0} s",
            variant.id,
            result.summary(),
            usage.summary(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(total)
}
