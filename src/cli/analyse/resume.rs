//! The analysis in progress, DIR/analysis.partial.csv: a first line with
//! the budget it was made with, the header of analysis.csv, then each
//! game's rows appended in one write as the game ends. A rerun after a kill
//! keeps the games whose rows are all there (as many as the game has
//! moves to judge, the file cut at its last newline) and analyses the
//! others; a partial file of another budget, or unreadable, is started
//! over with one line saying why. The file is removed once analysis.csv is
//! written.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::files::write_atomically_with;
use crate::report::analyse::{row_count, Game};
use crate::report::analysis::{read_analysis_rows, rows_csv, PlyRow, COLUMNS};

/// The file's name in the run's directory.
pub const ANALYSIS_PARTIAL: &str = "analysis.partial.csv";

/// The rows found so far, by game index, and the file they go to.
pub struct Partial {
    path: PathBuf,
    file: File,
    rows: Vec<Option<Vec<PlyRow>>>,
    resumed: usize,
}

fn first_line(budget_ms: u64) -> String {
    format!("# arena analyse --budget-ms {budget_ms}")
}

impl Partial {
    /// The partial analysis of `games` in `dir`: the complete games of an
    /// earlier run with the same budget, the rest to do.
    pub fn open(dir: &Path, games: &[Game], budget_ms: u64) -> anyhow::Result<Partial> {
        let path = dir.join(ANALYSIS_PARTIAL);
        let mut rows: Vec<Option<Vec<PlyRow>>> = games
            .iter()
            .map(|g| (row_count(g) == 0).then(Vec::new))
            .collect();
        let mut resumed = 0;
        if let Some(found) = earlier(&path, budget_ms) {
            let index: HashMap<u64, usize> =
                games.iter().enumerate().map(|(i, g)| (g.id, i)).collect();
            for (id, game_rows) in found {
                let Some(&i) = index.get(&id) else { continue };
                if rows[i].is_none() && game_rows.len() == row_count(&games[i]) {
                    rows[i] = Some(game_rows);
                    resumed += 1;
                }
            }
        }
        let kept: Vec<PlyRow> = rows.iter().flatten().flatten().cloned().collect();
        write_atomically_with(&path, |w| {
            writeln!(w, "{}", first_line(budget_ms))?;
            writeln!(w, "{}", COLUMNS.join(","))?;
            w.write_all(&rows_csv(&kept)?)?;
            Ok(())
        })?;
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        Ok(Partial {
            path,
            file,
            rows,
            resumed,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Games taken from the earlier run.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Whether game `i` needs no analysis.
    pub fn has(&self, i: usize) -> bool {
        self.rows[i].is_some()
    }

    /// Game `i`'s rows, appended in one write.
    pub fn add(&mut self, i: usize, rows: Vec<PlyRow>) -> anyhow::Result<()> {
        let bytes = rows_csv(&rows)?;
        self.file
            .write_all(&bytes)
            .with_context(|| format!("cannot append to {}", self.path.display()))?;
        self.rows[i] = Some(rows);
        Ok(())
    }

    /// Every row, in the games' order.
    pub fn rows(&self) -> Vec<PlyRow> {
        self.rows.iter().flatten().flatten().cloned().collect()
    }

    /// The analysis is written: the partial file goes.
    pub fn finish(self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The rows of an earlier partial file of the same budget, by game, cut at
/// its last newline; `None` (said in one line when there was a file) when
/// there is none to resume.
fn earlier(path: &Path, budget_ms: u64) -> Option<Vec<(u64, Vec<PlyRow>)>> {
    let bytes = std::fs::read(path).ok()?;
    let restart = |why: String| {
        eprintln!("{}: {why}; starting the analysis over", path.display());
        None
    };
    let whole = &bytes[..bytes.iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1)];
    let Some(head) = whole.iter().position(|&b| b == b'\n') else {
        return restart("empty".into());
    };
    let line = String::from_utf8_lossy(&whole[..head]);
    if line != first_line(budget_ms) {
        return restart(format!("made by {line:?}, not --budget-ms {budget_ms}"));
    }
    let rows = match read_analysis_rows(&whole[head + 1..], &path.display().to_string()) {
        Ok(rows) => rows,
        Err(e) => return restart(format!("{e:#}")),
    };
    let mut by_game: Vec<(u64, Vec<PlyRow>)> = Vec::new();
    for row in rows {
        match by_game.last_mut() {
            Some((id, game)) if *id == row.game_id => game.push(row),
            _ => by_game.push((row.game_id, vec![row])),
        }
    }
    Some(by_game)
}
