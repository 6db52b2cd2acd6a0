//! The server's answers: the live page of a run (the report's page with a
//! progress line and `live.js` added), its status as JSON and as
//! Server-Sent Events, the runs' own files, and with several runs a list of
//! them. GET and HEAD only, no request body; with `--play`, everything
//! under `/play` is the play page's ([`crate::play::http`]), which takes
//! its actions as POSTs; with `--submissions`, `/submit` is the uploads'
//! ([`crate::submit::http`]).
//!
//! With one run it is at `/`; with several, run `k` is at `/run/k/` and `/`
//! lists them. Under a run's place: `` (the live page), `_live/page` (the
//! page as `arena report` renders it), `_live/update?from=N` (that page
//! without the first N games, see [`Page::parts_from`]), `_live/status`,
//! `_live/events`, and
//! any other path names a file of the run's directories
//! ([`file_under`]).

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::io::AsyncReadExt;
use tokio_stream::wrappers::WatchStream;
use tokio_stream::StreamExt;
use tokio_util::io::ReaderStream;

use arena_referee::game_id::game_id;
use arena_report::html::moves::{board_now, BoardNow};
use arena_rules::games::Variant;
use arena_tournament::league::{BOTS_JSONL, SUBMISSIONS_DIR};
use arena_tournament::live::LiveGame;

use crate::html_page::html_under;
use crate::page::{find, Page};
use crate::play::Room;
use crate::run::{ServedRun, Status};
use crate::submit::Submissions;

const LIVE_JS: &str = include_str!("live.js");

/// Scripts and styles of the page are inline; it loads nothing else, and
/// talks only to this server.
const POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'";

/// What one server serves: runs, and the play page when asked.
pub struct Site {
    pub runs: Vec<Arc<ServedRun>>,
    pub play: Option<Arc<Room>>,
    /// `--submissions`: uploads at `/submit`.
    pub submit: Option<Arc<Submissions>>,
}

/// The server's one handler, over `site`.
pub fn router(site: Site) -> Router {
    Router::new().fallback(handle).with_state(Arc::new(site))
}

async fn handle(State(site): State<Arc<Site>>, request: Request) -> Response {
    let path = request.uri().path();
    if let Some(room) = &site.play {
        if path == "/play" || path.starts_with("/play/") {
            return crate::play::http::handle(room, request).await;
        }
    }
    if let Some(submit) = site.submit.as_ref().filter(|_| path == "/submit") {
        return crate::submit::http::handle(submit, request).await;
    }
    let runs = &site.runs;
    let links = Links {
        play: site.play.is_some(),
        submit: site.submit.is_some(),
    };
    let play = links.play;
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut r = plain(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET and HEAD: arena serve only shows",
        );
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let headers = request.headers();
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .is_some_and(|v| v.as_bytes() != b"0");
    if has_body {
        return plain(StatusCode::PAYLOAD_TOO_LARGE, "a request has no body here");
    }
    let path = request.uri().path();
    if path == "/favicon.ico" {
        // Asked for by every browser: nothing, rather than an error in its console.
        return StatusCode::NO_CONTENT.into_response();
    }
    let (run, rest) = if runs.len() == 1 {
        (&runs[0], path.strip_prefix('/').unwrap_or(path))
    } else if path == "/" {
        return list(runs, play);
    } else {
        let Some(tail) = path.strip_prefix("/run/") else {
            return plain(
                StatusCode::NOT_FOUND,
                "no such page: the runs are at /run/K/",
            );
        };
        let (k, rest) = tail.split_once('/').unwrap_or((tail, ""));
        let Some(run) = k.parse::<usize>().ok().and_then(|k| runs.get(k)) else {
            return plain(StatusCode::NOT_FOUND, "no such run");
        };
        if !tail.contains('/') {
            let mut r = StatusCode::MOVED_PERMANENTLY.into_response();
            let to = HeaderValue::from_str(&format!("/run/{k}/")).expect("digits");
            r.headers_mut().insert(header::LOCATION, to);
            return r;
        }
        (run, rest)
    };
    if matches!(rest, "" | "_live/page" | "_live/update" | "_live/status") {
        run.demand.asked();
    }
    match rest {
        "" => live_page(run, links).await,
        "_live/page" => report_page(run).await,
        "_live/update" => update(run, request.uri().query()).await,
        "_live/status" => status(run),
        "_live/events" => events(run).into_response(),
        "_live/games" => json(&games(run)),
        _ => file(run, rest).await,
    }
}

fn plain(code: StatusCode, text: &str) -> Response {
    (
        code,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{text}\n"),
    )
        .into_response()
}

/// The page with its progress line and the script that keeps it current.
async fn live_page(run: &ServedRun, links: Links) -> Response {
    // The version before the page: the page may be newer (then the script
    // fetches it once more), never older.
    let version = run.status().version;
    let Some(page) = first_page(run).await else {
        return no_page(run, version, links);
    };
    let page = page.bytes.clone();
    let bar = live_bar(version, links);
    let script = format!("<script>{LIVE_JS}</script>\n");
    let after_body = find(&page, b"<body>\n").map_or(0, |i| i + 7);
    let before_end = rfind(&page, b"</body>")
        .unwrap_or(page.len())
        .max(after_body);
    let chunks = [
        page.slice(..after_body),
        Bytes::from(bar),
        page.slice(after_body..before_end),
        Bytes::from(script),
        page.slice(before_end..),
    ];
    html(Body::from_stream(tokio_stream::iter(
        chunks.into_iter().map(Ok::<_, Infallible>),
    )))
}

/// The page as `arena report` renders it (what the script swaps in).
async fn report_page(run: &ServedRun) -> Response {
    match first_page(run).await {
        Some(page) => html(Body::from(page.bytes.clone())),
        None => plain(StatusCode::SERVICE_UNAVAILABLE, NO_PAGE),
    }
}

const NO_PAGE: &str = "no page yet: see _live/status";

/// The page without the first `from` games (`?from=N`) when it can, and
/// how many it left out (`x-arena-from`).
async fn update(run: &ServedRun, query: Option<&str>) -> Response {
    let from = query
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("from=")))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let Some(page) = first_page(run).await else {
        return plain(StatusCode::SERVICE_UNAVAILABLE, NO_PAGE);
    };
    let (parts, from) = page.parts_from(from);
    let mut r = html(Body::from_stream(tokio_stream::iter(
        parts.into_iter().map(Ok::<_, Infallible>),
    )));
    r.headers_mut()
        .insert("x-arena-from", HeaderValue::from(from as u64));
    r
}

/// The page, once rendered (waiting up to a minute for the first).
async fn first_page(run: &ServedRun) -> Option<Arc<Page>> {
    if let Some(page) = run.page() {
        return Some(page);
    }
    let mut status = run.subscribe();
    let first = status.wait_for(|s| s.version > 0);
    let _ = tokio::time::timeout(Duration::from_secs(60), first).await;
    run.page()
}

/// A run's files cannot (yet) be read as a run: why, and the script that
/// reloads the page when they change.
fn no_page(run: &ServedRun, version: u64, links: Links) -> Response {
    let status = run.status();
    let why = status.error.as_deref().unwrap_or("not rendered yet");
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>arena serve</title></head>\n<body>\n{}<h1>arena serve: {}</h1>\n<p class=\"error\">No page yet: {}</p>\n<p>This page shows the run as soon as its files can be read.</p>\n<script>{LIVE_JS}</script>\n</body>\n</html>\n",
        live_bar(version, links),
        escape(&run.name()),
        escape(why)
    );
    html(Body::from(body))
}

/// The games being played (live.js draws them): a card per game; its board
/// is the viewer's (the report's `board.css`, a small board).
const PLAYING_STYLE: &str = "#playing{padding:0 1em}.live-games{display:flex;flex-wrap:wrap;gap:1em}.live-game{border:1px solid #ccc;padding:.5em}.live-game h3{margin:.2em 0}.live-game .moves{max-width:30em;font-family:monospace;word-wrap:break-word}body.projector .live-game .moves{max-width:40em}";

/// The pages the live bar links to besides the run's own.
#[derive(Clone, Copy)]
struct Links {
    /// `--play`: the play page.
    play: bool,
    /// `--submissions`: a league's upload page.
    submit: bool,
}

/// The live page's bar; with the play page or the upload page, a link to
/// each.
fn live_bar(version: u64, links: Links) -> String {
    let mut play = String::new();
    if links.play {
        play.push_str("<a class=\"play\" href=\"/play\">play a bot</a>");
    }
    if links.submit {
        play.push_str("<a class=\"play\" href=\"/submit\">submit a bot</a>");
    }
    format!(
        "<div id=\"live\" data-version=\"{version}\"><style>#live{{position:sticky;top:0;z-index:5;background:#20303f;color:#fff;padding:.4em 1em;font:1.1em system-ui,sans-serif;display:flex;gap:1em;align-items:center}}#live.lost{{background:#8a2a2a}}#live button{{margin-left:auto}}#live a.play{{color:#fff}}body.projector{{font-size:150%}}body.projector #settings,body.projector #times,body.projector #lengths{{display:none}}{PLAYING_STYLE}</style><strong>live</strong> <span class=\"progress\">connecting…</span> <span class=\"state\"></span>{play}<button type=\"button\" class=\"projector\" title=\"large type, fewer sections\">projector view</button></div>\n"
    )
}

fn html(body: Body) -> Response {
    html_under(body, POLICY)
}

fn status(run: &ServedRun) -> Response {
    json(&run.status())
}

fn json(value: &impl serde::Serialize) -> Response {
    let json = serde_json::to_string(value).expect("plain data is JSON");
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (headers, json).into_response()
}

/// The games being played, with their moves so far.
#[derive(serde::Serialize)]
struct Playing {
    /// Whether this server sees them: only inside the tournament
    /// (`--serve`); `arena serve DIR` sees finished games only.
    live: bool,
    games: Vec<PlayingGame>,
}

/// A game being played as the page shows it: the game, its id (`gN`) and
/// its position as the viewer's board draws it (the rules engine's replay
/// of the moves; `null` for a variant arena does not know).
#[derive(serde::Serialize)]
struct PlayingGame {
    #[serde(flatten)]
    game: LiveGame,
    game_id: String,
    board: Option<BoardNow>,
}

impl PlayingGame {
    fn of(game: LiveGame) -> PlayingGame {
        let board = Variant::by_id(&game.game).map(|v| board_now(v, &game.moves, game.opening));
        PlayingGame {
            game_id: game_id(game.id),
            board,
            game,
        }
    }
}

fn games(run: &ServedRun) -> Playing {
    let games = run.live.as_ref().map(|l| l.snapshot()).unwrap_or_default();
    Playing {
        live: run.live.is_some(),
        games: games.into_iter().map(PlayingGame::of).collect(),
    }
}

/// The games being played are sent at most this often (the latest then).
pub const GAMES_EVERY: Duration = Duration::from_millis(250);

/// The status now, then at each change, as `status` events; and the
/// games being played ([`Playing`]) now, then at each move, at most every
/// [`GAMES_EVERY`], as `games` events.
fn events(
    run: &Arc<ServedRun>,
) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    // The page is rendered while this stream is open (dropped with it).
    let watching = run.demand.stream();
    let status = WatchStream::new(run.subscribe()).map(move |s: Status| {
        let _watching = &watching;
        let data = serde_json::to_string(&s).expect("a status is JSON");
        Ok(Event::default().event("status").data(data))
    });
    // Without a table, one event that says so, and the stream of games ends.
    let changes = match &run.live {
        Some(live) => live.subscribe(),
        None => tokio::sync::watch::channel(0).1,
    };
    let run = Arc::clone(run);
    let games = WatchStream::new(changes)
        .throttle(GAMES_EVERY)
        .map(move |_| {
            let data = serde_json::to_string(&games(&run)).expect("games are JSON");
            Ok(Event::default().event("games").data(data))
        });
    Sse::new(status.merge(games)).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

/// The list of the runs, each linked.
fn list(runs: &[Arc<ServedRun>], play: bool) -> Response {
    let mut items = String::new();
    for (k, run) in runs.iter().enumerate() {
        let s = run.status();
        let planned = s.planned.map_or(String::new(), |p| format!(" of {p}"));
        items.push_str(&format!(
            "<li><a href=\"/run/{k}/\">{}</a>: {} games{planned}</li>\n",
            escape(&run.name()),
            s.games
        ));
    }
    let play = if play {
        "<p><a href=\"/play\">Play a bot</a> (games are recorded in the last run listed).</p>\n"
    } else {
        ""
    };
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>arena serve: {} runs</title></head>\n<body>\n<h1>arena serve</h1>\n{play}<ul id=\"runs\">\n{items}</ul>\n</body>\n</html>\n",
        runs.len()
    );
    html(Body::from(body))
}

/// A file of the run's directories.
async fn file(run: &ServedRun, rest: &str) -> Response {
    let path = match file_under(run, rest).await {
        Ok(path) => path,
        Err((code, why)) => return plain(code, why),
    };
    let Ok(f) = tokio::fs::File::open(&path).await else {
        return plain(StatusCode::NOT_FOUND, "no such file");
    };
    let Ok(len) = f.metadata().await.map(|m| m.len()) else {
        return plain(StatusCode::NOT_FOUND, "no such file");
    };
    // What the file holds now: a log still being written is cut at the
    // length it had, so the answer is as long as it says.
    let body = Body::from_stream(ReaderStream::new(f.take(len)));
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(&path)),
    );
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if content_type(&path).starts_with("text/html") {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(POLICY),
        );
    }
    r
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("png") => "image/png",
        _ => "text/plain; charset=utf-8",
    }
}

/// The file `raw` (a request's path under the run's place, still
/// percent-encoded) names, if it is a file inside one of the run's
/// directories once every symbolic link is followed. A path that tries to
/// leave them (`..` or `.`, in any encoding; an encoded `/` or `\`; a NUL)
/// is a bad request; one that leaves them through a link, or names
/// nothing, is not found, as are a league's registry (`bots.jsonl`: its
/// participants' token hashes) and its `submissions/` (their code).
pub async fn file_under(run: &ServedRun, raw: &str) -> Result<PathBuf, (StatusCode, &'static str)> {
    const BAD: (StatusCode, &str) = (
        StatusCode::BAD_REQUEST,
        "bad path: only files inside the run's directories are served",
    );
    const MISSING: (StatusCode, &str) = (StatusCode::NOT_FOUND, "no such file in the run");
    let decoded = percent_decode(raw).ok_or(BAD)?;
    let mut path = run.base.clone();
    for part in decoded.split('/') {
        match part {
            "" => return Err(MISSING),
            "." | ".." => return Err(BAD),
            _ if part.contains('\\') => return Err(BAD),
            _ => path.push(part),
        }
    }
    let real = tokio::fs::canonicalize(&path).await.map_err(|_| MISSING)?;
    if !run.dirs.iter().any(|d| real.starts_with(d)) {
        return Err(MISSING);
    }
    // A league's registry holds its participants' token hashes, and its
    // submissions their code: neither is shown.
    let league = &run.dirs[0];
    if run.league
        && (real == league.join(BOTS_JSONL) || real.starts_with(league.join(SUBMISSIONS_DIR)))
    {
        return Err(MISSING);
    }
    let meta = tokio::fs::metadata(&real).await.map_err(|_| MISSING)?;
    if !meta.is_file() {
        return Err(MISSING);
    }
    Ok(real)
}

/// `raw` with its `%XX` escapes decoded; `None` when an escape is malformed,
/// decodes to `/`, `\` or NUL, or the result is not UTF-8.
fn percent_decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == 0 {
            return None;
        }
        if b != b'%' {
            out.push(b);
            i += 1;
            continue;
        }
        let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
        let value = u8::from_str_radix(hex, 16).ok()?;
        if matches!(value, b'/' | b'\\' | 0) {
            return None;
        }
        out.push(value);
        i += 3;
    }
    String::from_utf8(out).ok()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game in progress reaches the page with its id `gN` (not the
    /// number) and its position as the viewer's codes, Quinque's stacks
    /// with their heights.
    #[test]
    fn a_game_in_progress_is_sent_with_its_id_and_board() {
        let game = LiveGame {
            id: 3,
            game: "quinque".into(),
            family: "quinque",
            rows: 5,
            cols: 5,
            white: "a".into(),
            black: "b".into(),
            moves: ["place b2", "place a1", "double b2"]
                .map(String::from)
                .into(),
            opening: 1,
        };
        let json = serde_json::to_value(PlayingGame::of(game)).unwrap();
        assert_eq!(json["game_id"], "g3");
        assert!(json.get("id").is_none(), "{json}");
        let codes = json["board"]["codes"].as_str().unwrap();
        // a1 a black single (4), b2 a white double (2).
        assert_eq!((&codes[0..1], &codes[6..7]), ("4", "2"));
        assert_eq!(json["board"]["last"], serde_json::json!([6]));
    }

    #[test]
    fn escapes_that_leave_a_path_segment_are_refused() {
        assert_eq!(
            percent_decode("logs/g1.log").as_deref(),
            Some("logs/g1.log")
        );
        assert_eq!(percent_decode("%2e%2e").as_deref(), Some(".."));
        assert_eq!(percent_decode("a%20b").as_deref(), Some("a b"));
        for bad in ["a%2fb", "a%2Fb", "a%5cb", "a%00", "%2", "%zz", "%ff"] {
            assert_eq!(percent_decode(bad), None, "{bad}");
        }
    }
}
