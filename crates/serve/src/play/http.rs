//! The answers under `/play`: the page (`GET /play`, with a fresh token),
//! a game's state as Server-Sent Events (`GET /play/game/gN/events`), and
//! the page's actions, each a `POST` of a small JSON body: `/play/new`,
//! and `/play/game/gN/` `move`, `hints`, `analysis`, `leave`.
//!
//! An action is taken only from the page's own origin (its `Origin` header
//! names the host it was sent to, `Sec-Fetch-Site` when sent says
//! `same-origin`) with a token the server gave a page (`x-arena-token`),
//! and an action on a game only with the token of the page that started
//! it. Unless the server listens beyond this machine, the host must be a
//! loopback name or address (a page of another site renamed to this
//! machine's address, DNS rebinding, is refused). Errors are JSON:
//! `{"error": "..."}`, one line saying what and the fix.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use tokio_stream::wrappers::WatchStream;
use tokio_stream::StreamExt;

use arena_referee::game_id::parse_game_id;
use arena_report::html::board::{board_css, BOARD_JS};
use arena_rules::games::look::BoardLook;
use arena_rules::games::Variant;
use arena_rules::protocol::parse_time_control;

use super::game::{Game, Setup, Side};
use super::hints::{hints, strip};
use super::{Refusal, Room};

const PAGE: &str = include_str!("page.html");
const PLAY_JS: &str = include_str!("play.js");
const PLAY_CSS: &str = include_str!("play.css");

/// The time controls a page offers (label, value); the first is the
/// default. A bot with its own time control in the bots file plays that.
pub const TIME_CONTROLS: &[(&str, &str)] = &[
    ("1 s a move", "per-move=1000"),
    ("3 s a move", "per-move=3000"),
    ("10 s a move", "per-move=10000"),
    ("1 min + 1 s a move", "60+1"),
    ("5 min + 3 s a move", "300+3"),
];

/// The longest body of an action.
pub const BODY_BYTES: usize = 4096;

/// The longest name a person may type.
const NAME_CHARS: usize = 40;

/// The name of a person who typed none.
pub const HUMAN: &str = "human";

/// How often a game's events say the connection is alive (so a closed
/// page is noticed).
const KEEP_ALIVE: Duration = Duration::from_secs(3);

/// Inline scripts and styles only; it talks only to this server.
const POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// Answers a request under `/play`.
pub async fn handle(room: &Arc<Room>, request: Request) -> Response {
    if let Err((code, why)) = host_allowed(room, request.headers()) {
        return error(code, why);
    }
    let path = request.uri().path().to_string();
    let method = request.method().clone();
    if method == Method::GET || method == Method::HEAD {
        return match path.as_str() {
            "/play" | "/play/" => page(room),
            _ => match game_path(&path) {
                Some((number, "events")) => events(room, number, request.uri().query()),
                _ => error(StatusCode::NOT_FOUND, "no such page under /play"),
            },
        };
    }
    if method != Method::POST {
        return error(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET and POST under /play",
        );
    }
    let token = match action_allowed(room, request.headers()) {
        Ok(token) => token,
        Err((code, why)) => return error(code, why),
    };
    let body = match axum::body::to_bytes(request.into_body(), BODY_BYTES).await {
        Ok(body) => body,
        Err(_) => {
            return error(
                StatusCode::PAYLOAD_TOO_LARGE,
                "a request body is at most 4 KiB",
            )
        }
    };
    if path == "/play/new" {
        return new_game(room, &token, &body);
    }
    let Some((number, action)) = game_path(&path) else {
        return error(StatusCode::NOT_FOUND, "no such action under /play");
    };
    let Some(game) = room.game(number) else {
        return error(
            StatusCode::NOT_FOUND,
            "no such game on this server (it may have been forgotten: see the output directory)",
        );
    };
    if game.token != token {
        return error(
            StatusCode::FORBIDDEN,
            "this game was started by another page: only that page can play it",
        );
    }
    match action {
        "move" => play_move(&game, &body),
        "leave" => {
            game.leave("left the page");
            ok(json!({}))
        }
        "hints" => move_hints(room, &game).await,
        "analysis" => analysis(room, &game).await,
        _ => error(StatusCode::NOT_FOUND, "no such action under /play"),
    }
}

/// A request refused: its status and why.
type Refused = (StatusCode, &'static str);

/// `Err` when the request's host is not one the server answers to: a
/// loopback name or address unless it listens wider.
fn host_allowed(room: &Room, headers: &HeaderMap) -> Result<(), Refused> {
    if room.options().any_host {
        return Ok(());
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if is_loopback_host(host) {
        Ok(())
    } else {
        Err((
            StatusCode::FORBIDDEN,
            "this server answers only to 127.0.0.1 or localhost (arena serve --bind widens it)",
        ))
    }
}

/// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The token of an action sent by a page of this server from its own
/// origin, or why it is refused.
fn action_allowed(room: &Room, headers: &HeaderMap) -> Result<String, Refused> {
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let host = text(header::HOST).unwrap_or("");
    let origin = text(header::ORIGIN);
    if origin != Some(format!("http://{host}").as_str()) {
        return Err((
            StatusCode::FORBIDDEN,
            "actions are taken only from this server's own page (its Origin)",
        ));
    }
    if text(header::HeaderName::from_static("sec-fetch-site")).is_some_and(|s| s != "same-origin") {
        return Err((
            StatusCode::FORBIDDEN,
            "actions are taken only from this server's own page (Sec-Fetch-Site)",
        ));
    }
    if !text(header::CONTENT_TYPE).is_some_and(|t| t.starts_with("application/json")) {
        return Err((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "an action's body is JSON (Content-Type: application/json)",
        ));
    }
    match text(header::HeaderName::from_static("x-arena-token")) {
        Some(token) if room.knows_token(token) => Ok(token.to_string()),
        _ => Err((
            StatusCode::FORBIDDEN,
            "this page's token is unknown (the server restarted?): reload the page",
        )),
    }
}

/// `/play/game/gN/ACTION` → (N, ACTION).
fn game_path(path: &str) -> Option<(u64, &str)> {
    let rest = path.strip_prefix("/play/game/")?;
    let (id, action) = rest.split_once('/')?;
    Some((parse_game_id(id)?, action))
}

/// The page, with its setup (a fresh token) and its scripts inline.
fn page(room: &Room) -> Response {
    let setup = setup_json(room, &room.issue_token());
    // Inside <script>: no `</script>` can end it early.
    let setup = setup.to_string().replace('<', "\\u003c");
    let body = PAGE
        .replacen("{{SETUP}}", &setup, 1)
        .replacen("{{BOARD_CSS}}", &board_css(), 1)
        .replacen("{{PLAY_CSS}}", PLAY_CSS, 1)
        .replacen("{{BOARD_JS}}", BOARD_JS, 1)
        .replacen("{{PLAY_JS}}", PLAY_JS, 1);
    let mut r = crate::html_page::html_under(Body::from(body), POLICY);
    r.headers_mut()
        .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    r
}

/// What the page offers (docs/PLAY.md has the fields).
fn setup_json(room: &Room, token: &str) -> serde_json::Value {
    let variants: Vec<_> = Variant::all()
        .iter()
        .map(|v| json!({"id": v.id, "name": v.id, "look": BoardLook::of(v)}))
        .collect();
    let bots: Vec<_> = room
        .bots()
        .iter()
        .map(|b| json!({"name": b.name, "time_control": b.time_control.map(|t| t.to_string())}))
        .collect();
    let time_controls: Vec<_> = TIME_CONTROLS
        .iter()
        .map(|(label, value)| json!({"label": label, "value": value}))
        .collect();
    let o = room.options();
    json!({
        "token": token,
        "variants": variants,
        "bots": bots,
        "time_controls": time_controls,
        "idle_ms": o.idle.as_millis() as u64,
        "max_live": o.max_live,
        "viewer": o.viewer,
    })
}

/// A new game's request.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    time_control: String,
    white: SideRequest,
    black: SideRequest,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
enum SideRequest {
    Bot(String),
    Person(String),
}

fn new_game(room: &Arc<Room>, token: &str, body: &[u8]) -> Response {
    let setup = match serde_json::from_slice::<NewGame>(body)
        .map_err(|e| format!("a new game's request: {e}"))
        .and_then(|request| setup_of(room, request))
    {
        Ok(setup) => setup,
        Err(why) => return error(StatusCode::BAD_REQUEST, &why),
    };
    match room.start(token, setup) {
        Ok(game) => ok(json!({"game_id": game.id()})),
        Err(Refusal::Busy(n)) => error(
            StatusCode::SERVICE_UNAVAILABLE,
            &format!("all {n} boards are in use: try again when a game ends"),
        ),
        Err(Refusal::Bad(why)) => error(StatusCode::SERVICE_UNAVAILABLE, &why),
    }
}

/// The game a request asks for, if the page may ask for it: a known
/// variant, a time control of the list, bots of the file, two names.
fn setup_of(room: &Room, request: NewGame) -> Result<Setup, String> {
    let variant = Variant::by_id(&request.variant).ok_or_else(|| {
        format!(
            "unknown variant {:?}; known: {}",
            request.variant,
            Variant::ids().join(", ")
        )
    })?;
    if !TIME_CONTROLS
        .iter()
        .any(|(_, v)| *v == request.time_control)
    {
        let offered: Vec<&str> = TIME_CONTROLS.iter().map(|(_, v)| *v).collect();
        return Err(format!(
            "time control {:?} is not offered; the page offers {}",
            request.time_control,
            offered.join(", ")
        ));
    }
    let time_control = parse_time_control(&request.time_control).map_err(|e| e.to_string())?;
    let side = |request: SideRequest| -> Result<Side, String> {
        match request {
            SideRequest::Bot(name) => room
                .bots()
                .iter()
                .find(|b| b.name == name)
                .map(|b| Side::Bot(b.clone()))
                .ok_or_else(|| format!("no bot {name:?} in the bots file")),
            SideRequest::Person(name) => person_name(&name).map(Side::Person),
        }
    };
    let sides = [side(request.white)?, side(request.black)?];
    if sides[0].name() == sides[1].name() {
        return Err(format!(
            "both sides are named {:?}: give each side its own name",
            sides[0].name()
        ));
    }
    Ok(Setup {
        variant,
        time_control,
        sides,
    })
}

/// The name a person typed, trimmed (`human` when empty); `Err` for one
/// too long or with control characters.
fn person_name(typed: &str) -> Result<String, String> {
    let name = typed.trim();
    if name.is_empty() {
        return Ok(HUMAN.to_string());
    }
    if name.chars().count() > NAME_CHARS || name.chars().any(char::is_control) {
        return Err(format!(
            "a name is at most {NAME_CHARS} characters, without control characters"
        ));
    }
    Ok(name.to_string())
}

/// The state of game N now and at every change, while the page follows it
/// (`?token=` the page's).
fn events(room: &Room, number: u64, query: Option<&str>) -> Response {
    let token = query
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("token=")))
        .unwrap_or("");
    let Some(game) = room.game(number) else {
        return error(StatusCode::NOT_FOUND, "no such game on this server");
    };
    if game.token != token {
        return error(
            StatusCode::FORBIDDEN,
            "this game was started by another page: only that page follows it",
        );
    }
    let watcher = game.watch();
    let states = WatchStream::new(game.subscribe()).map(move |state| {
        let _following = &watcher;
        let data = serde_json::to_string(&*state).expect("a state is JSON");
        Ok::<_, Infallible>(Event::default().event("state").data(data))
    });
    Sse::new(states)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
    /// The ply the page saw (optional).
    #[serde(default)]
    ply: Option<u32>,
}

fn play_move(game: &Game, body: &[u8]) -> Response {
    let request: MoveRequest = match serde_json::from_slice(body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, &format!("a move's request: {e}")),
    };
    match game.send_move(request.ply, &request.mv) {
        Ok(()) => ok(json!({})),
        Err(why) => error(StatusCode::CONFLICT, &why),
    }
}

/// The solver's values of the moves now (blocking thread, bounded).
async fn move_hints(room: &Room, game: &Game) -> Response {
    let state = game.state();
    if state.over || state.legal.is_empty() {
        return error(
            StatusCode::CONFLICT,
            "hints are for a person's turn: wait for your move",
        );
    }
    let Ok(_permit) = Arc::clone(&room.solving).try_acquire_owned() else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the solver is busy: try again in a moment",
        );
    };
    let variant = game.setup.variant;
    let moves = state.moves.clone();
    let work = move || crate::at_lower_priority(|| hints(variant, &moves));
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(hints)) => ok(serde_json::to_value(hints).expect("hints are JSON")),
        Ok(Err(e)) => error(StatusCode::CONFLICT, &format!("{e:#}")),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the solver failed"),
    }
}

/// A finished game's strip, computed once.
async fn analysis(room: &Room, game: &Game) -> Response {
    let Some(record) = game.record.get().cloned() else {
        return error(
            StatusCode::CONFLICT,
            "the analysis comes when the game is over",
        );
    };
    let computed = game
        .analysis
        .get_or_try_init(|| async {
            let _permit = Arc::clone(&room.solving)
                .acquire_owned()
                .await
                .map_err(|_| "the server is stopping".to_string())?;
            tokio::task::spawn_blocking(move || crate::at_lower_priority(|| strip(&record)))
                .await
                .map_err(|_| "the solver failed".to_string())?
                .map(Arc::new)
                .map_err(|e| format!("{e:#}"))
        })
        .await;
    match computed {
        Ok(value) => ok((**value).clone()),
        Err(why) => error(StatusCode::INTERNAL_SERVER_ERROR, &why),
    }
}

fn ok(value: serde_json::Value) -> Response {
    json_answer(StatusCode::OK, &value)
}

fn error(code: StatusCode, why: &str) -> Response {
    json_answer(code, &json!({ "error": why }))
}

fn json_answer(code: StatusCode, value: &serde_json::Value) -> Response {
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (code, headers, value.to_string()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_told_from_others() {
        for host in [
            "127.0.0.1:8080",
            "localhost:1",
            "LOCALHOST",
            "[::1]:80",
            "127.1.2.3",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "",
            "evil.example:8080",
            "10.0.0.1:80",
            "[::2]:80",
            "localhost.evil:80",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn game_paths_name_a_game_and_an_action() {
        assert_eq!(game_path("/play/game/g12/move"), Some((12, "move")));
        assert_eq!(game_path("/play/game/12/move"), None);
        assert_eq!(game_path("/play/game/g1"), None);
    }

    #[test]
    fn names_are_trimmed_bounded_and_default_to_human() {
        assert_eq!(person_name("  ").unwrap(), "human");
        assert_eq!(person_name(" ada ").unwrap(), "ada");
        assert!(person_name(&"x".repeat(41)).is_err());
        assert!(person_name("a\u{7}b").is_err());
    }

    #[test]
    fn every_offered_time_control_parses() {
        for (label, value) in TIME_CONTROLS {
            assert!(parse_time_control(value).is_ok(), "{label}: {value}");
        }
    }
}
