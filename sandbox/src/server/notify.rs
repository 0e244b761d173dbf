//! Delivery of signed notifications to the callback URL, retried with backoff, and the
//! loopback HTTP client that posts them.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::Request;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use super::respond::sign_notification;
use super::{lock, DeliveryAttempt, Shared};
use crate::bank::Outgoing;

/// Deliveries of one notification at most (public-facts.md).
pub const MAX_DELIVERIES: u32 = 5;
/// Time limit of one delivery attempt.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(2);
/// The outcome recorded for a notification produced while no callback URL is set.
const NO_CALLBACK_URL: &str = "no callback URL configured";

/// Starts the background delivery of one notification (or, without a callback URL,
/// records it as undeliverable).
pub(super) fn deliver(shared: Arc<Shared>, n: Outgoing) {
    let seq = shared.notification_counter.fetch_add(1, Ordering::SeqCst) + 1;
    let request_id = format!(
        "{}{:08}{}",
        shared.notification_prefix, seq, n.notification_type
    );
    // Without a callback URL there is nothing to send: the notification is recorded as
    // undeliverable here, when it is produced, not by a task. Whether it is delivered
    // then depends only on the configuration when it was produced (a task reading the
    // URL later saw one set after the response, or not, as the scheduler ran it), the
    // record is there as soon as the response is, and the request path spawns nothing,
    // so it also runs where no tokio runtime is (`crate::Offline`).
    let Some((addr, path)) = lock(&shared.callback_url).clone() else {
        lock(&shared.deliveries).push(DeliveryAttempt {
            notification_type: n.notification_type.into(),
            request_id,
            attempt: 0,
            acknowledged: false,
            outcome: NO_CALLBACK_URL.into(),
        });
        return;
    };
    // Counted before the response that produced the notification is sent, so a caller
    // that saw the response and then awaits `deliveries_settled` cannot miss it.
    shared.pending_deliveries.send_modify(|n| *n += 1);
    tokio::spawn(async move {
        let _settled = Settled(shared.clone());
        let Some((_, key)) = shared.partners.iter().next() else {
            return;
        };
        let body = match sign_notification(&shared, key, n.notification_type, &request_id, n.params)
        {
            Ok(b) => b,
            Err(e) => {
                lock(&shared.deliveries).push(DeliveryAttempt {
                    notification_type: n.notification_type.into(),
                    request_id,
                    attempt: 0,
                    acknowledged: false,
                    outcome: format!("cannot sign: {e}"),
                });
                return;
            }
        };
        let mut backoff = shared.retry_backoff;
        for attempt in 1..=MAX_DELIVERIES {
            let outcome =
                match tokio::time::timeout(DELIVERY_TIMEOUT, post(addr, &path, body.clone())).await
                {
                    Ok(Ok(answer)) => answer,
                    Ok(Err(e)) => format!("error: {e}"),
                    Err(_) => "error: timed out".to_owned(),
                };
            let acknowledged = outcome.trim() == baas_runtime::notification::ACK;
            lock(&shared.deliveries).push(DeliveryAttempt {
                notification_type: n.notification_type.into(),
                request_id: request_id.clone(),
                attempt,
                acknowledged,
                outcome,
            });
            if acknowledged {
                return;
            }
            if attempt < MAX_DELIVERIES {
                tokio::time::sleep(backoff).await;
                backoff = backoff.saturating_mul(2);
            }
        }
    });
}

/// Marks one delivery finished when dropped (whichever way the delivery task ends).
struct Settled(Arc<Shared>);

impl Drop for Settled {
    fn drop(&mut self) {
        self.0
            .pending_deliveries
            .send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// One HTTP/1.1 POST on loopback; returns the response body as text.
async fn post(addr: SocketAddr, path: &str, body: Vec<u8>) -> Result<String, String> {
    let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    let driver = tokio::spawn(conn);
    let request = Request::post(path)
        .header(hyper::header::HOST, addr.to_string())
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let bytes = Limited::new(response.into_body(), 64 * 1024)
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    driver.abort();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if status.is_success() {
        Ok(text)
    } else {
        Ok(format!("HTTP {status}: {text}"))
    }
}

/// Parses a loopback callback URL `http://127.0.0.1:PORT/path` (or `localhost`).
pub(crate) fn parse_callback(url: &str) -> Result<(SocketAddr, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("callback URL `{url}` must start with http://"))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => {
            let (authority, path) = rest.split_at(i);
            (authority, path.to_owned())
        }
        None => (rest, "/".to_owned()),
    };
    let (host, port) = authority
        .rsplit_once(':')
        .ok_or_else(|| format!("callback URL `{url}` needs a port"))?;
    let port: u16 = port
        .parse()
        .map_err(|_| format!("callback URL `{url}` has an invalid port"))?;
    let ip = match host {
        "127.0.0.1" | "localhost" => std::net::Ipv4Addr::LOCALHOST,
        _ => {
            return Err(format!(
                "callback URL `{url}` must be on 127.0.0.1 (loopback only)"
            ))
        }
    };
    Ok((SocketAddr::from((ip, port)), path))
}
