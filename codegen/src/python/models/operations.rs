//! A group's module: each operation's response (a received shape) and request (a sent
//! shape with the operation's class variables, its decoding and its paging).

use super::super::names::{self, ident, py_type, string, Direction};
use super::super::Out;
use super::docstring;
use super::records::{received_class, sent_class};
use super::validation::constraint_words;
use crate::model::{Api, Field, Group, Operation, Paging, PagingItems, Params, Response, TypeRef};

/// The response's Python type name for an operation.
pub fn response_name(op: &Operation) -> String {
    format!("{}Response", op.type_name)
}

/// The request's class name.
pub fn request_name(op: &Operation) -> String {
    format!("{}Request", op.type_name)
}

/// The fields of an operation's response when its shape is known.
pub fn response_fields<'a>(api: &'a Api, op: &'a Operation) -> Option<&'a [Field]> {
    match &op.response {
        Response::Fields { fields, .. } => Some(fields),
        Response::Record { record, .. } => api.record(record).map(|r| r.fields.as_slice()),
        Response::Unspecified { .. } | Response::Empty { .. } => None,
    }
}

/// A group's module: each operation's response and request.
pub fn group_module(group: &Group) -> Out {
    let doc = if group.doc.trim().is_empty() {
        format!("The operations of the group `{}`.", group.name)
    } else {
        group.doc.trim().to_owned()
    };
    let mut out = Out::module(&doc);
    out.line("import dataclasses");
    out.line("from dataclasses import dataclass, field");
    out.line("from decimal import Decimal");
    out.line("from typing import ClassVar, Mapping, Sequence");
    out.blank();
    out.line("import baas_runtime.wire as _w");
    out.line(
        "from baas_runtime import FieldPath, JsonValue, PagedRequest, Request, Scalar, Unknown, Validator",
    );
    out.line("from baas_runtime.wire import WireValue");
    let mut fields = Vec::new();
    let mut record_names = Vec::new();
    for op in &group.operations {
        if let Params::Fields { fields: fs } = &op.params {
            fields.extend(fs.iter().map(|f| (f, Direction::Sent)));
        }
        if let Response::Fields { fields: fs, .. } = &op.response {
            fields.extend(fs.iter().map(|f| (f, Direction::Received)));
        }
        if let Response::Record { received_name, .. } = &op.response {
            record_names.push(received_name.clone());
        }
        if let Some(items) = op.paging.as_ref().and_then(|p| p.items.as_ref()) {
            let (mut e, mut r) = (Vec::new(), Vec::new());
            names::named(&items.item, Direction::Received, &mut e, &mut r);
            record_names.extend(r);
        }
    }
    let (mut enums, mut records) = (Vec::new(), record_names);
    for (f, dir) in &fields {
        names::named(&f.ty, *dir, &mut enums, &mut records);
    }
    enums.sort();
    enums.dedup();
    records.sort();
    records.dedup();
    if !enums.is_empty() {
        out.line(&format!("from .enums import {}", enums.join(", ")));
    }
    if !records.is_empty() {
        out.line(&format!("from .records import {}", records.join(", ")));
    }
    out.blank();
    out.line("__all__ = [");
    for op in &group.operations {
        out.line(&format!("    {},", string(&request_name(op))));
        out.line(&format!("    {},", string(&response_name(op))));
    }
    out.line("]");
    for op in &group.operations {
        response(&mut out, op);
        request(&mut out, op);
    }
    out.line_raw("");
    out
}

fn response(out: &mut Out, op: &Operation) {
    let name = response_name(op);
    out.blank();
    out.blank();
    match &op.response {
        Response::Fields { fields, .. } => {
            let doc = format!("The `data` of a `{}` answer.", op.name);
            received_class(out, &name, &doc, fields);
        }
        Response::Record { received_name, .. } => {
            out.line(&format!("{name} = {received_name}"));
            docstring(
                out,
                &format!("The `data` of a `{}` answer: a `{received_name}`.", op.name),
            );
        }
        Response::Unspecified { note } => {
            out.line(&format!("{name} = JsonValue"));
            docstring(
                out,
                &format!(
                    "The `data` of a `{}` answer, as received (the spec does not show its shape: \
                     numbers keep their literal text). {}",
                    op.name,
                    note.trim()
                ),
            );
        }
        Response::Empty { note } => {
            let doc = format!(
                "The `data` of a `{}` answer: nothing but the code. {}",
                op.name,
                note.trim()
            );
            received_class(out, &name, &doc, &[]);
        }
    }
}

/// The paging of an operation whose answer holds the items: its parameters and items.
type Paged<'a> = Option<(&'a Paging, &'a PagingItems)>;

/// An operation's request class: its docstring and class variables, its fields (checked
/// and written as a sent shape) or its free `params`, the decoding of its answer, and
/// the paging methods of a paged operation.
fn request(out: &mut Out, op: &Operation) {
    let name = request_name(op);
    let resp = response_name(op);
    let paged = op
        .paging
        .as_ref()
        .and_then(|p| p.items.as_ref().map(|items| (p, items)));
    out.blank();
    out.blank();
    let base = match paged {
        Some((_, items)) => format!(
            "PagedRequest[{resp}, {}]",
            py_type(&items.item, Direction::Received)
        ),
        None => format!("Request[{resp}]"),
    };
    let doc = request_doc(op);
    let class_line = format!("class {name}({base}):");
    let class_vars = class_vars(op, paged);
    match &op.params {
        Params::Fields { fields } => {
            sent_class(out, &class_line, &doc, fields, &op.constraints, &class_vars);
        }
        Params::Unspecified { note } => {
            free_params_class(out, &class_line, &doc, note, &class_vars);
        }
    }
    out.indent();
    out.blank();
    decode_response(out, op, &resp);
    if let Some((p, items)) = paged {
        paging_methods(out, &name, &resp, p, items);
    }
    out.dedent();
}

/// A request's docstring: the operation's doc, its call, what it does to money, its
/// constraints and its deprecation.
fn request_doc(op: &Operation) -> String {
    let mut doc = if op.doc.trim().is_empty() {
        format!("The request of `{}`.", op.name)
    } else {
        op.doc.trim().to_owned()
    };
    doc.push_str(&format!("\n\nOperation `{}`: `POST {}`.", op.name, op.path));
    if op.moves_money {
        doc.push_str(" Moves money: never re-sent once its bytes may have left.");
    }
    if op.otp {
        doc.push_str(
            " Takes effect only once confirmed with an OTP (`sendOtp`, `confirmOperation`).",
        );
    }
    for c in &op.constraints {
        doc.push_str(&format!("\n\nConstraint: {}", constraint_words(c)));
    }
    if let Some(note) = &op.deprecated {
        doc.push_str(&format!("\n\nDeprecated: {note}"));
    }
    doc
}

/// A request's class variables: `OPERATION`, `PATH`, `MOVES_MONEY`, and `FIRST_PAGE`
/// when paged.
fn class_vars(op: &Operation, paged: Paged) -> Vec<String> {
    let mut class_vars = vec![
        format!("OPERATION: ClassVar[str] = {}", string(&op.name)),
        format!("PATH: ClassVar[str] = {}", string(&op.path)),
        format!(
            "MOVES_MONEY: ClassVar[bool] = {}",
            if op.moves_money { "True" } else { "False" }
        ),
    ];
    if let Some((p, _)) = paged {
        class_vars.push(format!("FIRST_PAGE: ClassVar[int] = {}", p.first_page));
    }
    class_vars
}

/// The request class of an operation whose parameters the spec does not show: a
/// `params` mapping sent as given.
fn free_params_class(
    out: &mut Out,
    class_line: &str,
    doc: &str,
    note: &str,
    class_vars: &[String],
) {
    out.line("@dataclass(frozen=True, kw_only=True, slots=True)");
    out.line(class_line);
    out.indent();
    docstring(
        out,
        &format!(
            "{doc}\n\nThe spec does not show the parameters: `params` is sent as given. {}",
            note.trim()
        ),
    );
    for v in class_vars {
        out.line(v);
    }
    out.line("params: Mapping[str, WireValue] = field(default_factory=dict)");
    docstring(
        out,
        "The `params` object, sent as given (no null, no float).",
    );
    out.blank();
    out.line("def _to_wire(self) -> dict[str, WireValue]:");
    out.line("    return dict(self.params)");
    out.dedent();
}

/// `_decode_response`: the answer's `data` as the response type.
fn decode_response(out: &mut Out, op: &Operation, resp: &str) {
    out.line(&format!(
        "def _decode_response(self, data: JsonValue) -> {resp}:"
    ));
    out.indent();
    match &op.response {
        Response::Unspecified { .. } => out.line("return data"),
        _ => out.line(&format!("return {resp}._from_wire(data, \"data\")")),
    }
    out.dedent();
}

/// A paged request's `_page`, `_with_page`, `_page_size` and `_split`.
fn paging_methods(out: &mut Out, name: &str, resp: &str, p: &Paging, items: &PagingItems) {
    let page = ident(&p.page.rust_name);
    let size = ident(&p.size.rust_name);
    out.blank();
    out.line("def _page(self) -> int:");
    out.line(&format!(
        "    return {}",
        as_int(
            &p.page.ty,
            &format!("self.{page}"),
            &p.first_page.to_string()
        )
    ));
    out.blank();
    out.line(&format!("def _with_page(self, page: int) -> {name}:"));
    let value = if p.page.ty == TypeRef::String {
        "str(page)"
    } else {
        "page"
    };
    out.line(&format!(
        "    return dataclasses.replace(self, {page}={value})"
    ));
    out.blank();
    out.line("def _page_size(self) -> int | None:");
    out.line(&format!(
        "    return {}",
        as_int(&p.size.ty, &format!("self.{size}"), "None")
    ));
    out.blank();
    let item = py_type(&items.item, Direction::Received);
    out.line(&format!(
        "def _split(self, response: {resp}) -> tuple[list[{item}], int | None]:"
    ));
    let total = match &p.total {
        Some(t) => format!("response.{}", ident(&t.rust_name)),
        None => "None".to_owned(),
    };
    out.line(&format!(
        "    return (response.{} or [], {total})",
        ident(&items.rust_name)
    ));
}

fn as_int(ty: &TypeRef, value: &str, fallback: &str) -> String {
    if *ty == TypeRef::String {
        format!("int({value}) if {value}.isdigit() else {fallback}")
    } else {
        value.to_owned()
    }
}
