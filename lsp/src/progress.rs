//! `$/progress` for the background work (probes, nearest-game searches, bench figures), so the
//! editor shows that something runs and when it ends.
//!
//! The server asks the client for a token first (`window/workDoneProgress/create`) when the
//! client announced `window.workDoneProgress`; a client that never answers costs the work no
//! time, since the work does not wait for the answer beyond a short grace.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tower_lsp_server::ls_types::ProgressToken;
use tower_lsp_server::{Client, OngoingProgress};

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
    let Some(token) = create_token(client, supported).await else {
        return work.await;
    };
    let progress = client
        .progress(token, title.to_owned())
        .with_message(message)
        .begin()
        .await;
    let mut end = EndOnDrop(Some(progress));
    let result = work.await;
    end.finish().await;
    result
}

/// [`with_progress`] with a cancel button: the client's `window/workDoneProgress/cancel` for
/// this progress raises `stop` (see [`cancel`]). The progress ends even when the future is
/// dropped half-way (a `$/cancelRequest`).
pub async fn with_cancellable_progress<T>(
    client: &Client,
    supported: bool,
    title: &str,
    message: String,
    stop: Arc<AtomicBool>,
    work: impl Future<Output = T>,
) -> T {
    let Some(token) = create_token(client, supported).await else {
        return work.await;
    };
    let _registered = Registered::new(&token, stop);
    let progress = client
        .progress(token, title.to_owned())
        .with_message(message)
        .with_cancel_button()
        .begin()
        .await;
    let mut end = EndOnDrop(Some(progress));
    let result = work.await;
    end.finish().await;
    result
}

/// Raises the stop flag of the cancellable progress `token`, if one runs (the client's
/// `window/workDoneProgress/cancel`); other tokens are ignored.
pub fn cancel(token: &ProgressToken) {
    if let Some(stop) = lock_cancellable().get(&token_key(token)) {
        stop.store(true, Ordering::Relaxed);
    }
}

/// A new token the client accepted, or `None` (unsupported, refused, or not answered in time).
async fn create_token(client: &Client, supported: bool) -> Option<ProgressToken> {
    if !supported {
        return None;
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
    matches!(created, Ok(Ok(()))).then_some(token)
}

/// The stop flags of the cancellable progresses running, by token.
static CANCELLABLE: Mutex<BTreeMap<String, Arc<AtomicBool>>> = Mutex::new(BTreeMap::new());

fn lock_cancellable() -> MutexGuard<'static, BTreeMap<String, Arc<AtomicBool>>> {
    // A panic elsewhere while holding the lock leaves the map itself sound.
    CANCELLABLE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn token_key(token: &ProgressToken) -> String {
    match token {
        ProgressToken::String(text) => text.clone(),
        ProgressToken::Number(number) => number.to_string(),
    }
}

/// A token's stop flag, registered while its work runs.
struct Registered(String);

impl Registered {
    fn new(token: &ProgressToken, stop: Arc<AtomicBool>) -> Self {
        let key = token_key(token);
        lock_cancellable().insert(key.clone(), stop);
        Registered(key)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        lock_cancellable().remove(&self.0);
    }
}

/// Ends the progress when the work ends or its future is dropped (the end is sent from a task
/// of its own, since a drop cannot wait).
struct EndOnDrop<B: Send + 'static, C: Send + 'static>(Option<OngoingProgress<B, C>>);

impl<B: Send + 'static, C: Send + 'static> EndOnDrop<B, C> {
    /// Ends the progress now (before the work's answer is sent).
    async fn finish(&mut self) {
        if let Some(progress) = self.0.take() {
            progress.finish().await;
        }
    }
}

impl<B: Send + 'static, C: Send + 'static> Drop for EndOnDrop<B, C> {
    fn drop(&mut self) {
        if let Some(progress) = self.0.take() {
            tokio::spawn(progress.finish());
        }
    }
}
