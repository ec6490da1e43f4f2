//! The player's HTTP server (axum on tokio): every POST body is a message, answered by the
//! [`Executive`] with the protocol's content type and open CORS ([`CORS_HEADERS`]). A body
//! that is a KIF list is a message of the GGP form ([`Request`]); any other body one of the
//! Gamemaster form ([`GamemasterRequest`]). A malformed message gets one `400` reply saying
//! what is wrong and where; the player stays up.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::executive::Executive;
use crate::gamemaster::{GamemasterRequest, is_gamemaster_form};
use crate::messages::{MAX_MESSAGE_BYTES, Request};
use crate::transport::{CONTENT_TYPE, CORS_HEADERS};

/// The routes of a player: POST (a message) and OPTIONS (a browser's preflight) on any path.
pub fn router(executive: Arc<Executive>) -> Router {
    let route = || post(message).options(preflight);
    Router::new()
        .route("/", route())
        .route("/{*path}", route())
        .layer(DefaultBodyLimit::max(MAX_MESSAGE_BYTES))
        .with_state(executive)
}

/// The answer to one message body.
pub async fn answer(executive: &Arc<Executive>, body: &[u8]) -> (StatusCode, String) {
    let Ok(text) = std::str::from_utf8(body) else {
        return (
            StatusCode::BAD_REQUEST,
            "the message is not UTF-8 text".to_owned(),
        );
    };
    let reply = if is_gamemaster_form(text) {
        match GamemasterRequest::parse(text) {
            Ok(request) => executive.handle_gamemaster(request).await,
            Err(error) => Err(format!("malformed message {error}")),
        }
    } else {
        match Request::parse(text) {
            Ok(request) => executive.handle(request).await,
            Err(error) => Err(format!("malformed message {error}")),
        }
    };
    match reply {
        Ok(reply) => (StatusCode::OK, reply),
        Err(refusal) => (StatusCode::BAD_REQUEST, refusal),
    }
}

/// How long a message's body may take to arrive: a manager sends it at once, so a connection
/// that trickles (or stalls) is cut off rather than held open for ever.
pub const MESSAGE_READ_TIMEOUT: Duration = Duration::from_secs(5);

async fn message(State(executive): State<Arc<Executive>>, body: Body) -> Response {
    let read = tokio::time::timeout(MESSAGE_READ_TIMEOUT, to_bytes(body, MAX_MESSAGE_BYTES)).await;
    let (status, reply) = match read {
        Ok(Ok(body)) => answer(&executive, &body).await,
        Ok(Err(_)) => (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the message is cut off or longer than {MAX_MESSAGE_BYTES} bytes"),
        ),
        Err(_) => (
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the message did not arrive within {} s",
                MESSAGE_READ_TIMEOUT.as_secs()
            ),
        ),
    };
    with_protocol_headers((status, reply).into_response())
}

async fn preflight() -> Response {
    with_protocol_headers(StatusCode::OK.into_response())
}

fn with_protocol_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    for (name, value) in CORS_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Serves `executive` on `address` until the process ends; `listening` is told the address
/// bound (the port chosen when `address` asks for port 0) once connections are accepted.
pub fn serve(
    executive: Arc<Executive>,
    address: SocketAddr,
    listening: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(address).await?;
        listening(listener.local_addr()?);
        axum::serve(listener, router(executive)).await
    })
}
