//! Compiles only if every type that appears in a public signature of `baas_client` is
//! reachable from `baas_client` itself: a partner writing functions that take or return
//! pagers, items, errors, the runtime client, scalars, payloads or mock types needs no
//! second dependency (and no version of `baas-runtime` to match by hand).

use baas_client::enums::{Currency, NotificationType, ResultCode, TxStatus};
use baas_client::notification::{Notification, SeenFile, Verifier};
use baas_client::notifications::Payload;
use baas_client::pending::{OtpApplication, PendingApplication};
use baas_client::records::TransactionListItem;
use baas_client::transfers::{
    ApplyForTransferRequest, ApplyForTransferResponse, GetTransListRequest, GetTransResultRequest,
    GetTransResultResponse,
};
use baas_client::{
    mock, transport, Amount, AmountError, Call, CallOptions, Client, Config, Error, ErrorKind,
    FieldPath, FinalState, Items, Operation, Outcome, Page, Paged, Pages, ParseEnumError,
    PrivateKey, RawJson, RuleKind, RuntimeClient, Scalar, Success, ValidationErrors, Validator,
    Violation, WaitPolicy,
};

/// A call, as every client method returns it, and the pager `.pages()` makes of it.
pub fn transactions(client: &Client, request: GetTransListRequest) -> Pages<GetTransListRequest> {
    let call: Call<'_, GetTransListRequest> = client.get_trans_list(request);
    call.pages()
}

/// Its items, as `.items()` returns them.
pub fn rows(pages: Pages<GetTransListRequest>) -> Items<GetTransListRequest> {
    pages.items()
}

/// Any paged request.
pub fn first_page<O: Paged>(request: &O) -> i64 {
    request.page()
}

/// One page.
pub fn page_len(page: &Page<TransactionListItem>) -> usize {
    page.items.len()
}

/// The runtime client, both ways.
pub fn runtime(client: &Client) -> &RuntimeClient {
    client.runtime()
}

/// A client around a configured runtime client.
pub fn wrap(inner: RuntimeClient) -> Client {
    Client::from_runtime(inner)
}

/// The `FromStr` errors of amounts and value sets.
pub fn parse(
    amount: &str,
    currency: &str,
) -> (
    Result<Amount, AmountError>,
    Result<Currency, ParseEnumError>,
) {
    (amount.parse(), currency.parse())
}

/// A scalar of unknown JSON type.
pub fn scalar_text(s: &Scalar) -> &str {
    s.as_str()
}

/// The error, its kind, outcome and violations.
pub fn explain(error: &Error) -> (Outcome, Vec<(String, RuleKind)>) {
    let violations = match error.kind() {
        ErrorKind::InvalidRequest(v) => v
            .violations()
            .iter()
            .map(|x: &Violation| (x.field.clone(), x.rule))
            .collect(),
        _ => Vec::new(),
    };
    (error.outcome(), violations)
}

/// A request's own checks.
pub fn check(request: &ApplyForTransferRequest) -> Result<(), ValidationErrors> {
    request.validate()
}

/// The validator and the field paths generated records use.
pub fn validator_types(_: Option<(&mut Validator, FieldPath)>) {}

/// The success envelope of a call with options of one's own, and its OTP handle.
pub async fn apply_with_options(
    client: &Client,
    request: ApplyForTransferRequest,
) -> Result<PendingApplication<ApplyForTransferResponse>, Error> {
    client
        .apply_for_transfer(request)
        .options(CallOptions::new().request_id("partner-ref"))
        .pending()
        .await
}

/// The same through the runtime client.
pub async fn apply(
    client: &Client,
    request: &ApplyForTransferRequest,
) -> Result<PendingApplication<ApplyForTransferResponse>, Error> {
    let options = CallOptions::new().request_id("partner-ref");
    let success: Success<ApplyForTransferResponse> =
        client.runtime().execute_with(request, &options).await?;
    PendingApplication::from_success::<ApplyForTransferRequest>(client.clone(), success)
}

/// Any OTP request.
pub fn otp_id<O: OtpApplication>(success: &Success<O::Response>) -> Option<&str> {
    O::business_id(success)
}

/// A waiter.
pub async fn settle(
    client: &Client,
    query: GetTransResultRequest,
) -> Result<Option<TxStatus>, Error> {
    let done: GetTransResultResponse = client
        .get_trans_result(query)
        .until_final(&WaitPolicy::default())
        .await?;
    Ok(done.tx_status)
}

/// Any status query with final states.
pub fn is_final<O: FinalState>(response: &O::Response) -> bool {
    O::final_state(response).is_some_and(|(_, done)| done)
}

/// Notifications: verifying, deduplicating, typing.
pub fn receive(
    verifier: &Verifier,
    seen: &SeenFile,
    body: &[u8],
) -> Result<Option<Payload>, Error> {
    let n: Notification = verifier.verify(body)?;
    if !seen.is_new(&n.delivery_id()) {
        return Ok(None);
    }
    let _: NotificationType = NotificationType::from_notification(&n);
    Payload::from_notification(&n).map(Some)
}

/// Configuration, keys, raw JSON, result codes.
pub fn config(key: PrivateKey) -> (Config, Option<RawJson>, Option<ResultCode>) {
    (
        Config::new("https://bank.example", "partner", key),
        None,
        None,
    )
}

/// The mock transport and the transports.
pub fn mocked(key: PrivateKey) -> (mock::MockTransport, Option<transport::HttpsTransport>) {
    (mock::MockTransport::new(key), None)
}
