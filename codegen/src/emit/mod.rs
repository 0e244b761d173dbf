//! The Rust client's renderer: SDK plan → token streams, one per generated file (or one
//! for the whole plan, for snapshot fixtures). Like every other language's renderer it
//! reads the plan only (which calls an operation offers, shapes, checks, value sets, codes,
//! sentences) and writes Rust names and syntax. Output depends only on the plan, so it is
//! deterministic to the byte: no timestamps, no absolute paths, no hash-map order.

mod call;
mod client;
mod codes;
mod docs;
mod enums;
mod examples;
mod names;
mod notifications;
mod operations;
mod pending;
mod records;
mod validate;

use proc_macro2::TokenStream;
use quote::quote;

use crate::artifact::{Content, EmittedFile, GENERATED_HEADER};
use crate::model::TypeRef;
use crate::plan::{RequestPlan, SdkPlan};
use docs::Doc;
use names::ident;

/// Who may see a module of the generated crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Visibility {
    /// `pub mod`.
    Public,
    /// `mod`, its items re-exported at the root (the client).
    Private,
    /// `pub mod` behind the non-default `server` feature (what only a server needs).
    Server,
}

/// A module of generated code: its doc and its items.
struct Module {
    name: String,
    doc: Doc,
    visibility: Visibility,
    items: TokenStream,
}

impl Module {
    /// `pub mod name;` (or its private / feature-gated form), with `body` for an inline
    /// module.
    fn declaration(&self, body: Option<TokenStream>) -> TokenStream {
        let name = ident(&self.name);
        let (cfg, vis) = match self.visibility {
            Visibility::Public => (quote!(), quote!(pub)),
            Visibility::Private => (quote!(), quote!()),
            Visibility::Server => (quote!(#[cfg(feature = "server")]), quote!(pub)),
        };
        match body {
            None => quote!(#cfg #vis mod #name;),
            Some(body) => {
                let doc = self.doc.outer();
                quote! {
                    #doc
                    #cfg
                    #vis mod #name {
                        #body
                    }
                }
            }
        }
    }
}

/// The modules of the generated crate, in the order they are declared.
fn modules(plan: &SdkPlan) -> Vec<Module> {
    let mut out = vec![enums_module(plan)];

    let mut doc = Doc::new();
    doc.raw("Records of the API, sorted by name. A record used in requests and in responses has two shapes: `Name` (sent) and `NameReceived`.");
    out.push(Module {
        name: "records".to_owned(),
        doc,
        visibility: Visibility::Public,
        items: records::emit_records(plan),
    });

    for group in &plan.groups {
        out.push(group_module(plan, group));
    }

    let mut doc = Doc::new();
    doc.raw("The typed client: one method per operation, returning its call.");
    out.push(Module {
        name: "client".to_owned(),
        doc,
        visibility: Visibility::Private,
        items: client::emit_client(plan),
    });

    let mut doc = Doc::new();
    doc.raw(
        "The call builder every client method returns: setters, then send, page, wait or confirm.",
    );
    out.push(Module {
        name: "call".to_owned(),
        doc,
        visibility: Visibility::Private,
        items: call::emit_call_module(plan),
    });

    if plan.otp.is_some() {
        let mut doc = Doc::new();
        doc.raw("The OTP flow as a handle: [`PendingApplication`] holds an application's business id and sends and confirms its OTP, so the id of each operation is not a thing to look up.");
        out.push(Module {
            name: "pending".to_owned(),
            doc,
            visibility: Visibility::Public,
            items: pending::emit_pending(plan),
        });
    }

    if !plan.notifications.is_empty() {
        let mut doc = Doc::new();
        doc.raw("Notifications (callbacks) the service sends: after a [`baas_runtime::notification::Verifier`] has verified one, [`Payload::from_notification`] gives its `params` as the record of its type.");
        out.push(Module {
            name: "notifications".to_owned(),
            doc,
            visibility: Visibility::Public,
            items: notifications::emit_notifications(plan),
        });
    }

    let mut doc = Doc::new();
    doc.raw("Recorded decisions: where the source document is ambiguous or silent, what the spec decided and why. Items link here; each decision is written once.");
    docs::add_decisions_section(&mut doc, plan);
    out.push(Module {
        name: "decisions".to_owned(),
        doc,
        visibility: Visibility::Public,
        items: TokenStream::new(),
    });

    let mut doc = Doc::new();
    doc.raw("Operation table, and decoding plus validation of params by operation name: what a server needs (the sandbox, tests). Behind the `server` feature.");
    out.push(Module {
        name: "dispatch".to_owned(),
        doc,
        visibility: Visibility::Server,
        items: client::emit_dispatch(plan),
    });
    out
}

/// `enums`: the value sets, result codes and notification types, sorted by name, after
/// the holders of unknown values.
fn enums_module(plan: &SdkPlan) -> Module {
    let mut doc = Doc::new();
    doc.raw("Value sets of the API, sorted by name. Each keeps a value it does not know in `Unknown`, which only decoding builds.");
    let mut enum_items = enums::emit_enums(plan);
    enum_items.extend(codes::emit_codes(plan));
    enum_items.sort_by(|a, b| a.0.cmp(&b.0));
    let mut items = enums::unknown_holders(
        plan,
        !plan.result_codes.is_empty() || !plan.notifications.is_empty(),
    );
    items.extend(enum_items.into_iter().map(|(_, tokens)| tokens));
    Module {
        name: "enums".to_owned(),
        doc,
        visibility: Visibility::Public,
        items,
    }
}

/// A group's module: its operations' requests and responses, documented with the list of
/// its operations.
fn group_module(plan: &SdkPlan, group: &crate::plan::GroupPlan) -> Module {
    let mut doc = Doc::new();
    doc.text(&group.doc.plain());
    let ops: Vec<String> = group
        .operations
        .iter()
        .map(|op| format!("`{}` — `POST {}`", op.wire_name, op.path))
        .collect();
    doc.list("Operations:", &ops);
    Module {
        name: group.name.clone(),
        doc,
        visibility: Visibility::Public,
        items: operations::emit_group(plan, group),
    }
}

fn crate_doc(plan: &SdkPlan) -> Doc {
    let mut doc = Doc::new();
    doc.raw(&format!(
        "Typed async client for the {}.",
        docs::spec_text(&plan.title)
    ));
    doc.raw("Generated from a machine-readable description of the bank's API document, revision by revision: every item says what it is on the wire, and where a fact comes from when it is not that document.");
    add_first_call(&mut doc, plan);
    doc.raw("# Errors");
    doc.raw("Sending a call (`.send()`, and paging, confirming or waiting) fails with [`Error`]: [`Error::kind`] says what went wrong, and [`Error::operation`], [`Error::request_id`] and [`Error::attempts`] which call it concerns (the requestId of its last attempt, to look up, cancel or reconcile). [`ErrorKind::InvalidRequest`] means nothing was sent: each violated rule is listed with its field path. The service's result codes are typed as [`enums::ResultCode`] (`ResultCode::from_error`); the client retries only the codes the spec marks retryable. A call that moves money and fails after its bytes may have left ends in [`ErrorKind::OutcomeUnknown`], which is never retried: look the application up before sending it again. [`Error::outcome`] tells the three cases apart.");
    doc.raw("# Beyond one call");
    doc.raw("Every method returns a [`Call`]; where the spec says how, the same call pages, confirms or waits: `.pages()` on a paged operation (a `Stream` of pages, or of items with `.items()`), `.pending()` on an operation confirmed by OTP (a `PendingApplication` that sends and confirms its OTP), `.until_final(&policy)` on a status query (polling with a [`WaitPolicy`]). `.options(..)` takes [`CallOptions`] (a requestId of yours, a timeout) and `.send_with_details()` returns the [`Success`] envelope. Each call is a `tracing` span; [`mock::MockTransport`] runs the real client path in unit tests without a network.");
    doc.raw("# Requests and answers");
    doc.raw("A call takes its operation's required fields as a `<Name>Required` struct literal, optional fields by setters on the call (or on a request built with `<Name>Request::new`): every field is named, so a value cannot land in another field of the same type, and a spec change that adds, removes or renames a required field stops code written for the old version from compiling. An answer is its operation's own `<Name>Response` or, where the answer is a record, that record. The client runs `validate` before anything is sent and reports every violated rule with its field path. Every answer and record received has every field as an `Option`; fields the service adds later are ignored; string and integer fields accept either JSON spelling (`12` or `\"12\"`); a field whose JSON type no source shows is a [`Scalar`]. Value sets keep a value this version does not know in `Unknown` (sent back unchanged); `FromStr` accepts the listed wire values only.");
    doc.raw("Each item says where it comes from when it is not the bank's API document: its public documentation, the live service, one integration, or the sandbox's own choice where nothing public shows the shape (the sandbox answers through these same types).");
    docs::add_blanket_decisions(&mut doc, plan);
    doc.raw("# Money");
    doc.raw("Amounts are [`Amount`], an exact decimal that never passes through a float, sent as the text the spec gives.");
    doc.raw("# Forward compatibility");
    doc.raw("Responses never fail to decode because the service added a field or a value: unknown fields are ignored, every response field is an `Option`, and enums keep an unseen value in `Unknown`. Requests are validated before they are sent; responses are not rejected over the spec's rules.");
    let groups: Vec<String> = plan
        .groups
        .iter()
        .map(|g| {
            let text = docs::spec_text(&g.doc.plain());
            format!("[`{0}`] — {1}", g.name, text)
        })
        .collect();
    doc.list("# Operation groups", &groups);
    if !plan.decisions.is_empty() {
        doc.raw("Where the source document is ambiguous, the spec records a decision; each is written once in [`decisions`] and items link to it.");
    }
    doc
}

/// The crate name partners write (`baas-client`).
const CRATE: &str = "baas_client";

/// A `# A first call` section: a compiled (not run) example with the first operation whose
/// required fields are all plain values, and the same call without one of them, which must
/// not compile (a `compile_fail` doc test: a missing required field is a compile error).
fn add_first_call(doc: &mut Doc, plan: &SdkPlan) {
    let example = plan.operations().find_map(|op| {
        let RequestPlan::Fields(fields) = &op.request else {
            return None;
        };
        let values = fields
            .iter()
            .filter(|f| f.required())
            .map(|f| {
                let value = match &f.ty {
                    TypeRef::String => "\"...\".into()".to_owned(),
                    TypeRef::Int | TypeRef::Long => "1".to_owned(),
                    TypeRef::Bool => "true".to_owned(),
                    TypeRef::Decimal { .. } => "\"100.50\".parse()?".to_owned(),
                    TypeRef::Enum { name } => {
                        let first = plan.enum_plan(name)?.values.first()?;
                        format!("{CRATE}::enums::{name}::{}", first.name)
                    }
                    _ => return None,
                };
                Some(format!("{}: {value},", f.rust_name))
            })
            .collect::<Option<Vec<String>>>()?;
        (!values.is_empty()).then_some((op, values))
    });
    let Some((op, values)) = example else {
        return;
    };
    let path = |name: String| format!("{CRATE}::{}::{name}", op.group);
    let request = path(operations::request_name(op));
    let required = path(operations::required_name(op));
    let mut call = vec![format!(
        "let response = client.{}({required} {{",
        op.rust_name
    )];
    call.extend(values.iter().map(|v| format!("    {v}")));
    call.push("}).send().await?;".to_owned());
    doc.raw("# A first call");
    doc.raw("Required fields are given by name in a struct literal, optional ones with setters; the client validates the request, signs it, sends it and verifies the signed response before returning it.");
    let mut lines = vec![
        "# async fn first_call() -> Result<(), Box<dyn std::error::Error>> {".to_owned(),
        format!("use {CRATE}::{{Client, Config, PrivateKey}};"),
        String::new(),
        "// The key from your account manager: read it from the environment, never from code."
            .to_owned(),
        "let key = PrivateKey::from_env(\"BAAS_PRIVATE_KEY\").ok_or(\"BAAS_PRIVATE_KEY is not set\")?;"
            .to_owned(),
        "let client = Client::new(Config::new(\"https://baas.example.com\", \"your-sender\", key))?;"
            .to_owned(),
    ];
    lines.extend(call.iter().cloned());
    lines.extend([
        "# let _ = response;".to_owned(),
        "# Ok(())".to_owned(),
        "# }".to_owned(),
    ]);
    doc.code("no_run", &lines);
    doc.raw("Leaving out a required field does not compile:");
    let mut missing = vec!["# fn f() -> Result<(), Box<dyn std::error::Error>> {".to_owned()];
    missing.push(format!("let request = {request}::from({required} {{"));
    missing.extend(
        values[..values.len() - 1]
            .iter()
            .map(|v| format!("    {v}")),
    );
    missing.extend(["});".to_owned(), "# Ok(())".to_owned(), "# }".to_owned()]);
    doc.code("compile_fail,E0063", &missing);
}

/// Every file of the generated crate, in a fixed order, as tokens (or text). Cannot fail
/// on a checked model.
pub fn emit_crate(plan: &SdkPlan) -> Vec<EmittedFile> {
    let modules = modules(plan);
    let mut files = vec![EmittedFile {
        path: "Cargo.toml".to_owned(),
        content: Content::Text(cargo_toml(plan)),
    }];

    let crate_doc = crate_doc(plan).inner();
    let decls = modules.iter().map(|m| m.declaration(None));
    let versions = version_constants(plan);
    let lib = quote! {
        #crate_doc
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #![deny(missing_docs)]
        #![forbid(unsafe_code)]

        pub use baas_runtime::{
            mock, notification, transport, Amount, AmountError, CallOptions, Config, Date, DateError, Document, Error, ErrorKind, FieldPath,
            Items, NotBase64, Operation, Outcome, Page, Paged, Pages, Phase, PrivateKey, RawJson, RuleKind, Scalar, Settlement, Success,
            ValidationErrors, Validator, Violation, WaitPolicy,
        };
        pub use baas_runtime::wire_enum::ParseEnumError;
        /// The runtime's client, which [`Client`] wraps: what [`Client::runtime`] returns and [`Client::from_runtime`] takes (per-call options, any request type, waiting on your own final states).
        pub use baas_runtime::Client as RuntimeClient;
        pub use client::Client;
        pub use call::{Call, FinalState};

        #versions

        #(#decls)*
    };
    files.push(EmittedFile {
        path: "src/lib.rs".to_owned(),
        content: Content::Rust(lib),
    });

    for module in modules {
        let doc = module.doc.inner();
        let items = module.items;
        let tokens = quote! {
            #doc
            #![cfg_attr(rustfmt, rustfmt::skip)]
            #![allow(deprecated)]
            #items
        };
        files.push(EmittedFile {
            path: format!("src/{}.rs", module.name),
            content: Content::Rust(tokens),
        });
    }
    files
}

/// The whole plan as one file's tokens, every module inline (for snapshot fixtures).
/// `origin` names where the spec came from, for the header doc.
pub fn emit_single_file(plan: &SdkPlan, origin: &str) -> TokenStream {
    let mut doc = Doc::new();
    doc.raw(&format!(
        "Generated by `baas-codegen` from `{origin}` (snapshot fixture)."
    ));
    let doc = doc.inner();
    let mut items = TokenStream::new();
    for module in modules(plan) {
        let body = &module.items;
        let body = quote! {
            #![allow(deprecated)]
            #body
        };
        items.extend(module.declaration(Some(body)));
        if module.visibility == Visibility::Private {
            let name = ident(&module.name);
            items.extend(quote!(pub use #name::*;));
        }
    }
    quote! {
        #doc
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #items
    }
}

/// `VERSION` (the crate's, as in its `Cargo.toml`) and `API_VERSION`, from `api:`.
fn version_constants(plan: &SdkPlan) -> TokenStream {
    let crate_version = &plan.client_version;
    let api_version = &plan.api_version;
    let mut doc = Doc::new();
    doc.raw(&format!(
        "This crate's version (`{crate_version}`, as in its `Cargo.toml`): `api.client_version` of the spec. It follows Cargo's semver rules; `CHANGELOG.md` says what changed."
    ));
    let crate_doc = doc.outer();
    let mut doc = Doc::new();
    doc.raw("The revision of the bank's API this crate was generated from: `api.version` of the spec (empty when the spec gives none).");
    let api_doc = doc.outer();
    quote! {
        #crate_doc
        pub const VERSION: &str = #crate_version;
        #api_doc
        pub const API_VERSION: &str = #api_version;
    }
}

fn cargo_toml(plan: &SdkPlan) -> String {
    format!(
        "{}\
[package]
name = \"baas-client\"
version = \"{}\"
description = \"Typed async client for the BaaS partner API (generated; do not edit)\"
edition.workspace = true
rust-version.workspace = true
license.workspace = true
publish.workspace = true

[lib]
# Named explicitly, so the workspace still loads (and `cargo run -p baas-codegen`
# regenerates) when src/ has been deleted.
path = \"src/lib.rs\"

[features]
# What only a server needs (the sandbox, tests): the `dispatch` module, decoding of
# requests and encoding of responses. Partners' builds leave it out.
server = []
# Unit tests with baas_runtime::mock::MockTransport: the derives it needs (decoding the
# requests it records, encoding the responses it is given).
mock = [\"server\"]

[dependencies]
baas-runtime = {{ path = \"../runtime\" }}
serde.workspace = true
",
        GENERATED_HEADER.replace("//", "#"),
        plan.client_version
    )
}

#[cfg(test)]
mod tests;
