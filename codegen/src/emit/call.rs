//! The call builder: what every client method returns. One generic `Call` (send it, or
//! page, wait for or confirm it where the spec says how), and per operation the setters
//! of its optional fields and, for a status query, where its final state is read.
//!
//! Generated code only describes: `Call` hands the request to the runtime client
//! (`execute`, `execute_with`, `pages`, `wait_for`), which does the work. `Call` lives in
//! the generated crate, not in the runtime, because each operation's setters are inherent
//! methods on it (a partner imports nothing to use them).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::docs::{self, Doc};
use super::names::{ident, rust_type, Direction};
use crate::plan::{FieldPlan, FinalCall, OperationPlan, SdkPlan};

/// The `call` module: `Call`, its generic methods and the `FinalState` trait.
pub fn emit_call_module(plan: &SdkPlan) -> TokenStream {
    let doc = call_doc(plan);
    let core = call_struct();
    let pages = pages_method();
    let pending = if plan.otp.is_some() {
        pending_method()
    } else {
        TokenStream::new()
    };
    let until_final = until_final_method();
    quote! {
        #doc
        #core
        #pages
        #pending
        #until_final
    }
}

/// `Call`'s doc: what each of its methods does (`.pending()` only where the spec has an
/// OTP flow).
fn call_doc(plan: &SdkPlan) -> TokenStream {
    let mut doc = Doc::new();
    doc.raw("One call of an operation, as the client's method for it returns it: set optional fields with its setters (named as the request's), then send it.");
    doc.raw("- `.send().await` validates the request (every violated rule is reported at once, before anything is sent), signs it, sends it, verifies the signed answer and returns its decoded `data`;");
    doc.raw("- `.send_with_details().await` returns the whole [`Success`](baas_runtime::Success) (the requestId sent, the raw `data`, the attempts made);");
    doc.raw("- `.options(..)` gives this call a requestId of yours or a timeout ([`CallOptions`](baas_runtime::CallOptions));");
    let mut extras = vec!["- `.pages()`, where the operation pages: a `Stream` of pages, or of items with `.items()`;"];
    if plan.otp.is_some() {
        extras.push("- `.pending().await`, where the operation waits for an OTP: a [`PendingApplication`](super::pending::PendingApplication) that sends and confirms it;");
    }
    extras.push("- `.until_final(&policy).await`, where the spec names a status query's final states: the query repeated until its state is final.");
    for line in extras {
        doc.raw(line);
    }
    doc.raw("Nothing is sent until one of these is called; the call borrows the client.");
    doc.outer()
}

/// `Call` itself and the methods of every call: `options`, `request`, `into_request`,
/// `send` and `send_with_details`.
fn call_struct() -> TokenStream {
    quote! {
    #[must_use = "a call does nothing until it is sent: `.send().await`"]
    #[derive(Debug, Clone)]
    pub struct Call<'c, R> {
        client: &'c super::Client,
        pub(crate) request: R,
        options: Option<baas_runtime::CallOptions>,
    }

    impl<'c, R: baas_runtime::Operation> Call<'c, R> {
        pub(crate) fn new(client: &'c super::Client, request: R) -> Self {
            Call { client, request, options: None }
        }

        /// Sends this call with `options`: a requestId of yours (stored before sending, to reconcile or cancel by it), or a time limit of its own.
        pub fn options(self, options: baas_runtime::CallOptions) -> Self {
            Call { options: Some(options), ..self }
        }

        /// The request as it will be sent.
        #[must_use]
        pub fn request(&self) -> &R {
            &self.request
        }

        /// The request, giving up the call (to send it later, or through the runtime client).
        #[must_use]
        pub fn into_request(self) -> R {
            self.request
        }

        /// Validates, signs and sends the request, verifies the signed answer and returns its decoded `data`.
        ///
        /// # Errors
        ///
        /// [`Error`](baas_runtime::Error) naming the operation: `InvalidRequest` (nothing sent), `Api` (the service's result code, typed by the result-code enum's `from_error` where the spec lists codes), `OutcomeUnknown` (a call that moves money whose bytes may have arrived: look it up before sending it again), or a transport, timeout, signature or decoding error.
        pub async fn send(self) -> Result<R::Response, baas_runtime::Error> {
            let runtime = self.client.runtime();
            match &self.options {
                None => runtime.execute(&self.request).await,
                Some(options) => runtime
                    .execute_with(&self.request, options)
                    .await
                    .map(|success| success.data),
            }
        }

        /// As [`Call::send`], returning the whole success: the decoded `data`, the requestId sent (and echoed), the raw `data` and the attempts made.
        ///
        /// # Errors
        ///
        /// As [`Call::send`].
        pub async fn send_with_details(self) -> Result<baas_runtime::Success<R::Response>, baas_runtime::Error> {
            let options = self.options.unwrap_or_default();
            self.client.runtime().execute_with(&self.request, &options).await
        }
    }

    }
}

/// `Call::pages`, for paged operations.
fn pages_method() -> TokenStream {
    quote! {
    impl<R: baas_runtime::Paged> Call<'_, R> {
        /// Every page, from the request's page number on: a `Stream` of [`Page`](baas_runtime::Page)s, or of items with `.items()`. It stops after the page that reaches the total, a short page or an empty one; an error ends it. Each page is one call with a requestId of its own, so options given to this call are not used.
        pub fn pages(self) -> baas_runtime::Pages<R> {
            self.client.runtime().pages(self.request)
        }
    }
    }
}

/// The `FinalState` trait and `Call::until_final`, for status queries with final states.
fn until_final_method() -> TokenStream {
    quote! {
    /// A status query whose answer says whether the state it reports is final, as the spec lists the final values. Implemented by the requests [`Call::until_final`] takes.
    pub trait FinalState: baas_runtime::Operation {
        /// The state of `response` as its wire text, and whether it is final (`None` when the answer carries no state).
        fn final_state(response: &Self::Response) -> Option<(String, bool)>;
    }

    impl<R: FinalState> Call<'_, R> {
        /// Sends the query until the state its answer reports is final, waiting between queries as `policy` says, and returns that answer. A retryable failure of one query is polled past.
        ///
        /// # Errors
        ///
        /// [`ErrorKind::WaitDeadline`](baas_runtime::ErrorKind::WaitDeadline) with the last state seen when the deadline passes first; otherwise as [`Call::send`].
        pub async fn until_final(self, policy: &baas_runtime::WaitPolicy) -> Result<R::Response, baas_runtime::Error> {
            self.client.runtime().wait_for(&self.request, R::final_state, policy).await
        }
    }
    }
}

/// `Call::pending`, for operations confirmed by OTP.
fn pending_method() -> TokenStream {
    quote! {
        impl<R: super::pending::OtpApplication> Call<'_, R> {
            /// Sends the call and returns the application it made as a [`PendingApplication`](super::pending::PendingApplication), which knows its business id: send its OTP and confirm it from there.
            ///
            /// # Errors
            ///
            /// As [`Call::send`]; an answer without the business id is [`ErrorKind::Decode`](baas_runtime::ErrorKind::Decode).
            pub async fn pending(self) -> Result<super::pending::PendingApplication<R::Response>, baas_runtime::Error> {
                let client = self.client;
                let success = self.send_with_details().await?;
                super::pending::PendingApplication::from_success::<R>(client.clone(), success)
            }
        }
    }
}

/// The setters of an operation's optional fields on its `Call`, each the request's
/// setter of the same name (empty when the request has no optional field).
pub fn call_setters(op: &OperationPlan, req: &Ident, fields: &[FieldPlan]) -> TokenStream {
    let setters: Vec<TokenStream> = fields
        .iter()
        .filter(|f| !f.required())
        .map(|f| {
            let id = ident(&f.rust_name);
            let base = rust_type(&f.ty, Direction::Sent);
            let doc = format!(
                " Sets `{}`: see [`{}::{}`](super::{}::{}::{}).",
                f.wire_name,
                req,
                f.rust_name.trim_start_matches("r#"),
                op.group,
                req,
                f.rust_name.trim_start_matches("r#"),
            );
            let deprecated = docs::deprecated_attr(f.deprecated());
            quote! {
                #[doc = #doc]
                #deprecated
                pub fn #id(mut self, value: impl Into<#base>) -> Self {
                    self.request = self.request.#id(value);
                    self
                }
            }
        })
        .collect();
    if setters.is_empty() {
        return TokenStream::new();
    }
    quote! {
        impl super::Call<'_, #req> {
            #(#setters)*
        }
    }
}

/// `FinalState` for a status query: its state field compared with the final values (as
/// variants of its value set, so a final state the spec renames stops compiling; as wire
/// text otherwise).
pub fn final_state_impl(plan: &SdkPlan, req: &Ident, states: &FinalCall) -> TokenStream {
    let field = ident(states.field_rust.as_deref().unwrap_or(&states.field));
    let is_final = match &states.enum_name {
        Some(e) => {
            let ty = ident(e);
            let variants: Vec<TokenStream> = plan
                .enum_plan(e)
                .into_iter()
                .flat_map(|d| d.values.iter())
                .filter(|v| states.values.contains(&v.wire))
                .map(|v| {
                    let v = ident(&v.name);
                    quote!(super::enums::#ty::#v)
                })
                .collect();
            quote!(matches!(state, #(#variants)|*))
        }
        None => {
            let values = &states.values;
            quote!([#(#values),*].contains(&state.to_string().as_str()))
        }
    };
    quote! {
        impl super::FinalState for #req {
            fn final_state(response: &Self::Response) -> Option<(String, bool)> {
                response.#field.as_ref().map(|state| (state.to_string(), #is_final))
            }
        }
    }
}
