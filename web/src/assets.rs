//! The page, embedded in the binary: `web/page/index.html`, `app.js` and `style.css`. The
//! page loads nothing from elsewhere, and its Content-Security-Policy says so to the browser.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderName};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

const INDEX_HTML: &str = include_str!("../page/index.html");
const APP_JS: &str = include_str!("../page/app.js");
const STYLE_CSS: &str = include_str!("../page/style.css");

/// Only this server's own scripts, styles and requests; the boards are inline SVG.
/// The report is framed from this server only.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; \
     form-action 'none'";

/// A report is one page with its style inline and no script at all.
const REPORT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
     img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    page(content_type, CONTENT_SECURITY_POLICY, body.to_owned())
}

fn page(content_type: &'static str, policy: &'static str, body: String) -> Response {
    let headers: [(HeaderName, &str); 5] = [
        (CONTENT_TYPE, content_type),
        // A new binary serves a new page (and a saved game a new report): never keep an old one.
        (CACHE_CONTROL, "no-store"),
        (HeaderName::from_static("content-security-policy"), policy),
        (HeaderName::from_static("x-content-type-options"), "nosniff"),
        (HeaderName::from_static("referrer-policy"), "no-referrer"),
    ];
    (headers, body).into_response()
}

/// A game's report (`ludeme report`'s page), under its own policy.
pub fn report_page(html: String) -> Response {
    page("text/html; charset=utf-8", REPORT_SECURITY_POLICY, html)
}

pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

pub async fn script() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

pub async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}

/// Any address not served: a JSON error like the API's.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "nothing is served at {}: the page is at /, its requests under /api/",
        uri.path()
    ))
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this address does not answer that method: /api/position and /api/move take POST, \
         the others GET",
    )
}
