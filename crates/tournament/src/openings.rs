//! Opening suites: the suite file format, the order in which a tournament
//! takes its openings, and where each game pair's opening comes from.
//!
//! A suite file holds one opening per line, as moves in RULES.md notation
//! separated by spaces (`c3 d4 a1`; Quinque moves keep their words:
//! `place a1 place e5 double a1`). `#` starts a comment; blank lines are
//! ignored. Every line is played through the rules engine when the
//! tournament starts, so a bad line is refused before any game, naming the
//! file, the line, the move and why.
//!
//! Pair `p` plays opening `(start + p) mod n` of the suite (in file order,
//! or in one seeded shuffle of it with `openings_order = "random"`): a suite
//! shorter than the number of pairs is cycled. The opening of a pair is a
//! pure function of the settings, the seed and the pair number; nothing but
//! the suite itself is held in memory.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, bail};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use arena_rules::games::{Family, Position, Variant};

/// Random openings tried per pair before giving up on `opening_plies`.
const OPENING_ATTEMPTS: usize = 1000;

/// The order in which a tournament takes the suite's openings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningOrder {
    /// File order, from `start`.
    #[default]
    Sequential,
    /// One shuffle of the suite, seeded by the tournament seed.
    Random,
}

impl OpeningOrder {
    /// Its word in settings and messages.
    pub fn name(self) -> &'static str {
        match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        }
    }
}

/// A suite as a tournament uses it. `tournament.json` stores the openings
/// themselves (with the file's path and SHA-256 for the record), so a
/// resumed run plays the same openings even if the file has changed or gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpeningSuite {
    /// The suite file as given (absolute when read from a tournament file).
    pub file: PathBuf,
    /// SHA-256 of the file's bytes, hex.
    pub sha256: String,
    pub order: OpeningOrder,
    /// Index (in `order`) of the opening of pair 0.
    pub start: u64,
    /// The openings, each a list of moves in notation.
    pub openings: Vec<Vec<String>>,
}

/// The moves of one suite line. Qango moves are single words; a Quinque
/// move is its action word followed by its cells (`capture d4 b2 e5`).
pub fn split_moves(variant: &Variant, line: &str) -> Vec<String> {
    let words = line.split_whitespace();
    match variant.family {
        Family::Qango(_) => words.map(String::from).collect(),
        Family::Quinque => {
            let mut moves: Vec<String> = Vec::new();
            for word in words {
                match moves.last_mut() {
                    Some(last) if word.chars().any(|c| c.is_ascii_digit()) => {
                        last.push(' ');
                        last.push_str(word);
                    }
                    _ => moves.push(word.to_string()),
                }
            }
            moves
        }
    }
}

/// One opening written as a suite line.
pub fn suite_line(opening: &[String]) -> String {
    opening.join(" ")
}

/// Reads the openings of a suite file's `text`, checking each against
/// `variant`. Errors read "FILE:LINE: move N "m" is illegal in VARIANT: why".
pub fn parse_suite(
    variant: &'static Variant,
    path: &Path,
    text: &str,
) -> anyhow::Result<Vec<Vec<String>>> {
    let mut openings = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let moves = split_moves(variant, line);
        check_opening(variant, &moves)
            .map_err(|e| anyhow!("{}:{}: {e}", path.display(), index + 1))?;
        openings.push(moves);
    }
    if openings.is_empty() {
        bail!(
            "{}: the opening suite has no openings (one opening per line, `#` comments)",
            path.display()
        );
    }
    Ok(openings)
}

/// Plays `moves` from the start of `variant`; the opening must leave the
/// game unfinished. Returns the position reached.
pub fn check_opening(variant: &'static Variant, moves: &[String]) -> Result<Position, String> {
    let mut pos = Position::new(variant);
    for (n, text) in moves.iter().enumerate() {
        if pos.is_over() {
            return Err(format!(
                "move {} {text:?} comes after the game is already over",
                n + 1
            ));
        }
        pos.play_str(text)
            .map_err(|e| format!("move {} {text:?} is illegal in {}: {e}", n + 1, variant.id))?;
    }
    if pos.is_over() || pos.legal_moves().is_empty() {
        return Err(format!(
            "the opening {:?} already ends the game",
            suite_line(moves)
        ));
    }
    Ok(pos)
}

/// Where each game pair's opening comes from.
#[derive(Debug, Clone)]
pub enum Openings {
    /// A seeded random legal opening of `plies` moves per pair.
    Random { plies: u32, seed: u64 },
    /// Openings of a suite: pair `p` plays `suite[order[(start + p) % n]]`
    /// (`order` empty: file order).
    Suite {
        openings: Arc<[Vec<String>]>,
        order: Arc<[u32]>,
        start: u64,
    },
}

impl Openings {
    pub fn from_suite(suite: &OpeningSuite, seed: u64) -> Openings {
        let order = match suite.order {
            OpeningOrder::Sequential => Vec::new(),
            OpeningOrder::Random => shuffled(suite.openings.len(), seed),
        };
        Openings::Suite {
            openings: suite.openings.clone().into(),
            order: order.into(),
            start: suite.start,
        }
    }

    /// The opening of game pair `pair`.
    pub fn for_pair(&self, variant: &'static Variant, pair: u64) -> anyhow::Result<Vec<String>> {
        match self {
            Openings::Random { plies, seed } => random_opening(variant, *plies, *seed, pair),
            Openings::Suite {
                openings,
                order,
                start,
            } => {
                let n = openings.len() as u64;
                if n == 0 {
                    bail!("the opening suite is empty");
                }
                let k = (start % n + pair % n) % n;
                let index = match order.get(k as usize) {
                    Some(&i) => i as usize,
                    None => k as usize,
                };
                Ok(openings[index].clone())
            }
        }
    }
}

/// `0..n` in a seeded shuffle (its own ChaCha stream, apart from the
/// random openings' per-pair streams).
fn shuffled(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::MAX);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(&mut rng);
    order
}

/// A uniformly random legal opening of `plies` moves for pair `pair`, which
/// leaves the game unfinished with a move to make. Deterministic in
/// (`variant`, `plies`, `seed`, `pair`).
pub fn random_opening(
    variant: &'static Variant,
    plies: u32,
    seed: u64,
    pair: u64,
) -> anyhow::Result<Vec<String>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(pair);
    'attempt: for _ in 0..OPENING_ATTEMPTS {
        let mut pos = Position::new(variant);
        let mut moves = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if pos.is_over() || legal.is_empty() {
                continue 'attempt;
            }
            let m = legal[rng.gen_range(0..legal.len())];
            pos.play(&m).expect("a move from legal_moves is legal");
            moves.push(m.to_string());
        }
        if !pos.is_over() && !pos.legal_moves().is_empty() {
            return Ok(moves);
        }
    }
    bail!(
        "no random {plies}-ply opening of {} left the game unfinished in {OPENING_ATTEMPTS} tries; use fewer opening plies",
        variant.id
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_deterministic_and_differ_between_pairs() {
        let v = Variant::by_id("qango6").unwrap();
        let a = random_opening(v, 4, 1, 0).unwrap();
        assert_eq!(a.len(), 4);
        assert_eq!(a, random_opening(v, 4, 1, 0).unwrap());
        let others: Vec<_> = (1..20)
            .map(|p| random_opening(v, 4, 1, p).unwrap())
            .collect();
        assert!(others.iter().any(|o| *o != a));
        assert_ne!(a, random_opening(v, 4, 2, 0).unwrap());
        assert!(random_opening(v, 0, 1, 0).unwrap().is_empty());
    }

    #[test]
    fn impossible_opening_lengths_are_an_error() {
        let v = Variant::by_id("qango6").unwrap();
        let err = random_opening(v, 40, 1, 0).unwrap_err().to_string();
        assert!(err.contains("fewer opening plies"), "{err}");
    }

    fn variant(id: &str) -> &'static Variant {
        Variant::by_id(id).unwrap()
    }

    #[test]
    fn suites_skip_comments_and_blank_lines() {
        let text = "# my suite\n\na1 b2\n  c3 d4 # two moves\n";
        let suite = parse_suite(variant("qango6"), Path::new("s.txt"), text).unwrap();
        assert_eq!(suite, vec![vec!["a1", "b2"], vec!["c3", "d4"]]);
    }

    #[test]
    fn an_illegal_line_names_file_line_move_and_why() {
        let text = "a1 b2\n# comment\na1 a1\n";
        let err = parse_suite(variant("qango6"), Path::new("s.txt"), text)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("s.txt:3: move 2 \"a1\" is illegal in qango6"),
            "{err}"
        );
        let err = parse_suite(variant("qango6"), Path::new("s.txt"), "zz9\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("s.txt:1: move 1 \"zz9\""), "{err}");
        // RULES.md: Qango 6 tournament, the first disc must go on the edge.
        let err = parse_suite(variant("qango6-tournament"), Path::new("t"), "c3\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("t:1: move 1 \"c3\" is illegal"), "{err}");
        let err = parse_suite(variant("qango6"), Path::new("e"), "# nothing\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no openings"), "{err}");
    }

    #[test]
    fn quinque_moves_keep_their_words() {
        let v = variant("quinque");
        assert_eq!(
            split_moves(v, "place a1 place e5  double a1"),
            vec!["place a1", "place e5", "double a1"]
        );
        let suite = parse_suite(v, Path::new("q"), "place a1 place e5 double a1\n").unwrap();
        assert_eq!(suite[0].len(), 3);
        // The centre c3 is closed to the first move (RULES.md).
        assert!(parse_suite(v, Path::new("q"), "place c3\n").is_err());
    }

    #[test]
    fn pairs_cycle_through_the_suite_from_start() {
        let suite = OpeningSuite {
            file: "s".into(),
            sha256: String::new(),
            order: OpeningOrder::Sequential,
            start: 1,
            openings: vec![vec!["a1".into()], vec!["b2".into()], vec!["c3".into()]],
        };
        let v = variant("qango6");
        let openings = Openings::from_suite(&suite, 5);
        let firsts: Vec<String> = (0..5)
            .map(|p| openings.for_pair(v, p).unwrap()[0].clone())
            .collect();
        assert_eq!(firsts, ["b2", "c3", "a1", "b2", "c3"]);

        let random = OpeningSuite {
            order: OpeningOrder::Random,
            ..suite
        };
        let a = Openings::from_suite(&random, 5);
        let cycle: Vec<_> = (0..3).map(|p| a.for_pair(v, p).unwrap()).collect();
        let mut sorted = cycle.clone();
        sorted.sort();
        assert_eq!(sorted, random.openings, "each opening once per cycle");
        assert_eq!(a.for_pair(v, 3).unwrap(), cycle[0]);
        let again = Openings::from_suite(&random, 5);
        assert_eq!(again.for_pair(v, 2).unwrap(), cycle[2]);
    }
}
