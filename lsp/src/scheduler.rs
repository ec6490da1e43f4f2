//! The one scheduler of the server's work off the protocol thread: requests answered on
//! snapshots ([`run_query`], [`run_cancellable`]) and background work ([`spawn_background`]).
//! Salsa's cancellation (a write while the work reads an older snapshot) becomes the protocol's
//! `ContentModified` error, and a panic an internal error, never the end of the server.

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use crate::session::Snapshot;

/// JSON-RPC error code for a request whose document changed while it was being answered.
const CONTENT_MODIFIED: i64 = -32801;

/// Runs `query` on a snapshot off the async runtime. Salsa cancellation (a newer edit) and
/// panics become JSON-RPC errors instead of taking the server down.
pub(crate) async fn run_query<T: Send + 'static>(
    snapshot: Snapshot,
    query: impl FnOnce(&Snapshot) -> T + Send + std::panic::UnwindSafe + 'static,
) -> Result<T> {
    run_cancellable(move || query(&snapshot)).await
}

/// Runs `work` (which reads analysis snapshots it owns) on a blocking thread under
/// [`salsa::Cancelled::catch`]; a write that cancels it gives [`content_modified`].
pub(crate) async fn run_cancellable<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    // What the work reads after a cancellation unwinds it is its own snapshot, dropped with it.
    let work = std::panic::AssertUnwindSafe(work);
    let task = tokio::task::spawn_blocking(move || salsa::Cancelled::catch(work));
    outcome_of(task.await)
}

/// Starts background work (a code lens's play or search) on a blocking thread; the work
/// catches its own cancellation. The caller awaits the handle, or not.
pub(crate) fn spawn_background<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> tokio::task::JoinHandle<T> {
    tokio::task::spawn_blocking(work)
}

/// The answer of work run on a blocking thread under [`salsa::Cancelled::catch`]: its value,
/// [`content_modified`] when a write cancelled it, or an internal error when it panicked.
/// Every kind of `Cancelled` comes from a write: a query waiting on another thread's query sees
/// `PropagatedPanic` when a write cancels that one, and a real panic reaches its own thread's
/// join handle.
fn outcome_of<T>(
    finished: std::result::Result<std::result::Result<T, salsa::Cancelled>, tokio::task::JoinError>,
) -> Result<T> {
    match finished {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(_cancelled_by_a_write)) => Err(content_modified()),
        Err(join_error) => {
            let mut error = Error::internal_error();
            error.message = format!("the request failed inside the server: {join_error}").into();
            Err(error)
        }
    }
}

/// Whether `error` is [`content_modified`]'s: a write cancelled the work.
pub(crate) fn is_content_modified(error: &Error) -> bool {
    error.code == ErrorCode::ServerError(CONTENT_MODIFIED)
}

/// The error of a request whose document changed while it was being answered.
fn content_modified() -> Error {
    Error {
        code: ErrorCode::ServerError(CONTENT_MODIFIED),
        message: "the document changed while the request was being answered".into(),
        data: None,
    }
}
