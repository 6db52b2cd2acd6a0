//! The page: the sections' data turned into template values and plots, and
//! `page.html` rendered by minijinja (auto-escaping, so bot names and
//! messages cannot inject markup). The game table is not rendered here: the
//! caller streams it where [`GAMES_MARKER`] stands.
//!
//! Counts come from the tally of the games (results per variant,
//! crosstable, failures per bot) and ratings from its fits; the per-game
//! sections from [`ReportData`]. Every section lists bots in the page's one
//! order, the rank order of the fit of every game (the pooled one, or the
//! only one), and every plot draws a bot in its one colour
//! ([`plots::BotColours`]).

use std::collections::{HashMap, HashSet};

use minijinja::{context, Environment, Value};
use serde::Serialize;

use super::board::{board_css, BOARD_JS};
use super::data::{ReportData, TimeSummary};
use super::leaderboard::Leaderboard;
use super::moves::{FIELDS, INDEX_ALPHABET};
use super::plots::BotColours;
use super::settings::settings;
use super::{plots, Fits, Source};
use crate::analysis::{bot_cells, BotDecisions, ACCURACY_COLUMN, BOT_COLUMNS};
use crate::comparison::{Crosstable, LostBy};
use crate::rating::Ratings;
use crate::standings::{
    draw_elo_text, elo_interval_text, elo_text, pct_text, StandingRow, Standings, POOLED,
};
use arena_rules::games::look::BoardLook;
use arena_rules::games::Variant;
use arena_rules::protocol::FailureReason;
use arena_stats::{Tally, TallyCounts};

/// What `*` after an Elo means, said once under the standings tables of a
/// page where some rating rests on the prior (as the terminal's note under
/// its table, in more words; crates/stats/src/prior.rs is the truth).
pub const PRIOR_NOTE: &str = "* The rating rests on the prior. A bot, or a group of bots, that \
lost no game against the rest of the field, or won none, has no finite maximum-likelihood \
rating: from its games alone it would be infinitely strong, or infinitely weak. Only such bots \
get a weak prior, 1 virtual win and 1 virtual loss against an opponent rated at the field's mean \
(0), so that their rating is finite; it pulls them toward the mean, so the rating says less \
than the games about how far ahead or behind they are, and their interval is wide. Every other \
rating is pure maximum likelihood, without any prior. More in the statistics documentation of \
arena (docs/STATISTICS.md), under \
\"The prior, and only where it is needed\".";

/// What it means that the white advantage and draw elo rest on the prior
/// (the terminal's note under its model line).
pub const MODEL_PRIOR_NOTE: &str =
    "White advantage and draw elo rest on the prior (1 virtual win, \
loss and draw): no game was drawn, every game was, or one colour never lost, so the games alone \
do not determine them.";

/// Where the game lines go in the rendered page.
pub const GAMES_MARKER: &str = "@@ARENA_GAME_LINES@@";
/// Where the count of the games the page holds goes, after them
/// (`{"shown":N,"left_out":K}`).
pub const PART_MARKER: &str = "@@ARENA_GAMES_PART@@";

/// The crosstable shows this many bots as a table (the best ranked); a
/// bigger field is drawn whole as a heatmap, folded.
pub const CROSS_TOP: usize = 24;
/// The rating progression and the move times' plot draw this many bots at
/// most (the best ranked).
pub const PLOT_TOP: usize = 12;
/// The settings fold the list of bots of a field bigger than this.
pub const FOLD_BOTS: usize = 12;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("viewer.js");
/// The leaderboard's section and its style, on a league's page only.
const LEADERBOARD: &str = include_str!("leaderboard.html");
const LEADERBOARD_STYLE: &str = include_str!("leaderboard.css");

#[derive(Serialize)]
struct Cell2 {
    text: String,
    background: String,
}

#[derive(Serialize)]
struct CrossRow {
    bot: String,
    cells: Vec<Cell2>,
}

#[derive(Serialize)]
struct FailureRow {
    bot: String,
    counts: Vec<(u64, String)>,
    total: u64,
}

#[derive(Serialize)]
struct VariantRow {
    variant: String,
    games: u64,
    white_pct: String,
    draw_pct: String,
    black_pct: String,
    svg: String,
}

/// A standings row as the page shows it: Elo as the terminal shows it
/// ([`elo_text`]: whole numbers), `*` where the rating rests on the prior.
#[derive(Serialize)]
struct StandingLine {
    rank: usize,
    bot: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: String,
    elo: String,
    interval: String,
    prior: bool,
}

impl StandingLine {
    fn of(r: &StandingRow) -> StandingLine {
        StandingLine {
            rank: r.rank,
            bot: r.bot.clone(),
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            score: pct_text(r.score_pct),
            elo: elo_text(r.elo),
            interval: elo_interval_text(r.elo_low, r.elo_high),
            prior: r.elo_prior,
        }
    }
}

#[derive(Serialize)]
struct TimeRow {
    bot: String,
    moves: u64,
    median: u64,
    p90: u64,
    max: u64,
    /// The CPU times' median, p90 and max, `-` where not measured.
    cpu_median: String,
    cpu_p90: String,
    cpu_max: String,
    limit: String,
}

/// Percent-encoding for a value in the page's `#...` links.
fn url_part(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A red (0) to white (0.5) to green (1) background for a score.
pub fn heat(score: f64) -> String {
    let s = score.clamp(0.0, 1.0);
    let (r, g, b) = if s < 0.5 {
        let t = s / 0.5;
        (230.0 + 25.0 * t, 110.0 + 145.0 * t, 110.0 + 145.0 * t)
    } else {
        let t = (s - 0.5) / 0.5;
        (255.0 - 145.0 * t, 255.0 - 50.0 * t, 255.0 - 145.0 * t)
    };
    format!("rgb({},{},{})", r as u8, g as u8, b as u8)
}

fn pct(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// What the viewer needs: bots, directories' time controls, and how the
/// board of every variant looks ([`BoardLook`]: every variant, so that the
/// live page draws a game of a variant no finished game has yet).
fn page_data(
    sources: &[Source],
    link_dirs: &[String],
    order: &[String],
    data: &ReportData,
    heat: Option<serde_json::Value>,
) -> String {
    let variants: serde_json::Map<String, serde_json::Value> = Variant::all()
        .iter()
        .map(|v| {
            let look = serde_json::to_value(BoardLook::of(v)).expect("a look is JSON");
            (v.id.to_string(), look)
        })
        .collect();
    let dirs: Vec<_> = sources
        .iter()
        .zip(link_dirs)
        .map(|(s, logs)| {
            serde_json::json!({
                "dir": s.dir.display().to_string(),
                "logs": logs,
                "time_control": s.manifest.as_ref().map(|m| m.config.time_control),
            })
        })
        .collect();
    let json = serde_json::json!({
        "bots": order,
        "dirs": dirs,
        "variants": variants,
        "variant_ids": Variant::all().iter().map(|v| v.id).collect::<Vec<_>>(),
        "texts": data.texts.list,
        "cross": heat,
        "fields": FIELDS,
        "failures": FailureReason::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
    });
    // `</` cannot close the script element: JSON allows `<\/`.
    json.to_string().replace("</", "<\\/")
}

/// Point and whiskers of each bot's Elo, in standings order.
fn elo_plot(standings: &Standings, colours: &BotColours) -> String {
    let bots: Vec<_> = standings
        .rows
        .iter()
        .map(|r| (r.bot.clone(), r.elo, r.elo_low, r.elo_high))
        .collect();
    plots::elo_intervals(&bots, colours)
}

/// The page's one bot order: the rank order of `overall` (the fit of every
/// game), else the tally's order; then any bot only the games files name.
fn page_order(counts: &TallyCounts, overall: Option<&Standings>, data: &ReportData) -> Vec<String> {
    let ranked = overall.map(|s| s.rows.iter().map(|r| &r.bot));
    let mut seen = HashSet::new();
    ranked
        .into_iter()
        .flatten()
        .chain(&counts.bots)
        .chain(&data.bots)
        .filter(|bot| seen.insert(bot.as_str()))
        .cloned()
        .collect()
}

/// Each bot's index in `counts`, by name.
fn bot_index(counts: &TallyCounts) -> HashMap<&str, usize> {
    counts
        .bots
        .iter()
        .enumerate()
        .map(|(i, bot)| (bot.as_str(), i))
        .collect()
}

/// The standings tables, each with its Elo plot: with several variants the
/// pooled table, then each variant's own.
fn standings_tables(ratings: &Ratings, colours: &BotColours) -> Vec<Value> {
    let several = ratings.fits.len() > 1;
    ratings
        .fits
        .iter()
        .rev()
        .map(|fit| {
            let title = match fit.standings.label() {
                _ if !several => String::new(),
                POOLED => "All variants pooled: one rating per bot, each variant's own first-player advantage and draw elo".to_string(),
                variant => format!("{variant}, its games alone"),
            };
            let rows: Vec<StandingLine> = fit.standings.rows.iter().map(StandingLine::of).collect();
            context! {
                title => title,
                rows => rows,
                svg => elo_plot(&fit.standings, colours),
            }
        })
        .collect()
}

/// The crosstable of every game, bots in `order`: a table of the first
/// [`CROSS_TOP`], and for a bigger field every bot's cells for the page's
/// heatmap (`{"bots": [places in the page's order], "cells": "..."}`, a
/// character a cell, row by row: `.` for a pair that did not meet, else
/// the row's score in sixtieths as an index character of
/// [`INDEX_ALPHABET`]).
fn crosstable(
    counts: &TallyCounts,
    order: &[String],
    page_order: &[String],
) -> (Vec<CrossRow>, Option<serde_json::Value>) {
    let index = bot_index(counts);
    let indices: Vec<usize> = order
        .iter()
        .filter_map(|bot| index.get(bot.as_str()).copied())
        .collect();
    let top = &indices[..indices.len().min(CROSS_TOP)];
    let table = Crosstable::new(&counts.bots, &counts.counts, top);
    let rows = table
        .cells
        .iter()
        .enumerate()
        .map(|(i, line)| CrossRow {
            bot: table.bots[i].clone(),
            cells: line
                .iter()
                .enumerate()
                .map(|(j, cell)| match cell {
                    Some(wdl) => Cell2 {
                        text: format!("{:.1}/{}", wdl.points(), wdl.games()),
                        // A cell holds at least one game.
                        background: heat(wdl.score().unwrap_or(0.5)),
                    },
                    None => Cell2 {
                        text: if i == j { "" } else { "-" }.into(),
                        background: if i == j { "#ddd" } else { "#fff" }.into(),
                    },
                })
                .collect(),
        })
        .collect();
    let heat = (indices.len() > CROSS_TOP).then(|| heat_cells(counts, &indices, page_order));
    (rows, heat)
}

/// The heatmap of every bot of `indices` (see [`crosstable`]).
fn heat_cells(counts: &TallyCounts, indices: &[usize], page_order: &[String]) -> serde_json::Value {
    let table = Crosstable::new(&counts.bots, &counts.counts, indices);
    let mut cells = String::with_capacity(indices.len() * indices.len());
    for line in &table.cells {
        for cell in line {
            match cell.as_ref().and_then(|wdl| wdl.score()) {
                Some(score) => {
                    let level = (score.clamp(0.0, 1.0) * 60.0).round() as usize;
                    cells.push(INDEX_ALPHABET[level] as char);
                }
                None => cells.push('.'),
            }
        }
    }
    let places: Vec<usize> = table
        .bots
        .iter()
        .map(|bot| page_order.iter().position(|b| b == bot).unwrap_or(0))
        .collect();
    serde_json::json!({ "bots": places, "cells": cells })
}

/// Each bot's games lost by failures (from the tally), each number linking
/// to those games in the list; bots in `order`.
fn failure_rows(counts: &TallyCounts, order: &[String]) -> Vec<FailureRow> {
    let index = bot_index(counts);
    order
        .iter()
        .map(|bot| {
            let lost = index
                .get(bot.as_str())
                .map_or(LostBy::default(), |&i| counts.lost_by[i]);
            let links: Vec<(u64, String)> = FailureReason::ALL
                .iter()
                .map(|&r| {
                    let link = format!(
                        "#list&bot={}&result=loss&reason={}",
                        url_part(bot),
                        r.as_str()
                    );
                    (lost.get(r), link)
                })
                .collect();
            FailureRow {
                bot: bot.clone(),
                total: lost.total(),
                counts: links,
            }
        })
        .collect()
}

/// Per variant (by id): its results (from the tally) and its game lengths.
fn variant_rows(tally: &Tally, data: &ReportData) -> Vec<VariantRow> {
    let mut results = tally.variant_results();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let none = Default::default();
    results
        .into_iter()
        .map(|(id, white)| {
            let games = white.games();
            VariantRow {
                svg: plots::lengths(&id, data.lengths.get(&id).unwrap_or(&none)),
                variant: id,
                games,
                white_pct: pct(white.wins, games),
                draw_pct: pct(white.draws, games),
                black_pct: pct(white.losses, games),
            }
        })
        .collect()
}

/// The move-time table and its plot (none without move times), bots in
/// `order`.
fn move_times(
    data: &ReportData,
    order: &[String],
    colours: &BotColours,
) -> (Vec<TimeRow>, Option<String>) {
    let times: Vec<(String, TimeSummary, Option<u64>)> = order
        .iter()
        .filter_map(|bot| {
            let t = &data.move_times[data.index_of(bot)?];
            t.summary().map(|s| (bot.clone(), s, t.move_limit_ms))
        })
        .collect();
    let clock_base = data.move_times.iter().find_map(|t| t.clock_base_ms);
    let rows = times
        .iter()
        .map(|(bot, s, limit)| {
            let cpu = data
                .index_of(bot)
                .and_then(|i| data.move_times[i].cpu_summary());
            let cpu_text = |ms: fn(&TimeSummary) -> u64| {
                cpu.as_ref().map_or("-".into(), |c| ms(c).to_string())
            };
            TimeRow {
                bot: bot.clone(),
                moves: s.moves,
                median: s.median_ms,
                p90: s.p90_ms,
                max: s.max_ms,
                cpu_median: cpu_text(|c| c.median_ms),
                cpu_p90: cpu_text(|c| c.p90_ms),
                cpu_max: cpu_text(|c| c.max_ms),
                limit: match (limit, clock_base) {
                    (Some(l), _) => format!("{l} ms per move"),
                    (None, Some(base)) => format!("clock {base} ms"),
                    _ => "-".into(),
                },
            }
        })
        .collect();
    // The plot: the best ranked (the table has every bot).
    let plotted = &times[..times.len().min(PLOT_TOP)];
    let svg = (!times.is_empty()).then(|| plots::move_times(plotted, colours));
    (rows, svg)
}

/// Each SPRT directory's LLR path.
fn llr_sections(sources: &[Source], data: &ReportData) -> Vec<Value> {
    data.llr
        .iter()
        .map(|(&k, path)| {
            let (low, high) = path.bounds();
            context! {
                dir => sources[k].dir.display().to_string(),
                bots => format!("{} vs {}", path.bot_a, path.bot_b),
                bounds => format!("[{low:.2}, {high:.2}]"),
                last => format!("{:.2}", path.points.last().map_or(0.0, |p| p.1)),
                svg => plots::llr_path(&path.points, (low, high)),
            }
        })
        .collect()
}

/// Each Swiss or knockout directory's tables.
fn format_sections(sources: &[Source], data: &ReportData) -> Vec<Value> {
    data.formats
        .iter()
        .map(|(&k, tables)| {
            context! {
                dir => sources[k].dir.display().to_string(),
                tables => tables.tables,
                note => tables.note,
            }
        })
        .collect()
}

/// The first-player advantage and draw elo of each variant: in the fit of
/// every game, or (variants rated only each on its own) in each variant's
/// own fit.
fn model(ratings: &Ratings) -> Value {
    let fits: Vec<&Standings> = match ratings.overall() {
        Some(all) => vec![&all.standings],
        None => ratings.fits.iter().map(|f| &f.standings).collect(),
    };
    // As the terminal's model line: whole numbers.
    let variants: Vec<_> = fits
        .iter()
        .flat_map(|s| &s.model)
        .map(|m| {
            let (adv, draw) = (&m.white_advantage, &m.draw_elo);
            context! {
                variant => m.variant.clone(),
                white_advantage => format!("{} {}", elo_text(adv.value), elo_interval_text(adv.low(), adv.high())),
                draw_elo => format!(
                    "{} [{}, {}]",
                    draw_elo_text(draw.value),
                    draw_elo_text(draw.low()),
                    draw_elo_text(draw.high())
                ),
            }
        })
        .collect();
    context! {
        variants => variants,
        on_prior => fits.iter().any(|s| s.parameters_on_prior()),
    }
}

/// One bot's row of "Decisions against perfect play".
#[derive(Serialize)]
struct DecisionRow {
    cells: [String; BOT_COLUMNS.len()],
}

/// The per-bot decisions in the page's bot order, accuracy as a percentage.
fn decision_rows(data: &ReportData, order: &[String]) -> Vec<DecisionRow> {
    let place = |bot: &str| order.iter().position(|b| b == bot).unwrap_or(order.len());
    let mut bots: Vec<&BotDecisions> = data.decisions.iter().collect();
    bots.sort_by_key(|b| place(&b.bot));
    bots.into_iter()
        .map(|b| {
            let mut cells = bot_cells(b);
            cells[ACCURACY_COLUMN] = b
                .accuracy()
                .map_or("-".into(), |a| format!("{:.1}%", a * 100.0));
            DecisionRow { cells }
        })
        .collect()
}

/// Renders the page over the games of `tally` (with their per-game
/// sections in `data`) and its `fits`, with [`GAMES_MARKER`] where the game
/// lines go; returns it and the page's bot order (the game lines name bots
/// by their place in it). With a `leaderboard` (a league's page), it is
/// the first section, and the crosstable and the rating progression show
/// the latest versions only (a league may hold hundreds of versions).
pub fn render(
    sources: &[Source],
    link_dirs: &[String],
    data: &ReportData,
    tally: &Tally,
    fits: Fits,
    leaderboard: Option<&Leaderboard>,
) -> anyhow::Result<(String, Vec<String>)> {
    let (ratings, rating_error) = match fits {
        Fits::NoGames => (None, None),
        Fits::Rated(ratings) => (Some(ratings), None),
        Fits::Failed(error) => (None, Some(error)),
    };
    let standings = ratings.and_then(Ratings::overall).map(|r| &r.standings);
    let counts = tally.counts();
    let order = page_order(&counts, standings, data);
    let latest = leaderboard.map(Leaderboard::latest_labels);
    let focus = latest.as_deref().unwrap_or(&order);
    let colours = BotColours::new(&order);
    let tables = ratings.map_or(Vec::new(), |r| standings_tables(r, &colours));
    let on_prior = ratings.is_some_and(|r| {
        r.fits
            .iter()
            .any(|f| f.standings.rows.iter().any(|row| row.elo_prior))
    });
    let (times, times_svg) = move_times(data, &order, &colours);
    let (cross, heat) = crosstable(&counts, focus, &order);
    let cross_all = heat
        .as_ref()
        .and_then(|h| h["bots"].as_array().map(Vec::len));
    let progression_svg = (data.progression.len() > 1).then(|| {
        let bots: Vec<String> = focus
            .iter()
            .filter(|bot| data.index_of(bot).is_some())
            .take(PLOT_TOP)
            .cloned()
            .collect();
        plots::progression(&data.progression, &bots, &colours)
    });

    let mut env = Environment::new();
    env.add_template("page.html", TEMPLATE)?;
    env.add_template("leaderboard.html", LEADERBOARD)?;
    let (kind, league_style) = match leaderboard {
        Some(_) => ("league", LEADERBOARD_STYLE),
        None => ("report", ""),
    };
    let board_html = match leaderboard {
        Some(board) => Some(
            env.get_template("leaderboard.html")?
                .render(context! { leaderboard => board })?,
        ),
        None => None,
    };
    let page = env.get_template("page.html")?.render(context! {
        title => format!("arena {kind}: {} games", data.games),
        progression_note => leaderboard.and_then(|l| l.progression_note.clone()),
        leaderboard => board_html,
        version => env!("CARGO_PKG_VERSION"),
        games => data.games,
        settings => settings(sources),
        standings => tables,
        rating_error => rating_error,
        prior_note => on_prior.then_some(PRIOR_NOTE),
        unplayed => tally.unplayed().line(),
        model_prior_note => MODEL_PRIOR_NOTE,
        cross => cross,
        cross_all => cross_all,
        fold_bots => FOLD_BOTS,
        plot_top => PLOT_TOP,
        failure_names => FailureReason::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
        failures => failure_rows(&counts, &order),
        model => ratings.map(model),
        variants => variant_rows(tally, data),
        progression_svg => progression_svg,
        progression_top => (focus.len() > PLOT_TOP).then_some((PLOT_TOP, focus.len())),
        times => times,
        times_svg => times_svg,
        llr => llr_sections(sources, data),
        decisions => decision_rows(data, &order),
        analysed => data.strips.len(),
        decision_columns => BOT_COLUMNS,
        formats => format_sections(sources, data),
        style => format!("{STYLE}{}{league_style}", board_css()),
        script => format!("{BOARD_JS}\n{SCRIPT}"),
        page_data => page_data(sources, link_dirs, &order, data, heat),
        games_marker => GAMES_MARKER,
        part_marker => PART_MARKER,
    })?;
    Ok((page, order))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_runs_from_red_through_white_to_green() {
        assert_eq!(heat(0.5), "rgb(255,255,255)");
        assert_eq!(heat(0.0), "rgb(230,110,110)");
        assert_eq!(heat(1.0), "rgb(110,205,110)");
    }

    #[test]
    fn link_values_are_percent_encoded() {
        assert_eq!(url_part("a b&c=d"), "a%20b%26c%3Dd");
    }
}
