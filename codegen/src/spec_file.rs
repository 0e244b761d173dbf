//! The file format of `spec/*.yaml` as serde structs (see `spec/SCHEMA.md`).
//!
//! Every struct refuses unknown keys. Values whose place a diagnostic may need are wrapped
//! in [`Spanned`], which the loader fills with `file:line:column`. Nothing here is checked
//! beyond its shape: `check` does the rest.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::model::{self, Location};

mod rule_body;

/// Reserved struct name by which the loader recognises a [`Spanned`].
pub(crate) const SPANNED_NAME: &str = "$__baas_codegen_spanned";
/// Keys the loader feeds to a [`Spanned`], in order.
pub(crate) const SPANNED_FIELDS: &[&str] = &["$__file", "$__line", "$__column", "$__value"];

/// A value with the place of its YAML node.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    /// Where the value's node starts.
    pub loc: Location,
    /// The decoded value.
    pub value: T,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Spanned<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value of the spec")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Spanned<T>, A::Error> {
                let mut file = None;
                let mut line = None;
                let mut column = None;
                let mut value = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "$__file" => file = Some(map.next_value::<String>()?),
                        "$__line" => line = Some(map.next_value::<u64>()?),
                        "$__column" => column = Some(map.next_value::<u64>()?),
                        "$__value" => value = Some(map.next_value::<T>()?),
                        other => {
                            return Err(de::Error::unknown_field(other, SPANNED_FIELDS));
                        }
                    }
                }
                match (file, line, column, value) {
                    (Some(file), Some(line), Some(column), Some(value)) => Ok(Spanned {
                        loc: Location {
                            file,
                            line: usize::try_from(line).unwrap_or(usize::MAX),
                            column: usize::try_from(column).unwrap_or(usize::MAX),
                        },
                        value,
                    }),
                    _ => Err(de::Error::custom("spanned value without position")),
                }
            }
        }
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, V(PhantomData))
    }
}

/// A top-level entry of a file, with the place of its key.
#[derive(Debug, Clone)]
pub(crate) struct TopLevel<T> {
    /// Where the key is written.
    pub key: Location,
    /// The decoded value.
    pub value: T,
}

/// One decoded spec file.
#[derive(Debug, Default)]
pub(crate) struct SpecFile {
    pub api: Option<TopLevel<ApiSpec>>,
    pub envelope: Option<TopLevel<EnvelopeSpec>>,
    pub result_codes: Option<TopLevel<Vec<Spanned<ResultCodeSpec>>>>,
    pub notifications: Option<TopLevel<Vec<Spanned<NotificationSpec>>>>,
    pub decisions: Option<TopLevel<Vec<Spanned<DecisionSpec>>>>,
    pub enums: Option<TopLevel<Vec<Spanned<EnumSpec>>>>,
    pub field_sets: Option<TopLevel<Vec<Spanned<FieldSetSpec>>>>,
    pub records: Option<TopLevel<Vec<Spanned<RecordSpec>>>>,
    pub group: Option<TopLevel<Spanned<String>>>,
    pub group_doc: Option<TopLevel<String>>,
    pub operations: Option<TopLevel<Vec<Spanned<OperationSpec>>>>,
}

/// Provenance of a fact.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SourceSpec {
    Seed,
    Docs,
    Live,
    OnePeer,
    Sandbox,
}

impl From<SourceSpec> for model::Source {
    fn from(s: SourceSpec) -> Self {
        match s {
            SourceSpec::Seed => model::Source::Seed,
            SourceSpec::Docs => model::Source::Docs,
            SourceSpec::Live => model::Source::Live,
            SourceSpec::OnePeer => model::Source::OnePeer,
            SourceSpec::Sandbox => model::Source::Sandbox,
        }
    }
}

/// `api:`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ApiSpec {
    pub title: Spanned<String>,
    pub source_document: Spanned<String>,
    pub content_type: Option<Spanned<String>>,
    pub method: Option<Spanned<String>>,
    pub success_code: Spanned<String>,
    /// The revision of the bank's API this spec describes (free text).
    pub version: Option<Spanned<String>>,
    /// The version of the generated `baas-client` crate: `MAJOR.MINOR.PATCH`.
    pub client_version: Option<Spanned<String>>,
}

/// `envelope:`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnvelopeSpec {
    pub request: Spanned<Vec<Spanned<FieldSpec>>>,
    pub response: Spanned<Vec<Spanned<FieldSpec>>>,
}

/// An item of `result_codes:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultCodeSpec {
    pub code: Spanned<String>,
    /// UpperCamelCase variant name of the generated `ResultCode` enum.
    pub name: Spanned<String>,
    pub text: String,
    pub source: Option<SourceSpec>,
    pub retryable: Option<bool>,
}

/// An item of `notifications:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NotificationSpec {
    #[serde(rename = "type")]
    pub notification_type: Spanned<String>,
    pub name: Spanned<String>,
    pub doc: Option<String>,
    pub relates_to: Option<Vec<Spanned<String>>>,
    pub payload: Option<PayloadSpec>,
    pub source: Option<SourceSpec>,
}

/// `payload:` of a notification: exactly one of a record (the shape of `params`) or
/// "not shown".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PayloadSpec {
    pub record: Option<Spanned<String>>,
    pub unspecified: Option<String>,
}

/// An item of `decisions:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DecisionSpec {
    pub id: Spanned<String>,
    pub about: Spanned<String>,
    pub source_text: Spanned<String>,
    pub decision: Spanned<String>,
    pub reason: Spanned<String>,
}

/// `wire_type:` of an enum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EnumWireTypeSpec {
    String,
    Integer,
}

/// An item of `enums:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnumSpec {
    pub name: Spanned<String>,
    pub wire_type: EnumWireTypeSpec,
    /// `open: true`: an open value set (the codes listed are the ones known; requests may
    /// carry any other, as answers may).
    pub open: Option<bool>,
    pub doc: Option<String>,
    pub source: Option<SourceSpec>,
    pub values: Spanned<Vec<Spanned<EnumValueSpec>>>,
    pub decisions: Option<Vec<Spanned<String>>>,
}

/// A value of an enum.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnumValueSpec {
    /// Literal text of the wire value (`"1"`, `-1`, `PURCHASE_GOODS`).
    pub wire: Spanned<String>,
    pub name: Spanned<String>,
    pub doc: Option<String>,
    pub source: Option<SourceSpec>,
    /// What to use instead: the value is deprecated.
    pub deprecated: Option<Spanned<String>>,
}

/// An item of `field_sets:`: fields written once and included by records. Not a type:
/// it generates nothing by itself.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FieldSetSpec {
    pub name: Spanned<String>,
    /// What the fields have in common (required: the set is read on its own).
    pub doc: Spanned<String>,
    pub fields: Spanned<Vec<Spanned<FieldSpec>>>,
    /// Never allowed (a set cannot include sets); decoded so the checker can say why.
    pub include: Option<Spanned<Vec<Spanned<String>>>>,
}

/// An item of `records:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordSpec {
    pub name: Spanned<String>,
    pub doc: Option<String>,
    pub source: Option<SourceSpec>,
    /// Field sets whose fields come first, in order, before `fields:`.
    pub include: Option<Vec<Spanned<String>>>,
    pub fields: Vec<Spanned<FieldSpec>>,
    pub decisions: Option<Vec<Spanned<String>>>,
}

/// `required:` of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RequiredSpec {
    Yes,
    No,
    Conditional,
}

impl<'de> Deserialize<'de> for RequiredSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RequiredSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("true, false or conditional")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<RequiredSpec, E> {
                Ok(if b {
                    RequiredSpec::Yes
                } else {
                    RequiredSpec::No
                })
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RequiredSpec, E> {
                match s {
                    "conditional" => Ok(RequiredSpec::Conditional),
                    _ => Err(E::invalid_value(de::Unexpected::Str(s), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `wire:` of a decimal.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum DecimalWireSpec {
    String,
    Number,
}

/// A field: parameter, record field, response field or envelope field.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FieldSpec {
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    pub ty: Spanned<String>,
    pub required: Option<Spanned<RequiredSpec>>,
    pub doc: Option<String>,
    pub rules: Option<Vec<Spanned<RuleSpec>>>,
    pub source: Option<SourceSpec>,
    pub decisions: Option<Vec<Spanned<String>>>,
    pub rust_name: Option<Spanned<String>>,
    pub wire: Option<Spanned<DecimalWireSpec>>,
    /// What to use instead: the field is deprecated.
    pub deprecated: Option<Spanned<String>>,
}

/// `range:` bounds (literal decimal text).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RangeSpec {
    pub min: Option<Spanned<String>>,
    pub max: Option<Spanned<String>>,
}

#[cfg(test)]
pub(crate) use rule_body::RuleBody;
pub(crate) use rule_body::{RawArg, RuleSpec};

/// `params:` of an operation: a field list, or `{ unspecified: "..." }`.
#[derive(Debug)]
pub(crate) enum ParamsSpec {
    Fields(Vec<Spanned<FieldSpec>>),
    Unspecified(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnspecifiedParams {
    unspecified: String,
}

impl<'de> Deserialize<'de> for ParamsSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ParamsSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of fields or `{ unspecified: \"...\" }`")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ParamsSpec, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(ParamsSpec::Fields)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ParamsSpec, A::Error> {
                UnspecifiedParams::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|u| ParamsSpec::Unspecified(u.unspecified))
            }
        }
        d.deserialize_any(V)
    }
}

/// `when:` of `required_if`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WhenSpec {
    pub field: Option<Spanned<String>>,
    pub equals: Option<Spanned<String>>,
    pub sum: Option<Spanned<String>>,
    pub greater_than: Option<Spanned<String>>,
}

/// `required_if:`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RequiredIfSpec {
    pub field: Spanned<String>,
    pub when: Spanned<WhenSpec>,
}

/// `server_side:` of a constraint.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ServerSideSpec {
    pub fields: Vec<Spanned<String>>,
    pub text: String,
}

/// The constraint keys, shared by the short and the long form.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConstraintBody {
    pub required_if: Option<Spanned<RequiredIfSpec>>,
    pub at_least_one_of: Option<Spanned<Vec<Spanned<String>>>>,
    pub exactly_one_of: Option<Spanned<Vec<Spanned<String>>>>,
    pub server_side: Option<Spanned<ServerSideSpec>>,
}

/// An item of `constraints:`: one constraint key, or `constraint:` + `source:`/`doc:`/`decisions:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConstraintSpec {
    pub required_if: Option<Spanned<RequiredIfSpec>>,
    pub at_least_one_of: Option<Spanned<Vec<Spanned<String>>>>,
    pub exactly_one_of: Option<Spanned<Vec<Spanned<String>>>>,
    pub server_side: Option<Spanned<ServerSideSpec>>,
    pub constraint: Option<Spanned<ConstraintBody>>,
    pub source: Option<SourceSpec>,
    pub doc: Option<String>,
    pub decisions: Option<Vec<Spanned<String>>>,
}

/// `response:` of an operation: exactly one of the four forms.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResponseSpec {
    pub fields: Option<Vec<Spanned<FieldSpec>>>,
    pub record: Option<Spanned<String>>,
    pub unspecified: Option<String>,
    pub empty: Option<String>,
    pub source: Option<SourceSpec>,
}

/// An item of `operations:`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OperationSpec {
    pub name: Spanned<String>,
    pub path: Spanned<String>,
    pub doc: Option<String>,
    pub source: Option<SourceSpec>,
    pub moves_money: Option<bool>,
    pub otp: Option<bool>,
    pub params: Option<Spanned<ParamsSpec>>,
    pub constraints: Option<Vec<Spanned<ConstraintSpec>>>,
    pub response: Option<Spanned<ResponseSpec>>,
    pub decisions: Option<Vec<Spanned<String>>>,
    /// What to use instead: the operation is deprecated.
    pub deprecated: Option<Spanned<String>>,
    /// How the operation pages its results.
    pub paging: Option<Spanned<PagingSpec>>,
    /// The response field that is the application's OTP business id (`otp: true` calls).
    pub business_id: Option<Spanned<String>>,
    /// The request's own requestId is the application's OTP business id (`otp: true`
    /// calls whose answer carries no id).
    pub business_id_is_request_id: Option<Spanned<bool>>,
    /// The step of the OTP flow this operation is.
    pub otp_step: Option<Spanned<OtpStepSpec>>,
    /// For a status query: the response field holding the state, and its final values.
    pub final_states: Option<Spanned<FinalStatesSpec>>,
    /// For an OTP application: the status query (taking its business id) that tells
    /// whether a confirmation whose outcome is unknown arrived (its `final_states` name
    /// the values `awaiting_otp`).
    pub settled_by: Option<Spanned<String>>,
}

/// `final_states:` of a status query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FinalStatesSpec {
    /// Wire name of the response field holding the state.
    pub field: Spanned<String>,
    /// Its final values, as wire text.
    pub values: Vec<Spanned<String>>,
    /// The values in which the application still waits for its OTP (not confirmed), as
    /// wire text.
    pub awaiting_otp: Option<Vec<Spanned<String>>>,
}

/// `otp_step:` of an operation: exactly one of the three steps, naming its fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OtpStepSpec {
    /// Sends the OTP of an application.
    pub send: Option<OtpSendSpec>,
    /// Confirms an application with its OTP.
    pub confirm: Option<OtpConfirmSpec>,
    /// Groups applications under one, confirmed with one OTP.
    pub group: Option<OtpGroupSpec>,
}

/// `otp_step: { send: .. }`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OtpSendSpec {
    pub business_id: Spanned<String>,
    pub channel: Spanned<String>,
}

/// `otp_step: { confirm: .. }`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OtpConfirmSpec {
    pub business_id: Spanned<String>,
    pub code: Spanned<String>,
    /// When the OTP of an application that was not confirmed may be sent again, in
    /// partner text.
    pub reuse: Option<Spanned<String>>,
}

/// `otp_step: { group: .. }`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OtpGroupSpec {
    pub ids: Spanned<String>,
    pub result: Spanned<String>,
}

/// `paging:` of an operation: which parameters number and size the pages, and which
/// response fields hold the items and their total.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PagingSpec {
    /// The page-number parameter (`pageNo`).
    pub page: Spanned<String>,
    /// The page-size parameter (`pageSize`).
    pub size: Spanned<String>,
    /// The number of the first page (default 1).
    pub first_page: Option<Spanned<u64>>,
    /// The response field holding the page's items (absent when the response is not shown).
    pub items: Option<Spanned<String>>,
    /// The response field holding the total number of items.
    pub total: Option<Spanned<String>>,
}
