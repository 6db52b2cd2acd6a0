//! The stored solutions (`solutions/*.txt`) checked by a verifier that
//! knows only the rules crate: from the empty board (after every first
//! move when the second player wins), at every position the winner meets
//! it plays the file's move (or a move that completes a pattern, found by
//! trying every move), and after every legal reply of the opponent the
//! walk goes on, until every line ends in a rule-checked win or a fork
//! (checked here from the rules crate's patterns: two cells completing the
//! winner's patterns at once, none completing the opponent's).
//! Nothing of the solver is used here: the canonical orientation is
//! computed from the rules crate's symmetries, as the file format says.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use arena_rules::games::symmetry::{board_symmetries, symmetries, Symmetry};
use arena_rules::games::variant::QANGO_MAX_DISCS;
use arena_rules::games::{Cell, Color, Move, Position, Variant};

struct Strategy {
    variant: &'static Variant,
    /// The side whose moves the file gives.
    winner: Color,
    /// The file claims only that `winner` does not lose (a draw's file).
    holds: bool,
    moves: HashMap<u128, usize>,
}

fn parse(text: &str) -> Result<Strategy, String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty file")?;
    let words: Vec<&str> = header.split_whitespace().collect();
    let variant = Variant::by_id(words.get(1).ok_or("no variant")?).ok_or("unknown variant")?;
    let winner = match words.get(2) {
        Some(&"white") => Color::White,
        Some(&"black") => Color::Black,
        _ => return Err(format!("header names no winner: {header}")),
    };
    let holds = match words.get(3..5) {
        Some(["wins", "from"]) => false,
        Some(["does", "not"]) if words.get(5) == Some(&"lose") => true,
        _ => {
            return Err(format!(
                "header claims neither a win nor not losing: {header}"
            ))
        }
    };
    if !header.contains("from the empty board") {
        return Err(format!("not a solution of the empty board: {header}"));
    }
    let mut moves = HashMap::new();
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("line {}: {line:?}", n + 2);
        let [w, b, m] = f[..] else { return Err(bad()) };
        let w = u64::from_str_radix(w, 16).map_err(|_| bad())?;
        let b = u64::from_str_radix(b, 16).map_err(|_| bad())?;
        let m: usize = m.parse().map_err(|_| bad())?;
        moves.insert((b as u128) << 64 | w as u128, m);
    }
    Ok(Strategy {
        variant,
        winner,
        holds,
        moves,
    })
}

fn map_mask(s: &Symmetry, mask: u64) -> u64 {
    (0..64)
        .filter(|i| mask >> i & 1 != 0)
        .fold(0, |m, i| m | 1 << s.map_index(i))
}

struct Verifier<'a> {
    strategy: &'a Strategy,
    first: Vec<Symmetry>,
    later: Vec<Symmetry>,
    done: HashSet<u128>,
}

impl<'a> Verifier<'a> {
    fn new(strategy: &'a Strategy) -> Verifier<'a> {
        Verifier {
            strategy,
            first: symmetries(strategy.variant),
            later: board_symmetries(strategy.variant),
            done: HashSet::new(),
        }
    }

    /// The canonical key of `pos` and the symmetry that gives it.
    fn canonical(&self, pos: &Position) -> (u128, &Symmetry) {
        let discs = pos.qango().unwrap().discs;
        let syms = if pos.ply() == 0 {
            &self.first
        } else {
            &self.later
        };
        syms.iter()
            .map(|s| {
                let k = (map_mask(s, discs[1]) as u128) << 64 | map_mask(s, discs[0]) as u128;
                (k, s)
            })
            .min_by_key(|&(k, _)| k)
            .unwrap()
    }

    /// The winner, to move in `pos` without a pattern to complete, has a
    /// fork: a move after which two free cells each complete one of its
    /// patterns, while the opponent has no free cell completing one of
    /// its own (so the opponent's one reply blocks at most one, and wins
    /// nothing), and the disc cap leaves the winner the disc after that
    /// reply. The file leaves these positions out.
    fn wins_by_fork(&self, pos: &Position) -> bool {
        let q = pos.qango().unwrap();
        let me = q.discs[self.strategy.winner.index()];
        let op = q.discs[self.strategy.winner.opponent().index()];
        let free = self.strategy.variant.playable_mask() & !(me | op);
        if pos.ply() + 2 >= QANGO_MAX_DISCS {
            return false;
        }
        let completing = |side: u64, other: u64| -> u64 {
            q.geometry()
                .patterns
                .iter()
                .map(|p| p.mask)
                .filter(|&m| m & other == 0 && (m & !side).count_ones() == 1)
                .fold(0, |cells, m| cells | (m & !side))
                & free
        };
        completing(op, me) == 0
            && (0..64)
                .filter(|c| free >> c & 1 != 0)
                .any(|c| (completing(me | 1 << c, op) & !(1 << c)).count_ones() >= 2)
    }

    fn cell(&self, i: usize) -> Cell {
        Cell::from_index(i, self.strategy.variant.cols())
    }

    /// `pos` has the winner to move: its play wins on every line.
    fn winner_to_move(&mut self, pos: &Position) -> Result<(), String> {
        let line = || {
            pos.history()
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play(&m).unwrap();
            if next
                .outcome()
                .is_some_and(|o| o.winner == Some(self.strategy.winner))
            {
                return Ok(());
            }
        }
        // A line of a "does not lose" file ends where the opponent can no
        // longer win.
        if self.strategy.holds && !can_still_win(pos, self.strategy.winner.opponent()) {
            return Ok(());
        }
        let (key, sym) = self.canonical(pos);
        if self.done.contains(&key) {
            return Ok(());
        }
        let Some(&oriented) = self.strategy.moves.get(&key) else {
            if self.wins_by_fork(pos) {
                return Ok(());
            }
            // A "does not lose" file stops where a pairing holds.
            if self.strategy.holds && holds_by_pairing(pos) {
                return Ok(());
            }
            return Err(format!("no move for the position after {}", line()));
        };
        let index = (0..64)
            .find(|&i| sym.map_index(i) == oriented)
            .ok_or("the move is not a cell")?;
        let mut next = pos.clone();
        next.play(&Move::Qango(self.cell(index)))
            .map_err(|e| format!("after {}: {e}", line()))?;
        if let Some(o) = next.outcome() {
            return match o.winner {
                Some(w) if w == self.strategy.winner => Ok(()),
                None if self.strategy.holds => Ok(()),
                _ => Err(format!("after {} the game ends without the win", line())),
            };
        }
        for reply in next.legal_moves() {
            let mut after = next.clone();
            after.play(&reply).unwrap();
            match after.outcome() {
                None => self.winner_to_move(&after)?,
                Some(o) if o.winner.is_none() && self.strategy.holds => {}
                Some(_) => {
                    return Err(format!(
                        "after {} the opponent's {reply} ends the game",
                        line()
                    ))
                }
            }
        }
        self.done.insert(key);
        Ok(())
    }
}

/// Whether `side` can still complete a pattern.
pub(super) fn can_still_win(pos: &Position, side: Color) -> bool {
    !open_patterns(pos, side).is_empty()
}

/// The patterns `side` can still complete in `pos`: no disc of the other
/// side, no more cells lacking than it has discs left.
pub(super) fn open_patterns(pos: &Position, side: Color) -> Vec<u64> {
    let q = pos.qango().unwrap();
    let mine = q.discs[side.index()];
    let theirs = q.discs[side.opponent().index()];
    let left = QANGO_MAX_DISCS / 2 - mine.count_ones();
    q.geometry()
        .patterns
        .iter()
        .map(|p| p.mask)
        .filter(|m| m & theirs == 0 && (m & !mine).count_ones() <= left)
        .collect()
}

/// The side to move in `pos` has a move after which every pattern the
/// opponent can still complete holds two free cells of a pairing: pairs of
/// free cells, no two sharing a cell, each pattern holding one pair whole.
/// Answering each opponent disc in a pair with the pair's other cell, the
/// side then never lets the opponent complete a pattern.
pub(super) fn holds_by_pairing(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|m| {
        let mut next = pos.clone();
        next.play(&m).unwrap();
        next.outcome().is_none() && pairing(&next).is_some()
    })
}

/// A pairing of the free cells against every pattern the side to move in
/// `pos` can still complete: the pairs as masks of two cells.
pub(super) fn pairing(pos: &Position) -> Option<Vec<u64>> {
    let mine = pos.qango().unwrap().discs[pos.to_move().index()];
    let mut open: Vec<u64> = open_patterns(pos, pos.to_move())
        .into_iter()
        .map(|m| m & !mine)
        .collect();
    open.sort_unstable();
    open.dedup();
    let mut pairs = Vec::new();
    // Ten times the solver's steps, in the same order of search: every
    // pairing the solver finds is found here.
    let mut budget = 200_000u32;
    cover(&open, 0, &mut pairs, &mut budget).then_some(pairs)
}

/// Pairs, disjoint from `used` and each other, one whole in every mask of
/// `open`; at most `budget` steps.
fn cover(open: &[u64], used: u64, pairs: &mut Vec<u64>, budget: &mut u32) -> bool {
    let Some(&tightest) = open.iter().min_by_key(|m| (*m & !used).count_ones()) else {
        return true;
    };
    let free = tightest & !used;
    let cells: Vec<u32> = (0..64).filter(|c| free >> c & 1 != 0).collect();
    for (i, &a) in cells.iter().enumerate() {
        for &b in &cells[i + 1..] {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let pair = 1u64 << a | 1u64 << b;
            let rest: Vec<u64> = open.iter().copied().filter(|m| m & pair != pair).collect();
            pairs.push(pair);
            if cover(&rest, used | pair, pairs, budget) {
                return true;
            }
            pairs.pop();
        }
    }
    false
}

/// `text` with every move replaced by the first cell's.
fn first_cell_everywhere(text: &str) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let moves = lines.map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        format!("{} {} 0\n", f[0], f[1])
    });
    std::iter::once(format!("{header}\n"))
        .chain(moves)
        .collect()
}

/// Verifies a strategy file; the number of positions the winner met.
fn verify(text: &str) -> Result<usize, String> {
    let strategy = parse(text)?;
    let mut v = Verifier::new(&strategy);
    let start = Position::new(strategy.variant);
    if strategy.winner == start.to_move() {
        v.winner_to_move(&start)?;
    } else {
        // The second player wins: after every first move.
        for first in start.legal_moves() {
            let mut next = start.clone();
            next.play(&first).unwrap();
            v.winner_to_move(&next)?;
        }
    }
    Ok(v.done.len())
}

fn stored() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/solver/solutions");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_stored_solution_wins_on_every_line() {
    let files = stored();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for must in ["qango6", "qango6-castle"] {
        assert!(
            names.contains(&must),
            "no stored solution of {must}: {names:?}"
        );
    }
    // A draw is two files, each side's way never to lose.
    for name in &names {
        for (this, other) in [(".white", ".black"), (".black", ".white")] {
            if let Some(variant) = name.strip_suffix(this) {
                let twin = format!("{variant}{other}");
                assert!(
                    names.contains(&twin.as_str()),
                    "{name}: a draw's file without {twin}"
                );
            }
        }
    }
    for (name, text) in &files {
        let strategy = parse(text).unwrap();
        assert_eq!(
            strategy.variant.id,
            name.split('.').next().unwrap(),
            "file {name} solves another variant"
        );
        let met = verify(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(met > 0, "{name}");
    }
}

#[test]
fn the_verifier_refuses_a_strategy_with_a_hole_or_a_wrong_move() {
    let (_, text) = stored().into_iter().find(|(n, _)| n == "qango6").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Without the root's move there is nothing to play.
    let hole: String = lines
        .iter()
        .filter(|l| !l.starts_with("0 0 "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        verify(&hole).unwrap_err().contains("no move"),
        "hole accepted"
    );
    // Every move replaced by the first cell's: illegal or losing somewhere.
    assert!(
        verify(&first_cell_everywhere(&text)).is_err(),
        "wrong moves accepted"
    );
}

#[test]
fn the_verifier_takes_a_fork_only_when_the_opponent_has_nothing_to_complete() {
    let strategy = Strategy {
        variant: Variant::by_id("qango6").unwrap(),
        winner: Color::White,
        holds: false,
        moves: HashMap::new(),
    };
    let v = Verifier::new(&strategy);
    let after = |moves: &[&str]| {
        let mut pos = Position::new(strategy.variant);
        for m in moves {
            pos.play_str(m).unwrap();
        }
        pos
    };
    // White b3 then completes the square b2 c2 b3 c3 at c3 or a2 b2 a3 b3
    // at a2, and black (f1 f3 d6) has nothing to complete: a fork.
    let fork = after(&["b2", "f1", "c2", "f3", "a3", "d6"]);
    assert!(v.wins_by_fork(&fork));
    // The same with black one cell short of the square d5 e5 d6 e6: black
    // blocks one threat and wins at e6 before white plays the other.
    let answered = after(&["b2", "d5", "c2", "e5", "a3", "d6", "f1", "f3"]);
    assert!(!v.wins_by_fork(&answered));
    // Without b2 there is one threat at most: no fork.
    let single = after(&["e2", "f1", "c2", "f3", "a3", "d6"]);
    assert!(!v.wins_by_fork(&single));
}

#[test]
fn a_does_not_lose_file_is_walked_to_the_end_of_every_line() {
    use arena_solver::dfpn::StopAt;
    use arena_solver::strategy::{qango_strategy, Claim};
    // A win is also a way never to lose: the solver writes white's for
    // qango6 as a draw's file would be, and the verifier walks it, lines
    // ending in a win, a draw, or where black can no longer win.
    let start = Position::new(Variant::by_id("qango6").unwrap());
    let claim = Claim::DoesNotLose(Color::White);
    let text = qango_strategy(&start, claim, 16 << 20, StopAt::default(), None).unwrap();
    assert!(
        text.starts_with("# qango6 white does not lose from the empty board"),
        "{}",
        text.lines().next().unwrap()
    );
    assert!(verify(&text).unwrap() > 0);
    // The same moves claimed for black are refused at once, and a file
    // whose every move is the first cell's lets black win somewhere.
    let black = text.replacen("white does not lose", "black does not lose", 1);
    assert!(verify(&black).is_err());
    assert!(
        verify(&first_cell_everywhere(&text)).is_err(),
        "wrong moves accepted"
    );
}

/// Walks every `*.txt` of `$ARENA_PROOFS_DIR`: strategy files
/// `--example strategy` wrote, checked before they are stored, in release
/// mode: `ARENA_PROOFS_DIR=DIR cargo test --release --test rules --
/// --ignored walk_the_strategies_of_a_dir`.
#[test]
#[ignore = "needs $ARENA_PROOFS_DIR; run by hand"]
fn walk_the_strategies_of_a_dir() {
    let dir =
        std::env::var("ARENA_PROOFS_DIR").expect("ARENA_PROOFS_DIR, a directory of strategy files");
    let mut walked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let started = std::time::Instant::now();
        let met = verify(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!(
            "{}: {} holds, {met} positions met, {:.1?}",
            path.display(),
            text.lines().next().unwrap(),
            started.elapsed()
        );
        walked += 1;
    }
    assert!(walked > 0, "no strategy file in {dir}");
}
