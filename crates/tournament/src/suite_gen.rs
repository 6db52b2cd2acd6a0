//! `arena openings`: generates an opening suite.
//!
//! Candidates are random legal openings of a fixed length drawn from a
//! ChaCha stream keyed by the seed, so the same settings give the same
//! suite. A candidate is dropped when a symmetry of the board maps it onto
//! an opening already kept ([`arena_rules::games::symmetry`]), and, with a
//! balance check, when short self-play games of a reference engine from it
//! score outside a band for white: the suite then measures strategy rather
//! than who got the better start.

use anyhow::{bail, Context};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use arena_referee::{play_bots, BotSpec, GameConfig, Seat, SpawnOptions};
use arena_rules::games::symmetry::{canonical_key, symmetries};
use arena_rules::games::{Position, Variant};
use arena_rules::protocol::{Reason, TimeControl};

/// Candidates tried per opening asked for before giving up.
const ATTEMPTS_PER_OPENING: u64 = 200;

/// What to generate.
#[derive(Clone)]
pub struct SuiteSettings {
    pub variant: &'static Variant,
    pub plies: u32,
    pub count: usize,
    pub seed: u64,
}

/// The self-play check of `--balanced`.
#[derive(Debug, Clone)]
pub struct Balance {
    /// Engine command line; every argument `{seed}` is replaced by a number
    /// that differs per game and side, so tie-breaks vary between games.
    pub engine: String,
    /// Games per candidate; colours do not matter (self-play).
    pub games: u32,
    /// White's score (0..=1) must lie in `low..=high`.
    pub low: f64,
    pub high: f64,
    pub time_control: TimeControl,
}

/// A generated suite and what it took.
#[derive(Debug, Clone)]
pub struct Generated {
    pub openings: Vec<Vec<String>>,
    /// Candidates drawn (legal, unfinished).
    pub candidates: u64,
    /// Dropped as the same as a kept opening up to symmetry.
    pub duplicates: u64,
    /// Dropped by the balance check.
    pub unbalanced: u64,
}

/// Generates `settings.count` distinct openings; `keep` judges each new
/// candidate (the balance check; `Ok(true)` keeps it).
pub fn generate(
    settings: &SuiteSettings,
    mut keep: impl FnMut(&[String]) -> anyhow::Result<bool>,
) -> anyhow::Result<Generated> {
    let variant = settings.variant;
    let syms = symmetries(variant);
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = Generated {
        openings: Vec::new(),
        candidates: 0,
        duplicates: 0,
        unbalanced: 0,
    };
    let limit = ATTEMPTS_PER_OPENING * settings.count.max(1) as u64;
    let mut attempts = 0;
    while out.openings.len() < settings.count {
        attempts += 1;
        if attempts > limit {
            bail!(
                "found only {} of {} openings of {} plies for {} in {limit} tries ({} repeats up to symmetry, {} unbalanced); ask for fewer, longer or a wider band",
                out.openings.len(),
                settings.count,
                settings.plies,
                variant.id,
                out.duplicates,
                out.unbalanced
            );
        }
        let Some(moves) = candidate(variant, settings.plies, &mut rng) else {
            continue;
        };
        out.candidates += 1;
        let key = canonical_key(variant, &syms, &moves)
            .context("a symmetry of the board mapped a legal opening onto an illegal one")?;
        if seen.contains(&key) {
            out.duplicates += 1;
            continue;
        }
        seen.insert(key);
        if keep(&moves)? {
            out.openings.push(moves);
        } else {
            out.unbalanced += 1;
        }
    }
    Ok(out)
}

/// A uniformly random sequence of `plies` legal moves that leaves the game
/// open, or `None` when this draw ended the game early.
fn candidate(variant: &'static Variant, plies: u32, rng: &mut ChaCha8Rng) -> Option<Vec<String>> {
    let mut pos = Position::new(variant);
    let mut moves = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if pos.is_over() || legal.is_empty() {
            return None;
        }
        let m = legal[rng.gen_range(0..legal.len())];
        pos.play(&m).ok()?;
        moves.push(m.to_string());
    }
    (!pos.is_over() && !pos.legal_moves().is_empty()).then_some(moves)
}

impl Balance {
    /// White's mean score over `games` self-play games from `opening`,
    /// each between two fresh engine processes. An engine failure (crash,
    /// timeout, illegal move) is an error: it says nothing about balance.
    pub async fn white_score(
        &self,
        variant: &'static Variant,
        opening: &[String],
    ) -> anyhow::Result<f64> {
        let mut total = 0.0;
        for game in 0..self.games {
            let mut config = GameConfig::new(&format!("balance{game}"), variant, self.time_control);
            config.opening = opening.to_vec();
            let mut white = Seat::new(
                self.engine_spec("white", 2 * game + 1)?,
                SpawnOptions::default(),
            );
            let mut black = Seat::new(
                self.engine_spec("black", 2 * game + 2)?,
                SpawnOptions::default(),
            );
            let record = play_bots(&mut white, &mut black, &config).await;
            white.shutdown().await;
            black.shutdown().await;
            let record = record?;
            if let Reason::Failure(reason) = record.reason {
                bail!(
                    "the balance engine failed ({reason}) from opening {:?}: {}",
                    opening.join(" "),
                    record.message
                );
            }
            total += record.result.white_score();
        }
        Ok(total / f64::from(self.games.max(1)))
    }

    /// Whether `score` lies in the band.
    pub fn accepts(&self, score: f64) -> bool {
        (self.low..=self.high).contains(&score)
    }

    fn engine_spec(&self, name: &str, seed: u32) -> anyhow::Result<BotSpec> {
        let line = self.engine.replace("{seed}", &seed.to_string());
        BotSpec::from_command_line(name, &line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(id: &str, plies: u32, count: usize, seed: u64) -> SuiteSettings {
        SuiteSettings {
            variant: Variant::by_id(id).unwrap(),
            plies,
            count,
            seed,
        }
    }

    #[test]
    fn suites_are_reproducible_distinct_and_legal() {
        let s = settings("qango7", 3, 50, 1);
        let a = generate(&s, |_| Ok(true)).unwrap();
        assert_eq!(a.openings.len(), 50);
        assert_eq!(a.openings, generate(&s, |_| Ok(true)).unwrap().openings);
        assert_ne!(
            a.openings,
            generate(&settings("qango7", 3, 50, 2), |_| Ok(true))
                .unwrap()
                .openings
        );
        let syms = symmetries(s.variant);
        let keys: std::collections::HashSet<_> = a
            .openings
            .iter()
            .map(|o| canonical_key(s.variant, &syms, o).unwrap())
            .collect();
        assert_eq!(keys.len(), 50);
        for o in &a.openings {
            crate::openings::check_opening(s.variant, o).unwrap();
        }
    }

    #[test]
    fn one_ply_openings_of_a_symmetric_board_run_out_at_the_orbit_count() {
        // Quinque, 1 ply: 24 first cells (c3 is closed), and the eight
        // symmetries of the square leave 5 classes: corner, edge next to a
        // corner, edge middle, inner diagonal, inner orthogonal.
        let s = settings("quinque", 1, 5, 7);
        let g = generate(&s, |_| Ok(true)).unwrap();
        assert_eq!(g.openings.len(), 5);
        let err = generate(&settings("quinque", 1, 6, 7), |_| Ok(true)).unwrap_err();
        assert!(err.to_string().contains("found only 5 of 6"), "{err}");
    }

    #[test]
    fn the_keep_judgement_filters_candidates() {
        let s = settings("qango6", 2, 10, 3);
        let g = generate(&s, |o| Ok(o[0].starts_with('a'))).unwrap();
        assert!(g.openings.iter().all(|o| o[0].starts_with('a')));
        assert!(g.unbalanced > 0);
    }
}
