//! Delivery of signed notifications to the callback URL, retried with backoff, posted
//! with reqwest (the runtime's HTTP client) to a loopback URL parsed by `url`.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::transport::reqwest::{self, Url};

use super::respond::sign_notification;
use super::{lock, DeliveryAttempt, Shared};
use crate::bank::Outgoing;
use crate::faults::{NotificationFault, REORDER_HOLD};
use crate::state::{Delivered, QueuedNotification};

/// Deliveries of one notification at most (public-facts.md).
pub const MAX_DELIVERIES: u32 = 5;
/// Time limit of one delivery attempt.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(2);
/// The outcome recorded for a notification produced while no callback URL is set.
const NO_CALLBACK_URL: &str = "no callback URL configured";

/// A notification a request produced, with its requestId and params written, to be
/// kept in the state file (when there is one) with the request's changes, then sent.
pub(super) struct Prepared {
    /// What a state file keeps of it.
    pub(super) queued: QueuedNotification,
    fault: Option<NotificationFault>,
    url: Url,
}

/// Gives a notification its requestId and decides its fate: without a callback URL, or
/// lost by a fault, it is recorded as not delivered (and `None` is returned); else it is
/// ready to be kept and sent ([`send`]).
pub(super) fn prepare(shared: &Shared, n: Outgoing) -> Option<Prepared> {
    let seq = shared.notification_counter.fetch_add(1, Ordering::SeqCst) + 1;
    let notification_type = n.notification_type();
    let request_id = format!(
        "{}{:08}{}",
        shared.notification_prefix, seq, notification_type
    );
    let not_sent = |outcome: String| {
        lock(&shared.deliveries).push(DeliveryAttempt {
            notification_type: notification_type.clone(),
            request_id: request_id.clone(),
            attempt: 0,
            acknowledged: false,
            outcome,
        });
        None
    };
    // Without a callback URL there is nothing to send: the notification is recorded as
    // undeliverable here, when it is produced, not by a task. Whether it is delivered
    // then depends only on the configuration when it was produced (a task reading the
    // URL later saw one set after the response, or not, as the scheduler ran it), the
    // record is there as soon as the response is, and the request path spawns nothing,
    // so it also runs where no tokio runtime is (`crate::Offline`).
    let Some(url) = lock(&shared.callback_url).clone() else {
        return not_sent(NO_CALLBACK_URL.into());
    };
    let fault = lock(&shared.faults).notification_fault(&notification_type);
    if fault == Some(NotificationFault::Lose) {
        return not_sent(LOST.into());
    }
    let params = match n.payload.to_params() {
        Ok(p) => p.get().to_owned(),
        Err(e) => return not_sent(format!("cannot write its params: {e}")),
    };
    Some(Prepared {
        queued: QueuedNotification {
            request_id,
            notification_type,
            params,
        },
        fault,
        url,
    })
}

/// Starts the delivery of the notifications a state file kept as not delivered, to the
/// callback URL set now (without one they stay kept for a later start).
pub(crate) fn resume(shared: &Arc<Shared>, queue: Vec<QueuedNotification>) {
    let Some(url) = lock(&shared.callback_url).clone() else {
        return;
    };
    for queued in queue {
        send(
            shared.clone(),
            Prepared {
                queued,
                fault: None,
                url: url.clone(),
            },
        );
    }
}

/// Signs a prepared notification and starts its background delivery.
pub(super) fn send(shared: Arc<Shared>, prepared: Prepared) {
    let Prepared { queued, fault, url } = prepared;
    let QueuedNotification {
        request_id,
        notification_type,
        params,
    } = queued;
    let Some((_, key)) = shared.partners.iter().next() else {
        return;
    };
    let signed = sign_notification(&shared, key, &request_id, &notification_type, &params);
    let body = match signed {
        Ok(b) => b,
        Err(e) => {
            lock(&shared.deliveries).push(DeliveryAttempt {
                notification_type,
                request_id: request_id.clone(),
                attempt: 0,
                acknowledged: false,
                outcome: format!("cannot sign: {e}"),
            });
            // It would not sign after a restart either: given up in the state file too.
            if shared.store.is_some() {
                shared.pending_deliveries.send_modify(|n| *n += 1);
                tokio::spawn(async move {
                    let _settled = Settled(shared.clone());
                    finish(shared, request_id, Delivered::GivenUp).await;
                });
            }
            return;
        }
    };
    keep_signed(&shared, &request_id, &notification_type, &body);
    let body = if fault == Some(NotificationFault::BadSignature) {
        super::respond::bad_signature(body)
    } else {
        body
    };
    // What the delivery waits for before its first attempt.
    let wait = match fault {
        Some(NotificationFault::Delay(by)) => Wait::For(by),
        // Held until another notification's first attempt ended (counted from now).
        Some(NotificationFault::Reorder) => Wait::Next(*shared.first_attempts.borrow()),
        _ => Wait::No,
    };
    let copies = if fault == Some(NotificationFault::Duplicate) {
        2
    } else {
        1
    };
    for _ in 0..copies {
        let one = Delivery {
            notification_type: notification_type.clone(),
            request_id: request_id.clone(),
            url: url.clone(),
            body: body.clone(),
            wait,
        };
        // Counted before the response that produced the notification is sent, so a
        // caller that saw the response and then awaits `deliveries_settled` cannot miss
        // it.
        shared.pending_deliveries.send_modify(|n| *n += 1);
        tokio::spawn(one.run(shared.clone()));
    }
}

/// Records in the state file, if there is one, how the delivery of `request_id` ended
/// (before the delivery counts as finished for `deliveries_settled`). A failed write
/// stops the sandbox serving (see `Shared::state_failed`); the notification is then
/// delivered again after a restart.
async fn finish(shared: Arc<Shared>, request_id: String, how: Delivered) {
    if shared.store.is_some() {
        let _ = tokio::task::spawn_blocking(move || shared.record_delivery(&request_id, how)).await;
    }
}

/// Signed notifications kept for the admin page's redelivery (the newest).
pub(crate) const KEPT_NOTIFICATIONS: usize = 500;

/// Keeps a signed notification (as the sandbox signed it, before any fault) so that the
/// admin page can deliver it again.
fn keep_signed(shared: &Shared, request_id: &str, notification_type: &str, body: &[u8]) {
    let mut kept = lock(&shared.signed_notifications);
    if kept.len() >= KEPT_NOTIFICATIONS {
        kept.pop_front();
    }
    kept.push_back((
        request_id.to_owned(),
        notification_type.to_owned(),
        body.to_vec(),
    ));
}

/// Delivers the kept notification `request_id` again (same body, same requestId) to
/// the callback URL set now, with the usual retries.
pub(super) fn redeliver(shared: &Arc<Shared>, request_id: &str) -> Result<(), String> {
    let found = lock(&shared.signed_notifications)
        .iter()
        .find(|(id, _, _)| id == request_id)
        .cloned();
    let Some((request_id, notification_type, body)) = found else {
        return Err(format!(
            "no notification `{request_id}` among the last {KEPT_NOTIFICATIONS} signed"
        ));
    };
    let Some(url) = lock(&shared.callback_url).clone() else {
        return Err(NO_CALLBACK_URL.to_owned());
    };
    shared.pending_deliveries.send_modify(|n| *n += 1);
    let one = Delivery {
        notification_type,
        request_id,
        url,
        body,
        wait: Wait::No,
    };
    tokio::spawn(one.run(shared.clone()));
    Ok(())
}

/// The outcome recorded for a notification a fault lost.
const LOST: &str = "lost (fault injected by the sandbox)";

/// What a delivery waits for before its first attempt.
#[derive(Clone, Copy)]
enum Wait {
    No,
    For(Duration),
    /// Until the count of first attempts passes this (at most [`REORDER_HOLD`]).
    Next(u64),
}

/// One signed notification to deliver (retried until acknowledged).
struct Delivery {
    notification_type: String,
    request_id: String,
    url: Url,
    body: Vec<u8>,
    wait: Wait,
}

impl Delivery {
    async fn run(self, shared: Arc<Shared>) {
        // Counted finished once the outcome is recorded (by `finish`), whichever way
        // this task ends.
        let _settled = Settled(shared.clone());
        let mut how = Delivered::GivenUp;
        self.attempts(&shared, &mut how).await;
        finish(shared.clone(), self.request_id, how).await;
    }

    /// Every attempt until acknowledged (`how` set to `Acknowledged`) or given up.
    async fn attempts(&self, shared: &Arc<Shared>, how: &mut Delivered) {
        match self.wait {
            Wait::No => {}
            Wait::For(by) => tokio::time::sleep(by).await,
            Wait::Next(seen) => {
                let mut moved = shared.first_attempts.subscribe();
                let _ = tokio::time::timeout(REORDER_HOLD, moved.wait_for(|n| *n > seen)).await;
            }
        }
        let mut backoff = shared.retry_backoff;
        for attempt in 1..=MAX_DELIVERIES {
            let outcome = match tokio::time::timeout(
                DELIVERY_TIMEOUT,
                post(&shared.delivery_client, &self.url, self.body.clone()),
            )
            .await
            {
                Ok(Ok(answer)) => answer,
                Ok(Err(e)) => format!("error: {e}"),
                Err(_) => "error: timed out".to_owned(),
            };
            let acknowledged = outcome.trim() == baas_runtime::notification::ACK;
            lock(&shared.deliveries).push(DeliveryAttempt {
                notification_type: self.notification_type.clone(),
                request_id: self.request_id.clone(),
                attempt,
                acknowledged,
                outcome,
            });
            if attempt == 1 {
                shared.first_attempts.send_modify(|n| *n += 1);
            }
            if acknowledged {
                *how = Delivered::Acknowledged;
                return;
            }
            if attempt < MAX_DELIVERIES {
                tokio::time::sleep(backoff).await;
                backoff = backoff.saturating_mul(2);
            }
        }
    }
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

/// The client that posts notifications: reqwest (the runtime's transport), no proxy from
/// the environment (the callback is on loopback), no redirects, one attempt's timeout.
pub(crate) fn delivery_client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(DELIVERY_TIMEOUT)
        .build()
        .unwrap_or_default()
}

/// Answers over this many bytes are cut: the receiver's answer is `ok`.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// One POST of a signed notification; returns the answer's body as text (with the
/// status when it is not a success).
async fn post(client: &reqwest::Client, url: &Url, body: Vec<u8>) -> Result<String, String> {
    let mut response = client
        .post(url.clone())
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
        let room = MAX_ANSWER_BYTES.saturating_sub(bytes.len());
        bytes.extend_from_slice(chunk.get(..room.min(chunk.len())).unwrap_or_default());
        if bytes.len() >= MAX_ANSWER_BYTES {
            break;
        }
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if status.is_success() {
        Ok(text)
    } else {
        Ok(format!("HTTP {status}: {text}"))
    }
}

/// Parses a loopback callback URL `http://127.0.0.1:PORT/path` (or `localhost`).
pub(crate) fn parse_callback(url: &str) -> Result<Url, String> {
    let parsed = Url::parse(url).map_err(|e| format!("callback URL `{url}`: {e}"))?;
    if parsed.scheme() != "http" {
        return Err(format!("callback URL `{url}` must start with http://"));
    }
    if parsed.port().is_none() {
        return Err(format!("callback URL `{url}` needs a port"));
    }
    match parsed.host_str() {
        Some("127.0.0.1" | "localhost") => Ok(parsed),
        _ => Err(format!(
            "callback URL `{url}` must be on 127.0.0.1 (loopback only)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_callback;

    #[test]
    fn only_loopback_http_with_a_port() {
        let ok = parse_callback("http://127.0.0.1:9/cb").unwrap();
        assert_eq!((ok.port(), ok.path()), (Some(9), "/cb"));
        assert_eq!(parse_callback("http://localhost:8080").unwrap().path(), "/");
        for bad in [
            "https://127.0.0.1:9/cb",
            "http://10.0.0.1:80/x",
            "http://127.0.0.1/cb",
            "http://example.com:80/",
            "not a url",
        ] {
            assert!(parse_callback(bad).is_err(), "{bad}");
        }
    }
}
