//! Cross-check, the OTP flow: the `otp_step:` marks of every operation resolved into one
//! `send` and one `confirm` step (and at most one `group`), each naming its parameters,
//! with no other required parameter (the client fills them in itself).

use super::{Checker, Owner};
use crate::model::{self, Field, Params, Requirement, Response, TypeRef};
use crate::spec_file::{OtpStepSpec, Spanned};

/// The steps found so far.
#[derive(Default)]
struct Steps {
    send: Option<model::OtpStep>,
    confirm: Option<model::OtpStep>,
    group: Option<model::OtpStep>,
    /// The confirm step's `reuse`.
    reuse: Option<String>,
}

/// Resolves the `otp_step:` marks (`steps`: each with its operation's name) against the
/// checked operations; `None` when the spec has no complete flow (reported when an
/// operation has a `business_id`, which only an OTP flow confirms).
pub(super) fn otp_flow(
    ck: &mut Checker,
    steps: &[(&Spanned<OtpStepSpec>, String)],
    groups: &[model::Group],
) -> Option<model::OtpFlow> {
    let mut found = Steps::default();
    for (spec, op_name) in steps {
        let Some(op) = groups
            .iter()
            .flat_map(|g| g.operations.iter())
            .find(|o| &o.name == op_name)
        else {
            continue;
        };
        otp_step(ck, &mut found, spec, op);
    }
    let any_business_id = groups
        .iter()
        .flat_map(|g| g.operations.iter())
        .find(|o| o.business_id.is_some());
    match (found.send, found.confirm) {
        (Some(send), Some(confirm)) => {
            every_otp_operation_has_a_business_id(ck, groups);
            Some(model::OtpFlow {
                send,
                confirm,
                group: found.group,
                otp_reuse: found.reuse,
            })
        }
        (send, confirm) => {
            if let Some(op) = any_business_id {
                if send.is_none() || confirm.is_none() {
                    ck.error(
                        &op.location,
                        format!("operation `{}` has a `business_id`, but no operation is `otp_step: {{ send }}` and `{{ confirm }}`", op.name),
                        Some("mark the operations that send and confirm an OTP with `otp_step:`".into()),
                    );
                }
            }
            None
        }
    }
}

/// With an OTP flow, every `otp: true` operation says where its business id comes from,
/// so every one has its `*_pending`.
fn every_otp_operation_has_a_business_id(ck: &mut Checker, groups: &[model::Group]) {
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        if op.otp && op.business_id.is_none() {
            ck.incomplete(
                &op.location,
                format!(
                    "operation `{}` is `otp: true` but does not say where its OTP business id comes from",
                    op.name
                ),
                "add `business_id: <string response field>`, or `business_id_is_request_id: true` when the application is named by the requestId it was sent with".into(),
            );
        }
    }
}

/// One operation's `otp_step:`: exactly one kind, naming required parameters of the
/// right types, and the only required parameters; one operation per kind.
fn otp_step(
    ck: &mut Checker,
    found: &mut Steps,
    spec: &Spanned<OtpStepSpec>,
    op: &model::Operation,
) {
    let owner = Owner::Operation(op.name.clone());
    let s = &spec.value;
    let count = [s.send.is_some(), s.confirm.is_some(), s.group.is_some()]
        .iter()
        .filter(|b| **b)
        .count();
    if count != 1 {
        ck.error(
            &spec.loc,
            format!("`otp_step` of {owner} must be exactly one of `send`, `confirm`, `group`"),
            Some("e.g. `otp_step: { send: { business_id: businessId, channel: otpType } }`".into()),
        );
        return;
    }
    let fields: &[Field] = match &op.params {
        Params::Fields { fields } => fields,
        Params::Unspecified { .. } => &[],
    };
    let is_string = |t: &TypeRef| *t == TypeRef::String;
    let pair = |b: Option<Field>, c: Option<Field>| match (b, c) {
        (Some(b), Some(c)) => Some(step(op, &b, &c)),
        _ => None,
    };
    let (slot, built, used) = if let Some(x) = &s.send {
        let b = named(ck, fields, &x.business_id, &is_string, "string", &owner);
        let c = named(ck, fields, &x.channel, &|_| true, "channel", &owner);
        let used = vec![x.business_id.value.clone(), x.channel.value.clone()];
        (&mut found.send, pair(b, c), used)
    } else if let Some(x) = &s.confirm {
        let b = named(ck, fields, &x.business_id, &is_string, "string", &owner);
        let c = named(ck, fields, &x.code, &is_string, "string", &owner);
        let used = vec![x.business_id.value.clone(), x.code.value.clone()];
        found.reuse = x.reuse.as_ref().map(|r| r.value.clone());
        (&mut found.confirm, pair(b, c), used)
    } else if let Some(x) = &s.group {
        let is_ids =
            |t: &TypeRef| matches!(t, TypeRef::Array { item } if **item == TypeRef::String);
        let ids = named(ck, fields, &x.ids, &is_ids, "array<string>", &owner);
        let result = match &op.response {
            Response::Fields { fields, .. } => fields
                .iter()
                .find(|f| f.wire_name == x.result.value && f.ty == TypeRef::String)
                .cloned(),
            _ => None,
        };
        if result.is_none() {
            ck.error(
                &x.result.loc,
                format!(
                    "`otp_step` of {owner} names `{}`, which is not a string field of its response",
                    x.result.value
                ),
                Some("name the response field holding the new application id".into()),
            );
        }
        (
            &mut found.group,
            pair(ids, result),
            vec![x.ids.value.clone()],
        )
    } else {
        return;
    };
    for f in fields {
        if f.required == Requirement::Required && !used.contains(&f.wire_name) {
            ck.error(
                &f.location,
                format!("{owner} is an `otp_step` but also requires `{}`", f.wire_name),
                Some("the client calls an OTP step with only the fields `otp_step` names; make the others optional".into()),
            );
        }
    }
    if slot.is_some() {
        ck.error(
            &spec.loc,
            format!("a second `otp_step` of the same kind, on {owner}"),
            Some("each step of the OTP flow is one operation".into()),
        );
    } else {
        *slot = built;
    }
}

/// The required parameter `n` of type `want` (`what`, for the message).
fn named(
    ck: &mut Checker,
    fields: &[Field],
    n: &Spanned<String>,
    want: &dyn Fn(&TypeRef) -> bool,
    what: &str,
    owner: &Owner,
) -> Option<Field> {
    match fields.iter().find(|f| f.wire_name == n.value) {
        Some(f) if f.required == Requirement::Required && want(&f.ty) => Some(f.clone()),
        _ => {
            ck.error(
                &n.loc,
                format!(
                    "`otp_step` of {owner} names `{}`, which is not a required {what} parameter",
                    n.value
                ),
                Some(format!("name the {what} parameter that carries it")),
            );
            None
        }
    }
}

fn step(op: &model::Operation, business_id: &Field, other: &Field) -> model::OtpStep {
    model::OtpStep {
        operation: op.name.clone(),
        rust_name: op.rust_name.clone(),
        group: op.group.clone(),
        type_name: op.type_name.clone(),
        business_id: business_id.rust_name.clone(),
        other: other.rust_name.clone(),
        other_wire: other.wire_name.clone(),
        other_ty: other.ty.clone(),
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{errors, otp_flow_of};

    const SEND: &str = "  - name: sendOtp
    path: /otp/send
    otp_step: { send: { business_id: businessId, channel: channel } }
    params:
      - { name: businessId, type: string, required: true }
      - { name: channel, type: Kind, required: true }
    response: { empty: e }
";
    const CONFIRM: &str = "  - name: confirmOtp
    path: /otp/confirm
    otp_step: { confirm: { business_id: businessId, code: code } }
    params:
      - { name: businessId, type: string, required: true }
      - { name: code, type: string, required: true }
    response: { empty: e }
";

    #[test]
    fn the_flow_names_each_step_and_its_parameters() {
        let (flow, ck) = otp_flow_of(&format!("group: otp\noperations:\n{SEND}{CONFIRM}"));
        assert!(errors(&ck).is_empty(), "{:?}", errors(&ck));
        let flow = flow.expect("a flow");
        assert_eq!(flow.send.operation, "sendOtp");
        assert_eq!(
            (flow.send.other.as_str(), flow.send.other_wire.as_str()),
            ("channel", "channel")
        );
        assert_eq!(flow.confirm.business_id, "business_id");
        assert!(flow.group.is_none());
    }

    #[test]
    fn a_second_step_or_a_missing_one_is_reported() {
        let again = SEND
            .replace("sendOtp", "sendAgain")
            .replace("/otp/send", "/otp/again");
        let pay = "  - { name: pay, path: /pay, otp: true, business_id: id, params: [{ name: extra, type: int, required: true }], response: { fields: [{ name: id, type: string }] }, otp_step: { send: { business_id: id, channel: extra } } }\n";
        let (flow, ck) = otp_flow_of(&format!("group: otp\noperations:\n{SEND}{again}{pay}"));
        assert!(flow.is_none());
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:12:15: a second `otp_step` of the same kind, on operation `sendAgain`",
                "s/t.yaml:17:197: `otp_step` of operation `pay` names `id`, which is not a required string parameter",
                "s/t.yaml:17:174: a second `otp_step` of the same kind, on operation `pay`",
                "s/t.yaml:17:5: operation `pay` has a `business_id`, but no operation is `otp_step: { send }` and `{ confirm }`",
            ]
        );
    }

    #[test]
    fn with_a_flow_every_otp_operation_has_a_business_id() {
        let pay = "  - { name: pay, path: /pay, otp: true, params: [], response: { empty: e } }\n";
        let cancel = "  - { name: undo, path: /undo, otp: true, business_id_is_request_id: true, params: [], response: { empty: e } }\n";
        let (flow, ck) = otp_flow_of(&format!(
            "group: otp\noperations:\n{SEND}{CONFIRM}{pay}{cancel}"
        ));
        assert!(flow.is_some());
        assert_eq!(
            errors(&ck),
            ["s/t.yaml:17:5: operation `pay` is `otp: true` but does not say where its OTP business id comes from"]
        );
    }
}
