//! A guard between the client and the protocol library: it reads each framed message itself,
//! forwards the well-formed ones, and answers the malformed ones with a JSON-RPC parse error.
//!
//! Why: the protocol library (tower-lsp-server) reads through a framed decoder that ends the
//! stream at the first message that is not JSON, so one bad message from a confused client
//! would stop the whole server. Here a bad message costs one error response, and the session
//! goes on. Responses of the server and the guard's own errors go through one writer task, so
//! their frames never interleave.
//!
//! A frame whose header gives no readable length (`Content-Length: abc`, a misspelt
//! `Content-Lenght`, no header at all) leaves its body, of unknown length, in the stream: the
//! guard answers it with a parse error, then skips to the next `Content-Length` header and
//! reads on from there, so that every later well-formed message is served.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The largest message accepted; a client announcing more is answered with an error and its
/// message skipped, rather than the server reserving the memory.
const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// The longest header line read at once; a longer run of bytes without a line end is read in
/// pieces of this size (each an unknown header, ignored).
const MAX_HEADER_LINE_BYTES: u64 = 64 << 10;

/// The header that gives the length of a message, in lower case (header names are compared
/// without regard to case).
const CONTENT_LENGTH: &str = "content-length";

/// One incoming message, or what was wrong with it.
enum Incoming {
    Message(Vec<u8>),
    /// A message that could not be used.
    Malformed(BadFrame),
    /// The client closed the stream (or it broke beyond resynchronising).
    End,
}

/// Why a frame could not be used, and whether the reader still knows where the next one
/// starts.
struct BadFrame {
    why: String,
    /// The frame had no readable length, so where its body ends is unknown: the next frame is
    /// looked for by its `Content-Length` header ([`skip_to_content_length`]).
    lost: bool,
}

impl BadFrame {
    fn skipped(why: String) -> Self {
        Self { why, lost: false }
    }
}

/// Reads one frame: `Content-Length` headers, a blank line, the body. `None` at the end of the
/// stream; an error when the frame cannot be used (it has been skipped whole when possible).
///
/// With `resync`, the previous frame had no readable length, and its body (of unknown length)
/// may still be in the stream: everything up to the next `Content-Length` header is skipped.
/// And a `Content-Length` header is recognised anywhere on a header line, so that one run
/// together with the tail of a broken message before it (`...}Content-Length: 52`) still
/// starts the next frame.
async fn read_frame<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    resync: bool,
) -> Option<Result<Vec<u8>, BadFrame>> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    if resync {
        if !skip_to_content_length(reader).await {
            return None;
        }
        // The rest of the header line, after the colon.
        length = parse_length(&read_header_line(reader).await?);
        saw_header = true;
    }
    loop {
        let line = read_header_line(reader).await?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue; // stray blank lines between messages
        }
        saw_header = true;
        if let Some(value) = content_length_value(line) {
            length = parse_length(value);
        }
    }
    let Some(length) = length else {
        return Some(Err(BadFrame {
            why: "the message has no valid Content-Length header".to_owned(),
            lost: true,
        }));
    };
    if length > MAX_MESSAGE_BYTES {
        let mut rest = reader.take(length as u64);
        let _ = tokio::io::copy(&mut rest, &mut tokio::io::sink()).await;
        return Some(Err(BadFrame::skipped(format!(
            "the message is {length} bytes, more than the {MAX_MESSAGE_BYTES} accepted"
        ))));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.ok()?;
    Some(Ok(body))
}

/// One header line, line end included (bytes that are not UTF-8 replaced: a header line is
/// only read for a `Content-Length`); `None` at the end of the stream.
async fn read_header_line<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> Option<String> {
    let mut line = Vec::new();
    match reader
        .take(MAX_HEADER_LINE_BYTES)
        .read_until(b'\n', &mut line)
        .await
    {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&line).into_owned()),
    }
}

/// The value of the last `Content-Length` header on `line` (in any case, spaces allowed before
/// the colon), wherever on the line it starts.
fn content_length_value(line: &str) -> Option<&str> {
    // Lower-casing ASCII letters keeps every byte offset.
    let at = line.to_ascii_lowercase().rfind(CONTENT_LENGTH)?;
    line[at + CONTENT_LENGTH.len()..]
        .trim_start()
        .strip_prefix(':')
}

fn parse_length(value: &str) -> Option<usize> {
    value.trim().parse().ok()
}

/// Skips the stream up to and including the next `Content-Length` header's name and colon (in
/// any case); `false` when the stream ends first.
async fn skip_to_content_length<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> bool {
    let wanted = b"content-length:";
    // How much of `wanted` the bytes just skipped end with. The name has no proper prefix that
    // is also a suffix of what came before a mismatch, so a mismatch restarts the match (at
    // this byte, if it is the name's first).
    let mut matched = 0;
    loop {
        let buffer = match reader.fill_buf().await {
            Ok([]) | Err(_) => return false,
            Ok(buffer) => buffer,
        };
        let mut used = 0;
        let mut found = false;
        for &byte in buffer {
            used += 1;
            let byte = byte.to_ascii_lowercase();
            if byte == wanted[matched] {
                matched += 1;
            } else {
                matched = usize::from(byte == wanted[0]);
            }
            if matched == wanted.len() {
                found = true;
                break;
            }
        }
        reader.consume(used);
        if found {
            return true;
        }
    }
}

/// Reads one message from the client and checks that it is a JSON object; `resync` as for
/// [`read_frame`].
async fn read_message<R: AsyncRead + Unpin>(reader: &mut BufReader<R>, resync: bool) -> Incoming {
    match read_frame(reader, resync).await {
        None => Incoming::End,
        Some(Err(bad)) => Incoming::Malformed(bad),
        Some(Ok(body)) => match serde_json::from_slice::<Value>(&body) {
            Ok(Value::Object(_)) => Incoming::Message(body),
            Ok(_) => Incoming::Malformed(BadFrame::skipped(
                "a JSON-RPC message is a JSON object".to_owned(),
            )),
            Err(error) => Incoming::Malformed(BadFrame::skipped(format!(
                "the message is not JSON: {error}"
            ))),
        },
    }
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body);
    framed
}

fn parse_error(why: &str) -> Vec<u8> {
    let error = json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32700, "message": format!("Parse error: {why}")}});
    frame(error.to_string().as_bytes())
}

/// Whether the client has hung up (its stream ended), for the server: after that, nothing the
/// client would answer can arrive.
#[derive(Clone)]
pub struct ClientGone(tokio::sync::watch::Receiver<bool>);

impl ClientGone {
    /// `request`'s outcome, or `None` once the client has hung up without answering it.
    pub async fn unless_gone<T>(&self, request: impl std::future::Future<Output = T>) -> Option<T> {
        let mut gone = self.0.clone();
        tokio::select! {
            answer = request => Some(answer),
            _ = gone.wait_for(|&hung_up| hung_up) => None,
        }
    }
}

/// Runs `serve` (the protocol library on its own pipes) behind the guard on `input`/`output`,
/// until the server ends (after `exit`, or when the client closes its stream).
pub async fn guarded<I, O, S, F>(input: I, output: O, serve: S)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
    S: FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream, ClientGone) -> F,
    F: std::future::Future<Output = ()>,
{
    let (hung_up, client_gone) = tokio::sync::watch::channel(false);
    let (mut to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    // The guard's own error responses, written between the server's frames.
    let (errors, mut error_frames) = mpsc::unbounded_channel::<Vec<u8>>();

    let read_client = async move {
        let mut reader = BufReader::new(input);
        // Whether the last frame had no readable length, so that the next is looked for.
        let mut resync = false;
        loop {
            match read_message(&mut reader, resync).await {
                Incoming::Message(body) => {
                    resync = false;
                    if to_server.write_all(&frame(&body)).await.is_err() {
                        break;
                    }
                }
                Incoming::Malformed(bad) => {
                    resync = bad.lost;
                    let _ = errors.send(parse_error(&bad.why));
                }
                Incoming::End => break,
            }
        }
        // Closing the server's input ends the session as if the client had hung up.
        drop(to_server);
    };
    let write_client = async move {
        let mut output = output;
        let mut reader = BufReader::new(from_server);
        loop {
            // Reading a frame is not cancel-safe, so it is never raced: error responses queued
            // meanwhile are written before each server frame.
            while let Ok(error) = error_frames.try_recv() {
                if output.write_all(&error).await.is_err() {
                    return;
                }
            }
            let _ = output.flush().await;
            let next = tokio::select! {
                biased;
                Some(error) = error_frames.recv() => Some(error),
                ready = reader.fill_buf() => match ready {
                    Ok([]) | Err(_) => None,
                    Ok(_) => match read_frame(&mut reader, false).await {
                        Some(Ok(body)) => Some(frame(&body)),
                        _ => None,
                    },
                },
            };
            match next {
                Some(bytes) => {
                    if output.write_all(&bytes).await.is_err() {
                        return;
                    }
                }
                None => break,
            }
        }
        let _ = output.flush().await;
    };
    let session = async {
        tokio::join!(
            serve(server_input, server_output, ClientGone(client_gone)),
            write_client
        )
    };
    tokio::pin!(session);
    tokio::pin!(read_client);
    tokio::select! {
        // The server ended (`exit`): stop reading the client.
        _ = &mut session => {}
        // The client hung up: let the server finish what it has, and tell it, so that what
        // waits for the client's answer gives up instead of holding the session open.
        _ = &mut read_client => {
            let _ = hung_up.send(true);
            session.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A stand-in for the protocol library: answers every request (a message with an `id`) with
    /// its id, until its input ends.
    async fn echo(input: tokio::io::DuplexStream, mut output: tokio::io::DuplexStream) {
        let mut reader = BufReader::new(input);
        while let Some(Ok(body)) = read_frame(&mut reader, false).await {
            let message: Value = serde_json::from_slice(&body).expect("the guard forwards JSON");
            if let Some(id) = message.get("id") {
                let response = json!({"jsonrpc": "2.0", "id": id, "result": "answered"});
                if output
                    .write_all(&frame(response.to_string().as_bytes()))
                    .await
                    .is_err()
                {
                    return;
                }
            }
        }
    }

    /// Everything the guard writes back when the client sends `bytes` and closes its stream.
    async fn replies(bytes: Vec<u8>) -> Vec<Value> {
        let (mut client, server) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server);
        let guard = tokio::spawn(guarded(server_read, server_write, |input, output, _| {
            echo(input, output)
        }));
        client.write_all(&bytes).await.unwrap();
        client.shutdown().await.unwrap();
        let mut output = Vec::new();
        client.read_to_end(&mut output).await.unwrap();
        guard.await.unwrap();
        let mut reader = BufReader::new(output.as_slice());
        let mut replies = Vec::new();
        while let Some(Ok(body)) = read_frame(&mut reader, false).await {
            replies.push(serde_json::from_slice(&body).unwrap());
        }
        replies
    }

    fn request(id: i64) -> String {
        json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {}})
            .to_string()
    }

    fn framed(id: i64) -> String {
        let body = request(id);
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// The ids answered, and the number of parse errors.
    fn answered(replies: &[Value]) -> (Vec<i64>, usize) {
        let ids = replies
            .iter()
            .filter_map(|reply| reply["id"].as_i64())
            .collect();
        let errors = replies
            .iter()
            .filter(|reply| reply["error"]["code"] == -32700)
            .count();
        (ids, errors)
    }

    #[tokio::test]
    async fn every_well_formed_request_after_a_malformed_header_is_answered() {
        let body = request(1);
        let length = body.len();
        let malformed = [
            format!("Content-Length: abc\r\n\r\n{body}"),
            format!("Content-Lenght: {length}\r\n\r\n{body}"),
            format!("Content-Length: -{length}\r\n\r\n{body}"),
            format!("Content-Type: application/json\r\n\r\n{body}"),
            // No body at all.
            "Content-Length: abc\r\n\r\n".to_owned(),
            // A body of several lines, blank ones among them.
            "Content-Lenght: 40\r\n\r\n{\r\n\r\n  \"id\": 1,\n\n  \"method\": \"x\"\n}\n"
                .to_owned(),
            // A header of bytes that are not UTF-8.
            "Content-Length: \u{fffd}\r\n\r\n".to_owned(),
            // A length too short: the body's tail runs into the next header.
            format!("Content-Length: 5\r\n\r\n{body}"),
        ];
        for bad in malformed {
            let mut bytes = bad.clone().into_bytes();
            for id in 2..=4 {
                bytes.extend_from_slice(framed(id).as_bytes());
            }
            let replies = replies(bytes).await;
            let (ids, errors) = answered(&replies);
            assert_eq!(ids, [2, 3, 4], "after {bad:?}: {replies:?}");
            assert_eq!(errors, 1, "after {bad:?}: {replies:?}");
        }
    }

    #[tokio::test]
    async fn bytes_that_are_not_utf8_in_a_header_do_not_end_the_session() {
        let mut bytes = b"X-Junk: \xff\xfe\r\n".to_vec();
        bytes.extend_from_slice(framed(1).as_bytes());
        bytes.extend_from_slice(b"\xff\xff\xff\r\n\r\n");
        bytes.extend_from_slice(framed(2).as_bytes());
        let replies = replies(bytes).await;
        assert_eq!(answered(&replies), (vec![1, 2], 1), "{replies:?}");
    }

    #[tokio::test]
    async fn headers_are_read_in_any_case_and_with_other_headers() {
        let body = request(1);
        let bytes = format!(
            "content-length: {}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{body}{}",
            body.len(),
            framed(2)
        );
        let replies = replies(bytes.into_bytes()).await;
        assert_eq!(answered(&replies), (vec![1, 2], 0), "{replies:?}");
    }

    #[test]
    fn a_content_length_header_is_found_anywhere_on_its_line() {
        assert_eq!(content_length_value("Content-Length: 52"), Some(" 52"));
        assert_eq!(content_length_value("CONTENT-LENGTH : 7"), Some(" 7"));
        assert_eq!(
            content_length_value("{\"id\": 1}Content-Length: 9"),
            Some(" 9")
        );
        assert_eq!(content_length_value("Content-Lenght: 52"), None);
        assert_eq!(content_length_value("Content-Type: x"), None);
    }
}
