//! `records.py`, and the classes of sent shapes (validated, strict) and received shapes
//! (every field optional, read leniently) that requests and responses are made of.

use super::super::names::{self, ident, py_type, reader, sent_type, string, to_wire};
use super::super::{doc, docstring, module};
use super::slotted::{slots_and_init, Slot, SET};
use super::validation::{constraint_check, field_checks};
use crate::plan::{sentences, ConstraintPlan, Direction, Doc, FieldPlan, SdkPlan};
use crate::text::Out;

/// The docstring of a field, on one line: its doc in `dir` and its wire name.
fn field_doc(field: &FieldPlan, dir: Direction) -> String {
    let mut d = field.doc(dir).clone();
    d.push(sentences::wire_name(&field.wire_name));
    d.plain().replace("\n\n", " ")
}

/// `records.py`: every record, in each shape it is used in.
pub fn records_module(plan: &SdkPlan) -> String {
    let mut out = module(
        "The records of the API: sent shapes (validated, strict) and received shapes (every \
         field optional, unknown members ignored).",
    );
    out.line("import datetime as _dt");
    out.line("from decimal import Decimal");
    out.line("from typing import Sequence");
    out.blank();
    out.line("import baas_runtime.wire as _w");
    out.line("from baas_runtime import FieldPath, JsonValue, Scalar, Unknown, Validator");
    out.line("from baas_runtime.record import Record");
    out.line("from baas_runtime.wire import WireValue");
    let mut enums = Vec::new();
    for f in plan.records.iter().flat_map(|r| &r.fields) {
        names::named(&f.ty, Direction::Sent, &mut enums, &mut Vec::new());
    }
    enums.sort();
    enums.dedup();
    if !enums.is_empty() {
        out.line(&format!("from .enums import {}", enums.join(", ")));
    }
    out.blank();
    out.line(SET);
    for r in &plan.records {
        for (dir, shown) in [(Direction::Sent, r.sent), (Direction::Received, r.received)] {
            if !shown {
                continue;
            }
            out.blank();
            out.blank();
            let name = r.name_in(dir);
            match dir {
                Direction::Sent => {
                    let class_line = format!("class {name}(Record):");
                    sent_class(&mut out, (&class_line, &[]), &r.doc_in(dir), &r.fields, &[]);
                }
                Direction::Received => received_class(&mut out, name, &r.doc_in(dir), &r.fields),
            }
        }
    }
    out.line_raw("");
    out.finish()
}

/// A class of a sent shape (a frozen record, see [`super::slotted`]): required fields as
/// required keyword arguments, its rules checked by `_validate_at`, its wire form by
/// `_to_wire`. The class line opens it and the class variables follow its docstring.
pub fn sent_class(
    out: &mut Out,
    (class_line, class_vars): (&str, &[String]),
    class_doc: &Doc,
    fields: &[FieldPlan],
    constraints: &[ConstraintPlan],
) {
    out.line(class_line);
    out.indent();
    doc(out, class_doc);
    for v in class_vars {
        out.line(v);
    }
    let slots: Vec<Slot> = required_first(fields)
        .map(|f| {
            let (ty, default) = match f.required() {
                true => (sent_type(f), None),
                false => (format!("{} | None", sent_type(f)), Some("None")),
            };
            Slot::new(ident(&f.words), ty, default, field_doc(f, Direction::Sent))
        })
        .collect();
    slots_and_init(out, &slots);
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
        let id = ident(&f.words);
        let wire = string(&f.wire_name);
        let value = to_wire(&f.ty, &format!("self.{id}"), &f.wire_name);
        if f.required() {
            out.line(&format!("out[{wire}] = {value}"));
        } else {
            out.line(&format!("if self.{id} is not None:"));
            out.line(&format!("    out[{wire}] = {value}"));
        }
    }
    out.line("return out");
    out.dedent();
    out.dedent();
}

/// The fields a sent shape takes, required ones first (as its keyword arguments list
/// them).
pub fn required_first(fields: &[FieldPlan]) -> impl Iterator<Item = &FieldPlan> {
    let (required, optional): (Vec<&FieldPlan>, Vec<&FieldPlan>) =
        fields.iter().partition(|f| f.required());
    required.into_iter().chain(optional)
}

/// A class of a received shape (a frozen record, see [`super::slotted`]): every field
/// optional, read leniently by `_from_wire`.
pub fn received_class(out: &mut Out, name: &str, class_doc: &Doc, fields: &[FieldPlan]) {
    out.line(&format!("class {name}(Record):"));
    out.indent();
    doc(out, class_doc);
    let slots: Vec<Slot> = fields
        .iter()
        .map(|f| {
            let ty = format!("{} | None", py_type(&f.ty, Direction::Received));
            let doc = field_doc(f, Direction::Received);
            Slot::new(ident(&f.words), ty, Some("None"), doc)
        })
        .collect();
    slots_and_init(out, &slots);
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
        for f in fields {
            out.line(&format!(
                "    {}={}(o.get({}), at + {}),",
                ident(&f.words),
                reader(&f.ty),
                string(&f.wire_name),
                string(&format!(".{}", f.wire_name))
            ));
        }
        out.line(")");
    }
    out.dedent();
    out.dedent();
}
