//! The `Client` wrapper (one method per operation, returning its `Call`) and the dispatch table
//! (operation name → decode and validate its params).

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::{self, Doc};
use super::names::ident;
use super::operations::{request_name, required_name, response_link, wire_path_line};
use crate::plan::{GroupPlan, OperationPlan, RequestPlan, ResponsePlan, SdkPlan};

/// Emits the `Client` struct and its methods, one per operation, each returning the
/// operation's [`Call`](super::call).
pub fn emit_client(plan: &SdkPlan) -> TokenStream {
    let methods: Vec<TokenStream> = plan.operations().map(|op| call_method(plan, op)).collect();
    client_struct(plan, &methods)
}

/// What the call of `op` offers beyond `.send()`, in words (where the spec says how).
fn call_extras(plan: &SdkPlan, op: &OperationPlan) -> Vec<String> {
    let mut extras = Vec::new();
    if op.calls.pages.is_some() {
        extras.push("`.pages()` gives every page (`.items()`, every item)".to_owned());
    }
    if op.calls.pending.is_some() {
        extras.push("`.pending().await` gives the application as a handle that sends and confirms its OTP (it takes effect only once confirmed)".to_owned());
    }
    let group = plan.otp.as_ref().and_then(|f| f.group.as_ref());
    if let Some(g) = group.filter(|g| g.operation == op.wire_name) {
        extras.push(format!(
            "`.pending().await` gives the new application, which groups the ones listed, as a handle that sends and confirms its one OTP (none of them takes effect until it is confirmed; [`Client::group_pending`](super::Client::group_pending) does the same from their ids); `.send()` only returns its id (`{}`), whose OTP you then send and confirm yourself",
            g.other
        ));
    }
    if let Some(states) = &op.calls.until_final {
        let listed: Vec<String> = states.values.iter().map(|v| format!("`{v}`")).collect();
        extras.push(format!(
            "`.until_final(&policy).await` repeats it until `{}` is final ({})",
            states.field,
            listed.join(", ")
        ));
    }
    extras
}

/// Whether `op`'s request is built from required fields (its method takes them, or the
/// request), or from nothing (its method takes no argument).
fn takes_request(op: &OperationPlan) -> bool {
    match &op.request {
        RequestPlan::Fields(fields) => fields.iter().any(|f| f.required()),
        RequestPlan::Free { .. } => true,
    }
}

/// The operation's method: the `Call` of its request.
fn call_method(plan: &SdkPlan, op: &OperationPlan) -> TokenStream {
    let module = ident(&op.group);
    let req = ident(&request_name(op));
    let deprecated = docs::deprecated_attr(op.doc.deprecated.as_deref());
    let method = ident(&op.rust_name);
    let mut doc = Doc::new();
    doc.text(&op.text);
    doc.raw(&wire_path_line(op));
    let argument = match &op.request {
        RequestPlan::Fields(_) if takes_request(op) => format!(
            "Takes the required fields as a [`{0}`](super::{1}::{0}) struct literal, or a built [`{2}`](super::{1}::{2})",
            required_name(op),
            op.group,
            request_name(op)
        ),
        RequestPlan::Fields(_) => "Takes no argument (every field is optional)".to_owned(),
        RequestPlan::Free { .. } => format!(
            "Takes the parameters as a JSON object ([`RawJson`](baas_runtime::RawJson)) or a built [`{0}`](super::{1}::{0})",
            request_name(op),
            op.group
        ),
    };
    let mut returns = format!(
        "{argument}; set optional fields on the returned [`Call`](super::Call), then `.send().await` gives {}",
        response_link(op)
    );
    let extras = call_extras(plan, op);
    if !extras.is_empty() {
        returns.push_str(&format!("; {}", extras.join("; ")));
    }
    returns.push('.');
    doc.raw(&returns);
    match &op.response {
        ResponsePlan::Raw { .. } => {
            doc.raw("The spec does not show the response shape: the `data` object is returned as raw JSON.");
        }
        ResponsePlan::Empty { .. } => {
            doc.raw("The service answers with code and msg only.");
        }
        _ => {}
    }
    super::operations::add_call_notes(&mut doc, op);
    docs::add_evidence(&mut doc, op.evidence.as_deref());
    docs::add_deprecation(&mut doc, op.doc.deprecated.as_deref());
    doc.raw("# Example");
    doc.block(&super::examples::method_example(plan, op));
    let doc = doc.outer();
    if takes_request(op) {
        quote! {
            #doc
            #deprecated
            pub fn #method(
                &self,
                request: impl Into<super::#module::#req>,
            ) -> super::Call<'_, super::#module::#req> {
                super::Call::new(self, request.into())
            }
        }
    } else {
        quote! {
            #doc
            #deprecated
            pub fn #method(&self) -> super::Call<'_, super::#module::#req> {
                super::Call::new(self, super::#module::#req::new())
            }
        }
    }
}

/// The `Client` struct, its constructors and `methods`.
fn client_struct(plan: &SdkPlan, methods: &[TokenStream]) -> TokenStream {
    // The spec's retry policy, given to the runtime (which keeps no list of its own).
    let retryable = if plan.result_codes.is_empty() {
        quote!(&[])
    } else {
        let rc = ident(super::codes::RESULT_CODE);
        quote!(super::enums::#rc::RETRYABLE_CODES)
    };
    let title = docs::spec_text(&plan.title);
    let mut doc = Doc::new();
    doc.raw(&format!(
        "Typed client of the {title}: one method per operation, returning the operation's [`Call`](super::Call)."
    ));
    doc.raw("Wraps the runtime's client, which validates, signs, sends, verifies the response signature and decodes. Build it with [`Client::new`] from a `Config`, or wrap a configured runtime client (for example one with a custom transport) with [`Client::from_runtime`]. Cloning is cheap and shares the connection pool, so clone it into each task; `Debug` never shows the private key. For per-call options (a requestId of yours, a timeout) give the call `.options(CallOptions::new().request_id(..))`; `.send_with_details()` returns the success's requestId and raw `data` too.");
    let doc = doc.outer();
    quote! {
        #doc
        #[derive(Clone, Debug)]
        pub struct Client {
            inner: baas_runtime::Client,
        }

        impl Client {
            /// A client for `config`.
            ///
            /// # Errors
            ///
            /// The runtime's error when the configuration cannot be used.
            pub fn new(config: baas_runtime::Config) -> Result<Client, baas_runtime::Error> {
                Ok(Client::from_runtime(baas_runtime::Client::new(config)?))
            }

            /// A client for `config` on another transport (a test double, a proxy).
            ///
            /// # Errors
            ///
            /// The runtime's error when the configuration cannot be used.
            pub fn with_transport(
                config: baas_runtime::Config,
                transport: std::sync::Arc<dyn baas_runtime::Transport>,
            ) -> Result<Client, baas_runtime::Error> {
                Ok(Client::from_runtime(baas_runtime::Client::with_transport(config, transport)?))
            }

            /// Wraps an already built runtime client, giving it the spec's retryable result codes.
            #[must_use]
            pub fn from_runtime(inner: baas_runtime::Client) -> Client {
                Client { inner: inner.with_retryable_codes(#retryable) }
            }

            /// The runtime client underneath.
            #[must_use]
            pub fn runtime(&self) -> &baas_runtime::Client {
                &self.inner
            }

            #(#methods)*
        }
    }
}

/// Emits the dispatch module's items: the operation table, one typed request enum per
/// group (`dispatch::<group>::Request`) gathered in `dispatch::Request`, `decode` and
/// `validate_params`. A server matches on the enums, so an operation or a field that the
/// spec adds, renames or removes is a compile error in its handlers.
pub fn emit_dispatch(plan: &SdkPlan) -> TokenStream {
    let mut infos = Vec::new();
    let mut group_mods = Vec::new();
    let mut top_variants = Vec::new();
    let mut top_names = Vec::new();
    let mut arms = Vec::new();
    for group in &plan.groups {
        let module = ident(&group.name);
        let gvariant = ident(&group.words.pascal());
        for op in &group.operations {
            infos.push(operation_info(group, op));
            let req = ident(&request_name(op));
            let variant = ident(&op.type_name);
            let name = &op.wire_name;
            arms.push(quote! {
                #name => decode_as::<super::#module::#req>(params_json)
                    .map(|r| Request::#gvariant(#module::Request::#variant(r))),
            });
        }
        group_mods.push(group_request_module(group));
        let tdoc = format!(" A request of the `{}` group.", group.name);
        top_variants.push(quote! {
            #[doc = #tdoc]
            #gvariant(#module::Request),
        });
        top_names.push(quote!(Request::#gvariant(r) => r.operation(),));
    }
    let table = operation_table(&infos);
    let request = request_enum(&top_variants, &top_names);
    let decode = decode_items(&arms);
    let params_check = params_check_items();
    quote! {
        #table
        #(#group_mods)*
        #request
        #decode
        #params_check
    }
}

/// One operation's entry of `OPERATIONS`.
fn operation_info(group: &GroupPlan, op: &OperationPlan) -> TokenStream {
    let gname = &group.name;
    let (name, path, moves, otp) = (&op.wire_name, &op.path, op.moves_money, op.otp);
    quote! {
        OperationInfo { name: #name, path: #path, group: #gname, moves_money: #moves, otp: #otp }
    }
}

/// `OperationInfo` and `OPERATIONS`, the table of every operation.
fn operation_table(infos: &[TokenStream]) -> TokenStream {
    quote! {
        /// Static facts about one operation.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[non_exhaustive]
        pub struct OperationInfo {
            /// Spec operation name (`applyForTransfer`).
            pub name: &'static str,
            /// Wire path.
            pub path: &'static str,
            /// Group (module) name.
            pub group: &'static str,
            /// Whether the call may move money.
            pub moves_money: bool,
            /// Whether the application must be confirmed with an OTP.
            pub otp: bool,
        }

        /// Every operation, in spec order.
        pub const OPERATIONS: &[OperationInfo] = &[#(#infos),*];
    }
}

/// `dispatch::<group>`: the group's `Request` enum, one variant per operation.
fn group_request_module(group: &GroupPlan) -> TokenStream {
    let module = ident(&group.name);
    let mut variants = Vec::new();
    let mut name_arms = Vec::new();
    for op in &group.operations {
        let req = ident(&request_name(op));
        let variant = ident(&op.type_name);
        let (name, path) = (&op.wire_name, &op.path);
        let vdoc = format!(" `{name}` (`POST {path}`).");
        variants.push(quote! {
            #[doc = #vdoc]
            #variant(super::super::#module::#req),
        });
        name_arms.push(quote!(Request::#variant(_) => #name,));
    }
    let gdoc = format!(" Decoded requests of the `{}` group.", group.name);
    let rdoc = format!(
        " A decoded, validated request of one operation of the `{}` group.",
        group.name
    );
    let name_body = if name_arms.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#name_arms)* })
    };
    let op_doc = format!(
        " The spec name of the `{}` operation this request is of.",
        group.name
    );
    quote! {
        #[doc = #gdoc]
        pub mod #module {
            #[doc = #rdoc]
            #[derive(Debug, Clone, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum Request {
                #(#variants)*
            }

            impl Request {
                #[doc = #op_doc]
                #[must_use]
                pub fn operation(&self) -> &'static str {
                    #name_body
                }
            }
        }
    }
}

/// `dispatch::Request`: a request of any operation, by group.
fn request_enum(top_variants: &[TokenStream], top_names: &[TokenStream]) -> TokenStream {
    let top_name_body = if top_names.is_empty() {
        quote!(match *self {})
    } else {
        quote!(match self { #(#top_names)* })
    };
    quote! {
        /// A decoded, validated request of any operation, by group. Not `non_exhaustive`:
        /// a server's `match` stops compiling when the spec adds an operation.
        #[derive(Debug, Clone, PartialEq)]
        pub enum Request {
            #(#top_variants)*
        }

        impl Request {
            /// The spec name of the operation this request is of, whatever its group.
            #[must_use]
            pub fn operation(&self) -> &'static str {
                #top_name_body
            }
        }
    }
}

/// `DecodeError` and `decode` (with its helper `decode_as` when there are operations),
/// given `decode`'s match arm per operation.
fn decode_items(arms: &[TokenStream]) -> TokenStream {
    let decode_body = if arms.is_empty() {
        quote! {
            let _ = params_json;
            Err(DecodeError::UnknownOperation(operation.to_owned()))
        }
    } else {
        quote! {
            match operation {
                #(#arms)*
                other => Err(DecodeError::UnknownOperation(other.to_owned())),
            }
        }
    };
    let decode_as = if arms.is_empty() {
        quote!()
    } else {
        quote! {
            fn decode_as<O>(params_json: &str) -> Result<O, DecodeError>
            where
                O: baas_runtime::Operation + serde::de::DeserializeOwned,
            {
                let request = baas_runtime::serde_json::from_str::<O>(params_json)
                    .map_err(|error| DecodeError::Malformed(error.to_string()))?;
                request.validate().map_err(DecodeError::Invalid)?;
                Ok(request)
            }
        }
    };
    quote! {
        /// Why params could not be decoded as an operation's request.
        #[derive(Debug)]
        #[non_exhaustive]
        pub enum DecodeError {
            /// The params decode but violate rules: every violation with its field path.
            Invalid(baas_runtime::ValidationErrors),
            /// The params do not decode as the operation's request (wrong type, missing
            /// required field, unknown field, not JSON): the decoder's message.
            Malformed(String),
            /// No operation has this name.
            UnknownOperation(String),
        }

        impl std::fmt::Display for DecodeError {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    DecodeError::Invalid(errors) => write!(f, "invalid: {errors}"),
                    DecodeError::Malformed(message) => write!(f, "malformed params: {message}"),
                    DecodeError::UnknownOperation(name) => write!(f, "unknown operation `{name}`"),
                }
            }
        }

        impl std::error::Error for DecodeError {}

        /// Decodes `params_json` as the request of `operation` (spec name) and validates it.
        ///
        /// # Errors
        ///
        /// [`DecodeError`] saying why the params are not a valid request of the operation.
        pub fn decode(operation: &str, params_json: &str) -> Result<Request, DecodeError> {
            #decode_body
        }

        #decode_as
    }
}

/// `ParamsCheck` and `validate_params`: `decode`'s verdict without the request.
fn params_check_items() -> TokenStream {
    quote! {
        /// The outcome of [`validate_params`].
        #[non_exhaustive]
        pub enum ParamsCheck {
            /// The params decode and pass every client-side rule.
            Valid,
            /// The params decode but violate rules: every violation with its field path.
            Invalid(baas_runtime::ValidationErrors),
            /// The params do not decode as the operation's request (wrong type, missing
            /// required field, unknown field, not JSON): the decoder's message.
            Malformed(String),
            /// No operation has this name.
            UnknownOperation,
        }

        impl std::fmt::Display for ParamsCheck {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self {
                    ParamsCheck::Valid => f.write_str("valid"),
                    ParamsCheck::Invalid(errors) => write!(f, "invalid: {errors}"),
                    ParamsCheck::Malformed(message) => write!(f, "malformed params: {message}"),
                    ParamsCheck::UnknownOperation => f.write_str("unknown operation"),
                }
            }
        }

        /// Decodes `params_json` as the request of `operation` (spec name) and validates
        /// it, keeping only the verdict (see [`decode`] for the request itself).
        #[must_use]
        pub fn validate_params(operation: &str, params_json: &str) -> ParamsCheck {
            match decode(operation, params_json) {
                Ok(_) => ParamsCheck::Valid,
                Err(DecodeError::Invalid(errors)) => ParamsCheck::Invalid(errors),
                Err(DecodeError::Malformed(message)) => ParamsCheck::Malformed(message),
                Err(DecodeError::UnknownOperation(_)) => ParamsCheck::UnknownOperation,
            }
        }
    }
}
