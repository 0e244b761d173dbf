//! The methods of one operation on a client: the call, and `_pages`, `_pending` and
//! `_until_final` where the plan gives the operation those calls.

use super::super::doc;
use super::super::models::{field_ident, request_name, required_first, response_name};
use super::super::names::{ident, py_type, sent_type, string};
use super::{def_line, Flavour};
use crate::plan::{BusinessIdPlan, Direction, OperationPlan, RequestPlan, SdkPlan};
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
        let ret = format!("{pending}[{resp}]");
        def_line(out, f, &format!("{name}_pending"), &sig, &options, &ret);
        out.indent();
        doc(out, &call_plan.doc);
        out.line(&format!(
            "success = {call}self._runtime.execute_with({build}, options)"
        ));
        out.line(&format!(
            "return {pending}._from_success(self, success, {read}, {}, {})",
            string(wire),
            string(&op.wire_name)
        ));
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
