//! The conformance suite (`tests/conformance/scenarios/*.json`, described in
//! `tests/conformance/README.md`) run by the Rust client against an in-process sandbox.
//! The Python SDK runs the same files (`python/tests/test_conformance.py`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use baas_client::enums::ResultCode;
use baas_client::notification::{self, SeenFile, Verifier};
use baas_client::transport::{BoxFuture, HttpsTransport};
use baas_client::{Client, Error, ErrorKind, Outcome, RawJson, WaitPolicy};
use baas_runtime::{HttpRequest, HttpResponse, Transport};
use baas_sandbox::Sandbox;
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

/// The body without its `"signature":"…"` member (and the comma before it).
fn strip_signature(body: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(body).into_owned();
    let Some(start) = text.find("\"signature\":\"") else {
        return body.to_vec();
    };
    let value_start = start + "\"signature\":\"".len();
    let end = value_start + text[value_start..].find('"').expect("signature ends");
    let (mut from, mut to) = (start, end + 1);
    if text[..from].ends_with(',') {
        from -= 1;
    } else if text[to..].starts_with(',') {
        to += 1;
    }
    format!("{}{}", &text[..from], &text[to..]).into_bytes()
}

/// What a step produced: the answer's data as JSON, or the error.
enum Got {
    Data(Value),
    Items(Vec<Value>),
    Failed(Error),
}

struct Run {
    name: String,
    sandbox: Sandbox,
    client: Client,
    probe: Arc<Probe>,
    vars: BTreeMap<String, String>,
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
        use baas_client::otp::{ConfirmOperationRequest, SendOtpRequest};
        use baas_client::transfers::{
            ApplyForTransferRequest, GetTransListRequest, GetTransResultRequest,
        };
        match (op, mode) {
            ("getAccountDetails", "call") => call!(GetAccountDetailsRequest, get_account_details),
            ("applyForTransfer", "call") => call!(ApplyForTransferRequest, apply_for_transfer),
            ("sendOtp", "call") => call!(SendOtpRequest, send_otp),
            ("confirmOperation", "call") => call!(ConfirmOperationRequest, confirm_operation),
            ("getTransResult", "call") => call!(GetTransResultRequest, get_trans_result),
            ("getTransList", "call") => call!(GetTransListRequest, get_trans_list),
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

/// A value as the text a scenario compares: strings as they are, anything else as JSON.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `InsufficientBalance` → `insufficient_balance`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn error_name(error: &Error) -> &'static str {
    match error.kind() {
        ErrorKind::InvalidRequest(_) => "invalid_request",
        ErrorKind::Api { .. } => "api",
        ErrorKind::OutcomeUnknown { .. } => "outcome_unknown",
        ErrorKind::SignatureMissing => "signature_missing",
        ErrorKind::SignatureInvalid => "signature_invalid",
        ErrorKind::Untrusted { .. } => "untrusted",
        ErrorKind::Transport { .. } => "transport",
        ErrorKind::Timeout { .. } => "timeout",
        ErrorKind::Decode { .. } => "decode",
        ErrorKind::RequestIdMismatch { .. } => "request_id_mismatch",
        ErrorKind::WaitDeadline { .. } => "wait_deadline",
        _ => "other",
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::NotSent => "not_sent",
        Outcome::Refused => "refused",
        _ => "unknown",
    }
}

fn check_fields(at: &str, data: &Value, fields: &Map<String, Value>) {
    for (name, want) in fields {
        let got = data.get(name).map(text);
        assert_eq!(
            got.as_deref(),
            Some(text(want).as_str()),
            "{at}: field {name} of {data}"
        );
    }
}

fn check_error(at: &str, error: &Error, expect: &Map<String, Value>) {
    if let Some(kind) = expect.get("error") {
        assert_eq!(error_name(error), text(kind), "{at}: error kind of {error}");
    }
    if let Some(code) = expect.get("code") {
        assert_eq!(
            error.api_code(),
            Some(text(code).as_str()),
            "{at}: code of {error}"
        );
    }
    if let Some(name) = expect.get("result_code") {
        let typed = ResultCode::from_error(error).map(|c| snake(&format!("{c:?}")));
        assert_eq!(
            typed.as_deref(),
            Some(text(name).as_str()),
            "{at}: typed code of {error}"
        );
    }
    if let Some(retryable) = expect.get("retryable") {
        assert_eq!(
            Some(error.is_retryable()),
            retryable.as_bool(),
            "{at}: retryable of {error}"
        );
    }
    if let Some(violations) = expect.get("violations") {
        let ErrorKind::InvalidRequest(errors) = error.kind() else {
            panic!("{at}: expected violations, got {error}");
        };
        let got: Vec<Value> = errors
            .violations()
            .iter()
            .map(|v| {
                Value::Array(vec![
                    Value::String(v.field.clone()),
                    Value::String(snake(&format!("{:?}", v.rule))),
                ])
            })
            .collect();
        assert_eq!(&Value::Array(got), violations, "{at}: violations");
    }
}

fn check_items(at: &str, items: &[Value], expect: &Map<String, Value>) {
    if let Some(count) = expect.get("count") {
        assert_eq!(items.len().to_string(), text(count), "{at}: item count");
    }
    if let Some(min) = expect.get("min_count").and_then(Value::as_u64) {
        assert!(
            items.len() as u64 >= min,
            "{at}: {} items < {min}",
            items.len()
        );
    }
    if let Some(key) = expect.get("unique").and_then(Value::as_str) {
        let mut keys: Vec<String> = items
            .iter()
            .map(|i| i.get(key).map(text).unwrap_or_default())
            .collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "{at}: an item twice by {key}");
    }
    if let Some(Value::Object(fields)) = expect.get("contains") {
        assert!(
            items.iter().any(|i| fields
                .iter()
                .all(|(k, v)| i.get(k).map(text) == Some(text(v)))),
            "{at}: no item with {fields:?}"
        );
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
    };
    let steps = scenario["steps"].as_array().expect("steps");
    for (i, step) in steps.iter().enumerate() {
        let at = format!("{name} step {}", i + 1);
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

        let op = step["call"].as_str().expect("call");
        let mode = step.get("mode").and_then(Value::as_str).unwrap_or("call");
        let params = run.substitute(&step["params"]);
        match step.get("fault").and_then(Value::as_str) {
            None => {}
            // The sandbox's own test hook: the answer changes after it is signed.
            Some("tamper_answer") => run.sandbox.tamper_next_response(),
            Some("drop_answer") => {
                *run.probe.fault.lock().expect("lock") = Some(Fault::DropAnswer);
            }
            Some("strip_signature") => {
                *run.probe.fault.lock().expect("lock") = Some(Fault::StripSignature);
            }
            Some(other) => panic!("{at}: unknown fault {other}"),
        }
        let (sent_before, seen_before) = (
            run.probe.sent.load(Ordering::SeqCst),
            run.sandbox.requests_seen(),
        );
        let got = run.call(op, mode, params).await;
        let sent = run.probe.sent.load(Ordering::SeqCst) - sent_before;
        let seen_by_sandbox = run.sandbox.requests_seen() - seen_before;
        if let Some(want) = expect.get("sent").and_then(Value::as_u64) {
            assert_eq!(sent, want, "{at}: requests sent by the client");
            assert_eq!(seen_by_sandbox, want, "{at}: requests the sandbox saw");
        }
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
    assert!(paths.len() >= 8, "scenarios found: {paths:?}");
    for path in &paths {
        run_scenario(path).await;
    }
}
