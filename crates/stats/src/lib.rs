//! Statistics over finished games: the tally that counts a run's games once
//! ([`Tally`]), joint Elo ratings with intervals, head-to-head scores,
//! pentanomial counts over game pairs, likelihood of superiority and the
//! sequential probability ratio test. A result from one side is a
//! [`Score`], many of them a [`Wdl`] ([`wdl`]): what every count is made of.
//!
//! Everything here works on plain names and numbers (a [`TalliedGame`], bot
//! indices, [`Score`]s); turning `games.csv` rows into those is the job of
//! the layers above, which know the rows.
//!
//! - `tally`: the tally of a set of games, counted once as they arrive.
//! - `wdl`: a result from one side (`Score`) and the wins, draws and losses
//!   of many games (`Wdl`), by colour (`Colours`).
//! - `elo`: joint maximum-likelihood Elo ratings with intervals, the
//!   first-player advantage and the draw rate; `prior`: where that fit needs
//!   its prior; `linalg`: the small linear algebra it uses; `logistic`: the
//!   Elo scale's conversions.
//! - `head_to_head`: one bot's score against another, with an interval that
//!   respects game pairs; `los`: likelihood of superiority.
//! - `pair_counts`: results per ordered pair of bots, the fit's input.
//! - `pentanomial`: colour-swapped game pairs and their pentanomial counts.
//! - `sprt`: the sequential probability ratio test over game pairs.
//! - `adaptive`: which pairs an adaptive ranking plays next and when its order
//!   is certified; `certify`: what it certifies (the order, the top K or
//!   tiers); `tier_pairs`: where the `tiers` goal plays (the boundaries
//!   still in reach); `adaptive_sim`: simulated runs of it with known ratings.

pub mod adaptive;
pub mod adaptive_sim;
pub mod certify;
pub mod elo;
pub mod head_to_head;
pub mod linalg;
pub mod logistic;
pub mod los;
pub mod pair_counts;
pub mod pentanomial;
pub mod prior;
pub mod sprt;
pub mod tally;
pub mod tier_pairs;
pub mod wdl;

pub use adaptive::{Assessment, Boundary, Certifier, PairCheck};
/// The crate's one result type (from the games engine), which the fits count.
pub use arena_rules::games::GameResult;
pub use certify::{Goal, Watch};
pub use elo::{
    fit_pooled, fit_ratings, needs_prior, Estimate, FitError, FitOptions, NoMaximum, PairCounts,
    PriorScope, RatingFit, Scale, MAX_BOTS,
};
pub use head_to_head::{wilson_interval, IntervalMethod, ScoreEstimate, ScoreUnit};
pub use los::{likelihood_of_superiority, pair_likelihood_of_superiority};
pub use pentanomial::Pentanomial;
pub use sprt::{
    EloModel, SequentialSprt, Sprt, SprtConfig, SprtConfigError, SprtDecision, SprtEstimate,
    SprtStatus,
};
pub use tally::{
    InvalidGame, Leader, LostBy, MatchCounts, TalliedGame, Tally, TallyCounts, Unplayed,
    FAILURE_KINDS,
};
pub use wdl::{points_text, Colours, Score, Wdl};

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;
