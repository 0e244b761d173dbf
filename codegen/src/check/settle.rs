//! Cross-check, settling a confirmation: each `settled_by:` of an OTP application names a
//! status query that takes the application's business id as its one required parameter
//! and whose `final_states` list the values `awaiting_otp` (still waiting for the OTP),
//! and the confirm step says when an OTP may be sent again (`reuse`).

use super::{Checker, Owner};
use crate::model::{self, Params, Requirement, TypeRef};
use crate::spec_file::Spanned;

/// Resolves every `settled_by:` (each with the name of its operation) against the
/// checked operations, and sets it on its operation.
pub(super) fn settled_by(
    ck: &mut Checker,
    marks: &[(&Spanned<String>, String)],
    groups: &mut [model::Group],
    flow: Option<&model::OtpFlow>,
) {
    let mut resolved = Vec::new();
    for (query, op_name) in marks {
        let ops = || groups.iter().flat_map(|g| g.operations.iter());
        let Some(op) = ops().find(|o| &o.name == op_name) else {
            continue;
        };
        let owner = Owner::Operation(op.name.clone());
        if !may_be_settled(ck, query, &owner, op, flow) {
            continue;
        }
        let Some(q) = ops().find(|o| o.name == query.value) else {
            ck.error(
                &query.loc,
                format!(
                    "`settled_by: {}` of {owner} is not an operation",
                    query.value
                ),
                Some("name the status query that takes the application's business id".into()),
            );
            continue;
        };
        if let Some(settle) = settling_query(ck, query, &owner, q) {
            resolved.push((op_name.clone(), settle));
        }
    }
    for (name, settle) in resolved {
        let op = groups
            .iter_mut()
            .flat_map(|g| g.operations.iter_mut())
            .find(|o| o.name == name);
        if let Some(op) = op {
            op.settled_by = Some(settle);
        }
    }
}

/// Whether `op` may have a `settled_by`: it has a business id, and the spec has an OTP
/// flow whose confirm step says when an OTP may be sent again; reports what is missing.
fn may_be_settled(
    ck: &mut Checker,
    query: &Spanned<String>,
    owner: &Owner,
    op: &model::Operation,
    flow: Option<&model::OtpFlow>,
) -> bool {
    if op.business_id.is_none() {
        ck.error(
            &query.loc,
            format!("{owner} has `settled_by` but no business id"),
            Some("`settled_by` is for an `otp: true` operation with `business_id`".into()),
        );
        return false;
    }
    match flow {
        None => {
            ck.error(
                &query.loc,
                format!("{owner} has `settled_by`, but the spec has no OTP flow"),
                Some("mark the operations that send and confirm an OTP with `otp_step:`".into()),
            );
            false
        }
        Some(f) if f.otp_reuse.is_none() => {
            ck.error(
                &query.loc,
                format!("{owner} has `settled_by`, but the confirm step has no `reuse`"),
                Some("say, in `otp_step: { confirm: { reuse: \"...\" } }`, when the OTP of an application that was not confirmed may be sent again".into()),
            );
            false
        }
        Some(_) => true,
    }
}

/// The settling of `owner` by the status query `q`, when `q` lists the states awaiting
/// the OTP among its final states and takes the business id as its one required string
/// parameter; else reports which of these it lacks.
fn settling_query(
    ck: &mut Checker,
    query: &Spanned<String>,
    owner: &Owner,
    q: &model::Operation,
) -> Option<model::SettledBy> {
    let Some(states) = q
        .final_states
        .clone()
        .filter(|f| !f.awaiting_otp.is_empty())
    else {
        ck.error(
            &query.loc,
            format!(
                "`settled_by: {}` of {owner} has no `final_states` with `awaiting_otp`",
                query.value
            ),
            Some("list, in the query's `final_states`, the values in which the application still waits for its OTP (`awaiting_otp: [..]`)".into()),
        );
        return None;
    };
    let required: Vec<&model::Field> = match &q.params {
        Params::Fields { fields } => fields
            .iter()
            .filter(|f| f.required == Requirement::Required)
            .collect(),
        Params::Unspecified { .. } => Vec::new(),
    };
    let [param] = required.as_slice() else {
        ck.error(
            &query.loc,
            format!(
                "`settled_by: {}` of {owner} does not take exactly one required parameter",
                query.value
            ),
            Some("the business id is its only required parameter".into()),
        );
        return None;
    };
    if param.ty != TypeRef::String {
        ck.error(
            &query.loc,
            format!(
                "`settled_by: {}` of {owner}: its parameter `{}` is not a string",
                query.value, param.wire_name
            ),
            Some("the business id is a string".into()),
        );
        return None;
    }
    Some(model::SettledBy {
        query: q.name.clone(),
        rust_name: q.rust_name.clone(),
        group: q.group.clone(),
        type_name: q.type_name.clone(),
        param_wire: param.wire_name.clone(),
        param_rust: param.rust_name.clone(),
        states,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, run};

    const FLOW: &str = "group: otp
operations:
  - name: send
    path: /send
    otp_step: { send: { business_id: id, channel: via } }
    params: [{ name: id, type: string, required: true }, { name: via, type: string, required: true }]
    response: { empty: e }
  - name: confirm
    path: /confirm
    otp_step: { confirm: { business_id: id, code: otp, reuse: \"while it waits\" } }
    params: [{ name: id, type: string, required: true }, { name: otp, type: string, required: true }]
    response: { empty: e }
  - name: pay
    path: /pay
    otp: true
    business_id: txId
    settled_by: QUERY
    params: []
    response: { fields: [{ name: txId, type: string }] }
";

    fn settle(query: &str) -> (Option<model::SettledBy>, Vec<String>) {
        let ran = run(&format!("{}{query}", FLOW.replace("QUERY", "get")), true);
        let op = ran
            .groups
            .iter()
            .flat_map(|g| g.operations.iter())
            .find(|o| o.name == "pay")
            .and_then(|o| o.settled_by.clone());
        (op, errors(&ran.ck))
    }

    #[test]
    fn a_query_with_awaiting_values_and_one_string_parameter_settles() {
        let (s, errs) = settle(
            "  - name: get\n    path: /get\n    params: [{ name: txId, type: string, required: true }]\n    response: { record: Detail }\n    final_states: { field: status, values: [-1], awaiting_otp: [1] }\n",
        );
        assert_eq!(errs, Vec::<String>::new());
        let s = s.expect("settled");
        assert_eq!((s.query.as_str(), s.param_wire.as_str()), ("get", "txId"));
        assert_eq!(s.states.awaiting_otp, ["1"]);
    }

    #[test]
    fn a_query_without_awaiting_values_or_with_two_parameters_is_refused() {
        let (s, errs) = settle(
            "  - name: get\n    path: /get\n    params: [{ name: txId, type: string, required: true }]\n    response: { record: Detail }\n    final_states: { field: status, values: [-1] }\n",
        );
        assert!(s.is_none());
        assert!(
            errs[0].contains("has no `final_states` with `awaiting_otp`"),
            "{errs:?}"
        );
        let (s, errs) = settle(
            "  - name: get\n    path: /get\n    params: [{ name: txId, type: string, required: true }, { name: b, type: string, required: true }]\n    response: { record: Detail }\n    final_states: { field: status, values: [-1], awaiting_otp: [1] }\n",
        );
        assert!(s.is_none());
        assert!(
            errs[0].contains("does not take exactly one required parameter"),
            "{errs:?}"
        );
    }

    #[test]
    fn an_awaiting_value_that_is_final_or_not_of_the_enum_is_refused() {
        let (_, errs) = settle(
            "  - name: get\n    path: /get\n    params: [{ name: txId, type: string, required: true }]\n    response: { record: Detail }\n    final_states: { field: status, values: [-1], awaiting_otp: [-1, 7] }\n",
        );
        assert!(
            errs.iter()
                .any(|e| e.contains("`awaiting_otp` value `-1` of operation `get` is also final")),
            "{errs:?}"
        );
        assert!(
            errs.iter()
                .any(|e| e.contains("`7` of operation `get` is not a value of enum `Status`")),
            "{errs:?}"
        );
    }
}
