//! Who may talk to the server. Bound to a loopback address (the default), it answers only
//! requests that come from this machine and are addressed to it by a loopback name: a web page
//! elsewhere cannot reach it through a name it resolves to 127.0.0.1 (DNS rebinding), since the
//! browser then sends that name as `Host`. Bound elsewhere on purpose (`--bind`), it answers
//! any host.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::HOST;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// Whom the server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Requests from this machine, addressed to a loopback name.
    ThisMachine,
    /// Anyone who can reach the address bound.
    Anyone,
}

impl Audience {
    /// The audience of a server bound to `address`: this machine for a loopback address.
    pub fn for_address(address: IpAddr) -> Audience {
        if address.is_loopback() {
            Audience::ThisMachine
        } else {
            Audience::Anyone
        }
    }
}

/// Refuses a request that the audience does not include, with 403 and the reason.
pub async fn admit(State(audience): State<Audience>, request: Request, next: Next) -> Response {
    if audience == Audience::ThisMachine {
        // Set by the server for every connection ([`crate::serve`]); a router served without
        // it (in a test) is judged by the `Host` header alone.
        let peer = request.extensions().get::<ConnectInfo<SocketAddr>>();
        if let Some(ConnectInfo(peer)) = peer
            && !peer.ip().is_loopback()
        {
            return ApiError::forbidden("this server answers only this machine").into_response();
        }
        let host = request
            .headers()
            .get(HOST)
            .and_then(|value| value.to_str().ok());
        if !host.is_some_and(is_loopback_host) {
            return ApiError::forbidden(
                "this server answers only requests addressed to localhost, 127.0.0.1 or [::1] \
                 (start it with --bind to serve other names)",
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// Whether a `Host` header names this machine by a loopback name: `localhost` (or a name under
/// `.localhost`, which resolvers keep on this machine), an IPv4 loopback address or `[::1]`,
/// with or without a port.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim();
    let name = if let Some(rest) = host.strip_prefix('[') {
        match rest.split_once(']') {
            Some((inside, after)) if after.is_empty() || is_port(after) => {
                return inside
                    .parse::<std::net::Ipv6Addr>()
                    .is_ok_and(|ip| ip.is_loopback());
            }
            _ => return false,
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if is_port(&format!(":{port}")) => name,
            Some(_) => return false,
            None => host,
        }
    };
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `:` followed by a port number.
fn is_port(text: &str) -> bool {
    text.strip_prefix(':')
        .is_some_and(|port| !port.is_empty() && port.parse::<u16>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_are_admitted_with_or_without_a_port() {
        for host in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.",
            "play.localhost:1",
            "127.0.0.1",
            "127.0.0.1:7878",
            "127.1.2.3",
            "[::1]",
            "[::1]:7878",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn other_names_are_refused() {
        for host in [
            "",
            "example.com",
            "localhost.example.com",
            "attacker.test:7878",
            "10.0.0.1",
            "0.0.0.0",
            "[::]",
            "[::1]x",
            "localhost:port",
            "localhost:99999",
            "127.0.0.1.nip.io",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn the_audience_follows_the_address_bound() {
        assert_eq!(
            Audience::for_address("127.0.0.1".parse().unwrap()),
            Audience::ThisMachine
        );
        assert_eq!(
            Audience::for_address("::1".parse().unwrap()),
            Audience::ThisMachine
        );
        assert_eq!(
            Audience::for_address("0.0.0.0".parse().unwrap()),
            Audience::Anyone
        );
    }
}
