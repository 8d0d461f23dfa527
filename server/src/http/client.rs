//! Who is asking: the client identity every per-client rule keys on (review
//! rate limits and duplicates, one report per client, chat turn limits, admin
//! login throttling).
//!
//! The identity is the socket's peer address. `X-Forwarded-For` is honoured
//! only when that peer is a proxy listed in `TRUSTED_PROXIES` (comma-separated
//! addresses or CIDR blocks, e.g. `127.0.0.1,10.0.0.0/8`): then the client is
//! the rightmost hop that is not itself a trusted proxy. Anyone else can write
//! any header, so trusting it would let a client rotate identities at will.
//! The same rule decides whether the request came in over https
//! (`X-Forwarded-Proto` from a trusted proxy), which makes cookies `Secure`.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

/// The identity of the client of one request, as a rate-limit key
/// (`ip:203.0.113.7`, or `local` when the server has no socket address,
/// as in in-process tests).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientId {
    pub key: String,
    /// The request reached the site over https.
    pub https: bool,
}

impl ClientId {
    /// `; Secure` for a cookie of a request that came over https.
    pub fn secure_cookie(&self) -> &'static str {
        if self.https {
            "; Secure"
        } else {
            ""
        }
    }
}

impl ClientId {
    pub fn local() -> ClientId {
        ClientId {
            key: "local".into(),
            https: false,
        }
    }
}

/// One address or block of `TRUSTED_PROXIES`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Block {
    addr: IpAddr,
    prefix: u8,
}

impl Block {
    fn parse(s: &str) -> Option<Block> {
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (a.trim(), Some(p.trim().parse::<u8>().ok()?)),
            None => (s.trim(), None),
        };
        let addr: IpAddr = addr.parse().ok()?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        (prefix <= max).then_some(Block { addr, prefix })
    }

    fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.addr, ip) {
            (IpAddr::V4(a), IpAddr::V4(b)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(a) & mask == u32::from(b) & mask
            }
            (IpAddr::V6(a), IpAddr::V6(b)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(a) & mask == u128::from(b) & mask
            }
            _ => false,
        }
    }
}

/// An IPv4 address carried in IPv6 (`::ffff:1.2.3.4`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// The proxies whose forwarding headers are believed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Block>);

impl TrustedProxies {
    /// `TRUSTED_PROXIES` as written; `Err` names the entry that is not an
    /// address or block (the server refuses to start rather than trust
    /// something other than what was meant).
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        let mut blocks = Vec::new();
        for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            blocks.push(Block::parse(entry).ok_or_else(|| {
                format!("TRUSTED_PROXIES 中的「{entry}」不是 IP 地址或网段（例如 127.0.0.1 或 10.0.0.0/8）")
            })?);
        }
        Ok(TrustedProxies(blocks))
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|b| b.contains(ip))
    }

    /// The client of a request that came from `peer` with `headers`.
    pub fn identify(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> ClientId {
        let Some(peer) = peer else {
            return ClientId::local();
        };
        let peer_ip = canonical(peer.ip());
        if !self.trusts(peer_ip) {
            return ClientId {
                key: format!("ip:{peer_ip}"),
                https: false,
            };
        }
        // Every X-Forwarded-For header, hops left to right; walk from the
        // right past our own proxies: the first other hop is the client.
        let hops: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|h| h.trim().parse::<IpAddr>().ok())
            .map(canonical)
            .collect();
        let client = hops
            .iter()
            .rev()
            .find(|ip| !self.trusts(**ip))
            .or(hops.first())
            .copied()
            .unwrap_or(peer_ip);
        let https = headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
        ClientId {
            key: format!("ip:{client}"),
            https,
        }
    }
}

/// Middleware: puts the request's [`ClientId`] into its extensions, where
/// handlers, server functions (through the request parts Leptos provides)
/// and the limits read it.
pub async fn identify(
    axum::extract::State(proxies): axum::extract::State<std::sync::Arc<TrustedProxies>>,
    mut req: Request,
    next: Next,
) -> Response {
    // `MockConnectInfo` stands in for the socket where there is none (tests).
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0)
        .or_else(|| {
            req.extensions()
                .get::<axum::extract::connect_info::MockConnectInfo<SocketAddr>>()
                .map(|c| c.0)
        });
    let id = proxies.identify(peer, req.headers());
    // The pages' server functions see the client as the app's type.
    req.extensions_mut()
        .insert(app::api::Viewer(id.key.clone()));
    req.extensions_mut().insert(id);
    next.run(req).await
}

/// The client of a request whose extensions went through [`identify`].
pub fn of(extensions: &axum::http::Extensions) -> ClientId {
    extensions
        .get::<ClientId>()
        .cloned()
        .unwrap_or_else(ClientId::local)
}

/// As an extractor: the identity [`identify`] found (local when it did not run).
impl<S: Send + Sync> axum::extract::FromRequestParts<S> for ClientId {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<ClientId, Self::Rejection> {
        Ok(of(&parts.extensions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &[&str], proto: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        if let Some(p) = proto {
            h.insert("x-forwarded-proto", p.parse().unwrap());
        }
        h
    }

    fn peer(s: &str) -> Option<SocketAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let none = TrustedProxies::parse("").unwrap();
        let id = none.identify(
            peer("198.51.100.4:5000"),
            &headers(&["1.2.3.4"], Some("https")),
        );
        assert_eq!(id.key, "ip:198.51.100.4");
        assert!(!id.https);
        let other = TrustedProxies::parse("10.0.0.1").unwrap();
        let id = other.identify(peer("198.51.100.4:5000"), &headers(&["1.2.3.4"], None));
        assert_eq!(id.key, "ip:198.51.100.4");
    }

    #[test]
    fn a_trusted_proxy_names_the_rightmost_untrusted_hop() {
        let p = TrustedProxies::parse("127.0.0.1, 10.0.0.0/8").unwrap();
        // The client spoofs a first hop; our proxies appended the real one.
        let id = p.identify(
            peer("127.0.0.1:1"),
            &headers(&["6.6.6.6, 203.0.113.9", "10.1.2.3"], Some("https")),
        );
        assert_eq!(id.key, "ip:203.0.113.9");
        assert!(id.https);
        // No header: the proxy itself.
        let id = p.identify(peer("127.0.0.1:1"), &HeaderMap::new());
        assert_eq!(id.key, "ip:127.0.0.1");
        // Garbage hops are ignored.
        let id = p.identify(
            peer("127.0.0.1:1"),
            &headers(&["nonsense, 203.0.113.9"], None),
        );
        assert_eq!(id.key, "ip:203.0.113.9");
    }

    #[test]
    fn mapped_ipv6_and_blocks() {
        let p = TrustedProxies::parse("192.168.0.0/16,::1").unwrap();
        assert!(p.trusts("::ffff:192.168.3.4".parse().unwrap()));
        assert!(p.trusts("::1".parse().unwrap()));
        assert!(!p.trusts("192.169.0.1".parse().unwrap()));
        let all = TrustedProxies::parse("0.0.0.0/0").unwrap();
        assert!(all.trusts("8.8.8.8".parse().unwrap()));
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.local").is_err());
    }

    #[test]
    fn no_socket_is_local() {
        let p = TrustedProxies::parse("").unwrap();
        assert_eq!(
            p.identify(None, &headers(&["1.2.3.4"], None)),
            ClientId::local()
        );
    }
}
