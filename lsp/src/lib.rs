//! The Ludeme language server.
//!
//! LSP requests are mapped onto the analysis queries of `ludeme-analysis`; this crate knows
//! nothing about game rules. Edits are applied to a rope per document (and, as tree-sitter edits,
//! to the last syntax tree so that re-parsing is incremental); queries run on database snapshots
//! off the protocol thread, and an edit cancels the queries still running for older text.

mod background;
mod breeding;
mod client_options;
pub mod config;
mod convert;
mod display;
mod document;
mod editing;
mod exit;
mod findings;
mod framing;
mod lenses;
mod navigation;
mod panics;
mod progress;
mod scheduler;
mod server;
pub mod session;
pub mod workspace;

pub use document::{Document, PositionEncoding};
pub use server::Backend;

use std::sync::{Mutex, MutexGuard};

use tower_lsp_server::{LspService, Server};

/// The guard of `mutex`, even if a panicking request poisoned it: the server's state is only
/// written by whole-step operations, so it stays usable.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The environment variable that makes the server answer its two panicking test methods.
pub const TEST_PANICS: &str = "LUDEME_LSP_TEST_PANICS";

/// The environment variable that delays the workspace scan by its value in milliseconds, so
/// that tests can resolve lenses while the workspace is still being read.
pub const TEST_SCAN_DELAY: &str = "LUDEME_LSP_TEST_SCAN_DELAY_MS";

/// Serves the protocol on `input`/`output` until the client sends `exit` or closes the stream.
pub async fn serve<I, O>(input: I, output: O)
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite + Unpin,
{
    framing::guarded(input, output, |input, output, client_gone| async move {
        let mut client = None;
        let builder = LspService::build(|connection| {
            client = Some(connection.clone());
            Backend::new(connection, client_gone)
        })
        .custom_method("ludeme/diagnostics", Backend::document_diagnostics)
        .custom_method("ludeme/rulebook", Backend::document_rulebook)
        .custom_method("ludeme/playMatch", Backend::play_match)
        .custom_method(
            "window/workDoneProgress/cancel",
            Backend::work_done_progress_cancel,
        );
        // With `LUDEME_LSP_TEST_PANICS` set (by the tests), the server answers
        // `ludeme/debugPanic` (a request) and `ludeme/debugPanicNotification` by panicking, so
        // that tests can see a panic caught, in debug and release builds alike; otherwise it
        // does not know them.
        let builder = if std::env::var_os(TEST_PANICS).is_some() {
            builder
                .custom_method("ludeme/debugPanic", Backend::debug_panic)
                .custom_method(
                    "ludeme/debugPanicNotification",
                    Backend::debug_panic_notification,
                )
        } else {
            builder
        };
        let (service, socket) = builder.finish();
        let client = client.expect("the service builder hands the client to the backend");
        let exited = std::sync::Arc::new(tokio::sync::Notify::new());
        let service = exit::EndOnExit::new(
            panics::CatchPanics::new(service, client),
            std::sync::Arc::clone(&exited),
        );
        // The session ends at `exit`, dropping the handlers still running, or when the
        // transport does after the client hung up (the handlers finish: what they asked the
        // client gives up then, see `framing::ClientGone`).
        tokio::select! {
            () = Server::new(input, output, socket).serve(service) => {}
            () = exited.notified() => {}
        }
    })
    .await;
}

/// The stack of each thread of the server's runtime: its workers and the blocking threads
/// (`spawn_blocking`) that run the analyses. The analyses recurse along the nesting of a file,
/// which the readers bound at [`ludeme_analysis::rules::MAX_NESTING_DEPTH`] levels; at that
/// depth every pass needs under 512 KiB in a debug build (a test of the analysis crate checks
/// it on 1 MiB) and under 256 KiB in a release build. Tokio's default, 2 MiB, would do; this
/// gives the margin of the main thread's usual 8 MiB, as address space reserved rather than
/// memory used.
pub const THREAD_STACK_BYTES: usize = 8 << 20;

/// Runs the server on standard input and output (`ludeme lsp`).
pub fn run_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(THREAD_STACK_BYTES)
        .build()?;
    runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // Reading standard input blocks a thread that cannot be interrupted; after `exit` the
    // client may keep its end open, so the runtime is not waited for.
    runtime.shutdown_background();
    Ok(())
}
