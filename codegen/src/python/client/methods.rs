//! The methods of one operation on a client: the call, and `_pages`, `_pending` and
//! `_until_final` where the spec pages it, confirms it with an OTP, or names its final
//! states.

use super::super::models::{docstring, request_name, response_fields, response_name};
use super::super::names::{ident, py_type, string, Direction};
use super::super::Out;
use super::{def_line, Flavour};
use crate::model::{Api, BusinessId, Field, FinalStates, Operation, PagingItems, Params};

fn params(op: &Operation) -> Vec<&Field> {
    match &op.params {
        Params::Fields { fields } => {
            let (required, optional): (Vec<&Field>, Vec<&Field>) =
                fields.iter().partition(|f| !f.optional_when_sent());
            required.into_iter().chain(optional).collect()
        }
        Params::Unspecified { .. } => Vec::new(),
    }
}

/// `(keyword parameters, constructor arguments)` of an operation's method.
fn signature(op: &Operation) -> (Vec<String>, String) {
    let mut sig = Vec::new();
    let mut args = Vec::new();
    match &op.params {
        Params::Fields { .. } => {
            for f in params(op) {
                let id = ident(&f.rust_name);
                let ty = py_type(&f.ty, Direction::Sent);
                if f.optional_when_sent() {
                    sig.push(format!("{id}: {ty} | None = None"));
                } else {
                    sig.push(format!("{id}: {ty}"));
                }
                args.push(format!("{id}={id}"));
            }
        }
        Params::Unspecified { .. } => {
            sig.push("params: Mapping[str, WireValue] | None = None".to_owned());
            args.push("params=dict(params or {})".to_owned());
        }
    }
    (sig, format!("{}({})", request_name(op), args.join(", ")))
}

fn method_doc(op: &Operation) -> String {
    let mut doc = if op.doc.trim().is_empty() {
        format!("Calls `{}`.", op.name)
    } else {
        op.doc.trim().to_owned()
    };
    doc.push_str(&format!(
        "\n\nOperation `{}`: `POST {}`. The parameters are checked against the spec's rules \
         before anything is sent (`InvalidRequest` names each field and rule); the answer's \
         signature and requestId echo are verified before its `data` is read as `{}`.",
        op.name,
        op.path,
        response_name(op)
    ));
    if op.moves_money {
        doc.push_str(
            "\n\nMoves money: once its bytes may have left it is never re-sent; a failure \
             without a verified answer is `OutcomeUnknown` (look the application up before \
             sending it again).",
        );
    }
    if op.otp {
        doc.push_str(
            "\n\nNeeds confirmation: it takes effect only after `sendOtp` and `confirmOperation`.",
        );
    }
    if let Some(note) = &op.deprecated {
        doc.push_str(&format!("\n\nDeprecated: {note}"));
    }
    doc.push_str(
        "\n\nRaises `ApiError` for a result code other than `00000` (`ResultCode.from_error` \
         types it), otherwise a transport, timeout, signature or decoding error; every \
         `BaasError` names the operation, the requestId of its last attempt and the attempts \
         made. `options` sets this call's requestId or time limit.",
    );
    doc
}

/// The business id's wire name in a response, for messages.
fn wire_of(api: &Api, op: &Operation, rust: &str) -> String {
    response_fields(api, op)
        .and_then(|fields| fields.iter().find(|f| f.rust_name == rust))
        .map_or_else(|| rust.to_owned(), |f| f.wire_name.clone())
}

/// An operation's methods: the call, and `_pages`, `_pending` and `_until_final` where
/// the spec pages it, confirms it with an OTP, or names its final states.
pub(super) fn operation_methods(out: &mut Out, api: &Api, op: &Operation, flavour: Flavour) {
    let (sig, build) = signature(op);
    call_method(out, op, flavour, &sig, &build);
    if let Some(items) = op.paging.as_ref().and_then(|p| p.items.as_ref()) {
        pages_method(out, op, flavour, items, &sig, &build);
    }
    if let Some(business) = &op.business_id {
        pending_method(out, api, op, flavour, business, &sig, &build);
    }
    if let Some(finals) = &op.final_states {
        until_final_method(out, op, flavour, finals, &sig, &build);
    }
}

/// The method that calls an operation: its request built from the keyword arguments.
fn call_method(out: &mut Out, op: &Operation, flavour: Flavour, sig: &[String], build: &str) {
    out.blank();
    def_line(
        out,
        flavour,
        &ident(&op.rust_name),
        sig,
        &["options: CallOptions | None = None"],
        &response_name(op),
    );
    out.indent();
    docstring(out, &method_doc(op));
    out.line(&format!(
        "return {}self._runtime.execute({build}, options)",
        flavour.call()
    ));
    out.dedent();
}

/// `<operation>_pages`: every page of a paged operation (not itself awaited).
fn pages_method(
    out: &mut Out,
    op: &Operation,
    flavour: Flavour,
    items: &PagingItems,
    sig: &[String],
    build: &str,
) {
    let resp = response_name(op);
    let p = op
        .paging
        .as_ref()
        .map(|p| (p.page.wire_name.clone(), p.first_page));
    let (page, first) = p.unwrap_or_default();
    let item = py_type(&items.item, Direction::Received);
    out.blank();
    def_line(
        out,
        Flavour::Sync,
        &format!("{}_pages", ident(&op.rust_name)),
        sig,
        &[],
        &format!("{}[{resp}, {item}]", flavour.pages()),
    );
    out.indent();
    let iteration = match flavour {
        Flavour::Sync => "for",
        Flavour::Async => "async for",
    };
    docstring(
        out,
        &format!(
            "Every page of `{}`, from `{page}` on (the first page is {first}): {iteration} \
             the pages, or over `.items()` for every `{}` of every page. It stops after \
             the page that reaches the total, a page shorter than the page size, or an \
             empty one; an error ends it, raised. Each page is one call.",
            op.name, item
        ),
    );
    out.line(&format!("return self._runtime.pages({build})"));
    out.dedent();
}

/// `<operation>_pending`: the call, answered by the application waiting for its OTP.
fn pending_method(
    out: &mut Out,
    api: &Api,
    op: &Operation,
    flavour: Flavour,
    business: &BusinessId,
    sig: &[String],
    build: &str,
) {
    let pending = flavour.pending();
    let (wire, read) = match business {
        BusinessId::ResponseField { rust_name, .. } => (
            wire_of(api, op, rust_name),
            format!("success.data.{}", ident(rust_name)),
        ),
        BusinessId::RequestId => ("requestId".to_owned(), "success.request_id".to_owned()),
    };
    out.blank();
    def_line(
        out,
        flavour,
        &format!("{}_pending", ident(&op.rust_name)),
        sig,
        &["options: CallOptions | None = None"],
        &format!("{pending}[{}]", response_name(op)),
    );
    out.indent();
    let about = match business {
        BusinessId::ResponseField { .. } => format!(
            "whose business id is the answer's `{wire}`: send its OTP and confirm it from \
             there. An answer without `{wire}` raises `DecodeError`."
        ),
        BusinessId::RequestId => "whose business id is the requestId the call was sent \
             with: send its OTP and confirm it from there."
            .to_owned(),
    };
    docstring(
        out,
        &format!(
            "Calls `{}` and returns the application waiting for its OTP, {about}",
            op.name
        ),
    );
    out.line(&format!(
        "success = {}self._runtime.execute_with({build}, options)",
        flavour.call()
    ));
    out.line(&format!(
        "return {pending}._from_success(self, success, {read}, {}, {})",
        string(&wire),
        string(&op.name)
    ));
    out.dedent();
}

/// `<operation>_until_final`: the query sent until its answer's state is final.
fn until_final_method(
    out: &mut Out,
    op: &Operation,
    flavour: Flavour,
    finals: &FinalStates,
    sig: &[String],
    build: &str,
) {
    out.blank();
    def_line(
        out,
        flavour,
        &format!("{}_until_final", ident(&op.rust_name)),
        sig,
        &["policy: WaitPolicy | None = None"],
        &response_name(op),
    );
    out.indent();
    let values: Vec<String> = finals.values.iter().map(|v| string(v)).collect();
    docstring(
        out,
        &format!(
            "Sends `{}` until the answer's `{}` is final ({}), waiting between queries as \
             `policy` says (doubling delays, a deadline), and returns that answer. Raises \
             `WaitDeadline` with the last state when the deadline passes first; a \
             retryable failure of one query is polled past.",
            op.name,
            finals.wire_name,
            finals
                .values
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let state = match &finals.rust_name {
        Some(rust) => format!("lambda r: _w.wire_text(r.{})", ident(rust)),
        None => format!("lambda r: _w.member_text(r, {})", string(&finals.wire_name)),
    };
    out.line(&format!(
        "return {}self._runtime.wait_until({build}, {state}, ({},), policy)",
        flavour.call(),
        values.join(", ")
    ));
    out.dedent();
}
