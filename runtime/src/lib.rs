//! # baas-runtime
//!
//! The hand-written runtime under the generated `baas-client` crate of the
//! banking-as-a-service partner API: canonical SHA-256 signing and verification,
//! message envelopes, configuration with a secret key that never prints, a
//! [`Transport`] seam with a default HTTPS implementation, one typed [`Error`],
//! validation helpers, the [`Amount`] decimal money type, [`RawJson`], serde helpers
//! for generated enums and callback [`notification`]s.
//!
//! ## Signing
//!
//! The algorithm of the API document, byte for byte: flatten to `path=value` pairs
//! (`.` for keys, `[i]` for array elements, `path={}` / `path=[]` for empty
//! containers, nulls skipped, `signature` left out), add `senderKey=<key>`, sort the
//! complete pair strings by bytes, join with `&`, SHA-256, lowercase hex. Requests are
//! signed over the exact bytes sent; responses and notifications are verified over
//! their received bytes, each number as its literal text.
//!
//! ```
//! use baas_runtime::{sign, PrivateKey};
//!
//! let body = br#"{"requestId":"APPREQ00990320fed02000","sender":"client1","locale":"en_KE",
//!     "timestamp":1650533105687,"salt":"QcEwsZ123da","params":{"name":"Tester"}}"#;
//! let key = PrivateKey::new("yourkey");
//! assert_eq!(
//!     sign::sign(body, &key).unwrap(),
//!     "ce4f419f667b7d5621892337c23905b894472e6b186f06a0e237528b011ab2f2"
//! );
//! let signed = sign::sign_and_attach(body.to_vec(), &key).unwrap();
//! assert!(sign::verify(&signed, &key).is_ok());
//! assert_eq!(format!("{key:?}"), "[redacted]");
//! ```
//!
//! ## Amounts on the wire
//!
//! Decimal amounts are sent as JSON strings (`"100.50"`) by default: public-facts.md
//! reports that nobody knows how the service renders numbers, that string amounts work
//! live and that response amounts come back as strings; a string keeps its exact text
//! through any JSON library. Fields the spec marks `wire: number` use
//! [`amount::number`], which writes the same exact text as a JSON number.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod amount;
pub mod canonical;
mod client;
mod config;
mod date;
mod document;
pub mod envelope;
mod error;
pub mod lenient;
pub mod mock;
pub mod notification;
pub mod paging;
pub mod random;
mod raw_json;
mod scalar;
mod secret;
pub mod settle;
pub mod sign;
pub mod transport;
mod validate;
pub mod wait;
pub mod wire_enum;

pub use amount::{Amount, AmountError};
pub use client::{CallOptions, Client, Operation, Success};
pub use config::{
    Config, DEFAULT_CONNECT_TIMEOUT, DEFAULT_LOCALE, DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT, DEFAULT_RETRY_BACKOFF,
};
pub use date::{Date, DateError};
pub use document::{Document, NotBase64};
pub use error::{BoxError, Error, ErrorKind, Outcome, SNIPPET_MAX_BYTES, SUCCESS_CODE};
pub use paging::{Items, Page, Paged, Pages};
pub use raw_json::RawJson;
pub use scalar::Scalar;
pub use secret::{PrivateKey, REDACTED};
pub use settle::{Phase, Settlement};
pub use transport::{HttpRequest, HttpResponse, HttpsTransport, Transport};
pub use validate::{FieldPath, RuleKind, ValidationErrors, Validator, Violation};
pub use wait::WaitPolicy;

pub use serde;
pub use serde_json;
