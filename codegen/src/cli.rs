//! The `baas` command line's table of operations (`generated/cli/commands.rs`, which
//! includes a `group_<name>.rs` per group so that no file is long), rendered
//! from the SDK plan: for each group its operations, for each operation its command name
//! (the wire name in kebab case), help (the plan's docs, evidence grades included), one
//! flag per parameter (the wire name in kebab case, its kind, whether it is required, its
//! rules in words), the calls it offers (pages, pending, until-final, settle), and one match arm
//! naming the Rust client's request type. Names and syntax only: the types the table uses
//! (`Group`, `Operation`, `Field`, `Kind`, the `Visitor` the match calls) and everything the
//! command does are hand-written in `cli/src/table.rs`, which `include!`s this file.
//!
//! Plain `//` comments only: an `include!`d file may not carry inner doc comments.

use crate::artifact::{EmittedFile, GENERATED_HEADER};
use crate::model::{DecimalWire, Requirement, TypeRef};
use crate::plan::{self, BusinessIdPlan, FieldPlan, OperationPlan, SdkPlan};
use crate::text::Out;

/// Where the table is written, below the output root.
pub const PATH: &str = "cli/commands.rs";
/// The folder of the command line's generated files (for the stale-file sweep).
pub const ROOT: &str = "cli";

/// Flags of the command itself, which no parameter's flag may take.
pub const RESERVED_FLAGS: &[&str] = &[
    "params",
    "format",
    "all",
    "wait",
    "otp",
    "otp-channel",
    "dry-run",
    "profile",
    "envelope-request-id",
    "help",
    "version",
];

/// The artifact's files.
pub fn files(plan: &SdkPlan) -> Vec<EmittedFile> {
    let mut files = vec![EmittedFile::text(PATH, render(plan))];
    for g in &plan.groups {
        files.push(EmittedFile::text(
            format!("{ROOT}/{}.rs", group_file(g)),
            render_group(plan, g),
        ));
    }
    files
}

/// The file of a group's commands (below [`ROOT`]), without `.rs`.
fn group_file(g: &plan::GroupPlan) -> String {
    format!("group_{}", g.words.snake())
}

/// The constant naming a group's commands.
fn group_const(g: &plan::GroupPlan) -> String {
    g.words.screaming()
}

/// One group's commands, a file of its own (so that no generated file is long).
fn render_group(plan: &SdkPlan, g: &plan::GroupPlan) -> String {
    let mut out = Out::headed(GENERATED_HEADER, "    ");
    out.line(&format!(
        "// The `baas {}` commands, rendered from the SDK plan; included by commands.rs.",
        g.words.kebab()
    ));
    out.blank();
    out.line(&format!("/// The `{}` group.", g.name));
    out.line(&format!("pub const {}: Group = Group {{", group_const(g)));
    out.indent();
    out.line(&format!("name: {},", lit(&g.words.kebab())));
    out.line(&format!("about: {},", lit(&g.doc.plain())));
    out.line("operations: &[");
    out.indent();
    for op in &g.operations {
        operation(&mut out, plan, op);
    }
    out.dedent();
    out.line("],");
    out.dedent();
    out.line("};");
    out.finish()
}

/// A Rust string literal of `text`.
fn lit(text: &str) -> String {
    format!("{text:?}")
}

/// The flag of a parameter: its wire name in kebab case.
pub fn flag(field: &FieldPlan) -> String {
    field.words.kebab()
}

fn kind(plan: &SdkPlan, ty: &TypeRef) -> String {
    match ty {
        TypeRef::String | TypeRef::Scalar => "Kind::Text".to_owned(),
        TypeRef::Int | TypeRef::Long => "Kind::Integer".to_owned(),
        TypeRef::Decimal {
            wire: DecimalWire::String,
        } => "Kind::Decimal".to_owned(),
        TypeRef::Decimal {
            wire: DecimalWire::Number,
        } => "Kind::DecimalNumber".to_owned(),
        TypeRef::Bool => "Kind::Bool".to_owned(),
        TypeRef::Date => "Kind::Date".to_owned(),
        TypeRef::Document => "Kind::Document".to_owned(),
        TypeRef::Enum { name } => match plan.enum_plan(name) {
            Some(e) => {
                let values: Vec<String> = e.values.iter().map(|v| lit(&v.wire)).collect();
                format!(
                    "Kind::Enum {{ name: {}, integer: {}, values: &[{}], open: {} }}",
                    lit(name),
                    e.integer,
                    values.join(", "),
                    e.open
                )
            }
            None => "Kind::Text".to_owned(),
        },
        TypeRef::Json | TypeRef::Record { .. } | TypeRef::Array { .. } => "Kind::Json".to_owned(),
    }
}

fn field(out: &mut Out, plan: &SdkPlan, f: &FieldPlan) {
    out.line("Field {");
    out.indent();
    out.line(&format!("flag: {},", lit(&flag(f))));
    out.line(&format!("wire: {},", lit(&f.wire_name)));
    out.line(&format!("kind: {},", kind(plan, &f.ty)));
    out.line(&format!(
        "required: {},",
        f.requirement == Requirement::Required
    ));
    out.line(&format!(
        "help: {},",
        lit(&f.sent_doc.plain().replace("\n\n", " "))
    ));
    out.dedent();
    out.line("},");
}

/// The call an operation's arm hands to the visitor: the most specific it offers.
fn visit_call(op: &OperationPlan) -> &'static str {
    if op.calls.pages.is_some() {
        "paged"
    } else if op.calls.pending.is_some() {
        "pending"
    } else if op.calls.until_final.is_some() {
        "until_final"
    } else {
        "send"
    }
}

fn operation(out: &mut Out, plan: &SdkPlan, op: &OperationPlan) {
    out.line("Operation {");
    out.indent();
    out.line(&format!("command: {},", lit(&op.words.kebab())));
    out.line(&format!("wire: {},", lit(&op.wire_name)));
    out.line(&format!("path: {},", lit(&op.path)));
    let about = op.doc.paragraphs.first().cloned().unwrap_or_default();
    out.line(&format!("about: {},", lit(&about)));
    out.line(&format!("long_about: {},", lit(&op.doc.plain())));
    out.line(&format!("moves_money: {},", op.moves_money));
    out.line(&format!("otp: {},", op.otp));
    let free = matches!(op.request, plan::RequestPlan::Free { .. });
    out.line(&format!("free_params: {free},"));
    out.line("fields: &[");
    out.indent();
    for f in op.params() {
        field(out, plan, f);
    }
    out.dedent();
    out.line("],");
    match &op.calls.pages {
        Some(p) => out.line(&format!(
            "pages: Some(Pages {{ page: {}, page_is_text: {}, size: {}, first_page: {}, items: {} }}),",
            lit(&p.page),
            p.page_ty == TypeRef::String,
            lit(&p.size),
            p.first_page,
            lit(&p.items)
        )),
        None => out.line("pages: None,"),
    }
    match op.calls.pending.as_ref().map(|p| &p.business_id) {
        Some(BusinessIdPlan::ResponseField(wire)) => out.line(&format!(
            "pending: Some(BusinessId::ResponseField({})),",
            lit(wire)
        )),
        Some(BusinessIdPlan::RequestId) => out.line("pending: Some(BusinessId::RequestId),"),
        None => out.line("pending: None,"),
    }
    match &op.calls.until_final {
        Some(f) => {
            let values: Vec<String> = f.values.iter().map(|v| lit(v)).collect();
            out.line(&format!(
                "until_final: Some(Final {{ field: {}, values: &[{}] }}),",
                lit(&f.field),
                values.join(", ")
            ));
        }
        None => out.line("until_final: None,"),
    }
    settle(out, plan, op);
    out.dedent();
    out.line("},");
}

/// The status query that settles the application's unknown confirmation (`--otp`).
fn settle(out: &mut Out, plan: &SdkPlan, op: &OperationPlan) {
    let Some(s) = &op.calls.settle else {
        out.line("settle: None,");
        return;
    };
    let list = |values: &mut dyn Iterator<Item = &String>| {
        let values: Vec<String> = values.map(|v| lit(v)).collect();
        format!("&[{}]", values.join(", "))
    };
    let listed = s.enum_name.as_deref().and_then(|name| plan.enum_plan(name));
    let states = list(&mut listed.iter().flat_map(|e| e.values.iter().map(|v| &v.wire)));
    out.line(&format!(
        "settle: Some(Settle {{ query: {}, param: {}, field: {}, states: {states}, awaiting_otp: {}, finals: {}, otp_rule: {} }}),",
        lit(&s.query),
        lit(&s.param),
        lit(&s.field),
        list(&mut s.awaiting_otp.iter()),
        list(&mut s.finals.iter()),
        lit(&s.otp_rule)
    ));
}

fn render(plan: &SdkPlan) -> String {
    let mut out = Out::headed(GENERATED_HEADER, "    ");
    out.line("// The `baas` command's operations, rendered from the SDK plan by baas-codegen");
    out.line("// (codegen/src/cli.rs); included by cli/src/table.rs, which defines the types.");
    out.blank();
    for g in &plan.groups {
        out.line(&format!(
            "include!({});",
            lit(&format!("{}.rs", group_file(g)))
        ));
    }
    out.blank();
    out.line("/// Every group, in spec order, each with its operations in spec order.");
    let consts: Vec<String> = plan.groups.iter().map(group_const).collect();
    out.line(&format!(
        "pub static GROUPS: &[Group] = &[{}];",
        consts.join(", ")
    ));
    out.blank();
    out.line("/// The operations in the spec (a test counts the commands against it).");
    out.line(&format!(
        "pub const OPERATION_COUNT: usize = {};",
        plan.operations().count()
    ));
    out.blank();
    out.line("/// Hands the Rust client's request type of operation `wire` to `visitor`, through");
    out.line("/// the most specific call it offers; `None` for a name no operation has.");
    out.line("pub fn visit<V: Visitor>(wire: &str, visitor: V) -> Option<V::Out> {");
    out.indent();
    out.line("Some(match wire {");
    out.indent();
    for op in plan.operations() {
        out.line(&format!(
            "{} => visitor.{}::<baas_client::{}::{}Request>(),",
            lit(&op.wire_name),
            visit_call(op),
            op.group,
            op.type_name
        ));
    }
    out.line("_ => return None,");
    out.dedent();
    out.line("})");
    out.dedent();
    out.line("}");
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_operation_has_a_command_and_no_flag_takes_a_reserved_name() {
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let checked = crate::check_spec(&spec).expect("spec/ checks");
        let plan = plan::build(&checked.api);
        let text: String = files(&plan)
            .into_iter()
            .map(|f| match f.content {
                crate::artifact::Content::Text(t) => {
                    assert!(t.lines().count() < 600, "{} is long", f.path);
                    t
                }
                crate::artifact::Content::Rust(_) => panic!("text only"),
            })
            .collect();
        for op in plan.operations() {
            assert!(
                text.contains(&format!("command: {},", lit(&op.words.kebab()))),
                "{}",
                op.wire_name
            );
            let calls = [
                op.calls.pages.is_some(),
                op.calls.pending.is_some(),
                op.calls.until_final.is_some(),
            ];
            assert!(
                calls.iter().filter(|c| **c).count() <= 1,
                "{} offers more than one call; the table hands the visitor one",
                op.wire_name
            );
            let mut flags: Vec<String> = op.params().iter().map(flag).collect();
            for f in &flags {
                assert!(
                    !RESERVED_FLAGS.contains(&f.as_str()),
                    "{}: --{f}",
                    op.wire_name
                );
            }
            let n = flags.len();
            flags.sort();
            flags.dedup();
            assert_eq!(
                flags.len(),
                n,
                "{}: two parameters share a flag",
                op.wire_name
            );
        }
        assert!(text.starts_with(GENERATED_HEADER));
        assert_eq!(
            text.matches(GENERATED_HEADER).count(),
            plan.groups.len() + 1,
            "commands.rs and a file per group, each headed"
        );
        assert!(!text.contains("//!"), "an include!d file has no inner docs");
    }
}
