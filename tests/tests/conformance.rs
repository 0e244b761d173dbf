//! The conformance suite (`tests/conformance/scenarios/*.json`, described in
//! `tests/conformance/README.md`) run by the Rust client against an in-process sandbox.
//! The other SDKs run the same files (the runners are listed in that README).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod conformance_checks;

use baas_client::enums::TxStatus;
use baas_client::notification::{self, SeenFile, Verifier};
use baas_client::pending::PendingApplication;
use baas_client::transfers::ApplyForTransferResponse;
use baas_client::transport::{BoxFuture, HttpsTransport};
use baas_client::{Client, Error, RawJson, Settlement, WaitPolicy};
use baas_runtime::{HttpRequest, HttpResponse, Transport};
use baas_sandbox::faults::{AnswerFault, Fault as SandboxFault};
use baas_sandbox::Sandbox;
use conformance_checks::{
    check_error, check_fields, check_items, check_keys, outcome_name, strip_signature, text,
};
use serde_json::{Map, Value};

fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance/scenarios")
}

/// A fault the probe applies to the next request that leaves the client.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    /// Forward the request, then lose the answer (a connection broken after sending).
    DropAnswer,
    /// Forward the request, then remove the answer's `signature` member.
    StripSignature,
}

/// The client's transport: counts the requests that leave the client and applies a
/// scenario's fault to the next one.
struct Probe {
    inner: HttpsTransport,
    sent: AtomicU64,
    fault: Mutex<Option<Fault>>,
}

impl Transport for Probe {
    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(async move {
            self.sent.fetch_add(1, Ordering::SeqCst);
            let fault = self.fault.lock().expect("probe lock").take();
            let mut answer = self.inner.post_json(request).await?;
            match fault {
                None => Ok(answer),
                Some(Fault::DropAnswer) => Err(Error::transport(
                    "conformance: answer dropped after sending",
                    true,
                    None,
                )),
                Some(Fault::StripSignature) => {
                    answer.body = strip_signature(&answer.body);
                    Ok(answer)
                }
            }
        })
    }
}

/// What a step produced: the answer's data as JSON, or the error.
enum Got {
    Data(Value),
    Items(Vec<Value>),
    Pending(PendingApplication<ApplyForTransferResponse>),
    Failed(Error),
}

/// What a settle step saw: `confirmed`, `not_confirmed` or `still_unknown`, the state's
/// wire text, whether it is final, the lookup's error.
fn settled(
    settlement: Settlement<TxStatus>,
) -> (&'static str, Option<String>, Option<bool>, Option<Error>) {
    let state = |s: TxStatus| Some(text(&serde_json::to_value(s).expect("state as JSON")));
    let safe = settlement.safe_to_confirm_again();
    let seen = match settlement {
        Settlement::Confirmed { state: s, is_final } => {
            ("confirmed", state(s), Some(is_final), None)
        }
        Settlement::NotConfirmed { state: s, .. } => ("not_confirmed", state(s), None, None),
        Settlement::StillUnknown { error } => ("still_unknown", None, None, Some(error)),
        other => panic!("a settlement this runner does not know: {other:?}"),
    };
    assert_eq!(
        safe,
        seen.0 == "not_confirmed",
        "safe_to_confirm_again of {}",
        seen.0
    );
    seen
}

struct Run {
    name: String,
    sandbox: Sandbox,
    client: Client,
    probe: Arc<Probe>,
    vars: BTreeMap<String, String>,
    /// The pending applications kept by `"pending": name` (every one an applyForTransfer).
    pending: BTreeMap<String, PendingApplication<ApplyForTransferResponse>>,
}

impl Run {
    /// `${name}` is a saved value, `${otp:name}` the sandbox's OTP of a saved value.
    fn substitute(&self, value: &Value) -> Value {
        match value {
            Value::String(s) if s.starts_with("${") && s.ends_with('}') => {
                let inner = &s[2..s.len() - 1];
                if let Some(var) = inner.strip_prefix("otp:") {
                    Value::String(self.sandbox.otp_for(self.var(var)))
                } else {
                    Value::String(self.var(inner).to_owned())
                }
            }
            Value::Array(items) => Value::Array(items.iter().map(|v| self.substitute(v)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.substitute(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Puts the step's `fault` in force for its next request (to `operation`), and takes
    /// away whatever an earlier step left unused.
    fn set_fault(&self, at: &str, step: &Value, operation: &str) {
        self.sandbox.clear_faults();
        let mut probe = self.probe.fault.lock().expect("probe lock");
        *probe = None;
        let Some(fault) = step.get("fault") else {
            return;
        };
        match fault.as_str() {
            // The sandbox's own test hook: the answer changes after it is signed.
            Some("tamper_answer") => self.sandbox.tamper_next_response(),
            // The sandbox's own fault: the request is lost before it has any effect, and
            // the connection closes without an answer.
            Some("lose_request") => self
                .sandbox
                .inject(SandboxFault::answer(operation, AnswerFault::LoseRequest)),
            Some("drop_answer") => *probe = Some(Fault::DropAnswer),
            Some("strip_signature") => *probe = Some(Fault::StripSignature),
            _ => panic!("{at}: unknown fault {fault}"),
        }
    }

    /// Checks `expect.sent` against the requests that left the client since `before`
    /// (and the sandbox saw), and clears a sandbox fault the step did not use.
    fn check_sent(&self, at: &str, expect: &Map<String, Value>, before: (u64, u64)) {
        let sent = self.probe.sent.load(Ordering::SeqCst) - before.0;
        let seen_by_sandbox = self.sandbox.requests_seen() - before.1;
        self.sandbox.clear_faults();
        if let Some(want) = expect.get("sent").and_then(Value::as_u64) {
            assert_eq!(sent, want, "{at}: requests sent by the client");
            assert_eq!(seen_by_sandbox, want, "{at}: requests the sandbox saw");
        }
    }

    fn var(&self, name: &str) -> &str {
        self.vars
            .get(name)
            .unwrap_or_else(|| panic!("{}: no saved value {name:?}", self.name))
    }

    async fn call(&self, op: &str, mode: &str, params: Value) -> Got {
        macro_rules! call {
            ($request:ty, $method:ident) => {{
                let request: $request = serde_json::from_value(params)
                    .unwrap_or_else(|e| panic!("{}: params of {op}: {e}", self.name));
                match self.client.$method(request).send().await {
                    Ok(answer) => Got::Data(serde_json::to_value(answer).expect("answer as JSON")),
                    Err(error) => Got::Failed(error),
                }
            }};
        }
        use baas_client::account::GetAccountDetailsRequest;
        use baas_client::cny::ApplyForCnyExpressRequest;
        use baas_client::otp::{ConfirmOperationRequest, SendOtpRequest};
        use baas_client::transfers::{
            ApplyForTransferRequest, GetTransListRequest, GetTransResultRequest,
        };
        match (op, mode) {
            ("applyForTransfer", "pending") => {
                let request: ApplyForTransferRequest = serde_json::from_value(params)
                    .unwrap_or_else(|e| panic!("{}: params of {op}: {e}", self.name));
                match self.client.apply_for_transfer(request).pending().await {
                    Ok(pending) => Got::Pending(pending),
                    Err(error) => Got::Failed(error),
                }
            }
            ("getAccountDetails", "call") => call!(GetAccountDetailsRequest, get_account_details),
            ("applyForTransfer", "call") => call!(ApplyForTransferRequest, apply_for_transfer),
            ("sendOtp", "call") => call!(SendOtpRequest, send_otp),
            ("confirmOperation", "call") => call!(ConfirmOperationRequest, confirm_operation),
            ("getTransResult", "call") => call!(GetTransResultRequest, get_trans_result),
            ("getTransList", "call") => call!(GetTransListRequest, get_trans_list),
            ("applyForCnyExpress", "call") => {
                call!(ApplyForCnyExpressRequest, apply_for_cny_express)
            }
            ("getTransResult", "until_final") => {
                let request: GetTransResultRequest =
                    serde_json::from_value(params).expect("params of getTransResult");
                let policy = WaitPolicy::new(
                    Duration::from_millis(20),
                    Duration::from_millis(200),
                    Duration::from_secs(20),
                );
                match self
                    .client
                    .get_trans_result(request.clone())
                    .until_final(&policy)
                    .await
                {
                    Ok(answer) => Got::Data(serde_json::to_value(answer).expect("answer as JSON")),
                    Err(error) => Got::Failed(error),
                }
            }
            ("getTransList", "pages") => {
                let request: GetTransListRequest =
                    serde_json::from_value(params).expect("params of getTransList");
                let mut items = self.client.get_trans_list(request).pages().items();
                let mut all = Vec::new();
                while let Some(item) = items.next_item().await {
                    match item {
                        Ok(item) => all.push(serde_json::to_value(item).expect("item as JSON")),
                        Err(error) => return Got::Failed(error),
                    }
                }
                Got::Items(all)
            }
            _ => panic!("{}: the runner has no {op} in mode {mode}", self.name),
        }
    }
}

fn now_ms() -> i64 {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_millis();
    i64::try_from(ms).expect("ms fit")
}

async fn run_scenario(path: &Path) {
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let scenario: Value =
        serde_json::from_slice(&std::fs::read(path).expect("scenario readable")).expect("JSON");
    let sandbox = Sandbox::start().await.expect("sandbox starts");
    let probe = Arc::new(Probe {
        inner: HttpsTransport::new(Duration::from_secs(5)).expect("transport"),
        sent: AtomicU64::new(0),
        fault: Mutex::new(None),
    });
    let client =
        Client::with_transport(sandbox.client_config(), probe.clone()).expect("client builds");
    let service_sender = scenario
        .get("service_sender")
        .and_then(Value::as_str)
        .unwrap_or("baas-sandbox")
        .to_owned();
    let verifier = Verifier::new(sandbox.private_key(), service_sender);
    let seen_dir =
        std::env::temp_dir().join(format!("baas-conformance-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&seen_dir).expect("temp dir");
    let mut seen =
        SeenFile::open(seen_dir.join("seen"), notification::DEFAULT_KEEP).expect("seen file");
    let mut run = Run {
        name: name.clone(),
        sandbox,
        client,
        probe,
        vars: BTreeMap::new(),
        pending: BTreeMap::new(),
    };
    let steps = scenario["steps"].as_array().expect("steps");
    for (i, step) in steps.iter().enumerate() {
        let at = format!("{name} step {}", i + 1);
        check_keys(&at, step);
        let empty = Map::new();
        let expect = step
            .get("expect")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let want_outcome = expect
            .get("outcome")
            .map(text)
            .unwrap_or_else(|| "ok".into());

        if let Some(n) = step.get("notification") {
            let n = run.substitute(n);
            let age_ms = n.get("age_seconds").and_then(Value::as_i64).unwrap_or(0) * 1000;
            let params = RawJson::from_string(n["params"].to_string()).expect("params");
            let request_id = text(&n["requestId"]);
            let mut body = notification::signed_body_at(
                &text(&n["type"]),
                &request_id,
                &text(&n["sender"]),
                "en_KE",
                &params,
                &run.sandbox.private_key(),
                now_ms() - age_ms,
            )
            .expect("signed notification");
            if n.get("tamper").and_then(Value::as_bool) == Some(true) {
                let text = String::from_utf8(body).expect("UTF-8");
                body = text
                    .replacen(
                        &format!("\"{request_id}\""),
                        &format!("\"{request_id}X\""),
                        1,
                    )
                    .into_bytes();
            }
            match verifier.verify(&body) {
                Ok(got) => {
                    assert_eq!(want_outcome, "ok", "{at}: accepted {got:?}");
                    let data = serde_json::json!({
                        "notificationType": got.notification_type,
                        "requestId": got.request_id,
                    });
                    if let Some(Value::Object(fields)) = expect.get("fields") {
                        check_fields(&at, &data, fields);
                    }
                    let new = seen.is_new(&got.delivery_id());
                    if let Some(want) = expect.get("new").and_then(Value::as_bool) {
                        assert_eq!(new, want, "{at}: is new");
                    }
                    if new {
                        seen.record(&got).expect("recorded");
                    }
                }
                Err(error) => {
                    assert_eq!(want_outcome, "refused", "{at}: refused: {error}");
                    check_error(&at, &error, expect);
                }
            }
            continue;
        }

        if let Some(name) = step.get("settle") {
            let name = name.as_str().expect("settle names a pending application");
            // Every pending application here is a transfer: its settle looks up getTransResult.
            run.set_fault(&at, step, "getTransResult");
            let pending = run
                .pending
                .get(name)
                .unwrap_or_else(|| panic!("{at}: no pending application {name}"));
            let before = (
                run.probe.sent.load(Ordering::SeqCst),
                run.sandbox.requests_seen(),
            );
            let settlement = pending.settle().await;
            run.check_sent(&at, expect, before);
            let (kind, state, is_final, error) = settled(settlement);
            let want = expect
                .get("settled")
                .map(text)
                .unwrap_or_else(|| panic!("{at}: a settle step expects `settled`"));
            assert_eq!(
                kind, want,
                "{at}: settled (state {state:?}, error {error:?})"
            );
            if let Some(s) = expect.get("state") {
                assert_eq!(state.as_deref(), Some(text(s).as_str()), "{at}: state");
            }
            if let Some(f) = expect.get("final") {
                assert_eq!(is_final, f.as_bool(), "{at}: final");
            }
            if let Some(error) = &error {
                check_error(&at, error, expect);
            }
            continue;
        }

        let op = step["call"].as_str().expect("call");
        let mut mode = step.get("mode").and_then(Value::as_str).unwrap_or("call");
        if step.get("pending").is_some() {
            assert_eq!(mode, "call", "{at}: `pending` is for a plain call");
            mode = "pending";
        }
        let params = run.substitute(&step["params"]);
        run.set_fault(&at, step, op);
        let before = (
            run.probe.sent.load(Ordering::SeqCst),
            run.sandbox.requests_seen(),
        );
        let got = run.call(op, mode, params).await;
        run.check_sent(&at, expect, before);
        let got = match got {
            Got::Pending(pending) => {
                let name = step["pending"]
                    .as_str()
                    .expect("pending names the application");
                run.vars
                    .insert(name.to_owned(), pending.business_id().to_owned());
                let data = serde_json::to_value(pending.response()).expect("answer as JSON");
                run.pending.insert(name.to_owned(), pending);
                Got::Data(data)
            }
            other => other,
        };
        match got {
            Got::Failed(error) => {
                assert_eq!(
                    outcome_name(error.outcome()),
                    want_outcome,
                    "{at}: outcome of {error}"
                );
                check_error(&at, &error, expect);
            }
            Got::Data(data) => {
                assert_eq!(want_outcome, "ok", "{at}: succeeded with {data}");
                if let Some(Value::Object(fields)) = expect.get("fields") {
                    let fields = run.substitute(&Value::Object(fields.clone()));
                    check_fields(&at, &data, fields.as_object().expect("object"));
                }
                if let Some(Value::Object(save)) = step.get("save") {
                    for (var, field) in save {
                        let value = data
                            .get(field.as_str().expect("field name"))
                            .map(text)
                            .unwrap_or_else(|| panic!("{at}: no {field} to save in {data}"));
                        run.vars.insert(var.clone(), value);
                    }
                }
            }
            Got::Pending(_) => unreachable!("kept above"),
            Got::Items(items) => {
                assert_eq!(want_outcome, "ok", "{at}: paged");
                if let Some(Value::Object(items_expect)) = expect.get("items") {
                    let items_expect = run.substitute(&Value::Object(items_expect.clone()));
                    check_items(&at, &items, items_expect.as_object().expect("object"));
                }
            }
        }
    }
    drop(seen);
    let _ = std::fs::remove_dir_all(&seen_dir);
}

#[tokio::test]
async fn every_scenario_holds_for_the_rust_client() {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(scenario_dir())
        .expect("tests/conformance/scenarios")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 10, "scenarios found: {paths:?}");
    for path in &paths {
        run_scenario(path).await;
    }
}
