//! A proven Qango value as strategy files: for every position one side
//! meets (whatever the opponent replies), the move it plays. A win is one
//! file, the winner's; a draw is two, each side's way never to lose.
//!
//! One line per position, merged over the board's symmetries: the
//! position in its canonical orientation (white's and black's discs as
//! hexadecimal masks, bit `row * cols + col`) and the move in that
//! orientation. Positions where the side completes a pattern at once, or
//! has a fork, are left out: a verifier finds those moves by trying them
//! all. A fork is a move after which the side has two cells that each
//! complete a pattern, while the opponent has no cell completing one of
//! its own, and the disc cap leaves the side its next disc (fewer than 38
//! discs on the board before the fork). A "does not lose" file also stops
//! where the opponent can no longer complete any pattern (each has a disc
//! of the side, or lacks more cells than the opponent has discs left), and
//! where the side has a move after which the game goes on and a pairing
//! holds every pattern the opponent can still complete
//! ([`crate::pairing`]).
//! The canonical orientation is the symmetry image whose
//! `black << 64 | white` is the least, over the board's symmetries (the
//! empty board's over those that keep the first-move cells), so an
//! independent verifier can compute it.
//!
//! `# ` lines are comments; the first says what the file proves:
//! `# VARIANT white wins from …` or `# VARIANT black does not lose from …`.

use std::collections::HashMap;
use std::fmt::Write;

use arena_rules::games::{Color, Position};

use crate::dfpn::{Search, StopAt};
use crate::game::{Glance, Rules};
use crate::qango::{QangoRules, State};
use crate::settled::Settled;
use crate::table::Table;

/// What a strategy file proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    Wins(Color),
    DoesNotLose(Color),
}

impl Claim {
    /// The side whose moves the file gives.
    pub fn side(self) -> Color {
        match self {
            Claim::Wins(c) | Claim::DoesNotLose(c) => c,
        }
    }

    /// The words of the file's first line.
    pub fn words(self) -> String {
        match self {
            Claim::Wins(c) => format!("{} wins", c.name()),
            Claim::DoesNotLose(c) => format!("{} does not lose", c.name()),
        }
    }

    /// The side whose win the search asks about: the claimant's for a
    /// win, the opponent's (which must fail) for not losing.
    fn attacker(self) -> usize {
        match self {
            Claim::Wins(c) => c.index(),
            Claim::DoesNotLose(c) => c.opponent().index(),
        }
    }
}

/// Why no strategy came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrategyError {
    /// The search ran out of its limits before a move of the side was
    /// proven (or the claim is not true).
    OutOfBudget,
}

/// The claims the value of `pos` makes: the winner's win, or for a draw
/// each side's not losing; `None` when the search does not prove it.
pub fn qango_claims(
    pos: &Position,
    memory: usize,
    limits: StopAt,
    settled: Option<&Settled>,
) -> Option<Vec<Claim>> {
    let rules = QangoRules::new(pos.variant());
    let mut table = Table::with_bytes(memory);
    let mut search = Search::new(&rules, &mut table, limits).with_settled(settled);
    let root = rules.state_of(pos);
    let mover = pos.to_move();
    let opponent = mover.opponent();
    let win = search.prove(&root, mover.index());
    if win.phi == 0 {
        return Some(vec![Claim::Wins(mover)]);
    }
    let hold = search.prove(&root, opponent.index());
    match (win.delta == 0, hold.phi == 0, hold.delta == 0) {
        (_, _, true) => Some(vec![Claim::Wins(opponent)]),
        (true, true, _) => Some(vec![
            Claim::DoesNotLose(Color::White),
            Claim::DoesNotLose(Color::Black),
        ]),
        _ => None,
    }
}

/// The strategy file proving `claim` from `pos`. Proofs in `settled` (a
/// long run's, [`crate::settled`]) are taken as proven.
pub fn qango_strategy(
    pos: &Position,
    claim: Claim,
    memory: usize,
    limits: StopAt,
    settled: Option<&Settled>,
) -> Result<String, StrategyError> {
    let rules = QangoRules::new(pos.variant());
    let mut table = Table::with_bytes(memory);
    let search = Search::new(&rules, &mut table, limits).with_settled(settled);
    let root = rules.state_of(pos);
    let mut lines = HashMap::new();
    let mut walk = Walk {
        search,
        claim,
        lines: &mut lines,
    };
    if pos.to_move() == claim.side() {
        walk.side_node(&root)?;
    } else {
        walk.replies(&root)?;
    }
    let mut entries: Vec<(u128, u8)> = lines.into_iter().collect();
    entries.sort_unstable();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# {} {} from {} (ply {}): {} positions",
        pos.variant().id,
        claim.words(),
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
    claim: Claim,
    lines: &'b mut HashMap<u128, u8>,
}

impl Walk<'_, '_> {
    /// Records the side's move in `s` (its turn) and walks every reply;
    /// a line ends where the side wins within three plies, or, when it
    /// only must not lose, where the opponent can no longer win.
    fn side_node(&mut self, s: &State) -> Result<(), StrategyError> {
        let rules = self.search.rules();
        if rules.wins_within_three(s) {
            return Ok(());
        }
        if let Claim::DoesNotLose(_) = self.claim {
            match rules.glance(s) {
                Glance::Drawn
                | Glance::Open {
                    opponent_can_win: false,
                    ..
                } => return Ok(()),
                _ if rules.holds_by_pairing(s) => return Ok(()),
                _ => {}
            }
        }
        let (key, oriented) = rules.orient(s);
        if self.lines.contains_key(&key) {
            return Ok(());
        }
        let mut moves = Vec::new();
        rules.moves(s, &mut moves);
        let attacker = self.claim.attacker();
        let Some((m, child)) = self.search.winning_child(s, &moves, attacker) else {
            return Err(StrategyError::OutOfBudget);
        };
        self.lines.insert(key, oriented(m));
        self.replies(&child)
    }

    /// Walks every reply of the opponent, to move in `s`.
    fn replies(&mut self, s: &State) -> Result<(), StrategyError> {
        if s.lost {
            return Ok(());
        }
        for reply in self.search.rules().all_moves(s) {
            let next = self.search.rules().play(s, reply);
            self.side_node(&next)?;
        }
        Ok(())
    }
}
