//! The checked model: what the front end (`load` + `check`) produces from `spec/` and
//! what every emitter reads. Every name here is already validated: types resolve, rules
//! fit their types, Rust names are unique, not keywords, and not names the generated crate
//! itself uses (see `reserved.rs`).
//!
//! The model is also printed as JSON by `baas-codegen model`; its shape is documented in
//! `codegen/MODEL.md`. Change both together.

use serde::Serialize;

use crate::rules::RuleKind;

pub mod number;
pub mod types;

pub use number::{Number, NumberError};
pub use types::{DecimalWire, Emptiness, TypeRef};

/// Where an item was written in `spec/`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The spec folder's name followed by the path inside it, `/`-separated (e.g.
    /// `spec/operations/cny.yaml`): the same text as in diagnostics, and the same on every
    /// machine (never an absolute path).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// Where a fact comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The source document (`baas-api-spec.md`).
    Seed,
    /// `public-facts.md`, public documentation.
    Docs,
    /// `public-facts.md`, reported by integrations working against the sandbox.
    Live,
    /// `public-facts.md`, seen in one integration only.
    OnePeer,
    /// Not public: the sandbox's own choice, which the client and the sandbox share.
    Sandbox,
}

impl Source {
    /// Where the fact comes from, in a partner's words (for generated docs in every
    /// language); `None` for the bank's API document itself.
    pub fn partner_words(self) -> Option<&'static str> {
        Some(match self {
            Source::Seed => return None,
            Source::Docs => "From the bank's public documentation, not from its API document.",
            Source::Live => {
                "Seen on the live service by integrations; not in the bank's API document."
            }
            Source::OnePeer => {
                "Seen on the live service in one integration; not confirmed by the bank."
            }
            Source::Sandbox => {
                "Not public: this is the sandbox's choice, and the live service may differ."
            }
        })
    }

    /// The spec's word for the source (`seed`, `docs`, `live`, `one_peer`, `sandbox`).
    pub fn spec_word(self) -> &'static str {
        match self {
            Source::Seed => "seed",
            Source::Docs => "docs",
            Source::Live => "live",
            Source::OnePeer => "one_peer",
            Source::Sandbox => "sandbox",
        }
    }
}

/// The crate version of a spec whose `api:` gives no `client_version`.
pub const DEFAULT_CLIENT_VERSION: &str = "0.1.0";

/// A `MAJOR.MINOR.PATCH` version (no pre-release or build part).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Semver {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
}

impl Semver {
    /// Parses `1.4.0`; `None` for anything else (`1.4`, `v1.4.0`, `1.4.0-rc1`, `01.2.3`).
    pub fn parse(text: &str) -> Option<Semver> {
        let mut parts = text.split('.').map(|p| {
            let ok = !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p == "0" || !p.starts_with('0'));
            ok.then(|| p.parse::<u64>().ok()).flatten()
        });
        let v = Semver {
            major: parts.next()??,
            minor: parts.next()??,
            patch: parts.next()??,
        };
        parts.next().is_none().then_some(v)
    }
}

impl std::fmt::Display for Semver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The whole API.
#[derive(Debug, Clone, Serialize)]
pub struct Api {
    pub title: String,
    pub source_document: String,
    pub success_code: String,
    /// `api.version`: the revision of the bank's API this spec describes (`""` when not
    /// given).
    pub version: String,
    /// `api.client_version`: the generated crate's version, `MAJOR.MINOR.PATCH`
    /// ([`DEFAULT_CLIENT_VERSION`] when not given).
    pub client_version: String,
    pub envelope: Envelope,
    pub result_codes: Vec<ResultCode>,
    /// Groups in spec order; each holds its operations in spec order.
    pub groups: Vec<Group>,
    /// Sorted by name.
    pub records: Vec<Record>,
    /// Sorted by name.
    pub enums: Vec<EnumDef>,
    pub notifications: Vec<Notification>,
    /// Sorted by id.
    pub decisions: Vec<Decision>,
    /// The OTP flow, when the spec marks its steps.
    pub otp_flow: Option<OtpFlow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Envelope {
    pub request: Vec<Field>,
    pub response: Vec<Field>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ResultCode {
    pub code: String,
    /// UpperCamelCase variant name of the generated `ResultCode` enum, never `Unknown`.
    pub name: String,
    pub text: String,
    pub source: Source,
    /// Whether a caller may retry after this code (only where a fact says so).
    pub retryable: bool,
}

/// Ends `text` with a full stop unless it already ends a sentence (or a lead-in, `:`):
/// spec text such as `"0 not submitted"` followed by a generated sentence.
pub fn end_sentence(text: &mut String) {
    if !text.ends_with(['.', '!', '?', ':']) {
        text.push('.');
    }
}

impl ResultCode {
    /// The service's text of this code as a sentence: `"system busy, retry later"` becomes
    /// `"System busy, retry later."`.
    pub fn text_sentence(&self) -> String {
        let text = self.text.trim();
        let mut chars = text.chars();
        let mut out: String = match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => return format!("Result code {}.", self.code),
        };
        end_sentence(&mut out);
        out
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// snake_case module name, e.g. `cny`.
    pub name: String,
    pub doc: String,
    pub operations: Vec<Operation>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Operation {
    /// Operation name as written in the spec, camelCase (`applyForCnyExpress`).
    pub name: String,
    /// Rust method name, snake_case (`apply_for_cny_express`).
    pub rust_name: String,
    /// UpperCamelCase stem of the generated types (`ApplyForCnyExpress` →
    /// `ApplyForCnyExpressRequest`, `ApplyForCnyExpressResponse`).
    pub type_name: String,
    /// Wire path, e.g. `/trans/applyForCnyExpress`.
    pub path: String,
    /// Group (module) name.
    pub group: String,
    pub doc: String,
    pub source: Source,
    pub moves_money: bool,
    pub otp: bool,
    pub params: Params,
    pub constraints: Vec<Constraint>,
    pub response: Response,
    /// Ids of decisions about this operation.
    pub decisions: Vec<String>,
    /// `Some(note)` when the operation is deprecated: what to use instead.
    pub deprecated: Option<String>,
    /// How the operation pages its results, when it does.
    pub paging: Option<Paging>,
    /// Where the OTP business id of the application comes from (every `otp` operation
    /// has one).
    pub business_id: Option<BusinessId>,
    /// For a status query: where the state is read and which values are final.
    pub final_states: Option<FinalStates>,
    /// For an OTP application: the status query that settles a confirmation whose
    /// outcome is unknown.
    pub settled_by: Option<SettledBy>,
    pub location: Location,
}

/// The status query that tells whether an application's confirmation arrived: sent with
/// the business id, its state is read where its `final_states` say, and one of the
/// `awaiting_otp` values means not confirmed.
#[derive(Debug, Clone, Serialize)]
pub struct SettledBy {
    /// The query's operation name.
    pub query: String,
    /// Its client method.
    pub rust_name: String,
    /// Its group (module).
    pub group: String,
    /// Stem of its types.
    pub type_name: String,
    /// Wire name of its one required parameter, which takes the business id.
    pub param_wire: String,
    /// Rust name of that parameter.
    pub param_rust: String,
    /// The query's state (its `final_states`, with `awaiting_otp` values).
    pub states: FinalStates,
}

/// Where an OTP application's business id comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum BusinessId {
    /// A string field of the response.
    ResponseField {
        wire_name: String,
        rust_name: String,
    },
    /// The requestId the call was sent with.
    RequestId,
}

/// The final states of a status query.
#[derive(Debug, Clone, Serialize)]
pub struct FinalStates {
    /// Wire name of the response field holding the state.
    pub wire_name: String,
    /// Rust name of that field in the response type, or `None` when the response is
    /// raw JSON (the state is then read as the member's text).
    pub rust_name: Option<String>,
    /// The final values, as wire text.
    pub values: Vec<String>,
    /// The value set of the field, when it has one: the final values are then compared
    /// as its variants (`values` are all listed values of it).
    pub enum_name: Option<String>,
    /// The values in which an application still waits for its OTP, as wire text (empty
    /// when the spec names none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub awaiting_otp: Vec<String>,
}

/// The OTP flow: which operations send and confirm an OTP and group applications, and
/// their fields (resolved by the checker; every other parameter of them is optional).
#[derive(Debug, Clone, Serialize)]
pub struct OtpFlow {
    pub send: OtpStep,
    pub confirm: OtpStep,
    pub group: Option<OtpStep>,
    /// When the OTP of an application that was not confirmed may be sent again (the
    /// confirm step's `reuse`), in partner text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub otp_reuse: Option<String>,
}

/// One step of the OTP flow.
#[derive(Debug, Clone, Serialize)]
pub struct OtpStep {
    /// Operation name.
    pub operation: String,
    /// Its client method.
    pub rust_name: String,
    /// Its group (module).
    pub group: String,
    /// Stem of its types.
    pub type_name: String,
    /// Rust name of the parameter holding the business id (send, confirm) or the ids
    /// (group, an array of strings).
    pub business_id: String,
    /// Rust name of the second parameter: the channel (send) or the code (confirm); for
    /// the group step, the response field holding the new application id.
    pub other: String,
    /// Wire name of `other`.
    pub other_wire: String,
    /// Type of `other` (the channel's value set for send).
    pub other_ty: TypeRef,
}

/// How a paged operation pages (resolved against its parameters and response).
#[derive(Debug, Clone, Serialize)]
pub struct Paging {
    /// The page-number parameter (required, int, long or string).
    pub page: PagingField,
    /// The page-size parameter (required, int, long or string).
    pub size: PagingField,
    /// The number of the first page.
    pub first_page: i64,
    /// The response field holding the items, when the response is shown: the client
    /// then has a paginator.
    pub items: Option<PagingItems>,
    /// The response field holding the total number of items (int or long).
    pub total: Option<PagingField>,
}

/// A parameter or response field named by `paging:`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PagingField {
    pub wire_name: String,
    pub rust_name: String,
    /// Its type: `int`, `long` or `string`.
    pub ty: TypeRef,
}

/// The response field holding a page's items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PagingItems {
    pub wire_name: String,
    pub rust_name: String,
    /// The type of one item.
    pub item: TypeRef,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Params {
    /// The parameters are listed.
    Fields { fields: Vec<Field> },
    /// The document does not show the parameters.
    Unspecified { note: String },
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Response {
    /// `data` holds these fields.
    Fields { fields: Vec<Field>, source: Source },
    /// `data` is this record; `received_name` is its received shape (see
    /// `TypeRef::Record`).
    Record {
        record: String,
        received_name: String,
        source: Source,
    },
    /// The document does not show `data`.
    Unspecified { note: String },
    /// Code and msg only.
    Empty { note: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Requirement {
    Required,
    Optional,
    /// Required under a condition expressed by a constraint of the operation.
    Conditional,
}

#[derive(Debug, Clone, Serialize)]
pub struct Field {
    /// Exact wire name (`oderArray`).
    pub wire_name: String,
    /// Rust field name, snake_case, never a keyword (`oder_array`).
    pub rust_name: String,
    pub ty: TypeRef,
    pub required: Requirement,
    pub doc: String,
    pub rules: Vec<Rule>,
    pub source: Source,
    pub decisions: Vec<String>,
    /// `Some(note)` when the field is deprecated.
    pub deprecated: Option<String>,
    pub location: Location,
}

impl Field {
    /// Whether the sent shape stores this field as an `Option` (it is not `required:
    /// true`). In the received shape every field is an `Option`.
    pub fn optional_when_sent(&self) -> bool {
        self.required != Requirement::Required
    }
}

/// A parameter named by a constraint, resolved by the checker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParamRef {
    /// Wire name (`payType`).
    pub wire_name: String,
    /// Rust field name (`pay_type`).
    pub rust_name: String,
    /// Whether the sent shape stores it as an `Option`.
    pub optional: bool,
    /// Its empty value, when its type has one ([`TypeRef::emptiness`]): then present
    /// means set and non-empty.
    pub empty: Option<Emptiness>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Rule {
    pub kind: RuleKind,
    pub source: Source,
    pub doc: String,
    pub location: Location,
}

#[derive(Debug, Clone, Serialize)]
pub struct Constraint {
    pub kind: ConstraintKind,
    pub source: Source,
    pub doc: String,
    pub decisions: Vec<String>,
    pub location: Location,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "constraint")]
pub enum ConstraintKind {
    /// `field` must be present when `when` holds.
    RequiredIf { field: ParamRef, when: Condition },
    /// At least one of these must be present.
    AtLeastOneOf { fields: Vec<ParamRef> },
    /// Exactly one of these must be present.
    ExactlyOneOf { fields: Vec<ParamRef> },
    /// Only the service can check this.
    ServerSide { fields: Vec<String>, text: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "condition")]
pub enum Condition {
    /// The parameter `field` equals `value` (wire text of a string / enum value, as
    /// declared by the enum).
    Equals { field: ParamRef, value: String },
    /// The sum of the decimal `item` (a field of the record; `optional` refers to the
    /// record's sent shape) over the elements of the array parameter `array` exceeds
    /// `value`.
    SumGreaterThan {
        array: ParamRef,
        item: ParamRef,
        value: Number,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EnumWireType {
    String,
    Integer,
}

#[derive(Debug, Clone, Serialize)]
pub struct EnumDef {
    /// UpperCamelCase Rust type name, as written in the spec.
    pub name: String,
    pub wire_type: EnumWireType,
    /// An open value set: requests may carry a value it does not list (answers always
    /// may). Closed sets refuse one in requests by their type.
    pub open: bool,
    pub doc: String,
    pub source: Source,
    pub values: Vec<EnumValue>,
    pub decisions: Vec<String>,
    pub location: Location,
}

#[derive(Debug, Clone, Serialize)]
pub struct EnumValue {
    /// Wire value as text (`"1"`, `"PURCHASE_GOODS"`, `"-1"`); for integer enums it
    /// parses as an `i64`.
    pub wire: String,
    /// UpperCamelCase variant name, never `Unknown`.
    pub name: String,
    pub doc: String,
    pub source: Source,
    /// The wire value as an integer, for integer enums (parsed by the checker).
    pub integer: Option<i64>,
    /// `Some(note)` when the value is deprecated.
    pub deprecated: Option<String>,
}

impl EnumDef {
    /// What the Python and TypeScript SDKs say of `value`: its doc, then where it is known
    /// from when that differs from the value set's own source (`6` of an enum seen live,
    /// reported by one integration), as the Rust enum says.
    pub fn value_doc(&self, value: &EnumValue) -> String {
        let mut doc = value.doc.trim().to_owned();
        if value.source != self.source {
            if let Some(words) = value.source.partner_words() {
                if !doc.is_empty() {
                    end_sentence(&mut doc);
                    doc.push(' ');
                }
                doc.push_str(words);
            }
        }
        doc
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// UpperCamelCase Rust type name.
    pub name: String,
    pub doc: String,
    pub source: Source,
    pub fields: Vec<Field>,
    pub decisions: Vec<String>,
    /// True when some operation's request uses this record (directly or nested).
    pub used_in_request: bool,
    /// True when some response uses this record (directly or nested).
    pub used_in_response: bool,
    /// Name of the shape decoded from responses: `name`, or `<name>Received` when the
    /// record is also sent (see `TypeRef::Record`).
    pub received_name: String,
    pub location: Location,
}

impl Record {
    /// Whether the record has two shapes (sent `name`, received `received_name`).
    pub fn has_two_shapes(&self) -> bool {
        self.used_in_request && self.used_in_response
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Notification {
    /// Wire notificationType, e.g. `"0028"`.
    pub notification_type: String,
    /// UpperCamelCase name.
    pub name: String,
    pub doc: String,
    /// Operation names this notification relates to.
    pub relates_to: Vec<String>,
    /// Payload note when not shown.
    pub payload_note: String,
    /// The record `params` holds, when the payload is shown (its received shape).
    pub payload: Option<PayloadRecord>,
    pub source: Source,
}

/// The record a notification's `params` holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PayloadRecord {
    /// The record's name.
    pub record: String,
    /// The name of its received shape.
    pub received_name: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    pub id: String,
    pub about: String,
    pub source_text: String,
    pub decision: String,
    pub reason: String,
}

impl Api {
    /// All operations in spec order (groups in order, then operations in order).
    pub fn operations(&self) -> impl Iterator<Item = &Operation> {
        self.groups.iter().flat_map(|g| g.operations.iter())
    }

    pub fn record(&self, name: &str) -> Option<&Record> {
        self.records.iter().find(|r| r.name == name)
    }

    pub fn enum_def(&self, name: &str) -> Option<&EnumDef> {
        self.enums.iter().find(|e| e.name == name)
    }

    pub fn decision(&self, id: &str) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.id == id)
    }
}
