//! `--state FILE` (issue 23 item 2): the sandbox command is killed (SIGKILL) while
//! clients run transfers and FX conversions at once, then started again on the same
//! file. Every transfer whose confirmation was answered is there, every application
//! whose apply was answered can still be confirmed (or was), every balance is what
//! exactly those transfers make it, money is conserved (system accounts included), no
//! requestId answered before the kill can be used again, a wrong-OTP count survives,
//! and the notifications not delivered before the kill are delivered after it.
//!
//! "Answered" means: the client received and verified the signed answer. The sandbox
//! writes a request's changes before it answers, so nothing answered can be lost; what
//! was in flight at the kill may or may not have happened, and the test accepts both
//! for those requests only.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use baas_client::enums::{Currency, OtpType, TxStatus};
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::otp::{
    ConfirmOperationRequest, ConfirmOperationRequired, SendOtpRequest, SendOtpRequired,
};
use baas_client::transfers::{
    ApplyForTransferRequest, ApplyForTransferRequired, GetTransResultRequest,
    GetTransResultRequired,
};
use baas_client::{Client, Config, Error, PrivateKey};
use baas_runtime::notification::Verifier;
use baas_runtime::transport::reqwest;
use baas_runtime::transport::BoxFuture;
use baas_runtime::{HttpRequest, HttpResponse, HttpsTransport, Transport};
use baas_sandbox::{otp_for, DEFAULT_KEY, DEFAULT_SENDER, SERVICE_SENDER};
use bytes::Bytes;
use common::{amount, Rng};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rust_decimal::Decimal;

// ---- the client calls (the only place this test calls the generated client) ----

async fn apply_transfer(c: &Client, payer: &str, payee: &str, sum: &str) -> Result<String, Error> {
    let request = ApplyForTransferRequest::new(ApplyForTransferRequired {
        payer_account_id: payer.into(),
        payee_bank_code: "46".into(),
        payee_account_id: payee.into(),
        currency: Currency::Kes,
        amount: amount(sum),
    });
    let answer = c.apply_for_transfer(request).send().await?;
    Ok(answer.tx_id.expect("an answered apply has a txId"))
}

async fn send_otp(c: &Client, id: &str) -> Result<(), Error> {
    let request = SendOtpRequest::new(SendOtpRequired {
        business_id: id.into(),
        otp_type: OtpType::Sms,
    });
    c.send_otp(request).send().await.map(drop)
}

async fn confirm_with(c: &Client, id: &str, otp: &str) -> Result<(), Error> {
    let request = ConfirmOperationRequest::new(ConfirmOperationRequired {
        business_id: id.into(),
        otp_code: otp.into(),
    });
    c.confirm_operation(request).send().await.map(drop)
}

async fn tx_status(c: &Client, tx: &str) -> Option<TxStatus> {
    let request = GetTransResultRequest::new(GetTransResultRequired { tx_id: tx.into() });
    c.get_trans_result(request).send().await.ok()?.tx_status
}

async fn apply_fx(c: &Client, kes: &str) -> Result<String, Error> {
    let request = ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
        source_currency: Currency::Kes,
        target_currency: Currency::Eur,
        source_account: FX_SOURCE.into(),
        target_account: FX_TARGET.into(),
    })
    .source_amount(amount(kes));
    let answer = c.apply_for_fc_exchange(request).send().await?;
    Ok(answer
        .application_id
        .expect("an answered FX request has an id"))
}

// ---- the sandbox command ----

/// Accounts the transfer workers move KES between (internal, no fee).
const ACCOUNTS: [&str; 3] = ["1000000001", "1000000004", "2000000002"];
/// The FX worker converts KES of one account into EUR of another.
const FX_SOURCE: &str = "2000000001";
const FX_TARGET: &str = "2000000003";

struct Running {
    child: Child,
    base: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `baas-sandbox --state FILE --callback URL` and waits for its address.
fn start(dir: &Path, state: &Path, callback: &str, nth: u32) -> Running {
    let out = dir.join(format!("out-{nth}.txt"));
    let err = dir.join(format!("err-{nth}.txt"));
    let child = Command::new(env!("CARGO_BIN_EXE_baas-sandbox"))
        .arg("--state")
        .arg(state)
        .args(["--callback", callback])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("the sandbox command starts");
    let mut running = Running {
        child,
        base: String::new(),
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        if let Some(url) = text
            .lines()
            .find_map(|l| l.strip_prefix("baas-sandbox listening on "))
        {
            running.base = url.trim().to_owned();
            return running;
        }
        if let Ok(Some(status)) = running.child.try_wait() {
            panic!(
                "the sandbox exited ({status}): {}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        assert!(Instant::now() < deadline, "no address printed: {text}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every request the sandbox answered (path, exact body), whatever the answer.
type Sent = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// The client's transport, keeping each request the sandbox answered: its requestId is
/// used, and must stay used after a restart.
struct Recording {
    inner: HttpsTransport,
    base: String,
    sent: Sent,
}

impl Transport for Recording {
    fn post_json(
        &self,
        request: HttpRequest,
    ) -> BoxFuture<'_, Result<HttpResponse, baas_runtime::Error>> {
        Box::pin(async move {
            let path = request
                .url
                .strip_prefix(&self.base)
                .unwrap_or_default()
                .to_owned();
            let body = request.body.clone();
            let answer = self.inner.post_json(request).await;
            if answer.is_ok() {
                self.sent.lock().unwrap().push((path, body));
            }
            answer
        })
    }
}

fn client(base: &str, sent: &Sent) -> Client {
    let config = Config::new(base, DEFAULT_SENDER, PrivateKey::new(DEFAULT_KEY));
    let transport = Recording {
        inner: HttpsTransport::new(Duration::from_secs(10)).unwrap(),
        base: base.to_owned(),
        sent: sent.clone(),
    };
    Client::with_transport(config, Arc::new(transport)).unwrap()
}

/// Sum of every account's balance (system accounts included) per currency, from the
/// admin page's JSON.
async fn totals(base: &str) -> BTreeMap<String, Decimal> {
    let mut out = BTreeMap::new();
    for a in admin_accounts(base).await {
        let balance: Decimal = a["balance"].as_str().unwrap().parse().unwrap();
        *out.entry(a["currency"].as_str().unwrap().to_owned())
            .or_default() += balance;
    }
    out
}

async fn admin_accounts(base: &str) -> Vec<serde_json::Value> {
    let text = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(format!("{base}/_sandbox/api/accounts"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

async fn balance(base: &str, id: &str) -> Decimal {
    let accounts = admin_accounts(base).await;
    let a = accounts.iter().find(|a| a["id"] == id).unwrap();
    a["balance"].as_str().unwrap().parse().unwrap()
}

/// A raw signed request (kept to be sent again); its answer's code.
async fn post_raw(base: &str, path: &str, body: &[u8]) -> String {
    let text = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
    answer["code"].as_str().unwrap_or_default().to_owned()
}

fn signed(params: serde_json::Value) -> Vec<u8> {
    baas_runtime::envelope::sign_request(
        &params,
        DEFAULT_SENDER,
        "en_KE",
        &PrivateKey::new(DEFAULT_KEY),
    )
    .unwrap()
    .body
}

// ---- the callback receiver ----

/// Answers nothing (the sandbox's attempt times out) until `ack` is set; then verifies
/// and acknowledges, keeping the applicationId of each verified 0026.
#[derive(Default)]
struct Receiver {
    ack: AtomicBool,
    fx_notified: Mutex<BTreeSet<String>>,
    bad_signatures: Mutex<u32>,
}

async fn receiver(state: Arc<Receiver>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/callback", listener.local_addr().unwrap());
    let verifier = Arc::new(Verifier::new(PrivateKey::new(DEFAULT_KEY), SERVICE_SENDER));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (state, verifier) = (state.clone(), verifier.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req: hyper::Request<_>| {
                    let (state, verifier) = (state.clone(), verifier.clone());
                    async move {
                        let body: hyper::body::Incoming = req.into_body();
                        let body = body
                            .collect()
                            .await
                            .map(|b| b.to_bytes())
                            .unwrap_or_default();
                        while !state.ack.load(Ordering::SeqCst) {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        match verifier.verify(&body) {
                            Ok(n) => {
                                if let Some(id) = n.params.member_text("applicationId") {
                                    state.fx_notified.lock().unwrap().insert(id);
                                }
                            }
                            Err(_) => *state.bad_signatures.lock().unwrap() += 1,
                        }
                        Ok::<_, Infallible>(hyper::Response::new(Full::new(Bytes::from("ok"))))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    url
}

// ---- the workers ----

/// What the clients were answered before the kill.
#[derive(Default)]
struct Answered {
    /// Applications answered: (txId, payer, payee, amount).
    applied: Vec<(String, String, String, Decimal)>,
    /// Transfers whose confirmation was answered `00000`.
    confirmed: BTreeSet<String>,
    /// FX requests answered (booked at once; each notifies 0026).
    fx: BTreeSet<String>,
    /// When the first FX request was answered (its notification is then being tried).
    first_fx: Option<Instant>,
}

async fn transfer_worker(c: Client, seed: u64, answered: Arc<Mutex<Answered>>) {
    let mut rng = Rng(seed);
    loop {
        let from = rng.pick(&ACCOUNTS);
        let to = rng.pick(&ACCOUNTS);
        if from == to {
            continue;
        }
        let sum = rng.cents(10_000);
        let Ok(tx) = apply_transfer(&c, from, to, &sum).await else {
            return;
        };
        let row = (tx.clone(), from.into(), to.into(), sum.parse().unwrap());
        answered.lock().unwrap().applied.push(row);
        if send_otp(&c, &tx).await.is_err() || confirm_with(&c, &tx, &otp_for(&tx)).await.is_err() {
            return;
        }
        answered.lock().unwrap().confirmed.insert(tx);
    }
}

async fn fx_worker(c: Client, answered: Arc<Mutex<Answered>>) {
    loop {
        let Ok(id) = apply_fx(&c, "129.50").await else {
            return;
        };
        {
            let mut a = answered.lock().unwrap();
            a.fx.insert(id);
            a.first_fx.get_or_insert_with(Instant::now);
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

fn work_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("baas-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_sandbox_restarts_with_everything_it_answered() {
    let dir = work_dir("restart");
    let state = dir.join("sandbox.db");
    let callbacks = Arc::new(Receiver::default());
    let callback = receiver(callbacks.clone()).await;

    let first = start(&dir, &state, &callback, 1);
    let sent = Sent::default();
    let c = client(&first.base, &sent);
    let before = totals(&first.base).await;
    let mut opening = BTreeMap::new();
    for id in ACCOUNTS {
        opening.insert(id, balance(&first.base, id).await);
    }
    // Requests answered before the kill, kept to be sent again after it.
    let query = signed(serde_json::json!({"accountId": "1000000001"}));
    assert_eq!(
        post_raw(&first.base, "/query/getAccountDetails", &query).await,
        "00000"
    );
    let apply = signed(
        serde_json::json!({"payerAccountId": "1000000004", "payeeBankCode": "46",
        "payeeAccountId": "1000000001", "currency": "KES", "amount": "7.00"}),
    );
    assert_eq!(
        post_raw(&first.base, "/trans/v2/applyForTransfer", &apply).await,
        "00000"
    );
    // An application with 4 wrong OTPs: one more is allowed, then it is locked.
    let locked = apply_transfer(&c, "1000000001", "1000000004", "1.00")
        .await
        .unwrap();
    send_otp(&c, &locked).await.unwrap();
    for _ in 0..4 {
        assert_eq!(
            common::code(confirm_with(&c, &locked, "000000").await),
            "11203"
        );
    }

    let answered = Arc::new(Mutex::new(Answered::default()));
    let mut workers = Vec::new();
    for seed in 1..=4u64 {
        let c = client(&first.base, &sent);
        workers.push(tokio::spawn(transfer_worker(
            c,
            seed * 7919,
            answered.clone(),
        )));
    }
    workers.push(tokio::spawn(fx_worker(
        client(&first.base, &sent),
        answered.clone(),
    )));
    // Kill once enough happened, with every worker in the middle of a call; at the
    // latest 6 s after the first FX answer, while its notification is still being tried
    // (5 attempts that each wait 2 s for the silent receiver), so that it is pending.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let enough = {
            let a = answered.lock().unwrap();
            let late = a
                .first_fx
                .is_some_and(|t| t.elapsed() > Duration::from_secs(6));
            (a.confirmed.len() >= 40 && a.fx.len() >= 3) || (late && a.confirmed.len() >= 4)
        };
        if enough {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the workers made too little progress"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mut first = first;
    first.child.kill().expect("SIGKILL");
    first.child.wait().unwrap();
    for w in workers {
        w.await.unwrap();
    }
    let answered = Arc::try_unwrap(answered)
        .ok()
        .unwrap()
        .into_inner()
        .unwrap();
    assert!(
        callbacks.fx_notified.lock().unwrap().is_empty(),
        "nothing was acknowledged before the kill"
    );

    callbacks.ack.store(true, Ordering::SeqCst);
    let second = start(&dir, &state, &callback, 2);
    let c = client(&second.base, &Sent::default());
    let page = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap()
        .get(format!("{}/_sandbox/", second.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let shown = format!("{} (SQLite, kept across restarts)", state.display());
    assert!(
        page.contains(&shown),
        "the admin page names the state file: {page}"
    );

    // Nothing answered can be sent again: neither the raw requests nor any the clients
    // were answered (money-moving or not).
    assert_eq!(
        post_raw(&second.base, "/query/getAccountDetails", &query).await,
        "12002"
    );
    assert_eq!(
        post_raw(&second.base, "/trans/v2/applyForTransfer", &apply).await,
        "12002"
    );
    let sent = std::mem::take(&mut *sent.lock().unwrap());
    assert!(sent.len() >= 12, "{} requests answered", sent.len());
    for (path, body) in &sent {
        let code = post_raw(&second.base, path, body).await;
        assert_eq!(code, "12002", "{path} {}", String::from_utf8_lossy(body));
    }
    // The wrong-OTP count survived: the fifth wrong code is the last.
    assert_eq!(
        common::code(confirm_with(&c, &locked, "000000").await),
        "11203"
    );
    assert_eq!(
        common::code(confirm_with(&c, &locked, &otp_for(&locked)).await),
        "11202"
    );

    // Every confirmed transfer succeeded; every other answered application is still
    // pending (then confirmed now) or was confirmed by a call in flight at the kill.
    let mut finished_now = 0;
    for (tx, ..) in &answered.applied {
        let status = tx_status(&c, tx).await;
        if answered.confirmed.contains(tx) {
            assert_eq!(status, Some(TxStatus::Succeeded), "confirmed {tx}");
            continue;
        }
        if status != Some(TxStatus::Succeeded) {
            assert_eq!(status, Some(TxStatus::Submitted), "answered {tx}");
            send_otp(&c, tx).await.unwrap();
            confirm_with(&c, tx, &otp_for(tx)).await.unwrap();
            finished_now += 1;
        }
        assert_eq!(tx_status(&c, tx).await, Some(TxStatus::Succeeded), "{tx}");
    }
    // Each balance is what exactly the answered transfers make it (and the raw apply,
    // never confirmed, moved nothing).
    let mut expected = opening.clone();
    for (_, from, to, sum) in &answered.applied {
        *expected.get_mut(from.as_str()).unwrap() -= sum;
        *expected.get_mut(to.as_str()).unwrap() += sum;
    }
    for (id, want) in &expected {
        assert_eq!(balance(&second.base, id).await, *want, "balance of {id}");
    }
    assert_eq!(totals(&second.base).await, before, "money is conserved");

    // The FX notifications pending at the kill arrive, signed, after the restart (and
    // perhaps that of one more FX request, in flight at the kill).
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let got = callbacks.fx_notified.lock().unwrap().clone();
        if got.is_superset(&answered.fx) {
            assert!(got.len() <= answered.fx.len() + 1, "{got:?}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not delivered after the restart: {:?}",
            answered.fx.difference(&got).collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(*callbacks.bad_signatures.lock().unwrap(), 0);
    eprintln!(
        "killed after {} requests answered: {} applications ({} confirmed, {} confirmed after \
         the restart) and {} FX requests",
        sent.len(),
        answered.applied.len(),
        answered.confirmed.len(),
        finished_now,
        answered.fx.len()
    );
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_command_refuses_a_file_that_is_not_a_state_file_with_an_error_not_a_panic() {
    let dir = work_dir("bad-state");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a database, ".repeat(100)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_baas-sandbox"))
        .arg("--state")
        .arg(&notes)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.trim(),
        format!(
            "baas-sandbox: state file {}: not an SQLite database (a baas-sandbox state file is \
             one; give a new path to start afresh)",
            notes.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}
