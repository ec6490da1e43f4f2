//! What the GGP tests share: `ludeme player` processes on free ports, posting a message, and
//! fake players that misbehave on purpose.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A `ludeme player` process, killed when dropped.
pub struct PlayerProcess {
    child: Child,
    pub url: String,
}

impl PlayerProcess {
    pub fn start(player: &str) -> PlayerProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
            .args(["player", "--port", "0", "--player", player])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ludeme player starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut first)
            .expect("the player says where it listens");
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in `{first}`"))
            .to_owned();
        PlayerProcess { child, url }
    }

    /// Whether the process still runs.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("waitable").is_none()
    }
}

impl Drop for PlayerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw HTTP exchange: the status code, the headers (lower-cased names) and the body.
pub struct Exchange {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Exchange {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends `method` with `body` to `url` over HTTP/1.0 and reads the whole reply.
pub fn exchange(url: &str, method: &str, body: &[u8]) -> Exchange {
    let authority = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(authority).expect("the player listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let head = format!(
        "{method} / HTTP/1.0\r\nHost: {authority}\r\nContent-Type: text/acknowledge\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).expect("a reply");
    let text = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("headers end");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Exchange {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// POSTs a message and returns the reply's status and body.
pub fn post(url: &str, message: &str) -> (u16, String) {
    let reply = exchange(url, "POST", message.as_bytes());
    (reply.status, reply.body)
}

/// A game of the shared corpus, or `None` (the caller skips) when the corpus is absent.
pub fn shared_game(relative: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/gdl")
        .join(relative);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!("*** SKIPPED: {} is absent ***", path.display());
        None
    }
}

/// How a fake player misbehaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misbehaviour {
    /// Answers its first play message after `delay`, then an illegal move every time.
    LateThenIllegal(Duration),
    /// Answers `(mark 9 9)` to every play message.
    Illegal,
    /// Ready at start, then closes its first play connection without a word and stops
    /// listening, as a crashed process would.
    CrashAtFirstPlay,
}

/// Runs a fake player on a free port in a thread; returns its URL.
pub fn fake_player(misbehaviour: Misbehaviour) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut plays = 0;
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let message = read_request(&mut stream);
            let reply = if message.starts_with("(play") {
                plays += 1;
                match misbehaviour {
                    Misbehaviour::LateThenIllegal(delay) => {
                        if plays == 1 {
                            std::thread::sleep(delay);
                        }
                        "(mark 9 9)"
                    }
                    Misbehaviour::Illegal => "(mark 9 9)",
                    Misbehaviour::CrashAtFirstPlay => {
                        drop(stream);
                        return;
                    }
                }
            } else if message.starts_with("(start") || message.starts_with("(info") {
                "ready"
            } else {
                "done"
            };
            let _ = write!(
                stream,
                "HTTP/1.0 200 OK\r\nContent-Type: text/acknowledge\r\nContent-Length: {}\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    url
}

fn read_request(stream: &mut TcpStream) -> String {
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return String::new();
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    String::from_utf8_lossy(&body).into_owned()
}
