//! `arena show DIR GAME_ID [--ply N]`: replay one game of an output
//! directory in the terminal, the board drawn as `arena games` draws it.
//! Without `--ply`, each Enter shows the next ply (q quits).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context};

use crate::cli::games::ColorChoice;
use crate::games::{render, Position, Variant};
use crate::referee::game_id::{game_id, number_of};
use crate::referee::record::row_of_record_line;
use crate::referee::GameRecord;
use crate::tournament::output_files::GAMES_JSONL;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A tournament's or SPRT's output directory.
    pub dir: PathBuf,
    /// The game, as in the report: `g17` (or `17`).
    pub game: String,
    /// Show the position after this many plies and stop.
    #[arg(long, value_name = "N")]
    pub ply: Option<usize>,
    /// Colours: auto (when stdout is a terminal), always or never.
    #[arg(long, default_value = "auto")]
    pub color: ColorChoice,
}

/// The record of game `id` in `dir`'s games.jsonl, read one line at a time.
pub fn find(dir: &Path, id: u64) -> anyhow::Result<GameRecord> {
    let path = dir.join(GAMES_JSONL);
    let file =
        std::fs::File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        // The game's place, of this journal or an older one (`"id"`).
        if row_of_record_line(line.as_bytes()).is_ok_and(|(number, _)| number == id) {
            return serde_json::from_str(&line)
                .with_context(|| format!("{}: line {}: not a game record", path.display(), n + 1));
        }
    }
    bail!("no game {} in {}", game_id(id), path.display())
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let id = number_of(&args.game).map_err(|e| anyhow!(e))?;
    let record = find(&args.dir, id)?;
    let variant = Variant::by_id(&record.game)
        .ok_or_else(|| anyhow!("unknown variant {:?} in the record", record.game))?;
    let ansi = args.color.enabled();
    outln!(
        "{}: {} (white) vs {} (black), {}: {} by {}",
        game_id(id),
        record.white,
        record.black,
        record.game,
        record.result,
        record.reason
    );
    let last = args
        .ply
        .unwrap_or(record.moves.len())
        .min(record.moves.len());
    let mut pos = Position::new(variant);
    let stdin = std::io::stdin();
    if args.ply.is_none() {
        outln!("Enter shows the next ply, q then Enter quits.");
    }
    for (ply, m) in record.moves.iter().enumerate().take(last) {
        if let Err(e) = pos.play_str(m) {
            // The move that ended the game by the referee's verdict (an
            // illegal move is recorded as played): the board stays.
            outln!(
                "\nply {}: {m} was refused by the rules: {}",
                ply + 1,
                e.message
            );
            break;
        }
        if args.ply.is_none() {
            let ms = record.move_times_ms.get(ply).copied().unwrap_or(0);
            outln!("\nply {}: {m} ({ms} ms)", ply + 1);
            out!("{}", render::position(&pos, ansi));
            let mut answer = String::new();
            if stdin.lock().read_line(&mut answer)? == 0 || answer.trim() == "q" {
                return Ok(0);
            }
        }
    }
    if args.ply.is_some() {
        outln!("ply {last}");
        out!("{}", render::position(&pos, ansi));
    }
    if last == record.moves.len() {
        outln!("{}: {}", record.result, record.message);
    }
    Ok(0)
}
