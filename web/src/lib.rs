//! `ludeme serve`: a local web page to look at and play the games of a folder.
//!
//! The server is axum on tokio. It is made of:
//!
//! - [`library`] — the folder: its games by relative path, read through the analysis crate's
//!   host and loader, followed on disk, with their engines ([`Analysis::playable`]);
//! - [`api`] — the JSON API the page calls, and the server-sent events that tell it a file
//!   changed;
//! - [`guard`] — who may talk to the server (this machine, by a loopback name, by default);
//! - [`assets`] — the page itself (HTML, JavaScript, CSS from `web/page/`), embedded in the
//!   binary: nothing is fetched from elsewhere;
//! - [`error`] — the one JSON form of a refusal.
//!
//! One door: games are reached only through `ludeme-analysis` ([`AnalysisHost`],
//! [`Analysis`], [`PlayableGame`]); this crate does not depend on the engines and never
//! chooses by language.
//!
//! [`AnalysisHost`]: ludeme_analysis::AnalysisHost
//! [`Analysis`]: ludeme_analysis::Analysis
//! [`Analysis::playable`]: ludeme_analysis::Analysis::playable
//! [`PlayableGame`]: ludeme_analysis::play::PlayableGame

pub mod api;
mod assets;
mod error;
pub mod guard;
pub mod library;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use ludeme_analysis::config::Config;

pub use crate::error::ApiError;
pub use crate::guard::Audience;
pub use crate::library::Library;

/// The largest request body: a game's moves as JSON, with room to spare.
pub const BODY_LIMIT: usize = 1 << 20;

/// What `ludeme serve` was asked to serve.
pub struct ServeOptions {
    /// The folder of games.
    pub folder: PathBuf,
    /// Where to listen: a loopback address unless the user asked for another; port 0 takes
    /// any free port.
    pub address: SocketAddr,
    /// The settings in force (the folder's `ludeme.toml`).
    pub settings: Config,
}

/// The router of the page and its API, for `library`, answering `audience`.
pub fn router(library: Arc<Library>, audience: Audience) -> Router {
    let app = api::App { library };
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/games", get(api::list_games))
        .route("/api/game", get(api::game_info))
        .route("/api/position", post(api::position))
        .route("/api/move", post(api::player_move))
        .route("/api/events", get(api::events))
        .route("/api/report", get(api::report))
        .fallback(assets::not_found)
        .method_not_allowed_fallback(assets::method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(audience, guard::admit))
        .with_state(app)
}

/// Serves `library` on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    library: Arc<Library>,
    audience: Audience,
) -> std::io::Result<()> {
    let service = router(library, audience).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service).await
}

/// Binds `options.address`, calls `listening` with the page's address, and serves until the
/// process ends. An error says why it could not start or went on.
pub fn run(options: ServeOptions, listening: impl FnOnce(&str)) -> Result<(), String> {
    let library = Library::open(&options.folder, options.settings)?;
    // The engines' work runs on the blocking threads; two workers answer the requests.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the server's threads: {error}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.address)
            .await
            .map_err(|error| format!("cannot listen on {}: {error}", options.address))?;
        let bound = listener
            .local_addr()
            .map_err(|error| format!("cannot tell the address listened on: {error}"))?;
        listening(&format!("http://{bound}/"));
        serve(
            listener,
            Arc::new(library),
            Audience::for_address(bound.ip()),
        )
        .await
        .map_err(|error| format!("the server stopped: {error}"))
    })
}
