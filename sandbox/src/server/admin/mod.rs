//! The admin page at `/_sandbox/` on the sandbox's own port, off the signed API: what
//! the sandbox holds and what happened, as server-rendered HTML ([`html`]) and as JSON
//! under `/_sandbox/api/`. Read-only; answered only to loopback peers whose request
//! names the sandbox itself (`Host`, `Origin`) and carries the admin token when there is
//! one ([`guard`]); never shows the partner's key (nothing it shows is read from the
//! configuration's key).
//!
//! Admin requests are neither counted in `requests_seen()` nor logged in `requests()`:
//! looking must not change what a test counts.

mod actions;
mod guard;
mod html;

pub(crate) use guard::token_is_plain;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use serde::Serialize;

use super::{lock, Shared};
use crate::bank::{money_text, AppState};
use crate::otp_for;

/// Where the admin page lives.
pub(crate) const PREFIX: &str = "/_sandbox";

/// Rows shown of the ledger and of the deliveries (the newest).
const ROWS: usize = 500;
/// Exchanges kept for the page (the newest), with their answers.
pub(crate) const RECENT_LIMIT: usize = 200;
/// Bytes of an answer kept for the page.
pub(crate) const ANSWER_BYTES: usize = 2048;

/// One exchange as the admin page shows it: the request's line and the answer sent.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Exchange {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) request_id: Option<String>,
    pub(crate) operation: Option<String>,
    pub(crate) code: String,
    /// The answer body (at most [`ANSWER_BYTES`], lossy UTF-8).
    pub(crate) answer: String,
    /// A fault that changed how it was sent (`dropped`, `delayed N ms`).
    pub(crate) sent: String,
    /// The request's signature held.
    pub(crate) signature_verified: bool,
    /// For a `12005`: the canonical string expected, key redacted.
    pub(crate) expected: Option<String>,
}

/// Keeps `exchange` among the recent ones.
pub(crate) fn keep(recent: &mut VecDeque<Exchange>, exchange: Exchange) {
    if recent.len() >= RECENT_LIMIT {
        recent.pop_front();
    }
    recent.push_back(exchange);
}

/// The start of `body` as text, for the page.
pub(crate) fn answer_text(body: &[u8]) -> String {
    let cut = body.get(..ANSWER_BYTES).unwrap_or(body);
    let mut text = String::from_utf8_lossy(cut).into_owned();
    if body.len() > ANSWER_BYTES {
        text.push_str(" [...]");
    }
    text
}

#[derive(Serialize)]
struct AccountRow {
    id: String,
    name: String,
    user_id: String,
    currency: String,
    balance: String,
    short_code: Option<String>,
    dormant: bool,
    frozen: bool,
    system: bool,
}

#[derive(Serialize)]
struct TxRow {
    id: String,
    account_id: String,
    tx_type: &'static str,
    credit: bool,
    amount: String,
    fee: String,
    currency: String,
    status: i64,
    create_time: i64,
    counterparty: String,
    remark: String,
}

#[derive(Serialize)]
struct PendingRow {
    business_id: String,
    operation: &'static str,
    otp_sent: bool,
    wrong_attempts: u32,
    /// The OTP that confirms it (the sandbox's rule, so nobody computes it by hand).
    otp: String,
}

#[derive(Serialize)]
struct DeliveryRow {
    notification_type: String,
    request_id: String,
    attempt: u32,
    acknowledged: bool,
    outcome: String,
}

#[derive(Serialize)]
struct FaultRow {
    fault: String,
    hits: u32,
    remaining: Option<u32>,
}

/// Everything the page shows, read under each lock in turn.
#[derive(Serialize)]
struct Snapshot {
    /// The sandbox's clock, epoch ms (advanced by `advance_clock`).
    clock_ms: i64,
    /// Where the state is kept: `in memory`, or the state file.
    state: String,
    /// Why the state file can no longer be written, once that happened (every request
    /// is then answered `10000` until a restart).
    state_failure: Option<String>,
    accounts: Vec<AccountRow>,
    transactions: Vec<TxRow>,
    pending_applications: Vec<PendingRow>,
    requests: Vec<Exchange>,
    deliveries: Vec<DeliveryRow>,
    faults: Vec<FaultRow>,
    /// requestIds of the notifications that can be delivered again (newest first).
    redeliverable: Vec<String>,
}

fn snapshot(shared: &Shared) -> Snapshot {
    let (accounts, transactions, pending_applications) = {
        let bank = lock(&shared.bank);
        let accounts = bank
            .accounts
            .values()
            .map(|a| AccountRow {
                id: a.id.clone(),
                name: a.name.clone(),
                user_id: a.user_id.clone(),
                currency: a.currency.clone(),
                balance: money_text(a.balance, 2),
                short_code: a.short_code.clone(),
                dormant: a.dormant,
                frozen: a.frozen,
                system: a.system,
            })
            .collect();
        let mut txs: Vec<_> = bank.txs.values().collect();
        txs.sort_by(|a, b| (b.create_time, &b.id).cmp(&(a.create_time, &a.id)));
        let transactions = txs
            .into_iter()
            .take(ROWS)
            .map(|t| TxRow {
                id: t.id.clone(),
                account_id: t.account_id.clone(),
                tx_type: t.tx_type,
                credit: t.credit,
                amount: money_text(t.amount, 2),
                fee: money_text(t.fee, 2),
                currency: t.currency.clone(),
                status: t.status,
                create_time: t.create_time,
                counterparty: format!(
                    "{} {} ({})",
                    t.oppo.account_id, t.oppo.name, t.oppo.bank_code
                ),
                remark: t.remark.clone(),
            })
            .collect();
        let pending = bank
            .applications
            .values()
            .filter(|a| a.state == AppState::Pending && a.group.is_none())
            .map(|a| PendingRow {
                business_id: a.id.clone(),
                operation: a.operation,
                otp_sent: a.otp_sent,
                wrong_attempts: a.wrong_attempts,
                otp: otp_for(&a.id),
            })
            .collect();
        (accounts, transactions, pending)
    };
    let requests = lock(&shared.recent).iter().rev().cloned().collect();
    let deliveries = {
        let log = lock(&shared.deliveries);
        log.iter()
            .rev()
            .take(ROWS)
            .map(|d| DeliveryRow {
                notification_type: d.notification_type.clone(),
                request_id: d.request_id.clone(),
                attempt: d.attempt,
                acknowledged: d.acknowledged,
                outcome: d.outcome.clone(),
            })
            .collect()
    };
    let faults = lock(&shared.faults)
        .list()
        .into_iter()
        .map(|a| FaultRow {
            fault: a.fault.to_string(),
            hits: a.hits,
            remaining: a.remaining,
        })
        .collect();
    let redeliverable = lock(&shared.signed_notifications)
        .iter()
        .rev()
        .map(|(id, _, _)| id.clone())
        .collect();
    let state = match &shared.store {
        Some(store) => format!(
            "{} (SQLite, kept across restarts)",
            lock(store).path().display()
        ),
        None => "in memory".to_owned(),
    };
    Snapshot {
        redeliverable,
        clock_ms: shared.now_ms(),
        state,
        state_failure: shared.state_failure(),
        accounts,
        transactions,
        pending_applications,
        requests,
        deliveries,
        faults,
    }
}

fn response(
    status: StatusCode,
    content_type: &'static str,
    body: Vec<u8>,
) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(content_type),
    );
    headers.insert(
        hyper::header::CACHE_CONTROL,
        hyper::header::HeaderValue::from_static("no-store"),
    );
    response
}

fn text(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    response(
        status,
        "text/plain; charset=utf-8",
        message.as_bytes().to_vec(),
    )
}

/// The answer to an admin request from `peer`: a POST is an action ([`actions`]),
/// anything else is read by [`respond`].
pub(crate) async fn serve(
    shared: &Arc<Shared>,
    req: Request<Incoming>,
    peer: SocketAddr,
    read_timeout: std::time::Duration,
) -> Response<Full<Bytes>> {
    let path = req.uri().path().to_owned();
    if !peer.ip().is_loopback() {
        return respond(shared, req.method(), &path, peer);
    }
    let token = shared.admin_token.as_deref();
    if let Some(refusal) = guard::check(req.uri(), req.headers(), shared.port(), token) {
        return text(StatusCode::FORBIDDEN, refusal.message());
    }
    if req.method() != Method::POST {
        let mut answer = respond(shared, req.method(), &path, peer);
        // `?token=` opens the page: keep it in a cookie for the page's own forms.
        if let Some(token) = token.filter(|t| guard::query_token(req.uri(), t)) {
            if let Ok(cookie) = hyper::header::HeaderValue::from_str(&guard::set_cookie(token)) {
                answer
                    .headers_mut()
                    .insert(hyper::header::SET_COOKIE, cookie);
            }
        }
        return answer;
    }
    let (parts, body) = req.into_parts();
    let limited = http_body_util::Limited::new(body, actions::MAX_ACTION_BYTES);
    let body = match tokio::time::timeout(read_timeout, limited.collect()).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) => {
            return text(
                StatusCode::BAD_REQUEST,
                &format!("cannot read the body: {e}"),
            )
        }
        Err(_) => {
            return text(
                StatusCode::REQUEST_TIMEOUT,
                "the body did not arrive in time",
            )
        }
    };
    let action = path.strip_prefix(PREFIX).unwrap_or(&path);
    actions::act(shared, action, &parts.headers, &body)
}

/// The answer to a read of `path` (under [`PREFIX`]) from `peer`.
pub(crate) fn respond(
    shared: &Shared,
    method: &Method,
    path: &str,
    peer: SocketAddr,
) -> Response<Full<Bytes>> {
    if !peer.ip().is_loopback() {
        return text(
            StatusCode::FORBIDDEN,
            "the admin page answers loopback only",
        );
    }
    if method != Method::GET && method != Method::HEAD {
        return text(
            StatusCode::METHOD_NOT_ALLOWED,
            "the admin page is read-only: GET",
        );
    }
    let rest = path.strip_prefix(PREFIX).unwrap_or(path);
    let state = snapshot(shared);
    let json = |value: Result<Vec<u8>, serde_json::Error>| match value {
        Ok(body) => response(StatusCode::OK, "application/json", body),
        Err(e) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("cannot write JSON: {e}"),
        ),
    };
    match rest {
        "" | "/" => response(
            StatusCode::OK,
            "text/html; charset=utf-8",
            html::page(&state).into_bytes(),
        ),
        "/api" | "/api/" | "/api/state" => json(serde_json::to_vec(&state)),
        "/api/accounts" => json(serde_json::to_vec(&state.accounts)),
        "/api/transactions" => json(serde_json::to_vec(&state.transactions)),
        "/api/applications" => json(serde_json::to_vec(&state.pending_applications)),
        "/api/requests" => json(serde_json::to_vec(&state.requests)),
        "/api/deliveries" => json(serde_json::to_vec(&state.deliveries)),
        "/api/faults" => json(serde_json::to_vec(&state.faults)),
        _ => text(
            StatusCode::NOT_FOUND,
            "no such admin page: /_sandbox/ or /_sandbox/api/{state,accounts,transactions,\
             applications,requests,deliveries,faults}",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::Bank;
    use crate::SandboxConfig;

    fn shared() -> Shared {
        Shared::new(Bank::seeded(0), "svc".into(), &SandboxConfig::default())
    }

    #[test]
    fn only_loopback_and_only_get() {
        let shared = shared();
        let outside: SocketAddr = "10.1.2.3:5000".parse().unwrap();
        let inside: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let status =
            |method: Method, path: &str, peer| respond(&shared, &method, path, peer).status();
        assert_eq!(
            status(Method::GET, "/_sandbox/", outside),
            StatusCode::FORBIDDEN
        );
        assert_eq!(
            status(Method::GET, "/_sandbox/api/state", outside),
            StatusCode::FORBIDDEN
        );
        assert_eq!(status(Method::GET, "/_sandbox/", inside), StatusCode::OK);
        assert_eq!(
            status(Method::POST, "/_sandbox/", inside),
            StatusCode::METHOD_NOT_ALLOWED
        );
        assert_eq!(
            status(Method::GET, "/_sandbox/nope", inside),
            StatusCode::NOT_FOUND
        );
    }

    #[test]
    fn long_answers_are_cut_and_the_recent_list_is_bounded() {
        let long = vec![b'x'; ANSWER_BYTES + 10];
        let text = answer_text(&long);
        assert!(text.ends_with(" [...]") && text.len() == ANSWER_BYTES + 6);
        let mut recent = VecDeque::new();
        for i in 0..RECENT_LIMIT + 5 {
            keep(
                &mut recent,
                Exchange {
                    method: "POST".into(),
                    path: format!("/{i}"),
                    request_id: None,
                    operation: None,
                    code: "00000".into(),
                    answer: String::new(),
                    sent: String::new(),
                    signature_verified: false,
                    expected: None,
                },
            );
        }
        assert_eq!(recent.len(), RECENT_LIMIT);
        assert_eq!(recent.front().map(|e| e.path.as_str()), Some("/5"));
    }
}
