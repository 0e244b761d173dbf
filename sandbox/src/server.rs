//! The HTTP side: hyper 1 on `127.0.0.1`, the envelope checks (method, path, sender,
//! signature, replayed requestId, params through the generated decoders and
//! validators), the signed response, and delivery of signed notifications.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use baas_client::dispatch::{decode, DecodeError, OPERATIONS};
use baas_runtime::{PrivateKey, RawJson};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};

use crate::bank::{Bank, Outgoing};
use crate::error::{codes, ApiError};
use crate::json::Json;
use crate::signing;

/// Largest request body accepted: a 30 MB invoice in Base64 plus the rest.
pub const MAX_BODY_BYTES: usize = 48 * 1024 * 1024;
/// requestIds remembered for replay detection (oldest forgotten first).
pub const REPLAY_MEMORY: usize = 1_000_000;
/// Requests kept in the log returned by `Sandbox::requests`.
pub const LOG_LIMIT: usize = 10_000;
/// Deliveries of one notification at most (public-facts.md).
pub const MAX_DELIVERIES: u32 = 5;
/// Time limit of one delivery attempt.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(2);
/// The outcome recorded for a notification produced while no callback URL is set.
const NO_CALLBACK_URL: &str = "no callback URL configured";
/// Largest difference between a request's `timestamp` and the wall clock. The
/// document leaves the allowed clock difference "not shown"; a day is generous to
/// any real clock and still refuses epoch seconds (or microseconds) sent as
/// milliseconds.
pub const TIMESTAMP_WINDOW_MS: i64 = 24 * 60 * 60 * 1000;
/// Operations whose `pageSize` the service limits to 50 (answering `15002` above it).
const PAGED: [&str; 5] = [
    "getTransList",
    "getAbnormalAccountList",
    "getInterBankTransferList",
    "bulkPaymentQuery",
    "getCnyTransList",
];

/// Locks a mutex, recovering the data if a holder panicked (nothing here leaves state
/// half-written across a panic point).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One request as the sandbox saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SeenRequest {
    /// HTTP method.
    pub method: String,
    /// Path.
    pub path: String,
    /// requestId, when the body had one.
    pub request_id: Option<String>,
    /// Operation name, once the params decoded as one of the path's operations.
    pub operation: Option<String>,
    /// Result code answered (`"HTTP 500"` for an unknown path).
    pub code: String,
}

/// One delivery attempt of a notification.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeliveryAttempt {
    /// Notification number (`0015`, `0026`, `0028`).
    pub notification_type: String,
    /// The notification's requestId (the same on every attempt).
    pub request_id: String,
    /// 1-based attempt number.
    pub attempt: u32,
    /// True when the receiver answered `ok`.
    pub acknowledged: bool,
    /// What happened (`ok`, the body received, or the connection error).
    pub outcome: String,
}

/// State shared by the listener, the connection tasks and the [`crate::Sandbox`] handle.
pub(crate) struct Shared {
    pub(crate) bank: Mutex<Bank>,
    /// sender name → key.
    pub(crate) partners: BTreeMap<String, PrivateKey>,
    pub(crate) service_sender: String,
    seen_ids: Mutex<(HashSet<String>, VecDeque<String>)>,
    pub(crate) requests_seen: AtomicU64,
    pub(crate) log: Mutex<VecDeque<SeenRequest>>,
    pub(crate) tamper_next: AtomicBool,
    pub(crate) callback_url: Mutex<Option<(SocketAddr, String)>>,
    pub(crate) deliveries: Mutex<Vec<DeliveryAttempt>>,
    pub(crate) retry_backoff: Duration,
    /// Added to the wall clock (tests move time forward for dormancy and windows).
    pub(crate) clock_offset_ms: AtomicI64,
    notification_counter: AtomicU64,
    /// Prefix of notification requestIds, different in every run (see [`run_id`]).
    notification_prefix: String,
    /// Time limits of reading a request's headers and its body.
    pub(crate) header_read_timeout: Duration,
    pub(crate) body_read_timeout: Duration,
    /// Notifications whose delivery has not finished yet (see
    /// [`crate::Sandbox::deliveries_settled`]).
    pub(crate) pending_deliveries: tokio::sync::watch::Sender<usize>,
}

impl Shared {
    pub(crate) fn new(
        bank: Bank,
        partners: BTreeMap<String, PrivateKey>,
        service_sender: String,
        retry_backoff: Duration,
        (header_read_timeout, body_read_timeout): (Duration, Duration),
    ) -> Shared {
        Shared {
            bank: Mutex::new(bank),
            partners,
            service_sender,
            seen_ids: Mutex::new((HashSet::new(), VecDeque::new())),
            requests_seen: AtomicU64::new(0),
            log: Mutex::new(VecDeque::new()),
            tamper_next: AtomicBool::new(false),
            callback_url: Mutex::new(None),
            deliveries: Mutex::new(Vec::new()),
            retry_backoff,
            clock_offset_ms: AtomicI64::new(0),
            notification_counter: AtomicU64::new(0),
            notification_prefix: format!("NTF{}", run_id()),
            header_read_timeout,
            body_read_timeout,
            pending_deliveries: tokio::sync::watch::Sender::new(0),
        }
    }

    pub(crate) fn now_ms(&self) -> i64 {
        baas_runtime::envelope::now_millis()
            .saturating_add(self.clock_offset_ms.load(Ordering::SeqCst))
    }

    fn remember(&self, method: &Method, path: &str, answer: &Answer) {
        let mut log = lock(&self.log);
        if log.len() >= LOG_LIMIT {
            log.pop_front();
        }
        log.push_back(SeenRequest {
            method: method.to_string(),
            path: path.to_owned(),
            request_id: answer.request_id.clone(),
            operation: answer.operation.map(str::to_owned),
            code: answer.code.clone(),
        });
    }

    /// True when `id` was not seen before (and remembers it).
    fn first_use(&self, id: &str) -> bool {
        let mut guard = lock(&self.seen_ids);
        let (set, order) = &mut *guard;
        if set.contains(id) {
            return false;
        }
        if order.len() >= REPLAY_MEMORY {
            if let Some(old) = order.pop_front() {
                set.remove(&old);
            }
        }
        set.insert(id.to_owned());
        order.push_back(id.to_owned());
        true
    }
}

/// 16 hex digits that differ between runs (and between sandboxes of one process): the
/// wall clock in nanoseconds, the process id and a per-process counter, hashed. A
/// receiver deduplicates notifications on (requestId, notificationType), so ids that
/// restarted from the same counter in every process made it drop new notifications
/// after a sandbox restart.
fn run_id() -> String {
    static STARTED: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let nth = STARTED.fetch_add(1, Ordering::SeqCst);
    let seed = format!("{nanos}:{}:{nth}", std::process::id());
    let digest = <sha2::Sha256 as sha2::Digest>::digest(seed.as_bytes());
    hex::encode(&digest[..8])
}

/// Accepts connections until `shutdown` fires.
pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else {
                    // e.g. too many open files: back off instead of spinning on the error.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                };
                let shared = shared.clone();
                let header_timeout = shared.header_read_timeout;
                let mut stop = shutdown.clone();
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let shared = shared.clone();
                        async move { Ok::<_, Infallible>(handle(shared, req).await) }
                    });
                    // A client that sends its headers too slowly is disconnected.
                    let conn = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(header_timeout)
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::select! {
                        _ = conn => {}
                        _ = stop.changed() => {}
                    }
                });
            }
            _ = shutdown.changed() => break,
        }
    }
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

/// An unsigned code/msg answer, for requests whose sender (hence key) is unknown.
fn unsigned(code: &str, msg: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "code": code, "msg": msg })).unwrap_or_default()
}

/// Drops `null` members (the runtime never signs a null, and absent reads the same).
fn strip_nulls(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => serde_json::Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, strip_nulls(v)))
                .collect(),
        ),
        serde_json::Value::Array(a) => serde_json::Value::Array(
            a.into_iter()
                .filter(|v| !v.is_null())
                .map(strip_nulls)
                .collect(),
        ),
        other => other,
    }
}

async fn handle(shared: Arc<Shared>, req: Request<Incoming>) -> Response<Full<Bytes>> {
    shared.requests_seen.fetch_add(1, Ordering::SeqCst);
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    if method != Method::POST {
        shared.remember(&method, &path, &Answer::bare(codes::GET_NOT_SUPPORTED));
        return json_response(
            StatusCode::OK,
            unsigned(codes::GET_NOT_SUPPORTED, "only POST is supported"),
        );
    }
    let candidates = operations_on(&path);
    if candidates.is_empty() {
        shared.remember(&method, &path, &Answer::bare("HTTP 500"));
        return json_response(
            StatusCode::INTERNAL_SERVER_ERROR,
            unsigned(codes::SYSTEM, &format!("no such path: {path}")),
        );
    }
    let read = Limited::new(req.into_body(), MAX_BODY_BYTES).collect();
    let body = match tokio::time::timeout(shared.body_read_timeout, read).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        // A body that stops arriving: answer, and close the connection (the rest of
        // the body is never read).
        Err(_) => {
            shared.remember(&method, &path, &Answer::bare(codes::INVALID_PARAMETER));
            let msg = format!(
                "the body did not arrive within {} ms",
                shared.body_read_timeout.as_millis()
            );
            let mut response =
                json_response(StatusCode::OK, unsigned(codes::INVALID_PARAMETER, &msg));
            response.headers_mut().insert(
                hyper::header::CONNECTION,
                hyper::header::HeaderValue::from_static("close"),
            );
            return response;
        }
        Ok(Err(e)) => {
            shared.remember(&method, &path, &Answer::bare(codes::INVALID_PARAMETER));
            return json_response(
                StatusCode::OK,
                unsigned(
                    codes::INVALID_PARAMETER,
                    &format!("cannot read the body: {e}"),
                ),
            );
        }
    };
    let answer = answer(&shared, &candidates, &body);
    shared.remember(&method, &path, &answer);
    json_response(StatusCode::OK, answer.body)
}

/// The operations served on `path` (more than one where the spec gives two operations
/// one path: the body tells them apart).
fn operations_on(path: &str) -> Vec<&'static str> {
    OPERATIONS
        .iter()
        .filter(|o| o.path == path)
        .map(|o| o.name)
        .collect()
}

/// Sum of every balance per currency (see [`crate::Sandbox::totals`]).
pub(crate) fn totals(shared: &Shared) -> BTreeMap<String, baas_runtime::Amount> {
    lock(&shared.bank)
        .totals()
        .into_iter()
        .filter_map(|(c, v)| v.to_string().parse().ok().map(|a| (c, a)))
        .collect()
}

/// The answer body to one POST of `body` on `path`: the same checks and handlers as a
/// request over HTTP, without a socket (for fuzzing and tests).
pub(crate) fn answer_path(shared: &Arc<Shared>, path: &str, body: &[u8]) -> Vec<u8> {
    let candidates = operations_on(path);
    if candidates.is_empty() {
        return unsigned(codes::SYSTEM, &format!("no such path: {path}"));
    }
    if body.len() > MAX_BODY_BYTES {
        return unsigned(codes::INVALID_PARAMETER, "the body is too large");
    }
    answer(shared, &candidates, body).body
}

/// What the sandbox answered to one POST.
struct Answer {
    request_id: Option<String>,
    operation: Option<&'static str>,
    code: String,
    body: Vec<u8>,
}

impl Answer {
    fn bare(code: &str) -> Answer {
        Answer {
            request_id: None,
            operation: None,
            code: code.to_owned(),
            body: Vec::new(),
        }
    }
    fn unsigned(request_id: Option<String>, code: &str, msg: &str) -> Answer {
        Answer {
            request_id,
            operation: None,
            code: code.to_owned(),
            body: unsigned(code, msg),
        }
    }
}

/// The checks and the operation.
fn answer(shared: &Arc<Shared>, candidates: &[&'static str], body: &[u8]) -> Answer {
    let parsed = std::str::from_utf8(body)
        .map_err(|e| e.to_string())
        .and_then(|t| Json::parse(t).map_err(|e| e.to_string()));
    let message = match parsed {
        Ok(m @ Json::Object(_)) => m,
        Ok(_) => {
            let msg = "the body is not a JSON object";
            return Answer::unsigned(None, codes::INVALID_PARAMETER, msg);
        }
        Err(e) => {
            let msg = format!("the body is not JSON: {e}");
            return Answer::unsigned(None, codes::INVALID_PARAMETER, &msg);
        }
    };
    let request_id = message.text("requestId").map(str::to_owned);
    let locale = message.text("locale").unwrap_or("en_KE").to_owned();
    let sender = message.text("sender").unwrap_or_default();
    let Some(key) = shared.partners.get(sender) else {
        let msg = format!("invalid sender: `{sender}`");
        return Answer::unsigned(request_id, codes::INVALID_SENDER, &msg);
    };
    let key_text = String::from_utf8_lossy(key.expose()).into_owned();
    let reply = |operation: Option<&'static str>,
                 code: &str,
                 msg: &str,
                 data: Option<serde_json::Value>| {
        let rid = request_id.clone().unwrap_or_default();
        Answer {
            request_id: request_id.clone(),
            operation,
            code: code.to_owned(),
            body: sign_response(shared, key, &rid, &locale, code, msg, data),
        }
    };
    if !signing::within_expansion_limit(&message, body.len()) {
        let msg = format!(
            "the message's canonical string would be more than {} times as long as the \
             body (long keys above many values)",
            signing::MAX_EXPANSION
        );
        return reply(None, codes::INVALID_PARAMETER, &msg, None);
    }
    if !signing::verify(&message, &key_text) {
        return reply(None, codes::INVALID_SIGNATURE, "Invalid signature", None);
    }
    let Some(rid) = request_id
        .clone()
        .filter(|_| matches!(message.get("requestId"), Some(Json::String(_))))
    else {
        return reply(
            None,
            codes::INVALID_REQUEST_ID,
            "requestId: is required, as a non-empty JSON string",
            None,
        );
    };
    if let Err(msg) = check_envelope(&message, baas_runtime::envelope::now_millis()) {
        return reply(None, codes::INVALID_PARAMETER, &msg, None);
    }
    if !shared.first_use(&rid) {
        return reply(
            None,
            codes::INVALID_REQUEST_ID,
            &format!("requestId: `{rid}` was used before; every request needs a new one"),
            None,
        );
    }
    let params = message
        .get("params")
        .cloned()
        .unwrap_or_else(|| Json::Object(BTreeMap::new()));
    let request = match decode_request(candidates, params) {
        Ok(request) => request,
        Err(ApiError { code, msg }) => return reply(None, code, &msg, None),
    };
    let operation = request.operation();
    let now = shared.now_ms();
    let (result, outbox) = {
        let mut bank = lock(&shared.bank);
        // Backstop: a defect of the sandbox answers a signed 10000 instead of dropping
        // the connection (which would leave a client unsure whether money moved).
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            bank.handle(request, &rid, now)
        }))
        .unwrap_or_else(|_| {
            Err(ApiError::new(
                codes::SYSTEM,
                format!("the sandbox failed while handling {operation} (a sandbox defect)"),
            ))
        });
        (result, bank.take_outbox())
    };
    for n in outbox {
        deliver(shared.clone(), n);
    }
    match result {
        Ok(data) => reply(
            Some(operation),
            codes::OK,
            "Completed successfully",
            Some(data),
        ),
        Err(ApiError { code, msg }) => reply(Some(operation), code, &msg, None),
    }
}

/// The typed request that `params` of a call to a path with operations `candidates`
/// make, through the generated decoders and validators. Before decoding, as the live
/// service does: a `pageSize` over 50 answers `15002` ([`page_size_over_limit`]) and
/// getTransList tolerates missing filters ([`tolerate_missing_filters`]). Two
/// operations may share a path (the fee call and the reversal request): the one whose
/// request type decodes the params is meant. Params no candidate accepts answer
/// `12001` with every candidate's problems.
pub(crate) fn decode_request(
    candidates: &[&'static str],
    mut params: Json,
) -> Result<baas_client::dispatch::Request, ApiError> {
    if let Some(size) = page_size_over_limit(candidates, &params) {
        let msg = format!("pageSize: {size} is over the maximum of 50");
        return Err(ApiError::new(codes::PAGE_SIZE, msg));
    }
    if candidates.contains(&"getTransList") {
        tolerate_missing_filters(&mut params);
    }
    let params_text = params.to_json_string();
    let mut problems = Vec::new();
    for name in candidates {
        match decode(name, &params_text) {
            Ok(request) => return Ok(request),
            Err(DecodeError::Invalid(errors)) => problems.push(errors.to_string()),
            Err(DecodeError::Malformed(m)) => problems.push(format!("malformed params: {m}")),
            Err(_) => problems.push(format!(
                "operation {name} is unknown to the generated decoders"
            )),
        }
    }
    Err(ApiError::new(codes::INVALID_PARAMETER, problems.join("; ")))
}

/// The envelope rules of the document ("Message envelope", "Signing a request")
/// beyond the signature and the requestId: `timestamp` a JSON integer of epoch
/// milliseconds (within [`TIMESTAMP_WINDOW_MS`] of `now_ms`), `locale` a string
/// `<language>_<COUNTRY>`, `salt` a non-empty string, `params` an object, and no
/// `senderKey` (step 7: it is never sent). A partner sending seconds or a string
/// learns it here, not in production.
pub(crate) fn check_envelope(message: &Json, now_ms: i64) -> Result<(), String> {
    match message.get("timestamp") {
        None => return Err("timestamp: is required (epoch milliseconds)".into()),
        Some(Json::Number(n)) => {
            let digits = n.strip_prefix('-').unwrap_or(n);
            let ms = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                n.parse::<i64>().ok()
            } else {
                None
            };
            let Some(ms) = ms else {
                return Err(format!(
                    "timestamp: `{n}` is not an integer of epoch milliseconds (a JSON integer, type long)"
                ));
            };
            if ms.abs_diff(now_ms) > TIMESTAMP_WINDOW_MS.unsigned_abs() {
                let hint = if (ms.saturating_mul(1000)).abs_diff(now_ms)
                    <= TIMESTAMP_WINDOW_MS.unsigned_abs()
                {
                    " (it looks like epoch seconds)"
                } else {
                    ""
                };
                return Err(format!(
                    "timestamp: {ms} is not the current time in epoch milliseconds{hint}; the sandbox accepts {} hours either side of its clock ({now_ms})",
                    TIMESTAMP_WINDOW_MS / 3_600_000
                ));
            }
        }
        Some(other) => {
            return Err(format!(
                "timestamp: `{}` is not a JSON integer of epoch milliseconds (type long)",
                other.to_json_string()
            ))
        }
    }
    match message.get("locale") {
        Some(Json::String(l)) if is_locale(l) => {}
        Some(other) => {
            return Err(format!(
                "locale: `{}` is not a locale tag <language>_<COUNTRY> such as en_KE",
                other.to_json_string()
            ))
        }
        None => return Err("locale: is required (a tag such as en_KE)".into()),
    }
    match message.get("salt") {
        Some(Json::String(s)) if !s.is_empty() => {}
        Some(_) => return Err("salt: must be a non-empty string, new per message".into()),
        None => return Err("salt: is required (a random string, new per message)".into()),
    }
    match message.get("params") {
        Some(Json::Object(_)) => {}
        Some(other) => {
            return Err(format!(
            "params: must be a JSON object, not `{}` (an operation without parameters sends {{}})",
            other.to_json_string()
        ))
        }
        None => return Err("params: is required (an object; {} when there are none)".into()),
    }
    if message.get("senderKey").is_some() {
        return Err(
            "senderKey: is never sent; it is only added to the string that is hashed".into(),
        );
    }
    Ok(())
}

/// `<language>_<COUNTRY>`: 2 or 3 lower-case letters, `_`, 2 upper-case letters.
fn is_locale(text: &str) -> bool {
    let Some((language, country)) = text.split_once('_') else {
        return false;
    };
    (2..=3).contains(&language.len())
        && language.bytes().all(|b| b.is_ascii_lowercase())
        && country.len() == 2
        && country.bytes().all(|b| b.is_ascii_uppercase())
}

/// The `pageSize` of a paged operation when it is over 50: the live service answers
/// it with `15002` (public-facts.md **\[live\]**), before any other parameter check,
/// although the generated client refuses it before sending.
fn page_size_over_limit(candidates: &[&'static str], params: &Json) -> Option<i64> {
    if !candidates.iter().any(|c| PAGED.contains(c)) {
        return None;
    }
    let size: i64 = params.get("pageSize")?.as_text()?.trim().parse().ok()?;
    (size > 50).then_some(size)
}

/// getTransList without `txType` or `txStatus` is answered as with `[]` (all types,
/// all statuses): integrations omit them and the service's sandbox tolerates it
/// (public-facts.md **\[live\]**), although the document marks both required.
fn tolerate_missing_filters(params: &mut Json) {
    if let Json::Object(map) = params {
        for filter in ["txType", "txStatus"] {
            map.entry(filter.to_owned())
                .or_insert_with(|| Json::Array(Vec::new()));
        }
    }
}

fn sign_response(
    shared: &Shared,
    key: &PrivateKey,
    request_id: &str,
    locale: &str,
    code: &str,
    msg: &str,
    data: Option<serde_json::Value>,
) -> Vec<u8> {
    let data = data
        .map(strip_nulls)
        .filter(|d| !d.is_null())
        .and_then(|d| RawJson::from_string(d.to_string()).ok());
    let signed = baas_runtime::envelope::signed_response_body(
        request_id,
        &shared.service_sender,
        locale,
        code,
        msg,
        data.as_ref(),
        key,
    );
    let mut body = match signed {
        Ok(b) => b,
        Err(e) => unsigned(codes::SYSTEM, &format!("cannot sign the response: {e}")),
    };
    if shared.tamper_next.swap(false, Ordering::SeqCst) {
        body = tamper(body);
    }
    body
}

/// Changes the signed body after signing: the `msg` text gets a suffix.
fn tamper(body: Vec<u8>) -> Vec<u8> {
    match Json::parse(&String::from_utf8_lossy(&body)) {
        Ok(Json::Object(mut map)) => {
            let msg = map
                .get("msg")
                .and_then(Json::as_text)
                .unwrap_or_default()
                .to_owned();
            map.insert("msg".into(), Json::String(format!("{msg} (tampered)")));
            Json::Object(map).to_json_string().into_bytes()
        }
        _ => body,
    }
}

/// Starts the background delivery of one notification (or, without a callback URL,
/// records it as undeliverable).
fn deliver(shared: Arc<Shared>, n: Outgoing) {
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
        let params = RawJson::from_string(strip_nulls(n.params).to_string()).unwrap_or_default();
        let body = match baas_runtime::notification::signed_body(
            n.notification_type,
            &request_id,
            &shared.service_sender,
            "en_KE",
            &params,
            key,
        ) {
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
