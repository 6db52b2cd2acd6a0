//! Qango for the search: two bitboards, the threats and pairings read
//! from the patterns, and a canonical key over the board's symmetries.

use arena_rules::games::geometry::{bits, Geometry};
use arena_rules::games::symmetry::{board_symmetries, symmetries, Symmetry};
use arena_rules::games::variant::QANGO_MAX_DISCS;
use arena_rules::games::{Cell, Color, Family, Move, Position, Variant};

use crate::game::{Glance, Rules};
use crate::pairing::{pairing, STRATEGY_STEPS};

/// Discs each player has.
const DISCS_EACH: u32 = QANGO_MAX_DISCS / 2;
/// Steps the first look at a position gives the search for a pairing,
/// and the most patterns open to a side for it to look.
const GLANCE_STEPS: u32 = 64;
const GLANCE_OPEN: u32 = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    /// Discs of white (`[0]`) and black (`[1]`).
    pub discs: [u64; 2],
    pub ply: u32,
    /// The last move completed a pattern: the mover has lost.
    pub lost: bool,
}

/// A symmetry as byte tables: `table[k][b]` is where the bits `b` of byte
/// `k` of a mask go, so a mask maps in eight lookups.
struct MaskMap {
    table: Box<[[u64; 256]; 8]>,
}

impl MaskMap {
    fn of(s: &Symmetry, cells: usize) -> MaskMap {
        let mut table = Box::new([[0u64; 256]; 8]);
        for (k, row) in table.iter_mut().enumerate() {
            for (b, slot) in row.iter_mut().enumerate() {
                for bit in 0..8 {
                    let i = k * 8 + bit;
                    if b & (1 << bit) != 0 && i < cells {
                        *slot |= 1u64 << s.map_index(i);
                    }
                }
            }
        }
        MaskMap { table }
    }

    #[inline]
    fn map(&self, mask: u64) -> u64 {
        let mut out = 0;
        for k in 0..8 {
            out |= self.table[k][((mask >> (8 * k)) & 0xff) as usize];
        }
        out
    }
}

pub struct QangoRules {
    geometry: &'static Geometry,
    first_move: u64,
    /// Symmetries of the empty board (they keep the first-move cells) and
    /// of every later position (the board's, identity excluded in both).
    first_maps: Vec<MaskMap>,
    later_maps: Vec<MaskMap>,
    /// Cells in search order: those in more patterns first.
    order: Vec<u8>,
}

impl QangoRules {
    pub fn new(variant: &'static Variant) -> QangoRules {
        let Family::Qango(board) = variant.family else {
            panic!("{} is not a Qango variant", variant.id)
        };
        let geometry = board.geometry();
        let cells = geometry.rows as usize * geometry.cols as usize;
        let maps = |syms: Vec<Symmetry>| -> Vec<MaskMap> {
            syms.iter()
                .filter(|s| !s.is_identity())
                .map(|s| MaskMap::of(s, cells))
                .collect()
        };
        let mut order: Vec<u8> = bits(geometry.playable).map(|i| i as u8).collect();
        let weight = |i: u8| geometry.masks_at(i as usize).len();
        order.sort_by_key(|&i| std::cmp::Reverse(weight(i)));
        QangoRules {
            geometry,
            first_move: variant.first_move_mask(),
            first_maps: maps(symmetries(variant)),
            later_maps: maps(board_symmetries(variant)),
            order,
        }
    }

    pub fn state_of(&self, pos: &Position) -> State {
        let q = pos.qango().expect("a Qango position");
        State {
            discs: q.discs,
            ply: q.ply,
            lost: q.win.is_some(),
        }
    }

    /// The canonical key of `s` and a map of moves into that orientation.
    pub fn orient(&self, s: &State) -> (u128, impl Fn(u8) -> u8 + '_) {
        let pack = |w: u64, b: u64| (b as u128) << 64 | w as u128;
        let maps = if s.ply == 0 {
            &self.first_maps
        } else {
            &self.later_maps
        };
        let mut best = (pack(s.discs[0], s.discs[1]), None);
        for m in maps {
            let k = pack(m.map(s.discs[0]), m.map(s.discs[1]));
            if k < best.0 {
                best = (k, Some(m));
            }
        }
        let map = best.1;
        (best.0, move |cell: u8| match map {
            Some(m) => m.map(1u64 << cell).trailing_zeros() as u8,
            None => cell,
        })
    }

    /// Every legal move of `s`, not only those the search tries.
    pub fn all_moves(&self, s: &State) -> Vec<u8> {
        if s.lost || s.ply >= QANGO_MAX_DISCS {
            return Vec::new();
        }
        bits(self.legal(s)).map(|i| i as u8).collect()
    }

    /// Whether the mover wins within three plies: it completes a pattern,
    /// or has a fork (what a strategy file leaves out, [`crate::strategy`]).
    pub fn wins_within_three(&self, s: &State) -> bool {
        if s.lost || s.ply >= QANGO_MAX_DISCS {
            return false;
        }
        let legal = self.legal(s);
        let side = (s.ply % 2) as usize;
        let t = threats(self.geometry, s.discs[side], s.discs[1 - side], 0, 0);
        t.mine & legal != 0 || matches!(answer(&t, legal, s.ply), Answer::Forks)
    }

    /// Whether the mover has a move after which the game goes on and the
    /// opponent's patterns admit a pairing ([`crate::pairing`]): then the
    /// mover cannot lose.
    pub fn holds_by_pairing(&self, s: &State) -> bool {
        let side = (s.ply % 2) as usize;
        self.all_moves(s).into_iter().any(|m| {
            let next = self.play(s, m);
            let op = next.discs[1 - side];
            !next.lost
                && next.ply < QANGO_MAX_DISCS
                && self.legal(&next) != 0
                && pairing(
                    self.geometry,
                    op,
                    next.discs[side],
                    DISCS_EACH - op.count_ones(),
                    STRATEGY_STEPS,
                )
                .is_some()
        })
    }

    fn legal(&self, s: &State) -> u64 {
        let free = self.geometry.playable & !(s.discs[0] | s.discs[1]);
        if s.ply == 0 {
            free & self.first_move
        } else {
            free
        }
    }
}

/// The most patterns a board has (Qango 7: 112).
const MAX_PATTERNS: usize = 128;

/// The two free cells of each pattern one side lacks only two cells of,
/// each pair once: playing either cell makes the other a threat.
struct Pairs {
    masks: [u64; MAX_PATTERNS],
    n: usize,
}

impl Pairs {
    fn new() -> Pairs {
        Pairs {
            masks: [0; MAX_PATTERNS],
            n: 0,
        }
    }

    fn push(&mut self, pair: u64) {
        if !self.masks[..self.n].contains(&pair) {
            self.masks[self.n] = pair;
            self.n += 1;
        }
    }

    /// Every cell of a pair: playing it makes a threat.
    fn cells(&self) -> u64 {
        self.masks[..self.n].iter().fold(0, |a, m| a | m)
    }

    /// The fork cells, leaving out the pairs that meet `taken`: cells in
    /// two different pairs, so that playing one makes two threats at once.
    fn forks(&self, taken: u64) -> u64 {
        let (mut once, mut twice) = (0u64, 0u64);
        for &m in &self.masks[..self.n] {
            if m & taken == 0 {
                twice |= once & m;
                once |= m;
            }
        }
        twice
    }
}

/// Threat cells, the pairs that make threats, and how many patterns each
/// side can still complete.
struct Threats {
    mine: u64,
    theirs: u64,
    my_pairs: Pairs,
    their_pairs: Pairs,
    /// The free cells of the mover's patterns it lacks three cells of.
    my_triples: Pairs,
    /// Patterns each side can still complete (the mover's, the other's).
    open: [u32; 2],
}

fn threats(g: &Geometry, me: u64, op: u64, my_left: u32, op_left: u32) -> Threats {
    let mut t = Threats {
        mine: 0,
        theirs: 0,
        my_pairs: Pairs::new(),
        their_pairs: Pairs::new(),
        my_triples: Pairs::new(),
        open: [0; 2],
    };
    for p in &g.patterns {
        let m = p.mask;
        // A pattern with neither side's disc is open to both.
        if op & m == 0 {
            let missing = m & !me;
            match missing.count_ones() {
                1 => t.mine |= missing,
                2 => t.my_pairs.push(missing),
                3 => t.my_triples.push(missing),
                _ => {}
            }
            t.open[0] += u32::from(missing.count_ones() <= my_left);
        }
        if me & m == 0 {
            let missing = m & !op;
            match missing.count_ones() {
                1 => t.theirs |= missing,
                2 => t.their_pairs.push(missing),
                _ => {}
            }
            t.open[1] += u32::from(missing.count_ones() <= op_left);
        }
    }
    t
}

/// What the mover of a position at `ply` with `legal` moves and threats
/// `t` can do, when it has no winning move of its own.
enum Answer {
    /// It cannot stop the opponent: two threats, or a fork it can neither
    /// break nor outpace.
    Lost,
    /// It wins by a fork: a move making two threats while the opponent
    /// has none, then the one left open.
    Forks,
    /// It wins by a threat whose one block leaves it a fork.
    ThreatThenFork,
    /// Only these moves do not lose at once: the block of a threat; or,
    /// when the opponent has a fork, the moves that make a threat (the
    /// opponent must answer them) and those after which no fork is left.
    Only(u64),
}

/// The mover (with no threat and no fork, the opponent with no threat)
/// has a move making one threat whose block makes the opponent no threat
/// and leaves the mover a fork.
fn threat_then_fork(t: &Threats, legal: u64) -> bool {
    let theirs = t.their_pairs.cells();
    let pairs = &t.my_pairs.masks[..t.my_pairs.n];
    for &pair in pairs {
        let low = pair & pair.wrapping_neg();
        for (c, o) in [(low, pair & !low), (pair & !low, low)] {
            if o & theirs != 0 || c & legal == 0 {
                continue;
            }
            let mut after = Pairs::new();
            for &q in pairs {
                if q & (c | o) == 0 {
                    after.push(q);
                }
            }
            for &tr in &t.my_triples.masks[..t.my_triples.n] {
                if tr & c != 0 && tr & o == 0 {
                    after.push(tr & !c);
                }
            }
            if after.forks(0) & legal & !(c | o) != 0 {
                return true;
            }
        }
    }
    false
}

fn answer(t: &Threats, legal: u64, ply: u32) -> Answer {
    let blocks = t.theirs & legal;
    // Two threats: the mover stops one and the opponent, who has a disc
    // left while the total is under the cap, plays the other.
    if blocks.count_ones() >= 2 && ply + 1 < QANGO_MAX_DISCS {
        return Answer::Lost;
    }
    if blocks != 0 {
        return Answer::Only(blocks & blocks.wrapping_neg());
    }
    // A fork: the mover plays it, the opponent (without a threat, so
    // without a winning move) stops one threat, the mover plays the other.
    if ply + 2 < QANGO_MAX_DISCS && t.my_pairs.forks(0) & legal != 0 {
        return Answer::Forks;
    }
    if ply + 4 < QANGO_MAX_DISCS && threat_then_fork(t, legal) {
        return Answer::ThreatThenFork;
    }
    if ply + 3 >= QANGO_MAX_DISCS || t.their_pairs.forks(0) & legal == 0 {
        return Answer::Only(legal);
    }
    // The opponent has a fork. A move that makes no threat and leaves a
    // fork loses: the opponent plays the fork and the mover, with no
    // threat to answer with, can stop only one of the two.
    let forcing = t.my_pairs.cells() & legal;
    let mut keep = forcing;
    for c in bits(t.their_pairs.cells() & legal & !forcing) {
        let cell = 1u64 << c;
        if t.their_pairs.forks(cell) & legal & !cell == 0 {
            keep |= cell;
        }
    }
    if keep == 0 {
        Answer::Lost
    } else {
        Answer::Only(keep)
    }
}

impl Rules for QangoRules {
    type State = State;
    type Move = u8;

    #[inline]
    fn mover(&self, s: &State) -> Color {
        Color::to_move_at(s.ply)
    }

    fn key(&self, s: &State) -> u128 {
        let pack = |w: u64, b: u64| (b as u128) << 64 | w as u128;
        let maps = if s.ply == 0 {
            &self.first_maps
        } else {
            &self.later_maps
        };
        let mut best = pack(s.discs[0], s.discs[1]);
        for m in maps {
            best = best.min(pack(m.map(s.discs[0]), m.map(s.discs[1])));
        }
        best
    }

    fn glance(&self, s: &State) -> Glance {
        if s.lost {
            return Glance::Lost;
        }
        let legal = self.legal(s);
        if legal == 0 || s.ply >= QANGO_MAX_DISCS {
            return Glance::Drawn;
        }
        let side = (s.ply % 2) as usize;
        let (me, op) = (s.discs[side], s.discs[1 - side]);
        let placed = |d: u64| d.count_ones();
        let t = threats(
            self.geometry,
            me,
            op,
            DISCS_EACH - placed(me),
            DISCS_EACH - placed(op),
        );
        if t.mine & legal != 0 {
            return Glance::Won;
        }
        let moves = match answer(&t, legal, s.ply) {
            Answer::Lost => return Glance::Lost,
            Answer::Forks | Answer::ThreatThenFork => return Glance::Won,
            Answer::Only(keep) => keep.count_ones(),
        };
        // A side can win while a pattern is open to it and it faces no
        // pairing (the mover's own, the mover to move; the opponent's, the
        // mover a disc ahead of it). A pairing is looked for only where
        // few patterns are open, where it is cheap.
        let can_win = |attacker: u64, defender: u64, open: u32| {
            open > 0
                && (open > GLANCE_OPEN
                    || pairing(
                        self.geometry,
                        attacker,
                        defender,
                        DISCS_EACH - placed(attacker),
                        GLANCE_STEPS,
                    )
                    .is_none())
        };
        let mover_can_win = can_win(me, op, t.open[0]);
        let opponent_can_win = can_win(op, me, t.open[1]);
        if !mover_can_win && !opponent_can_win {
            return Glance::Drawn;
        }
        Glance::Open {
            moves,
            mover_can_win,
            opponent_can_win,
        }
    }

    fn moves(&self, s: &State, out: &mut Vec<u8>) {
        out.clear();
        let legal = self.legal(s);
        let side = (s.ply % 2) as usize;
        let (me, op) = (s.discs[side], s.discs[1 - side]);
        let t = threats(self.geometry, me, op, DISCS_EACH, DISCS_EACH);
        if t.mine & legal != 0 {
            out.push(t.mine.trailing_zeros() as u8);
            return;
        }
        let keep = match answer(&t, legal, s.ply) {
            Answer::Only(keep) => keep,
            Answer::Lost | Answer::Forks | Answer::ThreatThenFork => legal,
        };
        out.extend(self.order.iter().copied().filter(|&i| keep >> i & 1 != 0));
    }

    #[inline]
    fn play(&self, s: &State, m: u8) -> State {
        let side = (s.ply % 2) as usize;
        let mut next = *s;
        next.discs[side] |= 1u64 << m;
        next.ply += 1;
        next.lost = self
            .geometry
            .completed_at(next.discs[side], m as usize)
            .is_some();
        next
    }

    fn to_move(&self, _s: &State, m: u8) -> Move {
        Move::Qango(Cell::from_index(m as usize, self.geometry.cols))
    }
}
