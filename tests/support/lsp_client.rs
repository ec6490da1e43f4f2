//! A minimal in-process LSP client: it runs the real server (`ludeme_lsp::serve`) on in-memory
//! pipes and speaks JSON-RPC to it as an editor would.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, WriteHalf};
use tokio::sync::{mpsc, oneshot};

use super::stdio_client::{Header, frame};

type Pending = Arc<Mutex<HashMap<i64, oneshot::Sender<Value>>>>;
type Unsolicited = Arc<Mutex<Vec<Value>>>;

pub struct LspClient {
    writer: WriteHalf<DuplexStream>,
    pending: Pending,
    /// Error responses with no request id (answers to messages that could not be read).
    unsolicited: Unsolicited,
    notifications: mpsc::UnboundedReceiver<Value>,
    next_id: i64,
}

/// How long a test waits for one message before it fails.
const TIMEOUT: Duration = Duration::from_secs(20);

impl LspClient {
    /// Starts the server and a reader task routing its messages.
    pub fn start() -> Self {
        let (client_side, server_side) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_side);
        tokio::spawn(ludeme_lsp::serve(server_read, server_write));
        let (client_read, writer) = tokio::io::split(client_side);
        let pending: Pending = Arc::default();
        let (notify, notifications) = mpsc::unbounded_channel();
        let unsolicited = Unsolicited::default();
        tokio::spawn(read_messages(
            client_read,
            pending.clone(),
            unsolicited.clone(),
            notify,
        ));
        Self {
            writer,
            pending,
            unsolicited,
            notifications,
            next_id: 1,
        }
    }

    pub async fn send_raw(&mut self, body: &str) {
        self.writer.write_all(frame(body).as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    pub async fn send_raw_bytes(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// The error responses received so far that answer no request of ours.
    pub fn take_unsolicited_errors(&mut self) -> Vec<Value> {
        std::mem::take(&mut *self.unsolicited.lock().unwrap())
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_raw(&message.to_string()).await;
    }

    /// Sends a request and waits for its response (the whole response object).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let (_, rx) = self.start_request(method, params).await;
        tokio::time::timeout(TIMEOUT, rx)
            .await
            .unwrap_or_else(|_| panic!("no response to {method} within {TIMEOUT:?}"))
            .expect("the reader task is alive")
    }

    /// [`Self::request`] for slow work: waits up to `timeout` instead of the usual limit.
    pub async fn request_within(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Value {
        let (_, rx) = self.start_request(method, params).await;
        tokio::time::timeout(timeout, rx)
            .await
            .unwrap_or_else(|_| panic!("no response to {method} within {timeout:?}"))
            .expect("the reader task is alive")
    }

    /// Answers the server's request `id` with `result`.
    pub async fn respond(&mut self, id: &Value, result: Value) {
        let message = json!({"jsonrpc": "2.0", "id": id, "result": result});
        self.send_raw(&message.to_string()).await;
    }

    /// Sends a request without waiting: its id, and where its response will come.
    pub async fn start_request(
        &mut self,
        method: &str,
        params: Value,
    ) -> (i64, oneshot::Receiver<Value>) {
        let id = self.next_id;
        self.next_id += 1;
        let (tx, rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, tx);
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(&message.to_string()).await;
        (id, rx)
    }

    /// Initializes with the capabilities a real editor (Neovim 0.11) announces for the features
    /// the server offers.
    pub async fn initialize(&mut self) -> Value {
        self.initialize_with_options(Value::Null).await
    }

    /// [`Self::initialize`] with the client settings an editor sends as `initializationOptions`.
    pub async fn initialize_with_options(&mut self, options: Value) -> Value {
        self.initialize_in(options, Value::Null).await
    }

    /// [`Self::initialize`] opened on the workspace folder `root` (its `ludeme.toml` applies).
    pub async fn initialize_on_workspace(&mut self, root: &std::path::Path) -> Value {
        let root_uri = format!("file://{}", root.display());
        self.initialize_in(Value::Null, Value::String(root_uri))
            .await
    }

    async fn initialize_in(&mut self, options: Value, root_uri: Value) -> Value {
        let response = self
            .request(
                "initialize",
                json!({
                    "processId": null,
                    "clientInfo": {"name": "Neovim", "version": "0.11.0"},
                    "initializationOptions": options,
                    "rootUri": root_uri,
                    "capabilities": {
                        "general": {"positionEncodings": ["utf-16"]},
                        "textDocument": {
                            "synchronization": {"didSave": true, "dynamicRegistration": false},
                            "publishDiagnostics": {"relatedInformation": true, "versionSupport": true,
                                "tagSupport": {"valueSet": [1, 2]}},
                            "completion": {"completionItem": {"snippetSupport": true}},
                            "documentSymbol": {"hierarchicalDocumentSymbolSupport": true,
                                "symbolKind": {"valueSet": (1..=26).collect::<Vec<_>>()}}
                        },
                        "window": {"workDoneProgress": true}
                    }
                }),
            )
            .await;
        self.notify("initialized", json!({})).await;
        response
    }

    /// The next notification with `method`, skipping others (log messages and the like).
    pub async fn next_notification(&mut self, method: &str) -> Value {
        loop {
            let message = tokio::time::timeout(TIMEOUT, self.notifications.recv())
                .await
                .unwrap_or_else(|_| panic!("no {method} notification within {TIMEOUT:?}"))
                .expect("the reader task is alive");
            if message["method"] == method {
                return message["params"].clone();
            }
        }
    }

    /// The next request the server sends with `method` (the whole message: its id too),
    /// skipping notifications.
    pub async fn next_server_request(&mut self, method: &str) -> Value {
        loop {
            let message = tokio::time::timeout(TIMEOUT, self.notifications.recv())
                .await
                .unwrap_or_else(|_| panic!("no {method} request within {TIMEOUT:?}"))
                .expect("the reader task is alive");
            if message["method"] == method {
                return message;
            }
        }
    }

    /// Waits for the diagnostics of `uri` at `version`, skipping older publications.
    pub async fn diagnostics_for(&mut self, uri: &str, version: i64) -> Vec<Value> {
        loop {
            let params = self
                .next_notification("textDocument/publishDiagnostics")
                .await;
            if params["uri"] == uri && params["version"] == version {
                return params["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    pub async fn shutdown(mut self) {
        let response = self.request("shutdown", Value::Null).await;
        assert!(
            response.get("error").is_none(),
            "shutdown failed: {response}"
        );
        self.notify("exit", Value::Null).await;
    }
}

async fn read_messages(
    reader: tokio::io::ReadHalf<DuplexStream>,
    pending: Pending,
    unsolicited: Unsolicited,
    notify: mpsc::UnboundedSender<Value>,
) {
    let mut reader = BufReader::new(reader);
    loop {
        let mut header = Header::default();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).await.is_err() {
                line.clear();
            }
            if !header.read(&line) {
                break;
            }
        }
        if !header.complete {
            return;
        }
        let length = header.content_length;
        let mut body = vec![0; length.expect("every message has a Content-Length")];
        if reader.read_exact(&mut body).await.is_err() {
            return;
        }
        let message: Value = serde_json::from_slice(&body).expect("the server sends JSON");
        // Responses go to their waiting request; notifications (and the requests this server
        // does not send yet) to the notification queue.
        if message.get("method").is_none() {
            if let Some(id) = message["id"].as_i64()
                && let Some(waiter) = pending.lock().unwrap().remove(&id)
            {
                let _ = waiter.send(message);
            } else if message["id"].is_null() {
                unsolicited.lock().unwrap().push(message);
            }
        } else {
            let _ = notify.send(message);
        }
    }
}
