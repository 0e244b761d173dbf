//! The runtime's `tracing` spans: one per call and one per attempt, with
//! OpenTelemetry's names where they fit, never the key, and the parameters only on
//! opt-in.

use std::sync::Arc;
use std::time::Duration;

use baas_runtime::envelope::{signed_response_body, verify_request};
use baas_runtime::transport::BoxFuture;
use baas_runtime::{
    Client, Config, Error, FieldPath, HttpRequest, HttpResponse, Operation, PrivateKey, Transport,
    ValidationErrors, Validator,
};
use serde::Serialize;

const KEY: &str = "partner-secret-key";

fn config() -> Config {
    let mut c = Config::new("http://127.0.0.1:9", "client1", PrivateKey::new(KEY));
    c.retry_backoff = Duration::from_millis(1);
    c
}

/// Answers every request with a signed `10001` (system busy) echoing its requestId.
struct Busy;

impl Transport for Busy {
    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(async move {
            let key = PrivateKey::new(KEY);
            let received = verify_request(&request.body, &key)?;
            let body = signed_response_body(
                &received.request_id,
                "baas",
                "en_KE",
                "10001",
                "busy",
                None,
                &key,
            )?;
            Ok(HttpResponse { status: 200, body })
        })
    }
}

#[derive(Serialize)]
struct GetAccountDetails {
    #[serde(rename = "accountId")]
    account_id: String,
}

impl Operation for GetAccountDetails {
    type Response = serde_json::Value;
    const NAME: &'static str = "getAccountDetails";
    const PATH: &'static str = "/query/getAccountDetails";
    const MOVES_MONEY: bool = false;
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut v = Validator::new();
        v.required(
            FieldPath::ROOT.field("accountId"),
            !self.account_id.is_empty(),
        );
        v.finish()
    }
}

fn account() -> GetAccountDetails {
    GetAccountDetails {
        account_id: "A1".into(),
    }
}

/// A `tracing` subscriber that keeps every span's name and recorded fields as text.
mod capture {
    use std::sync::{Arc, Mutex};

    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event, Metadata, Subscriber};

    /// A span's name and its recorded `(field, value)` pairs.
    type SpanRecord = (String, Vec<(String, String)>);

    #[derive(Default, Clone)]
    pub struct Capture(pub Arc<Mutex<Vec<SpanRecord>>>);

    struct Fields<'a>(&'a mut Vec<(String, String)>);

    impl Visit for Fields<'_> {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            self.0.push((field.name().to_owned(), format!("{value:?}")));
        }
        fn record_str(&mut self, field: &Field, value: &str) {
            self.0.push((field.name().to_owned(), value.to_owned()));
        }
    }

    impl Capture {
        /// Every recorded value of `field` in spans named `span`.
        pub fn values(&self, span: &str, field: &str) -> Vec<String> {
            let spans = self.0.lock().unwrap();
            spans
                .iter()
                .filter(|(name, _)| name == span)
                .flat_map(|(_, fields)| fields.iter().filter(|(f, _)| f == field))
                .map(|(_, v)| v.clone())
                .collect()
        }

        /// Everything recorded, as one text.
        pub fn all_text(&self) -> String {
            format!("{:?}", self.0.lock().unwrap())
        }
    }

    impl Subscriber for Capture {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, attrs: &Attributes<'_>) -> Id {
            let mut spans = self.0.lock().unwrap();
            let mut fields = Vec::new();
            attrs.record(&mut Fields(&mut fields));
            spans.push((attrs.metadata().name().to_owned(), fields));
            Id::from_u64(spans.len() as u64)
        }
        fn record(&self, span: &Id, values: &Record<'_>) {
            let mut spans = self.0.lock().unwrap();
            if let Some((_, fields)) = spans.get_mut(span.into_u64() as usize - 1) {
                values.record(&mut Fields(fields));
            }
        }
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, _: &Event<'_>) {}
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }
}

#[tokio::test]
async fn calls_and_attempts_are_traced_without_the_key() {
    let capture = capture::Capture::default();
    // The only test of this binary: the subscriber is global, so no other test's
    // callsites race with it.
    tracing::subscriber::set_global_default(capture.clone()).expect("first subscriber");

    let client = Client::with_transport(config(), Arc::new(Busy))
        .unwrap()
        .with_retryable_codes(&["10001"]);
    let _ = client.execute(&account()).await.unwrap_err();
    assert_eq!(
        capture.values("baas.call", "rpc.method"),
        ["getAccountDetails"]
    );
    assert_eq!(capture.values("baas.call", "baas.outcome"), ["refused"]);
    assert_eq!(capture.values("baas.call", "baas.code"), ["10001"]);
    assert_eq!(
        capture
            .values("baas.call", "baas.attempts")
            .last()
            .map(String::as_str),
        Some("3")
    );
    assert_eq!(
        capture.values("baas.attempt", "http.request.resend_count"),
        ["0", "1", "2"],
        "one span per attempt"
    );
    let ids = capture.values("baas.attempt", "baas.request_id");
    assert_eq!(ids.len(), 3);
    assert!(ids.iter().all(|id| id.starts_with("client1")), "{ids:?}");
    // Issue 34: the call's span records its requestId once, the last attempt's (it was
    // recorded on every attempt and again on the error: four values for one field).
    assert_eq!(
        capture.values("baas.call", "baas.request_id"),
        ids.last().cloned().into_iter().collect::<Vec<_>>()
    );
    assert!(!capture.values("baas.call", "duration_ms").is_empty());
    // Neither the key nor, by default, the parameters are recorded.
    let text = capture.all_text();
    assert!(!text.contains(KEY), "the key leaked into a span");
    assert!(capture.values("baas.call", "baas.params").is_empty());

    // Parameters only when the partner opts in.
    let mut cfg = config();
    cfg.trace_params = true;
    let _ = Client::with_transport(cfg, Arc::new(Busy))
        .unwrap()
        .execute(&account())
        .await;
    assert_eq!(
        capture.values("baas.call", "baas.params"),
        [r#"{"accountId":"A1"}"#]
    );
    assert!(!capture.all_text().contains(KEY));
}
