//! The methods of one operation on a client: the call, and `_pages`, `_pending` and
//! `_until_final` where the plan gives the operation those calls.

use super::super::doc;
use super::super::models::{field_ident, request_name, required_first, response_name};
use super::super::names::{ident, py_type, sent_type, string};
use super::{def_line, Flavour};
use crate::plan::{BusinessIdPlan, Direction, OperationPlan, RequestPlan, SdkPlan, SettleCall};
use crate::text::Out;

/// `(keyword parameters, the request built from them)` of an operation's methods.
fn signature(op: &OperationPlan) -> (Vec<String>, String) {
    let mut sig = Vec::new();
    let mut args = Vec::new();
    match &op.request {
        RequestPlan::Fields(fields) => {
            for f in required_first(fields) {
                let id = ident(&f.words);
                let ty = sent_type(f);
                let default = if f.required() { "" } else { " | None = None" };
                sig.push(format!("{id}: {ty}{default}"));
                args.push(format!("{id}={id}"));
            }
        }
        RequestPlan::Free { .. } => {
            sig.push("params: Mapping[str, WireValue] | None = None".to_owned());
            args.push("params=dict(params or {})".to_owned());
        }
    }
    (sig, format!("{}({})", request_name(op), args.join(", ")))
}

/// An operation's methods: the call, and `_pages`, `_pending` and `_until_final` where
/// the plan gives it those calls.
pub(super) fn operation_methods(out: &mut Out, plan: &SdkPlan, op: &OperationPlan, f: Flavour) {
    let (sig, build) = signature(op);
    let name = ident(&op.words);
    let options = ["options: CallOptions | None = None"];
    let resp = response_name(op);
    let (call, pending) = (f.call(), f.pending());
    out.blank();
    def_line(out, f, &name, &sig, &options, &resp);
    out.indent();
    doc(out, &op.doc);
    out.line(&format!(
        "return {call}self._runtime.execute({build}, options)"
    ));
    out.dedent();
    if let Some(pages) = &op.calls.pages {
        let item = py_type(&pages.item, Direction::Received);
        out.blank();
        let ret = format!("{}[{resp}, {item}]", f.pages());
        def_line(
            out,
            Flavour::Sync,
            &format!("{name}_pages"),
            &sig,
            &[],
            &ret,
        );
        out.indent();
        let mut pages_doc = pages.doc.clone();
        pages_doc.push(pages.paging_doc.clone());
        doc(out, &pages_doc);
        out.line(&format!("return self._runtime.pages({build})"));
        out.dedent();
    }
    if let Some(call_plan) = &op.calls.pending {
        let (wire, read) = match &call_plan.business_id {
            BusinessIdPlan::ResponseField(wire) => (
                wire.as_str(),
                format!("success.data.{}", field_ident(plan.answer_fields(op), wire)),
            ),
            // The envelope's member, named in the error of an answer without one.
            BusinessIdPlan::RequestId => ("requestId", "success.request_id".to_owned()),
        };
        out.blank();
        let settle = op.calls.settle.as_ref().and_then(|s| settle_parts(plan, s));
        let ret = match &settle {
            Some((state_ty, _)) => format!("{}[{resp}, {state_ty}]", f.settling()),
            None => format!("{pending}[{resp}]"),
        };
        def_line(out, f, &format!("{name}_pending"), &sig, &options, &ret);
        out.indent();
        let mut call_doc = call_plan.doc.clone();
        if let Some(s) = &op.calls.settle {
            for p in &s.doc.paragraphs {
                call_doc.push(p.clone());
            }
        }
        doc(out, &call_doc);
        out.line(&format!(
            "success = {call}self._runtime.execute_with({build}, options)"
        ));
        let made = format!(
            "{pending}._from_success(self, success, {read}, {}, {})",
            string(wire),
            string(&op.wire_name)
        );
        match &settle {
            Some((_, lookup)) => out.line(&format!(
                "return {}({made}, lambda business_id: self._runtime.settle({lookup}))",
                f.settling()
            )),
            None => out.line(&format!("return {made}")),
        }
        out.dedent();
    }
    if let Some(finals) = &op.calls.until_final {
        out.blank();
        let policy = ["policy: WaitPolicy | None = None"];
        def_line(out, f, &format!("{name}_until_final"), &sig, &policy, &resp);
        out.indent();
        doc(out, &finals.doc);
        let state = if finals.typed {
            let id = field_ident(plan.answer_fields(op), &finals.field);
            format!("lambda r: _w.wire_text(r.{id})")
        } else {
            format!("lambda r: _w.member_text(r, {})", string(&finals.field))
        };
        let values: Vec<String> = finals.values.iter().map(|v| string(v)).collect();
        out.line(&format!(
            "return {call}self._runtime.wait_until({build}, {state}, ({},), policy)",
            values.join(", ")
        ));
        out.dedent();
    }
}

/// `(the state's type, the runtime's settle arguments with `business_id` as the query's
/// parameter)` of an application settled by its status query.
fn settle_parts(plan: &SdkPlan, s: &SettleCall) -> Option<(String, String)> {
    let query = plan.operation(&s.query)?;
    let param = field_ident(query.params(), &s.param);
    let (state_ty, state) = match (&s.enum_name, &s.field_rust) {
        (Some(e), Some(_)) => {
            let id = field_ident(plan.answer_fields(query), &s.field);
            (e.clone(), format!("lambda r: r.{id}"))
        }
        (None, Some(_)) => {
            let id = field_ident(plan.answer_fields(query), &s.field);
            ("str".to_owned(), format!("lambda r: _w.wire_text(r.{id})"))
        }
        (_, None) => (
            "str".to_owned(),
            format!("lambda r: _w.member_text(r, {})", string(&s.field)),
        ),
    };
    let quoted = |values: &[String]| {
        values
            .iter()
            .map(|v| format!("{}, ", string(v)))
            .collect::<String>()
    };
    Some((
        state_ty,
        format!(
            "{}({param}=business_id), {state}, ({}), ({}), _OTP_RULE",
            request_name(query),
            quoted(&s.awaiting_otp).trim_end(),
            quoted(&s.finals).trim_end(),
        ),
    ))
}
