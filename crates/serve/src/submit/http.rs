//! The answers at `/submit`: the page with the upload form (`GET`), and
//! the upload (`POST`, `multipart/form-data` with the fields `token` and
//! `file`), answered with JSON: `{"admitted": true, "bot": "NAME@N"}`, or
//! `{"admitted": false, "reason": "..."}` with a 4xx (5xx) status.
//!
//! The token is the credential: a script (`curl -F token=... -F
//! file=@bot.py`) sends no `Origin`, and is served; a browser's post is
//! taken only from this server's own page (its `Origin` names the host it
//! was sent to). Unless the server listens beyond this machine, the host
//! must be a loopback name or address (as for the play page). A body
//! longer than the limit is refused by its `Content-Length` before it is
//! read, and cut off when it says none.

use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

use super::{build, Outcome, Submissions};
use crate::play::http::is_loopback_host;

/// Bytes of a body beyond the file: the token, the parts' headers.
const FORM_BYTES: usize = 16 * 1024;

/// Inline script and style only; the form posts only here.
const POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Answers a request at `/submit`.
pub async fn handle(submit: &Submissions, request: Request) -> Response {
    if let Err(refused) = host_allowed(submit, request.headers()) {
        return answer(refused);
    }
    match *request.method() {
        Method::GET | Method::HEAD => page(submit),
        Method::POST => upload(submit, request).await,
        _ => answer(Outcome::Refused(
            StatusCode::METHOD_NOT_ALLOWED,
            "only GET (the page) and POST (an upload) at /submit".into(),
        )),
    }
}

/// Reads the upload and hands it on.
async fn upload(submit: &Submissions, request: Request) -> Response {
    if let Err(refused) = origin_allowed(request.headers()) {
        return answer(refused);
    }
    let limit = submit.options().max_bytes;
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
    if declared.is_some_and(|n| n > limit + FORM_BYTES) {
        return answer(too_large(limit));
    }
    let (token, file, bytes) = match form(request, limit).await {
        Ok(form) => form,
        Err(refused) => return answer(refused),
    };
    let name = match submit.participant(&token) {
        Ok(Some(name)) => name,
        Ok(None) => {
            return answer(Outcome::Refused(
                StatusCode::FORBIDDEN,
                "unknown token: ask your teacher for yours (arena league token DIR NAME)".into(),
            ))
        }
        Err(e) => {
            return answer(Outcome::Refused(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("{e:#}"),
            ))
        }
    };
    answer(submit.submit(&name, &file, &bytes).await)
}

fn too_large(limit: usize) -> Outcome {
    Outcome::Refused(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the file is too large: at most {} KiB", limit / 1024),
    )
}

fn bad(why: &str) -> Outcome {
    Outcome::Refused(StatusCode::BAD_REQUEST, why.to_string())
}

/// The form's token, file name and file.
async fn form(request: Request, limit: usize) -> Result<(String, String, Vec<u8>), Outcome> {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, limit + FORM_BYTES)
        .await
        .map_err(|_| too_large(limit))?;
    let request = Request::from_parts(parts, Body::from(body));
    let mut multipart = Multipart::from_request(request, &())
        .await
        .map_err(|_| bad("an upload is multipart/form-data with the fields token and file (curl -F token=TOKEN -F file=@bot.py URL)"))?;
    let (mut token, mut file) = (None, None);
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|_| bad("the form cannot be read as multipart/form-data"))?
    {
        match field.name() {
            Some("token") => {
                token = Some(
                    field
                        .text()
                        .await
                        .map_err(|_| bad("the token is not text"))?,
                )
            }
            Some("file") => {
                let name = field.file_name().unwrap_or("").to_string();
                let bytes = field
                    .bytes()
                    .await
                    .map_err(|_| bad("the file cannot be read"))?;
                file = Some((name, bytes.to_vec()));
            }
            _ => {}
        }
    }
    let token = token.ok_or_else(|| bad("no field token in the form"))?;
    let (name, bytes) = file.ok_or_else(|| bad("no field file in the form"))?;
    if bytes.len() > limit {
        return Err(too_large(limit));
    }
    Ok((token, name, bytes))
}

/// `Err` when the request's host is not one the server answers to: a
/// loopback name or address unless it listens wider.
fn host_allowed(submit: &Submissions, headers: &HeaderMap) -> Result<(), Outcome> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if submit.options().any_host || is_loopback_host(host) {
        return Ok(());
    }
    Err(Outcome::Refused(
        StatusCode::FORBIDDEN,
        "this server answers only to 127.0.0.1 or localhost (arena serve --bind widens it)".into(),
    ))
}

/// `Err` for a browser's post from another site: an `Origin` other than
/// this server's, or a `Sec-Fetch-Site` other than `same-origin`. A post
/// without them (a script's) is taken: its token is its credential.
fn origin_allowed(headers: &HeaderMap) -> Result<(), Outcome> {
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let host = text(header::HOST).unwrap_or("");
    let foreign_origin = text(header::ORIGIN).is_some_and(|o| o != format!("http://{host}"));
    let foreign_fetch = text(header::HeaderName::from_static("sec-fetch-site"))
        .is_some_and(|s| s != "same-origin" && s != "none");
    if foreign_origin || foreign_fetch {
        return Err(Outcome::Refused(
            StatusCode::FORBIDDEN,
            "uploads are taken from this server's own page or from scripts, not from another site's page".into(),
        ));
    }
    Ok(())
}

/// The answer as JSON, its status the outcome's.
fn answer(outcome: Outcome) -> Response {
    let status = match &outcome {
        Outcome::Admitted { .. } => StatusCode::OK,
        Outcome::Refused(status, _) => *status,
    };
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (status, headers, format!("{}\n", outcome.json())).into_response()
}

/// The page: the form, and a script that shows the answer below it.
fn page(submit: &Submissions) -> Response {
    let body = PAGE
        .replace("{{EXTENSIONS}}", build::EXTENSIONS)
        .replace("{{KIB}}", &(submit.options().max_bytes / 1024).to_string());
    let mut r = crate::html_page::html_under(Body::from(body), POLICY);
    r.headers_mut()
        .insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    r
}

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>arena: submit a bot</title>
<style>body{font:1.05em system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}label{display:block;margin:.8em 0}input[type=text]{width:100%;font-family:monospace}#answer{margin-top:1em;padding:.6em;white-space:pre-wrap}#answer.ok{background:#e3f4e3}#answer.no{background:#f8e3e3}</style></head>
<body>
<h1>Submit a bot</h1>
<p>One source file: {{EXTENSIONS}}; at most {{KIB}} KiB. It is built if needed, checked with <code>arena check-bot</code>, and admitted as your next version only if it is compliant.</p>
<form id="submit" method="post" action="/submit" enctype="multipart/form-data">
<label>Your token <input type="text" name="token" autocomplete="off" required></label>
<label>Your bot <input type="file" name="file" required></label>
<button type="submit">Submit</button>
</form>
<div id="answer" hidden></div>
<script>
const form = document.getElementById("submit"), out = document.getElementById("answer");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  out.hidden = false; out.className = ""; out.textContent = "building and checking… (this takes a while)";
  try {
    const r = await fetch("/submit", {method: "POST", body: new FormData(form)});
    const a = await r.json();
    out.className = a.admitted ? "ok" : "no";
    out.textContent = a.admitted ? "Admitted as " + a.bot + (a.unchanged ? " (the same program as before)" : "") : "Not admitted: " + a.reason;
  } catch (err) { out.className = "no"; out.textContent = "No answer: " + err; }
});
</script>
</body>
</html>
"#;
