//! Qango positions: two bitboards and the pure functions that play on them.
//!
//! Kept small and `Copy` so search and playouts can clone freely; the move
//! history lives in [`super::Position`].

use rand::RngCore;

use super::boards::QangoBoard;
use super::cell::Cell;
use super::geometry::{bits, Geometry};
use super::variant::{Variant, QANGO_MAX_DISCS};
use super::{Color, Outcome, RuleReason};

#[derive(Debug, Clone, Copy)]
pub struct QangoState {
    pub board: &'static QangoBoard,
    /// Discs of white (`[0]`) and black (`[1]`), bit `row * cols + col`.
    pub discs: [u64; 2],
    /// Cells allowed for the first disc.
    pub first_move: u64,
    pub ply: u32,
    /// Set when a move completed a pattern: (winner, pattern index).
    pub win: Option<(Color, u16)>,
}

impl QangoState {
    pub fn new(board: &'static QangoBoard, variant: &Variant) -> QangoState {
        QangoState {
            board,
            discs: [0, 0],
            first_move: variant.first_move_mask(),
            ply: 0,
            win: None,
        }
    }

    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.board.geometry()
    }

    #[inline]
    pub fn to_move(&self) -> Color {
        Color::to_move_at(self.ply)
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.discs[0] | self.discs[1]
    }

    /// Cells the side to move may play now (empty if the game is over).
    #[inline]
    pub fn legal_mask(&self) -> u64 {
        if self.is_over() {
            return 0;
        }
        let free = self.geometry().playable & !self.occupied();
        if self.ply == 0 {
            free & self.first_move
        } else {
            free
        }
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.win.is_some() || self.is_drawn()
    }

    #[inline]
    fn is_drawn(&self) -> bool {
        self.occupied() == self.geometry().playable || self.ply >= QANGO_MAX_DISCS
    }

    /// Places the mover's disc on `index` without checking legality; returns
    /// true when the move wins. The caller guarantees `index` is legal.
    #[inline]
    pub fn place_unchecked(&mut self, index: usize) -> bool {
        let side = (self.ply % 2) as usize;
        let discs = self.discs[side] | (1u64 << index);
        self.discs[side] = discs;
        self.ply += 1;
        if let Some(p) = self.geometry().completed_at(discs, index) {
            self.win = Some((
                if side == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                p as u16,
            ));
            return true;
        }
        false
    }

    /// Why `cell` is not a legal move now, or `Ok` if it is.
    pub fn check(&self, cell: Cell, variant_id: &str, opening_text: &str) -> Result<usize, String> {
        let g = self.geometry();
        if cell.row >= g.rows || cell.col >= g.cols {
            return Err(format!("{cell} is not on the board"));
        }
        let index = cell.index(g.cols);
        let bit = 1u64 << index;
        if self.is_over() {
            return Err("the game is already over".into());
        }
        if g.playable & bit == 0 {
            return Err(format!("{cell} is not a playable cell in {variant_id}"));
        }
        if self.occupied() & bit != 0 {
            return Err(format!("{cell} is occupied"));
        }
        if self.ply == 0 && self.first_move & bit == 0 {
            return Err(format!("first disc must be {opening_text} in {variant_id}"));
        }
        Ok(index)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        let g = self.geometry();
        if let Some((winner, p)) = self.win {
            let pattern = g.patterns[p as usize];
            return Some(Outcome {
                winner: Some(winner),
                reason: pattern.kind.reason(),
                cells: g.cells_of(pattern.mask),
            });
        }
        if self.occupied() == g.playable {
            return Some(Outcome {
                winner: None,
                reason: RuleReason::Full,
                cells: Vec::new(),
            });
        }
        if self.ply >= QANGO_MAX_DISCS {
            return Some(Outcome {
                winner: None,
                reason: RuleReason::OutOfDiscs,
                cells: Vec::new(),
            });
        }
        None
    }

    /// Plays uniformly random legal moves to the end; returns the winner.
    ///
    /// The fast path for benchmarks and Monte Carlo bots: no allocation, one
    /// random number and one pattern scan of the touched cell per move.
    pub fn random_playout(mut self, rng: &mut impl RngCore) -> Option<Color> {
        let mut free = [0u8; 64];
        let mut n = 0;
        if !self.is_over() && self.ply == 0 {
            let first = bits(self.legal_mask()).collect::<Vec<_>>();
            let pick = first[below(rng, first.len())];
            self.place_unchecked(pick);
        }
        if self.is_over() {
            return self.win.map(|w| w.0);
        }
        for i in bits(self.legal_mask()) {
            free[n] = i as u8;
            n += 1;
        }
        while n > 0 && self.ply < QANGO_MAX_DISCS {
            let k = below(rng, n);
            let index = free[k] as usize;
            n -= 1;
            free[k] = free[n];
            if self.place_unchecked(index) {
                return self.win.map(|w| w.0);
            }
        }
        None
    }
}

/// A uniform index below `n` (Lemire's multiply-shift; bias is negligible for n <= 64).
#[inline]
pub fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}
