//! A guard between the client and the protocol library: it reads each framed message itself,
//! forwards the well-formed ones, and answers the malformed ones with a JSON-RPC parse error.
//!
//! Why: the protocol library (tower-lsp-server) reads through a framed decoder that ends the
//! stream at the first message that is not JSON, so one bad message from a confused client
//! would stop the whole server. Here a bad message costs one error response, and the session
//! goes on. Responses of the server and the guard's own errors go through one writer task, so
//! their frames never interleave.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The largest message accepted; a client announcing more is answered with an error and its
/// message skipped, rather than the server reserving the memory.
const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// One incoming message, or what was wrong with it.
enum Incoming {
    Message(Vec<u8>),
    /// A message whose body could not be used; the frame itself was read whole.
    Malformed(String),
    /// The client closed the stream (or it broke beyond resynchronising).
    End,
}

/// Reads one frame: `Content-Length` headers, a blank line, the body. `None` at the end of the
/// stream; an error when the frame cannot be used (it has been skipped whole when possible).
async fn read_frame<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
) -> Option<Result<Vec<u8>, String>> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line).await {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            continue; // stray blank lines between messages
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok();
        }
    }
    let Some(length) = length else {
        return Some(Err(
            "the message has no valid Content-Length header".to_owned()
        ));
    };
    if length > MAX_MESSAGE_BYTES {
        let mut rest = reader.take(length as u64);
        let _ = tokio::io::copy(&mut rest, &mut tokio::io::sink()).await;
        return Some(Err(format!(
            "the message is {length} bytes, more than the {MAX_MESSAGE_BYTES} accepted"
        )));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.ok()?;
    Some(Ok(body))
}

/// Reads one message from the client and checks that it is a JSON object.
async fn read_message<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> Incoming {
    match read_frame(reader).await {
        None => Incoming::End,
        Some(Err(why)) => Incoming::Malformed(why),
        Some(Ok(body)) => match serde_json::from_slice::<Value>(&body) {
            Ok(Value::Object(_)) => Incoming::Message(body),
            Ok(_) => Incoming::Malformed("a JSON-RPC message is a JSON object".to_owned()),
            Err(error) => Incoming::Malformed(format!("the message is not JSON: {error}")),
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

/// Runs `serve` (the protocol library on its own pipes) behind the guard on `input`/`output`,
/// until the server ends (after `exit`, or when the client closes its stream).
pub async fn guarded<I, O, S, F>(input: I, output: O, serve: S)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
    S: FnOnce(tokio::io::DuplexStream, tokio::io::DuplexStream) -> F,
    F: std::future::Future<Output = ()>,
{
    let (mut to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    // The guard's own error responses, written between the server's frames.
    let (errors, mut error_frames) = mpsc::unbounded_channel::<Vec<u8>>();

    let read_client = async move {
        let mut reader = BufReader::new(input);
        loop {
            match read_message(&mut reader).await {
                Incoming::Message(body) => {
                    if to_server.write_all(&frame(&body)).await.is_err() {
                        break;
                    }
                }
                Incoming::Malformed(why) => {
                    let _ = errors.send(parse_error(&why));
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
                    Ok(_) => match read_frame(&mut reader).await {
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
    let session = async { tokio::join!(serve(server_input, server_output), write_client) };
    tokio::pin!(session);
    tokio::pin!(read_client);
    tokio::select! {
        // The server ended (`exit`): stop reading the client.
        _ = &mut session => {}
        // The client hung up: let the server finish what it has.
        _ = &mut read_client => { session.await; }
    }
}
