//! Mechanical cross-check of `spec/` against the source document
//! (`../shared/reference/baas-api-spec.md`), path by path and parameter by parameter,
//! including required flags.
//!
//! The source side is extracted from the Markdown with no knowledge of the spec, by
//! `baas_tests::source_doc`:
//! endpoint paths from `####` headings, from table cells and from the text; parameters
//! from parameter tables (`| Parameter | Type | Required |`), from `| Path | Parameters |`
//! tables and from the inline sentences ("Parameters: name (type, TRUE); ...", "Each
//! takes ...", "Order item fields: ...", "... of items ...").
//!
//! Every mismatch is listed in the failure message. A flag the document leaves blank or
//! gives two answers for is accepted only when the spec field lists a decision whose
//! `about:` names the field; the same holds for a type that differs from the declared one.
//!
//! Beyond names, types and flags: the rules and constraints a parameter's notes state
//! (`max 100 characters`, `at most 500,000 CNY`, `required when beneficiaryType = 1`,
//! ...) and the value list of an enum-typed parameter; every record of the "Resources"
//! section field by field; the message envelope; every enum against its value set as
//! written in the document or in public-facts.md.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use baas_codegen::model::{
    Condition, ConstraintKind, EnumWireType, Field, Params, Requirement, Response, Source, TypeRef,
};
use baas_codegen::rules::RuleKind;
use baas_tests::source_doc::{
    is_ident_char, is_separator_row, list_items, note_type, parse_resources, parse_source,
    table_cells, Flag, SrcDoc, SrcOp, SrcParam, SrcResField,
};

// ============================================================================ spec side

#[derive(Debug, Clone)]
struct SpecField {
    name: String,
    /// Type as written in the spec (`string`, `array<OrderItem>`, `BeneficiaryType`).
    ty: String,
    /// `true`, `false` or `conditional`.
    required: String,
    decisions: Vec<String>,
    rules: Vec<RuleKind>,
}

#[derive(Debug, Clone)]
struct SpecOp {
    name: String,
    path: String,
    /// `None`: `params: { unspecified }`.
    params: Option<Vec<SpecField>>,
    /// `fields`, `record`, `unspecified` or `empty`.
    response_kind: String,
    /// `source:` of the response (default `seed`).
    response_source: String,
    /// `fields`: its fields; `record`: the record's name in `response_record`.
    response_fields: Vec<SpecField>,
    response_record: Option<String>,
    constraints: Vec<ConstraintKind>,
}

#[derive(Debug, Clone, Default)]
struct Spec {
    ops: Vec<SpecOp>,
    records: BTreeMap<String, Vec<SpecField>>,
    /// Enum name → wire type (`string` / `integer`).
    enums: BTreeMap<String, String>,
    /// Enum name → wire values in spec order, with their source.
    enum_values: BTreeMap<String, Vec<(String, Source)>>,
    envelope_request: Vec<SpecField>,
    envelope_response: Vec<SpecField>,
    /// Decision id → `about:`.
    decision_about: BTreeMap<String, String>,
}

fn type_text(t: &TypeRef) -> String {
    match t {
        TypeRef::String => "string".into(),
        TypeRef::Int => "int".into(),
        TypeRef::Long => "long".into(),
        TypeRef::Decimal { .. } => "decimal".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::Date => "date".into(),
        TypeRef::Document => "document".into(),
        TypeRef::Scalar => "scalar".into(),
        TypeRef::Json => "json".into(),
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => name.clone(),
        TypeRef::Array { item } => format!("array<{}>", type_text(item)),
    }
}

/// The fields a document may list: a field graded `sandbox` is the sandbox's own choice,
/// which no document shows.
fn spec_fields(fields: &[Field]) -> Vec<SpecField> {
    fields
        .iter()
        .filter(|f| f.source != Source::Sandbox)
        .map(|f| SpecField {
            name: f.wire_name.clone(),
            ty: type_text(&f.ty),
            required: match f.required {
                Requirement::Required => "true",
                Requirement::Optional => "false",
                Requirement::Conditional => "conditional",
            }
            .into(),
            decisions: f.decisions.clone(),
            rules: f.rules.iter().map(|r| r.kind.clone()).collect(),
        })
        .collect()
}

fn source_text(s: Source) -> String {
    s.spec_word().into()
}

/// The checked model of `spec/` (`baas_codegen::check_spec`), reduced to what the
/// comparison needs.
fn load_spec(spec_dir: &Path) -> Spec {
    let checked = baas_codegen::check_spec(spec_dir)
        .unwrap_or_else(|d| panic!("spec/ does not pass the front end's checks:\n{d}"));
    let api = checked.api;
    let mut spec = Spec::default();
    for op in api.operations() {
        let (response_kind, response_source) = match &op.response {
            Response::Fields { source, .. } => ("fields", source_text(*source)),
            Response::Record { source, .. } => ("record", source_text(*source)),
            Response::Unspecified { .. } => ("unspecified", "seed".into()),
            Response::Empty { .. } => ("empty", "seed".into()),
        };
        spec.ops.push(SpecOp {
            name: op.name.clone(),
            path: op.path.clone(),
            params: match &op.params {
                Params::Fields { fields } => Some(spec_fields(fields)),
                Params::Unspecified { .. } => None,
            },
            response_kind: response_kind.into(),
            response_source,
            response_fields: match &op.response {
                Response::Fields { fields, .. } => spec_fields(fields),
                _ => Vec::new(),
            },
            response_record: match &op.response {
                Response::Record { record, .. } => Some(record.clone()),
                _ => None,
            },
            constraints: op.constraints.iter().map(|c| c.kind.clone()).collect(),
        });
    }
    for r in &api.records {
        spec.records.insert(r.name.clone(), spec_fields(&r.fields));
    }
    for e in &api.enums {
        let w = match e.wire_type {
            EnumWireType::String => "string",
            EnumWireType::Integer => "integer",
        };
        spec.enums.insert(e.name.clone(), w.into());
        spec.enum_values.insert(
            e.name.clone(),
            e.values
                .iter()
                .map(|v| (v.wire.clone(), v.source))
                .collect(),
        );
    }
    spec.envelope_request = spec_fields(&api.envelope.request);
    spec.envelope_response = spec_fields(&api.envelope.response);
    for d in &api.decisions {
        spec.decision_about.insert(d.id.clone(), d.about.clone());
    }
    spec
}

// ============================================================================ comparison

/// Whether the field lists a decision whose `about:` names it.
fn has_decision_about(spec: &Spec, f: &SpecField) -> bool {
    f.decisions.iter().any(|d| {
        spec.decision_about
            .get(d)
            .is_some_and(|about| about.contains(&f.name))
    })
}

/// Whether a spec type renders the declared source type on the wire.
fn type_compatible(spec: &Spec, src_ty: &str, spec_ty: &str) -> bool {
    let src_ty = src_ty.split(" (").next().unwrap_or(src_ty).trim();
    if let Some(item) = spec_ty
        .strip_prefix("array<")
        .and_then(|s| s.strip_suffix('>'))
    {
        return match src_ty {
            "array" => true,
            s => s.strip_prefix("array of ").is_some_and(|x| {
                let x = x.trim();
                type_compatible(spec, x, item)
                    || (spec.records.contains_key(item)
                        && !matches!(x, "string" | "integer" | "int"))
            }),
        };
    }
    let enum_wire = spec.enums.get(spec_ty).map(String::as_str);
    match src_ty {
        // A date and a document (Base64 text) are JSON strings too (decisions date-type,
        // document-type).
        "string" => {
            matches!(spec_ty, "string" | "date" | "document") || enum_wire == Some("string")
        }
        "int" | "integer" => spec_ty == "int" || spec_ty == "long" || enum_wire == Some("integer"),
        "long" => spec_ty == "long",
        "decimal" => spec_ty == "decimal",
        _ => false,
    }
}

fn compare_fields(
    spec: &Spec,
    ctx: &str,
    src: &[SrcParam],
    fields: &[SpecField],
    constraints: &[ConstraintKind],
    out: &mut Vec<String>,
) {
    let by_name: BTreeMap<&str, &SpecField> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    for p in src {
        let Some(f) = by_name.get(p.name.as_str()) else {
            out.push(format!(
                "{ctx}: parameter `{}` (source line {}) is missing from the spec",
                p.name, p.line
            ));
            continue;
        };
        let want = match p.flag {
            Flag::Required => Some("true"),
            Flag::Optional => Some("false"),
            Flag::Conditional => Some("conditional"),
            Flag::Blank | Flag::Ambiguous => None,
        };
        match want {
            Some(w) if f.required != w => out.push(format!(
                "{ctx}: `{}` is `required: {}` in the spec, the source (line {}) says {:?} (expected `required: {w}`)",
                p.name, f.required, p.line, p.flag
            )),
            None if !has_decision_about(spec, f) => out.push(format!(
                "{ctx}: `{}`: the source (line {}) gives no single flag ({:?}) and the spec field lists no decision about it",
                p.name, p.line, p.flag
            )),
            _ => {}
        }
        if !type_compatible(spec, &p.ty, &f.ty) && !has_decision_about(spec, f) {
            out.push(format!(
                "{ctx}: `{}` is `{}` in the spec, declared `{}` in the source (line {}), and no decision about the field explains it",
                p.name, f.ty, p.ty, p.line
            ));
        }
        check_notes(spec, ctx, p, f, constraints, out);
    }
    let src_names: BTreeSet<&str> = src.iter().map(|p| p.name.as_str()).collect();
    for f in fields {
        if !src_names.contains(f.name.as_str()) {
            out.push(format!(
                "{ctx}: the spec has parameter `{}`, which the source does not list",
                f.name
            ));
        }
    }
}

fn compare_op(spec: &Spec, src: &SrcOp, op: &SpecOp, out: &mut Vec<String>) {
    let ctx = format!(
        "{} `{}` ({}, source line {})",
        op.path, op.name, src.label, src.line
    );
    match &op.params {
        None => {
            if !src.params.is_empty() {
                out.push(format!(
                    "{ctx}: the spec says the parameters are not shown, the source lists {}",
                    src.params.len()
                ));
            }
        }
        Some(fields) => {
            if src.params.is_empty() {
                out.push(format!(
                    "{ctx}: the source shows no parameters, the spec lists {}",
                    fields.len()
                ));
            }
            compare_fields(spec, &ctx, &src.params, fields, &op.constraints, out);
            check_at_least_one(&ctx, src, &op.constraints, out);
            for (owner, item_src) in &src.items {
                let Some(f) = fields.iter().find(|f| &f.name == owner) else {
                    continue;
                };
                let record =
                    f.ty.strip_prefix("array<")
                        .and_then(|s| s.strip_suffix('>'))
                        .unwrap_or("");
                match spec.records.get(record) {
                    Some(rf) => compare_fields(
                        spec,
                        &format!("{ctx} {owner}[] ({record})"),
                        item_src,
                        rf,
                        &[],
                        out,
                    ),
                    None => out.push(format!(
                        "{ctx}: `{owner}` has item fields in the source but is `{}` in the spec, not an array of a record",
                        f.ty
                    )),
                }
            }
        }
    }
    check_response(spec, &ctx, src, op, out);
    if src.response_not_shown && op.response_kind != "unspecified" && op.response_source == "seed" {
        out.push(format!(
            "{ctx}: the source says the response is not shown, the spec gives a `{}` response with source seed",
            op.response_kind
        ));
    }
}

/// Pairs source and spec operations path by path and lists every mismatch.
fn compare(src: &SrcDoc, spec: &Spec) -> Vec<String> {
    let mut out = Vec::new();
    let mut src_by_path: BTreeMap<&str, Vec<&SrcOp>> = BTreeMap::new();
    for o in &src.ops {
        src_by_path.entry(&o.path).or_default().push(o);
    }
    let mut spec_by_path: BTreeMap<&str, Vec<&SpecOp>> = BTreeMap::new();
    for o in &spec.ops {
        spec_by_path.entry(&o.path).or_default().push(o);
    }
    for (path, s_ops) in &src_by_path {
        let Some(p_ops) = spec_by_path.get(path) else {
            out.push(format!(
                "{path}: in the source (line {}), missing from the spec",
                s_ops[0].line
            ));
            continue;
        };
        if s_ops.len() != p_ops.len() {
            out.push(format!(
                "{path}: {} operation(s) in the source, {} in the spec",
                s_ops.len(),
                p_ops.len()
            ));
            continue;
        }
        // Pair operations sharing a path by the overlap of their parameter names.
        let mut free: Vec<&SpecOp> = p_ops.clone();
        for s in s_ops {
            let names: BTreeSet<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
            let (best, _) = free
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let n = o
                        .params
                        .iter()
                        .flatten()
                        .filter(|f| names.contains(f.name.as_str()))
                        .count();
                    (i, n)
                })
                .max_by_key(|(_, n)| *n)
                .expect("counts are equal");
            let op = free.remove(best);
            compare_op(spec, s, op, &mut out);
        }
    }
    for (path, p_ops) in &spec_by_path {
        if !src_by_path.contains_key(path) {
            for o in p_ops {
                out.push(format!(
                    "{path}: operation `{}` of the spec is not in the source",
                    o.name
                ));
            }
        }
        if !src.all_paths.contains(*path) {
            out.push(format!("{path}: not written anywhere in the source"));
        }
    }
    out
}

// ============================================================================ rules, value sets

/// Limits written in a parameter's notes: `max N characters`, `at most N`, `at most NMB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LimitUnit {
    Chars,
    Megabytes,
    Plain,
}

/// Every `max N ...` / `at most N ...` of `notes_lc` (lower case), with its unit.
fn limits(notes_lc: &str) -> Vec<(u64, LimitUnit)> {
    let mut out = Vec::new();
    for marker in ["max ", "at most "] {
        let mut from = 0;
        while let Some(i) = notes_lc[from..].find(marker) {
            let start = from + i + marker.len();
            let digits: String = notes_lc[start..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect();
            let number: String = digits.chars().filter(char::is_ascii_digit).collect();
            from = start;
            let Ok(n) = number.parse::<u64>() else {
                continue;
            };
            let after = notes_lc[start + digits.len()..].trim_start();
            let unit = if after.starts_with("characters") {
                LimitUnit::Chars
            } else if after.starts_with("mb") {
                LimitUnit::Megabytes
            } else {
                LimitUnit::Plain
            };
            out.push((n, unit));
        }
    }
    out
}

/// The first number written after `marker` in `text` (`exceeds 70,000 CNY` → `70000`).
fn number_after(text: &str, marker: &str) -> Option<String> {
    let i = text.find(marker)? + marker.len();
    let n: String = text[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    (!n.is_empty()).then_some(n)
}

/// The identifier right after `marker` in `text`.
fn ident_after(text: &str, marker: &str) -> Option<String> {
    let i = text.find(marker)? + marker.len();
    let id: String = text[i..]
        .chars()
        .take_while(|c| is_ident_char(*c))
        .collect();
    (!id.is_empty()).then_some(id)
}

/// Whole-word tokens of a notes text (`'0' Female, 1 = Till/BuyGoods` → `0`, `Female`,
/// `1`, `Till/BuyGoods`).
fn tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '-')))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The rules and constraints a parameter's notes state in the source must be in the
/// spec: `max N characters` (max_chars, or a server_side rule naming N), `at most N`
/// (range max), `at most NMB` (base64_max_bytes between N·10^6 and N·2^20), `positive`,
/// `whole number`, `alphanumeric`, `must ...` / `from the ... list` (server_side),
/// `required/mandatory/needed/used when ...` (a constraint naming the field, exactly
/// `required_if` for `required when X = V` and for `exceeds N`), `either A or B is
/// mandatory` (exactly_one_of / at_least_one_of over A and B). A parameter typed with a
/// value set must be an enum holding every value the notes list.
fn check_notes(
    spec: &Spec,
    ctx: &str,
    p: &SrcParam,
    f: &SpecField,
    constraints: &[ConstraintKind],
    out: &mut Vec<String>,
) {
    let notes = p.notes.as_str();
    if notes.is_empty() {
        return;
    }
    let lc = notes.to_ascii_lowercase();
    let server_side: Vec<&str> = f
        .rules
        .iter()
        .filter_map(|r| match r {
            RuleKind::ServerSide { text } => Some(text.as_str()),
            _ => None,
        })
        .chain(constraints.iter().filter_map(|c| match c {
            ConstraintKind::ServerSide { fields, text } if fields.contains(&p.name) => {
                Some(text.as_str())
            }
            _ => None,
        }))
        .collect();
    let server_side_says = |n: u64| {
        server_side
            .iter()
            .any(|t| tokens(t).contains(&n.to_string()))
    };
    let mut missing = |what: String| {
        out.push(format!(
            "{ctx}: `{}`: the source (line {}) says \"{notes}\", the spec has no {what}",
            p.name, p.line
        ))
    };

    for (n, unit) in limits(&lc) {
        let ok =
            match unit {
                LimitUnit::Chars => {
                    f.rules.contains(&RuleKind::MaxChars { max: n }) || server_side_says(n)
                }
                LimitUnit::Megabytes => f.rules.iter().any(|r| {
                    matches!(r, RuleKind::Base64MaxBytes { max }
                    if (n * 1_000_000..=n * 1024 * 1024).contains(max))
                }),
                LimitUnit::Plain => f.rules.iter().any(
                    |r| matches!(r, RuleKind::Range { max: Some(m), .. } if m.to_string() == n.to_string()),
                ) || server_side_says(n),
            };
        if !ok {
            missing(format!("rule for the limit {n} ({unit:?})"));
        }
    }
    if tokens(&lc).contains("positive") && !f.rules.contains(&RuleKind::Positive) {
        missing("`positive` rule".into());
    }
    if lc.contains("whole number") && !f.rules.contains(&RuleKind::Whole) {
        missing("`whole` rule".into());
    }
    if lc.contains("alphanumeric")
        && !f.rules.contains(&RuleKind::Alphanumeric)
        && !server_side.iter().any(|t| t.contains("alphanumeric"))
    {
        missing("`alphanumeric` rule (client or server_side)".into());
    }
    if (lc.contains("must ") || (lc.contains("from the ") && lc.contains(" list")))
        && server_side.is_empty()
    {
        missing("server_side rule".into());
    }
    let names_field = |c: &ConstraintKind| match c {
        ConstraintKind::RequiredIf { field, .. } => field.wire_name == p.name,
        ConstraintKind::ServerSide { fields, .. } => fields.contains(&p.name),
        _ => false,
    };
    if [
        "required when",
        "mandatory when",
        "needed when",
        "used when",
    ]
    .iter()
    .any(|m| lc.contains(m))
        && !constraints.iter().any(names_field)
    {
        missing("constraint naming the field".into());
    }
    if let Some(i) = lc.find("required when ") {
        // `required when X = V`
        let rest = &notes[i + "required when ".len()..];
        let when_field: String = rest.chars().take_while(|c| is_ident_char(*c)).collect();
        let value = rest.split_once(" = ").map(|(_, v)| {
            v.chars()
                .take_while(|c| is_ident_char(*c))
                .collect::<String>()
        });
        let wanted = |c: &ConstraintKind| {
            matches!(c, ConstraintKind::RequiredIf {
                field,
                when: Condition::Equals { field: cf, value: v },
            } if field.wire_name == p.name
                && cf.wire_name == when_field
                && Some(v) == value.as_ref())
        };
        if !constraints.iter().any(wanted) {
            missing(format!(
                "`required_if: {{ field: {}, when: {{ field: {when_field}, equals: {:?} }} }}`",
                p.name,
                value.unwrap_or_default()
            ));
        }
    }
    if let (true, Some(n)) = (lc.contains("mandatory when"), number_after(&lc, "exceeds ")) {
        let ok = constraints.iter().any(|c| {
            matches!(c, ConstraintKind::RequiredIf { field, when: Condition::SumGreaterThan { value, .. } }
                if field.wire_name == p.name && value.to_string() == n)
        });
        if !ok {
            missing(format!("`required_if` on a sum greater than {n}"));
        }
    }
    if let (Some(a), true) = (ident_after(notes, "either "), lc.contains("mandatory")) {
        let b =
            ident_after(&notes[notes.find("either ").unwrap_or(0)..], " or ").unwrap_or_default();
        let ok = constraints.iter().any(|c| match c {
            ConstraintKind::ExactlyOneOf { fields } | ConstraintKind::AtLeastOneOf { fields } => {
                fields.iter().any(|f| f.wire_name == a) && fields.iter().any(|f| f.wire_name == b)
            }
            _ => false,
        });
        if !ok {
            missing(format!(
                "`exactly_one_of`/`at_least_one_of` over {a} and {b}"
            ));
        }
    }

    // Value sets: `0 = Paybill, 1 = Till/BuyGoods`, `image or pdf`, `sms or email`, ...
    let item =
        f.ty.strip_prefix("array<")
            .and_then(|s| s.strip_suffix('>'))
            .unwrap_or(&f.ty);
    match spec.enum_values.get(item) {
        Some(values) => {
            let toks = tokens(notes);
            // A field whose `one_of` rule narrows its set (decision currency-one-type)
            // takes the rule's values, which the notes list; else the set's own values.
            let one_of = f.rules.iter().find_map(|r| match r {
                RuleKind::OneOf { values } => Some(values),
                _ => None,
            });
            let absent: Vec<&str> = match one_of {
                Some(allowed) => allowed.iter().map(String::as_str).collect(),
                None => values
                    .iter()
                    .filter(|(_, src)| *src == Source::Seed)
                    .map(|(w, _)| w.as_str())
                    .collect(),
            };
            let absent: Vec<&str> = absent.into_iter().filter(|w| !toks.contains(*w)).collect();
            if !absent.is_empty() {
                missing(format!(
                    "match between the notes and the values of enum {item}: {absent:?} are not in the notes"
                ));
            }
        }
        None => {
            // Notes that start with a value list (`0 = Paybill, ...`) need an enum.
            let first: String = notes.chars().take_while(|c| !c.is_whitespace()).collect();
            if notes[first.len()..].starts_with(" = ") {
                missing(format!("enum for the value list (the field is `{}`)", f.ty));
            }
        }
    }
}

/// Whether a source document states an operation-level "at least one" rule and the
/// spec holds it over exactly the operation's optional parameters.
fn check_at_least_one(
    ctx: &str,
    src: &SrcOp,
    constraints: &[ConstraintKind],
    out: &mut Vec<String>,
) {
    if !src.text.to_ascii_lowercase().contains("at least one") {
        return;
    }
    let optional: BTreeSet<&str> = src
        .params
        .iter()
        .filter(|p| p.flag == Flag::Optional)
        .map(|p| p.name.as_str())
        .collect();
    let ok = constraints.iter().any(|c| match c {
        ConstraintKind::AtLeastOneOf { fields } => {
            fields
                .iter()
                .map(|f| f.wire_name.as_str())
                .collect::<BTreeSet<_>>()
                == optional
        }
        _ => false,
    });
    if !ok {
        out.push(format!(
            "{ctx}: the source says at least one of {optional:?} must be given, the spec has no `at_least_one_of` over exactly them"
        ));
    }
}

// ============================================================================ responses

/// What the document states `data` holds, against the spec's response: a field list
/// (`txId (string), paymentId (string)`, `data.applicationId (string)`, `accounts: array
/// of a, b`) must be the `fields` response's names exactly, or lie within the `record`
/// response's fields, with the stated types; `code, msg` / `code and msg only` is an
/// `empty` response. Prose ("personal KYC record", "not shown") names no fields.
fn check_response(spec: &Spec, ctx: &str, src: &SrcOp, op: &SpecOp, out: &mut Vec<String>) {
    /// A field of a prose list: name and the text in its parenthesis.
    type Item = (String, String);
    let Some(text) = &src.response else {
        return;
    };
    let text = text.trim();
    if text == "code, msg" || text.contains("code and msg") {
        if op.response_kind != "empty" {
            out.push(format!(
                "{ctx}: the source says the response is `{text}`, the spec's response is `{}`, not `empty`",
                op.response_kind
            ));
        }
        return;
    }
    // `accounts: array of accountId, accountName, ...`
    let (items, nested): (Vec<Item>, Option<(String, Vec<Item>)>) =
        match text.split_once(": array of ") {
            Some((name, list)) if name.chars().all(is_ident_char) => match list_items(list) {
                Ok(sub) => (
                    vec![(name.to_string(), "array".into())],
                    Some((name.to_string(), sub)),
                ),
                Err(_) => return,
            },
            _ => match list_items(text.strip_prefix("data.").unwrap_or(text)) {
                Ok(items) => (items, None),
                Err(_) => return, // prose: a record named in words, or "not shown"
            },
        };
    let fields: Vec<SpecField> = match (op.response_kind.as_str(), &op.response_record) {
        ("fields", _) => op.response_fields.clone(),
        ("record", Some(r)) => spec.records.get(r).cloned().unwrap_or_default(),
        (kind, _) => {
            out.push(format!(
                "{ctx}: the source lists the response fields `{text}`, the spec's response is `{kind}`"
            ));
            return;
        }
    };
    let by_name: BTreeMap<&str, &SpecField> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    for (name, paren) in &items {
        match by_name.get(name.as_str()) {
            None => out.push(format!(
                "{ctx}: response field `{name}` of the source is missing"
            )),
            Some(f) => {
                if let Some(ty) = note_type(paren) {
                    if !type_compatible(spec, &ty, &f.ty) && !has_decision_about(spec, f) {
                        out.push(format!(
                            "{ctx}: response field `{name}` is `{}` in the spec, declared `{ty}` in the source, and no decision about the field explains it",
                            f.ty
                        ));
                    }
                }
            }
        }
    }
    if op.response_kind == "fields" {
        let names: BTreeSet<&str> = items.iter().map(|(n, _)| n.as_str()).collect();
        for f in &fields {
            if !names.contains(f.name.as_str()) && op.response_source == "seed" {
                out.push(format!(
                    "{ctx}: the spec's response has `{}`, which the source does not list",
                    f.name
                ));
            }
        }
    }
    if let Some((owner, sub)) = nested {
        let item = by_name
            .get(owner.as_str())
            .and_then(|f| f.ty.strip_prefix("array<"))
            .and_then(|s| s.strip_suffix('>'))
            .and_then(|r| spec.records.get(r));
        match item {
            Some(rf) => {
                let want: BTreeSet<&str> = sub.iter().map(|(n, _)| n.as_str()).collect();
                let got: BTreeSet<&str> = rf.iter().map(|f| f.name.as_str()).collect();
                if want != got {
                    out.push(format!(
                        "{ctx}: items of `{owner}` have {got:?} in the spec, the source lists {want:?}"
                    ));
                }
            }
            None => out.push(format!(
                "{ctx}: `{owner}` is an array of records in the source, not in the spec"
            )),
        }
    }
}

/// The tables of `tests/data/source_tables.yaml` (see its header): which lists of the
/// "Resources" section make up each record of the spec (the record must have exactly
/// the fields of these lists, which come from the document, plus its `live_only`
/// fields), which records are not resources, and the value sets of the enums.
#[derive(serde::Deserialize)]
struct Tables {
    source_operations: SourceOperations,
    resource_records: Vec<ResourceRecord>,
    non_resource_records: Vec<NonResource>,
    value_sets: Vec<ValueSet>,
}

/// What the extraction of the source document must find.
#[derive(serde::Deserialize)]
struct SourceOperations {
    with_params: usize,
    without_params: Vec<String>,
}

#[derive(serde::Deserialize)]
struct ResourceRecord {
    record: String,
    lists: Vec<String>,
    #[serde(default)]
    live_only: Vec<String>,
}

#[derive(serde::Deserialize)]
struct NonResource {
    record: String,
    #[allow(dead_code)]
    why: String,
}

#[derive(serde::Deserialize)]
struct ValueSet {
    name: String,
    wire_type: String,
    doc: Doc,
    list: String,
    /// Later texts of the same document that add values to the list ("adds `6` waiting
    /// for account opening and `8` failed to open the account"): each one's values joined
    /// by "and" or ",", merged into the list in wire order (in order, for text values).
    #[serde(default)]
    adds: Vec<String>,
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/source_tables.yaml");
        let text = std::fs::read_to_string(&path).expect("tests/data/source_tables.yaml");
        serde_yaml::from_str(&text).expect("tests/data/source_tables.yaml parses")
    })
}

/// Compares each record with its lists in the "Resources" section: same field names,
/// and a stated type only where it matches (or a decision about the field explains it).
fn compare_records(spec: &Spec, res: &BTreeMap<String, Vec<SrcResField>>) -> Vec<String> {
    let mut out = Vec::new();
    for r in &tables().resource_records {
        let (record, labels) = (&r.record, &r.lists);
        let Some(fields) = spec.records.get(record.as_str()) else {
            out.push(format!("record {record}: missing from the spec"));
            continue;
        };
        let src: Vec<&SrcResField> = labels
            .iter()
            .flat_map(|l| res.get(l.as_str()).into_iter().flatten())
            .collect();
        let by_name: BTreeMap<&str, &SpecField> =
            fields.iter().map(|f| (f.name.as_str(), f)).collect();
        for s in &src {
            match by_name.get(s.name.as_str()) {
                None => out.push(format!(
                    "record {record}: field `{}` of the source ({labels:?}) is missing",
                    s.name
                )),
                Some(f) => {
                    if let Some(ty) = &s.ty {
                        if !type_compatible(spec, ty, &f.ty) && !has_decision_about(spec, f) {
                            out.push(format!(
                                "record {record}: `{}` is `{}` in the spec, declared `{ty}` in the source, and no decision about the field explains it",
                                s.name, f.ty
                            ));
                        }
                    }
                }
            }
        }
        let src_names: BTreeSet<&str> = src.iter().map(|s| s.name.as_str()).collect();
        for f in fields {
            // A field seen only live may stand beside the document's when the table
            // names it.
            let live = r.live_only.contains(&f.name);
            if !src_names.contains(f.name.as_str()) && !live {
                out.push(format!(
                    "record {record}: the spec has field `{}`, which the source ({labels:?}) does not list",
                    f.name
                ));
            }
        }
    }
    let known: BTreeSet<&str> = tables()
        .resource_records
        .iter()
        .map(|r| r.record.as_str())
        .chain(
            tables()
                .non_resource_records
                .iter()
                .map(|r| r.record.as_str()),
        )
        .collect();
    for r in spec.records.keys() {
        if !known.contains(r.as_str()) {
            out.push(format!(
                "record {r}: not mapped to a list of the Resources section nor explained (resource_records / non_resource_records of tests/data/source_tables.yaml)"
            ));
        }
    }
    out
}

/// The "Message envelope" table against `envelope:` of the spec: request fields are
/// the rows not marked "response only", response fields the rows not marked "request
/// only"; types as declared.
fn compare_envelope(spec: &Spec, doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut in_table = false;
    for line in doc.lines() {
        if line.starts_with("### ") {
            in_table = line.trim() == "### Message envelope";
            continue;
        }
        if !in_table {
            continue;
        }
        if let Some(c) = table_cells(line) {
            if c.len() == 3 && !is_separator_row(&c) && c[0] != "Field" {
                rows.push((c[0].clone(), c[1].clone(), c[2].to_ascii_lowercase()));
            }
        }
    }
    if rows.is_empty() {
        out.push("source: no `### Message envelope` table found".into());
    }
    for (side, fields, skip) in [
        ("request", &spec.envelope_request, "response only"),
        ("response", &spec.envelope_response, "request only"),
    ] {
        let want: Vec<&(String, String, String)> = rows
            .iter()
            .filter(|(_, _, n)| !n.starts_with(skip))
            .collect();
        let by_name: BTreeMap<&str, &SpecField> =
            fields.iter().map(|f| (f.name.as_str(), f)).collect();
        for (name, ty, _) in &want {
            match by_name.get(name.as_str()) {
                None => out.push(format!("envelope {side}: `{name}` is missing")),
                Some(f) => {
                    let ok = match ty.as_str() {
                        "object" => f.ty == "json",
                        t => type_compatible(spec, t, &f.ty),
                    };
                    if !ok {
                        out.push(format!(
                            "envelope {side}: `{name}` is `{}` in the spec, declared `{ty}`",
                            f.ty
                        ));
                    }
                }
            }
        }
        let names: BTreeSet<&str> = want.iter().map(|(n, _, _)| n.as_str()).collect();
        for f in fields {
            if !names.contains(f.name.as_str()) {
                out.push(format!(
                    "envelope {side}: the spec has `{}`, which the table does not list for a {side}",
                    f.name
                ));
            }
        }
    }
    out
}

// ============================================================================ value sets

/// Where a value set is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Doc {
    /// The source document.
    Seed,
    /// `public-facts.md`.
    Facts,
    /// The source document, as the currencies of a list of `A/B` pairs (in order of
    /// first appearance).
    PairCurrencies,
}

/// The wire values of a list as written: the items separated by `;` (or `,` when there
/// is no `;`) and ` or `, each item's first word (quotes dropped, `(...)` ignored; in a
/// table cell `| FLAG | ... |` only the last cell; a leading `value` skipped).
fn values_of(list: &str) -> Vec<String> {
    let mut text = list.trim().trim_matches('|').to_string();
    if let Some((_, last)) = text.rsplit_once('|') {
        text = last.to_string();
    }
    let mut plain = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let sep = if plain.contains(';') { ';' } else { ',' };
    plain
        .split(sep)
        .flat_map(|s| s.split(" or "))
        .filter_map(|item| {
            let mut words = item.split_whitespace();
            let mut w = words.next()?;
            if w == "value" {
                w = words.next()?;
            }
            Some(w.trim_matches('\'').to_string())
        })
        .collect()
}

/// `list` with the values of an "adds" text (`6 waiting ... and 8 failed ...`), in
/// wire order when every value is an integer.
fn with_added(mut list: Vec<String>, adds: &[String]) -> Vec<String> {
    if adds.is_empty() {
        return list;
    }
    for item in adds
        .iter()
        .flat_map(|a| a.split(" and "))
        .flat_map(|a| a.split(", "))
    {
        if let Some(value) = item.split_whitespace().next() {
            list.push(value.to_owned());
        }
    }
    let numbers: Option<Vec<i64>> = list.iter().map(|v| v.parse().ok()).collect();
    if let Some(mut numbers) = numbers {
        numbers.sort_unstable();
        list = numbers.iter().map(i64::to_string).collect();
    }
    list
}

fn normalize(text: &str) -> String {
    text.replace('`', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Compares every enum with its value set in the documents.
fn compare_value_sets(spec: &Spec, seed: &str, facts: &str) -> Vec<String> {
    let (seed, facts) = (normalize(seed), normalize(facts));
    let mut out = Vec::new();
    for ValueSet {
        name,
        wire_type,
        doc,
        list,
        adds,
    } in &tables().value_sets
    {
        let text = match doc {
            Doc::Seed => &seed,
            Doc::Facts => &facts,
            Doc::PairCurrencies => &seed,
        };
        for written in std::iter::once(list).chain(adds) {
            if !text.contains(written.as_str()) {
                out.push(format!(
                    "value set {name}: `{written}` is not written in {doc:?}"
                ));
            }
        }
        match (spec.enums.get(name), spec.enum_values.get(name)) {
            (Some(w), Some(values)) => {
                if w != wire_type {
                    out.push(format!(
                        "enum {name}: wire type `{w}`, expected `{wire_type}`"
                    ));
                }
                // A value graded `sandbox` is the sandbox's own choice, which no document lists.
                let values: Vec<&(String, Source)> = values
                    .iter()
                    .filter(|(_, s)| *s != Source::Sandbox)
                    .collect();
                let got: Vec<&str> = values.iter().map(|(v, _)| v.as_str()).collect();
                let want = match doc {
                    Doc::PairCurrencies => {
                        let mut seen: Vec<String> = Vec::new();
                        for c in list.split(", ").flat_map(|pair| pair.split('/')) {
                            if !seen.iter().any(|s| s == c) {
                                seen.push(c.to_owned());
                            }
                        }
                        seen
                    }
                    _ => with_added(values_of(list), adds),
                };
                if got != want {
                    out.push(format!(
                        "enum {name}: wire values {got:?}, the source lists {want:?} (in this order)"
                    ));
                }
                let want_source = |s: &Source| match doc {
                    Doc::Seed => *s == Source::Seed,
                    Doc::Facts => *s != Source::Seed,
                    Doc::PairCurrencies => *s == Source::Seed,
                };
                for (v, s) in values {
                    if !want_source(s) {
                        out.push(format!(
                            "enum {name}: value {v} has source {}, but it is written in {doc:?}",
                            source_text(*s)
                        ));
                    }
                }
            }
            _ => out.push(format!("enum {name}: missing from the spec")),
        }
    }
    let listed: BTreeSet<&str> = tables()
        .value_sets
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    for name in spec.enums.keys() {
        if !listed.contains(name.as_str()) {
            out.push(format!(
                "enum {name}: not tied to a value set of the documents (add it to value_sets of tests/data/source_tables.yaml)"
            ));
        }
    }
    out
}

// ============================================================================ tests

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Whether the reference documents are beside the repository (`../shared/reference/`,
/// which only this team's machines and CI have). When they are not, the tests that read
/// them say so and pass, unless `CI=true` or `BAAS_REQUIRE_SHARED=1`: then their absence
/// is a failure, never a skip.
fn shared_present(test: &str) -> bool {
    let path = root().join("../shared/reference/baas-api-spec.md");
    if path.exists() {
        return true;
    }
    let required = std::env::var("CI").is_ok_and(|v| v == "true")
        || std::env::var("BAAS_REQUIRE_SHARED").is_ok_and(|v| v == "1");
    assert!(
        !required,
        "{test}: the source document {} is missing, and CI or BAAS_REQUIRE_SHARED=1 requires it",
        path.display()
    );
    eprintln!(
        "SKIPPED {test}: it compares spec/ with the bank's API document, expected at {} \
         (beside the repository on the team's machines and in CI); set BAAS_REQUIRE_SHARED=1 \
         to make its absence a failure",
        path.display()
    );
    false
}

/// A document of `../shared/reference/`.
fn reference(name: &str) -> String {
    let path = root().join("../shared/reference").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the source document {} is missing ({e}); this test needs the shared/ folder beside the repository",
            path.display()
        )
    })
}

fn source() -> SrcDoc {
    parse_source(&reference("baas-api-spec.md"))
        .unwrap_or_else(|errs| panic!("cannot read the source document:\n  {}", errs.join("\n  ")))
}

fn resources() -> BTreeMap<String, Vec<SrcResField>> {
    let needed = tables()
        .resource_records
        .iter()
        .flat_map(|r| r.lists.iter().map(String::as_str));
    parse_resources(&reference("baas-api-spec.md"), needed).unwrap_or_else(|errs| {
        panic!(
            "cannot read the Resources section of the source document:\n  {}",
            errs.join("\n  ")
        )
    })
}

fn report(mismatches: &[String]) -> String {
    let mut s = format!(
        "{} mismatch(es) between spec/ and the source document:\n",
        mismatches.len()
    );
    for m in mismatches {
        let _ = writeln!(s, "  - {m}");
    }
    s
}

#[test]
fn spec_matches_source_document() {
    if !shared_present("spec_matches_source_document") {
        return;
    }
    let src = source();
    let spec = load_spec(&root().join("spec"));

    // The extraction itself: the operations with parameters, and the referenced paths
    // whose shapes are not shown, that tests/data/source_tables.yaml expects.
    let with_params = src.ops.iter().filter(|o| !o.params.is_empty()).count();
    let without: Vec<&str> = src
        .ops
        .iter()
        .filter(|o| o.params.is_empty())
        .map(|o| o.path.as_str())
        .collect();
    let expected = &tables().source_operations;
    assert_eq!(
        with_params, expected.with_params,
        "operations with parameters extracted from the source"
    );
    assert_eq!(
        without, expected.without_params,
        "operations without parameters extracted from the source"
    );

    let mismatches = compare(&src, &spec);
    assert!(mismatches.is_empty(), "{}", report(&mismatches));
}

/// The check is honest: a dropped parameter, a wrong flag, an invented parameter, a
/// missing operation and an unexplained type change each produce a mismatch.
#[test]
fn cross_check_reports_each_kind_of_mismatch() {
    if !shared_present("cross_check_reports_each_kind_of_mismatch") {
        return;
    }
    let src = source();
    let good = load_spec(&root().join("spec"));
    let find = |spec: &mut Spec, name: &str| -> usize {
        spec.ops
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("no operation {name}"))
    };

    // Dropped parameter.
    let mut spec = good.clone();
    let i = find(&mut spec, "applyForTransfer");
    spec.ops[i]
        .params
        .as_mut()
        .unwrap()
        .retain(|f| f.name != "payeeBankCode");
    let m = compare(&src, &spec);
    assert!(
        m.iter()
            .any(|m| m.contains("`payeeBankCode`") && m.contains("missing")),
        "{}",
        report(&m)
    );

    // Wrong flag.
    let mut spec = good.clone();
    let i = find(&mut spec, "billQuery");
    let f = spec.ops[i]
        .params
        .as_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f.name == "mobile")
        .unwrap();
    f.required = "true".into();
    let m = compare(&src, &spec);
    assert!(
        m.iter().any(|m| m.contains("`mobile` is `required: true`")),
        "{}",
        report(&m)
    );

    // Wrong flag inside an array item record.
    let mut spec = good.clone();
    let item = spec.records.get_mut("OrderItem").expect("OrderItem record");
    item.iter_mut()
        .find(|f| f.name == "platform")
        .unwrap()
        .required = "false".into();
    let m = compare(&src, &spec);
    assert!(
        m.iter()
            .any(|m| m.contains("oderArray[]") && m.contains("`platform`")),
        "{}",
        report(&m)
    );

    // Invented parameter.
    let mut spec = good.clone();
    let i = find(&mut spec, "getUserKyc");
    spec.ops[i].params.as_mut().unwrap().push(SpecField {
        name: "invented".into(),
        ty: "string".into(),
        required: "false".into(),
        decisions: vec![],
        rules: vec![],
    });
    let m = compare(&src, &spec);
    assert!(m.iter().any(|m| m.contains("`invented`")), "{}", report(&m));

    // Missing operation (one of the two on /trans/txReversal).
    let mut spec = good.clone();
    spec.ops.retain(|o| o.name != "fetchTransactionFee");
    let m = compare(&src, &spec);
    assert!(
        m.iter().any(|m| m.starts_with("/trans/txReversal")),
        "{}",
        report(&m)
    );

    // Unexplained type change, and a blank flag without a decision.
    let mut spec = good.clone();
    let i = find(&mut spec, "applyForCnyExpress");
    for f in spec.ops[i].params.as_mut().unwrap() {
        if f.name == "payerAccountId" {
            f.ty = "int".into();
        }
        if f.name == "oderArray" {
            f.decisions.clear();
        }
    }
    let m = compare(&src, &spec);
    assert!(
        m.iter().any(|m| m.contains("`payerAccountId` is `int`")),
        "{}",
        report(&m)
    );
    assert!(
        m.iter()
            .any(|m| m.contains("`oderArray`") && m.contains("no decision")),
        "{}",
        report(&m)
    );

    // The unchanged spec passes.
    assert!(
        compare(&src, &good).is_empty(),
        "{}",
        report(&compare(&src, &good))
    );
}

/// An operation that shares its wire path with an operation that moves money must itself
/// be `moves_money: true`: the service cannot be assumed to tell the two apart (the
/// document says how it does is "not shown"), so an automatic re-send of the harmless
/// one may land on the handler that moves money.
#[test]
fn operations_sharing_a_money_path_are_never_resent() {
    let checked = baas_codegen::check_spec(&root().join("spec"))
        .unwrap_or_else(|d| panic!("spec/ does not pass the front end's checks:\n{d}"));
    let ops: Vec<_> = checked.api.operations().collect();
    let money_paths: BTreeSet<&str> = ops
        .iter()
        .filter(|o| o.moves_money)
        .map(|o| o.path.as_str())
        .collect();
    let unsafe_ops: Vec<String> = ops
        .iter()
        .filter(|o| !o.moves_money && money_paths.contains(o.path.as_str()))
        .map(|o| format!("{} ({})", o.name, o.path))
        .collect();
    assert!(
        unsafe_ops.is_empty(),
        "operations on a path that moves money but not marked moves_money: {unsafe_ops:?}"
    );
}

/// Every record of the "Resources" section has exactly the fields the document lists,
/// with the declared type where one is stated; the message envelope matches its table.
#[test]
fn records_and_envelope_match_the_resources_section() {
    if !shared_present("records_and_envelope_match_the_resources_section") {
        return;
    }
    let spec = load_spec(&root().join("spec"));
    let mut m = compare_records(&spec, &resources());
    m.extend(compare_envelope(&spec, &reference("baas-api-spec.md")));
    assert!(m.is_empty(), "{}", report(&m));
}

/// Every value set of the documents is an enum with exactly the wire values written
/// there, in order, with the wire type and provenance expected.
#[test]
fn enums_match_the_value_sets_of_the_documents() {
    if !shared_present("enums_match_the_value_sets_of_the_documents") {
        return;
    }
    let spec = load_spec(&root().join("spec"));
    let m = compare_value_sets(
        &spec,
        &reference("baas-api-spec.md"),
        &reference("public-facts.md"),
    );
    assert!(m.is_empty(), "{}", report(&m));
}

/// The new dimensions are honest too: a dropped limit, a wrong enum on a field, a lost
/// `at_least_one_of`, a missing or invented record field, a changed enum value, an
/// envelope field on the wrong side and a response field that differs from the
/// document each produce a mismatch.
#[test]
fn cross_check_reports_rules_records_and_value_sets() {
    if !shared_present("cross_check_reports_rules_records_and_value_sets") {
        return;
    }
    let src = source();
    let res = resources();
    let good = load_spec(&root().join("spec"));
    let op = |spec: &mut Spec, name: &str| -> usize {
        spec.ops
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("no operation {name}"))
    };
    let param = |spec: &mut Spec, o: &str, p: &str| -> (usize, usize) {
        let i = op(spec, o);
        let j = spec.ops[i]
            .params
            .as_ref()
            .unwrap()
            .iter()
            .position(|f| f.name == p)
            .unwrap_or_else(|| panic!("no parameter {o}.{p}"));
        (i, j)
    };
    let expect = |m: Vec<String>, needles: &[&str]| {
        assert!(
            m.iter().any(|m| needles.iter().all(|n| m.contains(n))),
            "expected a mismatch with {needles:?}:\n{}",
            report(&m)
        );
    };

    // A dropped max_chars rule, a dropped server_side rule, a dropped whole rule.
    for (o, p, needle) in [
        ("applyForCnyExpress", "beneficiaryIdNumber", "limit 18"),
        ("applyForCnyExpress", "beneficiaryBankCode", "server_side"),
        ("applyForMobileMoneyBusinessTransfer", "amount", "`whole`"),
        ("telegraphicTransfer", "paymentPurpose", "limit 35"),
    ] {
        let mut spec = good.clone();
        let (i, j) = param(&mut spec, o, p);
        spec.ops[i].params.as_mut().unwrap()[j].rules.clear();
        expect(compare(&src, &spec), &[p, needle]);
    }
    // A dropped range inside the order item.
    let mut spec = good.clone();
    for f in spec.records.get_mut("OrderItem").unwrap() {
        f.rules.clear();
    }
    expect(compare(&src, &spec), &["quantity", "limit 99999999"]);
    expect(compare(&src, &spec), &["quantity", "`positive`"]);
    // A lost constraint.
    let mut spec = good.clone();
    let i = op(&mut spec, "getOnboardingStatus");
    spec.ops[i].constraints.clear();
    expect(compare(&src, &spec), &["at_least_one_of"]);
    let mut spec = good.clone();
    let i = op(&mut spec, "applyForCnyExpress");
    spec.ops[i]
        .constraints
        .retain(|c| !matches!(c, ConstraintKind::RequiredIf { field, .. } if field.wire_name == "beneficiaryCountryCode"));
    expect(
        compare(&src, &spec),
        &["beneficiaryCountryCode", "required_if"],
    );
    // The wrong value set on a field (both are string enums).
    let mut spec = good.clone();
    let (i, j) = param(&mut spec, "applyForCnyExpress", "beneficiaryType");
    spec.ops[i].params.as_mut().unwrap()[j].ty = "FeeBeneficiaryType".into();
    expect(
        compare(&src, &spec),
        &["beneficiaryType", "FeeBeneficiaryType"],
    );
    // A value list typed as a plain string.
    let mut spec = good.clone();
    let (i, j) = param(&mut spec, "telegraphicTransfer", "chargeType");
    spec.ops[i].params.as_mut().unwrap()[j].ty = "string".into();
    expect(
        compare(&src, &spec),
        &["chargeType", "enum for the value list"],
    );

    // Records: a dropped field, an invented field, a wrong declared type.
    let mut spec = good.clone();
    spec.records
        .get_mut("PersonalKyc")
        .unwrap()
        .retain(|f| f.name != "kraPin");
    expect(
        compare_records(&spec, &res),
        &["PersonalKyc", "`kraPin`", "missing"],
    );
    let mut spec = good.clone();
    spec.records
        .get_mut("ReversalApplication")
        .unwrap()
        .push(SpecField {
            name: "invented".into(),
            ty: "string".into(),
            required: "false".into(),
            decisions: vec![],
            rules: vec![],
        });
    expect(
        compare_records(&spec, &res),
        &["ReversalApplication", "`invented`"],
    );
    let mut spec = good.clone();
    for f in spec.records.get_mut("CnyTransferDetail").unwrap() {
        if f.name == "createTime" {
            f.ty = "string".into();
        }
    }
    expect(
        compare_records(&spec, &res),
        &["CnyTransferDetail", "`createTime`", "long"],
    );
    let mut spec = good.clone();
    spec.records.remove("ShareholderCompanyInfo");
    expect(
        compare_records(&spec, &res),
        &["ShareholderCompanyInfo", "missing"],
    );
    // Envelope: a request-only field in the response.
    let mut spec = good.clone();
    let params = spec
        .envelope_request
        .iter()
        .find(|f| f.name == "params")
        .unwrap()
        .clone();
    spec.envelope_response.push(params);
    expect(
        compare_envelope(&spec, &reference("baas-api-spec.md")),
        &["response", "`params`"],
    );

    // Value sets: a changed wire value, a changed wire type, an unanchored enum.
    let seed = reference("baas-api-spec.md");
    let facts = reference("public-facts.md");
    let mut spec = good.clone();
    spec.enum_values.get_mut("BillType").unwrap()[2].0 = "2".into();
    expect(
        compare_value_sets(&spec, &seed, &facts),
        &["BillType", "wire values"],
    );
    let mut spec = good.clone();
    spec.enums.insert("Gender".into(), "integer".into());
    expect(
        compare_value_sets(&spec, &seed, &facts),
        &["Gender", "wire type"],
    );
    let mut spec = good.clone();
    spec.enums.insert("Invented".into(), "string".into());
    expect(
        compare_value_sets(&spec, &seed, &facts),
        &["Invented", "source_tables.yaml"],
    );

    // Responses: a dropped field, a wrong declared type, an invented field, a
    // code-and-msg response that is not `empty`, a wrong list item record.
    let mut spec = good.clone();
    let i = op(&mut spec, "airtimePayment");
    spec.ops[i]
        .response_fields
        .retain(|f| f.name != "paymentId");
    expect(
        compare(&src, &spec),
        &["airtimePayment", "`paymentId`", "missing"],
    );
    let mut spec = good.clone();
    let i = op(&mut spec, "applyForCnyExpress");
    spec.ops[i].response_fields[0].ty = "int".into();
    expect(
        compare(&src, &spec),
        &["applyForCnyExpress", "`applicationId`", "string"],
    );
    let mut spec = good.clone();
    let i = op(&mut spec, "applyForShortCode");
    let extra = SpecField {
        name: "invented".into(),
        ..spec.ops[i].response_fields[0].clone()
    };
    spec.ops[i].response_fields.push(extra);
    expect(compare(&src, &spec), &["applyForShortCode", "`invented`"]);
    let mut spec = good.clone();
    let i = op(&mut spec, "sendOtp");
    spec.ops[i].response_kind = "fields".into();
    expect(compare(&src, &spec), &["sendOtp", "not `empty`"]);
    let mut spec = good.clone();
    spec.records
        .get_mut("AccountListItem")
        .unwrap()
        .retain(|f| f.name != "currency");
    expect(
        compare(&src, &spec),
        &["queryAccountListByUserId", "items of `accounts`"],
    );

    // The unchanged spec passes all of them.
    let mut all = compare(&src, &good);
    all.extend(compare_records(&good, &res));
    all.extend(compare_value_sets(&good, &seed, &facts));
    assert!(all.is_empty(), "{}", report(&all));
}
