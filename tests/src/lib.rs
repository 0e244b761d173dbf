//! Tests of the generator and across crates (see `tests/tests/`).
//!
//! [`fixtures`] holds the generator's output for the small specs in
//! `tests/fixtures/gen/`: checked in and compiled here, so the snapshot tests compare
//! them with a fresh render *and* the compiler checks that they build.
//!
//! [`source_doc`] reads the bank's Markdown API document, for the cross-check of
//! `spec/` against it (`tests/tests/spec_matches_source.rs`).

pub mod fixtures;
pub mod fuzz_bodies;
pub mod source_doc;

/// The Rust examples of the root `README.md`, compiled (and the sandbox one run) by
/// `cargo test`, so the partner's first call cannot drift from the generated API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

/// A spec change that moves required fields must stop code written for the old crate
/// from compiling, never compile with values in other fields.
///
/// `fixtures::evolution_v1` and `fixtures::evolution_v2` are two versions of one
/// operation: `beneficiaryBankCity` became optional and `beneficiaryEmail` required. A
/// partner's call written for version 1 compiles against it:
///
/// ```
/// use baas_tests::fixtures::evolution_v1::swift::{
///     TelegraphicTransferRequest, TelegraphicTransferRequired,
/// };
/// let request = TelegraphicTransferRequest::new(TelegraphicTransferRequired {
///     payer_account_id: "1000000001".into(),
///     beneficiary_bank_city: "Frankfurt".into(),
///     beneficiary_account_id: "DE89370400440532013000".into(),
///     beneficiary_name: "Jane".into(),
///     currency: "EUR".into(),
/// });
/// let json = serde_json::to_value(&request).unwrap();
/// assert_eq!(json["beneficiaryAccountId"], "DE89370400440532013000");
/// assert_eq!(json["beneficiaryBankCity"], "Frankfurt");
/// ```
///
/// The same call against version 2 does not compile: the removed required field is an
/// unknown field of the struct literal (E0560)…
///
/// ```compile_fail,E0560
/// use baas_tests::fixtures::evolution_v2::swift::{
///     TelegraphicTransferRequest, TelegraphicTransferRequired,
/// };
/// let request = TelegraphicTransferRequest::new(TelegraphicTransferRequired {
///     payer_account_id: "1000000001".into(),
///     beneficiary_bank_city: "Frankfurt".into(),
///     beneficiary_account_id: "DE89370400440532013000".into(),
///     beneficiary_name: "Jane".into(),
///     currency: "EUR".into(),
/// });
/// ```
///
/// …and, once that line is dropped, the new required field is missing (E0063):
///
/// ```compile_fail,E0063
/// use baas_tests::fixtures::evolution_v2::swift::{
///     TelegraphicTransferRequest, TelegraphicTransferRequired,
/// };
/// let request = TelegraphicTransferRequest::new(TelegraphicTransferRequired {
///     payer_account_id: "1000000001".into(),
///     beneficiary_account_id: "DE89370400440532013000".into(),
///     beneficiary_name: "Jane".into(),
///     currency: "EUR".into(),
/// });
/// ```
///
/// Swapping two fields of the same type is not a silent change either: each value is
/// written next to its name, and the wire names follow the Rust names.
///
/// ```
/// use baas_tests::fixtures::evolution_v2::swift::{
///     TelegraphicTransferRequest, TelegraphicTransferRequired,
/// };
/// let request = TelegraphicTransferRequest::new(TelegraphicTransferRequired {
///     beneficiary_name: "Jane".into(),
///     beneficiary_email: "jane@example.com".into(),
///     currency: "EUR".into(),
///     beneficiary_account_id: "DE89370400440532013000".into(),
///     payer_account_id: "1000000001".into(),
/// })
/// .beneficiary_bank_city("Frankfurt"); // deprecated in v2: a warning, not an error
/// let json = serde_json::to_value(&request).unwrap();
/// assert_eq!(json["payerAccountId"], "1000000001");
/// assert_eq!(json["beneficiaryEmail"], "jane@example.com");
/// ```
///
/// Leaving out a required field of a record nested in a request does not compile either:
///
/// ```compile_fail,E0063
/// use baas_tests::fixtures::nested_records::records::{OrderItem, OrderItemRequired};
/// let item = OrderItem::new(OrderItemRequired {
///     product_name: "p".into(),
///     quantity: 1,
/// });
/// ```
#[cfg(doctest)]
pub struct RequiredFieldsByName;
