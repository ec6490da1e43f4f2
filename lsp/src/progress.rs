//! `$/progress` for the background work (probes, nearest-game searches, bench figures), so the
//! editor shows that something runs and when it ends.
//!
//! The server asks the client for a token first (`window/workDoneProgress/create`) when the
//! client announced `window.workDoneProgress`; a client that never answers costs the work no
//! time, since the work does not wait for the answer beyond a short grace.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tower_lsp_server::Client;
use tower_lsp_server::ls_types::ProgressToken;

/// How long to wait for the client to accept a progress token.
const CREATE_GRACE: Duration = Duration::from_secs(2);

static NEXT_TOKEN: AtomicU64 = AtomicU64::new(1);

/// Runs `work`, reported as `title` (and `message`) when `supported`; returns its result.
pub async fn with_progress<T>(
    client: &Client,
    supported: bool,
    title: &str,
    message: String,
    work: impl Future<Output = T>,
) -> T {
    if !supported {
        return work.await;
    }
    let token = ProgressToken::String(format!(
        "ludeme/{}",
        NEXT_TOKEN.fetch_add(1, Ordering::Relaxed)
    ));
    let created = tokio::time::timeout(
        CREATE_GRACE,
        client.create_work_done_progress(token.clone()),
    )
    .await;
    if !matches!(created, Ok(Ok(()))) {
        return work.await;
    }
    let progress = client
        .progress(token, title.to_owned())
        .with_message(message)
        .begin()
        .await;
    let result = work.await;
    progress.finish().await;
    result
}
