//! A proven Qango win as a strategy file: for every position the winning
//! side meets (whatever the opponent replies), the move it plays.
//!
//! One line per position, merged over the board's symmetries: the
//! position in its canonical orientation (white's and black's discs as
//! hexadecimal masks, bit `row * cols + col`) and the move in that
//! orientation. Positions where the winner completes a pattern at once, or
//! has a fork, are left out: a verifier finds those moves by trying them
//! all. A fork is a move after which the winner has two cells that each
//! complete a pattern, while the opponent has no cell completing one of
//! its own, and the disc cap leaves the winner its next disc (fewer than 38
//! discs on the board before the fork). The canonical
//! orientation is the symmetry image whose `black << 64 | white` is the
//! least, over the board's symmetries (the empty board's over those that
//! keep the first-move cells), so an independent verifier can compute it.
//!
//! `# ` lines are comments; the first says what the file proves.

use std::collections::HashMap;
use std::fmt::Write;

use arena_rules::games::{Color, Position};

use crate::dfpn::{Search, StopAt};
use crate::game::{Glance, Rules};
use crate::qango::{QangoRules, State};
use crate::settled::Settled;
use crate::table::Table;
use crate::Value;

/// Why no strategy came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategyError {
    NotAWin(Option<Value>),
    OutOfBudget,
}

/// The winning strategy from `pos` for the side that wins there (its
/// mover, or the opponent whatever the mover plays), as the file's lines.
/// Proofs in `settled` (a long run's, [`crate::settled`]) are taken as
/// proven.
pub fn qango_win_strategy(
    pos: &Position,
    memory: usize,
    limits: StopAt,
    settled: Option<&Settled>,
) -> Result<String, StrategyError> {
    let rules = QangoRules::new(pos.variant());
    let mut table = Table::with_bytes(memory);
    let mut search = Search::new(&rules, &mut table, limits).with_settled(settled);
    let root = rules.state_of(pos);
    let mover = rules.mover(&root).index();
    let attacker = if search.prove(&root, mover).phi == 0 {
        mover
    } else if search.prove(&root, 1 - mover).delta == 0 {
        1 - mover
    } else {
        return Err(StrategyError::NotAWin(None));
    };
    let mut lines = HashMap::new();
    let mut walk = Walk {
        search,
        attacker,
        lines: &mut lines,
    };
    if attacker == mover {
        walk.attacker_node(&root)?;
    } else {
        walk.replies(&root)?;
    }
    let mut entries: Vec<(u128, u8)> = lines.into_iter().collect();
    entries.sort_unstable();
    let mut out = String::new();
    let winner = Color::to_move_at(attacker as u32).name();
    let _ = writeln!(
        out,
        "# {} {} wins from {} (ply {}): {} positions",
        pos.variant().id,
        winner,
        if pos.ply() == 0 {
            "the empty board".to_string()
        } else {
            pos.history()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        },
        pos.ply(),
        entries.len()
    );
    for (key, m) in entries {
        let _ = writeln!(out, "{:x} {:x} {}", key as u64, (key >> 64) as u64, m);
    }
    Ok(out)
}

struct Walk<'a, 'b> {
    search: Search<'a, QangoRules>,
    attacker: usize,
    lines: &'b mut HashMap<u128, u8>,
}

impl Walk<'_, '_> {
    /// Records the winner's move in `s` (its turn) and walks every reply.
    fn attacker_node(&mut self, s: &State) -> Result<(), StrategyError> {
        let rules = self.search.rules();
        if rules.glance(s) == Glance::Won {
            return Ok(());
        }
        let (key, oriented) = rules.orient(s);
        if self.lines.contains_key(&key) {
            return Ok(());
        }
        let mut moves = Vec::new();
        rules.moves(s, &mut moves);
        let Some((m, child)) = self.search.winning_child(s, &moves, self.attacker) else {
            return Err(StrategyError::OutOfBudget);
        };
        self.lines.insert(key, oriented(m));
        self.replies(&child)
    }

    /// Walks every reply of the loser, to move in `s`.
    fn replies(&mut self, s: &State) -> Result<(), StrategyError> {
        if s.lost {
            return Ok(());
        }
        for reply in self.search.rules().all_moves(s) {
            let next = self.search.rules().play(s, reply);
            self.attacker_node(&next)?;
        }
        Ok(())
    }
}
