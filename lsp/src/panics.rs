//! A panic in a request or notification handler must not end the session: the protocol
//! library polls handlers inside its own loop, where a panic would unwind through the whole
//! server. This layer between the transport and the service catches it, answers the request
//! with an internal error (a notification has nothing to answer), tells the user through
//! `window/showMessage`, and lets the session go on.

use std::panic::AssertUnwindSafe;
use std::task::{Context, Poll};

use futures::FutureExt;
use futures::future::BoxFuture;
use tower::Service;
use tower_lsp_server::Client;
use tower_lsp_server::jsonrpc::{Error, Request, Response};
use tower_lsp_server::ls_types::MessageType;

/// Wraps the language server's service.
pub struct CatchPanics<S> {
    inner: S,
    client: Client,
}

impl<S> CatchPanics<S> {
    pub fn new(inner: S, client: Client) -> Self {
        Self { inner, client }
    }
}

impl<S> Service<Request> for CatchPanics<S>
where
    S: Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let id = request.id().cloned();
        let method = request.method().to_owned();
        let client = self.client.clone();
        // Routing itself runs here, before the handler's future is polled.
        let handled = std::panic::catch_unwind(AssertUnwindSafe(|| self.inner.call(request)));
        async move {
            let payload = match handled {
                Ok(future) => match AssertUnwindSafe(future).catch_unwind().await {
                    Ok(result) => return result,
                    Err(payload) => payload,
                },
                Err(payload) => payload,
            };
            let what = ludeme_analysis::panic_message(payload.as_ref());
            client
                .show_message(
                    MessageType::ERROR,
                    format!(
                        "Ludeme: an internal error occurred while handling `{method}` ({what}). \
                         The server goes on; please report this with the file you were editing."
                    ),
                )
                .await;
            Ok(id.map(|id| {
                let mut error = Error::internal_error();
                error.message = format!("the server failed while handling {method}: {what}").into();
                Response::from_error(id, error)
            }))
        }
        .boxed()
    }
}
