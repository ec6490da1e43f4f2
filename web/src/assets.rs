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
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    let headers: [(HeaderName, &str); 5] = [
        (CONTENT_TYPE, content_type),
        // A new binary serves a new page: never keep an old one.
        (CACHE_CONTROL, "no-store"),
        (
            HeaderName::from_static("content-security-policy"),
            CONTENT_SECURITY_POLICY,
        ),
        (HeaderName::from_static("x-content-type-options"), "nosniff"),
        (HeaderName::from_static("referrer-policy"), "no-referrer"),
    ];
    (headers, body).into_response()
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
