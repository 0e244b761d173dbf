//! TypeScript's syntax of the plan's types: the type a field has in each direction, the
//! shape descriptor the runtime validates, writes and reads by, and the imports they need.

use super::names::{prop, string};
use super::{module, says, write_doc, Out};
use crate::model::{Condition, ConstraintKind, DecimalWire, ParamRef, TypeRef};
use crate::plan::{ConstraintPlan, Direction, Doc, FieldPlan, SdkPlan};
use crate::rules::{CheckArg, CheckLevel};

fn integer_enum(plan: &SdkPlan, name: &str) -> bool {
    plan.enum_plan(name).is_some_and(|e| e.integer)
}

/// The TypeScript type of a plan type. Runtime types are reached through `rt.`; a scalar
/// (received only: a value whose JSON type is not shown) is read as its text.
pub fn ts_type(ty: &TypeRef, dir: Direction, plan: &SdkPlan) -> String {
    let sent = dir == Direction::Sent;
    let unknown = |name: &str| {
        if integer_enum(plan, name) {
            "number"
        } else {
            "string"
        }
    };
    match ty {
        TypeRef::String | TypeRef::Scalar => "string".to_owned(),
        TypeRef::Int | TypeRef::Long => "number".to_owned(),
        TypeRef::Decimal { .. } => "rt.Amount".to_owned(),
        TypeRef::Bool => "boolean".to_owned(),
        TypeRef::Date => "rt.IsoDate".to_owned(),
        TypeRef::Document => "Uint8Array".to_owned(),
        TypeRef::Json if sent => "rt.JsonInput".to_owned(),
        TypeRef::Json => "rt.JsonValue".to_owned(),
        // An open set's field takes any other code too; `string & {}` keeps the listed
        // ones offered by editors.
        TypeRef::Enum { name } if sent && plan.enum_plan(name).is_some_and(|e| e.open) => {
            format!("{name} | (string & {{}})")
        }
        TypeRef::Enum { name } if sent => name.clone(),
        TypeRef::Enum { name } => format!("{name} | rt.Unknown<{}>", unknown(name)),
        TypeRef::Record { name, .. } if sent => name.clone(),
        TypeRef::Record { received_name, .. } => received_name.clone(),
        TypeRef::Array { item } => match ts_type(item, dir, plan) {
            inner if inner.contains(' ') => format!("readonly ({inner})[]"),
            inner => format!("readonly {inner}[]"),
        },
    }
}

/// The shape descriptor of a plan type (`{ k: "string" }`, ...).
pub fn descriptor(ty: &TypeRef, plan: &SdkPlan) -> String {
    let kind = |k: &str| format!("{{ k: \"{k}\" }}");
    match ty {
        TypeRef::String => kind("string"),
        TypeRef::Int => kind("int"),
        TypeRef::Long => kind("long"),
        TypeRef::Decimal { wire } => {
            let wire = match wire {
                DecimalWire::String => "string",
                DecimalWire::Number => "number",
            };
            format!("{{ k: \"decimal\", wire: \"{wire}\" }}")
        }
        TypeRef::Bool => kind("bool"),
        TypeRef::Date => kind("date"),
        TypeRef::Document => kind("document"),
        TypeRef::Scalar => kind("scalar"),
        TypeRef::Json => kind("json"),
        TypeRef::Enum { name } => {
            let wire = if integer_enum(plan, name) {
                "integer"
            } else {
                "string"
            };
            let open = if plan.enum_plan(name).is_some_and(|e| e.open) {
                ", open: true"
            } else {
                ""
            };
            format!(
                "{{ k: \"enum\", name: {}, wire: \"{wire}\", values: Object.values(d.{name}){open} }}",
                string(name)
            )
        }
        TypeRef::Record { name, .. } => format!("{{ k: \"record\", record: () => d.{name}Shape }}"),
        TypeRef::Array { item } => format!("{{ k: \"array\", item: {} }}", descriptor(item, plan)),
    }
}

/// The record and value set names a type refers to in one direction, with the shapes of
/// its records (for imports).
pub fn referenced(ty: &TypeRef, dir: Direction, out: &mut Vec<String>) {
    match ty {
        TypeRef::Enum { name } => out.push(name.clone()),
        TypeRef::Record {
            name,
            received_name,
        } => {
            out.push(match dir {
                Direction::Sent => name.clone(),
                Direction::Received => received_name.clone(),
            });
            out.push(format!("{name}Shape"));
        }
        TypeRef::Array { item } => referenced(item, dir, out),
        _ => {}
    }
}

/// Imports from `enums.ts` and `records.ts` (in the folder `up`: `./`, `../`) of the `names`
/// a module refers to.
pub fn imports(out: &mut Out, mut names: Vec<String>, plan: &SdkPlan, up: &str) {
    names.sort();
    names.dedup();
    let (enums, rest): (Vec<String>, Vec<String>) =
        names.into_iter().partition(|n| plan.enum_plan(n).is_some());
    let (shapes, records): (Vec<String>, Vec<String>) =
        rest.into_iter().partition(|n| n.ends_with("Shape"));
    let records: Vec<String> = records.iter().map(|n| format!("type {n}")).collect();
    for (list, from) in [(enums, "enums"), (records, "records"), (shapes, "records")] {
        if !list.is_empty() {
            out.line(&format!(
                "import {{ {} }} from \"{up}{from}.js\";",
                list.join(", ")
            ));
        }
    }
}

/// A `const` object of named values and the union of its values (a value set, the result
/// codes, the notification types): `export const X = { … } as const; export type X = …`.
pub fn named_values<'a>(
    out: &mut Out,
    name: &str,
    doc: &Doc,
    values: impl IntoIterator<Item = (Doc, &'a str, String)>,
) {
    write_doc(out, doc);
    out.line(&format!("export const {name} = {{"));
    out.indent();
    for (doc, key, value) in values {
        write_doc(out, &doc);
        out.line(&format!("{}: {value},", prop(key)));
    }
    out.dedent();
    out.line("} as const;");
    out.line(&format!(
        "export type {name} = (typeof {name})[keyof typeof {name}];"
    ));
}

/// The properties of an interface of `fields` in one direction.
pub fn properties(out: &mut Out, fields: &[FieldPlan], dir: Direction, plan: &SdkPlan) {
    for f in fields {
        write_doc(out, f.doc(dir));
        let optional = dir == Direction::Received || !f.required();
        out.line(&format!(
            "readonly {}{}: {};",
            prop(&f.wire_name),
            if optional { "?" } else { "" },
            ts_type(&f.ty, dir, plan)
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
        CheckArg::Texts(values) => {
            let items: Vec<String> = values.iter().map(|v| string(v)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

/// The descriptor of one field: its checks are tuples of the validator method the plan
/// names and its arguments.
fn field_shape(f: &FieldPlan, plan: &SdkPlan) -> String {
    let mut text = format!(
        "{{ wire: {}, ty: {}, required: {}",
        string(&f.wire_name),
        descriptor(&f.ty, plan),
        f.required()
    );
    for (level, key) in [
        (CheckLevel::Value, "checks"),
        (CheckLevel::Array, "arrayChecks"),
    ] {
        let tuples: Vec<String> = f
            .checks
            .iter()
            .filter(|c| c.level == level)
            .map(|c| {
                let args = c.args.iter().map(|a| format!(", {}", check_arg(a)));
                format!("[{}{}]", string(c.method), args.collect::<String>())
            })
            .collect();
        if !tuples.is_empty() {
            text.push_str(&format!(", {key}: [{}]", tuples.join(", ")));
        }
    }
    text.push_str(" }");
    text
}

fn param_ref(p: &ParamRef) -> String {
    format!("[{}, {}]", string(&p.wire_name), p.empty.is_some())
}

/// The descriptor of a constraint the client checks (`None` for the service's own).
fn constraint_shape(c: &ConstraintPlan) -> Option<String> {
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
                string(c.condition.as_deref().unwrap_or_default())
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

/// What a field list names: the value sets (`Currency`) and records' descriptors
/// (`AccountShape`) its descriptors read, sorted, once each.
fn field_refs(fields: &[FieldPlan]) -> Vec<String> {
    let mut names = Vec::new();
    for f in fields {
        let mut ty = &f.ty;
        while let TypeRef::Array { item } = ty {
            ty = item;
        }
        match ty {
            TypeRef::Enum { name } => names.push(name.clone()),
            TypeRef::Record { name, .. } => names.push(format!("{name}Shape")),
            _ => {}
        }
    }
    names.sort();
    names.dedup();
    names
}

/// A record shape descriptor `const` (`{name}Shape`) in `out`, and the functions that build its
/// field list (`{name}Fields`) and constraints (`{name}Constraints`) in `lists`: the file's
/// companion (`companion`: its path below `src/`, `records/Account` for
/// `src/records/Account.lazy.ts`), which the build bundles apart as `dist/<companion>.lazy.cjs`
/// (typescript/bundle.mjs) and `lazy.ts` requires when a program first reads the descriptor.
///
/// The lists are 45 KB of the client's code, and none is needed at import: the client's bundle
/// (`dist/index.cjs`) holds each descriptor's name and a call of its list's function (issue 36:
/// callgrind, about 4 million fewer instructions to import the client, 5% of an empty Node
/// start), and a call loads the few lists it reads. The list's function takes what it names
/// (value sets, other descriptors) as an argument, so that no companion holds a second copy.
/// The companion's file must declare `type Lists = typeof import("./<Name>.lazy.js")`.
///
/// The descriptor's thunks are `function` expressions, not arrows: the bundle runs as one
/// CommonJS module, whose top level V8 compiles as one function, and there it parses an
/// arrow's body in full (AST and all) while it only pre-parses a function expression's
/// (`node --log-function-events`; with the lists still inline, 2.2 million instructions).
#[allow(clippy::too_many_arguments)]
pub fn shape_const(
    out: &mut Out,
    lists: &mut Out,
    companion: &str,
    name: &str,
    fields: &[FieldPlan],
    constraints: &[ConstraintPlan],
    export: bool,
    plan: &SdkPlan,
) {
    let refs = field_refs(fields);
    let export = if export { "export " } else { "" };
    let load = format!("lazy<Lists>({})", string(companion));
    out.line(&format!(
        "{export}const {name}Shape: rt.RecordShape = recordShape({}, function () {{",
        string(name)
    ));
    if refs.is_empty() {
        out.line(&format!("  return {load}.{name}Fields();"));
    } else {
        out.line(&format!(
            "  return {load}.{name}Fields({{ {} }});",
            refs.join(", ")
        ));
    }
    let shapes: Vec<String> = constraints.iter().filter_map(constraint_shape).collect();
    if shapes.is_empty() {
        out.line("});");
    } else {
        out.line("}, function () {");
        out.line(&format!("  return {load}.{name}Constraints();"));
        out.line("});");
    }

    let list = |out: &mut Out, items: Vec<String>| {
        out.indent();
        out.line("return [");
        out.indent();
        for item in items {
            out.line(&format!("{item},"));
        }
        out.dedent();
        out.line("];");
        out.dedent();
        out.line("}");
    };
    lists.blank();
    says(lists, &format!("The fields of `{name}Shape`."));
    if refs.is_empty() {
        lists.line(&format!(
            "export function {name}Fields(): readonly rt.FieldShape[] {{"
        ));
    } else {
        lists.line(&format!("export function {name}Fields(d: {{"));
        lists.indent();
        for r in &refs {
            let ty = if r.ends_with("Shape") {
                "rt.RecordShape"
            } else {
                "Readonly<Record<string, string | number>>"
            };
            lists.line(&format!("readonly {r}: {ty};"));
        }
        lists.dedent();
        lists.line("}): readonly rt.FieldShape[] {");
    }
    list(lists, fields.iter().map(|f| field_shape(f, plan)).collect());
    if !shapes.is_empty() {
        lists.blank();
        says(lists, &format!("The constraints of `{name}Shape`."));
        lists.line(&format!(
            "export function {name}Constraints(): readonly rt.Constraint[] {{"
        ));
        list(lists, shapes);
    }
}

/// The companion of a file that has descriptors: their field lists (see [`shape_const`]).
pub fn lists_module(of: &str) -> Out {
    let mut out = module(&Doc::of([format!(
        "The field lists of {of}'s descriptors, built when a program first reads them: \
         bundled apart from the client's code (a `.lazy.cjs` file of its own in `dist/`), \
         loaded by `lazy.ts`."
    )]));
    out.line("import type * as rt from \"@baas/runtime\";");
    out
}
