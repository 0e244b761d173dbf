//! `enums.ts`, `records.ts` and one module per group: the types partners write and read, and
//! the shape descriptors the runtime validates, writes and reads by.

use super::names::{access, binding, descriptor, prop, referenced, string, ts_type, Direction};
use super::Out;
use crate::model::{
    Api, Condition, Constraint, ConstraintKind, EnumDef, EnumWireType, Field, Group, Operation,
    ParamRef, Params, Record, Response, TypeRef,
};
use crate::rules::{CheckArg, CheckLevel};

/// `enums.ts`: every value set as a `const` object of its values and the union of them
/// (the result codes are in `codes.ts`).
pub fn enums_module(api: &Api) -> Out {
    let mut out = Out::module(
        "Value sets of the API. Each is a `const` object (names to wire values) and the union \
         of its values; an answer may carry a value this version does not list, typed \
         `Unknown` (see `isKnown`).",
    );
    for e in &api.enums {
        enum_def(&mut out, e);
    }
    out
}

/// `codes.ts`: the service's result codes, the retryable ones and their names.
pub fn codes_module(api: &Api) -> Out {
    let mut out = Out::module(
        "The service's result codes: `ResultCode` (names to codes), the codes the client may \
         retry, and `resultCodeName` to name a code received.",
    );
    out.line("import type * as rt from \"@baas/runtime\";");
    out.blank();
    out.doc("The service's result codes (`code` of an answer), by name.");
    out.line("export const ResultCode = {");
    out.indent();
    for c in &api.result_codes {
        out.doc(&c.partner_doc());
        out.line(&format!("{}: {},", prop(&c.name), string(&c.code)));
    }
    out.dedent();
    out.line("} as const;");
    out.line("export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];");
    out.blank();
    let retryable: Vec<String> = api
        .result_codes
        .iter()
        .filter(|c| c.retryable)
        .map(|c| string(&c.code))
        .collect();
    out.doc("The result codes after which trying again may succeed (the client retries them where safe).");
    out.line(&format!(
        "export const RETRYABLE_CODES: readonly ResultCode[] = [{}];",
        retryable.join(", ")
    ));
    out.blank();
    out.doc("The name of a result code (`\"14009\"` → `\"InsufficientBalance\"`), or `undefined` for a code this version does not list.");
    out.line("export function resultCodeName(code: ResultCode | rt.Unknown<string> | string): keyof typeof ResultCode | undefined {");
    out.line("  const names = Object.keys(ResultCode) as (keyof typeof ResultCode)[];");
    out.line("  return names.find((name) => ResultCode[name] === code);");
    out.line("}");
    out
}

fn enum_def(out: &mut Out, e: &EnumDef) {
    out.doc(&e.doc);
    out.line(&format!("export const {} = {{", e.name));
    out.indent();
    for v in &e.values {
        let mut doc = e.value_doc(v);
        if let Some(note) = &v.deprecated {
            doc.push_str(&format!("\n\n@deprecated {note}"));
        }
        out.doc(&doc);
        let value = match (e.wire_type, v.integer) {
            (EnumWireType::Integer, Some(n)) => n.to_string(),
            _ => string(&v.wire),
        };
        out.line(&format!("{}: {value},", prop(&v.name)));
    }
    out.dedent();
    out.line("} as const;");
    out.line(&format!(
        "export type {0} = (typeof {0})[keyof typeof {0}];",
        e.name
    ));
    out.blank();
}

/// The doc of a field: its text, its rules in words, deprecation.
fn field_doc(field: &Field, dir: Direction) -> String {
    let mut parts = vec![field.doc.trim().to_owned()];
    let rules: Vec<String> = field.rules.iter().map(|r| r.kind.words()).collect();
    if !rules.is_empty() && dir == Direction::Sent {
        parts.push(format!("Rules: {}.", rules.join("; ")));
    }
    if let Some(words) = field.source.partner_words() {
        parts.push(words.to_owned());
    }
    if let Some(note) = &field.deprecated {
        parts.push(format!("@deprecated {note}"));
    }
    parts.retain(|p| !p.is_empty());
    parts.join("\n\n")
}

/// The properties of an interface of `fields` in one direction.
fn properties(out: &mut Out, fields: &[Field], dir: Direction, enums: &[EnumDef]) {
    for f in fields {
        out.doc(&field_doc(f, dir));
        let optional = dir == Direction::Received || f.optional_when_sent();
        out.line(&format!(
            "readonly {}{}: {};",
            prop(&f.wire_name),
            if optional { "?" } else { "" },
            ts_type(&f.ty, dir, enums)
        ));
    }
}

fn check_arg(arg: &CheckArg) -> String {
    match arg {
        CheckArg::Count(n) => n.to_string(),
        CheckArg::Places(n) => n.to_string(),
        CheckArg::Integer(Some(n)) => n.to_string(),
        CheckArg::Amount(Some(n)) => string(&n.to_string()),
        CheckArg::Integer(None) | CheckArg::Amount(None) => "null".to_owned(),
    }
}

/// The descriptor of one field.
fn field_shape(f: &Field, enums: &[EnumDef]) -> String {
    let elem = match &f.ty {
        TypeRef::Array { item } => item.as_ref(),
        ty => ty,
    };
    let mut value_checks = Vec::new();
    let mut array_checks = Vec::new();
    for rule in &f.rules {
        let check = match rule
            .kind
            .check(&f.ty)
            .filter(|c| c.level == CheckLevel::Array)
        {
            Some(c) => Some(c),
            None => rule.kind.check(elem),
        };
        let Some(check) = check else { continue };
        let mut parts = vec![string(check.method)];
        parts.extend(check.args.iter().map(check_arg));
        let tuple = format!("[{}]", parts.join(", "));
        match check.level {
            CheckLevel::Value => value_checks.push(tuple),
            CheckLevel::Array => array_checks.push(tuple),
        }
    }
    let mut text = format!(
        "{{ wire: {}, ty: {}, required: {}",
        string(&f.wire_name),
        descriptor(&f.ty, enums),
        !f.optional_when_sent()
    );
    if !value_checks.is_empty() {
        text.push_str(&format!(", checks: [{}]", value_checks.join(", ")));
    }
    if !array_checks.is_empty() {
        text.push_str(&format!(", arrayChecks: [{}]", array_checks.join(", ")));
    }
    text.push_str(" }");
    text
}

fn param_ref(p: &ParamRef) -> String {
    format!("[{}, {}]", string(&p.wire_name), p.text)
}

fn condition_words(c: &Condition) -> String {
    match c {
        Condition::Equals { field, value } => format!("{} is {value}", field.wire_name),
        Condition::SumGreaterThan { array, item, value } => format!(
            "the sum of {}[].{} is greater than {value}",
            array.wire_name, item.wire_name
        ),
    }
}

fn constraint_shape(c: &Constraint) -> Option<String> {
    let list = |fields: &[ParamRef]| fields.iter().map(param_ref).collect::<Vec<_>>().join(", ");
    Some(match &c.kind {
        ConstraintKind::RequiredIf { field, when } => {
            let cond = match when {
                Condition::Equals { field, value } => format!(
                    "{{ k: \"equals\", field: {}, value: {} }}",
                    string(&field.wire_name),
                    string(value)
                ),
                Condition::SumGreaterThan { array, item, value } => format!(
                    "{{ k: \"sum_greater_than\", array: {}, item: {}, value: {} }}",
                    string(&array.wire_name),
                    string(&item.wire_name),
                    string(&value.to_string())
                ),
            };
            format!(
                "{{ k: \"required_if\", field: {}, when: {cond}, words: {} }}",
                param_ref(field),
                string(&condition_words(when))
            )
        }
        ConstraintKind::AtLeastOneOf { fields } => {
            format!("{{ k: \"at_least_one_of\", fields: [{}] }}", list(fields))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            format!("{{ k: \"exactly_one_of\", fields: [{}] }}", list(fields))
        }
        ConstraintKind::ServerSide { .. } => return None,
    })
}

/// A constraint in words, for the request's doc.
fn constraint_doc(c: &Constraint) -> String {
    let names = |fields: &[ParamRef]| {
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
                condition_words(when)
            )
        }
        ConstraintKind::AtLeastOneOf { fields } => {
            format!("At least one of {} is required.", names(fields))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            format!("Exactly one of {} is required.", names(fields))
        }
        ConstraintKind::ServerSide { fields, text } => {
            let f: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "{} (checked by the service only: {}).",
                f.join(", "),
                text.trim()
            )
        }
    };
    format!("{text} {}", c.doc.trim()).trim().to_owned()
}

/// A record shape descriptor `const`.
fn shape_const(
    out: &mut Out,
    name: &str,
    fields: &[Field],
    constraints: &[Constraint],
    export: bool,
    enums: &[EnumDef],
) {
    out.line(&format!(
        "{}const {name}Shape: rt.RecordShape = {{",
        if export { "export " } else { "" }
    ));
    out.indent();
    out.line(&format!("name: {},", string(name)));
    out.line("fields: [");
    out.indent();
    for f in fields {
        out.line(&format!("{},", field_shape(f, enums)));
    }
    out.dedent();
    out.line("],");
    let shapes: Vec<String> = constraints.iter().filter_map(constraint_shape).collect();
    if !shapes.is_empty() {
        out.line("constraints: [");
        out.indent();
        for s in shapes {
            out.line(&format!("{s},"));
        }
        out.dedent();
        out.line("],");
    }
    out.dedent();
    out.line("};");
}

/// Imports from `records.ts` and `enums.ts` of what `types` name.
fn imports(out: &mut Out, names: Vec<String>, api: &Api) {
    let mut names = names;
    names.sort();
    names.dedup();
    let is_enum = |n: &str| {
        let bare = n.trim_start_matches("type ");
        api.enums.iter().any(|e| e.name == bare)
    };
    let enums: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| is_enum(n))
        .collect();
    let shapes: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !is_enum(n) && n.ends_with("Shape"))
        .collect();
    let records: Vec<String> = names
        .iter()
        .filter(|n| !is_enum(n) && !n.ends_with("Shape"))
        .map(|n| format!("type {n}"))
        .collect();
    if !enums.is_empty() {
        out.line(&format!(
            "import {{ {} }} from \"./enums.js\";",
            enums.join(", ")
        ));
    }
    if !records.is_empty() {
        out.line(&format!(
            "import {{ {} }} from \"./records.js\";",
            records.join(", ")
        ));
    }
    if !shapes.is_empty() {
        out.line(&format!(
            "import {{ {} }} from \"./records.js\";",
            shapes.join(", ")
        ));
    }
}

/// `records.ts`: every record, re-exported from its own file.
pub fn records_barrel(api: &Api) -> Out {
    let mut out = Out::module(
        "Records of the API. A record sent in requests has its required fields required; one \
         read from answers (`…Received` when it is used both ways) has every field optional. \
         Each record's `…Shape` is its descriptor, by which the runtime validates and writes \
         requests and reads answers.",
    );
    for r in &api.records {
        out.line(&format!("export * from \"./records/{}.js\";", r.name));
    }
    out
}

/// `records/<Name>.ts`: one record's shapes and descriptor.
pub fn record_file(api: &Api, r: &Record) -> Out {
    let mut out = Out::module(&format!("The record `{}`.", r.name));
    out.line("import type * as rt from \"@baas/runtime\";");
    let sent = r.used_in_request || !r.used_in_response;
    let received = r.used_in_response && (r.received_name != r.name || !sent);
    let mut enums: Vec<String> = Vec::new();
    let mut records: Vec<(String, Vec<String>)> = Vec::new();
    for f in &r.fields {
        match elem(&f.ty) {
            TypeRef::Enum { name } => enums.push(name.clone()),
            TypeRef::Record {
                name,
                received_name,
            } if name != &r.name => {
                let mut names = vec![format!("{name}Shape")];
                if sent {
                    names.push(format!("type {name}"));
                }
                if received {
                    names.push(format!("type {received_name}"));
                }
                records.push((name.clone(), names));
            }
            _ => {}
        }
    }
    enums.sort();
    enums.dedup();
    if !enums.is_empty() {
        out.line(&format!(
            "import {{ {} }} from \"../enums.js\";",
            enums.join(", ")
        ));
    }
    records.sort();
    let mut merged: Vec<(String, Vec<String>)> = Vec::new();
    for (name, names) in records {
        match merged.last_mut() {
            Some((last, list)) if *last == name => list.extend(names),
            _ => merged.push((name, names)),
        }
    }
    for (name, mut names) in merged {
        names.sort();
        names.dedup();
        out.line(&format!(
            "import {{ {} }} from \"./{name}.js\";",
            names.join(", ")
        ));
    }
    out.blank();
    record(&mut out, r, &api.enums);
    shape_const(&mut out, &r.name, &r.fields, &[], true, &api.enums);
    out
}

fn record(out: &mut Out, r: &Record, enums: &[EnumDef]) {
    let sent = r.used_in_request || !r.used_in_response;
    let doc = match r.source.partner_words() {
        Some(words) => format!("{}\n\n{words}", r.doc),
        None => r.doc.clone(),
    };
    if sent {
        out.doc(&doc);
        out.line(&format!("export interface {} {{", r.name));
        out.indent();
        properties(out, &r.fields, Direction::Sent, enums);
        out.dedent();
        out.line("}");
        out.blank();
    }
    if r.used_in_response && (r.received_name != r.name || !sent) {
        out.doc(&format!(
            "`{}` as read from answers: every field optional.",
            r.name
        ));
        out.line(&format!("export interface {} {{", r.received_name));
        out.indent();
        properties(out, &r.fields, Direction::Received, enums);
        out.dedent();
        out.line("}");
        out.blank();
    }
}

/// The fields of an operation's answer, when the answer lists them.
pub fn response_fields<'a>(api: &'a Api, op: &'a Operation) -> Option<&'a [Field]> {
    match &op.response {
        Response::Fields { fields, .. } => Some(fields),
        Response::Record { record, .. } => api.record(record).map(|r| r.fields.as_slice()),
        Response::Unspecified { .. } | Response::Empty { .. } => None,
    }
}

/// The wire name of a response field given by its Rust name.
pub fn response_wire(api: &Api, op: &Operation, rust_name: &str) -> String {
    response_fields(api, op)
        .and_then(|fields| fields.iter().find(|f| f.rust_name == rust_name))
        .map(|f| f.wire_name.clone())
        .unwrap_or_else(|| camel(rust_name))
}

/// The wire name of a parameter given by its Rust name.
pub fn param_wire(op: Option<&Operation>, rust_name: &str) -> String {
    op.and_then(|op| match &op.params {
        Params::Fields { fields } => fields.iter().find(|f| f.rust_name == rust_name),
        Params::Unspecified { .. } => None,
    })
    .map(|f| f.wire_name.clone())
    .unwrap_or_else(|| camel(rust_name))
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.trim_start_matches("r#").chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// One group's module: each operation's request, response and descriptor.
pub fn group_module(api: &Api, group: &Group) -> Out {
    let mut out = Out::module(&group.doc);
    out.line("import type * as rt from \"@baas/runtime\";");
    let mut refs = Vec::new();
    for op in &group.operations {
        if let Params::Fields { fields } = &op.params {
            for f in fields {
                referenced(&f.ty, Direction::Sent, &mut refs);
            }
        }
        if let Response::Fields { fields, .. } = &op.response {
            for f in fields {
                referenced(&f.ty, Direction::Received, &mut refs);
            }
        }
        if let Some(items) = op.paging.as_ref().and_then(|p| p.items.as_ref()) {
            referenced(&items.item, Direction::Received, &mut refs);
        }
        if let Response::Record {
            record,
            received_name,
            ..
        } = &op.response
        {
            refs.push(received_name.clone());
            refs.push(format!("{record}Shape"));
        }
    }
    imports(&mut out, refs, api);
    out.blank();
    for op in &group.operations {
        operation(&mut out, api, op);
    }
    out
}

fn operation(out: &mut Out, api: &Api, op: &Operation) {
    let request = format!("{}Request", op.type_name);
    let response = format!("{}Response", op.type_name);
    let mut doc = format!("The parameters of `{}`. {}", op.name, op.doc.trim());
    let constraints: Vec<String> = op.constraints.iter().map(constraint_doc).collect();
    if !constraints.is_empty() {
        doc.push_str(&format!("\n\n{}", constraints.join(" ")));
    }
    match &op.params {
        Params::Fields { fields } => {
            out.doc(&doc);
            out.line(&format!("export interface {request} {{"));
            out.indent();
            properties(out, fields, Direction::Sent, &api.enums);
            out.dedent();
            out.line("}");
            out.blank();
            shape_const(out, &request, fields, &op.constraints, false, &api.enums);
        }
        Params::Unspecified { note } => {
            out.doc(&format!("{doc}\n\n{note}"));
            out.line(&format!("export type {request} = rt.JsonInputObject;"));
        }
    }
    out.blank();
    let response_ty = match &op.response {
        Response::Fields { fields, .. } => {
            out.doc(&format!(
                "The answer of `{}` (its `data`): every field optional.",
                op.name
            ));
            out.line(&format!("export interface {response} {{"));
            out.indent();
            properties(out, fields, Direction::Received, &api.enums);
            out.dedent();
            out.line("}");
            out.blank();
            shape_const(out, &response, fields, &[], false, &api.enums);
            format!("{{ k: \"record\", record: () => {response}Shape }}")
        }
        Response::Record {
            record,
            received_name,
            ..
        } => {
            out.doc(&format!("The answer of `{}` (its `data`).", op.name));
            out.line(&format!("export type {response} = {received_name};"));
            format!("{{ k: \"record\", record: () => {record}Shape }}")
        }
        Response::Unspecified { note } => {
            out.doc(&format!("The answer of `{}`, as received. {note}", op.name));
            out.line(&format!("export type {response} = rt.JsonValue;"));
            "undefined".to_owned()
        }
        Response::Empty { note } => {
            out.doc(&format!(
                "The answer of `{}`: code and message only. {note}",
                op.name
            ));
            out.line(&format!("export type {response} = rt.JsonValue;"));
            "undefined".to_owned()
        }
    };
    out.blank();
    out.doc(&format!(
        "The operation `{}` (`POST {}`), for the runtime client and the mock.",
        op.name, op.path
    ));
    out.line(&format!(
        "export const {}: rt.Operation<{request}, {response}> = {{",
        binding(&op.name)
    ));
    out.indent();
    out.line(&format!("name: {},", string(&op.name)));
    out.line(&format!("path: {},", string(&op.path)));
    out.line(&format!("movesMoney: {},", op.moves_money));
    match &op.params {
        Params::Fields { .. } => out.line(&format!("params: {request}Shape,")),
        Params::Unspecified { .. } => out.line("params: undefined,"),
    }
    out.line(&format!("response: {response_ty},"));
    out.dedent();
    out.line("};");
    if let Some(paging) = &op.paging {
        if let Some(items) = &paging.items {
            out.blank();
            let item_ty = ts_type(&items.item, Direction::Received, &api.enums);
            out.doc(&format!(
                "How `{}` pages: by `{}` from {}, `{}` a page.",
                op.name, paging.page.wire_name, paging.first_page, paging.size.wire_name
            ));
            out.line(&format!(
                "export const {}Paging: rt.Paging<{response}, {item_ty}> = {{",
                binding(&op.name)
            ));
            out.indent();
            out.line(&format!("page: {},", string(&paging.page.wire_name)));
            out.line(&format!("size: {},", string(&paging.size.wire_name)));
            out.line(&format!("firstPage: {},", paging.first_page));
            out.line(&format!("items: (r) => {},", access("r", &items.wire_name)));
            match &paging.total {
                Some(total) => {
                    out.line(&format!("total: (r) => {},", access("r", &total.wire_name)))
                }
                None => out.line("total: () => undefined,"),
            }
            out.dedent();
            out.line("};");
        }
    }
    out.blank();
}

/// The type of the values of a field (the innermost item of an array).
fn elem(ty: &TypeRef) -> &TypeRef {
    match ty {
        TypeRef::Array { item } => elem(item),
        ty => ty,
    }
}
