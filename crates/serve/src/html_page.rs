//! An HTML page as the server sends it, on every page it serves (the live
//! page, the play page): never cached, under a Content-Security-Policy,
//! never sniffed as another type.

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::response::Response;

/// The page `body` under the Content-Security-Policy `policy`.
pub fn html_under(body: Body, policy: &'static str) -> Response {
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(policy),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}
