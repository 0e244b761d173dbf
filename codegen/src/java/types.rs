//! Value sets, result codes and records (`com.baas.client.model`, `com.baas.client`).

use super::names::{constant, doc_paragraphs, string_literal, type_name};
use super::shape::{self, JField};
use super::{class_file, Ctx, MODEL};
use crate::artifact::EmittedFile;
use crate::plan::{Direction, Doc, EnumPlan, RecordPlan};
use crate::text::Out;

/// One value set: a class with a constant per listed value that keeps unknown ones.
pub fn value_set(e: &EnumPlan) -> EmittedFile {
    let class = type_name(&e.name);
    let mut out = Out::new("    ");
    let mut names_used: Vec<String> = Vec::new();
    let constants: Vec<(String, &crate::plan::ValuePlan)> = e
        .values
        .iter()
        .map(|v| {
            let mut name = constant(&v.words);
            while names_used.contains(&name) {
                name.push('_');
            }
            names_used.push(name.clone());
            (name, v)
        })
        .collect();
    out.line(&format!("package {MODEL};"));
    out.blank();
    let mut d = e.doc.clone();
    d.push(format!(
        "Wire values are {}; `of` keeps one this version does not list (`isKnown()` is false).",
        if e.integer {
            "JSON integers"
        } else {
            "JSON strings"
        }
    ));
    out.block_doc(&doc_paragraphs(&d), 92);
    out.line(&format!("public final class {class} extends ValueSet {{"));
    out.indent();
    for (name, v) in &constants {
        let mut vd = v.doc.clone();
        if vd.paragraphs.is_empty() {
            vd.push(format!("`{}`", v.wire));
        }
        shape::doc(&mut out, &vd, &[]);
        shape::deprecated(&mut out, &v.doc);
        out.line(&format!(
            "public static final {class} {name} = new {class}({}, true);",
            string_literal(&v.wire)
        ));
        out.blank();
    }
    let list: Vec<&str> = constants.iter().map(|(n, _)| n.as_str()).collect();
    out.line(&format!(
        "private static final List<{class}> VALUES = List.of({});",
        list.join(", ")
    ));
    out.blank();
    out.line(&format!("private {class}(String wire, boolean known) {{"));
    out.line("    super(wire, known);");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            "The value of this wire text: a listed constant, or a value kept as received."
                .to_owned(),
            "@param wire the wire text\n@return the value".to_owned(),
        ],
        92,
    );
    out.line(&format!("public static {class} of(String wire) {{"));
    out.line(&format!("    for ({class} v : VALUES) {{"));
    out.line("        if (v.wire().equals(wire)) {");
    out.line("            return v;");
    out.line("        }");
    out.line("    }");
    out.line(&format!("    return new {class}(wire, false);"));
    out.line("}");
    if e.integer {
        out.blank();
        out.block_doc(
            &[
                "The value of this wire integer.".to_owned(),
                "@param wire the wire value\n@return the value".to_owned(),
            ],
            92,
        );
        out.line(&format!("public static {class} of(long wire) {{"));
        out.line("    return of(Long.toString(wire));");
        out.line("}");
    }
    out.blank();
    out.block_doc(
        &[
            "The listed values, in spec order.".to_owned(),
            "@return them".to_owned(),
        ],
        92,
    );
    out.line(&format!("public static List<{class}> values() {{"));
    out.line("    return VALUES;");
    out.line("}");
    out.dedent();
    out.line("}");
    class_file(MODEL, &class, out.finish())
}

/// `ResultCode`: the service's result codes, which are retryable, and the code of an error.
pub fn result_codes(ctx: &Ctx<'_>) -> EmittedFile {
    let mut out = Out::new("    ");
    out.line(&format!("package {};", super::ROOT_PACKAGE));
    out.blank();
    let doc = Doc::of([
        "The service's result codes. A code this version does not list is kept (`isKnown()` is false). `RETRYABLE` is the set of codes the client tries again (given to the runtime as data).".to_owned(),
        crate::plan::sentences::RETRYABLE_CODES.to_owned(),
    ]);
    out.block_doc(&doc_paragraphs(&doc), 92);
    out.line("public final class ResultCode extends ValueSet {");
    out.indent();
    let consts = code_constants(ctx, &mut out);
    let retryable: Vec<String> = ctx
        .plan
        .result_codes
        .iter()
        .filter(|c| c.retryable)
        .map(|c| string_literal(&c.code))
        .collect();
    out.block_doc(&["The codes the client tries again.".to_owned()], 92);
    out.line(&format!(
        "public static final Set<String> RETRYABLE = Set.of({});",
        retryable.join(", ")
    ));
    out.blank();
    out.line(&format!(
        "private static final List<ResultCode> VALUES = List.of({});",
        consts.join(", ")
    ));
    out.blank();
    result_code_methods(&mut out);
    out.dedent();
    out.line("}");
    class_file(super::ROOT_PACKAGE, "ResultCode", out.finish())
}

/// A constant per listed result code (a name taken twice gets a `_` more), documented;
/// returns their names in spec order.
fn code_constants(ctx: &Ctx<'_>, out: &mut Out) -> Vec<String> {
    let mut used: Vec<String> = Vec::new();
    let mut consts = Vec::new();
    for c in &ctx.plan.result_codes {
        let mut name = constant(&c.words);
        while used.contains(&name) {
            name.push('_');
        }
        used.push(name.clone());
        out.block_doc(&doc_paragraphs(&Doc::of([c.doc.clone()])), 92);
        out.line(&format!(
            "public static final ResultCode {name} = new ResultCode({}, {});",
            string_literal(&c.code),
            string_literal(&name)
        ));
        out.blank();
        consts.push(name);
    }
    consts
}

/// `ResultCode`'s constructor and methods, the same for every spec: `name()`, `of(code)`,
/// `of(error)`, `retryable()`, `values()`.
fn result_code_methods(out: &mut Out) {
    out.line("private final String name;");
    out.blank();
    out.line("private ResultCode(String wire, String name) {");
    out.line("    super(wire, name != null);");
    out.line("    this.name = name == null ? wire : name;");
    out.line("}");
    out.blank();
    out.block_doc(
        &["The code's name, e.g. <code>INSUFFICIENT_BALANCE</code> (the code itself for one this version does not list).".to_owned(), "@return the name".to_owned()],
        92,
    );
    out.line("public String name() {");
    out.line("    return name;");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            "The code of this text.".to_owned(),
            "@param code the code, e.g. <code>14009</code>\n@return the code".to_owned(),
        ],
        92,
    );
    out.line("public static ResultCode of(String code) {");
    out.line("    for (ResultCode c : VALUES) {");
    out.line("        if (c.wire().equals(code)) {");
    out.line("            return c;");
    out.line("        }");
    out.line("    }");
    out.line("    return new ResultCode(code, null);");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            "The service's code of an error, when it is an answer with one.".to_owned(),
            "@param error any error of the SDK\n@return its result code, or empty".to_owned(),
        ],
        92,
    );
    out.line("public static Optional<ResultCode> of(BaasException error) {");
    out.line("    return error.apiCode().map(ResultCode::of);");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            "Whether the client tries this code again.".to_owned(),
            "@return true for a retryable code".to_owned(),
        ],
        92,
    );
    out.line("public boolean retryable() {");
    out.line("    return RETRYABLE.contains(wire());");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            "The listed codes, in spec order.".to_owned(),
            "@return them".to_owned(),
        ],
        92,
    );
    out.line("public static List<ResultCode> values() {");
    out.line("    return VALUES;");
    out.line("}");
}

/// A record's classes: its sent shape (a staged builder) and its received shape.
pub fn record(ctx: &Ctx<'_>, r: &RecordPlan) -> Vec<EmittedFile> {
    let mut files = Vec::new();
    if r.sent {
        files.push(sent_record(ctx, r));
    }
    if r.received && (!r.sent || r.received_name != r.name) {
        files.push(received_record(r));
    }
    files
}

fn sent_record(ctx: &Ctx<'_>, r: &RecordPlan) -> EmittedFile {
    let class = type_name(&r.name);
    let fields: Vec<JField<'_>> = shape::fields(&r.fields, Direction::Sent);
    let mut out = Out::new("    ");
    out.line(&format!("package {MODEL};"));
    out.blank();
    out.block_doc(&doc_paragraphs(&r.doc_in(Direction::Sent)), 92);
    out.line(&format!("public final class {class} {{"));
    out.indent();
    shape::declare(&mut out, &fields);
    shape::constructor(&mut out, &class, &fields);
    shape::builder(&mut out, &class, &fields);
    shape::getters(&mut out, &fields, Direction::Sent);
    out.blank();
    out.block_doc(
        &[
            "Records every rule this value breaks (the client calls it before sending).".to_owned(),
            "@param v the validator\n@param at this value's path".to_owned(),
        ],
        92,
    );
    out.line("public void validate(Validator v, FieldPath at) {");
    out.indent();
    shape::validate_fields(&mut out, &fields);
    out.dedent();
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            "Writes this value as a JSON object.".to_owned(),
            "@param w the writer".to_owned(),
        ],
        92,
    );
    out.line("public void writeTo(JsonWriter w) {");
    out.indent();
    shape::write_fields(&mut out, ctx, &fields);
    out.dedent();
    out.line("}");
    shape::value_methods(&mut out, &class, &fields);
    out.dedent();
    out.line("}");
    class_file(MODEL, &class, out.finish())
}

fn received_record(r: &RecordPlan) -> EmittedFile {
    let class = type_name(&r.received_name);
    let fields: Vec<JField<'_>> = shape::fields(&r.fields, Direction::Received);
    let mut out = Out::new("    ");
    out.line(&format!("package {MODEL};"));
    out.blank();
    let mut d = r.doc_in(Direction::Received);
    d.push("Immutable.");
    out.block_doc(&doc_paragraphs(&d), 92);
    out.line(&format!("public final class {class} {{"));
    out.indent();
    shape::declare(&mut out, &fields);
    shape::constructor(&mut out, &class, &fields);
    received_members(&mut out, &class, &fields);
    out.dedent();
    out.line("}");
    class_file(MODEL, &class, out.finish())
}

/// A received shape's `decode`, getters and value methods.
pub fn received_members(out: &mut Out, class: &str, fields: &[JField<'_>]) {
    out.blank();
    out.block_doc(
        &["Reads a received value (unknown members ignored).".to_owned(),
          "@param value the value, read losslessly\n@param at its path, for errors\n@return the value, or <code>null</code> when absent\n@throws com.baas.runtime.DecodeException when a field has another shape".to_owned()],
        92,
    );
    out.line(&format!(
        "public static {class} decode(JsonValue value, String at) {{"
    ));
    out.indent();
    shape::decode_fields(out, class, fields);
    out.dedent();
    out.line("}");
    shape::getters(out, fields, Direction::Received);
    shape::value_methods(out, class, fields);
}
