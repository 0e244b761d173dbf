//! The HTTP side: hyper 1 on `127.0.0.1`, the envelope checks (method, path, sender,
//! signature, replayed requestId, params through the generated decoders and
//! validators), the signed response, and delivery of signed notifications.
//!
//! One module per responsibility: [`http`] (the accept loop, reading a request,
//! writing the answer), [`request`] (the checks of one POST in order, then the
//! operation), [`envelope`] (the rules of the envelope and decoding the params),
//! [`replay`] (the requestIds already used), [`respond`] (signed and unsigned answers)
//! and [`notify`] (delivering notifications, the loopback HTTP client).

mod admin;
mod envelope;
mod http;
mod notify;
mod replay;
mod request;
mod respond;

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use baas_client::dispatch::OPERATIONS;
use baas_runtime::PrivateKey;
use hyper::Method;

use crate::bank::Bank;
use crate::state::{Delivered, QueuedNotification, StateError, Store};
use crate::SandboxConfig;

pub(crate) use admin::token_is_plain;
#[cfg(test)]
pub(crate) use envelope::decode_request;
pub(crate) use http::serve;
pub use notify::MAX_DELIVERIES;
pub(crate) use notify::{parse_callback, resume};
pub(crate) use replay::REPLAY_MEMORY;
pub(crate) use request::answer_path;

/// Requests kept in the log returned by `Sandbox::requests`.
pub const LOG_LIMIT: usize = 10_000;

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
    /// requestId, once the signature held and the requestId is one the sandbox echoes
    /// (never the unverified text of a refused request).
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
    replay: replay::Replay,
    pub(crate) requests_seen: AtomicU64,
    pub(crate) log: Mutex<VecDeque<SeenRequest>>,
    pub(crate) tamper_next: AtomicBool,
    pub(crate) callback_url: Mutex<Option<baas_runtime::transport::reqwest::Url>>,
    /// Posts the notifications.
    pub(crate) delivery_client: baas_runtime::transport::reqwest::Client,
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
    /// See [`crate::SandboxConfig::max_body_bytes`].
    pub(crate) max_body_bytes: usize,
    /// See [`crate::SandboxConfig::max_connections`] (at least 1).
    pub(crate) max_connections: usize,
    /// Permits to read and check a large body (see
    /// [`crate::SandboxConfig::large_bodies_at_once`]).
    pub(crate) large_bodies: Arc<tokio::sync::Semaphore>,
    /// Notifications whose delivery has not finished yet (see
    /// [`crate::Sandbox::deliveries_settled`]).
    pub(crate) pending_deliveries: tokio::sync::watch::Sender<usize>,
    /// The faults in force.
    pub(crate) faults: Mutex<crate::faults::Faults>,
    /// Notifications whose first delivery attempt ended (a reordered one waits for it
    /// to move).
    pub(crate) first_attempts: tokio::sync::watch::Sender<u64>,
    /// The admin page is served (`/_sandbox/`).
    pub(crate) admin: bool,
    /// The token admin requests must carry, if any (see
    /// [`crate::SandboxConfig::admin_token`]).
    pub(crate) admin_token: Option<String>,
    /// The port listened on (0 until [`Shared::listening_on`]): an admin request's
    /// `Host` must name it.
    port: std::sync::atomic::AtomicU16,
    /// The last exchanges with their answers, for the admin page.
    pub(crate) recent: Mutex<VecDeque<admin::Exchange>>,
    /// The last signed notifications (requestId, type, body), for redelivery.
    pub(crate) signed_notifications: Mutex<VecDeque<(String, String, Vec<u8>)>>,
    /// The state file (`--state`), written before every answer to a request whose
    /// requestId was accepted; `None` in memory.
    pub(crate) store: Option<Mutex<Store>>,
    /// Why the state file could not be written, once it could not: from then on every
    /// request is answered `10000` with it (what is in memory is no longer what a
    /// restart would find), until the sandbox is restarted.
    state_failed: Mutex<Option<String>>,
}

impl Shared {
    /// The state of a sandbox of `bank` started with `config` (whose partner is the
    /// only one).
    pub(crate) fn new(bank: Bank, service_sender: String, config: &SandboxConfig) -> Shared {
        Shared::restored(bank, service_sender, config, None, Vec::new(), 0)
    }

    /// The state of a sandbox started with `config` on `bank`, with a state file
    /// (`store`), the requestIds it saw and its clock offset.
    pub(crate) fn restored(
        bank: Bank,
        service_sender: String,
        config: &SandboxConfig,
        store: Option<Store>,
        request_ids: Vec<String>,
        clock_offset_ms: i64,
    ) -> Shared {
        let partners =
            BTreeMap::from([(config.sender.clone(), PrivateKey::new(config.key.clone()))]);
        Shared {
            bank: Mutex::new(bank),
            partners,
            service_sender,
            replay: replay::Replay::with(request_ids),
            requests_seen: AtomicU64::new(0),
            log: Mutex::new(VecDeque::new()),
            tamper_next: AtomicBool::new(false),
            callback_url: Mutex::new(None),
            delivery_client: notify::delivery_client(),
            deliveries: Mutex::new(Vec::new()),
            retry_backoff: config.retry_backoff,
            clock_offset_ms: AtomicI64::new(clock_offset_ms),
            notification_counter: AtomicU64::new(0),
            notification_prefix: format!("NTF{}", run_id()),
            header_read_timeout: config.header_read_timeout,
            body_read_timeout: config.body_read_timeout,
            max_body_bytes: config.max_body_bytes,
            max_connections: config.max_connections.max(1),
            large_bodies: Arc::new(tokio::sync::Semaphore::new(
                config.large_bodies_at_once.max(1),
            )),
            pending_deliveries: tokio::sync::watch::Sender::new(0),
            faults: Mutex::new(crate::faults::Faults::default()),
            first_attempts: tokio::sync::watch::Sender::new(0),
            admin: config.admin,
            admin_token: config.admin_token.clone(),
            port: std::sync::atomic::AtomicU16::new(0),
            recent: Mutex::new(VecDeque::new()),
            signed_notifications: Mutex::new(VecDeque::new()),
            store: store.map(Mutex::new),
            state_failed: Mutex::new(None),
        }
    }

    /// Records the port listened on.
    pub(crate) fn listening_on(&self, port: u16) {
        self.port.store(port, Ordering::SeqCst);
    }

    /// The port listened on (0 before [`Shared::listening_on`]).
    pub(crate) fn port(&self) -> u16 {
        self.port.load(Ordering::SeqCst)
    }

    /// Why the state file can no longer be written, once that happened.
    pub(crate) fn state_failure(&self) -> Option<String> {
        lock(&self.state_failed).clone()
    }

    /// Stops serving after a failed write of the state file (said once on stderr: the
    /// sandbox is a command and a test fixture, and this needs its operator).
    fn state_write_failed(&self, e: &StateError) -> String {
        let msg = format!(
            "{e}; the sandbox answers 10000 until it is restarted (it restarts with every \
             request answered before this one)"
        );
        let mut failed = lock(&self.state_failed);
        if failed.is_none() {
            eprintln!("baas-sandbox: {msg}");
            *failed = Some(msg.clone());
        }
        msg
    }

    /// Writes what one request changed (see [`Store::commit`]) before it is answered;
    /// without a state file, forgets which records changed. The error says why the
    /// request cannot be answered as done.
    pub(crate) fn commit(
        &self,
        request_id: &str,
        bank: Option<&mut Bank>,
        queued: &[QueuedNotification],
    ) -> Result<(), String> {
        let Some(store) = &self.store else {
            if let Some(bank) = bank {
                bank.forget_changes();
            }
            return Ok(());
        };
        lock(store)
            .commit(request_id, bank, queued)
            .map_err(|e| self.state_write_failed(&e))
    }

    /// Records how the delivery of notification `request_id` ended.
    pub(crate) fn record_delivery(&self, request_id: &str, how: Delivered) {
        if let Some(store) = &self.store {
            if let Err(e) = lock(store).delivered(request_id, how) {
                self.state_write_failed(&e);
            }
        }
    }

    /// Moves the clock forward by `ms` (and records it in the state file).
    pub(crate) fn advance_clock(&self, ms: i64) -> Result<(), String> {
        let offset = self
            .clock_offset_ms
            .fetch_add(ms, Ordering::SeqCst)
            .saturating_add(ms);
        match &self.store {
            Some(store) => lock(store)
                .set_clock_offset(offset)
                .map_err(|e| self.state_write_failed(&e)),
            None => Ok(()),
        }
    }

    pub(crate) fn now_ms(&self) -> i64 {
        baas_runtime::envelope::now_millis()
            .saturating_add(self.clock_offset_ms.load(Ordering::SeqCst))
    }

    fn remember(&self, method: &Method, path: &str, answer: &request::Answer) {
        let sent = match answer.send {
            request::Send::Now => String::new(),
            request::Send::Drop => "dropped (fault)".to_owned(),
            request::Send::After(by) => format!("delayed {} ms (fault)", by.as_millis()),
        };
        admin::keep(
            &mut lock(&self.recent),
            admin::Exchange {
                method: method.to_string(),
                path: path.to_owned(),
                request_id: answer.request_id.clone(),
                operation: answer.operation.map(str::to_owned),
                code: answer.code.clone(),
                answer: admin::answer_text(&answer.body),
                sent,
                signature_verified: answer.request_id.is_some(),
                expected: answer.expected.clone(),
            },
        );
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
        self.replay.first_use(id)
    }

    /// Forgets `id` (a request a fault lost before it reached the service).
    fn forget_request_id(&self, id: &str) {
        self.replay.forget(id);
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
