//! What values a setting takes ([`Kind`]) and its rule, read from each place
//! a value comes from (a flag's text, a value of the tournament file, a
//! saved `tournament.json`) into one [`Value`]: one reader and one rule per
//! kind, whatever the source. Errors say what was expected in words ("a
//! whole number", never a Rust type).

use std::collections::BTreeSet;
use std::path::PathBuf;

use arena_rules::games::Variant;
use arena_rules::protocol::{parse_time_control, TimeControl, MAX_TIME_MS};

use crate::shard::Shard;
use arena_stats::Goal;

/// The values a setting takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Whole { min: u64, max: u64 },
    /// A positive even whole number up to `max` (games come in pairs).
    Even { max: u64 },
    /// A finite decimal number (its range is the rule of what uses it).
    Decimal,
    /// `per-move=MS`, or `BASE+INC` in seconds; each value at most a week.
    TimeControl,
    /// A variant id, a comma list of ids or `all` (or a list, in a file);
    /// each known, none twice.
    Variants,
    /// Bot names: a list in a file, the flag repeated.
    Names,
    /// One of these words (`-` and `_` alike).
    Choice(&'static [&'static str]),
    /// A path.
    Path,
    /// On or off: a flag without a value, `true`/`false` in a file.
    Switch,
    /// `K/N` with `1 <= K <= N`.
    Shard,
    /// What an adaptive ranking certifies: `order`, `top:K` or `tiers`.
    Goal,
}

/// A setting's value, as its kind reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Whole(u64),
    Decimal(f64),
    TimeControl(TimeControl),
    /// Variant ids or bot names.
    List(Vec<String>),
    /// One word of a [`Kind::Choice`], as defined.
    Word(&'static str),
    Path(PathBuf),
    Switch(bool),
    Shard(Shard),
    Goal(Goal),
}

/// Above this, a whole number's range is told by its ends only when the
/// number is out of it at the top ("too large"); within it, "between".
const SMALL_RANGE: u64 = 1_000_000;

impl Kind {
    /// The value of a flag's text (and of a default).
    pub fn read_text(&self, text: &str) -> Result<Value, String> {
        match self {
            Kind::Whole { .. } | Kind::Even { .. } => {
                let n: i128 = text.trim().parse().map_err(|_| self.mismatch(text))?;
                self.whole(n)
            }
            Kind::Decimal => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Value::Decimal)
                .ok_or_else(|| self.mismatch(text)),
            Kind::TimeControl => time_control(text),
            Kind::Variants => variants(variant_list(text)),
            Kind::Names => Ok(Value::List(vec![text.to_string()])),
            Kind::Choice(words) => choice(words, text),
            Kind::Path => Ok(Value::Path(PathBuf::from(text))),
            Kind::Switch => match text {
                "true" => Ok(Value::Switch(true)),
                "false" => Ok(Value::Switch(false)),
                _ => Err(self.mismatch(text)),
            },
            Kind::Shard => text.parse().map(Value::Shard),
            Kind::Goal => text.parse().map(Value::Goal),
        }
    }

    /// The value of a flag given several times (only names repeat).
    pub fn read_texts(&self, texts: &[String]) -> Result<Value, String> {
        match (self, texts) {
            (Kind::Names, _) => Ok(Value::List(texts.to_vec())),
            (_, [one]) => self.read_text(one),
            _ => Err("is given more than once".into()),
        }
    }

    /// The value of a file's (or a saved `tournament.json`'s) entry.
    pub fn read_toml(&self, value: &toml::Value) -> Result<Value, String> {
        use toml::Value as T;
        match (self, value) {
            (Kind::Whole { .. } | Kind::Even { .. }, T::Integer(n)) => self.whole(i128::from(*n)),
            (Kind::Decimal, T::Integer(n)) => Ok(Value::Decimal(*n as f64)),
            (Kind::Decimal, T::Float(x)) if x.is_finite() => Ok(Value::Decimal(*x)),
            (Kind::TimeControl, T::String(text)) => time_control(text),
            // tournament.json keeps a time control as its protocol object.
            (Kind::TimeControl, T::Table(_)) => value
                .clone()
                .try_into::<TimeControl>()
                .map_err(|_| self.mismatch_value(value))
                .and_then(|tc| tc.check().map(|()| Value::TimeControl(tc))),
            (Kind::Variants, T::String(text)) => variants(variant_list(text)),
            (Kind::Variants | Kind::Names, T::Array(items)) => {
                let names = strings(items).ok_or_else(|| self.mismatch_value(value))?;
                match self {
                    Kind::Variants => variants(names),
                    _ => Ok(Value::List(names)),
                }
            }
            (Kind::Choice(words), T::String(text)) => choice(words, text),
            (Kind::Path, T::String(text)) => Ok(Value::Path(PathBuf::from(text))),
            (Kind::Switch, T::Boolean(on)) => Ok(Value::Switch(*on)),
            (Kind::Shard, T::String(text)) => text.parse().map(Value::Shard),
            (Kind::Goal, T::String(text)) => text.parse().map(Value::Goal),
            _ => Err(self.mismatch_value(value)),
        }
    }

    /// The value of a saved `tournament.json` entry (`null` is no value).
    pub fn read_json(&self, value: &serde_json::Value) -> Option<Result<Value, String>> {
        if value.is_null() {
            return None;
        }
        Some(
            toml::Value::try_from(value)
                .map_err(|_| format!("expected {}", self.expects()))
                .and_then(|value| self.read_toml(&value)),
        )
    }

    /// What the kind takes, in words, for errors and the reference page.
    pub fn expects(&self) -> String {
        match self {
            Kind::Whole { min, max } if *max >= u64::from(u32::MAX) => {
                format!("a whole number, {min} or more")
            }
            Kind::Whole { min, max } if *max == MAX_TIME_MS => {
                format!("a whole number from {min} to {max} (a week in ms)")
            }
            Kind::Whole { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Even { .. } => "a positive even whole number".into(),
            Kind::Decimal => "a number".into(),
            Kind::TimeControl => {
                "a time control: \"per-move=MS\", or \"BASE+INC\" in seconds such as \"10+0.1\""
                    .into()
            }
            Kind::Variants => {
                "a variant id, a comma list of ids or \"all\" (in a file also a list of ids)".into()
            }
            Kind::Names => "a list of bot names (on the command line, the flag repeated)".into(),
            Kind::Choice(words) => format!("one of {}", quoted(words)),
            Kind::Path => "a path".into(),
            Kind::Switch => "true or false (on the command line, the flag alone)".into(),
            Kind::Shard => "K/N with 1 <= K <= N, such as \"2/4\"".into(),
            Kind::Goal => {
                "\"order\", \"top:K\" (K from 1 to the bots less one) or \"tiers\"".into()
            }
        }
    }

    /// The rule of a whole number, on the number as given.
    pub fn whole(&self, n: i128) -> Result<Value, String> {
        match *self {
            Kind::Even { max } => {
                if n <= 0 || n % 2 != 0 {
                    return Err(format!("must be a positive even number (games are played in pairs with colours swapped), got {n}"));
                }
                at_most(n, max).map(Value::Whole)
            }
            Kind::Whole { min, max } => {
                let (lo, hi) = (i128::from(min), i128::from(max));
                if (lo..=hi).contains(&n) {
                    return Ok(Value::Whole(n as u64));
                }
                if max <= SMALL_RANGE {
                    return Err(format!("must be between {min} and {max}, got {n}"));
                }
                match min {
                    _ if n > hi => at_most(n, max).map(Value::Whole),
                    0 => Err(format!("must not be negative, got {n}")),
                    1 => Err(format!("must be positive, got {n}")),
                    _ => Err(format!("must be at least {min}, got {n}")),
                }
            }
            _ => Err(format!(
                "expected {}, got the whole number {n}",
                self.expects()
            )),
        }
    }

    fn mismatch(&self, text: &str) -> String {
        format!("expected {}, got {text:?}", self.expects())
    }

    fn mismatch_value(&self, value: &toml::Value) -> String {
        format!("expected {}, got {}", self.expects(), in_words(value))
    }
}

fn at_most(n: i128, max: u64) -> Result<u64, String> {
    let week = if max == MAX_TIME_MS { ", a week" } else { "" };
    u64::try_from(n)
        .ok()
        .filter(|&v| v <= max)
        .ok_or_else(|| format!("too large: {n} (at most {max}{week})"))
}

/// A TOML value as a person would name it: "the text \"4\"".
pub fn in_words(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => format!("the text {s:?}"),
        toml::Value::Integer(n) => format!("the whole number {n}"),
        toml::Value::Float(x) => format!("the number {x}"),
        toml::Value::Boolean(b) => format!("{b}"),
        toml::Value::Datetime(d) => format!("the date {d}"),
        toml::Value::Array(_) => "a list".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

fn quoted(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn strings(items: &[toml::Value]) -> Option<Vec<String>> {
    items
        .iter()
        .map(|item| item.as_str().map(str::to_string))
        .collect()
}

fn time_control(text: &str) -> Result<Value, String> {
    let tc = parse_time_control(text).map_err(|e| e.to_string())?;
    tc.check()?;
    Ok(Value::TimeControl(tc))
}

fn choice(words: &'static [&'static str], text: &str) -> Result<Value, String> {
    let wanted = text.trim().replace('-', "_");
    words
        .iter()
        .find(|&&w| w == wanted)
        .map(|&w| Value::Word(w))
        .ok_or_else(|| format!("expected one of {}, got {text:?}", quoted(words)))
}

/// `all` (every variant), or a comma-separated list of variant ids.
fn variant_list(text: &str) -> Vec<String> {
    if text.trim() == "all" {
        return Variant::ids().iter().map(|id| id.to_string()).collect();
    }
    text.split(',').map(|id| id.trim().to_string()).collect()
}

/// At least one variant, each known, none twice.
fn variants(ids: Vec<String>) -> Result<Value, String> {
    if ids.is_empty() {
        return Err("names no variant".into());
    }
    let mut seen = BTreeSet::new();
    for id in &ids {
        if Variant::by_id(id).is_none() {
            return Err(format!(
                "unknown variant {id:?}; known: {} (or \"all\")",
                Variant::ids().join(", ")
            ));
        }
        if !seen.insert(id.as_str()) {
            return Err(format!("variant {id:?} is listed twice"));
        }
    }
    Ok(Value::List(ids))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_say_their_range() {
        let j = Kind::Whole { min: 1, max: 1024 };
        assert_eq!(j.read_text("4"), Ok(Value::Whole(4)));
        assert_eq!(
            j.read_text("0").unwrap_err(),
            "must be between 1 and 1024, got 0"
        );
        let grace = Kind::Whole {
            min: 0,
            max: MAX_TIME_MS,
        };
        assert_eq!(
            grace.read_text("-5").unwrap_err(),
            "must not be negative, got -5"
        );
        assert_eq!(
            grace.read_text("604800001").unwrap_err(),
            "too large: 604800001 (at most 604800000, a week)"
        );
        assert_eq!(
            grace.read_text("fast").unwrap_err(),
            "expected a whole number from 0 to 604800000 (a week in ms), got \"fast\""
        );
        let games = Kind::Even { max: 100 };
        assert!(games.read_text("3").unwrap_err().contains("positive even"));
    }

    #[test]
    fn file_values_of_the_wrong_type_are_named_in_words() {
        let games = Kind::Even { max: 100 };
        let err = games
            .read_toml(&toml::Value::String("4".into()))
            .unwrap_err();
        assert_eq!(
            err,
            "expected a positive even whole number, got the text \"4\""
        );
        let sandbox = Kind::Switch;
        assert_eq!(
            sandbox.read_toml(&toml::Value::Integer(1)).unwrap_err(),
            "expected true or false (on the command line, the flag alone), got the whole number 1"
        );
    }

    #[test]
    fn variants_choices_and_time_controls() {
        assert_eq!(
            Kind::Variants.read_text("qango6, quinque"),
            Ok(Value::List(vec!["qango6".into(), "quinque".into()]))
        );
        assert!(Kind::Variants
            .read_text("chess")
            .unwrap_err()
            .contains("qango6"));
        assert!(Kind::Variants
            .read_text("qango6,qango6")
            .unwrap_err()
            .contains("twice"));
        let format = Kind::Choice(&["round_robin", "gauntlet"]);
        assert_eq!(
            format.read_text("round-robin"),
            Ok(Value::Word("round_robin"))
        );
        assert_eq!(
            format.read_text("swiss").unwrap_err(),
            "expected one of \"round_robin\" or \"gauntlet\", got \"swiss\""
        );
        let saved = serde_json::json!({"type": "per_move", "move_ms": 200});
        assert_eq!(
            Kind::TimeControl.read_json(&saved),
            Some(Ok(Value::TimeControl(TimeControl::PerMove {
                move_ms: 200
            })))
        );
        assert!(Kind::TimeControl
            .read_text("per-move=999999999999")
            .unwrap_err()
            .contains("a week"));
    }
}
