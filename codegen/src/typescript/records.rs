//! `enums.ts` and `enums/<Name>.ts`, `codes.ts`, `records.ts` and `records/<Name>.ts`: the
//! value sets, result codes and records partners write and read, with the records' shape
//! descriptors.

use super::names::string;
use super::types::{lists_module, named_values, properties, shape_const};
use super::{module, says, write_doc, Out};
use crate::model::TypeRef;
use crate::plan::{sentences, Direction, Doc, EnumPlan, RecordPlan, SdkPlan};

fn doc(text: &str) -> Doc {
    Doc::of([text.to_owned()])
}

/// `enums.ts`: every value set, re-exported from its own file.
pub fn enums_module(plan: &SdkPlan) -> String {
    let mut out = module(&doc(
        "Value sets of the API. Each is a `const` object (names to wire values) and the union \
         of its values; an answer may carry a value this version does not list, typed \
         `Unknown` (see `isKnown`).",
    ));
    for e in &plan.enums {
        out.line(&format!("export * from \"./enums/{}.js\";", e.name));
    }
    out.finish()
}

/// `enums/<Name>.ts`: a value set as a `const` object of its values and the union of them.
pub fn enum_file(e: &EnumPlan) -> String {
    let mut out = module(&doc(&format!("The value set `{}`.", e.name)));
    let values = e.values.iter().map(|v| {
        let value = v.integer.map_or_else(|| string(&v.wire), |n| n.to_string());
        (v.doc.clone(), v.name.as_str(), value)
    });
    named_values(&mut out, &e.name, &e.doc, values);
    out.finish()
}

/// `codes.ts`: the service's result codes, the retryable ones and their names.
pub fn codes_module(plan: &SdkPlan) -> String {
    let mut out = module(&doc(
        "The service's result codes: `ResultCode` (names to codes), the codes the client may \
         retry, and `resultCodeName` to name a code received.",
    ));
    out.line("import type * as rt from \"@baas/runtime\";");
    out.blank();
    let codes = plan
        .result_codes
        .iter()
        .map(|c| (doc(&c.doc), c.name.as_str(), string(&c.code)));
    let what = doc("The service's result codes (`code` of an answer), by name.");
    named_values(&mut out, "ResultCode", &what, codes);
    out.blank();
    let retryable: Vec<String> = plan.retryable_codes().map(string).collect();
    says(&mut out, sentences::RETRYABLE_CODES);
    out.line(&format!(
        "export const RETRYABLE_CODES: readonly ResultCode[] = [{}];",
        retryable.join(", ")
    ));
    out.blank();
    says(&mut out, "The name of a result code (`\"14009\"` → `\"InsufficientBalance\"`), or `undefined` for a code this version does not list.");
    out.line("export function resultCodeName(code: ResultCode | rt.Unknown<string> | string): keyof typeof ResultCode | undefined {");
    out.line("  const names = Object.keys(ResultCode) as (keyof typeof ResultCode)[];");
    out.line("  return names.find((name) => ResultCode[name] === code);");
    out.line("}");
    out.finish()
}

/// `lazy.ts`: `recordShape`, by which every record's descriptor is built when first read, and
/// `lazy`, by which its field list is loaded then.
pub fn lazy_module() -> String {
    let mut out = module(&doc(
        "Descriptors built when first used, not when the client is imported (issue 36): \
         importing `@baas/client` must cost little more than an empty Node start, and a \
         program reads the fields of the few records it sends and receives. The field lists \
         are not even in the code a program loads at import: each file's are in its companion \
         (`records/Account.lazy.ts`), which the package's build bundles as a CommonJS file of \
         its own (`dist/records/Account.lazy.cjs`, typescript/bundle.mjs), required when a \
         program first reads one of its descriptors.",
    ));
    out.line("import { createRequire } from \"node:module\";");
    out.line("import type * as rt from \"@baas/runtime\";");
    out.blank();
    out.line("let load: ReturnType<typeof createRequire> | undefined;");
    out.blank();
    says(
        &mut out,
        "The companion `path` (below `src/`, `records/Account` for `records/Account.lazy.ts`), \
         loaded on first use: `dist/<path>.lazy.cjs`, one copy for every caller. Call it with a \
         literal path: the package's bundle (`dist/index.cjs`) has each call written as \
         `require(\"./<path>.lazy.cjs\")`, which a partner's bundler follows \
         (typescript/bundle.mjs checks that every companion is reached so).",
    );
    out.line("export function lazy<T>(path: string): T {");
    out.line("  load ??= createRequire(import.meta.url);");
    out.line("  return load(`./${path}.lazy.cjs`) as T;");
    out.line("}");
    out.blank();
    says(
        &mut out,
        "A record's descriptor whose `fields` (and `constraints`) are built on their first read \
         and kept: the same arrays every time after.",
    );
    out.line("export function recordShape(");
    out.line("  name: string,");
    out.line("  fields: () => readonly rt.FieldShape[],");
    out.line("  constraints?: () => readonly rt.Constraint[],");
    out.line("): rt.RecordShape {");
    out.line("  let built: readonly rt.FieldShape[] | undefined;");
    out.line("  const shape = {");
    out.line("    name,");
    out.line("    get fields(): readonly rt.FieldShape[] {");
    out.line("      built ??= fields();");
    out.line("      return built;");
    out.line("    },");
    out.line("  };");
    out.line("  if (constraints === undefined) return shape;");
    out.line("  let checked: readonly rt.Constraint[] | undefined;");
    out.line("  return Object.defineProperty(shape, \"constraints\", {");
    out.line("    enumerable: true,");
    out.line("    get: (): readonly rt.Constraint[] => {");
    out.line("      checked ??= constraints();");
    out.line("      return checked;");
    out.line("    },");
    out.line("  });");
    out.line("}");
    out.finish()
}

/// `records.ts`: every record, re-exported from its own file.
pub fn records_barrel(plan: &SdkPlan) -> String {
    let mut out = module(&doc(
        "Records of the API. A record sent in requests has its required fields required; one \
         read from answers (`…Received` when it is used both ways) has every field optional. \
         Each record's `…Shape` is its descriptor, by which the runtime validates and writes \
         requests and reads answers.",
    ));
    for r in &plan.records {
        out.line(&format!("export * from \"./records/{}.js\";", r.name));
    }
    out.finish()
}

/// The directions a record has a shape in.
fn directions(r: &RecordPlan) -> impl Iterator<Item = Direction> {
    [(r.sent, Direction::Sent), (r.received, Direction::Received)]
        .into_iter()
        .filter_map(|(has, dir)| has.then_some(dir))
}

/// Imports of the value sets and other records a record's fields name.
fn record_imports(out: &mut Out, r: &RecordPlan) {
    let mut enums: Vec<&str> = Vec::new();
    let mut records: Vec<(&str, Vec<String>)> = Vec::new();
    for f in &r.fields {
        let mut ty = &f.ty;
        while let TypeRef::Array { item } = ty {
            ty = item;
        }
        match ty {
            TypeRef::Enum { name } => enums.push(name),
            TypeRef::Record {
                name,
                received_name,
            } if *name != r.name => {
                let mut names = vec![format!("{name}Shape")];
                names.extend(directions(r).map(|dir| match dir {
                    Direction::Sent => format!("type {name}"),
                    Direction::Received => format!("type {received_name}"),
                }));
                records.push((name, names));
            }
            _ => {}
        }
    }
    enums.sort_unstable();
    enums.dedup();
    if !enums.is_empty() {
        out.line(&format!(
            "import {{ {} }} from \"../enums.js\";",
            enums.join(", ")
        ));
    }
    records.sort();
    records.dedup_by(|b, a| {
        let same = a.0 == b.0;
        if same {
            a.1.append(&mut b.1);
        }
        same
    });
    for (name, mut names) in records {
        names.sort();
        names.dedup();
        out.line(&format!(
            "import {{ {} }} from \"./{name}.js\";",
            names.join(", ")
        ));
    }
}

/// `records/<Name>.ts`: one record's shapes and descriptor; and its companion
/// `records/<Name>.lazy.ts`, the descriptor's field list.
pub fn record_file(plan: &SdkPlan, r: &RecordPlan) -> (String, String) {
    let mut out = module(&doc(&format!("The record `{}`.", r.name)));
    out.line("import type * as rt from \"@baas/runtime\";");
    out.line("import { lazy, recordShape } from \"../lazy.js\";");
    record_imports(&mut out, r);
    out.blank();
    out.line(&format!(
        "type Lists = typeof import(\"./{}.lazy.js\");",
        r.name
    ));
    out.blank();
    for dir in directions(r) {
        write_doc(&mut out, &r.doc_in(dir));
        out.line(&format!("export interface {} {{", r.name_in(dir)));
        out.indent();
        properties(&mut out, &r.fields, dir, plan);
        out.dedent();
        out.line("}");
        out.blank();
    }
    let mut lists = lists_module(&format!("the record `{}`", r.name));
    let companion = format!("records/{}", r.name);
    shape_const(
        &mut out,
        &mut lists,
        &companion,
        &r.name,
        &r.fields,
        &[],
        true,
        plan,
    );
    (out.finish(), lists.finish())
}
