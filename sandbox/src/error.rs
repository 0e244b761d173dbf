//! Business errors of the sandbox: a result code (public-facts.md, "Error codes seen")
//! and a message that names the field and the rule that broke.

use baas_client::enums::ResultCode;

/// A business error: answered as HTTP 200 with `code` other than `00000`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code} {msg}")]
pub struct ApiError {
    /// Result code, e.g. `14009`: one the spec lists (`result_codes:`), the same the
    /// client names.
    pub code: ResultCode,
    /// Result text; for parameter errors it names the field and the rule.
    pub msg: String,
}

/// The result codes the sandbox answers with, each named for what the sandbox means by it.
/// Each is a [`ResultCode`] of the spec, so the sandbox cannot answer a code the client
/// does not know, and a code the spec renames or drops stops the sandbox compiling.
pub mod codes {
    use baas_client::enums::ResultCode;

    /// Success.
    pub const OK: ResultCode = ResultCode::Success;
    /// System error (an internal invariant did not hold; never expected).
    pub const SYSTEM: ResultCode = ResultCode::SystemError;
    /// No permission (frozen or dormant account used for a debit).
    pub const NO_PERMISSION: ResultCode = ResultCode::NoPermission;
    /// OTP locked after too many wrong codes.
    pub const OTP_LOCKED: ResultCode = ResultCode::SmsCodeLocked;
    /// Wrong OTP (or none was sent).
    pub const WRONG_OTP: ResultCode = ResultCode::WrongSmsCode;
    /// GET is not supported.
    pub const GET_NOT_SUPPORTED: ResultCode = ResultCode::GetNotSupported;
    /// Invalid or missing parameter.
    pub const INVALID_PARAMETER: ResultCode = ResultCode::InvalidParameter;
    /// Invalid (e.g. replayed) request id.
    pub const INVALID_REQUEST_ID: ResultCode = ResultCode::InvalidRequestId;
    /// Unknown sender.
    pub const INVALID_SENDER: ResultCode = ResultCode::InvalidSender;
    /// The signature does not verify.
    pub const INVALID_SIGNATURE: ResultCode = ResultCode::InvalidSignature;
    /// Account does not exist.
    pub const NO_ACCOUNT: ResultCode = ResultCode::AccountNotFound;
    /// Short code already exists.
    pub const SHORT_CODE_EXISTS: ResultCode = ResultCode::ShortCodeExists;
    /// Not found (transaction, application, payment, bill, onboarding request).
    pub const NOT_FOUND: ResultCode = ResultCode::TransactionNotFound;
    /// Insufficient balance.
    pub const INSUFFICIENT_BALANCE: ResultCode = ResultCode::InsufficientBalance;
    /// Bank code does not exist.
    pub const NO_BANK_CODE: ResultCode = ResultCode::BankCodeNotFound;
    /// Query time range error.
    pub const TIME_RANGE: ResultCode = ResultCode::QueryTimeRangeError;
    /// Page size over 50.
    pub const PAGE_SIZE: ResultCode = ResultCode::PageSizeTooLarge;
}

impl ApiError {
    /// An error with `code` and `msg`.
    pub fn new(code: ResultCode, msg: impl Into<String>) -> ApiError {
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
