//! `records.py`, and the classes of sent shapes (validated, strict) and received shapes
//! (every field optional, read leniently) that requests and responses are made of.

use super::super::names::{self, ident, py_type, reader, string, to_wire, Direction};
use super::super::Out;
use super::docstring;
use super::validation::{constraint_check, field_checks};
use crate::model::{Api, Constraint, Field, Record};

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
    out.line("from baas_runtime import FieldPath, JsonValue, Scalar, Unknown, Validator");
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
