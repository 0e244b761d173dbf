//! One operation (part of the operations pass): its names, path, parameters (with
//! [`super::constraints`]), response, paging ([`super::paging`]), business id and final
//! states ([`super::final_states`]).

use super::constraints::{conditional_backed, constraints};
use super::fields::fields;
use super::final_states::final_states;
use super::known::Known;
use super::paging::paging;
use super::{code_list, names, Checker, Owner};
use crate::model::{self, Params, Response, TypeRef};
use crate::spec_file::{OperationSpec, ParamsSpec, ResponseSpec, Spanned};

/// Checks one operation of group `group`.
pub(super) fn operation(
    ck: &mut Checker,
    known: Known<'_>,
    op: &Spanned<OperationSpec>,
    group: &str,
) -> model::Operation {
    let s = &op.value;
    let name = s.name.value.clone();
    let owner = Owner::Operation(name.clone());
    let (rust_name, type_name) = rust_names(ck, s);
    let path = path(ck, s, &owner);
    let params = params(ck, known, op, &owner);
    let constraints = constraints(
        ck,
        known,
        s.constraints.as_deref().unwrap_or(&[]),
        &params,
        &owner,
    );
    if let Params::Fields { fields } = &params {
        conditional_backed(ck, fields, &constraints, &owner);
    }
    let response = match &s.response {
        None => {
            ck.error(
                &op.loc,
                format!("{owner} has no `response:`"),
                Some("write one of `{ fields: [...] }`, `{ record: Name }`, `{ unspecified: \"...\" }`, `{ empty: \"...\" }`".into()),
            );
            Response::Empty {
                note: String::new(),
            }
        }
        Some(r) => response(ck, known, r, &name),
    };
    let decisions = ck.decisions_of(&s.decisions, &owner.to_string());
    let deprecated = ck.deprecation(s.deprecated.as_ref(), &owner.to_string());
    let paging = s
        .paging
        .as_ref()
        .and_then(|p| paging(ck, p, &params, &response, &owner));
    let business_id = business_id(ck, op, &response, &owner);
    let final_states = s
        .final_states
        .as_ref()
        .and_then(|f| final_states(ck, known, f, &response, &owner));
    model::Operation {
        deprecated,
        paging,
        business_id,
        final_states,
        settled_by: None,
        name,
        rust_name,
        type_name,
        path,
        group: group.to_owned(),
        doc: s.doc.clone().unwrap_or_default(),
        source: s.source.map_or(model::Source::Seed, Into::into),
        moves_money: s.moves_money.unwrap_or(false),
        otp: s.otp.unwrap_or(false),
        params,
        constraints,
        response,
        decisions,
        location: op.loc.clone(),
    }
}

/// The operation's name (lowerCamelCase) and the Rust method and type names made from it:
/// no keyword, no method the generated client has itself.
fn rust_names(ck: &mut Checker, s: &OperationSpec) -> (String, String) {
    let name = s.name.value.as_str();
    if name.is_empty() {
        ck.error(
            &s.name.loc,
            "operation with an empty name",
            Some("name it in lowerCamelCase, e.g. `applyForCnyExpress`".into()),
        );
    } else if !names::is_lower_camel(name) {
        let hint = heck::ToLowerCamelCase::to_lower_camel_case(name);
        ck.error(
            &s.name.loc,
            format!("operation name `{name}` is not lowerCamelCase"),
            Some(if names::is_lower_camel(&hint) {
                format!("rename it, e.g. `{hint}`")
            } else {
                "rename it: a lowercase letter, then letters and digits".into()
            }),
        );
    }
    let rust_name = names::snake(name);
    let type_name = names::camel(name);
    if !name.is_empty() && (names::is_keyword(&rust_name) || names::is_keyword(&type_name)) {
        ck.error(
            &s.name.loc,
            format!(
                "operation `{name}` becomes the Rust keyword `{}`",
                if names::is_keyword(&rust_name) {
                    &rust_name
                } else {
                    &type_name
                }
            ),
            Some("rename the operation (its method and type names come from it)".into()),
        );
    }
    if crate::reserved::CLIENT_METHODS.contains(&rust_name.as_str()) {
        ck.error(
            &s.name.loc,
            format!("operation `{name}` becomes the method `Client::{rust_name}`, which the generated client already has"),
            Some(format!(
                "rename the operation; the generated client reserves the methods {}",
                code_list(crate::reserved::CLIENT_METHODS)
            )),
        );
    }
    (rust_name, type_name)
}

/// The path below the base URL: `/`, then letters, digits and `/-_.~`, no empty segment.
fn path(ck: &mut Checker, s: &OperationSpec, owner: &Owner) -> String {
    let path = s.path.value.clone();
    if !path.starts_with('/')
        || path.len() < 2
        || path.contains("//")
        || !path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/-_.~".contains(c))
    {
        ck.error(
            &s.path.loc,
            format!("path `{path}` of {owner} is not a plain URL path"),
            Some("write the path below the base URL, e.g. `/trans/applyForCnyExpress` (letters, digits, `/-_.~`)".into()),
        );
    }
    path
}

/// The parameters: a checked field list, or a note that the document does not show them.
fn params(
    ck: &mut Checker,
    known: Known<'_>,
    op: &Spanned<OperationSpec>,
    owner: &Owner,
) -> Params {
    match &op.value.params {
        None => {
            ck.error(
                &op.loc,
                format!("{owner} has no `params:`"),
                Some("write `params: []` if it takes none, or `params: { unspecified: \"...\" }` if the document does not show them".into()),
            );
            Params::Fields { fields: Vec::new() }
        }
        Some(p) => match &p.value {
            ParamsSpec::Fields(list) => Params::Fields {
                fields: fields(ck, known.declared, list, owner),
            },
            ParamsSpec::Unspecified(note) => Params::Unspecified { note: note.clone() },
        },
    }
}

/// Where the OTP business id of an `otp: true` operation comes from: `business_id:` (a
/// string field of its response) or `business_id_is_request_id: true` (the requestId it
/// was sent with); any other operation has none. (That every `otp: true` operation has
/// one when the spec marks an OTP flow is checked by the OTP pass.)
fn business_id(
    ck: &mut Checker,
    op: &Spanned<OperationSpec>,
    response: &Response,
    owner: &Owner,
) -> Option<model::BusinessId> {
    let s = &op.value;
    let by_request = s.business_id_is_request_id.as_ref().filter(|b| b.value);
    let otp = s.otp == Some(true);
    match (&s.business_id, by_request) {
        (Some(_), Some(r)) => {
            ck.error(
                &r.loc,
                format!("{owner} has both `business_id` and `business_id_is_request_id`"),
                Some("keep the one that names where the OTP's businessId comes from".into()),
            );
            None
        }
        // Whether an `otp: true` operation needs one depends on the spec marking an OTP
        // flow: the OTP pass reports it.
        (None, None) => None,
        (None, Some(r)) => {
            if !otp {
                ck.error(
                    &r.loc,
                    format!("{owner} has `business_id_is_request_id` but is not `otp: true`"),
                    Some(
                        "a business id is what an OTP confirms; add `otp: true` or remove it"
                            .into(),
                    ),
                );
                return None;
            }
            Some(model::BusinessId::RequestId)
        }
        (Some(b), None) => {
            let field = match response {
                Response::Fields { fields, .. } => fields
                    .iter()
                    .find(|f| f.wire_name == b.value && f.ty == TypeRef::String),
                _ => None,
            };
            let Some(field) = field else {
                ck.error(
                    &b.loc,
                    format!(
                        "`business_id: {}` of {owner} is not a string field of its response",
                        b.value
                    ),
                    Some(
                        "name the response field that sendOtp and confirmOperation take as businessId"
                            .into(),
                    ),
                );
                return None;
            };
            if !otp {
                ck.error(
                    &b.loc,
                    format!("{owner} has a `business_id` but is not `otp: true`"),
                    Some(
                        "a business id is what an OTP confirms; add `otp: true` or remove it"
                            .into(),
                    ),
                );
                return None;
            }
            Some(model::BusinessId::ResponseField {
                wire_name: field.wire_name.clone(),
                rust_name: field.rust_name.clone(),
            })
        }
    }
}

fn response(ck: &mut Checker, known: Known<'_>, r: &Spanned<ResponseSpec>, op: &str) -> Response {
    let s = &r.value;
    let forms = [
        s.fields.is_some(),
        s.record.is_some(),
        s.unspecified.is_some(),
        s.empty.is_some(),
    ];
    let count = forms.iter().filter(|x| **x).count();
    if count != 1 {
        ck.error(
            &r.loc,
            format!("the response of operation `{op}` must have exactly one of `fields`, `record`, `unspecified`, `empty` (found {count})"),
            Some("keep one form".into()),
        );
        return Response::Empty {
            note: String::new(),
        };
    }
    let source = s.source.map_or(model::Source::Seed, Into::into);
    if let Some(f) = &s.fields {
        return Response::Fields {
            fields: fields(ck, known.declared, f, &Owner::Response(op.to_owned())),
            source,
        };
    }
    if let Some(rec) = &s.record {
        if !known.declared.records.contains(&rec.value) {
            let help = match crate::diagnostics::suggest::did_you_mean(
                &rec.value,
                known.declared.records.iter().map(String::as_str),
            ) {
                Some(m) => format!("did you mean `{m}`?"),
                None => "name a record declared under `records:`".into(),
            };
            ck.error(
                &rec.loc,
                format!(
                    "unknown record `{}` for the response of operation `{op}`",
                    rec.value
                ),
                Some(help),
            );
        }
        return Response::Record {
            record: rec.value.clone(),
            received_name: rec.value.clone(),
            source,
        };
    }
    if s.source.is_some() {
        ck.error(
            &r.loc,
            format!("`source:` on a response of operation `{op}` that has no shape"),
            Some("`source:` says where a response shape comes from; remove it here".into()),
        );
    }
    match (&s.unspecified, &s.empty) {
        (Some(note), _) => Response::Unspecified { note: note.clone() },
        (_, Some(note)) => Response::Empty { note: note.clone() },
        _ => Response::Empty {
            note: String::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, operations_of};

    fn one(op_yaml: &str) -> (model::Operation, Vec<String>) {
        let (mut groups, ck) = operations_of(&format!("group: g\noperations:\n  - {op_yaml}\n"));
        (groups.remove(0).operations.remove(0), errors(&ck))
    }

    #[test]
    fn names_and_the_response_record_resolve() {
        let (op, errors) = one(
            "{ name: getTransferDetail, path: /trans/get-detail_v1.x~, params: [{ name: id, type: string, required: true }], response: { record: Detail } }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(op.rust_name, "get_transfer_detail");
        assert_eq!(op.type_name, "GetTransferDetail");
        assert!(matches!(&op.response, Response::Record { record, .. } if record == "Detail"));
        assert!(matches!(&op.params, Params::Fields { fields } if fields.len() == 1));
    }

    #[test]
    fn malformed_operations_are_reported_in_order() {
        let (op, errors) = one(
            "{ name: New, path: \"trans//x\", response: { record: Detial, empty: e }, business_id: id }",
        );
        assert_eq!(op.rust_name, "new");
        assert!(op.business_id.is_none());
        assert_eq!(
            errors,
            [
                "s/t.yaml:3:13: operation name `New` is not lowerCamelCase",
                "s/t.yaml:3:13: operation `New` becomes the method `Client::new`, which the generated client already has",
                "s/t.yaml:3:24: path `trans//x` of operation `New` is not a plain URL path",
                "s/t.yaml:3:5: operation `New` has no `params:`",
                "s/t.yaml:3:46: the response of operation `New` must have exactly one of `fields`, `record`, `unspecified`, `empty` (found 2)",
                "s/t.yaml:3:89: `business_id: id` of operation `New` is not a string field of its response",
            ]
        );
    }

    #[test]
    fn a_business_id_needs_otp() {
        let (op, errors) = one(
            "{ name: pay, path: /pay, params: [], response: { fields: [{ name: txId, type: string }, { name: other, type: Kind }] }, business_id: txId }",
        );
        assert_eq!(op.business_id, None);
        assert_eq!(
            errors,
            ["s/t.yaml:3:138: operation `pay` has a `business_id` but is not `otp: true`"]
        );
        let (op, errors) = one(
            "{ name: pay, path: /pay, otp: true, params: [], response: { fields: [{ name: txId, type: string }] }, business_id: txId }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            op.business_id,
            Some(model::BusinessId::ResponseField {
                wire_name: "txId".into(),
                rust_name: "tx_id".into()
            })
        );
    }

    #[test]
    fn a_business_id_may_be_the_request_id() {
        let (op, errors) = one(
            "{ name: pay, path: /pay, otp: true, business_id_is_request_id: true, params: [], response: { empty: e } }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(op.business_id, Some(model::BusinessId::RequestId));
        let (_, errors) = one(
            "{ name: pay, path: /pay, business_id_is_request_id: true, params: [], response: { empty: e } }",
        );
        assert_eq!(
            errors,
            ["s/t.yaml:3:57: operation `pay` has `business_id_is_request_id` but is not `otp: true`"]
        );
        let (_, errors) = one("{ name: pay, path: /pay, params: [], response: { record: Nope } }");
        assert_eq!(
            errors,
            ["s/t.yaml:3:62: unknown record `Nope` for the response of operation `pay`"]
        );
    }
}
