//! The protocol loop: one JSON line in, at most one JSON line out.
//!
//! The referee's messages are decoded with arena's own protocol types. The
//! position is rebuilt for every turn by replaying `history` on a fresh
//! [`Position`]; the `state` and `legal_moves` fields are not trusted (they
//! are only compared against, for the log). Logs go to stderr only.

use std::io::{BufRead, Write};

use anyhow::Context;
use arena_rules::games::{Color, Position, Variant};
use arena_rules::protocol::{
    decode_referee_line, BotMessage, BotMove, ProtocolError, Ready, RefereeMessage, TimeControl,
    Turn, PROTOCOL_VERSION,
};

use crate::budget::think_time;
use crate::perfect::{Prover, SolveConfig};
use crate::search::{mix, SearchLimits, MAX_DEPTH};

/// Strength and randomness settings from the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineConfig {
    /// Deepest iteration (`--depth`); `None` = limited by time only.
    pub max_depth: Option<u32>,
    /// Time cap per move in ms (`--movetime`); the referee's clock may cut it further.
    pub movetime_ms: Option<u64>,
    /// Breaks ties between equal moves; games vary with it and with the game id.
    pub seed: u64,
    /// The solver's share of each move and its memory (`--solve-share`, `--solve-memory`).
    pub solve: SolveConfig,
}

impl EngineConfig {
    /// The name sent in `ready`, reflecting the strength: `engine-d4`,
    /// `engine-100ms`, `engine-d6-250ms`.
    pub fn name(&self) -> String {
        let mut name = "engine".to_string();
        if let Some(d) = self.max_depth {
            name.push_str(&format!("-d{d}"));
        }
        if let Some(ms) = self.movetime_ms {
            name.push_str(&format!("-{ms}ms"));
        }
        name
    }
}

/// Runs the protocol until `quit` or end of input.
pub fn run(
    input: impl BufRead,
    mut output: impl Write,
    config: &EngineConfig,
) -> anyhow::Result<()> {
    let mut session = Session {
        config: *config,
        time_control: None,
        prover: Prover::new(config.solve),
    };
    for line in input.split(b'\n') {
        let line = line.context("reading a line from stdin")?;
        match session.handle(&line) {
            Action::Reply(message) => {
                output
                    .write_all(message.to_line().as_bytes())
                    .and_then(|_| output.flush())
                    .context("writing to stdout")?;
            }
            Action::Quit => return Ok(()),
            Action::None => {}
        }
    }
    Ok(())
}

enum Action {
    Reply(BotMessage),
    Quit,
    None,
}

struct Session {
    config: EngineConfig,
    /// The time control of the game announced last, by game id.
    time_control: Option<(String, TimeControl)>,
    /// The solver, kept for the whole process.
    prover: Prover,
}

impl Session {
    fn handle(&mut self, line: &[u8]) -> Action {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Action::None;
        }
        match decode_referee_line(line) {
            Ok(RefereeMessage::Hello(hello)) => {
                if hello.protocol != PROTOCOL_VERSION {
                    log(&format!(
                        "referee speaks protocol {}, this engine {PROTOCOL_VERSION}",
                        hello.protocol
                    ));
                }
                Action::Reply(BotMessage::Ready(Ready {
                    name: self.config.name(),
                    protocol: PROTOCOL_VERSION,
                    author: None,
                    version: Some(env!("CARGO_PKG_VERSION").to_string()),
                }))
            }
            Ok(RefereeMessage::NewGame(game)) => {
                log(&format!(
                    "new game {} as {} against {}",
                    game.game_id,
                    game.color.name(),
                    game.opponent
                ));
                self.time_control = Some((game.game_id, game.time_control));
                // The solver (and its settled table, read from disk) made
                // now, before the first turn's clock runs.
                let id = game.variant.get("id").and_then(|v| v.as_str());
                if let Some(variant) = id.and_then(Variant::by_id) {
                    self.prover.prepare(variant);
                }
                Action::None
            }
            Ok(RefereeMessage::Turn(turn)) => match self.answer(&turn) {
                Some(mv) => Action::Reply(BotMessage::Move(mv)),
                None => Action::None,
            },
            Ok(RefereeMessage::GameOver(over)) => {
                log(&format!(
                    "game {} over: {} ({})",
                    over.game_id,
                    over.result.as_str(),
                    over.reason
                ));
                Action::None
            }
            Ok(RefereeMessage::Quit) => Action::Quit,
            Err(ProtocolError::UnknownType { found, .. }) => {
                log(&format!("ignoring message of unknown type \"{found}\""));
                Action::None
            }
            Err(e) => {
                log(&format!("ignoring a line I cannot read: {e}"));
                Action::None
            }
        }
    }

    fn answer(&mut self, turn: &Turn) -> Option<BotMove> {
        let pos = match replay(turn) {
            Ok(pos) => pos,
            Err(e) => {
                log(&format!(
                    "{e:#}; answering the referee's first legal move instead"
                ));
                return turn.legal_moves.first().map(|m| BotMove {
                    mv: m.clone(),
                    comment: None,
                });
            }
        };
        // Only this game's clock adds an increment. Every time control is
        // named, so a new kind must decide here what it adds.
        let increment_ms = match &self.time_control {
            Some((id, _)) if *id != turn.game_id => 0,
            None => 0,
            Some((_, TimeControl::Clock { increment_ms, .. })) => *increment_ms,
            Some((_, TimeControl::PerMove { .. })) => 0,
        };
        let own_ms = match turn.color {
            Color::White => turn.clock.white_ms,
            Color::Black => turn.clock.black_ms,
        };
        let limits = SearchLimits {
            max_depth: self.config.max_depth.unwrap_or(MAX_DEPTH),
            time: Some(think_time(
                turn.clock.move_ms,
                own_ms,
                increment_ms,
                self.config.movetime_ms,
            )),
        };
        let seed = turn_seed(self.config.seed, &turn.game_id);
        let decision = self.prover.choose(&pos, limits, seed)?;
        let mv = decision.best.to_string();
        let proven = decision.value.map_or("unknown", |v| v.word());
        let report = &decision.report;
        let comment = if decision.solver_move {
            format!("proven {proven}")
        } else {
            format!("depth {} score {}", report.depth, report.score_text())
        };
        log(&format!(
            "{} ply {}: {mv} ({comment}; solver {proven}, {} nodes in {} ms; search depth {} nodes {} in {} ms)",
            turn.game_id,
            turn.ply,
            decision.solve_nodes,
            decision.solve_time.as_millis(),
            report.depth,
            report.nodes,
            report.elapsed.as_millis()
        ));
        if !turn.legal_moves.is_empty() && !turn.legal_moves.contains(&mv) {
            log(&format!(
                "warning: {mv} is not in the referee's legal_moves list"
            ));
        }
        Some(BotMove {
            comment: Some(comment),
            mv,
        })
    }
}

/// The position of a turn, rebuilt from its history alone.
pub fn replay(turn: &Turn) -> anyhow::Result<Position> {
    let variant = Variant::by_id(&turn.variant).with_context(|| {
        format!(
            "unknown variant \"{}\" in turn of game {}",
            turn.variant, turn.game_id
        )
    })?;
    let mut pos = Position::new(variant);
    for (k, text) in turn.history.iter().enumerate() {
        pos.play_str(text).map_err(|e| {
            anyhow::anyhow!(
                "history move {} (\"{text}\") of game {} is illegal: {e}",
                k + 1,
                turn.game_id
            )
        })?;
    }
    if pos.is_over() {
        anyhow::bail!(
            "game {} is already over after its history of {} moves",
            turn.game_id,
            turn.history.len()
        );
    }
    Ok(pos)
}

/// Per-game seed: the same `--seed` gives different games for different ids.
pub fn turn_seed(seed: u64, game_id: &str) -> u64 {
    game_id.bytes().fold(mix(seed), |h, b| mix(h ^ b as u64))
}

fn log(message: &str) {
    eprintln!("arena-engine: {message}");
}
