//! A proven Qango win as a strategy file: for every position the winning
//! side meets (whatever the opponent replies), the move it plays.
//!
//! One line per position, merged over the board's symmetries: the
//! position in its canonical orientation (white's and black's discs as
//! hexadecimal masks, bit `row * cols + col`) and the move in that
//! orientation. Positions where the winner completes a pattern at once are
//! left out: a verifier finds that move by trying them all. The canonical
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
use crate::table::Table;
use crate::Value;

/// Why no strategy came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategyError {
    NotAWin(Option<Value>),
    OutOfBudget,
}

/// The winning strategy from `pos` for its mover, as the file's lines.
pub fn qango_win_strategy(
    pos: &Position,
    memory: usize,
    limits: StopAt,
) -> Result<String, StrategyError> {
    let rules = QangoRules::new(pos.variant());
    let mut table = Table::with_bytes(memory);
    let mut search = Search::new(&rules, &mut table, limits);
    let root = rules.state_of(pos);
    let attacker = rules.mover(&root).index();
    let proof = search.prove(&root, attacker);
    if proof.phi != 0 {
        return Err(StrategyError::NotAWin(None));
    }
    let mut lines = HashMap::new();
    let mut walk = Walk {
        search,
        attacker,
        lines: &mut lines,
    };
    walk.attacker_node(&root)?;
    let mut entries: Vec<(u128, u8)> = lines.into_iter().collect();
    entries.sort_unstable();
    let mut out = String::new();
    let winner = Color::to_move_at(pos.ply()).name();
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
        if rules.glance(s) == Glance::Won && rules.wins_at_once(s) {
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
        if child.lost {
            return Ok(());
        }
        for reply in rules.all_moves(&child) {
            let next = rules.play(&child, reply);
            self.attacker_node(&next)?;
        }
        Ok(())
    }
}
