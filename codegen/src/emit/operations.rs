//! One module per group: for every operation a request struct implementing
//! `baas_runtime::Operation` and a response type.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::call;
use super::docs::{self, Doc};
use super::names::{self, ident, rust_type, Direction};
use super::records::{emit_struct, StructSpec};
use super::validate;
use crate::model::TypeRef;
use crate::plan::{
    sentences, GroupPlan, OperationPlan, PagesCall, RequestPlan, ResponsePlan, SdkPlan,
};

/// Name of the request type of an operation.
pub fn request_name(op: &OperationPlan) -> String {
    format!("{}Request", op.type_name)
}

/// Name of the struct of required parameters of an operation.
pub fn required_name(op: &OperationPlan) -> String {
    format!("{}Required", op.type_name)
}

/// Name of the response struct of an operation whose answer is its own struct (an
/// answer that is a record, or raw JSON, has no type of its own: see [`response_path`]).
pub fn response_name(op: &OperationPlan) -> String {
    format!("{}Response", op.type_name)
}

/// The one path of an operation's answer type, from a module at the crate root: its own
/// struct in its group's module, the record it is, or raw JSON.
pub fn response_path(op: &OperationPlan) -> TokenStream {
    match &op.response {
        ResponsePlan::Record { received_name, .. } => {
            let rec = ident(received_name);
            quote!(super::records::#rec)
        }
        ResponsePlan::Raw { .. } => quote!(baas_runtime::RawJson),
        ResponsePlan::Fields { .. } | ResponsePlan::Empty { .. } => {
            let module = ident(&op.group);
            let resp = ident(&response_name(op));
            quote!(super::#module::#resp)
        }
    }
}

/// The answer type's name in docs, with its link (as [`response_path`]).
pub fn response_link(op: &OperationPlan) -> String {
    match &op.response {
        ResponsePlan::Record { received_name, .. } => {
            format!("[`{received_name}`](super::records::{received_name})")
        }
        ResponsePlan::Raw { .. } => "[`RawJson`](baas_runtime::RawJson)".to_owned(),
        ResponsePlan::Fields { .. } | ResponsePlan::Empty { .. } => {
            let resp = response_name(op);
            format!("[`{resp}`](super::{}::{resp})", op.group)
        }
    }
}

/// The operation and its HTTP request, as every SDK says it.
pub fn wire_path_line(op: &OperationPlan) -> String {
    sentences::operation_call(&op.wire_name, &op.path)
}

/// Emits the items of one group module.
pub fn emit_group(plan: &SdkPlan, group: &GroupPlan) -> TokenStream {
    group
        .operations
        .iter()
        .map(|op| emit_operation(plan, op))
        .collect()
}

fn emit_operation(plan: &SdkPlan, op: &OperationPlan) -> TokenStream {
    let req = ident(&request_name(op));
    let resp = response_path(op);
    let mut out = match &op.request {
        RequestPlan::Fields(fields) => {
            let mut out = emit_struct(
                plan,
                &StructSpec {
                    name: &request_name(op),
                    required_name: required_name(op),
                    attrs: docs::deprecated_attr(op.doc.deprecated.as_deref()),
                    doc: request_doc(plan, op),
                    fields,
                    direction: Direction::Sent,
                    validate_at: false,
                },
            );
            out.extend(call::call_setters(op, &req, fields));
            out
        }
        RequestPlan::Free { .. } => raw_request(plan, op),
    };
    out.extend(response_type(plan, op));
    if let Some(pages) = &op.calls.pages {
        out.extend(paged_impl(pages, &req, &resp));
    }
    let validate_body = match &op.request {
        RequestPlan::Fields(fields) => validate::request_validate_body(fields, &op.constraints),
        RequestPlan::Free { .. } => quote!(Ok(())),
    };
    out.extend(operation_impl(op, &req, &resp, &validate_body));
    if let Some(states) = &op.calls.until_final {
        out.extend(call::final_state_impl(plan, &req, states));
    }
    out
}

/// The doc of a request struct: the operation, its wire path, call notes, constraints,
/// provenance, deprecation and decisions (the operation's and its constraints').
fn request_doc(plan: &SdkPlan, op: &OperationPlan) -> Doc {
    let mut doc = Doc::new();
    doc.text(&op.text);
    doc.raw(&sentences::request(&op.wire_name));
    doc.raw(&wire_path_line(op));
    add_call_notes(&mut doc, op);
    let constraints: Vec<String> = op.constraints.iter().map(docs::constraint_item).collect();
    doc.list("Constraints across fields:", &constraints);
    docs::add_evidence(&mut doc, op.evidence.as_deref());
    docs::add_deprecation(&mut doc, op.doc.deprecated.as_deref());
    let mut decision_ids = op.decisions.clone();
    for c in &op.constraints {
        for id in &c.decisions {
            if !decision_ids.contains(id) {
                decision_ids.push(id.clone());
            }
        }
    }
    docs::add_decisions(&mut doc, plan, &decision_ids);
    doc
}

/// What the plan says every SDK tells of the call beside its request: that it moves money
/// (its error named by its rustdoc path) and that it needs an OTP.
pub fn add_call_notes(doc: &mut Doc, op: &OperationPlan) {
    if op.moves_money {
        doc.raw(&sentences::MOVES_MONEY.replace(
            "`OutcomeUnknown`",
            "[`ErrorKind::OutcomeUnknown`](baas_runtime::ErrorKind::OutcomeUnknown)",
        ));
    }
    if let Some(needs) = &op.needs_otp {
        doc.raw(needs);
    }
}

/// The request of an operation whose parameters the spec does not show: a JSON object
/// sent verbatim.
fn raw_request(plan: &SdkPlan, op: &OperationPlan) -> TokenStream {
    let req = ident(&request_name(op));
    let deprecated = docs::deprecated_attr(op.doc.deprecated.as_deref());
    let mut doc = Doc::new();
    doc.text(&op.text);
    doc.raw(&sentences::request(&op.wire_name));
    doc.raw(&wire_path_line(op));
    add_call_notes(&mut doc, op);
    if let RequestPlan::Free { note } = &op.request {
        doc.raw(note);
    }
    docs::add_evidence(&mut doc, op.evidence.as_deref());
    docs::add_decisions(&mut doc, plan, &op.decisions);
    docs::add_deprecation(&mut doc, op.doc.deprecated.as_deref());
    let doc = doc.outer();
    quote! {
        #doc
        #deprecated
        #[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
        #[cfg_attr(feature = "server", derive(serde::Deserialize))]
        #[serde(transparent)]
        #[non_exhaustive]
        pub struct #req {
            /// The parameters object, sent verbatim.
            pub params: baas_runtime::RawJson,
        }

        impl #req {
            /// A request sending `params` (a JSON object) verbatim.
            #[must_use]
            pub fn new(params: baas_runtime::RawJson) -> Self {
                Self { params }
            }
        }

        impl From<baas_runtime::RawJson> for #req {
            fn from(params: baas_runtime::RawJson) -> #req {
                #req::new(params)
            }
        }
    }
}

/// The response type, when the answer has one of its own: a struct of received fields or
/// an empty struct. An answer that is a record, or raw JSON, is that type (one path per
/// item: no alias).
fn response_type(plan: &SdkPlan, op: &OperationPlan) -> TokenStream {
    let resp = ident(&response_name(op));
    let mut rdoc = Doc::new();
    rdoc.raw(&format!(
        "Response `data` of `{}` ({}).",
        op.wire_name, op.path
    ));
    match &op.response {
        ResponsePlan::Fields { fields, .. } if !fields.is_empty() => {
            docs::add_evidence(&mut rdoc, op.answer_evidence.as_deref());
            emit_struct(
                plan,
                &StructSpec {
                    name: &response_name(op),
                    required_name: String::new(),
                    attrs: TokenStream::new(),
                    doc: rdoc,
                    fields,
                    direction: Direction::Received,
                    validate_at: false,
                },
            )
        }
        ResponsePlan::Fields { .. } => {
            docs::add_evidence(&mut rdoc, op.answer_evidence.as_deref());
            empty_response(&resp, &rdoc)
        }
        ResponsePlan::Record { .. } | ResponsePlan::Raw { .. } => TokenStream::new(),
        ResponsePlan::Empty { .. } => {
            rdoc.raw("The service answers with code and msg only: there is no `data`.");
            rdoc.text(&op.answer_note);
            empty_response(&resp, &rdoc)
        }
    }
}

/// `baas_runtime::Operation` for the request: its name, path, whether it moves money,
/// its response type and `validate`.
fn operation_impl(
    op: &OperationPlan,
    req: &Ident,
    resp: &TokenStream,
    validate_body: &TokenStream,
) -> TokenStream {
    let name = &op.wire_name;
    let path = &op.path;
    let moves_money = op.moves_money;
    quote! {
        impl baas_runtime::Operation for #req {
            type Response = #resp;
            const NAME: &'static str = #name;
            const PATH: &'static str = #path;
            const MOVES_MONEY: bool = #moves_money;

            fn validate(&self) -> Result<(), baas_runtime::ValidationErrors> {
                #validate_body
            }
        }
    }
}

/// `baas_runtime::Paged` for a paged operation whose response lists its items.
fn paged_impl(pages: &PagesCall, req: &Ident, resp: &TokenStream) -> TokenStream {
    let names = &pages.rust;
    let item_ty = rust_type(&pages.item, Direction::Received);
    let items_id = ident(&names.items);
    let page_id = ident(&names.page);
    let size_id = ident(&names.size);
    let first = names::int_lit(pages.first_page);
    // Numbers as the parameter's type (int, long or a digit string).
    let page_read = match pages.page_ty {
        TypeRef::Int => quote!(i64::from(self.#page_id)),
        TypeRef::Long => quote!(self.#page_id),
        _ => quote!(self.#page_id.trim().parse::<i64>().unwrap_or(Self::FIRST_PAGE)),
    };
    let size_read = match names.size_ty {
        TypeRef::Int => quote!(Some(i64::from(self.#size_id))),
        TypeRef::Long => quote!(Some(self.#size_id)),
        _ => quote!(self.#size_id.trim().parse::<i64>().ok()),
    };
    let page_write = match pages.page_ty {
        TypeRef::Int => quote!(self.#page_id = i32::try_from(page).unwrap_or(i32::MAX);),
        TypeRef::Long => quote!(self.#page_id = page;),
        _ => quote!(self.#page_id = page.to_string();),
    };
    let total = match &names.total {
        Some((rust, ty)) => {
            let id = ident(rust);
            match ty {
                TypeRef::Int => quote!(response.#id.map(i64::from)),
                _ => quote!(response.#id),
            }
        }
        None => quote!(None),
    };
    quote! {
        impl baas_runtime::Paged for #req {
            type Item = #item_ty;
            const FIRST_PAGE: i64 = #first;

            fn page(&self) -> i64 {
                #page_read
            }

            fn set_page(&mut self, page: i64) {
                #page_write
            }

            fn page_size(&self) -> Option<i64> {
                #size_read
            }

            fn split(response: #resp) -> (Vec<Self::Item>, Option<i64>) {
                let total = #total;
                (response.#items_id.unwrap_or_default(), total)
            }
        }
    }
}

fn empty_response(name: &Ident, doc: &Doc) -> TokenStream {
    let doc = doc.outer();
    quote! {
        #doc
        #[derive(Debug, Clone, PartialEq, Default, serde::Deserialize)]
        #[cfg_attr(feature = "server", derive(serde::Serialize))]
        #[non_exhaustive]
        pub struct #name {}
    }
}
