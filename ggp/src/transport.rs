//! Carrying messages over HTTP: the headers ggp-base's players send with a reply (a browser
//! page may post to a player: CORS is open), and the manager's client, which posts a message
//! and reads the reply with a timeout on every step and a size limit.
//!
//! The client is plain HTTP/1.0 over a blocking socket, as ggp-base's server speaks it: one
//! request per connection, the reply read to its length or to the end of the connection.

use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::messages::MAX_MESSAGE_BYTES;

/// The content type of the protocol's bodies, both ways.
pub const CONTENT_TYPE: &str = "text/acknowledge";

/// The headers of every reply a player sends, besides its content type and length: any page
/// may post to a player (ggp-base's players answer so, for the browser-based spectators and
/// players).
pub const CORS_HEADERS: [(&str, &str); 4] = [
    ("access-control-allow-origin", "*"),
    ("access-control-allow-methods", "POST, GET, OPTIONS"),
    ("access-control-allow-headers", "Content-Type"),
    ("access-control-max-age", "86400"),
];

/// Why a message got no reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TransportError {
    /// The URL is not `http://HOST:PORT[/PATH]`.
    BadUrl(String),
    /// The player could not be reached or the connection broke: it is gone.
    Unreachable(String),
    /// No complete reply within the time allowed.
    Late,
    /// The reply broke the protocol (status, size, encoding).
    BadReply(String),
}

impl TransportError {
    /// Whether the player is gone (a match with it is aborted), rather than slow or wrong.
    pub fn player_is_gone(&self) -> bool {
        matches!(self, TransportError::Unreachable(_))
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::BadUrl(url) => write!(f, "`{url}` is not an http://HOST:PORT URL"),
            TransportError::Unreachable(why) => write!(f, "unreachable: {why}"),
            TransportError::Late => write!(f, "no reply in time"),
            TransportError::BadReply(why) => write!(f, "a reply outside the protocol: {why}"),
        }
    }
}

/// A player's address: host, port and path, from `http://HOST:PORT[/PATH]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerAddress {
    pub host: String,
    pub port: u16,
    pub path: String,
}

impl PlayerAddress {
    pub fn parse(url: &str) -> Result<PlayerAddress, TransportError> {
        let bad = || TransportError::BadUrl(url.to_owned());
        let rest = url.strip_prefix("http://").ok_or_else(bad)?;
        let (authority, path) = match rest.find('/') {
            Some(slash) => (&rest[..slash], &rest[slash..]),
            None => (rest, "/"),
        };
        let (host, port) = authority.rsplit_once(':').ok_or_else(bad)?;
        let port = port.parse().map_err(|_| bad())?;
        if host.is_empty() {
            return Err(bad());
        }
        Ok(PlayerAddress {
            host: host.to_owned(),
            port,
            path: path.to_owned(),
        })
    }
}

/// Posts `body` to the player at `address` and returns its reply's body, or why there is
/// none, within `timeout` from now (connecting, writing and reading all count).
pub fn post(
    address: &PlayerAddress,
    body: &str,
    timeout: Duration,
) -> Result<String, TransportError> {
    let deadline = Instant::now() + timeout;
    let left = || {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
            .ok_or(TransportError::Late)
    };
    let socket = (address.host.as_str(), address.port)
        .to_socket_addrs()
        .map_err(|error| TransportError::Unreachable(error.to_string()))?
        .next()
        .ok_or_else(|| TransportError::Unreachable(format!("no address for {}", address.host)))?;
    let mut stream = TcpStream::connect_timeout(&socket, left()?).map_err(|error| {
        if error.kind() == std::io::ErrorKind::TimedOut {
            TransportError::Late
        } else {
            TransportError::Unreachable(error.to_string())
        }
    })?;
    let request = format!(
        "POST {} HTTP/1.0\r\nHost: {host}:{port}\r\nAccept: text/delim\r\nSender: GAMESERVER\r\nReceiver: {host}:{port}\r\nContent-Type: {CONTENT_TYPE}\r\nContent-Length: {}\r\n\r\n{body}",
        address.path,
        body.len(),
        host = address.host,
        port = address.port,
    );
    let io_error = |error: std::io::Error| match error.kind() {
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => TransportError::Late,
        _ => TransportError::Unreachable(error.to_string()),
    };
    stream.set_write_timeout(Some(left()?)).map_err(io_error)?;
    stream.write_all(request.as_bytes()).map_err(io_error)?;
    let mut reply = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        stream.set_read_timeout(Some(left()?)).map_err(io_error)?;
        let read = stream.read(&mut buffer).map_err(io_error)?;
        if read == 0 {
            break;
        }
        reply.extend_from_slice(&buffer[..read]);
        if reply.len() > MAX_MESSAGE_BYTES {
            return Err(TransportError::BadReply(format!(
                "longer than {MAX_MESSAGE_BYTES} bytes"
            )));
        }
        if complete_body(&reply).is_some() {
            break;
        }
    }
    if reply.is_empty() {
        // The connection closed without a word: the player died while the message waited.
        return Err(TransportError::Unreachable(
            "the connection closed without a reply".to_owned(),
        ));
    }
    let body = complete_body(&reply)
        .or_else(|| body_to_end(&reply))
        .ok_or_else(|| TransportError::BadReply("no HTTP reply".to_owned()))?;
    let status = reply
        .split(|&b| b == b'\n')
        .next()
        .and_then(|line| std::str::from_utf8(line).ok())
        .and_then(|line| line.split_whitespace().nth(1))
        .unwrap_or("");
    let text = String::from_utf8(body.to_vec())
        .map_err(|_| TransportError::BadReply("not UTF-8".to_owned()))?;
    if status != "200" {
        return Err(TransportError::BadReply(format!(
            "status {status}: {}",
            text.trim()
        )));
    }
    Ok(text)
}

/// The end of the headers and the declared content length, when both have arrived.
fn head_of(reply: &[u8]) -> Option<(usize, Option<usize>)> {
    let end = reply.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&reply[..end]).ok()?;
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse().ok())?
    });
    Some((end, length))
}

/// The body, when the reply declared its length and all of it has arrived.
fn complete_body(reply: &[u8]) -> Option<&[u8]> {
    let (end, length) = head_of(reply)?;
    let length = length?;
    reply.get(end..end + length)
}

/// The body of a reply without a declared length: everything after the headers.
fn body_to_end(reply: &[u8]) -> Option<&[u8]> {
    let (end, length) = head_of(reply)?;
    match length {
        Some(_) => None,
        None => Some(&reply[end..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_from_urls() {
        assert_eq!(
            PlayerAddress::parse("http://127.0.0.1:9147").unwrap(),
            PlayerAddress {
                host: "127.0.0.1".to_owned(),
                port: 9147,
                path: "/".to_owned()
            }
        );
        assert!(PlayerAddress::parse("127.0.0.1:9147").is_err());
        assert!(PlayerAddress::parse("http://host").is_err());
        assert!(PlayerAddress::parse("http://:80").is_err());
    }

    #[test]
    fn a_refused_connection_means_the_player_is_gone() {
        // Bind then drop, so that the port is closed.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let address = PlayerAddress::parse(&format!("http://127.0.0.1:{port}")).unwrap();
        let error = post(&address, "(info)", Duration::from_secs(2)).unwrap_err();
        assert!(error.player_is_gone(), "{error}");
    }
}
