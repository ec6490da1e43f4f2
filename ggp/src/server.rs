//! The player's HTTP server (axum on tokio): every POST body is a message, answered by the
//! [`Executive`] with the protocol's content type and open CORS ([`CORS_HEADERS`]). A body
//! that is a KIF list is a message of the GGP form ([`Request`]); any other body one of the
//! Gamemaster form ([`GamemasterRequest`]). A malformed message gets one `400` reply saying
//! what is wrong and where; the player stays up.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::executive::{Executive, PlayerConfig};
use crate::gamemaster::{GamemasterRequest, is_gamemaster_form};
use crate::messages::{MAX_MESSAGE_BYTES, Request};
use crate::transport::{CONTENT_TYPE, CORS_HEADERS, PlayerAddress};

/// The routes of a player: POST (a message) and OPTIONS (a browser's preflight) on any path.
pub fn router(executive: Arc<Executive>) -> Router {
    let route = || post(message).options(preflight);
    Router::new()
        .route("/", route())
        .route("/{*path}", route())
        .layer(DefaultBodyLimit::max(MAX_MESSAGE_BYTES))
        .with_state(executive)
}

/// The answer to one message body, which arrived at `arrived` (its clocks count from then).
pub async fn answer(
    executive: &Arc<Executive>,
    body: &[u8],
    arrived: tokio::time::Instant,
) -> (StatusCode, String) {
    let Ok(text) = std::str::from_utf8(body) else {
        return (
            StatusCode::BAD_REQUEST,
            "the message is not UTF-8 text".to_owned(),
        );
    };
    let reply = if is_gamemaster_form(text) {
        match GamemasterRequest::parse(text) {
            Ok(request) => executive.handle_gamemaster(request, arrived).await,
            Err(error) => Err(format!("malformed message {error}")),
        }
    } else {
        match Request::parse(text) {
            Ok(request) => executive.handle(request, arrived).await,
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
    // The headers are in: reading and parsing the body already count against the clock.
    let arrived = tokio::time::Instant::now();
    let read = tokio::time::timeout(MESSAGE_READ_TIMEOUT, to_bytes(body, MAX_MESSAGE_BYTES)).await;
    let (status, reply) = match read {
        Ok(Ok(body)) => answer(&executive, &body, arrived).await,
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

/// Players served by this process on loopback ports, for a match between local players
/// (`ludeme match --player local:NAME`, the editors' "Play a match"): each speaks HTTP like
/// any `ludeme player`, so the manager treats them as it treats players elsewhere. They stop
/// when this is dropped.
pub struct LocalPlayers {
    addresses: Vec<PlayerAddress>,
    executives: Vec<Arc<Executive>>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<std::thread::JoinHandle<()>>,
}

impl LocalPlayers {
    /// Starts one player per configuration, each on a free loopback port.
    pub fn start(configs: Vec<PlayerConfig>) -> std::io::Result<LocalPlayers> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        let listeners = runtime.block_on(async {
            let mut listeners = Vec::with_capacity(configs.len());
            for _ in &configs {
                listeners.push(tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?);
            }
            std::io::Result::Ok(listeners)
        })?;
        let addresses = listeners
            .iter()
            .map(|listener| {
                listener.local_addr().map(|bound| PlayerAddress {
                    host: bound.ip().to_string(),
                    port: bound.port(),
                    path: "/".to_owned(),
                })
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        let executives: Vec<Arc<Executive>> = configs.into_iter().map(Executive::new).collect();
        let served = executives.clone();
        let (shutdown, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = std::thread::spawn(move || {
            runtime.block_on(async move {
                for (listener, executive) in listeners.into_iter().zip(served) {
                    let app = router(executive);
                    tokio::spawn(async move { axum::serve(listener, app).await });
                }
                let _ = stopped.await;
            });
            // Searches still running are not waited for: their answers are moot.
            runtime.shutdown_background();
        });
        Ok(LocalPlayers {
            addresses,
            executives,
            shutdown: Some(shutdown),
            server: Some(server),
        })
    }

    /// The players' addresses, in the order of their configurations.
    pub fn addresses(&self) -> &[PlayerAddress] {
        &self.addresses
    }

    /// The players' executives, in the order of their configurations (what their matches
    /// did, such as [`Executive::model_use`]).
    pub fn executives(&self) -> &[Arc<Executive>] {
        &self.executives
    }
}

impl Drop for LocalPlayers {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}

/// `count` matches of `game` (whose rules, as sent, are `rules`) between local players named
/// by `players` (one per role, [`PLAYER_NAMES`](ludeme_analysis::play::PLAYER_NAMES)), served
/// by this process, the seats rotating; the records. What the editors' "Play a match" runs.
pub fn play_local_matches(
    game: &ludeme_analysis::play::PlayableGame,
    rules: &[crate::messages::Term],
    players: &[String],
    settings: &crate::manager::MatchSettings,
    count: usize,
) -> Result<Vec<crate::manager::MatchRecord>, String> {
    let configs = players
        .iter()
        .enumerate()
        .map(|(seat, player)| PlayerConfig {
            name: format!("{player}{}", seat + 1),
            player: player.clone(),
            seed: settings.seed ^ (seat as u64 + 1),
            opponent_models: None,
        })
        .collect();
    let local = LocalPlayers::start(configs)
        .map_err(|error| format!("the local players could not start: {error}"))?;
    Ok(crate::manager::run_series(
        game,
        rules,
        local.addresses(),
        settings,
        count,
        |_| {},
    ))
}
