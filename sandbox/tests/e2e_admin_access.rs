//! Who can use the admin page and API (issue 35): a DNS-rebinding page, whose own name
//! resolves to 127.0.0.1, sends `Host: attacker.example:PORT` (and a matching `Origin`)
//! from a loopback peer; it is refused with 403 on every admin path, reading or acting.
//! With `--admin-token`, a request without the token is refused too, and the token opens
//! the page in the header, the cookie the page sets, or `?token=`.

use std::time::Duration;

use baas_sandbox::{Sandbox, SandboxConfig, SandboxError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends `request` as is on a new connection; the status and the whole answer.
async fn raw(sb: &Sandbox, request: String) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(sb.addr()).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("answered and closed")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

fn get(path: &str, headers: &[(&str, String)]) -> String {
    let mut request = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request + "\r\n"
}

fn post(path: &str, headers: &[(&str, String)], body: &str) -> String {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request + "\r\n" + body
}

const READS: [&str; 4] = [
    "/_sandbox/",
    "/_sandbox/api/accounts",
    "/_sandbox/api/applications",
    "/_sandbox/api/state",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebinding_page_is_refused_on_every_admin_path() {
    let sb = Sandbox::start().await.unwrap();
    let port = sb.addr().port();
    let own = format!("127.0.0.1:{port}");
    let attacker = format!("attacker.example:{port}");
    let rebinding = [
        ("Host", attacker.clone()),
        ("Origin", format!("http://{attacker}")),
    ];
    for path in READS {
        let (status, answer) = raw(&sb, get(path, &rebinding)).await;
        assert_eq!(status, 403, "{path}: {answer}");
        assert!(!answer.contains("1000000001"), "{path}: {answer}");
        let (status, answer) = raw(&sb, get(path, &rebinding[..1])).await;
        assert_eq!(status, 403, "{path} without Origin: {answer}");
        // The sandbox's own name still reads it.
        let (status, answer) = raw(&sb, get(path, &[("Host", own.clone())])).await;
        assert_eq!(status, 200, "{path}: {answer}");
    }
    // Acting: adding a fault, moving the clock.
    let before = raw(&sb, get("/_sandbox/api/state", &[("Host", own.clone())])).await;
    let (status, answer) = raw(&sb, post("/_sandbox/clock", &rebinding, "86400000")).await;
    assert_eq!(status, 403, "{answer}");
    let yaml = "faults:\n  - operation: getBankCodes\n    fault: unsigned\n";
    let (status, answer) = raw(&sb, post("/_sandbox/faults", &rebinding, yaml)).await;
    assert_eq!(status, 403, "{answer}");
    assert!(sb.faults().is_empty());
    let after = raw(&sb, get("/_sandbox/api/state", &[("Host", own.clone())])).await;
    let clock_of = |answer: &str| -> i64 {
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
        let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
        v["clock_ms"].as_i64().unwrap_or_default()
    };
    assert!(clock_of(&after.1) - clock_of(&before.1) < 3_600_000);
    // Another port of loopback, a foreign Origin with the right Host, a null Origin.
    for headers in [
        vec![("Host", format!("127.0.0.1:{}", port.wrapping_add(1)))],
        vec![
            ("Host", own.clone()),
            ("Origin", format!("http://{attacker}")),
        ],
        vec![("Host", own.clone()), ("Origin", "null".to_owned())],
        vec![],
    ] {
        let (status, answer) = raw(&sb, get("/_sandbox/api/accounts", &headers)).await;
        assert_eq!(status, 403, "{headers:?}: {answer}");
    }
    // localhost and [::1] with the port are the sandbox too.
    for host in [format!("localhost:{port}"), format!("[::1]:{port}")] {
        let (status, answer) = raw(&sb, get("/_sandbox/api/accounts", &[("Host", host)])).await;
        assert_eq!(status, 200, "{answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_an_admin_token_the_page_needs_it() {
    let mut config = SandboxConfig::default();
    config.admin_token = Some("t0ken-35".to_owned());
    let sb = Sandbox::start_with(config).await.unwrap();
    assert_eq!(sb.admin_token(), Some("t0ken-35"));
    let own = format!("127.0.0.1:{}", sb.addr().port());
    let host = ("Host", own.clone());
    for path in READS {
        let (status, answer) = raw(&sb, get(path, std::slice::from_ref(&host))).await;
        assert_eq!(status, 403, "{path}: {answer}");
        assert!(answer.contains("--admin-token"), "{answer}");
        let wrong = ("X-Sandbox-Admin-Token", "t0ken-3".to_owned());
        let (status, _) = raw(&sb, get(path, &[host.clone(), wrong])).await;
        assert_eq!(status, 403, "{path}");
        let right = ("X-Sandbox-Admin-Token", "t0ken-35".to_owned());
        let (status, answer) = raw(&sb, get(path, &[host.clone(), right])).await;
        assert_eq!(status, 200, "{path}: {answer}");
    }
    let (status, answer) = raw(
        &sb,
        post("/_sandbox/clock", std::slice::from_ref(&host), "1000"),
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    // ?token= opens the page and leaves a cookie its forms carry.
    let (status, answer) = raw(
        &sb,
        get("/_sandbox/?token=t0ken-35", std::slice::from_ref(&host)),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let cookie = answer
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: "))
        .expect("a cookie is set");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap().to_owned();
    let (status, answer) = raw(
        &sb,
        post(
            "/_sandbox/clock",
            &[
                host.clone(),
                ("Cookie", pair),
                ("Origin", format!("http://{own}")),
            ],
            "1000",
        ),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    // The token never opens the page to a foreign Host.
    let (status, _) = raw(
        &sb,
        get(
            "/_sandbox/api/accounts",
            &[
                ("Host", format!("attacker.example:{}", sb.addr().port())),
                ("X-Sandbox-Admin-Token", "t0ken-35".to_owned()),
            ],
        ),
    )
    .await;
    assert_eq!(status, 403);
    // The token is never shown in the configuration's Debug.
    let mut config = SandboxConfig::default();
    config.admin_token = Some("t0ken-35".to_owned());
    assert!(!format!("{config:?}").contains("t0ken-35"));
}

#[tokio::test]
async fn a_token_that_cannot_travel_unchanged_is_refused_at_start() {
    for bad in ["", "has space", "semi;colon", "per%cent", "é"] {
        let mut config = SandboxConfig::default();
        config.admin_token = Some(bad.to_owned());
        let e = Sandbox::start_with(config).await.unwrap_err();
        assert!(matches!(e, SandboxError::AdminToken), "{bad:?}: {e}");
    }
}
