//! A group's module: each operation's response (a received shape) and request (a sent
//! shape with the operation's class variables, its decoding and its paging).

use super::super::names::{self, ident, py_type, string};
use super::super::{doc, module};
use super::records::{received_class, required_first, sent_class};
use super::slotted::{slots_and_init, Slot, SET};
use crate::model::TypeRef;
use crate::plan::{
    Direction, FieldPlan, GroupPlan, OperationPlan, PagesCall, RequestPlan, ResponsePlan, SdkPlan,
};
use crate::text::Out;

/// The response's class name.
pub fn response_name(op: &OperationPlan) -> String {
    format!("{}Response", op.type_words.pascal())
}

/// The request's class name.
pub fn request_name(op: &OperationPlan) -> String {
    format!("{}Request", op.type_words.pascal())
}

/// The Python name of the field of this wire name among `fields` (an operation's
/// parameters or answer fields, where the plan's calls and OTP steps name it): its words
/// as the plan gives them (the wire name's own words only if the plan lists no such field).
pub fn field_ident(fields: &[FieldPlan], wire: &str) -> String {
    fields
        .iter()
        .find(|f| f.wire_name == wire)
        .map_or_else(|| ident(&crate::plan::Words::of(wire)), |f| ident(&f.words))
}

/// A group's module: each operation's response and request.
pub fn group_module(plan: &SdkPlan, group: &GroupPlan) -> String {
    let mut out = module(&group.doc.plain());
    out.line("import datetime as _dt");
    out.line("from decimal import Decimal");
    out.line("from typing import ClassVar, Mapping, Sequence");
    out.blank();
    out.line("import baas_runtime.wire as _w");
    out.line(
        "from baas_runtime import FieldPath, JsonValue, PagedRequest, Request, Scalar, Unknown, Validator",
    );
    out.line("from baas_runtime.record import Record");
    out.line("from baas_runtime.wire import WireValue");
    let (mut enums, mut records) = (Vec::new(), Vec::new());
    for op in &group.operations {
        for f in op.params() {
            names::named(&f.ty, Direction::Sent, &mut enums, &mut records);
        }
        match &op.response {
            ResponsePlan::Fields { fields, .. } => {
                for f in fields {
                    names::named(&f.ty, Direction::Received, &mut enums, &mut records);
                }
            }
            ResponsePlan::Record { received_name, .. } => records.push(received_name.clone()),
            ResponsePlan::Raw { .. } | ResponsePlan::Empty { .. } => {}
        }
        if let Some(pages) = &op.calls.pages {
            names::named(
                &pages.item,
                Direction::Received,
                &mut Vec::new(),
                &mut records,
            );
        }
    }
    for (kind, names) in [("enums", &mut enums), ("records", &mut records)] {
        names.sort();
        names.dedup();
        if !names.is_empty() {
            out.line(&format!("from .{kind} import {}", names.join(", ")));
        }
    }
    out.blank();
    out.line("__all__ = [");
    for op in &group.operations {
        out.line(&format!("    {},", string(&request_name(op))));
        out.line(&format!("    {},", string(&response_name(op))));
    }
    out.line("]");
    out.blank();
    out.line(SET);
    for op in &group.operations {
        response(&mut out, op);
        request(&mut out, plan, op);
    }
    out.line_raw("");
    out.finish()
}

fn response(out: &mut Out, op: &OperationPlan) {
    let name = response_name(op);
    out.blank();
    out.blank();
    match &op.response {
        ResponsePlan::Fields { fields, doc } => received_class(out, &name, doc, fields),
        ResponsePlan::Record {
            received_name,
            doc: d,
            ..
        } => {
            out.line(&format!("{name} = {received_name}"));
            doc(out, d);
        }
        ResponsePlan::Raw { doc: d } => {
            out.line(&format!("{name} = JsonValue"));
            doc(out, d);
        }
        ResponsePlan::Empty { doc } => received_class(out, &name, doc, &[]),
    }
}

/// An operation's request class: its docstring and class variables, its fields (checked
/// and written as a sent shape) or its free `params`, the decoding of its answer, and
/// the paging methods of a paged operation.
fn request(out: &mut Out, plan: &SdkPlan, op: &OperationPlan) {
    let name = request_name(op);
    let resp = response_name(op);
    out.blank();
    out.blank();
    let base = match &op.calls.pages {
        Some(pages) => format!(
            "PagedRequest[{resp}, {}]",
            py_type(&pages.item, Direction::Received)
        ),
        None => format!("Request[{resp}]"),
    };
    let class_line = format!("class {name}({base}):");
    let mut class_vars = vec![
        format!("OPERATION: ClassVar[str] = {}", string(&op.wire_name)),
        format!("PATH: ClassVar[str] = {}", string(&op.path)),
        format!(
            "MOVES_MONEY: ClassVar[bool] = {}",
            if op.moves_money { "True" } else { "False" }
        ),
    ];
    if let Some(pages) = &op.calls.pages {
        class_vars.push(format!("FIRST_PAGE: ClassVar[int] = {}", pages.first_page));
    }
    match &op.request {
        RequestPlan::Fields(fields) => {
            let parts = (class_line.as_str(), class_vars.as_slice());
            sent_class(out, parts, &op.request_doc, fields, &op.constraints);
        }
        RequestPlan::Free { note } => {
            out.line(&class_line);
            out.indent();
            let mut d = op.request_doc.clone();
            d.push(note.clone());
            doc(out, &d);
            for v in &class_vars {
                out.line(v);
            }
            // The default is one shared empty mapping; each request without params gets
            // a dict of its own (as `field(default_factory=dict)` gave).
            out.line("_NO_PARAMS: ClassVar[Mapping[str, WireValue]] = {}");
            let params = Slot {
                stored: Some("{} if params is self._NO_PARAMS else params".to_owned()),
                ..Slot::new(
                    "params".to_owned(),
                    "Mapping[str, WireValue]".to_owned(),
                    Some("_NO_PARAMS"),
                    "The `params` object, sent as given (no null, no float).".to_owned(),
                )
            };
            slots_and_init(out, &[params]);
            out.blank();
            out.line("def _to_wire(self) -> dict[str, WireValue]:");
            out.line("    return dict(self.params)");
            out.dedent();
        }
    }
    out.indent();
    out.blank();
    out.line(&format!(
        "def _decode_response(self, data: JsonValue) -> {resp}:"
    ));
    match &op.response {
        ResponsePlan::Raw { .. } => out.line("    return data"),
        _ => out.line(&format!("    return {resp}._from_wire(data, \"data\")")),
    }
    if let Some(pages) = &op.calls.pages {
        paging_methods(out, plan, op, pages);
    }
    out.dedent();
}

/// A paged request's `_page`, `_with_page`, `_page_size` and `_split`.
fn paging_methods(out: &mut Out, plan: &SdkPlan, op: &OperationPlan, pages: &PagesCall) {
    let param = |wire: &str| {
        let ty = op.param(wire).map_or(TypeRef::Long, |f| f.ty.clone());
        (field_ident(op.params(), wire), ty)
    };
    let (page, page_ty) = param(&pages.page);
    let (size, size_ty) = param(&pages.size);
    let first = pages.first_page.to_string();
    out.blank();
    out.line("def _page(self) -> int:");
    let value = as_int(&page_ty, &format!("self.{page}"), &first);
    out.line(&format!("    return {value}"));
    out.blank();
    out.line(&format!(
        "def _with_page(self, page: int) -> {}:",
        request_name(op)
    ));
    let value = if page_ty == TypeRef::String {
        "str(page)"
    } else {
        "page"
    };
    let args: Vec<String> = required_first(op.params())
        .map(|f| ident(&f.words))
        .map(|id| match id == page {
            true => format!("{id}={value}"),
            false => format!("{id}=self.{id}"),
        })
        .collect();
    out.line(&format!(
        "    return {}({})",
        request_name(op),
        args.join(", ")
    ));
    out.blank();
    out.line("def _page_size(self) -> int | None:");
    let value = as_int(&size_ty, &format!("self.{size}"), "None");
    out.line(&format!("    return {value}"));
    out.blank();
    let item = py_type(&pages.item, Direction::Received);
    out.line(&format!(
        "def _split(self, response: {}) -> tuple[list[{item}], int | None]:",
        response_name(op)
    ));
    let answer = plan.answer_fields(op);
    let total = match &pages.total {
        Some(wire) => format!("response.{}", field_ident(answer, wire)),
        None => "None".to_owned(),
    };
    out.line(&format!(
        "    return (response.{} or [], {total})",
        field_ident(answer, &pages.items)
    ));
}

fn as_int(ty: &TypeRef, value: &str, fallback: &str) -> String {
    if *ty == TypeRef::String {
        format!("int({value}) if {value}.isdigit() else {fallback}")
    } else {
        value.to_owned()
    }
}
