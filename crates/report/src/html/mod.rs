//! `report.html`: one self-contained page (no network, works from
//! `file://`) over the games of one or more output directories: settings,
//! standings with an Elo plot, crosstable heatmap, first-player advantage and
//! draw model, failures per bot (each number a link to its games), rating
//! progression, game lengths, move times, the SPRT's LLR path, a Swiss's
//! table and rounds or a knockout's bracket, and a game list with a board
//! viewer; with an `analysis.csv` (`arena analyse`), the decisions
//! against perfect play per bot and each ply's value in the viewer.
//!
//! The counts and ratings come from the tally of the games
//! ([`arena_stats::Tally`]) and its fits: after a run the run's own tally and
//! the fits its tables were written from ([`write_rated_report`]), for
//! `arena report DIR...` a tally built in the same pass as the per-game
//! sections ([`write_report`]). The games are streamed from `games.jsonl`
//! (one record in memory at a time) into the per-game aggregates of
//! [`data::ReportData`] (lengths, move times, progression, the LLR path),
//! and once more into the page's game table ([`moves::game_line`]), so a
//! report over 100,000 games takes the memory of its aggregates. The page is
//! rendered by `minijinja` from `page.html`, the plots by `plotters`
//! ([`plots`]). `arena serve` shows the same page, rendered into memory by
//! [`render_report`]; the page's script re-reads its data when the server's
//! script calls `window.arenaReport.reload()` after swapping newer data in.
//! A league's page ([`render_league`]) is the same page with the league's
//! leaderboard on top ([`leaderboard`]).
//!
//! Files: [`data`] (the per-game aggregates), [`moves`] (one game's line
//! and its per-ply diff), [`plots`] (the SVG plots), [`board`] (the one
//! drawing of a board every page shares: `board.js`, `board.css`),
//! [`leaderboard`] (a league's leaderboard: `leaderboard.html`,
//! `leaderboard.css`), `sections` (the page rendered) and `settings` (its
//! Settings section).

pub mod board;
pub mod data;
pub mod leaderboard;
pub mod moves;
pub mod plots;
mod sections;
mod settings;

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context};

use crate::analysis::{read_analysis_csv, strips, summarise, ANALYSIS_CSV};
use crate::fits::{Pooling, Ratings};
use crate::league::LeagueStandings;
use arena_files::write_atomically_with;
use arena_referee::game_id::game_id;
use arena_referee::record::NO_PLACE;
use arena_referee::{GameRecord, GameRow};
use arena_rules::protocol::Reason;
use arena_stats::{FitOptions, Tally};
use arena_tournament::games_reader::visit_games_csv;
use arena_tournament::output_files::{GAMES_CSV, GAMES_JSONL, LOGS_DIR, REPORT_FILE};
use arena_tournament::registry::Formats;
use arena_tournament::text::FormatTables;
use arena_tournament::{Manifest, SprtPlan};
use data::ReportData;
use leaderboard::Leaderboard;
use moves::{game_line, LineContext};

/// One directory of games, as the report sees it.
pub struct Source {
    pub dir: PathBuf,
    /// `None` when the directory has no (readable) tournament.json.
    pub manifest: Option<Manifest>,
}

/// What a page shows besides every game's sections: the games of one
/// variant only (`arena rate --variant`), or a league's leaderboard on top.
#[derive(Clone, Copy, Default)]
struct View<'a> {
    variant: Option<&'a str>,
    leaderboard: Option<&'a Leaderboard>,
    /// At most this many bytes of game lines (report.html, so that a page
    /// of a big run opens quickly), failures beyond it still listed; `None`
    /// for `arena serve`, whose page lists every game.
    lines_budget: Option<usize>,
}

/// The game lines report.html holds, in bytes at most (with every game
/// lost by a failure beyond them, up to a tenth more): about
/// 40,000 games of Qango, a page of under 4 MB that a browser opens in a
/// second. The page says when it leaves games out, and that `arena serve
/// DIR` shows them all.
pub const LINES_BUDGET: usize = 3_400_000;

/// The fits of the games a page shows.
#[derive(Debug, Clone, Copy)]
pub enum Fits<'a> {
    /// No game, so no fit.
    NoGames,
    Rated(&'a Ratings),
    /// Why the games could not be rated (said on the page).
    Failed(&'a str),
}

/// Writes `report.html` into `out` over the games of `dirs`, counted in the
/// same pass as the per-game sections and rated (each variant, and pooled);
/// returns its path.
pub fn write_report(dirs: &[PathBuf], out: &Path) -> anyhow::Result<PathBuf> {
    with_own_fits(dirs, true, |sources, data, tally, fits| {
        write_page(sources, out, None, data, tally, fits)
    })
}

/// Calls `page` with the sources of `dirs`, their per-game sections (with
/// the rating progression when `progression`), their tally (counted in the
/// same pass) and its fits (each variant, and pooled).
fn with_own_fits<R>(
    dirs: &[PathBuf],
    progression: bool,
    page: impl FnOnce(&[Source], &ReportData, &Tally, Fits) -> anyhow::Result<R>,
) -> anyhow::Result<R> {
    let sources = sources(dirs)?;
    let data = gather(&sources, None, progression)?;
    let tally = &data.tally;
    let ratings = (tally.games() > 0)
        .then(|| Ratings::from_tally(tally, &FitOptions::default(), Pooling::Pooled, &[]));
    let error = match &ratings {
        Some(Err(e)) => format!("{e:#}"),
        _ => String::new(),
    };
    let fits = match &ratings {
        None => Fits::NoGames,
        Some(Ok(ratings)) => Fits::Rated(ratings),
        Some(Err(_)) => Fits::Failed(&error),
    };
    page(&sources, &data, tally, fits)
}

/// Writes `report.html` into `out` over the games of `dirs` (of `variant`
/// only, when given: `arena rate --variant ID`, so the page shows what was
/// rated) whose counts are `tally` and whose fits are `fits` (what the
/// run's or `arena rate`'s tables were written from); the games files are
/// read only for the per-game sections. Returns the page's path.
pub fn write_rated_report(
    dirs: &[PathBuf],
    out: &Path,
    variant: Option<&str>,
    tally: &Tally,
    fits: Fits,
) -> anyhow::Result<PathBuf> {
    let sources = sources(dirs)?;
    let data = gather(&sources, variant, true)?;
    write_page(&sources, out, variant, &data, tally, fits)
}

/// The directories as the report sees them; each must hold games files.
fn sources(dirs: &[PathBuf]) -> anyhow::Result<Vec<Source>> {
    if dirs.is_empty() {
        bail!("no directories given");
    }
    dirs.iter()
        .map(|dir| {
            if !dir.join(GAMES_JSONL).exists() && !dir.join(GAMES_CSV).exists() {
                bail!(
                    "{} has neither {GAMES_JSONL} nor {GAMES_CSV}: not an arena output directory",
                    dir.display()
                );
            }
            Ok(Source {
                dir: dir.clone(),
                manifest: Manifest::read(dir).ok(),
            })
        })
        .collect()
}

/// The per-game sections over the games of `sources` (of `variant`, when
/// given), in one pass, and the tally of those games ([`ReportData::tally`]);
/// the rating progression only when `progression`.
fn gather(
    sources: &[Source],
    variant: Option<&str>,
    progression: bool,
) -> anyhow::Result<ReportData> {
    let expected: u64 = sources.iter().map(|s| count_games(&s.dir)).sum();
    let mut data = ReportData::new(expected);
    if !progression {
        data = data.without_progression();
    }
    for (k, source) in sources.iter().enumerate() {
        let Some(Manifest { plan, config, .. }) = &source.manifest else {
            continue;
        };
        if let Ok(plan) = plan.read::<SprtPlan>() {
            if let (Ok(sprt), [a, b, ..]) = (plan.sprt(), config.bots.as_slice()) {
                data.llr
                    .insert(k, data::LlrPath::new(sprt, a.name.clone(), b.name.clone()));
            }
        }
    }
    read_analyses(sources, &mut data)?;
    let formats = Formats::builtin();
    for (k, source) in sources.iter().enumerate() {
        // The run's format (a Swiss's table, a knockout's bracket) is
        // replayed from all its games, whatever variant the page shows.
        let mut replay = match source.manifest.as_ref().map(|m| formats.open(m)) {
            Some(Ok(format)) => Some(format),
            Some(Err(e)) => {
                let note = Some(format!("{e:#}"));
                data.formats.insert(
                    k,
                    FormatTables {
                        tables: Vec::new(),
                        note,
                    },
                );
                None
            }
            None => None,
        };
        visit_source(source, None, |row, record| {
            if let Some(replay) = replay.as_mut() {
                replay.recorded(&row)?;
            }
            if variant.is_some_and(|v| row.variant != v) {
                return Ok(());
            }
            data.add(k, &row, record)?;
            Ok(())
        })?;
        if let Some(tables) = replay.as_mut().and_then(|format| format.report_tables()) {
            data.formats.insert(k, tables);
        }
    }
    data.finish();
    Ok(data)
}

/// The `analysis.csv` of each directory that has one (`arena analyse`):
/// its per-bot summary (over all of them) and each game's value strip.
fn read_analyses(sources: &[Source], data: &mut ReportData) -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for (k, source) in sources.iter().enumerate() {
        let path = source.dir.join(ANALYSIS_CSV);
        if !path.exists() {
            continue;
        }
        let these = read_analysis_csv(&path)?;
        data.strips
            .extend(strips(&these).into_iter().map(|(id, s)| ((k, id), s)));
        rows.extend(these);
    }
    data.decisions = summarise(&rows);
    Ok(())
}

/// Renders the page and writes it, streaming the game lines from the games
/// files of `sources`.
fn write_page(
    sources: &[Source],
    out: &Path,
    variant: Option<&str>,
    data: &ReportData,
    tally: &Tally,
    fits: Fits,
) -> anyhow::Result<PathBuf> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create directory {}", out.display()))?;
    let path = out.join(REPORT_FILE);
    // Atomically (a temporary file synced, then renamed over), so a kill
    // mid-write leaves the last complete report in place.
    let view = View {
        variant,
        leaderboard: None,
        lines_budget: Some(LINES_BUDGET),
    };
    write_atomically_with(&path, |w| {
        stream_page(w, sources, out, view, data, tally, fits)
    })?;
    Ok(path)
}

/// The page `arena report DIRS` writes, as bytes, its links relative to
/// `links_from` (where the page is shown from): what `arena serve` shows,
/// rendered by the same code as report.html.
pub fn render_report(dirs: &[PathBuf], links_from: &Path) -> anyhow::Result<Vec<u8>> {
    with_own_fits(dirs, true, |sources, data, tally, fits| {
        let mut page = Vec::new();
        let view = View::default();
        stream_page(&mut page, sources, links_from, view, data, tally, fits)?;
        Ok(page)
    })
}

/// The page of the league at `dir`: the page [`render_report`] renders
/// over its games, with its leaderboard on top ([`Leaderboard`]), whose
/// ratings are the page's own fit of every game.
pub fn render_league(dir: &Path, links_from: &Path) -> anyhow::Result<Vec<u8>> {
    let (registry, recent) = leaderboard::read_recent(dir)?;
    let progression = registry.versions.len() <= leaderboard::PROGRESSION_VERSIONS;
    with_own_fits(
        &[dir.to_path_buf()],
        progression,
        |sources, data, tally, fits| {
            let (versions, error) = match fits {
                Fits::Rated(r) => match r.overall() {
                    Some(fit) => (fit.standings.clone(), None),
                    None => (leaderboard::no_standings(), None),
                },
                Fits::NoGames => (leaderboard::no_standings(), None),
                Fits::Failed(e) => (leaderboard::no_standings(), Some(e.to_string())),
            };
            let standings = LeagueStandings::from_versions(versions, tally.games(), &registry);
            let mut board = Leaderboard::from_parts(dir, &registry, &standings, &recent);
            board.rating_error = error;
            if !progression {
                board.progression_note = Some(leaderboard::no_progression(registry.versions.len()));
            }
            let mut page = Vec::new();
            let view = View {
                variant: None,
                leaderboard: Some(&board),
                lines_budget: None,
            };
            stream_page(&mut page, sources, links_from, view, data, tally, fits)?;
            Ok(page)
        },
    )
}

/// Renders the page into `w`, streaming the game lines from the games files
/// of `sources`; links to the runs' files are relative to `out`.
fn stream_page(
    w: &mut dyn Write,
    sources: &[Source],
    out: &Path,
    view: View,
    data: &ReportData,
    tally: &Tally,
    fits: Fits,
) -> anyhow::Result<()> {
    let link_dirs: Vec<String> = sources
        .iter()
        .map(|s| {
            let mut link = relative_dir(out, &s.dir);
            link.push(LOGS_DIR);
            format!("{}/", link.to_string_lossy())
        })
        .collect();
    let (page, order) = sections::render(sources, &link_dirs, data, tally, fits, view.leaderboard)?;
    let (head, tail) = page
        .split_once(sections::GAMES_MARKER)
        .expect("the template holds the games marker");
    // The game lines name each bot by its place in the page's order.
    let places: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, bot)| (bot.as_str(), i))
        .collect();
    let place = |name: &str| places.get(name).copied().unwrap_or(0);

    w.write_all(head.as_bytes())?;
    let mut lines = LinesWritten::new(view.lines_budget);
    for (k, source) in sources.iter().enumerate() {
        visit_source(source, view.variant, |row, record| {
            let Some(record) = record else { return Ok(()) };
            let key = game_key(sources.len(), k, row.id);
            let name = |p: &Option<PathBuf>| {
                p.as_ref()
                    .and_then(|p| p.file_name())
                    .map(|name| name.to_string_lossy().into_owned())
            };
            // A log named as the referee names it (`g7-white-NAME.log`) is `=`.
            let log = |p: &Option<PathBuf>, side: &str, bot: &str| {
                let standard = format!("{}-{side}-{bot}.log", game_id(row.id));
                name(p).map(|n| if n == standard { "=".to_string() } else { n })
            };
            let ctx = LineContext {
                key: &key,
                dir: k,
                white: place(&row.white),
                black: place(&row.black),
                links: [
                    log(&record.white_log, "white", &row.white),
                    log(&record.black_log, "black", &row.black),
                    name(&record.white_trace),
                    name(&record.black_trace),
                ],
                values: data.strips.get(&(k, row.id)).map(String::as_str),
                texts: &data.texts,
            };
            let line = game_line(&ctx, record);
            if lines.keeps(&line, matches!(record.reason, Reason::Failure(_))) {
                w.write_all(line.as_bytes())?;
                w.write_all(b"\n")?;
            }
            Ok(())
        })?;
    }
    let (tail_head, tail_rest) = tail
        .split_once(sections::PART_MARKER)
        .expect("the template holds the part marker");
    w.write_all(tail_head.as_bytes())?;
    write!(
        w,
        "{{\"shown\":{},\"left_out\":{}}}",
        lines.shown, lines.left_out
    )?;
    w.write_all(tail_rest.as_bytes())?;
    Ok(())
}

/// The game lines a page holds within its budget (see [`View`]).
struct LinesWritten {
    budget: Option<usize>,
    bytes: usize,
    shown: u64,
    left_out: u64,
}

impl LinesWritten {
    fn new(budget: Option<usize>) -> LinesWritten {
        LinesWritten {
            budget,
            bytes: 0,
            shown: 0,
            left_out: 0,
        }
    }

    /// Whether `line` goes in the page (counted either way): within the
    /// budget, or a failure within a tenth more.
    fn keeps(&mut self, line: &str, failure: bool) -> bool {
        let size = line.len() + 1;
        let fits = match self.budget {
            None => true,
            Some(b) => self.bytes + size <= b || (failure && self.bytes + size <= b + b / 10),
        };
        if fits {
            self.bytes += size;
            self.shown += 1;
        } else {
            self.left_out += 1;
        }
        fits
    }
}

/// The id of game `id` of directory `k` in the page and its `#game=` links.
pub fn game_key(dirs: usize, k: usize, id: u64) -> String {
    if dirs == 1 {
        game_id(id)
    } else {
        format!("d{}{}", k + 1, game_id(id))
    }
}

/// Finished games of a directory (lines of games.jsonl, else rows of games.csv).
fn count_games(dir: &Path) -> u64 {
    let path = if dir.join(GAMES_JSONL).exists() {
        dir.join(GAMES_JSONL)
    } else {
        dir.join(GAMES_CSV)
    };
    let Ok(file) = File::open(path) else { return 0 };
    BufReader::new(file)
        .split(b'\n')
        .filter(|l| l.as_ref().is_ok_and(|l| !l.is_empty()))
        .count() as u64
}

/// Calls `visit` with each game of `source` (of `variant`, when given), one
/// at a time: from games.jsonl, each line parsed once into its record and
/// the row derived from it; a directory without games.jsonl (a games.csv
/// alone, as `arena rate FILE` may be given) gives its rows without records.
pub fn visit_source(
    source: &Source,
    variant: Option<&str>,
    mut visit: impl FnMut(GameRow, Option<&GameRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut visit = |row: GameRow, record: Option<&GameRecord>| match variant {
        Some(v) if row.variant != v => Ok(()),
        _ => visit(row, record),
    };
    let jsonl = source.dir.join(GAMES_JSONL);
    if !jsonl.exists() {
        return visit_games_csv(&source.dir.join(GAMES_CSV), |row| visit(row, None));
    }
    let file = File::open(&jsonl).with_context(|| format!("cannot open {}", jsonl.display()))?;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .with_context(|| format!("reading {}", jsonl.display()))?;
        if read == 0 {
            return Ok(());
        }
        number += 1;
        if !line.ends_with('\n') {
            // A torn last line (a run killed mid-write): recovery drops it too.
            return Ok(());
        }
        if line.trim().is_empty() {
            continue;
        }
        let not_a_record = || format!("{}: line {number}: not a game record", jsonl.display());
        let record: GameRecord = serde_json::from_str(&line).with_context(not_a_record)?;
        if record.number().is_none() {
            bail!("{}: line {number}: {NO_PLACE}", jsonl.display());
        }
        visit(record.to_games_row(), Some(&record))?;
    }
}

/// `dir` as seen from `from` (both made absolute), for links in the page.
fn relative_dir(from: &Path, dir: &Path) -> PathBuf {
    let absolute = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (from, dir) = (absolute(from), absolute(dir));
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = dir.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_to_the_page() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        let b = tmp.path().join("b/c");
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        assert_eq!(relative_dir(&a, &a), PathBuf::new());
        assert_eq!(relative_dir(&a, &b), PathBuf::from("../b/c"));
    }

    #[test]
    fn keys_name_the_directory_only_when_there_are_several() {
        assert_eq!(game_key(1, 0, 17), "g17");
        assert_eq!(game_key(2, 1, 17), "d2g17");
    }
}
