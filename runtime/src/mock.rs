//! A mock of the service for partners' unit tests: stub typed responses or failures per
//! operation, record the requests, and run the real client path (validation, signing,
//! signature verification, decoding) without a network.
//!
//! ```
//! # async fn f() -> Result<(), baas_runtime::Error> {
//! use std::sync::Arc;
//!
//! use baas_runtime::mock::{MockTransport, Refusal};
//! use baas_runtime::{Client, Config, PrivateKey};
//! # #[derive(serde::Serialize, serde::Deserialize)]
//! # struct Ping { id: String }
//! # impl baas_runtime::Operation for Ping {
//! #     type Response = serde_json::Value;
//! #     const NAME: &'static str = "ping";
//! #     const PATH: &'static str = "/ping";
//! #     const MOVES_MONEY: bool = false;
//! #     fn validate(&self) -> Result<(), baas_runtime::ValidationErrors> { Ok(()) }
//! # }
//!
//! let key = PrivateKey::new("test-key");
//! let mock = Arc::new(MockTransport::new(key.clone()));
//! mock.on::<Ping, _>(|ping| {
//!     if ping.id.is_empty() {
//!         Err(Refusal::new("12001", "id is empty"))
//!     } else {
//!         Ok(serde_json::json!({ "pong": ping.id }))
//!     }
//! });
//! let client = Client::with_transport(Config::new("https://mock.invalid", "me", key), mock.clone())?;
//! let answer = client.execute(&Ping { id: "1".into() }).await?;
//! assert_eq!(answer["pong"], "1");
//! assert_eq!(mock.requests_of::<Ping>().len(), 1);
//! # Ok(())
//! # }
//! ```

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::client::Operation;
use crate::envelope::{signed_response_body, verify_request};
use crate::error::{Error, SUCCESS_CODE};
use crate::raw_json::RawJson;
use crate::secret::PrivateKey;
use crate::transport::{BoxFuture, HttpRequest, HttpResponse, Transport};

/// A refusal the mock answers with: a result code other than success, and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    code: String,
    msg: String,
}

impl Refusal {
    /// A refusal with this code (`14009`) and message.
    pub fn new(code: impl Into<String>, msg: impl Into<String>) -> Refusal {
        Refusal {
            code: code.into(),
            msg: msg.into(),
        }
    }
}

/// A failure of the exchange itself, for [`MockTransport::fail`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// The connection never opened: nothing was sent.
    NotSent,
    /// The request left and no answer came back: the outcome is unknown.
    NoAnswer,
}

/// One request the mock received (its signature verified).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Recorded {
    /// The operation's wire path.
    pub path: String,
    /// The requestId of the envelope.
    pub request_id: String,
    /// `params` exactly as sent.
    pub params: RawJson,
}

type Stub = Box<dyn Fn(&RawJson) -> Result<Result<RawJson, Refusal>, Failure> + Send + Sync>;

/// A [`Transport`] that answers like the service, from stubs, signed with the partner's
/// key: the client under test validates, signs, verifies and decodes as in production.
pub struct MockTransport {
    key: PrivateKey,
    stubs: Mutex<HashMap<&'static str, Stub>>,
    requests: Mutex<Vec<Recorded>>,
}

impl std::fmt::Debug for MockTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockTransport").finish_non_exhaustive()
    }
}

impl MockTransport {
    /// A mock that verifies requests and signs answers with `key` (use the same key in
    /// the client's [`crate::Config`]).
    pub fn new(key: PrivateKey) -> MockTransport {
        MockTransport {
            key,
            stubs: Mutex::new(HashMap::new()),
            requests: Mutex::new(Vec::new()),
        }
    }

    /// Answers operation `O` with what `answer` returns for the decoded request: its
    /// response (signed, code `00000`) or a [`Refusal`]. Replaces an earlier stub of `O`.
    pub fn on<O, F>(&self, answer: F)
    where
        O: Operation + DeserializeOwned + 'static,
        O::Response: Serialize,
        F: Fn(&O) -> Result<O::Response, Refusal> + Send + Sync + 'static,
    {
        let stub: Stub =
            Box::new(move |params: &RawJson| {
                let request: O = match params.parse() {
                    Ok(r) => r,
                    Err(e) => return Ok(Err(Refusal::new("12001", format!("params: {e}")))),
                };
                Ok(match answer(&request) {
                    Ok(response) => Ok(RawJson::from_serialize(&response)
                        .unwrap_or_else(|_| RawJson::empty_object())),
                    Err(refusal) => Err(refusal),
                })
            });
        self.stubs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(O::PATH, stub);
    }

    /// Makes every call of operation `O` fail as `failure` says.
    pub fn fail<O: Operation>(&self, failure: Failure) {
        let stub: Stub = Box::new(move |_| Err(failure));
        self.stubs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(O::PATH, stub);
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The requests of operation `O`, decoded.
    pub fn requests_of<O: Operation + DeserializeOwned>(&self) -> Vec<O> {
        self.requests()
            .iter()
            .filter(|r| r.path == O::PATH)
            .filter_map(|r| r.params.parse().ok())
            .collect()
    }

    fn answer(&self, request: &HttpRequest) -> Result<HttpResponse, Error> {
        let received = verify_request(&request.body, &self.key)?;
        let path = request
            .url
            .find("://")
            .and_then(|i| request.url.get(i + 3..))
            .and_then(|rest| rest.find('/').and_then(|j| rest.get(j..)))
            .unwrap_or_default()
            .to_owned();
        let stubs = self.stubs.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(stub) = stubs
            .iter()
            .find(|(p, _)| path.ends_with(**p))
            .map(|(_, s)| s)
        else {
            return Err(Error::transport(
                format!("the mock has no stub for {path}"),
                false,
                None,
            ));
        };
        let params = received.params.clone();
        let outcome = stub(&params);
        drop(stubs);
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Recorded {
                path,
                request_id: received.request_id.clone(),
                params,
            });
        let (code, msg, data) = match outcome {
            Err(Failure::NotSent) => {
                return Err(Error::transport("mock: connection refused", false, None))
            }
            Err(Failure::NoAnswer) => {
                return Err(Error::transport("mock: no answer", true, None));
            }
            Ok(Ok(data)) => (
                SUCCESS_CODE.to_owned(),
                "Completed successfully".to_owned(),
                Some(data),
            ),
            Ok(Err(refusal)) => (refusal.code, refusal.msg, None),
        };
        let body = signed_response_body(
            &received.request_id,
            "baas-mock",
            &received.locale,
            &code,
            &msg,
            data.as_ref(),
            &self.key,
        )?;
        Ok(HttpResponse { status: 200, body })
    }
}

impl Transport for MockTransport {
    fn post_json(&self, request: HttpRequest) -> BoxFuture<'_, Result<HttpResponse, Error>> {
        Box::pin(async move { self.answer(&request) })
    }
}
