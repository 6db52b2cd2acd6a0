//! `arena solve`: the value of a position under perfect play, for the side
//! to move, as one JSON object. The position is one of:
//!
//! - `arena solve [FILE]`: a record as `arena judge` reads it, `{"game":
//!   VARIANT, "moves": [...]}`, from FILE or standard input;
//! - `arena solve VARIANT --moves "c3 d4 ..."`: the moves as text;
//! - `arena solve DIR --game ID [--ply N]`: a game of a run's directory,
//!   after its first N plies (without `--ply`: where it ended).
//!
//! A bad position is judge's error object (exit 1). Output: `value` (`win`,
//! `draw`, `loss` or `unknown` when the budget ran out first), `best` (a
//! move that keeps the value; absent when the value is unknown or the game
//! is over), `nodes` and `ms` (the work it took; 0 nodes when the value
//! came from the settled table, `--table-dir`).

use std::path::PathBuf;

use serde_json::{json, Value};

use super::{judge, show};
use crate::games::quinque::QuinqueMove;
use crate::games::Position;
use crate::referee::game_id::number_of;
use arena_solver::{Budget, Solver};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game record (JSON; standard input when omitted); with --moves, a
    /// variant; with --game, a run's directory.
    #[arg(value_name = "FILE|VARIANT|DIR")]
    pub file: Option<PathBuf>,
    /// The moves from the start, separated by spaces or commas ("c3 d4"):
    /// FILE|VARIANT is then the variant.
    #[arg(long, value_name = "MOVES", conflicts_with = "game")]
    pub moves: Option<String>,
    /// A game of the run in FILE|VARIANT|DIR, as in the report: `g17` (or `17`).
    #[arg(long, value_name = "ID")]
    pub game: Option<String>,
    /// With --game: the position after this many plies (default: where the
    /// game ended).
    #[arg(long, value_name = "N", requires = "game")]
    pub ply: Option<usize>,
    /// Time the proof may take, in milliseconds; past it the value is
    /// `unknown`.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub budget_ms: u64,
    /// Memory for the solver's table, in MiB (it never takes more).
    #[arg(long, value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub memory_mib: u64,
    /// Directory of the settled tables (one file per variant), or `off`:
    /// a position found there is answered at once, one proven here is
    /// added. [default: $ARENA_TABLE_DIR, else $XDG_CACHE_HOME/arena,
    /// else ~/.cache/arena]
    #[arg(long, value_name = "DIR")]
    pub table_dir: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let result = record(&args)
        .and_then(|input| judge::replay(&input))
        .map(|pos| solve(&pos, &args));
    Ok(judge::print_json(result))
}

/// The record (as `arena judge` reads it) of the position asked for.
fn record(args: &Args) -> Result<Vec<u8>, Value> {
    let source = || {
        args.file
            .as_ref()
            .map(|p| p.display().to_string())
            .ok_or_else(|| {
                let what = if args.moves.is_some() {
                    "variant"
                } else {
                    "run's directory"
                };
                judge::error("usage", None, format!("name the {what} before the options"))
            })
    };
    if let Some(moves) = &args.moves {
        let moves = split_moves(moves);
        return Ok(json!({"game": source()?, "moves": moves})
            .to_string()
            .into_bytes());
    }
    if let Some(game) = &args.game {
        return game_position(&source()?, game, args.ply);
    }
    judge::read_record(args.file.as_ref())
}

/// The moves of `--moves`, separated by spaces or commas: a Quinque
/// action's verb (`place`, `capture`, ...) starts a move and the cells
/// after it belong to it (`"place c3 capture d4 b2"`); any other word is
/// a move of its own (Qango's `"c3 d4"`).
fn split_moves(text: &str) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut in_action = false;
    for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
        if QuinqueMove::ACTION_WORDS.contains(&word.to_ascii_lowercase().as_str()) {
            moves.push(word.to_string());
            in_action = true;
        } else if in_action {
            let action = moves.last_mut().expect("a verb came first");
            action.push(' ');
            action.push_str(word);
        } else {
            moves.push(word.to_string());
        }
    }
    moves
}

/// Game `game` of the run in `dir`, cut after `ply` plies.
fn game_position(dir: &str, game: &str, ply: Option<usize>) -> Result<Vec<u8>, Value> {
    let unknown = |message: String| judge::error("unknown_game", None, message);
    let id = number_of(game).map_err(unknown)?;
    let record = show::find(dir.as_ref(), id).map_err(|e| unknown(format!("{e:#}")))?;
    let plies = record.moves.len();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(judge::error(
            "bad_ply",
            Some(ply),
            format!("game {game} has {plies} plies: --ply takes 0 to {plies}"),
        ));
    }
    Ok(json!({"game": record.game, "moves": &record.moves[..ply]})
        .to_string()
        .into_bytes())
}

/// The solver's answer for `pos`.
fn solve(pos: &Position, args: &Args) -> Value {
    super::analyse::configure_table(args.table_dir.as_deref());
    let mut solver =
        Solver::new(pos.variant(), (args.memory_mib as usize) << 20).with_shared_table();
    let s = solver.solve(pos, Budget::millis(args.budget_ms));
    let mut out = json!({
        "game": pos.variant().id,
        "plies": pos.ply(),
        "to_move": if pos.is_over() { None } else { Some(pos.to_move()) },
        "value": s.value.map_or("unknown", |v| v.word()),
        "nodes": s.nodes,
        "ms": s.elapsed.as_millis() as u64,
    });
    if let Some(best) = s.best {
        out["best"] = json!(best.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::split_moves;

    #[test]
    fn moves_split_at_spaces_commas_and_quinque_verbs() {
        assert_eq!(split_moves("c3 d4,e5"), ["c3", "d4", "e5"]);
        assert_eq!(split_moves(" c3,  d4 "), ["c3", "d4"]);
        assert_eq!(
            split_moves("place b2 place c3, capture d4 b2 e5 double b2"),
            ["place b2", "place c3", "capture d4 b2 e5", "double b2"]
        );
        assert!(split_moves("").is_empty());
    }
}
