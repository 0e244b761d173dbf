//! Enums, records, and each group's requests and responses, as Python source.

use super::names::{
    self, decimal, doc_text, ident, member, py_type, reader, string, to_wire, Direction,
};
use super::Out;
use crate::model::{
    Api, Condition, Constraint, ConstraintKind, EnumWireType, Field, Group, Operation, ParamRef,
    Params, Record, Response, TypeRef,
};
use crate::rules::{CheckArg, CheckLevel, CheckValue};

/// The docstring of a field: its doc, its rules in words, its deprecation.
fn field_doc(field: &Field, dir: Direction) -> String {
    let mut parts = Vec::new();
    if !field.doc.trim().is_empty() {
        parts.push(field.doc.trim().to_owned());
    }
    parts.push(format!("Wire name `{}`.", field.wire_name));
    if dir == Direction::Sent {
        let rules: Vec<String> = field.rules.iter().map(|r| r.kind.words()).collect();
        if !rules.is_empty() {
            parts.push(format!("Rules: {}.", rules.join("; ")));
        }
    }
    if let Some(note) = &field.deprecated {
        parts.push(format!("Deprecated: {note}"));
    }
    parts.join(" ")
}

/// A docstring at the current indentation.
pub fn docstring(out: &mut Out, text: &str) {
    let body = doc_text(text.trim());
    if body.contains('\n') {
        out.line(&format!("\"\"\"{body}"));
        out.line("\"\"\"");
    } else {
        out.line(&format!("\"\"\"{body}\"\"\""));
    }
}

/// `enums.py`: every value set, the result codes and the notification types.
pub fn enums_module(api: &Api) -> Out {
    let mut out = Out::module(
        "The value sets of the API. A received value the client does not know is kept as \
         `baas_runtime.Unknown` (its text), never an error; a value to send is a member.",
    );
    out.line("import enum");
    out.blank();
    out.line("from baas_runtime import BaasError, Unknown");
    out.line("from baas_runtime.notification import Notification");
    for e in &api.enums {
        out.blank();
        out.blank();
        out.line(&format!("class {}(enum.Enum):", e.name));
        out.indent();
        let mut doc = e.doc.trim().to_owned();
        if doc.is_empty() {
            doc = format!("The value set `{}`.", e.name);
        }
        docstring(&mut out, &doc);
        out.blank();
        let mut used: Vec<String> = Vec::new();
        for v in &e.values {
            let name = unique(member(&v.name), &mut used);
            let value = match (e.wire_type, v.integer) {
                (EnumWireType::Integer, Some(n)) => n.to_string(),
                _ => string(&v.wire),
            };
            out.line(&format!("{name} = {value}"));
            let mut text = v.doc.trim().to_owned();
            if let Some(note) = &v.deprecated {
                text = format!("{text} Deprecated: {note}").trim().to_owned();
            }
            if text.is_empty() {
                text = format!("Wire value `{}`.", v.wire);
            }
            docstring(&mut out, &text);
        }
        out.dedent();
    }
    codes(&mut out, api);
    out
}

fn unique(name: String, used: &mut Vec<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while used.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    used.push(candidate.clone());
    candidate
}

fn codes(out: &mut Out, api: &Api) {
    out.blank();
    out.blank();
    out.line("class ResultCode(enum.Enum):");
    out.indent();
    docstring(
        out,
        "The service's result codes (`00000` is success). Read an error's code as one with \
         `ResultCode.from_error(error)`.",
    );
    out.blank();
    let mut used = Vec::new();
    for c in &api.result_codes {
        out.line(&format!(
            "{} = {}",
            unique(member(&c.name), &mut used),
            string(&c.code)
        ));
        let retry = if c.retryable { " Retryable." } else { "" };
        docstring(out, &format!("{}{retry}", c.text.trim()));
    }
    out.blank();
    out.line("@classmethod");
    out.line("def from_error(cls, error: BaseException) -> \"ResultCode | Unknown | None\":");
    out.indent();
    docstring(out, "The result code of an `ApiError` (`Unknown` for a code this client does not list), else None.");
    out.line("code = error.api_code if isinstance(error, BaasError) else None");
    out.line("if code is None:");
    out.line("    return None");
    out.line("for member in cls:");
    out.line("    if member.value == code:");
    out.line("        return member");
    out.line("return Unknown(code)");
    out.dedent();
    out.dedent();
    out.blank();
    out.blank();
    let retryable: Vec<String> = api
        .result_codes
        .iter()
        .filter(|c| c.retryable)
        .map(|c| string(&c.code))
        .collect();
    out.line(&format!(
        "RETRYABLE_CODES: frozenset[str] = frozenset({{{}}})",
        retryable.join(", ")
    ));
    docstring(
        out,
        "The result codes after which the spec says a call may be tried again.",
    );
    out.blank();
    out.blank();
    out.line("class NotificationType(enum.Enum):");
    out.indent();
    docstring(
        out,
        "The notifications the service POSTs to the partner's callback URL.",
    );
    out.blank();
    let mut used = Vec::new();
    for n in &api.notifications {
        out.line(&format!(
            "{} = {}",
            unique(member(&n.name), &mut used),
            string(&n.notification_type)
        ));
        let mut text = n.doc.trim().to_owned();
        if !n.payload_note.trim().is_empty() {
            text = format!("{text} {}", n.payload_note.trim());
        }
        docstring(out, &text);
    }
    out.blank();
    out.line("@classmethod");
    out.line("def of(cls, notification: Notification) -> \"NotificationType | Unknown\":");
    out.indent();
    docstring(
        out,
        "The type of a verified notification (`Unknown` for a type this client does not list).",
    );
    out.line("for member in cls:");
    out.line("    if member.value == notification.notification_type:");
    out.line("        return member");
    out.line("return Unknown(notification.notification_type)");
    out.dedent();
    out.dedent();
}

/// Imports of the enums and records a module's fields name.
fn imports(out: &mut Out, fields: &[(&Field, Direction)], own_records: bool) {
    let (mut enums, mut records) = (Vec::new(), Vec::new());
    for (f, dir) in fields {
        names::named(&f.ty, *dir, &mut enums, &mut records);
    }
    enums.sort();
    enums.dedup();
    records.sort();
    records.dedup();
    if !enums.is_empty() {
        out.line(&format!("from .enums import {}", enums.join(", ")));
    }
    if !records.is_empty() && !own_records {
        out.line(&format!("from .records import {}", records.join(", ")));
    }
}

/// `records.py`: every record, in each shape it is used in.
pub fn records_module(api: &Api) -> Out {
    let mut out = Out::module(
        "The records of the API: sent shapes (validated, strict) and received shapes (every \
         field optional, unknown members ignored).",
    );
    out.line("from dataclasses import dataclass");
    out.line("from decimal import Decimal");
    out.line("from typing import Sequence");
    out.blank();
    out.line("import baas_runtime.wire as _w");
    out.line("from baas_runtime import FieldPath, JsonValue, Unknown, Validator");
    out.line("from baas_runtime.wire import WireValue");
    let mut fields = Vec::new();
    for r in &api.records {
        for f in &r.fields {
            fields.push((f, Direction::Sent));
            fields.push((f, Direction::Received));
        }
    }
    imports(&mut out, &fields, true);
    for r in &api.records {
        if r.used_in_request {
            out.blank();
            out.blank();
            sent_class(
                &mut out,
                &format!("class {}:", r.name),
                &record_doc(r, Direction::Sent),
                &r.fields,
                &[],
                &[],
            );
        }
        if r.used_in_response || !r.used_in_request {
            out.blank();
            out.blank();
            received_class(
                &mut out,
                &r.received_name,
                &record_doc(r, Direction::Received),
                &r.fields,
            );
        }
    }
    out.line_raw("");
    out
}

fn record_doc(r: &Record, dir: Direction) -> String {
    let doc = if r.doc.trim().is_empty() {
        format!("The record `{}`.", r.name)
    } else {
        r.doc.trim().to_owned()
    };
    match (dir, r.has_two_shapes()) {
        (Direction::Received, true) => format!("{doc}\n\nAs received (every field optional)."),
        (Direction::Sent, true) => format!("{doc}\n\nAs sent in requests."),
        _ => doc,
    }
}

/// A class of a sent shape: required fields as required keyword arguments, its rules
/// checked by `_validate_at`, its wire form by `_to_wire`. `class_line` opens it and
/// `class_vars` follow its docstring.
pub fn sent_class(
    out: &mut Out,
    class_line: &str,
    doc: &str,
    fields: &[Field],
    constraints: &[Constraint],
    class_vars: &[String],
) {
    out.line("@dataclass(frozen=True, kw_only=True, slots=True)");
    out.line(class_line);
    out.indent();
    docstring(out, doc);
    for v in class_vars {
        out.line(v);
    }
    let (required, optional): (Vec<&Field>, Vec<&Field>) =
        fields.iter().partition(|f| !f.optional_when_sent());
    for f in required.iter().chain(optional.iter()) {
        let ty = py_type(&f.ty, Direction::Sent);
        if f.optional_when_sent() {
            out.line(&format!("{}: {ty} | None = None", ident(&f.rust_name)));
        } else {
            out.line(&format!("{}: {ty}", ident(&f.rust_name)));
        }
        docstring(out, &field_doc(f, Direction::Sent));
    }
    out.blank();
    out.line("def _validate_at(self, v: Validator, at: FieldPath) -> None:");
    out.indent();
    let before = out.len();
    for f in fields {
        field_checks(out, f);
    }
    for c in constraints {
        constraint_check(out, c);
    }
    if out.len() == before {
        out.line("pass");
    }
    out.dedent();
    out.blank();
    out.line("def _to_wire(self) -> dict[str, WireValue]:");
    out.indent();
    out.line("out: dict[str, WireValue] = {}");
    for f in fields {
        let id = ident(&f.rust_name);
        let wire = string(&f.wire_name);
        if f.optional_when_sent() {
            out.line(&format!("if self.{id} is not None:"));
            out.line(&format!(
                "    out[{wire}] = {}",
                to_wire(&f.ty, &format!("self.{id}"), &f.wire_name)
            ));
        } else {
            out.line(&format!(
                "out[{wire}] = {}",
                to_wire(&f.ty, &format!("self.{id}"), &f.wire_name)
            ));
        }
    }
    out.line("return out");
    out.dedent();
    out.dedent();
}

/// The type check of one value, as a condition (`v.is_type(...)`).
fn type_check(ty: &TypeRef, value: &str, path: &str) -> Option<String> {
    Some(match ty {
        TypeRef::String => format!("v.is_type({path}, {value}, str, \"a str\")"),
        TypeRef::Int => format!("v.is_int({path}, {value}, 32)"),
        TypeRef::Long => format!("v.is_int({path}, {value}, 64)"),
        TypeRef::Decimal { .. } => format!("v.is_decimal({path}, {value})"),
        TypeRef::Bool => format!("v.is_type({path}, {value}, bool, \"a bool\")"),
        TypeRef::Json => return None,
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => {
            format!("v.is_type({path}, {value}, {name}, \"a {name}\")")
        }
        TypeRef::Array { .. } => format!("v.is_list({path}, {value})"),
    })
}

/// The rule checks of one value of scalar type `ty` held in `value` at `path`.
fn scalar_checks(field: &Field, ty: &TypeRef, value: &str, path: &str) -> Vec<String> {
    let mut lines: Vec<String> = field
        .rules
        .iter()
        .filter_map(|r| r.kind.check(ty))
        .filter(|c| c.level == CheckLevel::Value)
        .map(|check| {
            let v = match check.value {
                CheckValue::Text | CheckValue::Amount | CheckValue::Integer => value.to_owned(),
                CheckValue::Length => format!("len({value})"),
            };
            call(check.method, path, &v, &check.args)
        })
        .collect();
    if let TypeRef::Record { .. } = ty {
        lines.push(format!("{value}._validate_at(v, {path})"));
    }
    lines
}

fn call(method: &str, path: &str, value: &str, args: &[CheckArg]) -> String {
    let mut parts = vec![path.to_owned(), value.to_owned()];
    for a in args {
        parts.push(match a {
            CheckArg::Count(n) => n.to_string(),
            CheckArg::Places(n) => n.to_string(),
            CheckArg::Integer(Some(n)) => n.to_string(),
            CheckArg::Amount(Some(n)) => decimal(*n),
            CheckArg::Integer(None) | CheckArg::Amount(None) => "None".to_owned(),
        });
    }
    format!("v.{method}({})", parts.join(", "))
}

/// Writes `lines` under `cond` (or as they are when there is no condition).
fn guarded(out: &mut Out, cond: Option<String>, lines: &[String]) {
    match cond {
        Some(cond) if lines.is_empty() => out.line(&cond),
        Some(cond) => {
            out.line(&format!("if {cond}:"));
            out.indent();
            for l in lines {
                out.line(l);
            }
            out.dedent();
        }
        None => {
            for l in lines {
                out.line(l);
            }
        }
    }
}

/// The checks of one field: its type, then its rules (as the Rust runtime's order).
fn field_checks(out: &mut Out, field: &Field) {
    let id = ident(&field.rust_name);
    let value = format!("self.{id}");
    let path = format!("at.field({})", string(&field.wire_name));
    let optional = field.optional_when_sent();
    let mut body: Vec<String> = Vec::new();
    let mut nested: Option<(String, Vec<String>, Vec<String>)> = None;
    match &field.ty {
        TypeRef::Array { item } => {
            for check in field
                .rules
                .iter()
                .filter_map(|r| r.kind.check(&field.ty))
                .filter(|c| c.level == CheckLevel::Array)
            {
                body.push(call(
                    check.method,
                    "p",
                    &format!("len({value})"),
                    &check.args,
                ));
            }
            let element = format!("{id}_item");
            let element_checks = scalar_checks(field, item, &element, "q");
            let element_type = type_check(item, &element, "q");
            nested = Some((element_type.unwrap_or_default(), element_checks, Vec::new()));
        }
        ty => body.extend(scalar_checks(field, ty, &value, "p")),
    }
    if !optional && field.ty == TypeRef::String {
        body.insert(0, format!("v.required(p, {value} != \"\")"));
    }
    let cond = type_check(&field.ty, &value, "p");
    if cond.is_none() && body.is_empty() && nested.is_none() {
        return;
    }
    out.line(&format!("p = {path}"));
    if optional {
        out.line(&format!("if {value} is not None:"));
        out.indent();
    }
    let has_elements = nested
        .as_ref()
        .is_some_and(|(t, c, _)| !t.is_empty() || !c.is_empty());
    match (cond, has_elements) {
        (Some(cond), true) => {
            out.line(&format!("if {cond}:"));
            out.indent();
            for l in &body {
                out.line(l);
            }
            elements(out, &value, &format!("{id}_item"), nested);
            out.dedent();
        }
        (cond, _) => guarded(out, cond, &body),
    }
    if optional {
        out.dedent();
    }
}

fn elements(
    out: &mut Out,
    value: &str,
    element: &str,
    nested: Option<(String, Vec<String>, Vec<String>)>,
) {
    let Some((type_cond, checks, _)) = nested else {
        return;
    };
    out.line(&format!("for i, {element} in enumerate({value}):"));
    out.indent();
    out.line("q = p.index(i)");
    let cond = (!type_cond.is_empty()).then_some(type_cond);
    guarded(out, cond, &checks);
    out.dedent();
}

/// Whether a parameter is present: set, and for strings non-empty.
fn present(p: &ParamRef) -> String {
    let id = ident(&p.rust_name);
    match (p.text, p.optional) {
        (true, true) => format!("(self.{id} is not None and self.{id} != \"\")"),
        (false, true) => format!("self.{id} is not None"),
        (true, false) => format!("self.{id} != \"\""),
        (false, false) => "True".to_owned(),
    }
}

fn condition_text(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => format!("{} is {value}", field.wire_name),
        Condition::SumGreaterThan { array, item, value } => format!(
            "the sum of {}[].{} is greater than {value}",
            array.wire_name, item.wire_name
        ),
    }
}

fn condition_expr(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => {
            format!(
                "_w.wire_text(self.{}) == {}",
                ident(&field.rust_name),
                string(value)
            )
        }
        Condition::SumGreaterThan { array, item, value } => {
            let id = ident(&array.rust_name);
            let item_id = ident(&item.rust_name);
            let items = if array.optional {
                format!("(self.{id} or ())")
            } else {
                format!("self.{id}")
            };
            format!(
                "sum((x.{item_id} for x in {items} if x.{item_id} is not None), Decimal(0)) > {}",
                decimal(*value)
            )
        }
    }
}

fn constraint_check(out: &mut Out, c: &Constraint) {
    let pairs = |refs: &[ParamRef]| {
        let items: Vec<String> = refs
            .iter()
            .map(|p| format!("({}, {})", string(&p.wire_name), present(p)))
            .collect();
        format!("[{}]", items.join(", "))
    };
    match &c.kind {
        ConstraintKind::RequiredIf { field, when } => out.line(&format!(
            "v.required_if(at.field({}), {}, {}, {})",
            string(&field.wire_name),
            present(field),
            condition_expr(when),
            string(&condition_text(when))
        )),
        ConstraintKind::AtLeastOneOf { fields } => {
            out.line(&format!("v.at_least_one_of(at, {})", pairs(fields)))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            out.line(&format!("v.exactly_one_of(at, {})", pairs(fields)))
        }
        ConstraintKind::ServerSide { .. } => {}
    }
}

/// A class of a received shape: every field optional, read leniently by `_from_wire`.
pub fn received_class(out: &mut Out, name: &str, doc: &str, fields: &[Field]) {
    out.line("@dataclass(frozen=True, kw_only=True, slots=True)");
    out.line(&format!("class {name}:"));
    out.indent();
    docstring(out, doc);
    for f in fields {
        out.line(&format!(
            "{}: {} | None = None",
            ident(&f.rust_name),
            py_type(&f.ty, Direction::Received)
        ));
        docstring(out, &field_doc(f, Direction::Received));
    }
    out.blank();
    out.line("@classmethod");
    out.line(&format!(
        "def _from_wire(cls, value: JsonValue, at: str) -> {name}:"
    ));
    out.indent();
    docstring(
        out,
        "Reads the received value at `at`; members it does not know are ignored.",
    );
    if fields.is_empty() {
        out.line("_w.object_of(value, at)");
        out.line("return cls()");
    } else {
        out.line("o = _w.object_of(value, at)");
        out.line("return cls(");
        out.indent();
        for f in fields {
            let wire = string(&f.wire_name);
            out.line(&format!(
                "{}={}(o.get({wire}), at + {}),",
                ident(&f.rust_name),
                reader(&f.ty),
                string(&format!(".{}", f.wire_name))
            ));
        }
        out.dedent();
        out.line(")");
    }
    out.dedent();
    out.dedent();
}

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
pub fn group_module(api: &Api, group: &Group) -> Out {
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
        "from baas_runtime import FieldPath, JsonValue, PagedRequest, Request, Unknown, Validator",
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
        request(&mut out, api, op);
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

fn request(out: &mut Out, api: &Api, op: &Operation) {
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
    let class_line = format!("class {name}({base}):");
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
    match &op.params {
        Params::Fields { fields } => {
            sent_class(out, &class_line, &doc, fields, &op.constraints, &class_vars);
        }
        Params::Unspecified { note } => {
            out.line("@dataclass(frozen=True, kw_only=True, slots=True)");
            out.line(&class_line);
            out.indent();
            docstring(
                out,
                &format!(
                    "{doc}\n\nThe spec does not show the parameters: `params` is sent as given. {}",
                    note.trim()
                ),
            );
            for v in &class_vars {
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
    }
    out.indent();
    out.blank();
    out.line(&format!(
        "def _decode_response(self, data: JsonValue) -> {resp}:"
    ));
    out.indent();
    match &op.response {
        Response::Unspecified { .. } => out.line("return data"),
        _ => out.line(&format!("return {resp}._from_wire(data, \"data\")")),
    }
    out.dedent();
    if let Some((p, items)) = paged {
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
    out.dedent();
    let _ = api;
}

fn as_int(ty: &TypeRef, value: &str, fallback: &str) -> String {
    if *ty == TypeRef::String {
        format!("int({value}) if {value}.isdigit() else {fallback}")
    } else {
        value.to_owned()
    }
}

/// A constraint in words for a request's docstring.
fn constraint_words(c: &Constraint) -> String {
    let refs = |fields: &[ParamRef]| {
        fields
            .iter()
            .map(|f| format!("`{}`", f.wire_name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let text = match &c.kind {
        ConstraintKind::RequiredIf { field, when } => {
            format!(
                "`{}` is required when {}.",
                field.wire_name,
                condition_text(when)
            )
        }
        ConstraintKind::AtLeastOneOf { fields } => {
            format!("at least one of {} is required.", refs(fields))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            format!("exactly one of {} is required.", refs(fields))
        }
        ConstraintKind::ServerSide { fields, text } => {
            let names: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "{} (checked by the service only: {})",
                names.join(", "),
                text.trim()
            )
        }
    };
    if c.doc.trim().is_empty() {
        text
    } else {
        format!("{text} {}", c.doc.trim())
    }
}
