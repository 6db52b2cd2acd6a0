//! The standings: one row per bot with its results and jointly fitted Elo, plus
//! the fitted model parameters.
//!
//! Files:
//! - `standings.csv`: `variant,rank,bot,games,wins,draws,losses,score_pct,elo,
//!   elo_low,elo_high,elo_prior,white_games,white_score_pct,black_games,
//!   black_score_pct`, best first, one block of rows per fit: `variant` is the
//!   variant whose games alone were rated, or `all` for the pooled fit over
//!   several variants (shared ratings, each variant's own first-player
//!   advantage and draw elo; see [`arena_stats::elo`]). `elo` is centred on the field's mean (0); `elo_low`/`elo_high`
//!   are the 95% interval; `elo_prior` is `true` where the bot's rating rests on
//!   the prior (its maximum-likelihood rating does not exist, see
//!   [`arena_stats::elo`]; marked `*` in the terminal table). Percentages are
//!   empty when there are no games to divide by. Then one column
//!   `lost_<reason>` per failure reason (`lost_timeout`, `lost_illegal_move`,
//!   `lost_crash`, ...; see [`super::comparison::LostBy`]): games the bot lost
//!   because it failed that way.
//! - `model.csv`: `variant,fit,parameter,value,low,high` with, per variant
//!   and fit, the rows `white_advantage_elo` (the first player's advantage,
//!   fitted jointly with the ratings) and `draw_elo` (BayesElo's draw
//!   parameter: equal bots draw with probability `tanh(draw_elo * ln10 /
//!   800)`), each with its 95% interval (draw_elo's on a log scale, so it
//!   stays above 0 as the model requires). `fit` is `separate` for the
//!   variant's own fit (its block in standings.csv) and `pooled` for the
//!   pooled fit (the `all` block). A separate file keeps standings.csv one
//!   row per bot and fit, so it loads straight into a plot.
//!
//! See [`arena_stats::elo`] for the model, its weak prior and the intervals.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use arena_stats::{
    fit_pooled, Colours, Estimate, FitError, FitOptions, NoMaximum, PairCounts, Wdl,
};

use super::comparison::{lost_by_columns, render_aligned, LostBy};
use super::rounded::{self, round};
use arena_referee::GameRow;
use arena_stats::Tally;
pub(crate) use arena_tournament::rows_file::write_rows;
use arena_tournament::tally::AddRow;

/// The first columns of `standings.csv`, in the field order of
/// [`StandingRow`]; the `lost_<reason>` columns of [`LostBy`] follow.
const RESULT_COLUMNS: [&str; 15] = [
    "rank",
    "bot",
    "games",
    "wins",
    "draws",
    "losses",
    "score_pct",
    "elo",
    "elo_low",
    "elo_high",
    "elo_prior",
    "white_games",
    "white_score_pct",
    "black_games",
    "black_score_pct",
];

/// The header of `standings.csv`: [`RESULT_COLUMNS`] then one `lost_<reason>`
/// column per failure reason ([`lost_by_columns`]).
pub fn standings_columns() -> Vec<String> {
    std::iter::once("variant")
        .chain(RESULT_COLUMNS)
        .map(|c| c.to_string())
        .chain(lost_by_columns())
        .collect()
}

/// The header of `model.csv`, in the field order of [`ModelRow`].
pub const MODEL_COLUMNS: [&str; 6] = ["variant", "fit", "parameter", "value", "low", "high"];

/// The `variant` of the pooled fit's rows in the rating files.
pub const POOLED: &str = "all";

/// One line of `standings.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingRow {
    pub rank: usize,
    pub bot: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(serialize_with = "rounded::opt_dp2")]
    pub score_pct: Option<f64>,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_low: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub elo_high: f64,
    /// The rating rests on the prior (no maximum-likelihood rating exists).
    pub elo_prior: bool,
    pub white_games: u64,
    #[serde(serialize_with = "rounded::opt_dp2")]
    pub white_score_pct: Option<f64>,
    pub black_games: u64,
    #[serde(serialize_with = "rounded::opt_dp2")]
    pub black_score_pct: Option<f64>,
    /// Games lost by each failure reason (zero until
    /// [`Standings::set_lost_by`] fills them in).
    pub lost: LostBy,
}

/// One line of `model.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelRow {
    pub variant: String,
    /// `separate` (the variant's own fit) or `pooled`.
    pub fit: &'static str,
    pub parameter: &'static str,
    #[serde(serialize_with = "rounded::dp1")]
    pub value: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub low: f64,
    #[serde(serialize_with = "rounded::dp1")]
    pub high: f64,
}

/// Standings and model parameters of a set of games.
#[derive(Debug, Clone, PartialEq)]
pub struct Standings {
    /// Best first.
    pub rows: Vec<StandingRow>,
    /// Bot indices (of the bots the standings were made from, e.g.
    /// [`arena_stats::TallyCounts::bots`]) in rank order.
    pub order: Vec<usize>,
    /// Per variant of the fit: one, except in a pooled fit.
    pub model: Vec<VariantModel>,
    pub games: u64,
}

/// A variant's first-player advantage and draw parameter in a fit.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantModel {
    /// The variant id (empty for [`Standings::from_counts`], which does not
    /// know it).
    pub variant: String,
    pub white_advantage: Estimate,
    pub draw_elo: Estimate,
    /// The white advantage and draw elo rest on the prior (e.g. no draws).
    pub on_prior: bool,
}

/// The score of `wdl` in percent; `None` without a game.
fn pct(wdl: Wdl) -> Option<f64> {
    let games = wdl.games();
    (games > 0).then(|| 50.0 * wdl.half_points() as f64 / games as f64)
}

impl Standings {
    /// Validates and rates `rows` (see [`Tally::add`] for errors).
    pub fn from_rows(rows: &[GameRow]) -> anyhow::Result<Standings> {
        let mut tally = Tally::new();
        for row in rows {
            tally.add_row(row)?;
        }
        let counts = tally.counts();
        Standings::from_counts(&counts.bots, &counts.counts)
    }

    /// Rates the games in `counts` between `bots` (names by index).
    pub fn from_counts(bots: &[String], counts: &PairCounts) -> anyhow::Result<Standings> {
        Standings::from_counts_with(bots, counts, &FitOptions::default())
    }

    /// [`Standings::from_counts`] with other fit settings (`arena rate
    /// --no-prior`).
    pub fn from_counts_with(
        bots: &[String],
        counts: &PairCounts,
        options: &FitOptions,
    ) -> anyhow::Result<Standings> {
        Standings::from_variants(bots, &[(String::new(), counts.clone())], options)
    }

    /// Rates the games of one or more variants (id and games, bots by index
    /// as in `bots`) in one fit: shared ratings, each variant's own
    /// first-player advantage and draw elo (the pooled fit; with one variant
    /// that variant's fit). Where the maximum-likelihood fit does not exist
    /// the error names the bots.
    pub fn from_variants(
        bots: &[String],
        variants: &[(String, PairCounts)],
        options: &FitOptions,
    ) -> anyhow::Result<Standings> {
        let groups: Vec<PairCounts> = variants.iter().map(|(_, c)| c.clone()).collect();
        let fit = fit_pooled(&groups, options).map_err(|e| match e {
            FitError::NoMaximum(NoMaximum::Unbounded { bots: unbounded }) => {
                let names: Vec<&str> = unbounded.iter().map(|&i| bots[i].as_str()).collect();
                anyhow::anyhow!(
                    "no maximum-likelihood ratings exist: {} won no game or lost no game \
                     against the rest of the field (drop --no-prior to rate them with the prior)",
                    names.join(", ")
                )
            }
            FitError::NoMaximum(why) => anyhow::anyhow!(
                "no maximum-likelihood ratings exist: {why} (drop --no-prior to rate with the prior)"
            ),
            other => anyhow::Error::new(other).context("fitting Elo ratings"),
        })?;
        // Each bot's results by colour over all the fit's games.
        let mut totals = vec![Colours::default(); bots.len()];
        for counts in &groups {
            for (total, bot) in totals.iter_mut().zip(counts.by_bot()) {
                *total += bot;
            }
        }
        // Each game has one white.
        let total_games = totals.iter().map(|t| t.white.games()).sum();
        let model = variants
            .iter()
            .enumerate()
            .map(|(group, (variant, _))| {
                let (white_advantage, draw_elo, on_prior) = fit.group_parameters(group);
                VariantModel {
                    variant: variant.clone(),
                    white_advantage,
                    draw_elo,
                    on_prior,
                }
            })
            .collect();
        Ok(Standings::rank(bots, &fit, &totals, model, total_games))
    }

    /// The rows in rank order: by rating, then score, then name.
    fn rank(
        bots: &[String],
        fit: &arena_stats::RatingFit,
        totals: &[Colours],
        model: Vec<VariantModel>,
        total_games: u64,
    ) -> Standings {
        let mut order: Vec<usize> = (0..bots.len()).collect();
        let score = |i: usize| {
            let t = totals[i].total();
            if t.games() == 0 {
                0.0
            } else {
                t.half_points() as f64 / t.games() as f64
            }
        };
        order.sort_by(|&a, &b| {
            fit.rating(b)
                .value
                .total_cmp(&fit.rating(a).value)
                .then(score(b).total_cmp(&score(a)))
                .then(bots[a].cmp(&bots[b]))
        });
        let rows = order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                let t = &totals[i];
                let total = t.total();
                let r = fit.rating(i);
                StandingRow {
                    rank: rank + 1,
                    bot: bots[i].clone(),
                    games: total.games(),
                    wins: total.wins,
                    draws: total.draws,
                    losses: total.losses,
                    score_pct: pct(total),
                    elo: r.value,
                    elo_low: r.low(),
                    elo_high: r.high(),
                    elo_prior: fit.rests_on_prior(i),
                    white_games: t.white.games(),
                    white_score_pct: pct(t.white),
                    black_games: t.black.games(),
                    black_score_pct: pct(t.black),
                    lost: LostBy::default(),
                }
            })
            .collect();
        Standings {
            rows,
            order,
            model,
            games: total_games,
        }
    }

    /// What the `variant` column of the rating files says about this fit:
    /// its one variant, or [`POOLED`].
    pub fn label(&self) -> &str {
        match self.model.as_slice() {
            [one] => &one.variant,
            _ => POOLED,
        }
    }

    /// Fills in each bot's games lost by failures; `lost_by` is indexed like
    /// the bots the standings were made from.
    pub fn set_lost_by(&mut self, lost_by: &[LostBy]) {
        for (row, &bot) in self.rows.iter_mut().zip(&self.order) {
            row.lost = lost_by.get(bot).copied().unwrap_or_default();
        }
    }

    /// Each bot's games lost by failures, in standings order.
    pub fn lost_by(&self) -> Vec<(String, LostBy)> {
        self.rows.iter().map(|r| (r.bot.clone(), r.lost)).collect()
    }

    /// The rows of `model.csv`.
    pub fn model_rows(&self) -> Vec<ModelRow> {
        let fit = if self.label() == POOLED {
            "pooled"
        } else {
            "separate"
        };
        self.model
            .iter()
            .flat_map(|m| {
                [
                    ("white_advantage_elo", m.white_advantage),
                    ("draw_elo", m.draw_elo),
                ]
                .map(|(parameter, e)| ModelRow {
                    variant: m.variant.clone(),
                    fit,
                    parameter,
                    value: e.value,
                    low: e.low(),
                    high: e.high(),
                })
            })
            .collect()
    }

    /// Whether some variant's white advantage and draw elo rest on the prior.
    pub fn parameters_on_prior(&self) -> bool {
        self.model.iter().any(|m| m.on_prior)
    }

    pub fn write_csv(&self, path: &Path) -> anyhow::Result<()> {
        write_standings_csv(path, &[self])
    }

    pub fn write_model_csv(&self, path: &Path) -> anyhow::Result<()> {
        write_model_csv(path, &[self])
    }

    /// The standings as an aligned plain-text table with a line about the model.
    pub fn render_table(&self) -> String {
        self.render_table_top(usize::MAX)
    }

    /// [`render_table`](Self::render_table) with at most `max_rows` bots
    /// (the best), and a line saying how many more there are and where
    /// they all are: what a terminal shows of a big field.
    pub fn render_table_top(&self, max_rows: usize) -> String {
        let header = [
            "#",
            "Bot",
            "Games",
            "W",
            "D",
            "L",
            "Score",
            "Elo",
            "95% interval",
            "White",
            "Black",
        ];
        let mut lines = vec![header.map(String::from).to_vec()];
        lines.extend(self.rows.iter().take(max_rows).map(table_cells));
        // Bot names read left-aligned, numbers right-aligned.
        let mut out = render_aligned(&lines, &[1]);
        let more = self.rows.len().saturating_sub(max_rows);
        if more > 0 {
            let _ = writeln!(out, "… and {more} more bots: all are in standings.csv.");
        }
        if self.rows.iter().any(|r| r.elo_prior) {
            out.push_str(PRIOR_NOTE);
            out.push('\n');
        }
        out += &self.model_lines();
        out
    }

    /// The lines below the table: the first-player advantage and draw elo
    /// of each variant, and whether they rest on the prior.
    fn model_lines(&self) -> String {
        let model = |m: &VariantModel| {
            let (adv, draw) = (m.white_advantage, m.draw_elo);
            format!(
                "advantage {} Elo {}, draw elo {} [{}, {}]",
                elo_text(adv.value),
                elo_interval_text(adv.low(), adv.high()),
                draw_elo_text(draw.value),
                draw_elo_text(draw.low()),
                draw_elo_text(draw.high())
            )
        };
        let mut out = String::new();
        match self.model.as_slice() {
            [one] => {
                let _ = writeln!(out, "{} games. White {}.", self.games, model(one));
            }
            several => {
                let _ = writeln!(
                    out,
                    "{} games of {} variants, one rating per bot; per variant:",
                    self.games,
                    several.len()
                );
                for m in several {
                    let mark = if m.on_prior { " (prior)" } else { "" };
                    let _ = writeln!(out, "  {}: white {}{mark}.", m.variant, model(m));
                }
            }
        }
        if self.parameters_on_prior() {
            let which = if self.model.len() > 1 {
                "Where marked (prior), white advantage and draw elo rest"
            } else {
                "White advantage and draw elo rest"
            };
            let _ = writeln!(
                out,
                "{which} on the prior (1 virtual win, loss and draw): \
                 no game was drawn, every game was, or one colour never lost."
            );
        }
        out
    }
}

/// An Elo value as the tables show it: a signed whole number, rounded from
/// the files' one decimal (so a table and its file agree): `+912`, `-5`,
/// and `0` for what rounds to zero (not `-0`). The terminal and report.html
/// both show Elo this way.
pub fn elo_text(elo: f64) -> String {
    let text = format!("{:+.0}", round(elo, 1));
    match text.as_str() {
        "+0" | "-0" => "0".to_string(),
        _ => text,
    }
}

/// A percentage as the tables show it: one decimal, rounded from the
/// files' two (`56.3%`); `-` where there is nothing to divide by.
pub fn pct_text(pct: Option<f64>) -> String {
    pct.map_or("-".to_string(), |v| format!("{:.1}%", round(v, 2)))
}

/// An Elo interval as the tables show it: `[-35, +120]` ([`elo_text`]).
pub fn elo_interval_text(low: f64, high: f64) -> String {
    format!("[{}, {}]", elo_text(low), elo_text(high))
}

/// A draw elo as the tables show it: a whole number without sign (it is
/// always positive), rounded like [`elo_text`].
pub fn draw_elo_text(elo: f64) -> String {
    format!("{:.0}", round(elo, 1))
}

/// The line under a standings table that says what `*` means, in the
/// terminal and in report.html.
pub const PRIOR_NOTE: &str =
    "* rests on the prior (1 virtual win and loss against the field's mean): \
     this bot's group lost no game, or won none, against the rest.";

/// One bot's cells of the standings table, rounded as in the files first,
/// so the table and the files agree.
fn table_cells(r: &StandingRow) -> Vec<String> {
    let pct = pct_text;
    let prior = if r.elo_prior { "*" } else { "" };
    vec![
        r.rank.to_string(),
        r.bot.clone(),
        r.games.to_string(),
        r.wins.to_string(),
        r.draws.to_string(),
        r.losses.to_string(),
        pct(r.score_pct),
        format!("{}{prior}", elo_text(r.elo)),
        elo_interval_text(r.elo_low, r.elo_high),
        pct(r.white_score_pct),
        pct(r.black_score_pct),
    ]
}

/// Writes `standings.csv`: each fit's rows, behind its [`Standings::label`].
pub fn write_standings_csv(path: &Path, fits: &[&Standings]) -> anyhow::Result<()> {
    let rows: Vec<(&str, &StandingRow)> = fits
        .iter()
        .flat_map(|s| s.rows.iter().map(|row| (s.label(), row)))
        .collect();
    write_rows(path, &standings_columns(), &rows)
}

/// Writes `model.csv`: each fit's parameters.
pub fn write_model_csv(path: &Path, fits: &[&Standings]) -> anyhow::Result<()> {
    let rows: Vec<ModelRow> = fits.iter().flat_map(|s| s.model_rows()).collect();
    write_rows(path, &MODEL_COLUMNS, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_is_shown_in_whole_numbers_as_in_the_files_rounded() {
        assert_eq!(elo_text(911.96), "+912");
        assert_eq!(elo_text(-4.5), "-4");
        assert_eq!(elo_text(-0.04), "0");
        assert_eq!(elo_text(0.3), "0");
        assert_eq!(elo_text(-0.6), "-1");
        // Rounded to the files' one decimal first: 2.46 is 2.5 in the file.
        assert_eq!(elo_text(2.46), "+2");
        assert_eq!(elo_interval_text(-35.2, 120.5), "[-35, +120]");
        assert_eq!(draw_elo_text(80.6), "81");
    }
}
