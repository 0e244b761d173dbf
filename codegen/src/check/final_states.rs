//! `final_states:` of an operation (part of the operations pass): the response field
//! holding a state, and the wire values after which it no longer changes.

use super::known::Known;
use super::{Checker, Owner};
use crate::model::{self, Response, TypeRef};
use crate::spec_file::{FinalStatesSpec, Spanned};

/// Resolves `final_states:` against the response: a listed field (or one of the
/// response record), or a member of a raw JSON response.
pub(super) fn final_states(
    ck: &mut Checker,
    known: Known<'_>,
    f: &Spanned<FinalStatesSpec>,
    response: &Response,
    owner: &Owner,
) -> Option<model::FinalStates> {
    let spec = &f.value;
    let name = &spec.field;
    if spec.values.is_empty() {
        ck.error(
            &f.loc,
            format!("`final_states` of {owner} lists no value"),
            Some("list the wire values after which the state no longer changes".into()),
        );
        return None;
    }
    let field = match response {
        Response::Fields { fields, .. } => {
            fields.iter().find(|x| x.wire_name == name.value).cloned()
        }
        Response::Record { record, .. } => known.records.field(record, &name.value).cloned(),
        Response::Unspecified { .. } | Response::Empty { .. } => None,
    };
    let Some(field) = field else {
        ck.error(
            &name.loc,
            format!(
                "`final_states: {{ field: {} }}` of {owner} is not a field of its response",
                name.value
            ),
            Some("name the response field that holds the state".into()),
        );
        return None;
    };
    let fits = match &field.ty {
        TypeRef::String | TypeRef::Int | TypeRef::Long => true,
        TypeRef::Enum { name: e } => {
            if let Some(info) = known.declared.enums.get(e) {
                let wires = info.wires.clone();
                let awaiting = spec.awaiting_otp.iter().flatten();
                for v in spec.values.iter().chain(awaiting) {
                    if !wires.contains(&v.value) {
                        ck.error(
                            &v.loc,
                            format!(
                                "final state `{}` of {owner} is not a value of enum `{e}`",
                                v.value
                            ),
                            Some(format!("use one of its wire values: {}", wires.join(", "))),
                        );
                    }
                }
            }
            true
        }
        _ => false,
    };
    if !fits {
        ck.error(
            &name.loc,
            format!("`final_states: {{ field: {} }}` of {owner} is not a string, int, long or enum field", name.value),
            Some("the state is compared by its wire text".into()),
        );
        return None;
    }
    let enum_name = match &field.ty {
        TypeRef::Enum { name } => Some(name.clone()),
        _ => None,
    };
    let awaiting_otp: Vec<String> = spec
        .awaiting_otp
        .iter()
        .flatten()
        .map(|v| v.value.clone())
        .collect();
    for v in spec.awaiting_otp.iter().flatten() {
        if spec.values.iter().any(|f| f.value == v.value) {
            ck.error(
                &v.loc,
                format!(
                    "`awaiting_otp` value `{}` of {owner} is also final",
                    v.value
                ),
                Some("an application waiting for its OTP is not in a final state".into()),
            );
        }
    }
    Some(model::FinalStates {
        wire_name: field.wire_name.clone(),
        rust_name: Some(field.rust_name.clone()),
        values: spec.values.iter().map(|v| v.value.clone()).collect(),
        enum_name,
        awaiting_otp,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, operations_of};

    fn check(response: &str, final_states: &str) -> (Option<model::FinalStates>, Vec<String>) {
        let (mut groups, ck) = operations_of(&format!(
            "group: g\noperations:\n  - name: get\n    path: /get\n    params: []\n    response: {response}\n    final_states: {final_states}\n"
        ));
        let op = groups.remove(0).operations.remove(0);
        (op.final_states, errors(&ck))
    }

    #[test]
    fn a_field_of_the_response_record_never_of_raw_json() {
        let (f, errors) = check(
            "{ record: Detail }",
            "{ field: status, values: [\"1\", \"-1\"] }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let f = f.expect("final states");
        assert_eq!(f.rust_name.as_deref(), Some("status"));
        assert_eq!(f.values, ["1", "-1"]);
        assert_eq!(f.enum_name.as_deref(), Some("Status"));
        let (f, errors) = check("{ unspecified: u }", "{ field: state, values: [DONE] }");
        assert!(f.is_none(), "a state is read from a typed field only");
        assert_eq!(
            errors,
            ["s/t.yaml:7:28: `final_states: { field: state }` of operation `get` is not a field of its response"]
        );
    }

    #[test]
    fn values_and_fields_are_checked() {
        let (f, errors) = check("{ record: Detail }", "{ field: status, values: [\"2\"] }");
        assert!(f.is_some(), "the field resolves; the value is reported");
        assert_eq!(
            errors,
            ["s/t.yaml:7:45: final state `2` of operation `get` is not a value of enum `Status`"]
        );
        let (f, errors) = check("{ record: Detail }", "{ field: note, values: [x] }");
        assert!(f.is_none());
        assert_eq!(
            errors,
            ["s/t.yaml:7:28: `final_states: { field: note }` of operation `get` is not a string, int, long or enum field"]
        );
    }
}
