//! # baas-sandbox
//!
//! A sandbox of the banking-as-a-service partner API, served over HTTP on
//! `127.0.0.1`: a partner can try an integration without credentials from the bank,
//! and our own tests get a real counterpart for the generated client. It runs in
//! memory, or keeps its state across restarts in an SQLite file
//! ([`SandboxConfig::state`], `--state FILE`, [`state`]).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let sandbox = baas_sandbox::Sandbox::start().await?;
//! let client = baas_client::Client::new(sandbox.client_config())?;
//! # Ok(()) }
//! ```
//!
//! ## What it does
//!
//! * Every request: POST only (a GET answers code `12000`), a known path (else HTTP
//!   500), a known sender (`12003`), a signature that holds (`12005 Invalid signature`),
//!   a requestId never used before (`12002`), an envelope as the document defines it
//!   (`timestamp` epoch ms, `locale` `en_KE`-like, `salt`, `params` an object: `12001`),
//!   and params that decode as the generated request type and pass its generated
//!   validators (`12001` with every violation; a `pageSize` over 50 answers `15002`
//!   first, as the live service does).
//! * Amounts finer than 0.01 are refused (`12001`), so the ledger is exact; a frozen
//!   payee is refused (`11000`), a dormant one credited. The README's "Sandbox rules"
//!   table says, for each rule, whether it is the document's or live behaviour.
//! * Every answer to a request whose signature held is signed with the partner's key
//!   (as the service does), with the runtime's response builder; a sandbox can be told
//!   to tamper its next response. An answer to a request whose sender, body or
//!   signature did not pass is an unsigned `code`/`msg` that quotes nothing of it (a
//!   signed one would make the sandbox a signing oracle), and nothing is signed whose
//!   canonical string could be re-cut ([`recut`]): such values are refused (`12001`)
//!   before they are stored.
//! * Before a signature is known to hold, a request costs time linear in its size and
//!   memory about its size: bodies are capped ([`SandboxConfig::max_body_bytes`]), so
//!   are connections ([`SandboxConfig::max_connections`]) and the values read
//!   ([`json::MAX_VALUES`]); a large body is checked on a blocking thread, one at a
//!   time by default ([`SandboxConfig::large_bodies_at_once`]).
//! * Accounts, short codes, dormancy and OTP-confirmed activation, SME sub-account
//!   names, money movement through pending applications confirmed with an OTP,
//!   airtime and bills, onboarding queries, closing-balance jobs (what the ledger held
//!   when the day ended) and signed notifications `0015`, `0026`, `0028` POSTed to a
//!   callback URL until it answers `ok`.
//! * Every answer's `data` and every notification's `params` is the generated response
//!   type or payload record (`baas_client`, feature `server`): the members the spec
//!   declares, of their declared JSON types (`tests/e2e_strict_shapes.rs` checks it).
//! * Faults on demand ([`faults`]): per operation (optionally one parameter's value),
//!   for the next N calls or with a seeded probability, the answer is dropped after the
//!   effect, delayed, replaced by a service code (with or without the effect), unsigned,
//!   wrongly signed or altered; notifications are lost, duplicated, delayed, reordered
//!   or wrongly signed. Set with [`Sandbox::inject`], [`SandboxConfig::faults`], a YAML
//!   scenario ([`faults::scenario`], `--scenario FILE`) or the admin page.
//! * The admin page at `/_sandbox/` ([`SandboxConfig::admin`]): accounts, the ledger,
//!   pending applications with their OTPs, recent requests and answers, deliveries,
//!   faults and the clock, as HTML and JSON; its forms set faults, advance the clock
//!   and deliver a notification again. Loopback only, off the signed API.
//! * State that survives restarts ([`state`]): with a state file, every request whose
//!   requestId was accepted is written (its requestId, the records it changed, its
//!   ledger lines, the notifications it produced) in one SQLite transaction before it
//!   is answered, so a sandbox killed at any moment restarts with everything it
//!   answered; notifications not delivered are delivered after the restart.
//!
//! ## Sandbox rules (fixed, documented)
//!
//! * Partner: sender [`DEFAULT_SENDER`], key [`DEFAULT_KEY`] (a test key, public).
//! * **OTP**: the code for a `businessId` is [`otp_for`]: the last 6 decimal digits of
//!   the first 8 bytes (big-endian) of SHA-256 of `"baas-sandbox-otp:" + businessId`.
//!   `sendOtp` must be called first; 5 wrong codes lock the application (`11202`).
//! * businessId of an application: the `txId` (transfers), the `paymentId` (airtime,
//!   bill) or `bulkPaymentOrderId`, the `applicationId` (SWIFT, CNY, FX, group), and
//!   the requestId of the `/account/activateAccount` call (also what
//!   `/account/cancelAccountOperation` takes).
//! * Fees: none to the sandbox's own bank (`payeeBankCode` `46`), 0.5% otherwise and
//!   for SWIFT with `OUR`/`SHA`. Rates: a fixed table ([`ops::kes_per_unit`]).
//! * Seed data: see [`seed`]. Statuses: transactions 1 submitted, 8 succeeded, 4 failed;
//!   SWIFT 1 then 6 (in transit); FX 1 then 6 (successful); CNY 1 then 8; payments
//!   1 then 8; reversals are executed at once (status 3).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bank;
pub mod error;
pub mod faults;
pub mod json;
pub mod ops;
#[cfg(test)]
mod ops_tests;
pub mod recut;
pub mod seed;
mod server;
pub mod signing;
pub mod state;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::{Amount, Config, PrivateKey};

pub use bank::otp_for;
pub use server::{DeliveryAttempt, SeenRequest, MAX_DELIVERIES};

/// Sender name of the sandbox's partner.
pub const DEFAULT_SENDER: &str = "sandbox-partner";
/// The partner's test key (public; never a real key).
pub const DEFAULT_KEY: &str = "sandbox-test-key-not-a-secret";
/// Sender name the sandbox writes in its responses and notifications.
pub const SERVICE_SENDER: &str = "baas-sandbox";

/// Why the sandbox could not start or be configured.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// Binding or reading the listening socket failed.
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind {
        /// Requested port (0 = any).
        port: u16,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The callback URL is not a loopback `http://127.0.0.1:PORT/path`.
    #[error("callback URL: {0}")]
    CallbackUrl(String),
    /// The state file ([`SandboxConfig::state`]) cannot be used.
    #[error(transparent)]
    State(#[from] state::StateError),
    /// The admin token ([`SandboxConfig::admin_token`]) is empty or holds a character
    /// that cannot travel unchanged in a header, a cookie and a URL.
    #[error(
        "admin token: use printable ASCII without space, ';', ',', '\"', '\\', '&', '#',          '%', '+' or '=' (and not empty)"
    )]
    AdminToken,
}

/// Largest request body read by default ([`SandboxConfig::max_body_bytes`]): a 30 MB
/// invoice in Base64 plus the rest of a CNY Express application.
pub const MAX_BODY_BYTES: usize = 48 * 1024 * 1024;
/// Connections served at once by default ([`SandboxConfig::max_connections`]). Each
/// open connection costs a task, a socket and a few KiB until it sends a request, so
/// this is set well above what clients that behave need: 300 clients sending their
/// headers slowly (each cut off after [`SandboxConfig::header_read_timeout`]) leave room
/// for the others (`tests/e2e_slow_clients.rs`). It was 64, and 64 slow clients held
/// every other request for up to 10 s.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// Bodies larger than this are "large": read only with a permit of
/// [`SandboxConfig::large_bodies_at_once`] and checked on a blocking thread, not on the
/// async workers. A normal request is under 2 KiB; this is about 5 ms of checking in a
/// debug build.
pub const LARGE_BODY_BYTES: usize = 64 * 1024;

/// How to start a sandbox.
///
/// Its `Debug` shows the key as `[redacted]` (a test key here, but configurations get
/// printed, and one day it holds a real one).
#[derive(Clone)]
#[non_exhaustive]
pub struct SandboxConfig {
    /// Port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// Partner sender name.
    pub sender: String,
    /// Partner key.
    pub key: String,
    /// Wait before the second delivery of a notification, doubled for each next one.
    pub retry_backoff: Duration,
    /// Callback URL for notifications, if known at start.
    pub callback_url: Option<String>,
    /// Time a client has to send a request's headers; a slower one is disconnected.
    pub header_read_timeout: Duration,
    /// Time a client has to send a request's body once its headers arrived; a slower
    /// one gets `12001` and the connection is closed.
    pub body_read_timeout: Duration,
    /// Largest request body read, in bytes (default [`MAX_BODY_BYTES`]). A larger one
    /// is answered with an unsigned `12001` and the connection closed before more than
    /// this is read: at once when its `Content-Length` says so, else as soon as the
    /// bytes received pass it.
    pub max_body_bytes: usize,
    /// Connections served at once (default [`DEFAULT_MAX_CONNECTIONS`]; at least 1).
    /// Further connections wait, unaccepted, in the listening socket's backlog until one
    /// closes (an idle keep-alive connection closes after
    /// [`SandboxConfig::header_read_timeout`]). They wait rather than being refused: a
    /// client whose connection is reset cannot tell whether a request that moves money
    /// arrived, and one that waits gets its answer late but sure.
    pub max_connections: usize,
    /// Large bodies (over [`LARGE_BODY_BYTES`]) read and checked at once (default 1; at
    /// least 1). A large body waits for a permit before it is read, is parsed and its
    /// signature checked on a blocking thread, and gives the permit back when answered:
    /// so hostile bodies cost at most this many bodies' memory and this many cores,
    /// while the async workers go on serving normal requests.
    pub large_bodies_at_once: usize,
    /// Faults in force from the start (see [`faults`] and [`Sandbox::inject`]).
    pub faults: Vec<faults::Fault>,
    /// Serve the admin page at `/_sandbox/` (default true): accounts, the ledger,
    /// pending applications with their OTPs, recent requests and answers, notification
    /// deliveries and the faults in force, as HTML and as JSON under `/_sandbox/api/`.
    /// Read-only, loopback only, off the signed API.
    pub admin: bool,
    /// A state file (default none: everything in memory, as new on every start). With
    /// one, accounts, the ledger, applications (with their OTP attempts), every other
    /// record, the requestIds seen, the notifications not yet delivered and the clock
    /// offset are kept in it (SQLite, WAL mode), each request's changes written in one
    /// transaction before it is answered; a new or empty file starts seeded. See
    /// [`state`]. The sandbox holds the file (another sandbox on it is refused) until
    /// its last task ends: after a drop, the connections' grace period and the
    /// notifications still being retried.
    pub state: Option<std::path::PathBuf>,
    /// A token the admin page and API require (default none; `--admin-token`): sent in
    /// the `X-Sandbox-Admin-Token` header (the Python and TypeScript helpers do), in the
    /// `baas_sandbox_admin` cookie, or as `?token=` in the page's URL (which sets the
    /// cookie). Printable ASCII without space, `;`, `,`, `"`, `\`, `&`, `#`, `%`, `+`
    /// or `=`. With or without it, admin requests must come from loopback and name
    /// the sandbox itself in `Host` (and `Origin`, when sent): see the README.
    pub admin_token: Option<String>,
}

impl std::fmt::Debug for SandboxConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxConfig")
            .field("port", &self.port)
            .field("sender", &self.sender)
            .field("key", &format_args!("{}", baas_runtime::REDACTED))
            .field("retry_backoff", &self.retry_backoff)
            .field("callback_url", &self.callback_url)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_connections", &self.max_connections)
            .field("large_bodies_at_once", &self.large_bodies_at_once)
            .field("faults", &self.faults)
            .field("admin", &self.admin)
            .field("state", &self.state)
            .field(
                "admin_token",
                &self.admin_token.as_ref().map(|_| baas_runtime::REDACTED),
            )
            .finish()
    }
}

impl Default for SandboxConfig {
    fn default() -> SandboxConfig {
        SandboxConfig {
            port: 0,
            sender: DEFAULT_SENDER.to_owned(),
            key: DEFAULT_KEY.to_owned(),
            retry_backoff: Duration::from_millis(50),
            callback_url: None,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(20),
            max_body_bytes: MAX_BODY_BYTES,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            large_bodies_at_once: 1,
            faults: Vec::new(),
            admin: true,
            state: None,
            admin_token: None,
        }
    }
}

impl SandboxConfig {
    /// The default configuration on `port`.
    pub fn on_port(port: u16) -> SandboxConfig {
        SandboxConfig {
            port,
            ..SandboxConfig::default()
        }
    }
}

/// A running sandbox. It stops (listener and connections) when dropped.
pub struct Sandbox {
    addr: SocketAddr,
    sender: String,
    key: String,
    shared: Arc<server::Shared>,
    shutdown: tokio::sync::watch::Sender<bool>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("addr", &self.addr)
            .field("sender", &self.sender)
            .finish_non_exhaustive()
    }
}

/// The seeded sandbox without a socket: [`Offline::answer`] runs one POST body through the
/// same checks and handlers as the server, bytes in, answer out. For fuzzing and tests.
///
/// No callback URL can be set, so every notification is recorded as undeliverable when
/// it is produced ([`Offline::deliveries`]) and nothing runs in the background: no tokio
/// runtime is needed, and a new `Offline` per input is cheap.
#[doc(hidden)]
pub struct Offline {
    shared: Arc<server::Shared>,
}

impl Default for Offline {
    fn default() -> Offline {
        Offline::new()
    }
}

impl Offline {
    /// The seeded sandbox with the default partner.
    pub fn new() -> Offline {
        let config = SandboxConfig::default();
        let shared = Arc::new(server::Shared::new(
            bank::Bank::seeded(baas_runtime::envelope::now_millis()),
            SERVICE_SENDER.to_owned(),
            &config,
        ));
        Offline { shared }
    }

    /// The answer body to a POST of `body` on `path`.
    pub fn answer(&self, path: &str, body: &[u8]) -> Vec<u8> {
        server::answer_path(&self.shared, path, body)
    }

    /// The notifications produced so far, each recorded once as not deliverable.
    pub fn deliveries(&self) -> Vec<DeliveryAttempt> {
        server::lock(&self.shared.deliveries).clone()
    }

    /// Sum of every balance per currency, as [`Sandbox::totals`]: constant whatever is
    /// asked (money is conserved).
    pub fn totals(&self) -> BTreeMap<String, Amount> {
        server::totals(&self.shared)
    }
}

impl Sandbox {
    /// Starts the seeded sandbox on a free port of 127.0.0.1 with the default partner.
    /// Must be called inside a tokio runtime.
    pub async fn start() -> Result<Sandbox, SandboxError> {
        Sandbox::start_with(SandboxConfig::default()).await
    }

    /// Starts a sandbox with `config`.
    pub async fn start_with(config: SandboxConfig) -> Result<Sandbox, SandboxError> {
        if let Some(token) = &config.admin_token {
            if !server::token_is_plain(token) {
                return Err(SandboxError::AdminToken);
            }
        }
        let bind_err = |source| SandboxError::Bind {
            port: config.port,
            source,
        };
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", config.port))
            .await
            .map_err(bind_err)?;
        let addr = listener.local_addr().map_err(bind_err)?;
        let now = baas_runtime::envelope::now_millis();
        let (shared, queue) = match &config.state {
            None => {
                let bank = bank::Bank::seeded(now);
                let shared = server::Shared::new(bank, SERVICE_SENDER.to_owned(), &config);
                (shared, Vec::new())
            }
            Some(path) => {
                let (store, restored) = state::Store::open(path, now, server::REPLAY_MEMORY)?;
                let shared = server::Shared::restored(
                    restored.bank,
                    SERVICE_SENDER.to_owned(),
                    &config,
                    Some(store),
                    restored.request_ids,
                    restored.clock_offset_ms,
                );
                (shared, restored.queue)
            }
        };
        shared.listening_on(addr.port());
        let shared = Arc::new(shared);
        let (shutdown, rx) = tokio::sync::watch::channel(false);
        let sandbox = Sandbox {
            addr,
            sender: config.sender,
            key: config.key,
            shared: shared.clone(),
            shutdown,
        };
        if let Some(url) = &config.callback_url {
            sandbox.set_callback_url(url)?;
        }
        for fault in config.faults {
            sandbox.inject(fault);
        }
        server::resume(&shared, queue);
        tokio::spawn(server::serve(listener, shared, rx));
        Ok(sandbox)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `http://127.0.0.1:PORT/_sandbox/`, the admin page (unless turned off with
    /// [`SandboxConfig::admin`]).
    pub fn admin_url(&self) -> String {
        format!("http://{}/_sandbox/", self.addr)
    }

    /// The admin token, when the sandbox has one ([`SandboxConfig::admin_token`]).
    pub fn admin_token(&self) -> Option<&str> {
        self.shared.admin_token.as_deref()
    }

    /// The listening address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The partner's sender name.
    pub fn sender(&self) -> &str {
        &self.sender
    }

    /// The sender name of the sandbox's answers and notifications ([`SERVICE_SENDER`]):
    /// what a notification `Verifier` is given, as the banner's `service:` line says.
    pub fn service_sender(&self) -> &str {
        SERVICE_SENDER
    }

    /// The partner's (test) key.
    pub fn private_key(&self) -> PrivateKey {
        PrivateKey::new(self.key.clone())
    }

    /// A verifier of the notifications this sandbox sends: the partner's key and the
    /// sandbox's service sender ([`SERVICE_SENDER`]), with the default window.
    pub fn notification_verifier(&self) -> baas_runtime::notification::Verifier {
        baas_runtime::notification::Verifier::new(self.private_key(), SERVICE_SENDER)
    }

    /// A client configuration for this sandbox (base URL, sender, key).
    pub fn client_config(&self) -> Config {
        Config::new(self.base_url(), self.sender.clone(), self.private_key())
    }

    /// The OTP of `business_id` (see the crate docs for the rule).
    pub fn otp_for(&self, business_id: &str) -> String {
        otp_for(business_id)
    }

    /// HTTP requests received so far (any method, path or body).
    pub fn requests_seen(&self) -> u64 {
        self.shared.requests_seen.load(Ordering::SeqCst)
    }

    /// The last requests received (at most 10,000), oldest first.
    pub fn requests(&self) -> Vec<SeenRequest> {
        server::lock(&self.shared.log).iter().cloned().collect()
    }

    /// Sets where notifications are POSTed: `http://127.0.0.1:PORT/path`.
    pub fn set_callback_url(&self, url: &str) -> Result<(), SandboxError> {
        let target = server::parse_callback(url).map_err(SandboxError::CallbackUrl)?;
        *server::lock(&self.shared.callback_url) = Some(target);
        Ok(())
    }

    /// Makes the next response change after it is signed (for tests of the client's
    /// response verification).
    pub fn tamper_next_response(&self) {
        self.shared.tamper_next.store(true, Ordering::SeqCst);
    }

    /// Puts `fault` in force (after those already set: the first that hits a call
    /// wins). See [`faults`].
    pub fn inject(&self, fault: faults::Fault) {
        server::lock(&self.shared.faults).add(fault);
    }

    /// The faults in force, with their hits so far.
    pub fn faults(&self) -> Vec<faults::ActiveFault> {
        server::lock(&self.shared.faults).list()
    }

    /// Removes every fault.
    pub fn clear_faults(&self) {
        server::lock(&self.shared.faults).clear();
    }

    /// Every notification delivery attempt so far.
    pub fn deliveries(&self) -> Vec<DeliveryAttempt> {
        server::lock(&self.shared.deliveries).clone()
    }

    /// Waits until the delivery of every notification produced so far has finished:
    /// acknowledged with `ok`, given up after [`MAX_DELIVERIES`] attempts, or not
    /// deliverable (no callback URL). A notification is produced before the response
    /// of the call that caused it, so after that call returns this cannot miss it.
    /// Each attempt has a 2-second time limit and the backoff doubles from
    /// [`SandboxConfig::retry_backoff`], so this returns within
    /// `5 × 2 s + 15 × retry_backoff`.
    pub async fn deliveries_settled(&self) {
        let mut pending = self.shared.pending_deliveries.subscribe();
        // The sender lives in `shared`, which `self` keeps alive: no error here.
        let _ = pending.wait_for(|n| *n == 0).await;
    }

    /// Moves the sandbox's clock forward (dormancy after 6 months, reversal window).
    /// With a state file the offset is kept in it (a failed write stops the sandbox
    /// serving, as for a request).
    pub fn advance_clock(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        // A failed write is reported by every later answer.
        let _ = self.shared.advance_clock(ms);
    }

    /// Balance of an account (customer or system), if it exists.
    pub fn balance(&self, account_id: &str) -> Option<Amount> {
        let balance = server::lock(&self.shared.bank).balance(account_id)?;
        balance.to_string().parse().ok()
    }

    /// Sum of every balance (customers, fees, outside world, FX position) per currency.
    /// Constant for the life of the sandbox: money is conserved.
    pub fn totals(&self) -> BTreeMap<String, Amount> {
        server::totals(&self.shared)
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // Receivers see the change and stop; an error only means they are gone already.
        let _ = self.shutdown.send(true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_never_shows_the_key() {
        let config = SandboxConfig {
            key: "a-real-looking-key-4f1c".into(),
            ..SandboxConfig::default()
        };
        let shown = format!("{config:?} {config:#?}");
        assert!(!shown.contains("a-real-looking-key-4f1c"), "{shown}");
        assert!(shown.contains(baas_runtime::REDACTED), "{shown}");
        assert!(shown.contains("sandbox-partner"), "{shown}");
    }
}
