//! Who may use the admin page and API: a loopback peer (checked by the caller) whose
//! request names the sandbox itself, and, when the sandbox was started with an admin
//! token, that token.
//!
//! Why the `Host` check: a page on `attacker.example` can make its own name resolve to
//! 127.0.0.1 (DNS rebinding). The browser then sends that page's requests to the
//! sandbox from a loopback peer, with `Host: attacker.example:PORT` and a matching
//! `Origin`, and lets the page read the answers (OTPs, deliveries) because to the
//! browser they are same-origin. Only a `Host` that is a loopback name or address with
//! the sandbox's own port is the sandbox's page; an `Origin`, when present, must be
//! one too.
//!
//! The token (`--admin-token`, [`crate::SandboxConfig::admin_token`]) is for machines
//! where other local users or programs must not drive the sandbox: it is taken from the
//! `X-Sandbox-Admin-Token` header (what the helpers send), from the
//! `baas_sandbox_admin` cookie, or from `?token=` in the URL of a GET, which also sets
//! that cookie (`HttpOnly; SameSite=Strict`) so the page's own forms carry it.

use hyper::header::{HeaderMap, COOKIE, HOST, ORIGIN};
use hyper::Uri;
use sha2::{Digest, Sha256};

/// The header the helpers send the admin token in.
pub(crate) const TOKEN_HEADER: &str = "x-sandbox-admin-token";
/// The cookie the page keeps the token in (set by a GET with `?token=`).
pub(crate) const TOKEN_COOKIE: &str = "baas_sandbox_admin";

/// Why an admin request is refused (the body of the 403).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No `Host`, or one that is not a loopback name or address with the sandbox's port.
    Host,
    /// An `Origin` that is not a loopback name or address with the sandbox's port.
    Origin,
    /// The sandbox has an admin token and the request does not carry it.
    Token,
}

impl Refusal {
    pub(crate) fn message(self) -> &'static str {
        match self {
            Refusal::Host => {
                "refused: the admin page answers requests addressed to the sandbox itself \
                 (Host: 127.0.0.1, localhost or [::1] with the sandbox's port)"
            }
            Refusal::Origin => {
                "refused: the Origin is not the sandbox's own page (a loopback name or \
                 address with the sandbox's port)"
            }
            Refusal::Token => {
                "refused: this sandbox was started with --admin-token: send it in the \
                 X-Sandbox-Admin-Token header, or open the admin URL the banner printed"
            }
        }
    }
}

/// True when `authority` (`host[:port]`, as in `Host`) is a loopback name or address
/// with `port` (no port is port 80).
pub(crate) fn is_own_authority(authority: &str, port: u16) -> bool {
    let (host, given) = match authority.rsplit_once(':') {
        // `[::1]:8080`, `127.0.0.1:8080`, `localhost:8080`; `[::1]` has a `:` inside.
        Some((host, p)) if !p.contains(']') => match p.parse::<u16>() {
            Ok(p) => (host, p),
            Err(_) => return false,
        },
        _ => (authority, 80),
    };
    if given != port {
        return false;
    }
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    // An IPv6 address must come bracketed, an IPv4 one bare.
    match bare.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(ip)) => bare == host && ip.is_loopback(),
        Ok(std::net::IpAddr::V6(ip)) => bare != host && ip.is_loopback(),
        Err(_) => false,
    }
}

/// The refusal of a request for `uri` with `headers` to a sandbox on `port` with
/// admin token `token`, if any.
pub(crate) fn check(
    uri: &Uri,
    headers: &HeaderMap,
    port: u16,
    token: Option<&str>,
) -> Option<Refusal> {
    let mut hosts = headers.get_all(HOST).iter();
    let host = match (hosts.next(), hosts.next()) {
        (Some(h), None) => h.to_str().ok(),
        _ => None,
    };
    // An absolute-form request line names the host too: both must be the sandbox.
    let named = uri.authority().map(|a| a.as_str());
    match (host, named) {
        (Some(h), Some(n)) if is_own_authority(h, port) && is_own_authority(n, port) => {}
        (Some(h), None) if is_own_authority(h, port) => {}
        _ => return Some(Refusal::Host),
    }
    let mut origins = headers.get_all(ORIGIN).iter();
    match (origins.next(), origins.next()) {
        (None, _) => {}
        (Some(origin), None) => {
            let own = origin
                .to_str()
                .ok()
                .and_then(|o| o.strip_prefix("http://"))
                .is_some_and(|a| is_own_authority(a, port));
            if !own {
                return Some(Refusal::Origin);
            }
        }
        _ => return Some(Refusal::Origin),
    }
    match token {
        Some(token) if !carries(uri, headers, token) => Some(Refusal::Token),
        _ => None,
    }
}

/// True when the request carries `token` in the header, the cookie or `?token=`.
fn carries(uri: &Uri, headers: &HeaderMap, token: &str) -> bool {
    let header = headers
        .get_all(TOKEN_HEADER)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| same(v, token));
    header || cookie(headers).is_some_and(|v| same(&v, token)) || query_token(uri, token)
}

/// The token given as `?token=` in `uri`, when it is `token`.
pub(crate) fn query_token(uri: &Uri, token: &str) -> bool {
    let Some(query) = uri.query() else {
        return false;
    };
    let url = format!("http://q/?{query}");
    baas_runtime::transport::reqwest::Url::parse(&url)
        .map(|u| {
            u.query_pairs()
                .any(|(k, v)| k == "token" && same(&v, token))
        })
        .unwrap_or(false)
}

fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == TOKEN_COOKIE)
        .map(|(_, value)| value.to_owned())
}

/// Compares digests, so the time taken says nothing about how much of a guess matched.
fn same(given: &str, token: &str) -> bool {
    Sha256::digest(given.as_bytes()) == Sha256::digest(token.as_bytes())
}

/// The `Set-Cookie` value that keeps `token` for the page's own requests.
pub(crate) fn set_cookie(token: &str) -> String {
    format!("{TOKEN_COOKIE}={token}; Path=/_sandbox; HttpOnly; SameSite=Strict")
}

/// True when `token` can travel in a header, a cookie and a URL unchanged: printable
/// ASCII without space, `;`, `,`, `"`, `\`, `&`, `#`, `%`, `+` or `=`.
pub(crate) fn token_is_plain(token: &str) -> bool {
    !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b";,\"\\&#%+=".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn uri(s: &str) -> Uri {
        s.parse().unwrap()
    }

    #[test]
    fn only_loopback_names_with_the_port_are_the_sandbox() {
        for own in [
            "127.0.0.1:18080",
            "localhost:18080",
            "LocalHost:18080",
            "[::1]:18080",
            "127.1.2.3:18080",
        ] {
            assert!(is_own_authority(own, 18080), "{own}");
        }
        for other in [
            "attacker.example:18080",
            "127.0.0.1:18081",
            "127.0.0.1",
            "localhost",
            "localhost.:18080",
            "127.0.0.1.attacker.example:18080",
            "::1:18080",
            "[127.0.0.1]:18080",
            "10.0.0.1:18080",
            "0.0.0.0:18080",
            "",
            ":18080",
            "localhost:18080:18080",
            "localhost:x",
        ] {
            assert!(!is_own_authority(other, 18080), "{other}");
        }
        assert!(is_own_authority("localhost", 80));
    }

    #[test]
    fn the_rebinding_pair_is_refused() {
        let rebinding = headers(&[
            ("host", "attacker.example:18080"),
            ("origin", "http://attacker.example:18080"),
        ]);
        let path = uri("/_sandbox/api/accounts");
        assert_eq!(check(&path, &rebinding, 18080, None), Some(Refusal::Host));
        let no_origin = headers(&[("host", "attacker.example:18080")]);
        assert_eq!(check(&path, &no_origin, 18080, None), Some(Refusal::Host));
        assert_eq!(
            check(&path, &HeaderMap::new(), 18080, None),
            Some(Refusal::Host)
        );
        let two_hosts = headers(&[("host", "127.0.0.1:18080"), ("host", "evil:18080")]);
        assert_eq!(check(&path, &two_hosts, 18080, None), Some(Refusal::Host));
        let absolute = uri("http://attacker.example:18080/_sandbox/api/accounts");
        let own = headers(&[("host", "127.0.0.1:18080")]);
        assert_eq!(check(&absolute, &own, 18080, None), Some(Refusal::Host));
        let other_origin = headers(&[
            ("host", "127.0.0.1:18080"),
            ("origin", "http://attacker.example:18080"),
        ]);
        assert_eq!(
            check(&path, &other_origin, 18080, None),
            Some(Refusal::Origin)
        );
        let null_origin = headers(&[("host", "127.0.0.1:18080"), ("origin", "null")]);
        assert_eq!(
            check(&path, &null_origin, 18080, None),
            Some(Refusal::Origin)
        );
        assert_eq!(check(&path, &own, 18080, None), None);
        let same = headers(&[
            ("host", "localhost:18080"),
            ("origin", "http://localhost:18080"),
        ]);
        assert_eq!(check(&path, &same, 18080, None), None);
    }

    #[test]
    fn the_token_comes_in_the_header_the_cookie_or_the_query() {
        let path = uri("/_sandbox/api/accounts");
        let bare = headers(&[("host", "127.0.0.1:1")]);
        assert_eq!(check(&path, &bare, 1, Some("s3cret")), Some(Refusal::Token));
        let wrong = headers(&[("host", "127.0.0.1:1"), (TOKEN_HEADER, "s3cre")]);
        assert_eq!(
            check(&path, &wrong, 1, Some("s3cret")),
            Some(Refusal::Token)
        );
        let header = headers(&[("host", "127.0.0.1:1"), (TOKEN_HEADER, "s3cret")]);
        assert_eq!(check(&path, &header, 1, Some("s3cret")), None);
        let cookie = headers(&[
            ("host", "127.0.0.1:1"),
            ("cookie", "a=b; baas_sandbox_admin=s3cret"),
        ]);
        assert_eq!(check(&path, &cookie, 1, Some("s3cret")), None);
        assert_eq!(
            check(&uri("/_sandbox/?token=s3cret"), &bare, 1, Some("s3cret")),
            None
        );
        assert_eq!(
            check(&uri("/_sandbox/?token=s3cretX"), &bare, 1, Some("s3cret")),
            Some(Refusal::Token)
        );
        // The token never excuses a foreign Host.
        let foreign = headers(&[("host", "attacker.example:1"), (TOKEN_HEADER, "s3cret")]);
        assert_eq!(
            check(&path, &foreign, 1, Some("s3cret")),
            Some(Refusal::Host)
        );
        assert!(token_is_plain("abc-DEF_123.~!"));
        for bad in ["", "a b", "a;b", "a=b", "é", "a%20"] {
            assert!(!token_is_plain(bad), "{bad}");
        }
    }
}
