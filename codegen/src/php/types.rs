//! Value sets as backed enums, the result codes and notification types, and records in the
//! shapes they are used in (sent: validated and written; received: readonly and read).

use super::names::{self, NAMESPACE};
use super::PhpFile;
use crate::plan::{Direction, Doc, EnumPlan, FieldPlan, RecordPlan, SdkPlan};

/// The namespace of the value sets.
pub fn enums_namespace() -> String {
    format!("{NAMESPACE}\\Enums")
}

/// The namespace of the records.
pub fn records_namespace() -> String {
    format!("{NAMESPACE}\\Records")
}

/// A value set as a backed enum.
pub fn enum_file(e: &EnumPlan) -> PhpFile {
    let class = names::class_named(&e.name);
    let mut f = PhpFile::new(&enums_namespace(), &class);
    let mut doc = e.doc.clone();
    doc.push(format!(
        "A received field of this set is `{class}|UnknownValue|null`: a value this version \
         does not list reads as an `UnknownValue` holding the wire value."
    ));
    f.doc(&doc, &[]);
    let backing = if e.integer { "int" } else { "string" };
    f.body.line(&format!("enum {class}: {backing}"));
    f.body.line("{");
    f.body.indent();
    for (i, v) in e.values.iter().enumerate() {
        if i > 0 {
            f.body.blank();
        }
        f.doc(&v.doc, &[]);
        let value = match v.integer {
            Some(n) if e.integer => n.to_string(),
            _ => names::string(&v.wire),
        };
        f.body
            .line(&format!("case {} = {value};", names::case(&v.name)));
    }
    f.body.dedent();
    f.body.line("}");
    f
}

/// The service's result codes: a string-backed enum, the retryable ones, and the code of an
/// error.
pub fn result_code_file(plan: &SdkPlan) -> PhpFile {
    let mut f = PhpFile::new(&enums_namespace(), "ResultCode");
    f.runtime("UnknownValue");
    f.runtime("Exception\\BaasException");
    let doc = Doc::of([
        "The service's result codes. `ResultCode::of($error)` types the code of a refusal \
         (an `UnknownValue` for a code this version does not list)."
            .to_owned(),
        crate::plan::sentences::UNKNOWN_VALUE.to_owned(),
    ]);
    f.doc(&doc, &[]);
    f.body.line("enum ResultCode: string");
    f.body.line("{");
    f.body.indent();
    let retryable: Vec<String> = plan.retryable_codes().map(names::string).collect();
    f.body.block_doc(
        &[names::doc_text(crate::plan::sentences::RETRYABLE_CODES)],
        super::WIDTH,
    );
    f.body.line(&format!(
        "public const RETRYABLE = [{}];",
        retryable.join(", ")
    ));
    for c in &plan.result_codes {
        f.body.blank();
        f.body.block_doc(&[names::doc_text(&c.doc)], super::WIDTH);
        f.body.line(&format!(
            "case {} = {};",
            names::case(&c.name),
            names::string(&c.code)
        ));
    }
    f.body.blank();
    f.doc(
        &Doc::of([
            "The result code of a refusal: its case, an `UnknownValue` for a code \
                   this version does not list, or null when the error is no answer of the \
                   service."
                .to_owned(),
        ]),
        &[
            "@param BaasException $error the error a call threw".to_owned(),
            "@return self|UnknownValue|null the code".to_owned(),
        ],
    );
    f.body
        .line("public static function of(BaasException $error): self|UnknownValue|null");
    f.body.line("{");
    f.body.indent();
    f.body.line("$code = $error->apiCode();");
    f.body.line("if ($code === null) {");
    f.body.line("    return null;");
    f.body.line("}");
    f.body
        .line("return self::tryFrom($code) ?? new UnknownValue($code, self::class);");
    f.body.dedent();
    f.body.line("}");
    f.body.dedent();
    f.body.line("}");
    f
}

/// The notification types the service sends, as a string-backed enum.
pub fn notification_type_file(plan: &SdkPlan) -> PhpFile {
    let mut f = PhpFile::new(&enums_namespace(), "NotificationType");
    f.doc(
        &Doc::of([
            "The `notificationType` of the notifications the service sends \
             (`NotificationType::tryFrom($notification->notificationType)`)."
                .to_owned(),
            crate::plan::sentences::UNKNOWN_VALUE.to_owned(),
        ]),
        &[],
    );
    f.body.line("enum NotificationType: string");
    f.body.line("{");
    f.body.indent();
    for (i, n) in plan.notifications.iter().enumerate() {
        if i > 0 {
            f.body.blank();
        }
        f.doc(&n.doc, &[]);
        f.body.line(&format!(
            "case {} = {};",
            names::case(&n.name),
            names::string(&n.notification_type)
        ));
    }
    f.body.dedent();
    f.body.line("}");
    f
}

/// The files of a record: its sent shape, its received shape, or both.
pub fn record_files(plan: &SdkPlan, r: &RecordPlan) -> Vec<PhpFile> {
    let mut out = Vec::new();
    if r.sent {
        out.push(sent_record(plan, r));
    }
    if r.received {
        out.push(received_class(
            &records_namespace(),
            &names::class_named(&r.received_name),
            &r.doc_in(Direction::Received),
            &r.fields,
        ));
    }
    out
}

fn sent_record(plan: &SdkPlan, r: &RecordPlan) -> PhpFile {
    let class = names::class_named(&r.name);
    let mut f = PhpFile::new(&records_namespace(), &class);
    f.runtime("FieldPath");
    f.runtime("Validator");
    f.runtime("WireObject");
    f.doc(&r.doc_in(Direction::Sent), &[]);
    f.body.line(&format!("final class {class}"));
    f.body.line("{");
    f.body.indent();
    constructor(&mut f, &r.fields, Direction::Sent);
    f.body.blank();
    validate_method(
        &mut f,
        plan,
        &r.fields,
        &[],
        "Records every rule this record breaks, at `$at`.",
    );
    f.body.blank();
    to_wire_method(&mut f, &r.fields, "This record as sent.");
    f.body.dedent();
    f.body.line("}");
    f
}

/// The `@param` tag of a field.
fn param_tag(field: &FieldPlan, dir: Direction) -> String {
    let declared = names::field_doc_type(field, dir);
    let ty = if dir == Direction::Received || !field.required() {
        names::doc_nullable(&declared)
    } else {
        declared
    };
    let doc = field.doc(dir).plain();
    let wire = names::prop(&field.wire_name, &field.words);
    let mut tag = format!("@param {ty} ${wire}");
    if !doc.is_empty() {
        tag.push(' ');
        tag.push_str(&doc.replace("\n\n", " "));
    }
    tag
}

/// A constructor promoting every field to a readonly property: in the sent shape, required
/// fields first without defaults, optional ones after with `null`; in the received shape,
/// every field nullable with `null`.
pub fn constructor(f: &mut PhpFile, fields: &[FieldPlan], dir: Direction) {
    let mut ordered: Vec<&FieldPlan> = fields.iter().collect();
    if dir == Direction::Sent {
        ordered.sort_by_key(|field| !field.required());
    }
    let tags: Vec<String> = ordered.iter().map(|field| param_tag(field, dir)).collect();
    for field in &ordered {
        f.type_uses(&field.ty, dir);
    }
    f.doc(&Doc::default(), &tags);
    if ordered.is_empty() {
        f.body.line("public function __construct()");
        f.body.line("{");
        f.body.line("}");
        return;
    }
    f.body.line("public function __construct(");
    f.body.indent();
    for field in &ordered {
        let declared = names::field_type(field, dir);
        let name = names::prop(&field.wire_name, &field.words);
        if dir == Direction::Sent && field.required() {
            f.body.line(&format!("public readonly {declared} ${name},"));
        } else {
            f.body.line(&format!(
                "public readonly {} ${name} = null,",
                names::nullable(&declared)
            ));
        }
    }
    f.body.dedent();
    f.body.line(") {");
    f.body.line("}");
}

/// `validate()`: each field's checks (array checks on the array, value checks on each
/// value), records validating themselves at their path, then the constraints' lines.
pub fn validate_method(
    f: &mut PhpFile,
    plan: &SdkPlan,
    fields: &[FieldPlan],
    constraint_lines: &[String],
    doc: &str,
) {
    f.doc(
        &Doc::of([doc.to_owned()]),
        &[
            "@param Validator $v the validator".to_owned(),
            "@param FieldPath $at where these fields sit".to_owned(),
        ],
    );
    f.body
        .line("public function validate(Validator $v, FieldPath $at): void");
    f.body.line("{");
    f.body.indent();
    for field in fields {
        super::validation::field_checks(f, plan, field);
    }
    for line in constraint_lines {
        f.body.line(line);
    }
    f.body.dedent();
    f.body.line("}");
}

/// `toWire()`: the fields by wire name, null ones left out by the writer.
pub fn to_wire_method(f: &mut PhpFile, fields: &[FieldPlan], doc: &str) {
    f.doc(
        &Doc::of([doc.to_owned()]),
        &["@return WireObject the JSON object to send".to_owned()],
    );
    f.body.line("public function toWire(): WireObject");
    f.body.line("{");
    f.body.indent();
    if fields.is_empty() {
        f.body.line("return new WireObject();");
    } else {
        f.body.line("return new WireObject([");
        f.body.indent();
        for field in fields {
            let this = format!("$this->{}", names::prop(&field.wire_name, &field.words));
            let value = names::wire_value(&field.ty, &this);
            let value = if value == this || field.required() {
                value
            } else {
                format!("{this} === null ? null : {value}")
            };
            f.body
                .line(&format!("{} => {value},", names::string(&field.wire_name)));
        }
        f.body.dedent();
        f.body.line("]);");
    }
    f.body.dedent();
    f.body.line("}");
}

/// A received shape: readonly, every field nullable, unknown members ignored, and `read()`.
pub fn received_class(namespace: &str, class: &str, doc: &Doc, fields: &[FieldPlan]) -> PhpFile {
    let mut f = PhpFile::new(namespace, class);
    f.runtime("Read");
    f.doc(doc, &[]);
    f.body.line(&format!("final class {class}"));
    f.body.line("{");
    f.body.indent();
    constructor(&mut f, fields, Direction::Received);
    f.body.blank();
    f.doc(
        &Doc::of([format!(
            "Reads a received value as `{class}` (null when absent): every member optional, \
             unknown ones ignored."
        )]),
        &[
            "@param mixed $value the value as the lossless reader gives it".to_owned(),
            "@param string $at its path, for errors".to_owned(),
            "@return self|null the value, or null when absent".to_owned(),
            "@throws \\Baas\\Runtime\\Exception\\DecodeError when a member has another shape"
                .to_owned(),
        ],
    );
    f.body
        .line("public static function read(mixed $value, string $at): ?self");
    f.body.line("{");
    f.body.indent();
    f.body.line("$o = Read::object($value, $at);");
    f.body.line("if ($o === null) {");
    f.body.line("    return null;");
    f.body.line("}");
    if fields.is_empty() {
        f.body.line("return new self();");
    } else {
        f.body.line("return new self(");
        f.body.indent();
        for field in fields {
            let name = names::prop(&field.wire_name, &field.words);
            let wire = names::string(&field.wire_name);
            let read = names::read_value(
                &field.ty,
                &format!("$o->get({wire})"),
                &format!("Read::path($at, {wire})"),
            );
            f.body.line(&format!("{name}: {read},"));
        }
        f.body.dedent();
        f.body.line(");");
    }
    f.body.dedent();
    f.body.line("}");
    f.body.dedent();
    f.body.line("}");
    f
}
