//! One POST's checks, in order, and the operation: the body as JSON, the sender, the
//! expansion limit, the signature, the requestId, the envelope, a requestId used once,
//! the params decoded, then the bank.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::envelope::{check_envelope, decode_request};
use super::notify::deliver;
use super::respond::{sign_response, unsigned};
use super::{lock, operations_on, Shared, MAX_BODY_BYTES};
use crate::error::{codes, ApiError};
use crate::json::Json;
use crate::signing;

/// The answer body to one POST of `body` on `path`: the same checks and handlers as a
/// request over HTTP, without a socket (for fuzzing and tests).
pub(crate) fn answer_path(shared: &Arc<Shared>, path: &str, body: &[u8]) -> Vec<u8> {
    let candidates = operations_on(path);
    if candidates.is_empty() {
        return unsigned(codes::SYSTEM, &format!("no such path: {path}"));
    }
    if body.len() > MAX_BODY_BYTES {
        return unsigned(codes::INVALID_PARAMETER, "the body is too large");
    }
    answer(shared, &candidates, body).body
}

/// What the sandbox answered to one POST.
pub(super) struct Answer {
    pub(super) request_id: Option<String>,
    pub(super) operation: Option<&'static str>,
    pub(super) code: String,
    pub(super) body: Vec<u8>,
}

impl Answer {
    pub(super) fn bare(code: &str) -> Answer {
        Answer {
            request_id: None,
            operation: None,
            code: code.to_owned(),
            body: Vec::new(),
        }
    }
    fn unsigned(request_id: Option<String>, code: &str, msg: &str) -> Answer {
        Answer {
            request_id,
            operation: None,
            code: code.to_owned(),
            body: unsigned(code, msg),
        }
    }
}

/// The checks and the operation.
pub(super) fn answer(shared: &Arc<Shared>, candidates: &[&'static str], body: &[u8]) -> Answer {
    let parsed = std::str::from_utf8(body)
        .map_err(|e| e.to_string())
        .and_then(|t| Json::parse(t).map_err(|e| e.to_string()));
    let message = match parsed {
        Ok(m @ Json::Object(_)) => m,
        Ok(_) => {
            let msg = "the body is not a JSON object";
            return Answer::unsigned(None, codes::INVALID_PARAMETER, msg);
        }
        Err(e) => {
            let msg = format!("the body is not JSON: {e}");
            return Answer::unsigned(None, codes::INVALID_PARAMETER, &msg);
        }
    };
    let request_id = message.text("requestId").map(str::to_owned);
    let locale = message.text("locale").unwrap_or("en_KE").to_owned();
    let sender = message.text("sender").unwrap_or_default();
    let Some(key) = shared.partners.get(sender) else {
        let msg = format!("invalid sender: `{sender}`");
        return Answer::unsigned(request_id, codes::INVALID_SENDER, &msg);
    };
    let key_text = String::from_utf8_lossy(key.expose()).into_owned();
    let reply = |operation: Option<&'static str>,
                 code: &str,
                 msg: &str,
                 data: Option<serde_json::Value>| {
        let rid = request_id.clone().unwrap_or_default();
        Answer {
            request_id: request_id.clone(),
            operation,
            code: code.to_owned(),
            body: sign_response(shared, key, &rid, &locale, code, msg, data),
        }
    };
    if !signing::within_expansion_limit(&message, body.len()) {
        let msg = format!(
            "the message's canonical string would be more than {} times as long as the \
             body (long keys above many values)",
            signing::MAX_EXPANSION
        );
        return reply(None, codes::INVALID_PARAMETER, &msg, None);
    }
    if !signing::verify(&message, &key_text) {
        return reply(None, codes::INVALID_SIGNATURE, "Invalid signature", None);
    }
    let Some(rid) = request_id
        .clone()
        .filter(|_| matches!(message.get("requestId"), Some(Json::String(_))))
    else {
        return reply(
            None,
            codes::INVALID_REQUEST_ID,
            "requestId: is required, as a non-empty JSON string",
            None,
        );
    };
    if let Err(msg) = check_envelope(&message, baas_runtime::envelope::now_millis()) {
        return reply(None, codes::INVALID_PARAMETER, &msg, None);
    }
    if !shared.first_use(&rid) {
        return reply(
            None,
            codes::INVALID_REQUEST_ID,
            &format!("requestId: `{rid}` was used before; every request needs a new one"),
            None,
        );
    }
    let params = message
        .get("params")
        .cloned()
        .unwrap_or_else(|| Json::Object(BTreeMap::new()));
    let request = match decode_request(candidates, params) {
        Ok(request) => request,
        Err(ApiError { code, msg }) => return reply(None, code, &msg, None),
    };
    let operation = request.operation();
    let now = shared.now_ms();
    let (result, outbox) = {
        let mut bank = lock(&shared.bank);
        // Backstop: a defect of the sandbox answers a signed 10000 instead of dropping
        // the connection (which would leave a client unsure whether money moved).
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            bank.handle(request, &rid, now)
        }))
        .unwrap_or_else(|_| {
            Err(ApiError::new(
                codes::SYSTEM,
                format!("the sandbox failed while handling {operation} (a sandbox defect)"),
            ))
        });
        (result, bank.take_outbox())
    };
    for n in outbox {
        deliver(shared.clone(), n);
    }
    match result {
        Ok(data) => reply(
            Some(operation),
            codes::OK,
            "Completed successfully",
            Some(data),
        ),
        Err(ApiError { code, msg }) => reply(Some(operation), code, &msg, None),
    }
}
