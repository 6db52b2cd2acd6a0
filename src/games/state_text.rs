//! STATE written straight to JSON text.
//!
//! The referee sends the state with every turn. [`Position::state_json`]
//! builds a `serde_json::Value` (an allocation per cell and per key) that is
//! then serialized; that cost more than the pipe round trip to the bot.
//! [`Position::write_state_json`] writes the same bytes directly. A test
//! checks that both agree for every variant over whole games.

use std::fmt::Write;

use super::{variant, Position, State};

impl Position {
    /// Appends STATE as JSON text to `out`: byte for byte what
    /// `serde_json::to_string(&self.state_json())` gives (keys in sorted
    /// order, as `serde_json` writes its maps).
    pub fn write_state_json(&self, out: &mut String) {
        let rows = self.variant.rows() as usize;
        let cols = self.variant.cols() as usize;
        let to_move = self.to_move().name();
        out.push_str("{\"board\":[");
        match &self.state {
            State::Qango(s) => {
                let playable = s.geometry().playable;
                for r in 0..rows {
                    out.push_str(if r == 0 { "[" } else { ",[" });
                    for c in 0..cols {
                        if c > 0 {
                            out.push(',');
                        }
                        let bit = 1u64 << (r * cols + c);
                        out.push_str(if playable & bit == 0 {
                            "\"#\""
                        } else if s.discs[0] & bit != 0 {
                            "\"w\""
                        } else if s.discs[1] & bit != 0 {
                            "\"b\""
                        } else {
                            "\".\""
                        });
                    }
                    out.push(']');
                }
                let left = |side: usize| variant::QANGO_MAX_DISCS / 2 - s.discs[side].count_ones();
                let _ = write!(
                    out,
                    "],\"discs\":{{\"black\":{},\"white\":{}}}",
                    left(1),
                    left(0)
                );
            }
            State::Quinque(s) => {
                for r in 0..rows {
                    out.push_str(if r == 0 { "[" } else { ",[" });
                    for c in 0..cols {
                        if c > 0 {
                            out.push(',');
                        }
                        let h = s.stacks[r * cols + c];
                        let owner = if h > 0 { 'w' } else { 'b' };
                        match h.unsigned_abs() {
                            0 => out.push_str("\".\""),
                            height @ 1..=9 => {
                                out.push('"');
                                out.push(owner);
                                out.push((b'0' + height) as char);
                                out.push('"');
                            }
                            height => {
                                let _ = write!(out, "\"{owner}{height}\"");
                            }
                        }
                    }
                    out.push(']');
                }
                out.push_str("],\"locked\":");
                match s.locked {
                    Some(cell) => {
                        let _ = write!(out, "\"{cell}\"");
                    }
                    None => out.push_str("null"),
                }
                let _ = write!(
                    out,
                    ",\"supply\":{{\"black\":{},\"white\":{}}}",
                    s.supply[1], s.supply[0]
                );
            }
        }
        out.push_str(",\"to_move\":\"");
        out.push_str(to_move);
        out.push_str("\"}");
    }
}

#[cfg(test)]
mod tests {
    use crate::games::{Position, Variant};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn text_is_the_serialized_value_over_whole_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for variant in Variant::all() {
            for _ in 0..20 {
                let mut pos = Position::new(variant);
                loop {
                    let mut text = String::new();
                    pos.write_state_json(&mut text);
                    let expected = serde_json::to_string(&pos.state_json()).unwrap();
                    assert_eq!(text, expected, "{} at ply {}", variant.id, pos.ply());
                    if pos.is_over() {
                        break;
                    }
                    let moves = pos.legal_moves();
                    let m = *moves.choose(&mut rng).unwrap();
                    pos.play(&m).unwrap();
                }
            }
        }
    }
}
