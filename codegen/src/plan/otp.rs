//! The OTP flow as every SDK offers it: its steps (send, confirm, and grouping
//! applications under one OTP) by the wire names of their operations and parameters.

use super::sentences;
use super::{Doc, Words};
use crate::model::{Api, Operation, OtpStep, Params, Response, TypeRef};

/// The OTP flow by wire name.
#[derive(Debug, Clone)]
pub struct OtpPlan {
    /// Sends the OTP.
    pub send: OtpStepPlan,
    /// Confirms with it.
    pub confirm: OtpStepPlan,
    /// Groups applications under one OTP, when the spec has it.
    pub group: Option<OtpStepPlan>,
}

/// One step of the OTP flow.
#[derive(Debug, Clone)]
pub struct OtpStepPlan {
    /// The operation's wire name (`sendOtp`).
    pub operation: String,
    /// Its group.
    pub group: String,
    /// The Rust method name of the operation.
    pub rust_name: String,
    /// The stem of its Rust type names.
    pub type_name: String,
    /// The parameter holding the business id (send, confirm) or the ids (group), by
    /// wire name.
    pub business_id: String,
    /// The Rust names of `business_id` and `other`.
    pub rust: (String, String),
    /// The second parameter (send: the channel; confirm: the code) or, for the group
    /// step, the answer field holding the new business id; by wire name.
    pub other: String,
    /// Its type (the channel's value set for send).
    pub other_ty: TypeRef,
    /// The step's doc, for the handle's method.
    pub doc: Doc,
}

fn find<'a>(api: &'a Api, name: &str) -> Option<&'a Operation> {
    api.operations().find(|o| o.name == name)
}

/// The wire name of the parameter whose Rust name is `rust`.
fn param_wire(op: Option<&Operation>, rust: &str) -> String {
    op.and_then(|op| match &op.params {
        Params::Fields { fields } => fields.iter().find(|f| f.rust_name == rust),
        Params::Unspecified { .. } => None,
    })
    .map_or_else(|| Words::of(rust).camel(), |f| f.wire_name.clone())
}

/// The answer fields of an operation, when listed (a record's fields too).
fn response_fields<'a>(api: &'a Api, op: &'a Operation) -> &'a [crate::model::Field] {
    match &op.response {
        Response::Fields { fields, .. } => fields,
        Response::Record { record, .. } => api.record(record).map_or(&[], |r| &r.fields),
        Response::Unspecified { .. } | Response::Empty { .. } => &[],
    }
}

/// The wire name of the answer field whose Rust name is `rust`.
fn response_wire(api: &Api, op: Option<&Operation>, rust: &str) -> String {
    op.and_then(|op| {
        response_fields(api, op)
            .iter()
            .find(|f| f.rust_name == rust)
    })
    .map_or_else(|| Words::of(rust).camel(), |f| f.wire_name.clone())
}

fn step(api: &Api, s: &OtpStep, doc: String, other_in_response: bool) -> OtpStepPlan {
    let op = find(api, &s.operation);
    OtpStepPlan {
        operation: s.operation.clone(),
        group: s.group.clone(),
        rust_name: s.rust_name.clone(),
        type_name: s.type_name.clone(),
        rust: (s.business_id.clone(), s.other.clone()),
        business_id: param_wire(op, &s.business_id),
        other: if other_in_response {
            response_wire(api, op, &s.other)
        } else {
            s.other_wire.clone()
        },
        other_ty: s.other_ty.clone(),
        doc: Doc::of([doc]),
    }
}

/// The OTP flow's plan.
pub fn otp_plan(api: &Api) -> Option<OtpPlan> {
    let flow = api.otp_flow.as_ref()?;
    let send = step(
        api,
        &flow.send,
        sentences::send_otp(&flow.send.operation),
        false,
    );
    let confirm = step(
        api,
        &flow.confirm,
        sentences::confirm(&flow.confirm.operation),
        false,
    );
    let group = flow.group.as_ref().map(|g| {
        let mut plan = step(api, g, String::new(), true);
        plan.doc = Doc::of([sentences::group(
            &g.operation,
            &plan.business_id,
            &plan.other,
        )]);
        plan
    });
    Some(OtpPlan {
        send,
        confirm,
        group,
    })
}
