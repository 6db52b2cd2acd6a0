//! `arena judge [FILE]`: replay a game record and print its outcome as JSON.
//!
//! Input: `{"game": "qango6", "moves": ["c3", "d4", ...]}` (other fields,
//! such as the referee's times and result, are ignored). Output: one JSON
//! object on stdout; exit status 0 for a valid record, 1 otherwise. Several
//! records one after another (a run's `games.jsonl`, or the games a Python
//! test generates) give one verdict line each, in order, with exit status 1
//! if any record is bad.

use std::io::Read;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::games::{Position, Variant};

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// The game record (JSON), or several one after another (a run's
    /// games.jsonl: one verdict line each); reads standard input when omitted.
    pub file: Option<PathBuf>,
}

/// The largest record read: a real one is a few KB; this keeps
/// `arena judge /dev/zero` from growing until the machine runs out of memory.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

pub fn run(args: Args) -> anyhow::Result<i32> {
    let verdicts = match read_record(args.file.as_ref()) {
        Ok(input) => judge_each(&input),
        Err(problem) => vec![Err(problem)],
    };
    let statuses: Vec<i32> = verdicts.into_iter().map(print_json).collect();
    Ok(statuses.into_iter().max().unwrap_or(0))
}

/// The verdict of each record of `input`, in order: one record (or bytes
/// that are none) is [`judge`]'s answer; several JSON values one after
/// another (a `games.jsonl`) are judged one by one, and a value that does
/// not parse is the last answer, since nothing after it can be trusted.
pub fn judge_each(input: &[u8]) -> Vec<Result<Value, Value>> {
    let mut records = Vec::new();
    for value in serde_json::Deserializer::from_slice(input).into_iter::<Value>() {
        match value {
            Ok(record) => records.push(Ok(record)),
            Err(e) => {
                let message = format!("record {} is not valid JSON: {e}", records.len() + 1);
                records.push(Err(error("malformed_json", None, message)));
                break;
            }
        }
    }
    if records.len() <= 1 {
        return vec![judge(input)];
    }
    let judged = |record: Result<Value, Value>| record.and_then(|r| verdict(replay_record(&r)?));
    records.into_iter().map(judged).collect()
}

/// Prints the verdict (exit status 0) or the error object (1).
pub fn print_json(result: Result<Value, Value>) -> i32 {
    match result {
        Ok(verdict) => {
            outln!("{verdict}");
            0
        }
        Err(problem) => {
            outln!("{problem}");
            1
        }
    }
}

/// The bytes of the record in `file`, or of standard input.
pub fn read_record(file: Option<&PathBuf>) -> Result<Vec<u8>, Value> {
    let mut input = Vec::new();
    let read = match file {
        Some(path) => std::fs::File::open(path).and_then(|f| read_capped(f, &mut input)),
        None => read_capped(std::io::stdin(), &mut input),
    };
    read.map_err(|e| {
        let name = file.map_or("stdin".into(), |p| p.display().to_string());
        error("io", None, format!("cannot read {name}: {e}"))
    })?;
    Ok(input)
}

/// Reads all of `reader` into `input`, refusing more than [`MAX_INPUT_BYTES`].
fn read_capped(reader: impl Read, input: &mut Vec<u8>) -> std::io::Result<()> {
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(input)?;
    if input.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::other(format!(
            "input larger than {} MiB; a game record is a few KB",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(())
}

pub fn error(kind: &str, ply: Option<usize>, message: String) -> Value {
    json!({"error": kind, "ply": ply, "message": message})
}

/// Replays a record; `Ok` is the verdict, `Err` the error object.
pub fn judge(input: &[u8]) -> Result<Value, Value> {
    verdict(replay(input)?)
}

/// What `arena judge` says of the position a record reached.
fn verdict(pos: Position) -> Result<Value, Value> {
    let variant = pos.variant();
    let outcome = pos.outcome();
    let status = match &outcome {
        Some(o) if o.winner.is_some() => "win",
        Some(_) => "draw",
        None => "ongoing",
    };
    Ok(json!({
        "game": variant.id,
        "status": status,
        "winner": outcome.as_ref().and_then(|o| o.winner),
        "reason": outcome.as_ref().map(|o| o.reason),
        "plies": pos.ply(),
        "cells": outcome.map(|o| o.cells).unwrap_or_default(),
        "to_move": if pos.is_over() { None } else { Some(pos.to_move()) },
        // The position after the moves, as a turn's STATE writes it.
        "board": pos.state_json()["board"].take(),
    }))
}

/// The position a record's moves reach, or the error object naming the
/// first problem (malformed JSON or record, unknown variant, a move that
/// is illegal or comes after the end).
pub fn replay(input: &[u8]) -> Result<Position, Value> {
    let record: Value = serde_json::from_slice(input).map_err(|e| {
        error(
            "malformed_json",
            None,
            format!("the record is not valid JSON: {e}"),
        )
    })?;
    replay_record(&record)
}

/// The position a parsed record's moves reach, or the error object (as
/// [`replay`]).
fn replay_record(record: &Value) -> Result<Position, Value> {
    let game = record.get("game").and_then(Value::as_str).ok_or_else(|| {
        error(
            "malformed_record",
            None,
            "missing string field \"game\"".into(),
        )
    })?;
    let variant = Variant::by_id(game).ok_or_else(|| {
        let known = Variant::ids().join(", ");
        error(
            "unknown_variant",
            None,
            format!("unknown variant \"{game}\"; known: {known}"),
        )
    })?;
    let moves = record
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            error(
                "malformed_record",
                None,
                "missing array field \"moves\"".into(),
            )
        })?;
    let mut pos = Position::new(variant);
    // `ply` is the position the move is played from (ply N: after N
    // moves), so the move is the game's (ply + 1)th (docs/REFERENCE.md).
    for (ply, m) in moves.iter().enumerate() {
        let number = ply + 1;
        let text = m.as_str().ok_or_else(|| {
            error(
                "malformed_record",
                Some(ply),
                format!("move {number} is not a string: {m}"),
            )
        })?;
        if pos.is_over() {
            let message = format!("move {number} (\"{text}\") comes after the game ended");
            return Err(error("move_after_end", Some(ply), message));
        }
        pos.play_str(text).map_err(|e| {
            let message = format!(
                "move {number} (\"{text}\") by {} is illegal: {e}",
                pos.to_move()
            );
            error("illegal_move", Some(ply), message)
        })?;
    }
    Ok(pos)
}
