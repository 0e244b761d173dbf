//! The cost of a call against the cost of the network (issue 24), in one run:
//!
//! * the runtime's `Client::execute` round trip of a small query (validate, envelope,
//!   sign, send, verify, decode) against raw reqwest posting pre-signed bytes to the
//!   same in-process HTTP/1.1 server on loopback, with 1 and with 16 requests in flight,
//!   printing raw/client time (1.0: the runtime costs nothing beyond the network);
//! * signing a CNY Express request and verifying an answer against a bare SHA-256 of the
//!   same canonical bytes, printing the ratios;
//! * allocations per call, counted by a counting global allocator on the calling thread.
//!
//! The ratios are measured in alternating rounds (client, raw, client, raw, ...) and the
//! median of the per-round ratios is printed, so a machine shared with other builds
//! slows both sides alike. `cargo bench -p baas-runtime --bench roundtrip`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::convert::Infallible;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use baas_runtime::canonical::Flattened;
use baas_runtime::envelope::{self, signed_response_body};
use baas_runtime::{
    sign, Client, Config, FieldPath, HttpRequest, HttpsTransport, Operation, PrivateKey, RawJson,
    Transport, ValidationErrors, Validator,
};
use bytes::Bytes;
use criterion::{criterion_group, criterion_main, Criterion};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

// ---------------------------------------------------------------------------------------
// Counting allocator: allocations made on the current thread.

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a
// const-initialised thread local (no allocation, no re-entry).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

// ---------------------------------------------------------------------------------------
// The operation and the server.

const KEY: &str = "partner-secret-key";
const SENDER: &str = "client1";

fn key() -> PrivateKey {
    PrivateKey::new(KEY)
}

#[derive(Serialize)]
struct GetAccountDetails {
    #[serde(rename = "accountId")]
    account_id: String,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct AccountDetails {
    #[serde(rename = "accountId")]
    account_id: Option<String>,
    balance: Option<String>,
    currency: Option<String>,
    status: Option<String>,
}

impl Operation for GetAccountDetails {
    type Response = AccountDetails;
    const NAME: &'static str = "getAccountDetails";
    const PATH: &'static str = "/query/getAccountDetails";
    const MOVES_MONEY: bool = false;
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut v = Validator::new();
        v.required(
            FieldPath::ROOT.field("accountId"),
            !self.account_id.is_empty(),
        );
        v.max_chars(FieldPath::ROOT.field("accountId"), &self.account_id, 32);
        v.finish()
    }
}

fn operation() -> GetAccountDetails {
    GetAccountDetails {
        account_id: "1002003004005".to_owned(),
    }
}

fn answer_data() -> RawJson {
    RawJson::from_string(
        r#"{"accountId":"1002003004005","balance":"1520.75","currency":"KES","status":"ACTIVE"}"#
            .to_owned(),
    )
    .unwrap()
}

/// The requestId of a request body, read without parsing it (the server's cost is the
/// same for both clients and kept small).
fn request_id_of(body: &[u8]) -> &str {
    let marker = b"\"requestId\":\"";
    let start = body
        .windows(marker.len())
        .position(|w| w == marker)
        .map(|p| p + marker.len())
        .unwrap_or(0);
    let len = body[start..].iter().position(|&b| b == b'"').unwrap_or(0);
    std::str::from_utf8(&body[start..start + len]).unwrap_or("")
}

async fn answer(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    thread_local! {
        static DATA: RawJson = answer_data();
    }
    let body = request
        .into_body()
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let id = request_id_of(&body);
    let signed = DATA.with(|data| {
        signed_response_body(id, "svc", "en_KE", "00000", "success", Some(data), &key())
    });
    Ok(Response::builder()
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(signed.unwrap_or_default())))
        .unwrap())
}

// ---------------------------------------------------------------------------------------
// CPU time per thread, to split a round trip's cost between the calling thread and the
// server (`/proc/thread-self/schedstat`: nanoseconds on the CPU, Linux only).

/// The schedstat file of the current thread, by its id (so that another thread can
/// read it), if the system has one.
fn this_thread_schedstat() -> Option<std::path::PathBuf> {
    let link = std::fs::read_link("/proc/thread-self").ok()?;
    Some(std::path::Path::new("/proc").join(link).join("schedstat"))
}

/// Nanoseconds the threads of `files` have run on a CPU (0 where unknown).
fn cpu_ns(files: &[std::path::PathBuf]) -> u64 {
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .filter_map(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// The server's threads (its runtime's and the one that accepts).
static SERVER_THREADS: std::sync::Mutex<Vec<std::path::PathBuf>> =
    std::sync::Mutex::new(Vec::new());

fn server_cpu_ns() -> u64 {
    cpu_ns(&SERVER_THREADS.lock().map(|t| t.clone()).unwrap_or_default())
}

fn calling_cpu_ns() -> u64 {
    cpu_ns(&this_thread_schedstat().into_iter().collect::<Vec<_>>())
}

/// An HTTP/1.1 server on loopback on its own runtime (one worker thread) and thread;
/// returns its base URL. Runs until the process ends.
fn start_server() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let record = || {
            if let (Some(file), Ok(mut threads)) = (this_thread_schedstat(), SERVER_THREADS.lock())
            {
                threads.push(file);
            }
        };
        record();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .on_thread_start(record)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let _ = stream.set_nodelay(true);
                tokio::spawn(async move {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), hyper::service::service_fn(answer))
                        .await;
                });
            }
        });
    });
    let addr = rx.recv().unwrap();
    format!("http://{addr}")
}

// ---------------------------------------------------------------------------------------
// The two ways of making a call.

struct Bench {
    runtime: tokio::runtime::Runtime,
    client: Client,
    raw: reqwest::Client,
    url: String,
    /// A request signed once, sent as is by the raw client.
    presigned: Bytes,
}

impl Bench {
    fn new() -> Bench {
        let base = start_server();
        // The calling side runs on the bench thread (so its allocations are counted).
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let config = Config::new(&base, SENDER, key());
        let client = Client::new(config.clone()).unwrap();
        let raw = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let signed = envelope::sign_request(&operation(), SENDER, "en_KE", &key()).unwrap();
        let bench = Bench {
            runtime,
            client,
            raw,
            url: config.url(GetAccountDetails::PATH),
            presigned: Bytes::from(signed.body),
        };
        // Both work, and both pools are warm.
        bench.runtime.block_on(async {
            bench.client.execute(&operation()).await.unwrap();
            assert!(bench.raw_call().await > 0);
        });
        bench
    }

    async fn client_call(&self) {
        let op = operation();
        let details = self.client.execute(&op).await.unwrap();
        black_box(details);
    }

    /// Posts the pre-signed bytes and reads the whole answer (no check of it).
    async fn raw_call(&self) -> usize {
        let response = self
            .raw
            .post(&self.url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .timeout(Duration::from_secs(30))
            .body(self.presigned.clone())
            .send()
            .await
            .unwrap();
        response.bytes().await.unwrap().len()
    }

    /// The runtime's transport alone posting the pre-signed bytes (no signing, no
    /// verification): splits the client's cost into the HTTP layer and the rest.
    async fn transport_call(&self, transport: &HttpsTransport) -> usize {
        let request = HttpRequest::new(
            self.url.clone(),
            self.presigned.to_vec(),
            Duration::from_secs(30),
            1 << 20,
        );
        transport.post_json(request).await.unwrap().body.len()
    }

    /// [`Bench::transport_call`] `total` times, one at a time; the elapsed time.
    fn run_transport(&self, transport: &HttpsTransport, total: u64) -> Duration {
        self.runtime.block_on(async {
            let started = Instant::now();
            for _ in 0..total {
                black_box(self.transport_call(transport).await);
            }
            started.elapsed()
        })
    }

    /// Runs `total` calls with `in_flight` of them at a time; the elapsed time.
    fn run(&self, raw: bool, in_flight: usize, total: u64) -> Duration {
        let next = AtomicUsize::new(0);
        let total = usize::try_from(total).unwrap_or(usize::MAX);
        self.runtime.block_on(async {
            let started = Instant::now();
            let worker = || async {
                while next.fetch_add(1, Ordering::Relaxed) < total {
                    if raw {
                        black_box(self.raw_call().await);
                    } else {
                        self.client_call().await;
                    }
                }
            };
            let workers: Vec<_> = (0..in_flight).map(|_| worker()).collect();
            join_all(workers).await;
            started.elapsed()
        })
    }
}

/// Drives futures to completion together on the current task (no spawning, so both
/// sides pay the same).
async fn join_all<F: std::future::Future<Output = ()>>(futures: Vec<F>) {
    let mut futures: Vec<_> = futures.into_iter().map(Box::pin).map(Some).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for slot in &mut futures {
            if let Some(f) = slot {
                if f.as_mut().poll(cx).is_ready() {
                    *slot = None;
                } else {
                    pending = true;
                }
            }
        }
        if pending {
            std::task::Poll::Pending
        } else {
            std::task::Poll::Ready(())
        }
    })
    .await;
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// One side's figures of a round-trip measurement (medians over the rounds).
struct Side {
    /// Wall-clock microseconds per call.
    wall_us: f64,
    /// CPU microseconds per call of the calling thread and of the server's threads.
    calling_cpu_us: f64,
    server_cpu_us: f64,
}

/// Runs `per_round` calls of one side, with the CPU time of both ends.
fn measured_round(bench: &Bench, raw: bool, in_flight: usize, per_round: u64) -> (f64, f64, f64) {
    let (calling, server) = (calling_cpu_ns(), server_cpu_ns());
    let wall = bench.run(raw, in_flight, per_round);
    let per_call = |ns: u64| ns as f64 / 1e3 / per_round as f64;
    (
        wall.as_secs_f64() * 1e6 / per_round as f64,
        per_call(calling_cpu_ns().saturating_sub(calling)),
        per_call(server_cpu_ns().saturating_sub(server)),
    )
}

/// raw time / client time (median of alternating rounds), and each side's figures.
fn round_trip_ratio(bench: &Bench, in_flight: usize) -> (f64, Side, Side) {
    let per_round = if in_flight == 1 { 400 } else { 1600 };
    let mut ratios = Vec::new();
    let mut figures: [[Vec<f64>; 3]; 2] = Default::default();
    for _ in 0..15 {
        let c = measured_round(bench, false, in_flight, per_round);
        let r = measured_round(bench, true, in_flight, per_round);
        ratios.push(r.0 / c.0);
        for (side, (wall, calling, server)) in figures.iter_mut().zip([c, r]) {
            side[0].push(wall);
            side[1].push(calling);
            side[2].push(server);
        }
    }
    let [client, raw] = figures.map(|[wall, calling, server]| Side {
        wall_us: median(wall),
        calling_cpu_us: median(calling),
        server_cpu_us: median(server),
    });
    (median(ratios), client, raw)
}

// ---------------------------------------------------------------------------------------
// Signing and verification.

/// A CNY Express transfer request with three order items, unsigned.
fn cny_express_request() -> Vec<u8> {
    let order = |i: u32| {
        format!(
            r#"{{"productName":"Product {i} 电子元件","quantity":{q},"amount":"{i}2500.50","orderTime":1650533105687,"platform":"https://shop.example.cn/item/{i}"}}"#,
            q = 10 * i
        )
    };
    format!(
        r#"{{"requestId":"client1a1b2c3d4e5f60718293a4b5c6d7e8f9","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","params":{{"payerAccountId":"1002003004005","beneficiaryType":"1","beneficiaryName":"张三","beneficiaryIdNumber":"110101199003071234","beneficiaryCountryCode":"CN","beneficiaryBankCode":"ICBKCNBJ","beneficiaryBankName":"Industrial and Commercial Bank of China","beneficiaryBankAddress":"55 Fuxingmennei Avenue, Beijing","beneficiaryAccountId":"6222020200112233445","paymentPurpose":"PURCHASE_GOODS","messageToBeneficiary":"Invoice 2024-001 & 2024-002","remark":"Q2 stock","supportDocumentFile":"JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K","supportDocumentType":"pdf","companyRegisDocumentFile":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk","companyRegisDocumentType":"image","invoiceDocumentType":"pdf","oderArray":[{},{},{}]}}}}"#,
        order(1),
        order(2),
        order(3)
    )
    .into_bytes()
}

/// A signed answer to the CNY Express request (about the same size).
fn cny_express_answer() -> Vec<u8> {
    let data = RawJson::from_string(
        r#"{"transactionId":"T2024061200012345","orderStatus":"PROCESSING","amount":"37501.50","fee":"12.00","currency":"CNY","beneficiaryName":"张三","beneficiaryAccountId":"6222020200112233445","createTime":1650533105687,"items":[{"productName":"Product 1 电子元件","quantity":10},{"productName":"Product 2 电子元件","quantity":20},{"productName":"Product 3 电子元件","quantity":30}]}"#
            .to_owned(),
    )
    .unwrap();
    signed_response_body(
        "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
        "svc",
        "en_KE",
        "00000",
        "success",
        Some(&data),
        &key(),
    )
    .unwrap()
}

fn canonical_bytes(body: &[u8]) -> Vec<u8> {
    Flattened::parse(body)
        .map(|f| f.canonical_bytes_exposing_key(&key()))
        .unwrap()
}

/// The envelope `envelope::sign_request` serializes, to time serializing alone.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a> {
    request_id: &'a str,
    sender: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    params: &'a serde_json::Value,
}

/// How the client signs its own requests: while serializing them (no parse of the
/// bytes written). Its cost is `envelope::sign_request` less serializing the same
/// envelope with `serde_json` alone (the bytes that are sent either way), set against
/// a bare SHA-256 of the canonical bytes it signs.
fn one_pass_signing(request: &[u8], k: &PrivateKey) {
    let body: serde_json::Value = serde_json::from_slice(request).unwrap();
    let params = body["params"].clone();
    let signed = envelope::sign_request(&params, SENDER, "en_KE", k).unwrap();
    let canonical = canonical_bytes(&signed.body);
    let signing_ns = nanos_per_call(|| envelope::sign_request(&params, SENDER, "en_KE", k));
    let serializing_ns = nanos_per_call(|| {
        serde_json::to_vec(&Envelope {
            request_id: "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
            sender: SENDER,
            locale: "en_KE",
            timestamp: 1_650_533_105_687,
            salt: "9f8e7d6c5b4a39281706f5e4",
            params: black_box(&params),
        })
    });
    let sha_ns = nanos_per_call(|| Sha256::digest(black_box(&canonical)));
    println!(
        "sign the CNY Express request as the client does (envelope::sign_request, signed \
         while serialized): {:.2} µs, of which serde_json alone {:.2} µs; signing's own \
         {:.2} µs against bare SHA-256 {:.2} µs: {:.2}x (target <= 2x)",
        signing_ns / 1e3,
        serializing_ns / 1e3,
        (signing_ns - serializing_ns) / 1e3,
        sha_ns / 1e3,
        (signing_ns - serializing_ns) / sha_ns
    );
}

/// Nanoseconds per call of `f`, median of rounds.
fn nanos_per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    let per_round = 2000;
    let mut rounds = Vec::new();
    for _ in 0..21 {
        let started = Instant::now();
        for _ in 0..per_round {
            black_box(f());
        }
        rounds.push(started.elapsed().as_secs_f64() * 1e9 / f64::from(per_round));
    }
    median(rounds)
}

/// Allocations on this thread per call of `f` (mean of 100 calls).
fn allocations_per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    black_box(f());
    let before = allocations();
    for _ in 0..100 {
        black_box(f());
    }
    (allocations() - before) as f64 / 100.0
}

// ---------------------------------------------------------------------------------------

/// The load average of the machine (`/proc/loadavg`), printed with the figures: on a
/// machine shared with other builds the wall-clock figures move with it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn report() {
    let bench = Bench::new();
    println!("\n== issue 24: ratios and allocations (medians of alternating rounds) ==");
    println!("load average before: {}", load_average());
    for in_flight in [1, 16] {
        let (ratio, client, raw) = round_trip_ratio(&bench, in_flight);
        println!(
            "round trip, {in_flight:>2} in flight: client {:7.1} µs/call, raw reqwest \
             {:7.1} µs/call, raw/client = {ratio:.3} (target >= 0.95)",
            client.wall_us, raw.wall_us
        );
        println!(
            "    CPU per call, calling thread: client {:.1} µs, raw {:.1} µs (+{:.1}); \
             server threads: {:.1} µs, {:.1} µs; CPU (both ends) per wall µs: client {:.2}, \
             raw {:.2} (of 2 cores)",
            client.calling_cpu_us,
            raw.calling_cpu_us,
            client.calling_cpu_us - raw.calling_cpu_us,
            client.server_cpu_us,
            raw.server_cpu_us,
            (client.calling_cpu_us + client.server_cpu_us) / client.wall_us,
            (raw.calling_cpu_us + raw.server_cpu_us) / raw.wall_us,
        );
    }
    let transport = HttpsTransport::new(Duration::from_secs(5)).unwrap();
    let mut transport_ratios = Vec::new();
    for _ in 0..15 {
        let t = bench.run_transport(&transport, 400);
        let r = bench.run(true, 1, 400);
        transport_ratios.push(r.as_secs_f64() / t.as_secs_f64());
    }
    println!(
        "transport alone (HttpsTransport::post_json of the pre-signed bytes), 1 in flight: \
         raw/transport = {:.3}",
        median(transport_ratios)
    );
    let k = key();
    let small_answer = signed_response_body(
        "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
        "svc",
        "en_KE",
        "00000",
        "success",
        Some(&answer_data()),
        &k,
    )
    .unwrap();
    let envelope_ns = nanos_per_call(|| envelope::sign_request(&operation(), SENDER, "en_KE", &k));
    let open_ns = nanos_per_call(|| {
        envelope::open_response::<AccountDetails>(
            Some(200),
            &small_answer,
            &k,
            envelope::Expect {
                request_id: "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
                accept_unsigned_success: false,
            },
        )
        .unwrap()
    });
    println!(
        "the call's own work, without the network: envelope and signature {:.2} µs, \
         verifying and decoding the answer ({} bytes) {:.2} µs",
        envelope_ns / 1e3,
        small_answer.len(),
        open_ns / 1e3
    );
    let request = cny_express_request();
    let answer = cny_express_answer();
    let (request_canonical, answer_canonical) =
        (canonical_bytes(&request), canonical_bytes(&answer));
    let sign_ns = nanos_per_call(|| sign::sign(&request, &k));
    let sha_request_ns = nanos_per_call(|| Sha256::digest(black_box(&request_canonical)));
    let verify_ns = nanos_per_call(|| sign::verify(&answer, &k));
    let sha_answer_ns = nanos_per_call(|| Sha256::digest(black_box(&answer_canonical)));
    println!(
        "sign CNY Express request ({} bytes): {:.2} µs, bare SHA-256 of its canonical bytes \
         {:.2} µs: {:.2}x (target <= 2x)",
        request.len(),
        sign_ns / 1e3,
        sha_request_ns / 1e3,
        sign_ns / sha_request_ns
    );
    println!(
        "verify CNY Express answer ({} bytes): {:.2} µs, bare SHA-256 of its canonical bytes \
         {:.2} µs: {:.2}x (target <= 2x)",
        answer.len(),
        verify_ns / 1e3,
        sha_answer_ns / 1e3,
        verify_ns / sha_answer_ns
    );
    one_pass_signing(&request, &k);
    let client_allocs = allocations_per_call(|| bench.run(false, 1, 1));
    let raw_allocs = allocations_per_call(|| bench.run(true, 1, 1));
    let sign_allocs = allocations_per_call(|| sign::sign(&request, &k));
    let verify_allocs = allocations_per_call(|| sign::verify(&answer, &k));
    let open_allocs = allocations_per_call(|| {
        envelope::open_response::<serde_json::Value>(
            Some(200),
            &answer,
            &k,
            envelope::Expect {
                request_id: "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
                accept_unsigned_success: false,
            },
        )
    });
    println!(
        "allocations per call (calling thread): client.execute {client_allocs:.1}, raw reqwest \
         {raw_allocs:.1} (runtime's own: {:.1}); sign {sign_allocs:.1}, verify \
         {verify_allocs:.1}, open_response (verify + decode to a Value) {open_allocs:.1}",
        client_allocs - raw_allocs
    );
    println!("load average after: {}\n", load_average());
}

fn bench_round_trip(c: &mut Criterion) {
    // `ROUNDTRIP_PROFILE=client` (or `raw`, `sign`, `verify`, `open`: the query's answer
    // verified and decoded, `sign_request`: the CNY request's params signed as the
    // client signs them): only that work, for 10 s,
    // to run under a profiler (`perf record -g target/release/deps/roundtrip-* --bench`).
    if let Ok(side) = std::env::var("ROUNDTRIP_PROFILE") {
        let (request, answer, k) = (cny_express_request(), cny_express_answer(), key());
        let params =
            serde_json::from_slice::<serde_json::Value>(&request).unwrap()["params"].clone();
        let small_answer = signed_response_body(
            "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
            "svc",
            "en_KE",
            "00000",
            "success",
            Some(&answer_data()),
            &k,
        )
        .unwrap();
        let bench = Bench::new();
        // `ROUNDTRIP_PROFILE_CALLS=n`: exactly n calls instead of 10 s (for callgrind:
        // the instructions of n calls, less those of 0 calls, over n).
        let calls: Option<u64> = std::env::var("ROUNDTRIP_PROFILE_CALLS")
            .ok()
            .and_then(|n| n.parse().ok());
        let work = |n: u64| match side.as_str() {
            "sign" => (0..n).for_each(|_| drop(black_box(sign::sign(&request, &k)))),
            "verify" => (0..n).for_each(|_| drop(black_box(sign::verify(&answer, &k)))),
            "open" => (0..n).for_each(|_| {
                drop(black_box(envelope::open_response::<AccountDetails>(
                    Some(200),
                    &small_answer,
                    &k,
                    envelope::Expect {
                        request_id: "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
                        accept_unsigned_success: false,
                    },
                )))
            }),
            "sign_request" => (0..n).for_each(|_| {
                drop(black_box(envelope::sign_request(
                    &params, SENDER, "en_KE", &k,
                )))
            }),
            _ => drop(bench.run(side == "raw", 1, n)),
        };
        match calls {
            Some(n) => work(n),
            None => {
                let started = Instant::now();
                while started.elapsed() < Duration::from_secs(10) {
                    work(1000);
                }
            }
        }
        return;
    }
    report();
    let bench = Bench::new();
    let mut group = c.benchmark_group("round_trip");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for in_flight in [1usize, 16] {
        group.bench_function(format!("client_execute/{in_flight}_in_flight"), |b| {
            b.iter_custom(|iters| bench.run(false, in_flight, iters))
        });
        group.bench_function(format!("raw_reqwest/{in_flight}_in_flight"), |b| {
            b.iter_custom(|iters| bench.run(true, in_flight, iters))
        });
    }
    group.finish();
}

fn bench_sign_verify(c: &mut Criterion) {
    let request = cny_express_request();
    let answer = cny_express_answer();
    let (request_canonical, answer_canonical) =
        (canonical_bytes(&request), canonical_bytes(&answer));
    let k = key();
    let mut group = c.benchmark_group("sign_verify");
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(500));
    group.bench_function("sign_cny_express", |b| {
        b.iter(|| sign::sign(black_box(&request), &k))
    });
    group.bench_function("sha256_of_request_canonical", |b| {
        b.iter(|| Sha256::digest(black_box(&request_canonical)))
    });
    group.bench_function("verify_answer", |b| {
        b.iter(|| sign::verify(black_box(&answer), &k))
    });
    group.bench_function("sha256_of_answer_canonical", |b| {
        b.iter(|| Sha256::digest(black_box(&answer_canonical)))
    });
    group.bench_function("sign_request_envelope", |b| {
        b.iter(|| envelope::sign_request(black_box(&operation()), SENDER, "en_KE", &k))
    });
    group.finish();
}

criterion_group!(benches, bench_round_trip, bench_sign_verify);
criterion_main!(benches);
