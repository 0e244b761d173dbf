//! The TypeScript SDK (`generated/typescript/`, package `@baas/client`): a renderer of the
//! SDK plan ([`crate::plan`]) on the hand-written runtime in `typescript/`
//! (`@baas/runtime`). The plan decides which calls each operation has, every wire name and
//! every sentence; this module writes them in TypeScript's names ([`names`]), syntax and
//! layout. Text only, deterministic to the byte.
//!
//! | file | what it holds |
//! |------|---------------|
//! | `package.json`, `tsconfig.json` | the package (version `api.client_version`), strict compiler settings |
//! | `src/enums.ts`, `src/enums/<Name>.ts` | value sets as `const` objects and literal unions, a file each |
//! | `src/codes.ts` | `ResultCode`, `RETRYABLE_CODES`, `resultCodeName` |
//! | `src/records.ts`, `src/records/<Name>.ts` | each record's sent and received shapes and its descriptor, in a file of its own |
//! | `src/lazy.ts` | `recordShape`: descriptors whose fields are built when first read, not at import |
//! | `src/records/<Name>.lazy.ts`, `src/<group>/<Operation>.lazy.ts` | the descriptors' field lists, as functions, each file bundled apart (`dist/…/<Name>.lazy.cjs`) and loaded on a descriptor's first read |
//! | `src/<group>.ts`, `src/<group>/<Operation>.ts` | each operation's request, response and `Operation` descriptor, in a file of its own |
//! | `src/client.ts`, `src/calls/<group>.ts` | `Client`, and its methods: a file of them per group |
//! | `src/pending.ts` | `Pending`, the OTP handle (when the spec has an OTP flow) |
//! | `src/notifications.ts` | `NotificationVerifier`, typed by notification type |
//! | `src/index.ts` | what a partner imports |
//!
//! The seam is the other languages' one: generated code describes (types for the compiler,
//! shape descriptors naming each rule's validator method as `RuleKind::check` names it), the
//! runtime does (validation, signing, transport, verification, retries, reading).

mod client;
mod names;
mod notifications;
mod operations;
mod package;
mod records;
mod types;

use crate::artifact::EmittedFile;
use crate::plan::Doc;
use crate::text::Out;

/// The folder of the TypeScript SDK below the output root.
pub const ROOT: &str = "typescript";

/// The folder of its generated sources (the staleness check walks it).
pub const SRC: &str = "typescript/src";

/// The first line of every generated TypeScript file.
pub const HEADER: &str = crate::artifact::GENERATED_HEADER;

/// The version of the hand-written runtime the package needs.
pub const RUNTIME_VERSION: &str = "0.4.1";

/// The width doc comments wrap at.
const WIDTH: usize = 96;

/// A module: the header and its doc comment.
fn module(doc: &Doc) -> Out {
    let mut out = Out::headed(HEADER, "  ");
    write_doc(&mut out, doc);
    out.blank();
    out
}

/// A plan doc as a TSDoc comment: its paragraphs, `*/` broken so that no text ends the
/// comment, and the deprecation as `@deprecated`.
fn write_doc(out: &mut Out, doc: &Doc) {
    let deprecated = doc.deprecated.iter().map(|n| format!("@deprecated {n}"));
    let paragraphs: Vec<String> = doc
        .paragraphs
        .iter()
        .cloned()
        .chain(deprecated)
        .map(|p| p.replace("*/", "*\u{2060}/"))
        .collect();
    out.block_doc(&paragraphs, WIDTH);
}

/// A doc comment of one paragraph.
fn says(out: &mut Out, text: &str) {
    write_doc(out, &Doc::of([text.to_owned()]));
}

fn file(path: &str, text: String) -> EmittedFile {
    EmittedFile::text(format!("{ROOT}/{path}"), text)
}

/// Every file of the TypeScript SDK, in a fixed order.
pub fn files(plan: &crate::plan::SdkPlan) -> Vec<EmittedFile> {
    let mut files = vec![
        file("package.json", package::package_json(plan)),
        file("tsconfig.json", package::tsconfig()),
        file("src/enums.ts", records::enums_module(plan)),
        file("src/codes.ts", records::codes_module(plan)),
        file("src/records.ts", records::records_barrel(plan)),
        file("src/lazy.ts", records::lazy_module()),
    ];
    for e in &plan.enums {
        let path = format!("src/enums/{}.ts", e.name);
        files.push(file(&path, records::enum_file(e)));
    }
    for r in &plan.records {
        let (text, lists) = records::record_file(plan, r);
        files.push(file(&format!("src/records/{}.ts", r.name), text));
        files.push(file(&format!("src/records/{}.lazy.ts", r.name), lists));
    }
    for group in &plan.groups {
        let module = names::module(&group.words);
        files.push(file(
            &format!("src/{module}.ts"),
            operations::group_module(group),
        ));
        for op in &group.operations {
            let stem = format!("{module}/{}", names::stem(&op.type_words));
            let (text, lists) = operations::operation_module(plan, op, &module);
            files.push(file(&format!("src/{stem}.ts"), text));
            if let Some(lists) = lists {
                files.push(file(&format!("src/{stem}.lazy.ts"), lists));
            }
        }
        files.push(file(
            &format!("src/calls/{module}.ts"),
            client::calls_module(group),
        ));
    }
    files.push(file("src/client.ts", client::client_module(plan)));
    if let Some(otp) = &plan.otp {
        files.push(file("src/pending.ts", client::pending_module(plan, otp)));
    }
    files.push(file(
        "src/notifications.ts",
        notifications::notifications_module(plan),
    ));
    files.push(file("src/index.ts", package::index(plan)));
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::Content;
    use std::path::Path;

    #[test]
    fn every_file_is_headed_short_and_never_typed_any() {
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let checked = crate::check_spec(&spec).expect("spec/ checks");
        let plan = crate::plan::build(&checked.api);
        let emitted = files(&plan);
        assert!(emitted.iter().any(|f| f.path == "typescript/src/client.ts"));
        for f in &emitted {
            let Content::Text(text) = &f.content else {
                panic!("{} is not text", f.path);
            };
            if f.path.ends_with(".ts") {
                assert!(text.starts_with(HEADER), "{} lacks the header", f.path);
                assert!(
                    text.lines().count() <= 600,
                    "{} is longer than 600 lines",
                    f.path
                );
                for line in text.lines() {
                    let code = line.trim_start();
                    if code.starts_with("*") || code.starts_with("//") || code.starts_with("/**") {
                        continue;
                    }
                    for any in [": any", "<any", "as any", "any[]", "any>"] {
                        assert!(!code.contains(any), "{}: `{any}` in {line}", f.path);
                    }
                }
            }
        }
        assert_eq!(files(&plan).len(), emitted.len(), "deterministic");
    }

    #[test]
    fn no_doc_text_ends_its_comment() {
        let mut out = Out::new("  ");
        let doc = Doc::of(["a */ b".to_owned()]).deprecated(Some("use c */"));
        write_doc(&mut out, &doc);
        let text = out.finish();
        assert_eq!(text.matches("*/").count(), 1, "{text}");
        assert!(text.contains("@deprecated use c"), "{text}");
    }

    /// Every validator method a rule kind of the registry can name, on any type it applies
    /// to, is a rule check the runtime's descriptors type (`RuleCheck`, `ArrayCheck`), and
    /// each value check has its case in `checks()`, whose `never` default makes a missing
    /// one fail to compile.
    #[test]
    fn the_runtime_dispatches_every_check_the_rule_registry_names() {
        use crate::rules::CheckLevel;
        let shape = Path::new(env!("CARGO_MANIFEST_DIR")).join("../typescript/src/shape.ts");
        let shape = std::fs::read_to_string(shape).expect("typescript/src/shape.ts");
        // Every validator call the registry can name (each kind's sample on each type it
        // applies to), with whether it checks a value (else an array's length).
        let methods: std::collections::BTreeSet<(&str, bool)> = crate::rules::every_check()
            .into_iter()
            .map(|(_, check)| (check.method, check.level == CheckLevel::Value))
            .collect();
        assert!(methods.len() >= 12, "{methods:?}");
        for (method, value) in methods {
            let tuple = format!("readonly [\"{method}\"");
            assert!(shape.contains(&tuple), "shape.ts types no `{method}` check");
            let case = format!("case \"{method}\":");
            assert!(
                !value || shape.contains(&case),
                "shape.ts `checks()` has no `{case}`"
            );
        }
    }

    /// The runtime refuses an empty value of a required field for exactly the descriptor
    /// kinds whose type has an empty value (`TypeRef::emptiness`, which the plan's
    /// `FieldPlan::non_empty` reads): `emptyOf()` in `shape.ts` has a case of each, and
    /// none of a type without one.
    #[test]
    fn the_runtime_refuses_empty_values_of_the_types_the_model_says() {
        use crate::model::{DecimalWire, Emptiness, TypeRef};
        let shape = Path::new(env!("CARGO_MANIFEST_DIR")).join("../typescript/src/shape.ts");
        let shape = std::fs::read_to_string(shape).expect("typescript/src/shape.ts");
        let start = shape
            .find("function emptyOf(")
            .expect("shape.ts has emptyOf()");
        let body = &shape[start..];
        let body = &body[..body.find("\n}\n").expect("emptyOf() ends")];
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let plan = crate::plan::build(&crate::check_spec(&spec).expect("spec/ checks").api);
        let scalars = [
            TypeRef::String,
            TypeRef::Int,
            TypeRef::Long,
            TypeRef::Decimal {
                wire: DecimalWire::String,
            },
            TypeRef::Bool,
            TypeRef::Date,
            TypeRef::Document,
            TypeRef::Scalar,
            TypeRef::Json,
        ];
        let mut emptiable = 0;
        for ty in &scalars {
            let descriptor = types::descriptor(ty, &plan);
            let kind = descriptor.split('"').nth(1).expect("a kind");
            let case = format!("case \"{kind}\":");
            match ty.emptiness() {
                Some(Emptiness::Text | Emptiness::Document) => {
                    assert!(body.contains(&case), "emptyOf() has no `{case}`");
                    emptiable += 1;
                }
                None => assert!(!body.contains(&case), "emptyOf() has `{case}`"),
            }
        }
        assert_eq!(body.matches("case ").count(), emptiable, "{body}");
    }

    #[test]
    fn the_package_needs_the_runtime_version_the_runtime_has() {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../typescript/package.json");
        let text = std::fs::read_to_string(&manifest).expect("typescript/package.json");
        let runtime: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(runtime["name"], "@baas/runtime");
        assert_eq!(runtime["version"], RUNTIME_VERSION);
        // `npx baas-sign --version` says the runtime's version.
        let cli = std::fs::read_to_string(manifest.with_file_name("src/cli.ts")).expect("cli.ts");
        assert!(cli.contains(&format!("export const VERSION = \"{RUNTIME_VERSION}\";")));
    }
}
