//! After `exit` the server ends at once, as the protocol asks, even while handlers are still
//! under way.
//!
//! The protocol library stops reading the client's messages at `exit` but then waits for every
//! handler still running. A handler that awaits the client (the `initialized` handler registers
//! file watching with a request of its own) then waits for an answer nobody will read: an
//! editor closed right after it opened a folder left the server running for good. This layer
//! between the transport and the service raises a flag when `exit` arrives, and [`serve`]
//! returns on it instead of waiting for the handlers.
//!
//! [`serve`]: crate::serve

use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::sync::Notify;
use tower::Service;
use tower_lsp_server::jsonrpc::Request;

/// Wraps the language server's service; `exited` is notified when the client sends `exit`.
pub struct EndOnExit<S> {
    inner: S,
    exited: Arc<Notify>,
}

impl<S> EndOnExit<S> {
    pub fn new(inner: S, exited: Arc<Notify>) -> Self {
        Self { inner, exited }
    }
}

impl<S: Service<Request>> Service<Request> for EndOnExit<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // Raised on the call, not when the handler's future completes: the library polls a few
        // handlers at a time, and with all of them waiting for the client, `exit`'s own future
        // would never be polled.
        let exiting = request.method() == "exit";
        let future = self.inner.call(request);
        if exiting {
            // A stored permit: `serve` sees it even if it is not yet waiting.
            self.exited.notify_one();
        }
        future
    }
}
