//! An LSP client that runs the real `ludeme lsp` binary and speaks to it over its standard
//! input and output, as an editor does. It answers the server's own requests (file watching
//! registration, progress tokens, lens refreshes) as an editor would, and hands them to the test
//! like notifications.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long a test waits for one message before it fails.
pub const TIMEOUT: Duration = Duration::from_secs(60);

// The framing of the base protocol, which the in-process client (`lsp_client.rs`) shares: this
// file stands alone, as the latency benchmark includes it by path.

/// One message of the base protocol, framed: its header and `body`.
pub fn frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// The header of one message of the base protocol, read a line at a time.
#[derive(Default)]
pub struct Header {
    /// The length of the body, when the header gives a readable one.
    pub content_length: Option<usize>,
    /// Whether the blank line ending the header was read (not the end of the input).
    pub complete: bool,
}

impl Header {
    /// Takes one line as read, line end included (so an empty line is the end of the input);
    /// whether more lines of the header follow.
    pub fn read(&mut self, line: &str) -> bool {
        if line.is_empty() {
            return false;
        }
        let line = line.trim_end();
        if line.is_empty() {
            self.complete = true;
            return false;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            self.content_length = value.parse().ok();
        }
        true
    }
}

pub struct StdioClient {
    child: Child,
    stdin: Arc<Mutex<ChildStdin>>,
    incoming: Receiver<Value>,
    /// Messages read while waiting for something else, oldest first.
    backlog: VecDeque<Value>,
    next_id: i64,
}

impl StdioClient {
    /// Starts the server `command` runs (it must speak LSP on its standard input and output).
    pub fn spawn(command: Command) -> Self {
        Self::spawn_answering(command, true)
    }

    /// Like [`StdioClient::spawn`], but the server's own requests are never answered, as by an
    /// editor that goes away before it reads them.
    pub fn spawn_unanswering(command: Command) -> Self {
        Self::spawn_answering(command, false)
    }

    fn spawn_answering(mut command: Command, answers: bool) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the language server starts");
        let stdin = Arc::new(Mutex::new(child.stdin.take().expect("piped stdin")));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, incoming) = channel();
        let answering = stdin.clone();
        std::thread::spawn(move || read_messages(stdout, sender, answers.then_some(answering)));
        Self {
            child,
            stdin,
            incoming,
            backlog: VecDeque::new(),
            next_id: 1,
        }
    }

    fn send(&self, message: &Value) {
        write_message(&self.stdin, message);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Sends a request and waits for its response (the whole response object).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// Waits for the response to request `id`.
    pub fn response(&mut self, id: i64) -> Value {
        self.wait_for(&format!("the response to request {id}"), |message| {
            message.get("method").is_none() && message["id"] == id
        })
    }

    /// The next message `wanted` accepts, keeping the others for later.
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(index) = self.backlog.iter().position(&wanted) {
            return self.backlog.remove(index).expect("the index is in range");
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) => self.backlog.push_back(message),
                Err(RecvTimeoutError::Timeout) => panic!("no {what} within {TIMEOUT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server ended before {what}"),
            }
        }
    }

    /// Waits for a notification or server request `method`; returns the whole message.
    pub fn next_message(&mut self, method: &str) -> Value {
        self.wait_for(method, |message| message["method"] == method)
    }

    /// Waits for the next publication of the diagnostics of `uri` at `version` (skipping those
    /// of other documents and versions, which stay available to later waits).
    pub fn diagnostics_for(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.wait_for("diagnostics", |message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
                && message["params"]["version"] == version
        });
        message["params"]["diagnostics"]
            .as_array()
            .expect("diagnostics are an array")
            .clone()
    }

    /// The messages received so far and not consumed.
    pub fn drain(&mut self) -> Vec<Value> {
        while let Ok(message) = self.incoming.try_recv() {
            self.backlog.push_back(message);
        }
        self.backlog.drain(..).collect()
    }

    /// Sends `initialize` with `params` and `initialized`; returns the response.
    pub fn initialize(&mut self, params: Value) -> Value {
        let response = self.request("initialize", params);
        self.notify("initialized", json!({}));
        response
    }

    pub fn open(&mut self, uri: &str, language_id: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}}),
        );
    }

    /// Shuts the server down and checks that it exits with status 0.
    pub fn shutdown(mut self) {
        let response = self.request("shutdown", Value::Null);
        assert!(response.get("error").is_none(), "shutdown: {response}");
        self.notify("exit", Value::Null);
        self.expect_exit();
    }

    /// Closes the server's input without `shutdown` or `exit`, as an editor that crashed, and
    /// checks that the server exits with status 0.
    pub fn hang_up(self) {
        // The write end of a pipe of our own takes the place of the server's input, whose
        // handle is dropped: the server reads the end of its input.
        let (_, ours) = std::io::pipe().expect("a pipe");
        let theirs = std::mem::replace(
            &mut *self
                .stdin
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
            ChildStdin::from(std::os::fd::OwnedFd::from(ours)),
        );
        drop(theirs);
        self.expect_exit();
    }

    fn expect_exit(mut self) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("the child can be waited for") {
                assert!(status.success(), "the server exited with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The server's process id (to read its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the server process is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().ok().flatten().is_none()
    }
}

impl Drop for StdioClient {
    fn drop(&mut self) {
        // A failed test must not leave the server running.
        if self.is_running() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn write_message(stdin: &Mutex<ChildStdin>, message: &Value) {
    let body = message.to_string();
    let mut stdin = stdin
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // The server may have exited (a test about exiting); the test then sees it on its own.
    let _ = write!(stdin, "{}", frame(&body));
    let _ = stdin.flush();
}

/// Reads the server's messages; answers its requests as an editor would (`null`, which is the
/// success result of every request this server sends) and forwards everything.
fn read_messages(
    stdout: std::process::ChildStdout,
    sender: Sender<Value>,
    answering: Option<Arc<Mutex<ChildStdin>>>,
) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut header = Header::default();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                line.clear();
            }
            if !header.read(&line) {
                break;
            }
        }
        let (true, Some(length)) = (header.complete, header.content_length) else {
            return;
        };
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let message: Value = serde_json::from_slice(&body).expect("the server sends JSON");
        if let Some(stdin) = &answering
            && message.get("method").is_some()
            && message.get("id").is_some()
        {
            write_message(
                stdin,
                &json!({"jsonrpc": "2.0", "id": message["id"], "result": null}),
            );
        }
        if sender.send(message).is_err() {
            return;
        }
    }
}
