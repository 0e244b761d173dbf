//! The client core: [`Operation`] and [`Client::execute`].

use std::sync::Arc;
use std::time::Duration;

use tracing::Instrument;

use crate::config::Config;
use crate::envelope::{self, Expect};
use crate::error::{Error, ErrorKind};
use crate::raw_json::RawJson;
use crate::transport::{HttpRequest, HttpsTransport, Transport};
use crate::validate::ValidationErrors;

/// One API operation: its parameters (the value itself, serialized into `params`), its
/// response type and its rules. Implemented by generated code.
pub trait Operation: serde::Serialize + Send + Sync {
    /// Decoded from the response's `data` (absent or null `data` decodes from `{}`).
    type Response: serde::de::DeserializeOwned + Send;
    /// Spec operation name, e.g. "applyForTransfer".
    const NAME: &'static str;
    /// Wire path, e.g. "/trans/v2/applyForTransfer".
    const PATH: &'static str;
    /// True when the call may move money: never re-sent automatically once its bytes
    /// may have left.
    const MOVES_MONEY: bool;
    /// Every violated rule, each with its field path. Called by `Client::execute`
    /// before anything is signed or sent.
    fn validate(&self) -> Result<(), ValidationErrors>;
}

/// Sends operations: validates, signs, posts, verifies and decodes.
///
/// Runs on tokio: `execute` needs a tokio runtime with the time and IO drivers enabled
/// (`#[tokio::main]` and `#[tokio::test]` enable both). Cloning is cheap and shares the
/// connection pool.
#[derive(Clone)]
pub struct Client {
    config: Config,
    transport: Arc<dyn Transport>,
    retryable_codes: &'static [&'static str],
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// Options of one call (see [`Client::execute_with`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallOptions {
    /// The requestId to send (to store it before sending, to reconcile, or to cancel an
    /// application by it); a new one by default.
    ///
    /// **A requestId of your own turns off retries** of a failed attempt that may have
    /// reached the service (a timeout, a dropped connection, a retryable code such as
    /// `10001`): the service refuses a requestId it has seen (`12002`), so the call is
    /// tried again only when the failed attempt provably never left. Queries included:
    /// without it, a query is retried with a new requestId up to
    /// [`Config::max_retries`] times.
    pub request_id: Option<String>,
    /// The time limit of this call instead of [`Config::request_timeout`].
    pub timeout: Option<Duration>,
}

impl CallOptions {
    /// No option: a new requestId and the configured timeout.
    pub fn new() -> CallOptions {
        CallOptions::default()
    }

    /// Sends this requestId. This turns off retries of any attempt that may have reached
    /// the service, queries included (see [`CallOptions::request_id`](field@CallOptions::request_id)).
    #[must_use]
    pub fn request_id(mut self, request_id: impl Into<String>) -> CallOptions {
        self.request_id = Some(request_id.into());
        self
    }

    /// Uses this time limit.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> CallOptions {
        self.timeout = Some(timeout);
        self
    }
}

/// A successful call with what its envelope said (see [`Client::execute_with`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Success<T> {
    /// The decoded `data`.
    pub data: T,
    /// The requestId that was sent and echoed (verified).
    pub request_id: String,
    /// The result code (`00000`).
    pub code: String,
    /// `data` exactly as received (`{}` when absent).
    pub raw_data: RawJson,
    /// Attempts the call made, the answered one included (1 when it was not tried again).
    pub attempts: u32,
}

/// A verified success of a call, before the `Success` a partner sees.
struct Answered<R> {
    /// The requestId of the attempt answered.
    request_id: String,
    /// Attempts made, the answered one included.
    attempts: u32,
    data: R,
}

/// Longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(10);

impl Client {
    /// A client on the default HTTPS transport. Fails when the configuration is unusable.
    pub fn new(config: Config) -> Result<Client, Error> {
        config.check()?;
        let transport = HttpsTransport::new(config.connect_timeout)?;
        Ok(Client {
            config,
            transport: Arc::new(transport),
            retryable_codes: &[],
        })
    }

    /// A client on another transport. Fails when the configuration is unusable.
    pub fn with_transport(config: Config, transport: Arc<dyn Transport>) -> Result<Client, Error> {
        config.check()?;
        Ok(Client {
            config,
            transport,
            retryable_codes: &[],
        })
    }

    /// The result codes after which a call may be tried again, as the spec lists them
    /// (the generated client passes its `ResultCode::RETRYABLE_CODES`); none by default.
    #[must_use]
    pub fn with_retryable_codes(mut self, codes: &'static [&'static str]) -> Client {
        self.retryable_codes = codes;
        self
    }

    /// The result codes after which a call may be tried again.
    pub fn retryable_codes(&self) -> &'static [&'static str] {
        self.retryable_codes
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Validates, builds the envelope (new requestId, timestamp, salt), signs the exact
    /// bytes, posts them with the configured timeout, reads a size-limited body,
    /// verifies its signature and requestId echo, maps `code != 00000` to
    /// [`ErrorKind::Api`] and decodes `data`.
    ///
    /// A retryable failure is tried again (new requestId, salt and timestamp) up to
    /// [`Config::max_retries`] times with doubling backoff, except that an operation
    /// that moves money is re-sent only when the failed attempt provably never left.
    ///
    /// A call that moves money and fails without a verified answer after its bytes may
    /// have left ends in [`ErrorKind::OutcomeUnknown`],
    /// which no retry layer repeats.
    ///
    /// Every error returned says the call: [`Error::operation`], [`Error::request_id`]
    /// (of the last attempt) and [`Error::attempts`].
    ///
    /// Each call is a `tracing` span `baas.call` (`rpc.system`, `rpc.method`,
    /// `url.path`, `baas.moves_money`, then `baas.outcome`, `baas.code`,
    /// `baas.attempts`, `baas.request_id`, `duration_ms`), each attempt a span
    /// `baas.attempt` (`http.request.resend_count`, `baas.request_id`). The private key is
    /// never recorded; the parameters only when [`Config::trace_params`] is on.
    pub async fn execute<O: Operation>(&self, operation: &O) -> Result<O::Response, Error> {
        self.call::<O, O::Response>(operation, &CallOptions::default())
            .await
            .map(|answered| answered.data)
    }

    /// [`Client::execute`] with per-call options (a requestId of the caller's, a
    /// timeout), returning the success with its requestId, code and raw `data`.
    ///
    /// With a requestId of the caller's, a failed attempt is tried again only when it
    /// provably never left (the service never saw that id).
    ///
    /// # Errors
    ///
    /// As [`Client::execute`].
    pub async fn execute_with<O: Operation>(
        &self,
        operation: &O,
        options: &CallOptions,
    ) -> Result<Success<O::Response>, Error> {
        let Answered {
            request_id,
            attempts,
            data: raw,
        } = self.call::<O, RawJson>(operation, options).await?;
        let data = raw
            .parse::<O::Response>()
            .map_err(|e| e.in_call(O::NAME, Some(request_id.clone()), attempts))?;
        Ok(Success {
            data,
            request_id,
            code: crate::error::SUCCESS_CODE.to_owned(),
            raw_data: raw,
            attempts,
        })
    }

    async fn call<O, R>(&self, operation: &O, options: &CallOptions) -> Result<Answered<R>, Error>
    where
        O: Operation,
        R: serde::de::DeserializeOwned + Send,
    {
        let span = tracing::info_span!(
            "baas.call",
            rpc.system = "baas",
            rpc.method = O::NAME,
            url.path = O::PATH,
            baas.moves_money = O::MOVES_MONEY,
            baas.params = tracing::field::Empty,
            baas.outcome = tracing::field::Empty,
            baas.code = tracing::field::Empty,
            baas.attempts = tracing::field::Empty,
            baas.request_id = tracing::field::Empty,
            duration_ms = tracing::field::Empty,
        );
        if self.config.trace_params && !span.is_disabled() {
            if let Ok(params) = serde_json::to_string(operation) {
                span.record("baas.params", params.as_str());
            }
        }
        // With no subscriber listening (a disabled span) nothing is timed or recorded.
        if span.is_disabled() {
            return self.execute_traced::<O, R>(operation, &span, options).await;
        }
        let started = std::time::Instant::now();
        let result = self
            .execute_traced::<O, R>(operation, &span, options)
            .instrument(span.clone())
            .await;
        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        span.record("duration_ms", millis);
        // `baas.request_id` is recorded once, when the call ends: the last attempt's (each
        // attempt's own is on its `baas.attempt` span).
        match &result {
            Ok(answered) => {
                span.record("baas.outcome", "success");
                span.record("baas.request_id", answered.request_id.as_str());
            }
            Err(error) => {
                let outcome = match error.outcome() {
                    crate::error::Outcome::NotSent => "not_sent",
                    crate::error::Outcome::Refused => "refused",
                    _ => "unknown",
                };
                span.record("baas.outcome", outcome);
                if let Some(code) = error.api_code() {
                    span.record("baas.code", code);
                }
                if let Some(request_id) = error.request_id() {
                    span.record("baas.request_id", request_id);
                }
            }
        }
        result
    }

    async fn execute_traced<O, R>(
        &self,
        operation: &O,
        span: &tracing::Span,
        options: &CallOptions,
    ) -> Result<Answered<R>, Error>
    where
        O: Operation,
        R: serde::de::DeserializeOwned + Send,
    {
        // The configuration was checked when the client was built and cannot change since.
        if let Err(invalid) = operation.validate() {
            let request_id = options.request_id.clone();
            return Err(Error::from(invalid).in_call(O::NAME, request_id, 0));
        }
        let mut attempt: u32 = 0;
        loop {
            span.record("baas.attempts", attempt + 1);
            match self
                .attempt::<O, R>(operation, attempt, span, options)
                .await
            {
                Ok((request_id, data)) => {
                    return Ok(Answered {
                        request_id,
                        attempts: attempt + 1,
                        data,
                    })
                }
                Err((request_id, mut error)) => {
                    error.mark_retryable(self.retryable_codes);
                    // A money call, or one whose requestId the caller fixed, is re-sent
                    // only when the failed attempt provably never left.
                    let fixed_id = options.request_id.is_some();
                    let may_resend =
                        !(O::MOVES_MONEY || fixed_id) || !error.may_have_reached_service();
                    if attempt >= self.config.max_retries || !error.is_retryable() || !may_resend {
                        return Err(Self::outcome::<O>(error, request_id, attempt + 1));
                    }
                    let factor = 2u32.saturating_pow(attempt.min(16));
                    let wait = self
                        .config
                        .retry_backoff
                        .saturating_mul(factor)
                        .min(MAX_BACKOFF);
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        }
    }

    /// The final error of a call, said of the call (operation, the requestId of the last
    /// attempt, attempts): an unknown outcome of a call that moves money is said as such,
    /// whatever the failure.
    ///
    /// Only a verified answer tells what happened: an unsigned or wrongly signed refusal,
    /// a body that is not JSON, an HTTP error page, or an answer refused as untrusted
    /// may stand in place of the service's real answer (the HTTP status proves nothing
    /// either), so after such a failure a call that moves money may have taken effect.
    fn outcome<O: Operation>(error: Error, request_id: Option<String>, attempts: u32) -> Error {
        let unknown = O::MOVES_MONEY
            && request_id.is_some()
            && error.may_have_reached_service()
            && !matches!(error.kind(), ErrorKind::Api { verified: true, .. });
        let error = if unknown {
            Error::from(ErrorKind::OutcomeUnknown {
                source: Box::new(error),
            })
        } else {
            error
        };
        error.in_call(O::NAME, request_id, attempts)
    }

    /// One attempt; on failure, the requestId it was sent with (none when nothing was
    /// signed).
    async fn attempt<O, R>(
        &self,
        operation: &O,
        resend_count: u32,
        call: &tracing::Span,
        options: &CallOptions,
    ) -> Result<(String, R), (Option<String>, Error)>
    where
        O: Operation,
        R: serde::de::DeserializeOwned + Send,
    {
        let config = &self.config;
        let signed = match &options.request_id {
            Some(id) => envelope::sign_request_with_id(
                operation,
                id.clone(),
                &config.sender,
                &config.locale,
                &config.private_key,
            ),
            None => envelope::sign_request(
                operation,
                &config.sender,
                &config.locale,
                &config.private_key,
            ),
        }
        .map_err(|e| (None, e))?;
        let envelope::SignedRequest { request_id, body } = signed;
        let span = tracing::debug_span!(
            parent: call,
            "baas.attempt",
            http.request.resend_count = resend_count,
            baas.request_id = request_id.as_str(),
        );
        let timeout = options.timeout.unwrap_or(config.request_timeout);
        let sent = self.send::<O, R>(body, &request_id, timeout);
        let result = if span.is_disabled() {
            sent.await
        } else {
            sent.instrument(span).await
        };
        match result {
            Ok(response) => Ok((request_id, response)),
            Err(e) => Err((Some(request_id), e)),
        }
    }

    async fn send<O, R>(
        &self,
        body: Vec<u8>,
        request_id: &str,
        timeout: Duration,
    ) -> Result<R, Error>
    where
        O: Operation,
        R: serde::de::DeserializeOwned + Send,
    {
        let config = &self.config;
        let request = HttpRequest::new(
            config.url(O::PATH),
            body,
            timeout,
            config.max_response_bytes,
        );
        let response = if self.transport.enforces_timeout() {
            self.transport.post_json(request).await?
        } else {
            match tokio::time::timeout(timeout, self.transport.post_json(request)).await {
                Ok(result) => result?,
                Err(_) => return Err(Error::timeout(timeout, true)),
            }
        };
        if response.body.len() > config.max_response_bytes {
            return Err(ErrorKind::ResponseTooLarge {
                limit: config.max_response_bytes,
            }
            .into());
        }
        envelope::open_response(
            Some(response.status),
            &response.body,
            &config.private_key,
            Expect {
                request_id,
                accept_unsigned_success: config.accept_unsigned_success,
            },
        )
    }
}
