//! The members of a sent or received shape (a record, a request, a response): fields,
//! getters, a staged builder for what is sent, the checks before sending, writing, reading,
//! `equals`/`hashCode`/`toString`. Shared by records and operations.

use super::names::{self, doc_paragraphs, java_type, member, string_literal};
use super::Ctx;
use crate::model::{Emptiness, TypeRef};
use crate::plan::{Direction, Doc, FieldPlan};
use crate::rules::{CheckArg, CheckLevel, CheckValue};
use crate::text::Out;

/// One field as Java writes it.
pub struct JField<'a> {
    pub plan: &'a FieldPlan,
    /// Field, getter and setter name.
    pub name: String,
    /// Its Java type (boxed).
    pub ty: String,
}

/// The fields of a shape with their Java names (a name two wire names would share gets a
/// number).
pub fn fields(plans: &[FieldPlan], dir: Direction) -> Vec<JField<'_>> {
    let mut out: Vec<JField<'_>> = Vec::new();
    for plan in plans {
        let mut name = member(&plan.words);
        let base = name.clone();
        let mut n = 2;
        while out.iter().any(|f| f.name == name) {
            name = format!("{base}{n}");
            n += 1;
        }
        out.push(JField {
            plan,
            name,
            ty: java_type(&plan.ty, dir),
        });
    }
    out
}

/// A doc block: the paragraphs, then tags.
pub fn doc(out: &mut Out, doc: &Doc, tags: &[String]) {
    let mut paragraphs = doc_paragraphs(doc);
    if paragraphs.is_empty() && !tags.is_empty() {
        paragraphs.push("The value.".to_owned());
    }
    if !tags.is_empty() {
        // Tags after the text; a deprecation tag goes with them.
        let deprecated: Vec<String> = paragraphs
            .iter()
            .filter(|p| p.starts_with("@deprecated"))
            .cloned()
            .collect();
        paragraphs.retain(|p| !p.starts_with("@deprecated"));
        paragraphs.push(
            tags.iter()
                .chain(deprecated.iter())
                .cloned()
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    out.block_doc(&paragraphs, 92);
}

/// `@Deprecated` when the doc says so.
pub fn deprecated(out: &mut Out, doc: &Doc) {
    if doc.deprecated.is_some() {
        out.line("@Deprecated");
    }
}

/// The private final fields.
pub fn declare(out: &mut Out, fields: &[JField<'_>]) {
    for f in fields {
        out.line(&format!("private final {} {};", f.ty, f.name));
    }
}

/// Getters: `Optional<T>` for every received field and every optional sent one, `T` for
/// a required sent one.
pub fn getters(out: &mut Out, fields: &[JField<'_>], dir: Direction) {
    for f in fields {
        out.blank();
        let required = dir == Direction::Sent && f.plan.required();
        let wire = crate::plan::sentences::wire_name(&f.plan.wire_name);
        let ret = if required {
            "@return the value".to_owned()
        } else {
            "@return the value, or empty when absent".to_owned()
        };
        let mut d = f.plan.doc(dir).clone();
        d.push(wire);
        doc(out, &d, &[ret]);
        deprecated(out, f.plan.doc(dir));
        if required {
            out.line(&format!("public {} {}() {{", f.ty, f.name));
            out.line(&format!("    return {};", f.name));
        } else {
            out.line(&format!("public Optional<{}> {}() {{", f.ty, f.name));
            out.line(&format!("    return Optional.ofNullable({});", f.name));
        }
        out.line("}");
    }
}

/// `equals`, `hashCode` and `toString` over the fields.
pub fn value_methods(out: &mut Out, class: &str, fields: &[JField<'_>]) {
    out.blank();
    out.line("@Override");
    out.line("public boolean equals(Object other) {");
    out.indent();
    if fields.is_empty() {
        out.line(&format!("return other instanceof {class};"));
    } else {
        out.line(&format!("if (!(other instanceof {class} o)) {{"));
        out.line("    return false;");
        out.line("}");
        let parts: Vec<String> = fields
            .iter()
            .map(|f| format!("Objects.equals({0}, o.{0})", f.name))
            .collect();
        out.line(&format!("return {};", parts.join("\n        && ")));
    }
    out.dedent();
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line("public int hashCode() {");
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    out.line(&format!("    return Objects.hash({});", names.join(", ")));
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line("public String toString() {");
    if fields.is_empty() {
        out.line(&format!("    return \"{class}[]\";"));
    } else {
        let parts: Vec<String> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                format!(
                    "\"{}{}=\" + {}",
                    if i == 0 { "" } else { ", " },
                    f.name,
                    f.name
                )
            })
            .collect();
        out.line(&format!(
            "    return \"{class}[\" + {} + \"]\";",
            parts.join(" + ")
        ));
    }
    out.line("}");
}

/// The type a builder step or setter takes: a primitive for an integer or a boolean (so
/// `.startTime(0)` compiles and a required one cannot be `null`), else the field's type.
fn param_ty(f: &JField<'_>) -> String {
    match f.plan.ty {
        TypeRef::Int => "int".to_owned(),
        TypeRef::Long => "long".to_owned(),
        TypeRef::Bool => "boolean".to_owned(),
        _ => f.ty.clone(),
    }
}

/// The staged builder of a sent shape: a step per required field (in spec order, each
/// naming its field), then `Build` with a named setter per optional field and `build()`.
pub fn builder(out: &mut Out, class: &str, fields: &[JField<'_>]) {
    let required: Vec<&JField<'_>> = fields.iter().filter(|f| f.plan.required()).collect();
    let optional: Vec<&JField<'_>> = fields.iter().filter(|f| !f.plan.required()).collect();
    builder_entry(out, &required);
    step_interfaces(out, &required);
    build_interface(out, class, &optional);
    builder_class(out, class, fields, &required, &optional);
}

/// The step after the `i`th required field: the next required field's, or `Build`.
fn next_step(required: &[&JField<'_>], i: usize) -> String {
    required
        .get(i)
        .map_or_else(|| "Build".to_owned(), |n| names::step(&n.plan.words))
}

/// `builder()`, documented with the required fields its steps take in order.
fn builder_entry(out: &mut Out, required: &[&JField<'_>]) {
    let first = next_step(required, 0);
    out.blank();
    let steps: Vec<String> = required
        .iter()
        .map(|f| format!("<code>{}</code>", f.name))
        .collect();
    let how = if steps.is_empty() {
        "A builder: every field is optional.".to_owned()
    } else {
        format!(
            "A builder whose steps take the required fields in order ({}): leaving one out does not compile. Optional fields are named setters after them.",
            steps.join(", ")
        )
    };
    out.block_doc(&[how, "@return the first step".to_owned()], 92);
    out.line(&format!("public static {first} builder() {{"));
    out.line("    return new Builder();");
    out.line("}");
}

/// An interface per required field: its one method takes the field and returns the next
/// step.
fn step_interfaces(out: &mut Out, required: &[&JField<'_>]) {
    for (i, f) in required.iter().enumerate() {
        let next = next_step(required, i + 1);
        out.blank();
        out.block_doc(
            &[format!("The step that takes <code>{}</code>.", f.name)],
            92,
        );
        out.line(&format!(
            "public interface {} {{",
            names::step(&f.plan.words)
        ));
        out.indent();
        doc(
            out,
            f.plan.doc(Direction::Sent),
            &[
                format!("@param {} the value", f.name),
                "@return the next step".to_owned(),
            ],
        );
        out.line(&format!("{next} {}({} {});", f.name, param_ty(f), f.name));
        out.dedent();
        out.line("}");
    }
}

/// The last step's interface, `Build`: a setter per optional field, and `build()`.
fn build_interface(out: &mut Out, class: &str, optional: &[&JField<'_>]) {
    out.blank();
    out.block_doc(
        &["The last step: optional fields, then <code>build()</code>.".to_owned()],
        92,
    );
    out.line("public interface Build {");
    out.indent();
    for f in optional {
        doc(
            out,
            f.plan.doc(Direction::Sent),
            &[
                format!("@param {} the value", f.name),
                "@return this step".to_owned(),
            ],
        );
        out.line(&format!("Build {}({} {});", f.name, param_ty(f), f.name));
        out.blank();
    }
    out.block_doc(
        &["The value, immutable.".to_owned(), "@return it".to_owned()],
        92,
    );
    out.line(&format!("{class} build();"));
    out.dedent();
    out.line("}");
}

/// The private `Builder` that implements every step: a field per field, each step's
/// setter, and `build()` through the constructor.
fn builder_class(
    out: &mut Out,
    class: &str,
    fields: &[JField<'_>],
    required: &[&JField<'_>],
    optional: &[&JField<'_>],
) {
    out.blank();
    let mut implemented: Vec<String> = required
        .iter()
        .map(|f| names::step(&f.plan.words))
        .collect();
    implemented.push("Build".to_owned());
    out.line(&format!(
        "private static final class Builder implements {} {{",
        implemented.join(", ")
    ));
    out.indent();
    for f in fields {
        out.line(&format!("private {} {};", f.ty, f.name));
    }
    for (i, f) in required.iter().enumerate() {
        let next = next_step(required, i + 1);
        out.blank();
        out.line("@Override");
        out.line(&format!(
            "public {next} {0}({1} {0}) {{",
            f.name,
            param_ty(f)
        ));
        out.line(&format!("    this.{0} = {0};", f.name));
        out.line("    return this;");
        out.line("}");
    }
    for f in optional {
        out.blank();
        out.line("@Override");
        out.line(&format!(
            "public Build {0}({1} {0}) {{",
            f.name,
            param_ty(f)
        ));
        out.line(&format!("    this.{0} = {0};", f.name));
        out.line("    return this;");
        out.line("}");
    }
    out.blank();
    out.line("@Override");
    out.line(&format!("public {class} build() {{"));
    let args: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    out.line(&format!("    return new {class}({});", args.join(", ")));
    out.line("}");
    out.dedent();
    out.line("}");
}

/// The private constructor over every field (lists copied, unmodifiable).
pub fn constructor(out: &mut Out, class: &str, fields: &[JField<'_>]) {
    out.blank();
    let params: Vec<String> = fields
        .iter()
        .map(|f| format!("{} {}", f.ty, f.name))
        .collect();
    out.line(&format!("private {class}({}) {{", params.join(", ")));
    out.indent();
    for f in fields {
        if names::is_list(&f.plan.ty) {
            out.line(&format!(
                "this.{0} = {0} == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>({0}));",
                f.name
            ));
        } else {
            out.line(&format!("this.{0} = {0};", f.name));
        }
    }
    out.dedent();
    out.line("}");
}

fn arg(a: &CheckArg) -> String {
    match a {
        CheckArg::Count(n) => format!("{n}L"),
        CheckArg::Places(p) => format!("{p}L"),
        CheckArg::Integer(Some(n)) => format!("{n}L"),
        CheckArg::Integer(None) => "(Long) null".to_owned(),
        CheckArg::Amount(Some(n)) => format!("new BigDecimal(\"{n}\")"),
        CheckArg::Amount(None) => "(BigDecimal) null".to_owned(),
        CheckArg::Texts(values) => {
            let items: Vec<String> = values.iter().map(|v| string_literal(v)).collect();
            format!("java.util.List.of({})", items.join(", "))
        }
    }
}

fn camel(method: &str) -> String {
    crate::plan::Words::of(method).camel()
}

/// The value checks of one (non-null) value `expr` of type `ty` at path `at`.
fn value_checks(out: &mut Out, f: &FieldPlan, ty: &TypeRef, expr: &str, at: &str, depth: usize) {
    match ty {
        TypeRef::Array { item } => {
            let i = format!("i{depth}");
            let e = format!("e{depth}");
            out.line(&format!("for (int {i} = 0; {i} < {expr}.size(); {i}++) {{"));
            out.indent();
            out.line(&format!(
                "{} {e} = {expr}.get({i});",
                java_type(item, Direction::Sent)
            ));
            out.line(&format!("if ({e} != null) {{"));
            out.indent();
            value_checks(out, f, item, &e, &format!("{at}.index({i})"), depth + 1);
            out.dedent();
            out.line("}");
            out.dedent();
            out.line("}");
        }
        TypeRef::Record { .. } => out.line(&format!("{expr}.validate(v, {at});")),
        _ => {
            for c in f.checks.iter().filter(|c| c.level == CheckLevel::Value) {
                let value = match c.value {
                    CheckValue::Integer => format!("(long) {expr}"),
                    CheckValue::Wire => format!("{expr}.wire()"),
                    CheckValue::Size => format!("(long) {expr}.length()"),
                    CheckValue::Text | CheckValue::Amount | CheckValue::Length => expr.to_owned(),
                };
                let mut args = vec![at.to_owned(), value];
                args.extend(c.args.iter().map(arg));
                out.line(&format!("v.{}({});", camel(c.method), args.join(", ")));
            }
        }
    }
}

/// Whether a field's value is present: set, and non-empty for a type with an empty value
/// (a `String`, or a `Document`, whose size is its `length()`).
pub fn present(name: &str, empty: Option<Emptiness>) -> String {
    match empty {
        Some(Emptiness::Text) => format!("{name} != null && !{name}.isEmpty()"),
        Some(Emptiness::Document) => format!("{name} != null && {name}.length() != 0"),
        None => format!("{name} != null"),
    }
}

/// The checks of every field of a sent shape, at `FieldPath at`.
pub fn validate_fields(out: &mut Out, fields: &[JField<'_>]) {
    for f in fields {
        let at = format!("at.field({})", string_literal(&f.plan.wire_name));
        if f.plan.required() {
            out.line(&format!(
                "v.required({at}, {});",
                present(&f.name, f.plan.non_empty())
            ));
        }
        let mut body = Out::new("    ");
        for c in f
            .plan
            .checks
            .iter()
            .filter(|c| c.level == CheckLevel::Array)
        {
            let mut args = vec![at.clone(), format!("{}.size()", f.name)];
            args.extend(c.args.iter().map(arg));
            body.line(&format!("v.{}({});", camel(c.method), args.join(", ")));
        }
        value_checks(&mut body, f.plan, &f.plan.ty, &f.name, &at, 0);
        let text = body.finish();
        if !text.trim().is_empty() {
            out.line(&format!("if ({} != null) {{", f.name));
            out.indent();
            for l in text.lines() {
                out.line(l);
            }
            out.dedent();
            out.line("}");
        }
    }
}

/// Writing the fields of a sent shape as one JSON object.
pub fn write_fields(out: &mut Out, ctx: &Ctx<'_>, fields: &[JField<'_>]) {
    out.line("w.beginObject();");
    for f in fields {
        out.line(&format!("if ({} != null) {{", f.name));
        out.indent();
        out.line(&format!("w.name({});", string_literal(&f.plan.wire_name)));
        let is_int = |name: &str| ctx.enum_integer(name);
        for l in names::write_value(&f.plan.ty, &f.name, &is_int, 0).lines() {
            out.line(l);
        }
        out.dedent();
        out.line("}");
    }
    out.line("w.endObject();");
}

/// The body of a received shape's `decode(JsonValue value, String at)`.
pub fn decode_fields(out: &mut Out, class: &str, fields: &[JField<'_>]) {
    out.line("if (value == null || value instanceof JsonValue.JsonNull) {");
    out.line("    return null;");
    out.line("}");
    out.line("JsonValue.JsonObject o = Wire.object(value, at);");
    if fields.is_empty() {
        out.line(&format!("return new {class}();"));
        return;
    }
    out.line(&format!("return new {class}("));
    out.indent();
    out.indent();
    for (i, f) in fields.iter().enumerate() {
        let wire = string_literal(&f.plan.wire_name);
        let read = names::reader(&f.plan.ty);
        let sep = if i + 1 == fields.len() { ");" } else { "," };
        let path = format!("at + {}", string_literal(&format!(".{}", f.plan.wire_name)));
        let call = if let Some(method) = read.strip_prefix("Wire::") {
            format!("Wire.{method}(o.get({wire}), {path})")
        } else if let Some(class) = read.strip_suffix("::decode") {
            format!("{class}.decode(o.get({wire}), {path})")
        } else {
            format!("Wire.<{}>readWith(o.get({wire}), {path}, {read})", f.ty)
        };
        out.line(&format!("{call}{sep}"));
    }
    out.dedent();
    out.dedent();
}
