//! Decoding one untrusted line into a typed message.
//!
//! Bots are untrusted: a line may be binary garbage, half a JSON object, a
//! message meant for the other direction, or 100 MB long. Every such line
//! yields a [`ProtocolError`] whose message names the problem and quotes the
//! start of the line, so that the `game_over` message and the referee log tell
//! the bot author what to fix. Decoding never panics.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::messages::{BotMessage, RefereeMessage};
use super::MAX_LINE_BYTES;

/// How many characters of an offending line an error message quotes.
const SNIPPET_CHARS: usize = 80;

/// Why a line is not a valid protocol message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("line is {len} bytes, longer than the limit of {max} bytes")]
    LineTooLong { len: usize, max: usize },

    #[error("line is not valid UTF-8 (bad byte at offset {offset}): {snippet}")]
    InvalidUtf8 { offset: usize, snippet: String },

    #[error("empty line; expected a JSON object with \"type\"")]
    Empty,

    #[error("expected a JSON object with \"type\", got invalid JSON ({error}): {snippet}")]
    NotJson { error: String, snippet: String },

    #[error("expected a JSON object with \"type\", got: {snippet}")]
    NotAnObject { snippet: String },

    #[error("JSON object has no \"type\" field: {snippet}")]
    MissingType { snippet: String },

    #[error("\"type\" must be a string, got: {found}")]
    TypeNotString { found: String },

    #[error("unknown message type \"{found}\"; expected {expected}")]
    UnknownType {
        found: String,
        expected: &'static str,
    },

    #[error("invalid \"{msg_type}\" message: {error}")]
    InvalidFields {
        msg_type: &'static str,
        error: String,
    },
}

/// What a bot may send: used in `UnknownType` errors.
const BOT_TYPES: &str = "\"ready\" or \"move\"";
/// What the referee may send: used in `UnknownType` errors.
const REFEREE_TYPES: &str = "\"hello\", \"new_game\", \"turn\", \"game_over\" or \"quit\"";

/// Decode one line written by a bot (without or with its trailing `\n`).
pub fn decode_bot_line(line: &[u8]) -> Result<BotMessage, ProtocolError> {
    let (msg_type, object) = decode_object(line)?;
    match msg_type.as_str() {
        "ready" => fields("ready", object).map(BotMessage::Ready),
        "move" => fields("move", object).map(BotMessage::Move),
        _ => Err(ProtocolError::UnknownType {
            found: snippet(&msg_type),
            expected: BOT_TYPES,
        }),
    }
}

/// Decode one line written by the referee; for bots written in Rust and for tests.
///
/// A bot should ignore [`ProtocolError::UnknownType`] here: newer referees may
/// send message types this version does not know.
pub fn decode_referee_line(line: &[u8]) -> Result<RefereeMessage, ProtocolError> {
    let (msg_type, object) = decode_object(line)?;
    match msg_type.as_str() {
        "hello" => fields("hello", object).map(RefereeMessage::Hello),
        "new_game" => fields("new_game", object).map(RefereeMessage::NewGame),
        "turn" => fields("turn", object).map(RefereeMessage::Turn),
        "game_over" => fields("game_over", object).map(RefereeMessage::GameOver),
        "quit" => Ok(RefereeMessage::Quit),
        _ => Err(ProtocolError::UnknownType {
            found: snippet(&msg_type),
            expected: REFEREE_TYPES,
        }),
    }
}

/// Checks size, encoding and JSON shape; returns the `"type"` and the whole object.
fn decode_object(line: &[u8]) -> Result<(String, Map<String, Value>), ProtocolError> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_LINE_BYTES {
        return Err(ProtocolError::LineTooLong {
            len: line.len(),
            max: MAX_LINE_BYTES,
        });
    }
    let text = std::str::from_utf8(line).map_err(|e| ProtocolError::InvalidUtf8 {
        offset: e.valid_up_to(),
        snippet: snippet(&String::from_utf8_lossy(line)),
    })?;
    if text.trim().is_empty() {
        return Err(ProtocolError::Empty);
    }
    let value: Value = serde_json::from_str(text).map_err(|e| ProtocolError::NotJson {
        error: e.to_string(),
        snippet: snippet(text),
    })?;
    let Value::Object(mut object) = value else {
        return Err(ProtocolError::NotAnObject {
            snippet: snippet(text),
        });
    };
    match object.remove("type") {
        None => Err(ProtocolError::MissingType {
            snippet: snippet(text),
        }),
        Some(Value::String(msg_type)) => Ok((msg_type, object)),
        Some(other) => Err(ProtocolError::TypeNotString {
            found: snippet(&other.to_string()),
        }),
    }
}

/// Reads the fields of a message whose type is already known.
fn fields<T: DeserializeOwned>(
    msg_type: &'static str,
    object: Map<String, Value>,
) -> Result<T, ProtocolError> {
    // serde's own error names neither the field nor the JSON type ("invalid
    // type: string \"1\", expected u32"); the explanation does, and runs only
    // when reading failed.
    let value = Value::Object(object);
    T::deserialize(&value).map_err(|e| ProtocolError::InvalidFields {
        msg_type,
        error: match &value {
            Value::Object(object) => explain_fields(msg_type, object),
            _ => None,
        }
        .unwrap_or_else(|| snippet(&e.to_string())),
    })
}

/// The JSON type a message field must have, in the words of JSON itself.
#[derive(Clone, Copy)]
enum FieldType {
    String,
    Integer,
}

impl FieldType {
    fn name(self) -> &'static str {
        match self {
            FieldType::String => "a JSON string",
            FieldType::Integer => "a JSON number (a whole number, not in quotes)",
        }
    }

    fn accepts(self, value: &Value) -> bool {
        match self {
            FieldType::String => value.is_string(),
            FieldType::Integer => value.as_u64().is_some_and(|n| n <= u64::from(u32::MAX)),
        }
    }
}

/// The fields of each message a bot sends: name, type, required.
fn field_schema(msg_type: &str) -> &'static [(&'static str, FieldType, bool)] {
    match msg_type {
        "ready" => &[
            ("name", FieldType::String, true),
            ("protocol", FieldType::Integer, true),
            ("author", FieldType::String, false),
            ("version", FieldType::String, false),
        ],
        "move" => &[
            ("move", FieldType::String, true),
            ("comment", FieldType::String, false),
        ],
        _ => &[],
    }
}

/// The first field of a bot message that is missing or has the wrong JSON
/// type, worded for any programmer: `field "protocol" must be a JSON number
/// (a whole number, not in quotes), got the string "1"`.
fn explain_fields(msg_type: &str, object: &Map<String, Value>) -> Option<String> {
    for &(field, kind, required) in field_schema(msg_type) {
        match object.get(field) {
            None if required => {
                return Some(format!(
                    "field \"{field}\" is missing; it must be {}",
                    kind.name()
                ))
            }
            None | Some(Value::Null) if !required => {}
            Some(value) if kind.accepts(value) => {}
            Some(value) => {
                return Some(format!(
                    "field \"{field}\" must be {}, got {}",
                    kind.name(),
                    json_kind(value)
                ))
            }
            None => {}
        }
    }
    None
}

/// A JSON value named the way a Python or C programmer reads it.
fn json_kind(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!(
            "the string {}",
            snippet(&Value::String(s.clone()).to_string())
        ),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// The start of `text`, with control characters escaped so the quote stays on one line.
fn snippet(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref().take(SNIPPET_CHARS) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if chars.next().is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Color;
    use crate::protocol::messages::{BotMove, Ready, TimeControl};
    use proptest::prelude::*;

    #[test]
    fn invalid_ready_names_the_field_and_the_json_type() {
        let cases = [
            (
                r#"{"type":"ready","name":"b","protocol":"1"}"#,
                r#"field "protocol" must be a JSON number (a whole number, not in quotes), got the string "1""#,
            ),
            (
                r#"{"type":"ready","protocol":1}"#,
                r#"field "name" is missing; it must be a JSON string"#,
            ),
            (
                r#"{"type":"ready","name":7,"protocol":1}"#,
                r#"field "name" must be a JSON string, got the number 7"#,
            ),
            (
                r#"{"type":"ready","name":"b","protocol":1.5}"#,
                r#"field "protocol" must be a JSON number (a whole number, not in quotes), got the number 1.5"#,
            ),
            (
                r#"{"type":"ready","name":"b","protocol":1,"author":["x"]}"#,
                r#"field "author" must be a JSON string, got an array"#,
            ),
            (
                r#"{"type":"move","move":null}"#,
                r#"field "move" must be a JSON string, got null"#,
            ),
        ];
        for (line, expected) in cases {
            let err = decode_bot_line(line.as_bytes()).unwrap_err();
            assert!(err.to_string().ends_with(expected), "{line}: {err}");
        }
        let fine = r#"{"type":"ready","name":"b","protocol":1,"author":null}"#;
        assert!(decode_bot_line(fine.as_bytes()).is_ok());
    }

    #[test]
    fn decodes_ready_with_optional_fields() {
        let msg = decode_bot_line(
            br#"{"type":"ready","name":"mybot","protocol":1,"author":"Ann","version":"2"}"#,
        )
        .unwrap();
        assert_eq!(
            msg,
            BotMessage::Ready(Ready {
                name: "mybot".into(),
                protocol: 1,
                author: Some("Ann".into()),
                version: Some("2".into()),
            })
        );
    }

    #[test]
    fn decodes_move_with_trailing_newline_and_ignores_unknown_fields() {
        let msg = decode_bot_line(b"{\"type\":\"move\",\"move\":\"capture d4 b2\",\"eval\":3}\r\n")
            .unwrap();
        assert_eq!(
            msg,
            BotMessage::Move(BotMove {
                mv: "capture d4 b2".into(),
                comment: None,
            })
        );
    }

    #[test]
    fn rejects_invalid_utf8_with_offset() {
        let err = decode_bot_line(b"{\"type\":\"move\",\"move\":\"c\xff3\"}").unwrap_err();
        assert!(
            matches!(err, ProtocolError::InvalidUtf8 { offset: 24, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("not valid UTF-8"), "{err}");
    }

    #[test]
    fn rejects_plain_text_quoting_its_start() {
        let err = decode_bot_line(b"c3").unwrap_err();
        assert!(matches!(err, ProtocolError::NotJson { .. }), "{err:?}");
        // PROTOCOL.md quotes this message verbatim.
        assert_eq!(
            err.to_string(),
            "expected a JSON object with \"type\", got invalid JSON \
             (expected value at line 1 column 1): c3"
        );
    }

    #[test]
    fn rejects_json_that_is_not_an_object() {
        let err = decode_bot_line(br#""c3""#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected a JSON object with \"type\", got: \"c3\""
        );
    }

    #[test]
    fn rejects_empty_and_blank_lines() {
        assert_eq!(decode_bot_line(b"").unwrap_err(), ProtocolError::Empty);
        assert_eq!(
            decode_bot_line(b"  \t\n").unwrap_err(),
            ProtocolError::Empty
        );
    }

    #[test]
    fn rejects_missing_and_non_string_type() {
        let err = decode_bot_line(br#"{"move":"c3"}"#).unwrap_err();
        assert!(matches!(err, ProtocolError::MissingType { .. }), "{err:?}");
        let err = decode_bot_line(br#"{"type":7,"move":"c3"}"#).unwrap_err();
        assert_eq!(err.to_string(), "\"type\" must be a string, got: 7");
    }

    #[test]
    fn rejects_unknown_and_wrong_direction_types() {
        let err = decode_bot_line(br#"{"type":"turn"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown message type \"turn\"; expected \"ready\" or \"move\""
        );
        let err = decode_referee_line(br#"{"type":"move","move":"c3"}"#).unwrap_err();
        assert!(matches!(err, ProtocolError::UnknownType { .. }), "{err:?}");
    }

    #[test]
    fn names_the_missing_or_mistyped_field() {
        let err = decode_bot_line(br#"{"type":"move","mov":"c3"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid \"move\" message: field \"move\" is missing; it must be a JSON string"
        );
        let err = decode_bot_line(br#"{"type":"move","move":33}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid \"move\" message: field \"move\" must be a JSON string, got the number 33"
        );
        let err = decode_bot_line(br#"{"type":"ready","name":"x"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid \"ready\" message: field \"protocol\" is missing; it must be a JSON number (a whole number, not in quotes)"
        );
        let err = decode_bot_line(br#"{"type":"ready","name":"x","protocol":-1}"#).unwrap_err();
        assert!(matches!(
            err,
            ProtocolError::InvalidFields {
                msg_type: "ready",
                ..
            }
        ));
    }

    #[test]
    fn rejects_lines_over_the_limit_before_parsing() {
        let mut line = br#"{"type":"move","move":""#.to_vec();
        line.resize(MAX_LINE_BYTES + 1, b'a');
        let err = decode_bot_line(&line).unwrap_err();
        assert_eq!(
            err,
            ProtocolError::LineTooLong {
                len: MAX_LINE_BYTES + 1,
                max: MAX_LINE_BYTES
            }
        );
    }

    #[test]
    fn accepts_a_line_exactly_at_the_limit() {
        let mut line = br#"{"type":"move","move":"c3","comment":""#.to_vec();
        line.resize(MAX_LINE_BYTES - 2, b'x');
        line.extend_from_slice(b"\"}");
        assert_eq!(line.len(), MAX_LINE_BYTES);
        assert!(matches!(decode_bot_line(&line), Ok(BotMessage::Move(_))));
    }

    #[test]
    fn snippets_are_short_and_single_line() {
        let long = format!("[\"{}\n{}\"]", "x".repeat(50), "y".repeat(100));
        let err = decode_bot_line(long.as_bytes()).unwrap_err();
        let text = err.to_string();
        assert!(!text.contains('\n'), "{text}");
        assert!(text.ends_with("..."), "{text}");
        assert!(text.len() < 300, "{text}");
    }

    #[test]
    fn decodes_every_referee_message() {
        let hello =
            decode_referee_line(br#"{"type":"hello","protocol":1,"referee":"arena 0.1.0"}"#);
        assert!(matches!(hello, Ok(RefereeMessage::Hello(h)) if h.protocol == 1));
        let new_game = decode_referee_line(
            br#"{"type":"new_game","game_id":"g1","variant":{"id":"qango6"},"color":"black","opponent":"x","time_control":{"type":"clock","base_ms":60000,"increment_ms":1000}}"#,
        );
        let Ok(RefereeMessage::NewGame(ng)) = new_game else {
            panic!("{new_game:?}")
        };
        assert_eq!(ng.color, Color::Black);
        assert_eq!(
            ng.time_control,
            TimeControl::Clock {
                base_ms: 60000,
                increment_ms: 1000
            }
        );
        assert_eq!(
            decode_referee_line(br#"{"type":"quit"}"#),
            Ok(RefereeMessage::Quit)
        );
        let over = decode_referee_line(
            br#"{"type":"game_over","game_id":"g1","result":"2-0","winner":null,"reason":"full","cells":[],"message":""}"#,
        );
        assert!(
            matches!(
                over,
                Err(ProtocolError::InvalidFields {
                    msg_type: "game_over",
                    ..
                })
            ),
            "{over:?}"
        );
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = decode_bot_line(&bytes);
            let _ = decode_referee_line(&bytes);
        }

        #[test]
        fn arbitrary_text_errors_are_single_line(text in ".{0,200}") {
            if let Err(e) = decode_bot_line(text.as_bytes()) {
                prop_assert!(!e.to_string().contains('\n'));
            }
        }

        #[test]
        fn json_shaped_garbage_never_panics(
            ty in prop_oneof![Just("ready".to_string()), Just("move".to_string()), Just("turn".to_string()), "[a-z_]{0,8}"],
            key in "[a-z]{1,8}",
            val in prop_oneof![Just("null".to_string()), Just("1".to_string()), Just("[]".to_string()), "\"[ -~]{0,10}\""],
        ) {
            let line = format!("{{\"type\":\"{ty}\",\"{key}\":{val}}}");
            let _ = decode_bot_line(line.as_bytes());
        }
    }
}
