//! One POST's checks, in order, and the operation: the body as JSON, the sender, the
//! expansion limit, the keys, the signature (until here every answer is unsigned), the
//! requestId, the envelope, the values, a requestId used once, the params decoded, then
//! the bank.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::envelope::{check_envelope, decode_request, MAX_REQUEST_ID_LEN};
use super::notify::{prepare, send, Prepared};
use super::respond::{self, sign_response, unsigned, Verified};
use super::{lock, operations_on, Shared};
use crate::error::{codes, ApiError};
use crate::faults::AnswerFault;
use crate::json::{Json, MAX_VALUES};
use crate::state::QueuedNotification;
use crate::{recut, signing};
use baas_client::dispatch::Request;

/// The answer body to one POST of `body` on `path`: the same checks and handlers as a
/// request over HTTP, without a socket (for fuzzing and tests).
pub(crate) fn answer_path(shared: &Arc<Shared>, path: &str, body: &[u8]) -> Vec<u8> {
    let candidates = operations_on(path);
    if candidates.is_empty() {
        return unsigned(codes::SYSTEM.as_str(), NO_SUCH_PATH);
    }
    if body.len() > shared.max_body_bytes {
        return unsigned(
            codes::INVALID_PARAMETER.as_str(),
            &too_large(shared.max_body_bytes),
        );
    }
    answer(shared, &candidates, body).body
}

/// The answer to a POST on a path that serves no operation (HTTP 500).
pub(super) const NO_SUCH_PATH: &str = "no operation is served on this path";

/// The answer to a body over the size limit.
pub(super) fn too_large(max_body_bytes: usize) -> String {
    format!("the body is larger than {max_body_bytes} bytes, the most the sandbox reads")
}

/// What the sandbox answered to one POST.
pub(super) struct Answer {
    /// The requestId, once the signature held and the requestId can be echoed.
    pub(super) request_id: Option<String>,
    pub(super) operation: Option<&'static str>,
    pub(super) code: String,
    pub(super) body: Vec<u8>,
    /// How the answer is sent (a fault may drop or delay it).
    pub(super) send: Send,
    /// For a `12005`: the canonical string the sandbox expected, the key redacted (for
    /// the admin page only; never sent to the client, which would make it an oracle).
    pub(super) expected: Option<String>,
}

/// How an answer is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Send {
    /// At once.
    Now,
    /// Not at all: the connection is closed.
    Drop,
    /// After this long.
    After(std::time::Duration),
}

impl Answer {
    pub(super) fn bare(code: &str) -> Answer {
        Answer {
            request_id: None,
            operation: None,
            code: code.to_owned(),
            body: Vec::new(),
            send: Send::Now,
            expected: None,
        }
    }
    /// An unsigned answer that quotes nothing of the request.
    pub(super) fn unsigned(code: &str, msg: &str) -> Answer {
        Answer {
            request_id: None,
            operation: None,
            code: code.to_owned(),
            body: unsigned(code, msg),
            send: Send::Now,
            expected: None,
        }
    }
}

/// The checks and the operation.
///
/// Until the signature holds, every answer is unsigned and quotes nothing of the body:
/// a signed answer to an unverified request would be a signing oracle (issue 17 got a
/// `12005` answer, signed with the partner's key, that echoed a `locale` of
/// `en_KE&notificationType=0028&params.amount=50000.00&params.zz=` and so read as a
/// notification). What is checked before the signature costs time linear in the body
/// and memory bounded by it: the JSON ([`MAX_VALUES`]), the sender, the expansion
/// limit, the keys (R1, R4 of [`recut`], which the signature's sort relies on). Once
/// it holds, the requestId and locale are checked before anything echoes them, and
/// values that could be re-cut (R2, R3) are refused, so that no stored value can come
/// back in a signed answer or notification.
pub(super) fn answer(shared: &Arc<Shared>, candidates: &[&'static str], body: &[u8]) -> Answer {
    let (mut message, key) = match signed_by_a_partner(shared, body) {
        Ok(checked) => checked,
        Err(refused) => return *refused,
    };
    // The signature holds: answers may be signed from here on.
    let Some(to) = Verified::new(key, &message) else {
        let msg = format!(
            "requestId: is required, as a JSON string of 1 to {MAX_REQUEST_ID_LEN} printable \
             ASCII characters other than space, & and ="
        );
        return Answer::unsigned(codes::INVALID_REQUEST_ID.as_str(), &msg);
    };
    let rid = to.request_id().to_owned();
    let reply = |operation: Option<&'static str>,
                 code: &str,
                 msg: &str,
                 data: Option<serde_json::Value>| Answer {
        request_id: Some(rid.clone()),
        operation,
        code: code.to_owned(),
        body: sign_response(shared, &to, code, msg, data),
        send: Send::Now,
        expected: None,
    };
    if let Some((code, msg)) = refused_once_verified(shared, &message) {
        return reply(None, code, &msg, None);
    }
    if !shared.first_use(&rid) {
        return reply(
            None,
            codes::INVALID_REQUEST_ID.as_str(),
            &format!("requestId: `{rid}` was used before; every request needs a new one"),
            None,
        );
    }
    // From here on the requestId is used: with a state file, it is written (with what
    // the request changed) before the answer, which is a 10000 if it cannot be.
    let kept = |answer: Answer| match shared.commit(&rid, None, &[]) {
        Ok(()) => answer,
        Err(msg) => reply(answer.operation, codes::SYSTEM.as_str(), &msg, None),
    };
    // Taken out of the message, not copied: it may be most of a 48 MB body.
    let params = match &mut message {
        Json::Object(map) => map.remove("params"),
        _ => None,
    }
    .unwrap_or_else(|| Json::Object(BTreeMap::new()));
    // Kept for matching a fault's parameter only when some fault may need it.
    let matched_params = lock(&shared.faults)
        .has_answer_faults()
        .then(|| params.clone());
    let request = match decode_request(candidates, params) {
        Ok(request) => request,
        Err(ApiError { code, msg }) => return kept(reply(None, code.as_str(), &msg, None)),
    };
    let operation = request.operation();
    let fault = matched_params.and_then(|p| lock(&shared.faults).answer_fault(operation, &p));
    if let Some(AnswerFault::Code {
        code,
        effect: false,
    }) = &fault
    {
        return kept(reply(Some(operation), code, FAULT_MSG, None));
    }
    if fault == Some(AnswerFault::LoseRequest) {
        // Lost before it reached the service: nothing ran and the requestId was never
        // seen (a state file has not recorded it yet: only `kept` and `run` write it).
        shared.forget_request_id(&rid);
        let mut lost = reply(Some(operation), LOST, FAULT_MSG, None);
        lost.send = Send::Drop;
        return lost;
    }
    let result = match run(shared, request, &rid) {
        Ok(result) => result,
        Err(msg) => return reply(Some(operation), codes::SYSTEM.as_str(), &msg, None),
    };
    let mut answer = match result {
        Ok(data) => reply(
            Some(operation),
            codes::OK.as_str(),
            "Completed successfully",
            Some(data),
        ),
        Err(ApiError { code, msg }) => reply(Some(operation), code.as_str(), &msg, None),
    };
    if let Some(fault) = fault {
        answer = with_fault(answer, fault, |code| {
            reply(Some(operation), code, FAULT_MSG, None)
        });
    }
    answer
}

/// The body as a message of a partner whose signature holds, with the partner's key;
/// else the unsigned answer that quotes nothing of it (checked in time linear in the
/// body and memory bounded by it: the JSON, the sender, the expansion limit, the keys,
/// the signature).
fn signed_by_a_partner<'s>(
    shared: &'s Shared,
    body: &[u8],
) -> Result<(Json, &'s baas_runtime::PrivateKey), Box<Answer>> {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(e) => {
            let msg = format!("the body is not UTF-8 (byte {})", e.valid_up_to());
            return Err(Box::new(Answer::unsigned(
                codes::INVALID_PARAMETER.as_str(),
                &msg,
            )));
        }
    };
    let message = match Json::parse_bounded(text, MAX_VALUES) {
        Ok(m @ Json::Object(_)) => m,
        Ok(_) => {
            let msg = "the body is not a JSON object";
            return Err(Box::new(Answer::unsigned(
                codes::INVALID_PARAMETER.as_str(),
                msg,
            )));
        }
        Err(e) => {
            let msg = format!("the body is not JSON the sandbox reads: {e}");
            return Err(Box::new(Answer::unsigned(
                codes::INVALID_PARAMETER.as_str(),
                &msg,
            )));
        }
    };
    let sender = message.text("sender").unwrap_or_default();
    let Some(key) = shared.partners.get(sender) else {
        let msg = "invalid sender: not a partner of this sandbox";
        return Err(Box::new(Answer::unsigned(
            codes::INVALID_SENDER.as_str(),
            msg,
        )));
    };
    if !signing::within_expansion_limit(&message, body.len()) {
        let msg = format!(
            "the message's canonical string would be more than {} times as long as the \
             body (long keys above many values)",
            signing::MAX_EXPANSION
        );
        return Err(Box::new(Answer::unsigned(
            codes::INVALID_PARAMETER.as_str(),
            &msg,
        )));
    }
    if let Some(breach) = recut::key_breach(&message) {
        return Err(Box::new(Answer::unsigned(
            codes::INVALID_PARAMETER.as_str(),
            breach.rule.explain(),
        )));
    }
    let key_text = String::from_utf8_lossy(key.expose()).into_owned();
    if !signing::verify(&message, &key_text) {
        let mut refused = Answer::unsigned(codes::INVALID_SIGNATURE.as_str(), "Invalid signature");
        refused.expected = expected_canonical(&message);
        return Err(Box::new(refused));
    }
    Ok((message, key))
}

/// Runs `request` on the bank and writes what it changed (with the notifications it
/// produced) to the state file, if there is one, before anything is sent; then starts
/// the notifications' delivery. `Err` says why the state file could not be written.
fn run(
    shared: &Arc<Shared>,
    request: Request,
    rid: &str,
) -> Result<Result<serde_json::Value, ApiError>, String> {
    let operation = request.operation();
    let now = shared.now_ms();
    let (result, prepared, written) = {
        let mut bank = lock(&shared.bank);
        // Backstop: a defect of the sandbox answers a signed 10000 instead of dropping
        // the connection (which would leave a client unsure whether money moved).
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            bank.handle(request, rid, now)
        }))
        .unwrap_or_else(|_| {
            Err(ApiError::new(
                codes::SYSTEM,
                format!("the sandbox failed while handling {operation} (a sandbox defect)"),
            ))
        });
        let prepared: Vec<Prepared> = bank
            .take_outbox()
            .into_iter()
            .filter_map(|n| prepare(shared, n))
            .collect();
        let queued: Vec<QueuedNotification> = prepared.iter().map(|p| p.queued.clone()).collect();
        // Under the bank's lock: the file gets the requests' changes in the order made.
        let written = shared.commit(rid, Some(&mut bank), &queued);
        (result, prepared, written)
    };
    written?;
    for n in prepared {
        send(shared.clone(), n);
    }
    Ok(result)
}

/// The answer as `fault` makes it (`coded` signs an answer with a code a fault chose).
fn with_fault(mut answer: Answer, fault: AnswerFault, coded: impl Fn(&str) -> Answer) -> Answer {
    match fault {
        AnswerFault::Code { effect: false, .. } => {}
        AnswerFault::Code { code, .. } => answer = coded(&code),
        AnswerFault::DropAnswer | AnswerFault::LoseRequest => answer.send = Send::Drop,
        AnswerFault::Delay(by) => answer.send = Send::After(by),
        AnswerFault::Unsigned => answer.body = respond::unsign(answer.body),
        AnswerFault::BadSignature => answer.body = respond::bad_signature(answer.body),
        AnswerFault::Altered => answer.body = respond::tamper(answer.body),
    }
    answer
}

/// Why a request whose signature holds is refused before its requestId is used: the
/// state file cannot be written (`10000`), the envelope or a value that could be re-cut
/// (`12001`).
fn refused_once_verified(shared: &Shared, message: &Json) -> Option<(&'static str, String)> {
    if let Some(msg) = shared.state_failure() {
        return Some((codes::SYSTEM.as_str(), msg));
    }
    if let Err(msg) = check_envelope(message, baas_runtime::envelope::now_millis()) {
        return Some((codes::INVALID_PARAMETER.as_str(), msg));
    }
    let breach = recut::value_breach(message)?;
    let field = breach.path.strip_prefix("params.").unwrap_or(&breach.path);
    Some((
        codes::INVALID_PARAMETER.as_str(),
        format!("{field}: {}", breach.rule.explain()),
    ))
}

/// Longest canonical string computed for the admin page (a longer one is not shown).
const EXPECTED_MAX: usize = 16 * 1024;

/// The canonical string of a refused request with the key written `[redacted]`, when
/// it is short enough to show.
fn expected_canonical(message: &Json) -> Option<String> {
    (signing::canonical_len(message) <= EXPECTED_MAX)
        .then(|| signing::canonical_string(message, baas_runtime::REDACTED))
}

/// The code the request log shows for a request a fault lost before its effect (never
/// sent: the connection is closed).
const LOST: &str = "lost";

/// The `msg` of an answer whose code a fault chose.
const FAULT_MSG: &str = "fault injected by the sandbox";
