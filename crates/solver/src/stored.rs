//! The values the stored strategies (`crates/solver/solutions/`, written
//! by [`crate::strategy`], walked by tests/rules/solver/solutions.rs)
//! prove, by the solver's key: what the settled table knows without a file.

use arena_rules::games::Variant;

use crate::game::Rules;
use crate::qango::{QangoRules, State};
use crate::Value;

/// The stored strategies (`crates/solver/solutions/`), by variant.
const STORED: &[(&str, &str)] = &[
    ("qango6", include_str!("../solutions/qango6.txt")),
    (
        "qango6-castle",
        include_str!("../solutions/qango6-castle.txt"),
    ),
    ("qango7", include_str!("../solutions/qango7.txt")),
    (
        "qango7-castle",
        include_str!("../solutions/qango7-castle.txt"),
    ),
    ("qango7-pro1", include_str!("../solutions/qango7-pro1.txt")),
    ("qango7-pro2", include_str!("../solutions/qango7-pro2.txt")),
    ("qango7plus", include_str!("../solutions/qango7plus.txt")),
    (
        "qango7plus-edge",
        include_str!("../solutions/qango7plus-edge.txt"),
    ),
];

/// The values the stored strategy of `variant` proves, by the solver's
/// key: each of its positions is a win for the mover, and the position
/// after its move a loss for the next mover. Empty without a strategy.
pub fn stored_values(variant: &'static Variant) -> Vec<(u128, Value)> {
    let Some(&(_, text)) = STORED.iter().find(|(id, _)| *id == variant.id) else {
        return Vec::new();
    };
    // Only a win's file gives values; a draw's ("does not lose") gives
    // bounds, which are not stored here.
    if !text
        .lines()
        .next()
        .is_some_and(|h| h.contains(" wins from "))
    {
        return Vec::new();
    }
    let rules = QangoRules::new(variant);
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut fields = line.split_whitespace();
        let (Some(w), Some(b), Some(m)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        let (Ok(w), Ok(b), Ok(m)) = (
            u64::from_str_radix(w, 16),
            u64::from_str_radix(b, 16),
            m.parse::<u8>(),
        ) else {
            continue;
        };
        let s = State {
            discs: [w, b],
            ply: (w | b).count_ones(),
            lost: false,
        };
        out.push((rules.key(&s), Value::Win));
        out.push((rules.key(&rules.play(&s, m)), Value::Loss));
    }
    out
}
