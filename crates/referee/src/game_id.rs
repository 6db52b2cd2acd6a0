//! The one spelling of a tournament game's id: `gN`, where N is the game's
//! number in the schedule (0-based, unique within a tournament). Every file,
//! page and message a person or a program reads spells it so: `game_id` in
//! `games.jsonl`, `games.csv` and `analysis.csv`, the protocol's `game_id`,
//! the viewer's links (`#game=g7`), the live page and the terminal's lines.
//! Inside arena the number is kept ([`super::GameRow::id`]).
//!
//! Files written before the spelling was one are still read: a journal line
//! with `"id":7` as well as `"game_id":"g7"`, a `games.csv` or
//! `analysis.csv` whose id column holds a bare `7` ([`number_of`]).

/// The id of game `number` of a schedule: `g7`.
pub fn game_id(number: u64) -> String {
    format!("g{number}")
}

/// The number of a `gN` id; `None` for anything else (an id that is no
/// tournament's, such as `arena play`'s `play`).
pub fn parse_game_id(id: &str) -> Option<u64> {
    let digits = id.strip_prefix('g')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The number of a game id read from a file: `gN`, or a bare `N` as files
/// written before ids were spelled `gN` hold it. The error says what is
/// wrong with `text`.
pub fn number_of(text: &str) -> Result<u64, String> {
    parse_game_id(text)
        .or_else(|| text.parse().ok().filter(|_| !text.starts_with('+')))
        .ok_or_else(|| format!("{text:?} is not a game id (gN, e.g. g7)"))
}

/// Serde of a game number as its id: written `"gN"`; read from `"gN"`, a
/// bare number or a string of digits (files of older versions). For
/// `#[serde(with = "arena_referee::game_id::spelled")]` on a `u64`.
pub mod spelled {
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(number: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("g{number}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(IdVisitor)
    }

    struct IdVisitor;

    impl Visitor<'_> for IdVisitor {
        type Value = u64;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a game id (gN, e.g. g7)")
        }

        fn visit_u64<E: de::Error>(self, n: u64) -> Result<u64, E> {
            Ok(n)
        }

        fn visit_i64<E: de::Error>(self, n: i64) -> Result<u64, E> {
            u64::try_from(n).map_err(|_| E::custom(format!("{n} is not a game id (gN, e.g. g7)")))
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<u64, E> {
            super::number_of(text).map_err(E::custom)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_g_and_the_number_and_old_bare_numbers_are_read() {
        assert_eq!(game_id(17), "g17");
        assert_eq!(parse_game_id("g17"), Some(17));
        for not in ["g", "17", "g-1", "g+1", "gx", "play", "G1", "g1 "] {
            assert_eq!(parse_game_id(not), None, "{not}");
        }
        assert_eq!(number_of("g0"), Ok(0));
        assert_eq!(number_of("7"), Ok(7));
        for bad in ["", "+7", "-7", "x7", "g7x"] {
            let err = number_of(bad).unwrap_err();
            assert!(err.contains("is not a game id"), "{err}");
        }
    }

    #[test]
    fn the_serde_spelling_writes_g_and_reads_every_old_form() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct R {
            #[serde(with = "spelled")]
            game_id: u64,
        }
        let text = serde_json::to_string(&R { game_id: 4 }).unwrap();
        assert_eq!(text, r#"{"game_id":"g4"}"#);
        for old in [
            r#"{"game_id":"g4"}"#,
            r#"{"game_id":4}"#,
            r#"{"game_id":"4"}"#,
        ] {
            assert_eq!(serde_json::from_str::<R>(old).unwrap(), R { game_id: 4 });
        }
        let err = serde_json::from_str::<R>(r#"{"game_id":"x"}"#).unwrap_err();
        assert!(err.to_string().contains("is not a game id"), "{err}");
    }
}
