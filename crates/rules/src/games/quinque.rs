//! Quinque: stacks on a 5x5 board, a supply of 20 stones each, seven actions.
//!
//! Rules as in RULES.md (seed 003 plus its marked decisions). Every action
//! either spends a supply stone or removes opponent stones from the game, so
//! the potential `stones in game + stones in supply` (80 at the start) drops
//! by at least one per ply: a game ends within 80 plies and needs no cap.

use std::fmt;

use super::cell::{shorten, Cell};
use super::geometry;
use super::{Color, Outcome, RuleReason};

pub const SIZE: usize = 5;
pub const CELLS: usize = SIZE * SIZE;
/// Stones each player starts with.
pub const SUPPLY: u8 = 20;
const CENTRE: usize = 12;

/// One Quinque action in RULES.md notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuinqueMove {
    Place(Cell),
    Double(Cell),
    Triple(Cell),
    Enclose(Cell),
    /// Take the opponent stack on `target` by dissolving own double `with`
    /// (and `second` too when taking a non-enclosed double).
    Capture {
        target: Cell,
        with: Cell,
        second: Option<Cell>,
    },
}

impl fmt::Display for QuinqueMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Pieces written one by one rather than with `write!`: the referee
        // writes every legal move of every turn through here.
        match self {
            QuinqueMove::Place(c) => {
                f.write_str("place ")?;
                c.fmt(f)
            }
            QuinqueMove::Double(c) => {
                f.write_str("double ")?;
                c.fmt(f)
            }
            QuinqueMove::Triple(c) => {
                f.write_str("triple ")?;
                c.fmt(f)
            }
            QuinqueMove::Enclose(c) => {
                f.write_str("enclose ")?;
                c.fmt(f)
            }
            QuinqueMove::Capture {
                target,
                with,
                second,
            } => {
                f.write_str("capture ")?;
                target.fmt(f)?;
                f.write_str(" ")?;
                with.fmt(f)?;
                if let Some(s) = second {
                    f.write_str(" ")?;
                    s.fmt(f)?;
                }
                Ok(())
            }
        }
    }
}

impl QuinqueMove {
    /// The first word of each action, as a move's notation starts.
    pub const ACTION_WORDS: [&'static str; 5] = ["place", "double", "triple", "enclose", "capture"];

    /// Parses `place c3`, `capture d4 b2 e5`, ...; forgiving case, spacing
    /// and the order of the two dissolved doubles (stored in board order),
    /// for people typing moves: the exact spelling is `to_string`'s.
    pub fn parse(text: &str) -> Result<QuinqueMove, String> {
        let action = text.split_whitespace().next().map(str::to_ascii_lowercase);
        let mut words: Vec<&str> = text.split_whitespace().collect();
        if let (Some(first), Some(action)) = (words.first_mut(), action.as_deref()) {
            *first = action;
        }
        let cell = |w: &str| Cell::parse(w, SIZE as u8, SIZE as u8);
        let usage = || {
            format!(
                "\"{}\" is not a Quinque move (expected e.g. \"place c3\", \"double c3\", \
                 \"triple c3\", \"enclose d4\", \"capture d4 b2\" or \"capture d4 b2 e5\")",
                shorten(text)
            )
        };
        match words.as_slice() {
            ["place", c] => Ok(QuinqueMove::Place(cell(c)?)),
            ["double", c] => Ok(QuinqueMove::Double(cell(c)?)),
            ["triple", c] => Ok(QuinqueMove::Triple(cell(c)?)),
            ["enclose", c] => Ok(QuinqueMove::Enclose(cell(c)?)),
            ["capture", t, w] => Ok(QuinqueMove::Capture {
                target: cell(t)?,
                with: cell(w)?,
                second: None,
            }),
            ["capture", t, a, b] => {
                let (a, b) = (cell(a)?, cell(b)?);
                let (with, second) = if a <= b { (a, b) } else { (b, a) };
                Ok(QuinqueMove::Capture {
                    target: cell(t)?,
                    with,
                    second: Some(second),
                })
            }
            _ => Err(usage()),
        }
    }

    /// Parses `text` only if it is exactly a move's notation as `to_string`
    /// writes it (one space between words, lower case, a capture's doubles
    /// in board order); `None` for anything else, which [`parse`](Self::parse)
    /// may still read or explain. No allocation: the referee reads every
    /// bot answer this way first.
    pub fn parse_canonical(text: &str) -> Option<QuinqueMove> {
        let (action, cells) = text.split_once(' ')?;
        let mut cells = cells.split(' ');
        let mut next = || Cell::parse_canonical(cells.next()?, SIZE as u8, SIZE as u8);
        let m = match action {
            "place" => QuinqueMove::Place(next()?),
            "double" => QuinqueMove::Double(next()?),
            "triple" => QuinqueMove::Triple(next()?),
            "enclose" => QuinqueMove::Enclose(next()?),
            "capture" => {
                let (target, with) = (next()?, next()?);
                let second = match cells.next() {
                    None => None,
                    Some(name) => {
                        let second = Cell::parse_canonical(name, SIZE as u8, SIZE as u8)?;
                        // Board order is the only spelling.
                        (with < second).then_some(())?;
                        Some(second)
                    }
                };
                QuinqueMove::Capture {
                    target,
                    with,
                    second,
                }
            }
            _ => return None,
        };
        // Nothing may follow the last cell.
        cells.next().is_none().then_some(m)
    }

    /// The cell that ends up holding the mover's stack (for win checks).
    pub fn target(&self) -> Cell {
        match *self {
            QuinqueMove::Place(c)
            | QuinqueMove::Double(c)
            | QuinqueMove::Triple(c)
            | QuinqueMove::Enclose(c) => c,
            QuinqueMove::Capture { target, .. } => target,
        }
    }
}

/// Takes the moves of [`QuinqueState::for_each_legal_move_into`].
pub trait MoveSink {
    fn take(&mut self, m: QuinqueMove);
}

/// What [`QuinqueState::generate`] passes moves to: `emit` returns whether
/// to go on. A trait rather than a closure so that a [`MoveSink`] is
/// inlined all the way into the generator.
trait Emit {
    fn emit(&mut self, m: QuinqueMove) -> bool;
}

impl<F: FnMut(QuinqueMove) -> bool> Emit for F {
    #[inline(always)]
    fn emit(&mut self, m: QuinqueMove) -> bool {
        self(m)
    }
}

/// Every move into a [`MoveSink`].
struct TakeAll<'a, S>(&'a mut S);

impl<S: MoveSink> Emit for TakeAll<'_, S> {
    #[inline(always)]
    fn emit(&mut self, m: QuinqueMove) -> bool {
        self.0.take(m);
        true
    }
}

/// Orthogonal neighbours of each cell as 25-bit masks (cells off the board
/// are simply absent, which is what enclosure needs).
const NEIGHBOURS: [u32; CELLS] = {
    let mut n = [0u32; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = (i / SIZE, i % SIZE);
        if r > 0 {
            n[i] |= 1 << (i - SIZE);
        }
        if r + 1 < SIZE {
            n[i] |= 1 << (i + SIZE);
        }
        if c > 0 {
            n[i] |= 1 << (i - 1);
        }
        if c + 1 < SIZE {
            n[i] |= 1 << (i + 1);
        }
        i += 1;
    }
    n
};

/// The twelve lines of five (rows, columns, two diagonals) as 25-bit masks.
pub fn lines() -> &'static [u32; 12] {
    &LINES
}

/// A constant rather than built on first use: every ply's win check reads
/// it, and a lazy table costs a synchronised check each time.
const LINES: [u32; 12] = {
    let mut lines = [0u32; 12];
    let mut k = 0;
    while k < SIZE {
        let mut j = 0;
        while j < SIZE {
            lines[k] |= 1 << (k * SIZE + j); // row k
            lines[SIZE + k] |= 1 << (j * SIZE + k); // column k
            j += 1;
        }
        lines[10] |= 1 << (k * SIZE + k);
        lines[11] |= 1 << (k * SIZE + SIZE - 1 - k);
        k += 1;
    }
    lines
};

fn idx(c: Cell) -> usize {
    c.index(SIZE as u8)
}

fn cell(i: usize) -> Cell {
    Cell::from_index(i, SIZE as u8)
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuinqueState {
    /// Stack per cell: `+h` a white stack of height h, `-h` a black one, 0 empty.
    pub stacks: [i8; CELLS],
    pub supply: [u8; 2],
    pub ply: u32,
    /// A stack placed by a capture on the previous ply: not capturable now.
    pub locked: Option<Cell>,
    /// Set once the game has ended.
    pub result: Option<(Color, RuleReason, u32)>,
}

impl Default for QuinqueState {
    fn default() -> Self {
        QuinqueState {
            stacks: [0; CELLS],
            supply: [SUPPLY, SUPPLY],
            ply: 0,
            locked: None,
            result: None,
        }
    }
}

impl QuinqueState {
    pub fn to_move(&self) -> Color {
        Color::to_move_at(self.ply)
    }

    /// Height of `color`'s stack on cell `i` (0 if empty or the opponent's).
    pub fn height(&self, i: usize, color: Color) -> i8 {
        let h = self.stacks[i];
        match color {
            Color::White if h > 0 => h,
            Color::Black if h < 0 => -h,
            _ => 0,
        }
    }

    /// Cells holding a stack of `color`, as a 25-bit mask.
    pub fn occupancy(&self, color: Color) -> u32 {
        self.masks()[color.index()][0]
    }

    /// Cells of each colour's stacks by height, indexed by [`Color::index`]:
    /// `[any, singles, doubles, triples]`. One pass over the board for both
    /// colours: move generation and the win check run on every ply.
    fn masks(&self) -> [[u32; 4]; 2] {
        let mut masks = [[0u32; 4]; 2];
        for (i, &h) in self.stacks.iter().enumerate() {
            if h != 0 {
                let side = &mut masks[usize::from(h < 0)];
                // Heights above 3 cannot arise; counted as triples if set by hand.
                let height = (h.unsigned_abs() as usize).min(3);
                side[0] |= 1 << i;
                side[height] |= 1 << i;
            }
        }
        masks
    }

    fn has_triple(&self, color: Color) -> Option<usize> {
        (0..CELLS).find(|&i| self.height(i, color) == 3)
    }

    /// The first orthogonal neighbour of `i` that is on the board and not
    /// `color`'s stack: `None` means `i` is enclosed by `color`.
    fn opening_in_enclosure(&self, i: usize, color: Color) -> Option<usize> {
        let (r, c) = ((i / SIZE) as i32, (i % SIZE) as i32);
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .iter()
            .find_map(|(dr, dc)| {
                let (rr, cc) = (r + dr, c + dc);
                let on_board = (0..SIZE as i32).contains(&rr) && (0..SIZE as i32).contains(&cc);
                let n = (rr * SIZE as i32 + cc) as usize;
                (on_board && self.height(n, color) == 0).then_some(n)
            })
    }

    fn is_locked(&self, i: usize) -> bool {
        self.locked.is_some_and(|c| idx(c) == i)
    }

    /// Why `m` is illegal for the side to move, or `Ok` if it is legal.
    pub fn check(&self, m: &QuinqueMove) -> Result<(), String> {
        if self.result.is_some() {
            return Err("the game is already over".into());
        }
        let me = self.to_move();
        let opp = me.opponent();
        let needs_supply = !matches!(m, QuinqueMove::Capture { .. });
        if needs_supply && self.supply[me.index()] == 0 {
            return Err("you have no stones left in your supply".into());
        }
        if self.ply == 0 && !matches!(m, QuinqueMove::Place(_)) {
            return Err("the first move of the game must be a placement".into());
        }
        match *m {
            QuinqueMove::Place(c) => {
                if self.ply == 0 && idx(c) == CENTRE {
                    return Err("the first stone may not go on the centre c3".into());
                }
                if self.stacks[idx(c)] != 0 {
                    return Err(format!("{c} is occupied"));
                }
            }
            QuinqueMove::Double(c) => {
                if self.height(idx(c), me) != 1 {
                    return Err(format!(
                        "{c} is not your single (only a single can be doubled)"
                    ));
                }
            }
            QuinqueMove::Triple(c) => {
                if self.height(idx(c), me) != 2 {
                    return Err(format!(
                        "{c} is not your double (only a double can be tripled)"
                    ));
                }
                if idx(c) == CENTRE {
                    return Err("no triple may be made on the centre c3".into());
                }
                if let Some(t) = self.has_triple(me) {
                    return Err(format!(
                        "you already have a triple (on {}); only one is allowed",
                        cell(t)
                    ));
                }
            }
            QuinqueMove::Enclose(c) => {
                self.check_target(c, 1)?;
                if let Some(n) = self.opening_in_enclosure(idx(c), me) {
                    return Err(format!(
                        "{c} is not enclosed: {} is not your stack",
                        cell(n)
                    ));
                }
            }
            QuinqueMove::Capture {
                target,
                with,
                second,
            } => {
                self.check_own_double(with)?;
                let target_height = self.height(idx(target), opp);
                match second {
                    None => {
                        self.check_target(target, target_height.max(1))?;
                        if target_height == 2 {
                            if let Some(n) = self.opening_in_enclosure(idx(target), me) {
                                return Err(format!(
                                    "{target} is a double and not enclosed ({} is not your stack): \
                                     taking it needs two of your doubles",
                                    cell(n)
                                ));
                            }
                        }
                    }
                    Some(second) => {
                        if second == with {
                            return Err(format!(
                                "{with} is named twice: two different doubles are needed"
                            ));
                        }
                        self.check_own_double(second)?;
                        self.check_target(target, 2)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn check_own_double(&self, c: Cell) -> Result<(), String> {
        if self.height(idx(c), self.to_move()) != 2 {
            return Err(format!(
                "{c} is not your double (captures dissolve your own doubles)"
            ));
        }
        Ok(())
    }

    /// The target must be an opponent stack of `height`, capturable now.
    fn check_target(&self, c: Cell, height: i8) -> Result<(), String> {
        let h = self.height(idx(c), self.to_move().opponent());
        let what = |h: i8| match h {
            1 => "single",
            2 => "double",
            _ => "triple",
        };
        if h == 0 {
            return Err(format!("{c} is not an opponent stack"));
        }
        if h == 3 {
            return Err(format!(
                "{c} is a triple, and triples can never be captured"
            ));
        }
        if h != height {
            return Err(format!(
                "{c} is an opponent {}, not a {}",
                what(h),
                what(height)
            ));
        }
        if self.is_locked(idx(c)) {
            return Err(format!(
                "{c} was just taken by a capture and may not be recaptured this turn"
            ));
        }
        Ok(())
    }

    /// Applies a move already accepted by [`check`](Self::check).
    pub fn apply_unchecked(&mut self, m: &QuinqueMove) {
        let me = self.to_move();
        let s = me.index();
        let sign: i8 = if s == 0 { 1 } else { -1 };
        let mut locked = None;
        match *m {
            QuinqueMove::Place(c) => {
                self.stacks[idx(c)] = sign;
                self.supply[s] -= 1;
            }
            QuinqueMove::Double(c) | QuinqueMove::Triple(c) => {
                self.stacks[idx(c)] += sign;
                self.supply[s] -= 1;
            }
            QuinqueMove::Enclose(c) => {
                self.stacks[idx(c)] = sign;
                self.supply[s] -= 1;
                locked = Some(c);
            }
            QuinqueMove::Capture {
                target,
                with,
                second,
            } => {
                self.stacks[idx(with)] = sign;
                if let Some(second) = second {
                    self.stacks[idx(second)] = sign;
                    self.supply[s] += 1;
                }
                self.stacks[idx(target)] = sign;
                locked = Some(target);
            }
        }
        self.locked = locked;
        self.ply += 1;
        let mine = self.occupancy(me);
        if let Some(&line) = lines().iter().find(|&&l| mine & l == l) {
            self.result = Some((me, RuleReason::Line, line));
        } else if !self.has_legal_move() {
            self.result = Some((me, RuleReason::NoMoves, 0));
        }
    }

    /// Checks and applies `m`.
    pub fn play(&mut self, m: &QuinqueMove) -> Result<(), String> {
        self.check(m)?;
        self.apply_unchecked(m);
        Ok(())
    }

    fn has_legal_move(&self) -> bool {
        // The usual case without generating: a supply stone and an empty
        // cell make a placement (the centre is barred on ply 0 only).
        if self.ply > 0 && self.supply[self.to_move().index()] > 0 && self.stacks.contains(&0) {
            return true;
        }
        let mut any = false;
        self.generate(&mut |_| {
            any = true;
            false
        });
        any
    }

    /// Every legal move for the side to move.
    pub fn legal_moves(&self) -> Vec<QuinqueMove> {
        let mut moves = Vec::with_capacity(64);
        self.for_each_legal_move(|m| moves.push(m));
        moves
    }

    /// Calls `f` with every legal move for the side to move, in board order
    /// (no list: the referee collects them in its own type).
    pub fn for_each_legal_move(&self, mut f: impl FnMut(QuinqueMove)) {
        if self.result.is_none() {
            self.generate(&mut |m| {
                f(m);
                true
            });
        }
    }

    /// [`for_each_legal_move`](Self::for_each_legal_move) into a
    /// [`MoveSink`]: its `take` may be `#[inline(always)]` (a closure's body
    /// cannot be), so that it is inlined where each shape of move is made
    /// and only that shape's code remains there.
    pub fn for_each_legal_move_into(&self, sink: &mut impl MoveSink) {
        if self.result.is_none() {
            self.generate(&mut TakeAll(sink));
        }
    }

    /// Passes legal moves in board order to `emit` until it returns false.
    /// Works on cell masks: this runs on every referee turn.
    #[inline(always)]
    fn generate(&self, emit: &mut impl Emit) {
        let me = self.to_move();
        let masks = self.masks();
        let (own, opp) = (masks[me.index()], masks[me.opponent().index()]);
        let locked = self.locked.map_or(0, |c| 1u32 << idx(c));
        let enclosed = |i: usize| NEIGHBOURS[i] & !own[0] == 0;
        if self.supply[me.index()] > 0 {
            let empty = !(own[0] | opp[0]) & ((1 << CELLS) - 1);
            let may_triple = own[3] == 0;
            for i in 0..CELLS {
                let bit = 1u32 << i;
                let m = if empty & bit != 0 && !(self.ply == 0 && i == CENTRE) {
                    QuinqueMove::Place(cell(i))
                } else if own[1] & bit != 0 {
                    QuinqueMove::Double(cell(i))
                } else if own[2] & bit != 0 && may_triple && i != CENTRE {
                    QuinqueMove::Triple(cell(i))
                } else if opp[1] & !locked & bit != 0 && enclosed(i) {
                    QuinqueMove::Enclose(cell(i))
                } else {
                    continue;
                };
                if !emit.emit(m) {
                    return;
                }
            }
        }
        if own[2] == 0 {
            return;
        }
        // Own doubles, without a list (at most one per cell).
        let mut doubles = [0usize; CELLS];
        let mut count = 0;
        for d in geometry::bits(own[2] as u64) {
            doubles[count] = d;
            count += 1;
        }
        let doubles = &doubles[..count];
        for t in geometry::bits(((opp[1] | opp[2]) & !locked) as u64) {
            let double = opp[2] & (1 << t) != 0;
            if !double || enclosed(t) {
                for &w in doubles {
                    let m = QuinqueMove::Capture {
                        target: cell(t),
                        with: cell(w),
                        second: None,
                    };
                    if !emit.emit(m) {
                        return;
                    }
                }
            }
            if double {
                for (k, &a) in doubles.iter().enumerate() {
                    for &b in &doubles[k + 1..] {
                        let m = QuinqueMove::Capture {
                            target: cell(t),
                            with: cell(a),
                            second: Some(cell(b)),
                        };
                        if !emit.emit(m) {
                            return;
                        }
                    }
                }
            }
        }
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.result.map(|(winner, reason, line)| Outcome {
            winner: Some(winner),
            reason,
            cells: (0..CELLS)
                .filter(|&i| line & (1 << i) != 0)
                .map(cell)
                .collect(),
        })
    }

    /// The stack on cell `i` in protocol notation: `.`, `w1`..`w3`, `b1`..`b3`.
    pub fn cell_text(&self, i: usize) -> String {
        match self.stacks[i] {
            0 => ".".to_string(),
            h if h > 0 => format!("w{h}"),
            h => format!("b{}", -h),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The shortcut of `has_legal_move` agrees with generating the moves,
    /// through whole random games (to the `no_moves` ends too).
    #[test]
    fn has_legal_move_agrees_with_the_generator() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut no_moves = 0;
        for _ in 0..200 {
            let mut state = QuinqueState::default();
            while state.result.is_none() {
                let moves = state.legal_moves();
                let mut generated = false;
                state.generate(&mut |_| {
                    generated = true;
                    false
                });
                assert_eq!(state.has_legal_move(), generated);
                assert_eq!(generated, !moves.is_empty());
                state.play(moves.choose(&mut rng).unwrap()).unwrap();
            }
            if let Some((_, RuleReason::NoMoves, _)) = state.result {
                assert!(!state.has_legal_move());
                no_moves += 1;
            }
        }
        assert!(no_moves > 0, "some games end without moves");
    }
}
