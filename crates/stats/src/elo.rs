//! Joint maximum-likelihood Elo ratings over all games, with the first-player
//! advantage and the draw rate fitted together with the ratings.
//!
//! # Model
//! BayesElo's model (Rémi Coulom), which Ordo also offers: with `f(x) = 1 / (1 +
//! 10^(-x/400))`, a game between white `w` and black `b` ends
//! - white wins with probability `f(R_w - R_b + adv - drawelo)`,
//! - black wins with probability `f(R_b - R_w - adv - drawelo)`,
//! - draw otherwise.
//!
//! `adv` is the first player's advantage in Elo and `drawelo > 0` sets how often
//! equal players draw (`P(draw) = tanh(drawelo * ln10 / 800)` at equal strength).
//! Ratings are reported centred on a mean of 0.
//!
//! # Several variants (groups) in one fit
//! [`fit_pooled`] rates games of several groups (variants) together: one
//! rating per bot, shared by all groups, and an `adv` and `drawelo` of each
//! group's own, since the first player's advantage and the draw rate differ
//! a lot between games. A game of group `g` uses group `g`'s `adv` and
//! `drawelo` in the formulas above. With one group it is exactly
//! [`fit_ratings`] (the same computation, in the same order).
//!
//! # Prior (only where the maximum-likelihood estimate does not exist)
//! A bot with only wins has a maximum-likelihood rating of +infinity, a bot without
//! games has no rating at all, and two groups of bots that never met have no
//! defined offset. With an edge `i -> j` whenever `i` won or drew against `j`,
//! the maximum-likelihood ratings exist exactly when that graph is strongly
//! connected. Where it is, the ratings are pure maximum likelihood. Where it is
//! not, [`needs_prior`] picks the bots of every group that lost no game, or won
//! none, against the rest of the field (a bot without games is such a group),
//! and only those get [`FitOptions::prior_games`] (default 2) virtual games:
//! half a virtual win and half a virtual loss per prior game against an
//! opponent rated at the field's mean. [`RatingFit::rests_on_prior`] says which.
//!
//! The two parameters of a group get the same weight of virtual games, likewise
//! only where their maximum-likelihood values do not exist (no game of the
//! group drawn, every one drawn, or one colour never lost; or, rarely, when
//! they run off jointly with the ratings and the fit without their prior
//! fails, which puts every group's parameters on the prior);
//! [`RatingFit::parameters_rest_on_prior`] says so:
//! - `adv`: half a virtual win and half a virtual loss per prior game at 0;
//! - `drawelo`: one virtual draw and one virtual decisive game per two prior
//!   games between equal players.
//!
//! The result is the posterior mode (maximum a posteriori), which always exists and
//! is finite. Set `prior_games` to 0 ([`FitOptions::no_prior`]) for the pure
//! maximum-likelihood fit: it fails with [`FitError::NoMaximum`] where that does
//! not exist. [`PriorScope::AllBots`] gives every bot the prior, as BayesElo
//! does (it shrinks a wide field's ratings by tens of Elo).
//!
//! # Intervals
//! The inverse of the observed information (the negative Hessian of the log
//! posterior at the mode), i.e. the Laplace approximation BayesElo uses. A bot's
//! interval is for its rating relative to the field mean, so it accounts for the
//! uncertainty of everyone else's rating as well. `drawelo` must be positive,
//! so its interval is formed on the log scale ([`Scale::Log`]) and never
//! reaches 0, however few games were drawn.
//!
//! # Speed
//! Games are first aggregated into counts per ordered (white, black) pair
//! ([`PairCounts`]), so a fit costs O(bots^2) per Newton iteration plus an
//! O(bots^3) factorisation, independent of the number of games. The objective is
//! concave (log-concave logistic terms), so damped Newton converges in a handful
//! of iterations.

pub use crate::pair_counts::PairCounts;
use crate::prior::no_maximum;
pub use crate::prior::{needs_prior, NoMaximum};
use std::fmt;

use super::linalg::Cholesky;
use super::logistic::{ln_sigmoid, sigmoid, NATS_PER_ELO};
use super::Z95;

/// The most bots rated together. The fit keeps per-pair counts and a
/// Hessian of bots x bots entries: 10,000 bots take about 3 GB; more would
/// exhaust the memory of the machine before the fit begins, so callers refuse
/// them with an error instead ([`crate::Tally`], the tournament's
/// settings).
pub const MAX_BOTS: usize = 10_000;

/// Which bots the rating prior applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriorScope {
    /// Only the bots of groups without a finite maximum-likelihood rating
    /// (see [`needs_prior`]); all other ratings are pure maximum likelihood.
    WhereNeeded,
    /// Every bot, as BayesElo does (kept for comparison and benchmarks).
    AllBots,
}

/// Settings of [`fit_ratings`].
#[derive(Debug, Clone, PartialEq)]
pub struct FitOptions {
    /// Weight of the prior, in virtual games per parameter (see the module docs).
    /// 0 gives the pure maximum-likelihood fit, which fails with
    /// [`FitError::NoMaximum`] where it does not exist.
    pub prior_games: f64,
    /// Which bots the rating prior applies to.
    pub scope: PriorScope,
    /// Newton iterations before giving up.
    pub max_iterations: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            prior_games: 2.0,
            scope: PriorScope::WhereNeeded,
            max_iterations: 200,
        }
    }
}

impl FitOptions {
    /// The pure maximum-likelihood fit (Ordo's view, without its draw model).
    pub fn no_prior() -> FitOptions {
        FitOptions {
            prior_games: 0.0,
            ..FitOptions::default()
        }
    }
}

/// Why a fit failed. With the default prior none of these happen.
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    InvalidOptions(String),
    /// The data do not determine the parameters (e.g. without prior: groups of
    /// bots that never met, or no draws at all).
    NotIdentifiable,
    NotConverged {
        iterations: usize,
    },
    /// Without a prior: the maximum-likelihood estimate does not exist.
    NoMaximum(NoMaximum),
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitError::InvalidOptions(msg) => write!(f, "invalid rating fit options: {msg}"),
            FitError::NotIdentifiable => write!(
                f,
                "the games do not determine the ratings (use a prior, prior_games > 0)"
            ),
            FitError::NotConverged { iterations } => {
                write!(f, "rating fit did not converge in {iterations} iterations")
            }
            FitError::NoMaximum(why) => write!(
                f,
                "the maximum-likelihood ratings do not exist: {why} (a prior is needed)"
            ),
        }
    }
}

impl std::error::Error for FitError {}

/// A point estimate with its standard error (normal approximation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub sd: f64,
    /// The scale on which the interval is symmetric.
    pub scale: Scale,
}

/// The scale on which an [`Estimate`]'s normal interval is formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// `value -/+ z * sd`: for parameters of any sign (ratings, the advantage).
    Linear,
    /// The normal interval of `ln(value)` mapped back with `exp`, for a
    /// parameter the model requires to be positive (`drawelo`): a linear
    /// interval would reach below 0 whenever few games were drawn. By the delta
    /// method `sd(ln value) = sd / value`, so the interval is
    /// `value * exp(-/+ z * sd / value)`: inside (0, infinity), longer above the
    /// value than below it, and close to the linear one when `sd` is small
    /// against `value`.
    Log,
}

impl Estimate {
    /// An estimate whose interval is `value -/+ z * sd`.
    pub fn linear(value: f64, sd: f64) -> Estimate {
        Estimate {
            value,
            sd,
            scale: Scale::Linear,
        }
    }

    /// The interval that covers with probability about that of `z` under the
    /// normal approximation on [`Self::scale`].
    pub fn interval(&self, z: f64) -> (f64, f64) {
        match self.scale {
            Scale::Linear => (self.value - z * self.sd, self.value + z * self.sd),
            // A value of 0 (never fitted, only possible at the boundary) has no
            // log scale; 0 is the only lower end the parameter space allows.
            Scale::Log if self.value <= 0.0 => (0.0, self.value + z * self.sd),
            Scale::Log => {
                let factor = (z * self.sd / self.value).exp();
                (self.value / factor, self.value * factor)
            }
        }
    }

    /// Lower end of the 95% interval.
    pub fn low(&self) -> f64 {
        self.interval(Z95).0
    }

    /// Upper end of the 95% interval.
    pub fn high(&self) -> f64 {
        self.interval(Z95).1
    }
}

/// The fitted model. All values in Elo.
#[derive(Debug, Clone)]
pub struct RatingFit {
    ratings: Vec<Estimate>,
    /// Which bots' ratings got the prior.
    on_prior: Vec<bool>,
    /// Per group: whether its `adv` and `drawelo` got the prior.
    parameters_on_prior: Vec<bool>,
    /// Per group: `adv`.
    white_advantage: Vec<Estimate>,
    /// Per group: `drawelo`.
    draw_elo: Vec<Estimate>,
    /// Posterior covariance of (ratings.., adv_0, drawelo_0, adv_1, ...) in
    /// nats^2, row-major.
    covariance: Vec<f64>,
    iterations: usize,
}

impl RatingFit {
    /// Rating of each bot relative to the mean of all bots (which is 0).
    pub fn ratings(&self) -> &[Estimate] {
        &self.ratings
    }

    pub fn rating(&self, bot: usize) -> Estimate {
        self.ratings[bot]
    }

    /// Whether `bot`'s rating rests on the prior (its maximum-likelihood
    /// rating does not exist; see [`needs_prior`]).
    pub fn rests_on_prior(&self, bot: usize) -> bool {
        self.on_prior[bot]
    }

    /// Whether some parameter's standard error shows a maximum at infinity.
    fn ran_off(&self) -> bool {
        self.ratings
            .iter()
            .chain(&self.white_advantage)
            .chain(&self.draw_elo)
            .any(|e| !(e.sd < RUN_OFF_SD && e.value.is_finite()))
    }

    /// Whether the white advantage and draw parameter rest on the prior (their
    /// maximum-likelihood values do not exist, e.g. no game was drawn); of
    /// any group, in a pooled fit.
    pub fn parameters_rest_on_prior(&self) -> bool {
        self.parameters_on_prior.iter().any(|&p| p)
    }

    /// The first player's (white's) advantage `adv` (of the first group, the
    /// only one outside [`fit_pooled`]).
    pub fn white_advantage(&self) -> Estimate {
        self.white_advantage[0]
    }

    /// BayesElo's `drawelo` (of the first group, like [`Self::white_advantage`]).
    pub fn draw_elo(&self) -> Estimate {
        self.draw_elo[0]
    }

    /// Number of groups (variants) fitted: 1 outside [`fit_pooled`].
    pub fn groups(&self) -> usize {
        self.white_advantage.len()
    }

    /// Group `group`'s `adv`, `drawelo`, and whether they rest on the prior.
    pub fn group_parameters(&self, group: usize) -> (Estimate, Estimate, bool) {
        (
            self.white_advantage[group],
            self.draw_elo[group],
            self.parameters_on_prior[group],
        )
    }

    /// Rating of `a` minus rating of `b`, with its standard error from the joint
    /// covariance (smaller than combining the two bots' intervals when they met).
    pub fn difference(&self, a: usize, b: usize) -> Estimate {
        let m = self.ratings.len() + 2 * self.groups();
        let c = &self.covariance;
        let var = c[a * m + a] + c[b * m + b] - 2.0 * c[a * m + b];
        Estimate::linear(
            self.ratings[a].value - self.ratings[b].value,
            var.max(0.0).sqrt() / NATS_PER_ELO,
        )
    }

    /// Newton iterations the fit took.
    pub fn iterations(&self) -> usize {
        self.iterations
    }
}

/// Strength of the penalty `(sum of ratings)^2 / 2` that pins the mean rating at
/// 0. The rest of the objective does not change when all ratings shift together,
/// so this fixes the mode's location without changing centred ratings or their
/// covariance.
const GAUGE: f64 = 1.0;

/// Newton stops when the decrement falls below this, relative to the size of the
/// log posterior (rounding makes smaller decrements meaningless).
const CONVERGED: f64 = 1e-12;

/// Fits ratings, first-player advantage and draw parameter to `counts`.
pub fn fit_ratings(counts: &PairCounts, options: &FitOptions) -> Result<RatingFit, FitError> {
    fit_pooled(std::slice::from_ref(counts), options)
}

/// Fits one rating per bot to the games of several groups (variants), each
/// group with its own first-player advantage and draw parameter (see the
/// module docs). Every group has the same bots (indices); a group may have
/// no games. Fails with [`FitError::InvalidOptions`] without groups or when
/// their bot counts differ.
pub fn fit_pooled(groups: &[PairCounts], options: &FitOptions) -> Result<RatingFit, FitError> {
    if !(options.prior_games >= 0.0 && options.prior_games.is_finite()) {
        return Err(FitError::InvalidOptions(format!(
            "prior_games must be a finite number >= 0, got {}",
            options.prior_games
        )));
    }
    let Some(first) = groups.first() else {
        return Err(FitError::InvalidOptions("no group of games to fit".into()));
    };
    if groups.iter().any(|g| g.bots() != first.bots()) {
        return Err(FitError::InvalidOptions(
            "the groups of a pooled fit must have the same bots".into(),
        ));
    }
    let all = pooled_counts(groups);
    let needs = needs_prior(&all);
    let parameters_need_prior: Vec<bool> = groups
        .iter()
        .map(|g| no_maximum(g, &[]).is_some())
        .collect();
    if options.prior_games == 0.0 {
        if let Some(why) = no_maximum(&all, &needs) {
            return Err(FitError::NoMaximum(why));
        }
        if let Some(why) = groups.iter().find_map(|g| no_maximum(g, &[])) {
            return Err(FitError::NoMaximum(why));
        }
    }
    let on_prior: Vec<bool> = match options.scope {
        _ if options.prior_games == 0.0 => vec![false; all.bots()],
        PriorScope::WhereNeeded => needs,
        PriorScope::AllBots => vec![true; all.bots()],
    };
    let parameters_on_prior: Vec<bool> = parameters_need_prior
        .iter()
        .map(|&need| options.prior_games > 0.0 && (need || options.scope == PriorScope::AllBots))
        .collect();
    let every_parameter_on_prior = parameters_on_prior.iter().all(|&p| p);
    let problem = Problem::new(groups, options.prior_games, on_prior, parameters_on_prior);
    let fit = maximise(&problem, options);
    let ran_off = match &fit {
        Err(FitError::NotConverged { .. } | FitError::NotIdentifiable) => true,
        Ok(fit) => fit.ran_off(),
        Err(_) => false,
    };
    if !ran_off || every_parameter_on_prior {
        return fit;
    }
    // The colour advantage and draw rate can also run off jointly with the
    // ratings in ways the simple checks miss (e.g. one draw and otherwise only
    // wins for the same bot: a huge drawelo and rating gap fit best).
    if options.prior_games == 0.0 {
        return Err(FitError::NoMaximum(NoMaximum::RunsOff));
    }
    let every_group = vec![true; groups.len()];
    let problem = Problem::new(groups, options.prior_games, problem.on_prior, every_group);
    maximise(&problem, options)
}

/// The games of all groups in one table (for what depends only on who
/// scored against whom: which ratings need the prior).
fn pooled_counts(groups: &[PairCounts]) -> PairCounts {
    let mut all = groups[0].clone();
    for group in &groups[1..] {
        for (cell, add) in all.cells.iter_mut().zip(&group.cells) {
            for (c, a) in cell.iter_mut().zip(add) {
                *c += a;
            }
        }
    }
    all
}

/// Standard errors beyond this (in Elo) mean the fit ran off along a direction
/// the data do not bound: finite data give nothing near it.
const RUN_OFF_SD: f64 = 1e4;

/// Damped Newton from [`Problem::start`] to the mode of `problem`.
fn maximise(problem: &Problem, options: &FitOptions) -> Result<RatingFit, FitError> {
    let mut x = problem.start();
    let mut value = problem.value(&x);
    let mut iterations = 0;
    loop {
        if iterations >= options.max_iterations {
            return Err(FitError::NotConverged { iterations });
        }
        iterations += 1;
        let (gradient, hessian) = problem.gradient_and_information(&x);
        let chol = Cholesky::new(&hessian, problem.dim()).ok_or(FitError::NotIdentifiable)?;
        let step = chol.solve(&gradient);
        // Newton decrement: the predicted gain of a full step, times two.
        let decrement: f64 = gradient.iter().zip(&step).map(|(g, d)| g * d).sum();
        if !decrement.is_finite() {
            return Err(FitError::NotIdentifiable);
        }
        // Half the decrement is the predicted remaining gain in log posterior; below
        // this the parameters are within a tiny fraction of a standard error.
        if decrement < CONVERGED * (1.0 + value.abs()) {
            break;
        }
        // Backtracking line search (Armijo); also keeps drawelo positive.
        let mut t = 1.0;
        let mut accepted = false;
        while t > 1e-12 {
            let trial: Vec<f64> = x.iter().zip(&step).map(|(xi, di)| xi + t * di).collect();
            if (0..problem.groups).all(|g| trial[problem.draw_index(g)] > 0.0) {
                let trial_value = problem.value(&trial);
                // Strict: a step too small to change anything is not progress.
                if trial_value > value + 1e-4 * t * decrement {
                    x = trial;
                    value = trial_value;
                    accepted = true;
                    break;
                }
            }
            t *= 0.5;
        }
        if !accepted {
            // No further ascent is possible in floating point: at the optimum up to
            // rounding. Accept if the remaining predicted gain is tiny.
            if decrement < 1e3 * CONVERGED * (1.0 + value.abs()) {
                break;
            }
            return Err(FitError::NotConverged { iterations });
        }
    }
    let (_, information) = problem.gradient_and_information(&x);
    let covariance = Cholesky::new(&information, problem.dim())
        .ok_or(FitError::NotIdentifiable)?
        .inverse();
    Ok(problem.summarise(&x, covariance, iterations))
}

/// One ordered pair's counts, with the bots' indices.
struct Cell {
    white: usize,
    black: usize,
    /// The group (variant) whose `adv` and `drawelo` the games use.
    group: usize,
    wins: f64,
    draws: f64,
    losses: f64,
}

/// The objective in natural units: parameters are
/// `[theta_0..theta_{n-1}, a_0, s_0, a_1, s_1, ...]` with
/// `theta = rating * NATS_PER_ELO`, and per group `a = adv * NATS_PER_ELO`,
/// `s = drawelo * NATS_PER_ELO`.
struct Problem {
    bots: usize,
    groups: usize,
    cells: Vec<Cell>,
    prior: f64,
    /// Which bots' ratings get the prior.
    on_prior: Vec<bool>,
    /// Per group: whether its `adv` and `drawelo` get the prior.
    parameters_on_prior: Vec<bool>,
    /// Per group: the fraction of its games drawn.
    draw_rate: Vec<f64>,
}

/// Log-probabilities of a game's outcomes and their derivatives with respect to
/// `u = theta_w - theta_b + a` and `s`, weighted by the cell's counts.
struct CellTerms {
    value: f64,
    g_u: f64,
    g_s: f64,
    /// Negative second derivatives.
    h_uu: f64,
    h_us: f64,
    h_ss: f64,
}

/// `ln sinh(s)` for s > 0.
fn ln_sinh(s: f64) -> f64 {
    s + (-(-2.0 * s).exp_m1()).ln() - std::f64::consts::LN_2
}

fn cell_terms(cell: &Cell, u: f64, s: f64, with_derivatives: bool) -> CellTerms {
    // P(white wins) = sigmoid(u - s), P(black wins) = sigmoid(-u - s),
    // P(draw) = sinh(s) / (cosh(u) + cosh(s)).
    // cosh terms are scaled by e^-M to stay finite for extreme parameters.
    let big = u.abs().max(s);
    let scaled_cosh = |v: f64| 0.5 * ((v - big).exp() + (-v - big).exp());
    let scaled_sinh = |v: f64| 0.5 * ((v - big).exp() - (-v - big).exp());
    let k = scaled_cosh(u) + scaled_cosh(s); // (cosh u + cosh s) e^-M
    let ln_k = big + k.ln();
    let mut value = 0.0;
    if cell.wins > 0.0 {
        value += cell.wins * ln_sigmoid(u - s);
    }
    if cell.losses > 0.0 {
        value += cell.losses * ln_sigmoid(-u - s);
    }
    if cell.draws > 0.0 {
        value += cell.draws * (ln_sinh(s) - ln_k);
    }
    if !with_derivatives {
        return CellTerms {
            value,
            g_u: 0.0,
            g_s: 0.0,
            h_uu: 0.0,
            h_us: 0.0,
            h_ss: 0.0,
        };
    }
    let p = sigmoid(u - s);
    let q = sigmoid(-u - s);
    let vp = p * (1.0 - p);
    let vq = q * (1.0 - q);
    let (w, d, l) = (cell.wins, cell.draws, cell.losses);
    let mut terms = CellTerms {
        value,
        g_u: w * (1.0 - p) - l * (1.0 - q),
        g_s: -w * (1.0 - p) - l * (1.0 - q),
        h_uu: w * vp + l * vq,
        h_us: -w * vp + l * vq,
        h_ss: w * vp + l * vq,
    };
    if d > 0.0 {
        let (ch_u, sh_u) = (scaled_cosh(u), scaled_sinh(u));
        let (ch_s, sh_s) = (scaled_cosh(s), scaled_sinh(s));
        let k2 = k * k;
        // (1 + cosh u cosh s) / K^2, with the 1 scaled by e^-2M.
        let curvature = ((-2.0 * big).exp() + ch_u * ch_s) / k2;
        let sinh_s = s.sinh();
        terms.g_u -= d * sh_u / k;
        terms.g_s += d * (1.0 / s.tanh() - sh_s / k);
        terms.h_uu += d * curvature;
        terms.h_us -= d * sh_u * sh_s / k2;
        terms.h_ss += d * (1.0 / (sinh_s * sinh_s) + curvature);
    }
    terms
}

impl Problem {
    /// `groups` all have the same bots (checked by [`fit_pooled`]).
    fn new(
        groups: &[PairCounts],
        prior: f64,
        on_prior: Vec<bool>,
        parameters_on_prior: Vec<bool>,
    ) -> Problem {
        let n = groups[0].bots();
        let mut cells = Vec::new();
        let mut draw_rate = Vec::with_capacity(groups.len());
        for (group, counts) in groups.iter().enumerate() {
            let mut draws = 0.0;
            let mut total = 0.0;
            for white in 0..n {
                for black in 0..n {
                    let [wins, d, losses] = counts.get(white, black);
                    if wins + d + losses > 0.0 {
                        draws += d;
                        total += wins + d + losses;
                        cells.push(Cell {
                            white,
                            black,
                            group,
                            wins,
                            draws: d,
                            losses,
                        });
                    }
                }
            }
            draw_rate.push(if total > 0.0 { draws / total } else { 0.5 });
        }
        Problem {
            bots: n,
            groups: groups.len(),
            cells,
            prior,
            on_prior,
            parameters_on_prior,
            draw_rate,
        }
    }

    fn dim(&self) -> usize {
        self.bots + 2 * self.groups
    }

    fn adv_index(&self, group: usize) -> usize {
        self.bots + 2 * group
    }

    fn draw_index(&self, group: usize) -> usize {
        self.bots + 2 * group + 1
    }

    /// Ratings and advantages at 0; each drawelo matching its group's
    /// observed draw rate between equal players (`P(draw) = tanh(s / 2)`).
    fn start(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.dim()];
        for (group, rate) in self.draw_rate.iter().enumerate() {
            x[self.draw_index(group)] = 2.0 * rate.clamp(0.05, 0.95).atanh();
        }
        x
    }

    fn u(&self, x: &[f64], cell: &Cell) -> f64 {
        x[cell.white] - x[cell.black] + x[self.adv_index(cell.group)]
    }

    fn mean_rating(&self, x: &[f64]) -> f64 {
        if self.bots == 0 {
            0.0
        } else {
            x[..self.bots].iter().sum::<f64>() / self.bots as f64
        }
    }

    /// Log posterior (up to a constant) minus the gauge penalty.
    fn value(&self, x: &[f64]) -> f64 {
        let mut value: f64 = self
            .cells
            .iter()
            .map(|c| cell_terms(c, self.u(x, c), x[self.draw_index(c.group)], false).value)
            .sum();
        let half = 0.5 * self.prior;
        if half > 0.0 {
            let mean = self.mean_rating(x);
            for (&theta, _) in x[..self.bots].iter().zip(&self.on_prior).filter(|p| *p.1) {
                let z = theta - mean;
                value += half * (ln_sigmoid(z) + ln_sigmoid(-z));
            }
        }
        for group in (0..self.groups).filter(|&g| half > 0.0 && self.parameters_on_prior[g]) {
            let a = x[self.adv_index(group)];
            let s = x[self.draw_index(group)];
            value += half * (ln_sigmoid(a) + ln_sigmoid(-a));
            // ln tanh(s/2) + ln(2 sigmoid(-s)): one virtual draw, one decisive game.
            value += half
                * ((-(-s).exp_m1()).ln() - (-s).exp().ln_1p()
                    + std::f64::consts::LN_2
                    + ln_sigmoid(-s));
        }
        let sum: f64 = x[..self.bots].iter().sum();
        value - 0.5 * GAUGE * sum * sum
    }

    /// Gradient of [`Problem::value`] and its negative Hessian (the information).
    fn gradient_and_information(&self, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = self.bots;
        let m = self.dim();
        let mut g = vec![0.0; m];
        let mut h = vec![0.0; m * m];
        for cell in &self.cells {
            let (ia, is) = (self.adv_index(cell.group), self.draw_index(cell.group));
            let t = cell_terms(cell, self.u(x, cell), x[is], true);
            // u depends on +theta_white, -theta_black, +a.
            let mut jac: [(usize, f64); 3] = [(cell.white, 1.0), (cell.black, -1.0), (ia, 1.0)];
            let used = if cell.white == cell.black {
                // Self-play: the ratings cancel, only `a` remains.
                jac[0] = (ia, 1.0);
                1
            } else {
                3
            };
            for &(p, jp) in &jac[..used] {
                g[p] += jp * t.g_u;
                h[p * m + is] += jp * t.h_us;
                h[is * m + p] += jp * t.h_us;
                for &(q, jq) in &jac[..used] {
                    h[p * m + q] += jp * jq * t.h_uu;
                }
            }
            g[is] += t.g_s;
            h[is * m + is] += t.h_ss;
        }
        let half = 0.5 * self.prior;
        if half > 0.0 {
            // Rating prior on z_i = theta_i - mean: gradient g_i - mean(g),
            // information sum_i h_i v_i v_i^T with v_i = e_i - 1/n.
            let mean = self.mean_rating(x);
            let nf = n.max(1) as f64;
            let mut pg = vec![0.0; n];
            let mut ph = vec![0.0; n];
            for i in (0..n).filter(|&i| self.on_prior[i]) {
                let sig = sigmoid(x[i] - mean);
                pg[i] = half * (1.0 - 2.0 * sig);
                ph[i] = self.prior * sig * (1.0 - sig);
            }
            let pg_mean = pg.iter().sum::<f64>() / nf;
            let ph_sum: f64 = ph.iter().sum();
            for j in 0..n {
                g[j] += pg[j] - pg_mean;
                for k in 0..n {
                    let diag = if j == k { ph[j] } else { 0.0 };
                    h[j * m + k] += diag - (ph[j] + ph[k]) / nf + ph_sum / (nf * nf);
                }
            }
        }
        for group in (0..self.groups).filter(|&g| half > 0.0 && self.parameters_on_prior[g]) {
            let (ia, is) = (self.adv_index(group), self.draw_index(group));
            let (a, s) = (x[ia], x[is]);
            let sig = sigmoid(a);
            g[ia] += half * (1.0 - 2.0 * sig);
            h[ia * m + ia] += self.prior * sig * (1.0 - sig);
            let sig_s = sigmoid(s);
            let sinh_s = s.sinh();
            g[is] += half * (1.0 / sinh_s - sig_s);
            h[is * m + is] += half * (s.cosh() / (sinh_s * sinh_s) + sig_s * (1.0 - sig_s));
        }
        let sum: f64 = x[..n].iter().sum();
        for j in 0..n {
            g[j] -= GAUGE * sum;
            for k in 0..n {
                h[j * m + k] += GAUGE;
            }
        }
        (g, h)
    }

    fn summarise(&self, x: &[f64], covariance: Vec<f64>, iterations: usize) -> RatingFit {
        let n = self.bots;
        let m = self.dim();
        let mean = self.mean_rating(x);
        let nf = n.max(1) as f64;
        // Var(theta_i - mean) = C_ii - 2 mean_k C_ik + mean_jk C_jk.
        let row_means: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|k| covariance[i * m + k]).sum::<f64>() / nf)
            .collect();
        let grand_mean = row_means.iter().sum::<f64>() / nf;
        let ratings = (0..n)
            .map(|i| {
                let var = covariance[i * m + i] - 2.0 * row_means[i] + grand_mean;
                Estimate::linear(
                    (x[i] - mean) / NATS_PER_ELO,
                    var.max(0.0).sqrt() / NATS_PER_ELO,
                )
            })
            .collect();
        let param = |idx: usize, scale: Scale| Estimate {
            value: x[idx] / NATS_PER_ELO,
            sd: covariance[idx * m + idx].max(0.0).sqrt() / NATS_PER_ELO,
            scale,
        };
        RatingFit {
            ratings,
            on_prior: self.on_prior.clone(),
            parameters_on_prior: self.parameters_on_prior.clone(),
            white_advantage: (0..self.groups)
                .map(|g| param(self.adv_index(g), Scale::Linear))
                .collect(),
            draw_elo: (0..self.groups)
                .map(|g| param(self.draw_index(g), Scale::Log))
                .collect(),
            covariance,
            iterations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wdl::Wdl;
    use arena_rules::games::GameResult;

    /// Finite differences of `Problem::value` must match the analytic gradient and
    /// information, including the prior, the gauge and self-play cells.
    #[test]
    fn derivatives_match_finite_differences() {
        let mut counts = PairCounts::new(3);
        let games = [
            (0, 1, GameResult::WhiteWins, 7),
            (0, 1, GameResult::Draw, 3),
            (1, 0, GameResult::BlackWins, 2),
            (1, 2, GameResult::Draw, 5),
            (2, 0, GameResult::WhiteWins, 4),
            (2, 0, GameResult::BlackWins, 1),
            (2, 2, GameResult::WhiteWins, 1),
        ];
        for (w, b, r, times) in games {
            for _ in 0..times {
                counts.add(w, b, r);
            }
        }
        let problem = Problem::new(
            std::slice::from_ref(&counts),
            2.0,
            vec![true, false, true],
            vec![true],
        );
        check_derivatives(&problem, &[0.3, -0.2, 0.5, 0.15, 0.7]);
        // Two groups (a pooled fit), the second's parameters on the prior.
        let mut other = PairCounts::new(3);
        other.add_counts(
            0,
            2,
            Wdl {
                wins: 1,
                draws: 4,
                losses: 6,
            },
        );
        other.add_counts(
            2,
            1,
            Wdl {
                wins: 5,
                draws: 2,
                losses: 0,
            },
        );
        let groups = [counts, other];
        let problem = Problem::new(&groups, 2.0, vec![true, false, true], vec![false, true]);
        check_derivatives(&problem, &[0.3, -0.2, 0.5, 0.15, 0.7, -0.4, 1.1]);
    }

    fn check_derivatives(problem: &Problem, x: &[f64]) {
        let x = x.to_vec();
        let (g, h) = problem.gradient_and_information(&x);
        let m = problem.dim();
        let eps = 1e-5;
        let shifted = |i: usize, d: f64| {
            let mut y = x.clone();
            y[i] += d;
            y
        };
        for i in 0..m {
            let fd =
                (problem.value(&shifted(i, eps)) - problem.value(&shifted(i, -eps))) / (2.0 * eps);
            assert!((fd - g[i]).abs() < 1e-6, "gradient {i}: {fd} vs {}", g[i]);
            let (gp, _) = problem.gradient_and_information(&shifted(i, eps));
            let (gm, _) = problem.gradient_and_information(&shifted(i, -eps));
            for j in 0..m {
                let fd = -(gp[j] - gm[j]) / (2.0 * eps);
                assert!(
                    (fd - h[j * m + i]).abs() < 1e-5,
                    "information {j},{i}: {fd} vs {}",
                    h[j * m + i]
                );
            }
        }
    }

    /// With one draw in 30 games the linear interval of drawelo reaches below
    /// 0, which the model does not allow; the reported one stays above 0,
    /// holds the estimate, and is the log-scale normal interval.
    #[test]
    fn draw_elo_interval_stays_positive() {
        let mut counts = PairCounts::new(2);
        counts.add_counts(
            0,
            1,
            Wdl {
                wins: 15,
                draws: 1,
                losses: 0,
            },
        );
        counts.add_counts(
            1,
            0,
            Wdl {
                wins: 0,
                draws: 0,
                losses: 14,
            },
        );
        let fit = fit_ratings(&counts, &FitOptions::default()).unwrap();
        // One draw, all else won by bot 0: without a prior drawelo and the
        // gap run off together, so these two rest on the prior.
        assert!(fit.parameters_rest_on_prior());
        assert_eq!(
            fit_ratings(&counts, &FitOptions::no_prior()).unwrap_err(),
            FitError::NoMaximum(NoMaximum::RunsOff)
        );
        let draw = fit.draw_elo();
        assert_eq!(draw.scale, Scale::Log);
        let linear = Estimate::linear(draw.value, draw.sd);
        assert!(linear.low() < 0.0, "linear {:?}", linear.interval(Z95));
        let (low, high) = (draw.low(), draw.high());
        assert!(
            0.0 < low && low < draw.value && draw.value < high,
            "{draw:?}"
        );
        let ln_sd = draw.sd / draw.value;
        assert!((low.ln() - (draw.value.ln() - Z95 * ln_sd)).abs() < 1e-9);
        assert!((high.ln() - (draw.value.ln() + Z95 * ln_sd)).abs() < 1e-9);
        // Longer above the value than below it, as a log scale makes it.
        assert!(high - draw.value > draw.value - low);
    }

    #[test]
    fn linear_intervals_are_symmetric() {
        let e = Estimate::linear(10.0, 5.0);
        assert_eq!(e.interval(2.0), (0.0, 20.0));
    }
}
