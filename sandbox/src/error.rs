//! Business errors of the sandbox: a result code (public-facts.md, "Error codes seen")
//! and a message that names the field and the rule that broke.

/// A business error: answered as HTTP 200 with `code` other than `00000`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code} {msg}")]
pub struct ApiError {
    /// Result code, e.g. `14009`.
    pub code: &'static str,
    /// Result text; for parameter errors it names the field and the rule.
    pub msg: String,
}

/// Result codes the sandbox answers with (public-facts.md; `12005` from the spec).
pub mod codes {
    /// Success.
    pub const OK: &str = "00000";
    /// System error (an internal invariant did not hold; never expected).
    pub const SYSTEM: &str = "10000";
    /// No permission (frozen or dormant account used for a debit).
    pub const NO_PERMISSION: &str = "11000";
    /// OTP locked after too many wrong codes.
    pub const OTP_LOCKED: &str = "11202";
    /// Wrong OTP (or none was sent).
    pub const WRONG_OTP: &str = "11203";
    /// GET is not supported.
    pub const GET_NOT_SUPPORTED: &str = "12000";
    /// Invalid or missing parameter.
    pub const INVALID_PARAMETER: &str = "12001";
    /// Invalid (e.g. replayed) request id.
    pub const INVALID_REQUEST_ID: &str = "12002";
    /// Unknown sender.
    pub const INVALID_SENDER: &str = "12003";
    /// The signature does not verify.
    pub const INVALID_SIGNATURE: &str = "12005";
    /// Account does not exist.
    pub const NO_ACCOUNT: &str = "13000";
    /// Short code already exists.
    pub const SHORT_CODE_EXISTS: &str = "13302";
    /// Not found (transaction, application, payment, bill, onboarding request).
    pub const NOT_FOUND: &str = "14001";
    /// Insufficient balance.
    pub const INSUFFICIENT_BALANCE: &str = "14009";
    /// Bank code does not exist.
    pub const NO_BANK_CODE: &str = "14012";
    /// Query time range error.
    pub const TIME_RANGE: &str = "15001";
    /// Page size over 50.
    pub const PAGE_SIZE: &str = "15002";
}

impl ApiError {
    /// An error with `code` and `msg`.
    pub fn new(code: &'static str, msg: impl Into<String>) -> ApiError {
        ApiError {
            code,
            msg: msg.into(),
        }
    }

    /// `12001`: `field` breaks `rule`.
    pub fn invalid(field: &str, rule: impl std::fmt::Display) -> ApiError {
        ApiError::new(codes::INVALID_PARAMETER, format!("{field}: {rule}"))
    }

    /// `12001`: the required `field` is missing or empty.
    pub fn missing(field: &str) -> ApiError {
        ApiError::invalid(field, "is required")
    }

    /// `13000`: no account `id`.
    pub fn no_account(id: &str) -> ApiError {
        ApiError::new(codes::NO_ACCOUNT, format!("account does not exist: {id}"))
    }

    /// `14001`: `what` not found.
    pub fn not_found(what: impl std::fmt::Display) -> ApiError {
        ApiError::new(codes::NOT_FOUND, format!("not found: {what}"))
    }
}
