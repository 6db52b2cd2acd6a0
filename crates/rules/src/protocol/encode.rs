//! Encoding a message as exactly one protocol line.
//!
//! `serde_json` escapes newlines inside strings, so the encoded object never
//! contains a raw `\n`; the only newline is the terminator appended here.

use serde::Serialize;

use super::messages::{BotMessage, RefereeMessage};

/// One `\n`-terminated line for a referee -> bot message.
pub fn encode_line(msg: &RefereeMessage) -> String {
    to_line(msg)
}

impl RefereeMessage {
    /// Same as [`encode_line`].
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

impl BotMessage {
    /// One `\n`-terminated line for a bot -> referee message (for bots written in Rust).
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

fn to_line<T: Serialize>(msg: &T) -> String {
    // Cannot fail: the message types hold only strings, numbers, enums and
    // `serde_json::Value`, whose object keys are always strings.
    let mut line = serde_json::to_string(msg).expect("protocol messages always serialize to JSON");
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Color, GameResult, RuleReason};
    use crate::protocol::decode::{decode_bot_line, decode_referee_line};
    use crate::protocol::messages::*;
    use serde_json::json;

    fn sample_turn() -> RefereeMessage {
        RefereeMessage::Turn(Turn {
            game_id: "g17".into(),
            variant: "qango6".into(),
            color: Color::White,
            ply: 2,
            state: json!({"board": [[".", "w"], ["b", "#"]], "to_move": "white",
                          "note": "multi\nline"}),
            history: vec!["a1".into(), "b2".into()],
            legal_moves: vec!["c3".into()],
            clock: TurnClock {
                white_ms: None,
                black_ms: None,
                move_ms: 1000,
                basis: Default::default(),
            },
        })
    }

    #[test]
    fn encodes_quit_and_hello_exactly() {
        assert_eq!(encode_line(&RefereeMessage::Quit), "{\"type\":\"quit\"}\n");
        let hello = RefereeMessage::Hello(Hello {
            protocol: 1,
            referee: "arena 0.1.0".into(),
        });
        assert_eq!(
            hello.to_line(),
            "{\"type\":\"hello\",\"protocol\":1,\"referee\":\"arena 0.1.0\"}\n"
        );
    }

    #[test]
    fn turn_is_one_line_with_null_clocks_and_round_trips() {
        let turn = sample_turn();
        let line = encode_line(&turn);
        assert_eq!(line.matches('\n').count(), 1);
        assert!(line.ends_with('\n'));
        assert!(line.contains("\"white_ms\":null"), "{line}");
        assert_eq!(decode_referee_line(line.as_bytes()), Ok(turn));
    }

    #[test]
    fn game_over_and_time_controls_use_wire_spellings() {
        let over = RefereeMessage::GameOver(GameOver {
            game_id: "g1".into(),
            result: GameResult::Draw,
            winner: None,
            reason: RuleReason::Full.into(),
            cells: vec![],
            message: "board full".into(),
        });
        let line = over.to_line();
        assert!(line.contains("\"result\":\"1/2-1/2\""), "{line}");
        assert!(line.contains("\"winner\":null"), "{line}");
        assert!(line.contains("\"reason\":\"full\""), "{line}");
        assert_eq!(decode_referee_line(line.as_bytes()), Ok(over));

        let tc = serde_json::to_string(&TimeControl::PerMove { move_ms: 250 }).unwrap();
        assert_eq!(tc, r#"{"type":"per_move","move_ms":250}"#);
    }

    #[test]
    fn bot_messages_round_trip_and_omit_absent_options() {
        let ready = BotMessage::Ready(Ready {
            name: "x".into(),
            protocol: 1,
            author: None,
            version: None,
        });
        let line = ready.to_line();
        assert_eq!(line, "{\"type\":\"ready\",\"name\":\"x\",\"protocol\":1}\n");
        assert_eq!(decode_bot_line(line.as_bytes()), Ok(ready));
        let mv = BotMessage::Move(BotMove {
            mv: "place c3".into(),
            comment: Some("eval +1".into()),
        });
        assert_eq!(decode_bot_line(mv.to_line().as_bytes()), Ok(mv));
    }

    #[test]
    fn result_follows_winner() {
        assert_eq!(GameResult::from_winner(Some(Color::Black)).as_str(), "0-1");
        assert_eq!(GameResult::from_winner(None), GameResult::Draw);
        assert_eq!(Color::White.opponent(), Color::Black);
    }
}
