//! Load on loopback, bounded in time and count: many concurrent partners (each its own
//! connection pool) doing random operations with raw JSON params. Every answer is a
//! signed business answer, money is conserved, no requestId is accepted twice, and
//! memory stays flat between the two halves of the run. Prints throughput and p99.

mod common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baas_runtime::transport::{HttpRequest, Transport};
use baas_runtime::HttpsTransport;
use baas_sandbox::Sandbox;
use common::Rng;
use serde_json::{json, Value};

/// Concurrent partners.
const PARTNERS: usize = 24;
/// Operations per partner and phase (an operation is 1 to 3 requests).
const OPS_PER_PHASE: u32 = 40;
/// Wall-clock bound of each phase: no new operation starts after it.
const PHASE_LIMIT: Duration = Duration::from_secs(8);

const KES: [&str; 5] = [
    "1000000001",
    "1000000003",
    "1000000004",
    "2000000001",
    "2000000002",
];
const BANKS: [&str; 4] = ["46", "46", "M-PESA", "68"];

#[derive(Default)]
struct Stats {
    latencies_us: Mutex<Vec<u64>>,
    codes: Mutex<HashMap<String, u64>>,
    requests: AtomicU64,
}

struct Partner {
    sandbox: Arc<Sandbox>,
    transport: HttpsTransport,
    stats: Arc<Stats>,
}

impl Partner {
    /// Sends `body`; the answer must be HTTP 200, signed with the partner's key, with
    /// the requestId echoed.
    async fn send(&self, path: &str, request_id: &str, body: Vec<u8>) -> Value {
        let url = format!("{}{path}", self.sandbox.base_url());
        let started = Instant::now();
        let r = self
            .transport
            .post_json(HttpRequest::new(
                url,
                body,
                Duration::from_secs(30),
                1 << 20,
            ))
            .await
            .unwrap_or_else(|e| panic!("{path}: not a business answer: {e}"));
        let us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.stats.latencies_us.lock().unwrap().push(us);
        self.stats.requests.fetch_add(1, Ordering::Relaxed);
        assert_eq!(
            r.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
        baas_runtime::sign::verify(&r.body, &self.sandbox.private_key())
            .unwrap_or_else(|e| panic!("{path}: unsigned answer ({e:?})"));
        // Every signed answer passes the sandbox's own re-cut check too.
        let text = String::from_utf8_lossy(&r.body);
        let message = baas_sandbox::json::Json::parse(&text).unwrap();
        assert_eq!(
            baas_sandbox::recut::first_breach(&message),
            None,
            "{path}: {text}"
        );
        let answer: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(answer["requestId"], request_id, "{path}: {answer}");
        let code = answer["code"].as_str().unwrap().to_owned();
        *self.stats.codes.lock().unwrap().entry(code).or_default() += 1;
        answer
    }

    /// A freshly signed call; its answer and the signed body (to replay it).
    async fn call(&self, path: &str, params: Value) -> (Value, Vec<u8>, String) {
        let signed = baas_runtime::envelope::sign_request(
            &params,
            self.sandbox.sender(),
            "en_KE",
            &self.sandbox.private_key(),
        )
        .unwrap();
        let answer = self
            .send(path, &signed.request_id, signed.body.clone())
            .await;
        (answer, signed.body, signed.request_id)
    }

    /// A call whose code must be one of `allowed`.
    async fn expect(&self, path: &str, params: Value, allowed: &[&str]) -> Value {
        let (answer, _, _) = self.call(path, params.clone()).await;
        let code = answer["code"].as_str().unwrap();
        assert!(
            allowed.contains(&code),
            "{path} {params}: code {code} is not one of {allowed:?}: {answer}"
        );
        answer
    }

    /// sendOtp + confirmOperation: confirmation may find the money spent (14009).
    async fn confirm(&self, id: &str) {
        self.expect(
            "/common/sendOtp",
            json!({"businessId": id, "otpType": "sms"}),
            &["00000"],
        )
        .await;
        self.expect(
            "/common/confirmOperation",
            json!({"businessId": id, "otpCode": self.sandbox.otp_for(id)}),
            &["00000", "14009"],
        )
        .await;
    }

    async fn run(self, seed: u64, ops: u32, deadline: Instant) {
        let mut rng = Rng(seed);
        for _ in 0..ops {
            if Instant::now() >= deadline {
                break;
            }
            match rng.next() % 8 {
                0..=2 => {
                    let (payer, payee, bank) = (rng.pick(&KES), rng.pick(&KES), rng.pick(&BANKS));
                    if payer == payee && bank == "46" {
                        continue;
                    }
                    let a = self
                        .expect(
                            "/trans/v2/applyForTransfer",
                            json!({"payerAccountId": payer, "payeeBankCode": bank,
                                "payeeAccountId": payee, "payeeAccountName": "Payee",
                                "currency": "KES", "amount": rng.cents(300_000)}),
                            &["00000", "14009"],
                        )
                        .await;
                    if let Some(tx) = a["data"]["txId"].as_str() {
                        self.confirm(tx).await;
                    }
                }
                3 => {
                    let a = self
                        .expect(
                            "/trans/v2/applyForFcExchange",
                            json!({"sourceCurrency": "EUR", "targetCurrency": "KES",
                                "sourceAccount": "2000000003", "targetAccount": rng.pick(&KES),
                                "sourceAmount": rng.cents(5_000)}),
                            &["00000", "14009"],
                        )
                        .await;
                    // FX needs no OTP: booked at once.
                    let _ = a;
                }
                4 => {
                    self.expect(
                        "/query/getAccountDetails",
                        json!({"accountId": rng.pick(&KES)}),
                        &["00000"],
                    )
                    .await;
                }
                5 => {
                    self.expect(
                        "/query/getTransList",
                        json!({"accountId": rng.pick(&KES), "startTime": 0,
                            "endTime": 4_102_444_800_000_i64, "pageNo": 1, "pageSize": 20,
                            "orderByDesc": 1}),
                        &["00000"],
                    )
                    .await;
                }
                6 => {
                    // Refused by business rules: a sub-cent amount, a frozen payee.
                    let (params, want) = if rng.next() % 2 == 0 {
                        (
                            json!({"payerAccountId": rng.pick(&KES), "payeeBankCode": "46",
                                "payeeAccountId": "1000000001", "currency": "KES",
                                "amount": "0.005"}),
                            "12001",
                        )
                    } else {
                        (
                            json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
                                "payeeAccountId": "2000000004", "currency": "KES",
                                "amount": "1"}),
                            "11000",
                        )
                    };
                    self.expect("/trans/v2/applyForTransfer", params, &[want])
                        .await;
                }
                _ => {
                    // A replayed request: the second copy is refused.
                    let (first, body, rid) = self
                        .call(
                            "/account/validateAccount",
                            json!({"accountId": rng.pick(&KES), "accountType": 0}),
                        )
                        .await;
                    assert_eq!(first["code"], "00000", "{first}");
                    let again = self.send("/account/validateAccount", &rid, body).await;
                    assert_eq!(again["code"], "12002", "{again}");
                }
            }
        }
    }
}

/// Resident memory of this process (tests and sandbox), in KiB.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

async fn phase(sandbox: &Arc<Sandbox>, stats: &Arc<Stats>, seed: u64) {
    let deadline = Instant::now() + PHASE_LIMIT;
    let tasks: Vec<_> = (0..PARTNERS as u64)
        .map(|i| {
            let partner = Partner {
                sandbox: sandbox.clone(),
                transport: HttpsTransport::new(Duration::from_secs(30)).unwrap(),
                stats: stats.clone(),
            };
            tokio::spawn(partner.run(seed ^ (i + 1), OPS_PER_PHASE, deadline))
        })
        .collect();
    for t in tasks {
        t.await.expect("a partner task failed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_partners_at_once() {
    let sandbox = Arc::new(Sandbox::start().await.unwrap());
    let totals = sandbox.totals();
    let stats = Arc::new(Stats::default());
    let started = Instant::now();

    phase(&sandbox, &stats, 0x9E37_79B9_7F4A_7C15).await;
    let rss_half = rss_kib();
    let requests_half = stats.requests.load(Ordering::Relaxed);
    phase(&sandbox, &stats, 0xD1B5_4A32_D192_ED03).await;
    let rss_end = rss_kib();
    let elapsed = started.elapsed();

    // Money conserved, nobody below zero.
    assert_eq!(sandbox.totals(), totals);
    for a in KES {
        assert!(
            sandbox.balance(a).unwrap() >= baas_runtime::Amount::ZERO,
            "{a}"
        );
    }
    // No requestId accepted twice: every id the sandbox processed (any answer other
    // than 12002) appears once in its log.
    let log = sandbox.requests();
    let total = stats.requests.load(Ordering::Relaxed);
    assert_eq!(log.len() as u64, total, "the log must hold the whole run");
    let mut accepted: HashMap<String, u32> = HashMap::new();
    for r in &log {
        if r.code != "12002" {
            *accepted
                .entry(r.request_id.clone().expect("a requestId"))
                .or_default() += 1;
        }
    }
    let twice: Vec<_> = accepted.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "accepted twice: {twice:?}");

    let mut latencies = stats.latencies_us.lock().unwrap().clone();
    latencies.sort_unstable();
    let p = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    let codes = stats.codes.lock().unwrap().clone();
    println!(
        "load: {total} requests from {PARTNERS} partners in {:.2} s = {:.0} req/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; codes {codes:?}",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        p(0.50) as f64 / 1000.0,
        p(0.99) as f64 / 1000.0,
        latencies[latencies.len() - 1] as f64 / 1000.0,
    );
    assert!(
        codes.get("00000").copied().unwrap_or(0) > total / 2,
        "{codes:?}"
    );

    // Memory: the second half (as many operations as the first) grows the process by
    // no more than what it stores (records of the transactions it made), far below a
    // leak of connections or buffers.
    if let (Some(half), Some(end)) = (rss_half, rss_end) {
        let second = total - requests_half;
        let growth = end.saturating_sub(half);
        println!(
            "memory: {half} KiB after the first half, {end} KiB at the end ({second} requests in the second half)"
        );
        assert!(
            growth < 32 * 1024,
            "memory grew by {growth} KiB in the second half"
        );
    }
}
