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
//!
//! The address is only looked at here: the identity every rule keys on,
//! and the only one written anywhere, is the keyed code of it that
//! `store::client_keys` makes (`k:` + HMAC-SHA256 with the database's
//! secret). The same address gives the same code, so the rules work as on
//! the address, but a stored code does not say the address, and the code
//! cannot be made from a guessed address without the secret. ([`Identifier`]
//! holds both halves: the proxies, the secret.)

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;

use crate::store::client_keys::ClientKeys;

/// The identity of the client of one request, as the rules key on it and
/// the database stores it: `k:` and 32 hex digits, the keyed code of its
/// address (`store::client_keys`), or `local` when the server has no
/// socket address, as in in-process tests. Never the address itself.
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

    /// The address of the client of a request that came from `peer` with
    /// `headers`, and whether it came over https; `None` without a socket.
    pub fn origin(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> Option<(IpAddr, bool)> {
        let peer_ip = canonical(peer?.ip());
        if !self.trusts(peer_ip) {
            return Some((peer_ip, false));
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
        Some((client, https))
    }
}

/// Names the client of each request: whose forwarding headers are believed
/// (`TRUSTED_PROXIES`) and the database's secret its key is made with (read
/// once at start, `Site::client_keys`).
#[derive(Clone, Debug)]
pub struct Identifier {
    proxies: TrustedProxies,
    keys: ClientKeys,
}

impl Identifier {
    pub fn new(proxies: TrustedProxies, keys: ClientKeys) -> Identifier {
        Identifier { proxies, keys }
    }

    /// The client of a request that came from `peer` with `headers`: its
    /// address turned into its key here, before anything can store it.
    pub fn identify(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> ClientId {
        match self.proxies.origin(peer, headers) {
            Some((address, https)) => ClientId {
                key: self.keys.key_of(&address.to_string()),
                https,
            },
            None => ClientId::local(),
        }
    }
}

/// Middleware: puts the request's [`ClientId`] into its extensions, where
/// handlers, server functions (through the request parts Leptos provides)
/// and the limits read it.
pub async fn identify(
    axum::extract::State(identifier): axum::extract::State<std::sync::Arc<Identifier>>,
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
    let id = identifier.identify(peer, req.headers());
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

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let none = TrustedProxies::parse("").unwrap();
        let id = none.origin(
            peer("198.51.100.4:5000"),
            &headers(&["1.2.3.4"], Some("https")),
        );
        assert_eq!(id, Some((ip("198.51.100.4"), false)));
        let other = TrustedProxies::parse("10.0.0.1").unwrap();
        let id = other.origin(peer("198.51.100.4:5000"), &headers(&["1.2.3.4"], None));
        assert_eq!(id, Some((ip("198.51.100.4"), false)));
    }

    #[test]
    fn a_trusted_proxy_names_the_rightmost_untrusted_hop() {
        let p = TrustedProxies::parse("127.0.0.1, 10.0.0.0/8").unwrap();
        // The client spoofs a first hop; our proxies appended the real one.
        let id = p.origin(
            peer("127.0.0.1:1"),
            &headers(&["6.6.6.6, 203.0.113.9", "10.1.2.3"], Some("https")),
        );
        assert_eq!(id, Some((ip("203.0.113.9"), true)));
        // No header: the proxy itself.
        let id = p.origin(peer("127.0.0.1:1"), &HeaderMap::new());
        assert_eq!(id, Some((ip("127.0.0.1"), false)));
        // Garbage hops are ignored.
        let id = p.origin(
            peer("127.0.0.1:1"),
            &headers(&["nonsense, 203.0.113.9"], None),
        );
        assert_eq!(id, Some((ip("203.0.113.9"), false)));
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
        let p = Identifier::new(
            TrustedProxies::parse("").unwrap(),
            ClientKeys::random().unwrap(),
        );
        assert_eq!(
            p.identify(None, &headers(&["1.2.3.4"], None)),
            ClientId::local()
        );
    }

    #[test]
    fn the_identity_is_the_keyed_code_of_the_address_never_the_address() {
        let keys = ClientKeys::random().unwrap();
        let p = Identifier::new(TrustedProxies::parse("127.0.0.1").unwrap(), keys.clone());
        let id = p.identify(
            peer("127.0.0.1:1"),
            &headers(&["203.0.113.9"], Some("https")),
        );
        assert_eq!(id.key, keys.key_of("203.0.113.9"));
        assert!(
            // The address itself, not a digit run a random hex code may
            // hold by chance (one run in about 140 had "203" in it).
            id.key.starts_with("k:") && !id.key.contains("203.0.113.9"),
            "{}",
            id.key
        );
        assert!(id.https);
        // One client, one key, whichever form its address came in.
        let again = p.identify(
            peer("[::ffff:127.0.0.1]:2"),
            &headers(&["::ffff:203.0.113.9"], None),
        );
        assert_eq!(again.key, id.key);
        let other = p.identify(peer("127.0.0.1:1"), &headers(&["203.0.113.10"], None));
        assert_ne!(other.key, id.key);
    }
}
