//! One file per operation (`src/<group>/<Operation>.ts`): its request and response types,
//! their shape descriptors, its `Operation` descriptor and, for a paged one, its `Paging`;
//! and one module per group (`src/<group>.ts`) re-exporting its operations.

use super::names::{self, access, string};
use super::types::{imports, lists_module, properties, referenced, shape_const, ts_type};
use super::{module, says, write_doc, Out};
use crate::plan::{
    sentences, Direction, Doc, GroupPlan, OperationPlan, RequestPlan, ResponsePlan, SdkPlan,
};

/// A group's module: its doc, and its operations re-exported from their files.
pub fn group_module(group: &GroupPlan) -> String {
    let mut out = module(&group.doc);
    let dir = names::module(&group.words);
    for op in &group.operations {
        out.line(&format!(
            "export * from \"./{dir}/{}.js\";",
            names::stem(&op.type_words)
        ));
    }
    out.finish()
}

/// One operation's file (in `src/<dir>/`); and its companion (`….lazy.ts`, its descriptors'
/// field lists) when it has a request or response descriptor.
pub fn operation_module(plan: &SdkPlan, op: &OperationPlan, dir: &str) -> (String, Option<String>) {
    let mut out = module(&Doc::of([format!(
        "The operation `{}`: its request, its answer and their descriptors.",
        op.wire_name
    )]));
    out.line("import type * as rt from \"@baas/runtime\";");
    let mut refs = Vec::new();
    for f in op.params() {
        referenced(&f.ty, Direction::Sent, &mut refs);
    }
    match &op.response {
        ResponsePlan::Fields { fields, .. } => {
            for f in fields {
                referenced(&f.ty, Direction::Received, &mut refs);
            }
        }
        ResponsePlan::Record {
            record,
            received_name,
            ..
        } => refs.extend([received_name.clone(), format!("{record}Shape")]),
        ResponsePlan::Raw { .. } | ResponsePlan::Empty { .. } => {}
    }
    if let Some(pages) = &op.calls.pages {
        referenced(&pages.item, Direction::Received, &mut refs);
    }
    imports(&mut out, refs, plan, "../");
    let request_shape = matches!(op.request, RequestPlan::Fields(_));
    let shapes = request_shape || matches!(op.response, ResponsePlan::Fields { .. });
    let stem = names::stem(&op.type_words);
    if shapes {
        out.line("import { lazy, recordShape } from \"../lazy.js\";");
        out.blank();
        out.line(&format!(
            "type Lists = typeof import(\"./{stem}.lazy.js\");"
        ));
    }
    out.blank();
    let mut lists = lists_module(&format!("the operation `{}`", op.wire_name));
    let companion = format!("{dir}/{stem}");
    operation(&mut out, &mut lists, &companion, plan, op);
    (out.finish(), shapes.then(|| lists.finish()))
}

/// The request type and its shape; the descriptor's `params`.
fn request(
    out: &mut Out,
    lists: &mut Out,
    companion: &str,
    plan: &SdkPlan,
    op: &OperationPlan,
    request: &str,
) -> String {
    match &op.request {
        RequestPlan::Fields(fields) => {
            write_doc(out, &op.request_doc);
            out.line(&format!("export interface {request} {{"));
            out.indent();
            properties(out, fields, Direction::Sent, plan);
            out.dedent();
            out.line("}");
            out.blank();
            shape_const(
                out,
                lists,
                companion,
                request,
                fields,
                &op.constraints,
                false,
                plan,
            );
            format!("{request}Shape")
        }
        RequestPlan::Free { note } => {
            let mut doc = op.request_doc.clone();
            doc.push(note.clone());
            write_doc(out, &doc);
            out.line(&format!("export type {request} = rt.JsonInputObject;"));
            "undefined".to_owned()
        }
    }
}

/// The response type (and its shape); the descriptor's `response`.
fn response(
    out: &mut Out,
    lists: &mut Out,
    companion: &str,
    plan: &SdkPlan,
    op: &OperationPlan,
    response: &str,
) -> String {
    write_doc(out, op.response.doc());
    match &op.response {
        ResponsePlan::Fields { fields, .. } => {
            out.line(&format!("export interface {response} {{"));
            out.indent();
            properties(out, fields, Direction::Received, plan);
            out.dedent();
            out.line("}");
            out.blank();
            shape_const(out, lists, companion, response, fields, &[], false, plan);
            format!("{{ k: \"record\", record: () => {response}Shape }}")
        }
        ResponsePlan::Record {
            record,
            received_name,
            ..
        } => {
            out.line(&format!("export type {response} = {received_name};"));
            format!("{{ k: \"record\", record: () => {record}Shape }}")
        }
        ResponsePlan::Raw { .. } | ResponsePlan::Empty { .. } => {
            out.line(&format!("export type {response} = rt.JsonValue;"));
            "undefined".to_owned()
        }
    }
}

fn operation(out: &mut Out, lists: &mut Out, companion: &str, plan: &SdkPlan, op: &OperationPlan) {
    let request_ty = names::request(&op.type_words);
    let response_ty = names::response(&op.type_words);
    let binding = names::method(&op.words);
    let params = request(out, lists, companion, plan, op, &request_ty);
    out.blank();
    let answer = response(out, lists, companion, plan, op, &response_ty);
    out.blank();
    says(out, &sentences::operation_call(&op.wire_name, &op.path));
    out.line(&format!(
        "export const {binding}: rt.Operation<{request_ty}, {response_ty}> = {{"
    ));
    out.indent();
    out.line(&format!("name: {},", string(&op.wire_name)));
    out.line(&format!("path: {},", string(&op.path)));
    out.line(&format!("movesMoney: {},", op.moves_money));
    out.line(&format!("params: {params},"));
    out.line(&format!("response: {answer},"));
    out.dedent();
    out.line("};");
    if let Some(pages) = &op.calls.pages {
        out.blank();
        says(out, &pages.paging_doc);
        let item = ts_type(&pages.item, Direction::Received, plan);
        out.line(&format!(
            "export const {binding}Paging: rt.Paging<{response_ty}, {item}> = {{"
        ));
        out.indent();
        out.line(&format!("page: {},", string(&pages.page)));
        out.line(&format!("size: {},", string(&pages.size)));
        out.line(&format!("firstPage: {},", pages.first_page));
        out.line(&format!("items: (r) => {},", access("r", &pages.items)));
        match &pages.total {
            Some(total) => out.line(&format!("total: (r) => {},", access("r", total))),
            None => out.line("total: () => undefined,"),
        }
        out.dedent();
        out.line("};");
    }
}
