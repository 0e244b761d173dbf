//! The OTP flow as a handle: an application waiting for its OTP, and its steps.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::Doc;
use super::names::{ident, rust_type, Direction};
use crate::plan::{
    sentences, BusinessIdPlan, OperationPlan, OtpPlan, OtpStepPlan, SdkPlan, SettleCall,
};

fn request(step: &OtpStepPlan) -> (TokenStream, TokenStream, proc_macro2::Ident) {
    let module = ident(&step.group);
    let req = ident(&format!("{}Request", step.type_name));
    let required = ident(&format!("{}Required", step.type_name));
    (
        quote!(super::#module::#req),
        quote!(super::#module::#required),
        ident(&step.rust_name),
    )
}

/// A doc attribute of lines written by the generator (already Markdown).
fn lines_doc(lines: &[&str]) -> TokenStream {
    let mut d = Doc::new();
    for l in lines {
        d.raw(l);
    }
    d.outer()
}

/// The handle's `send_otp` and `confirm`, the flow's two steps.
fn step_methods(flow: &OtpPlan) -> TokenStream {
    let (send_req, send_required, send_method) = request(&flow.send);
    let send_id = ident(&flow.send.rust.0);
    let channel = ident(&flow.send.rust.1);
    let channel_ty = rust_type(&flow.send.other_ty, Direction::Sent);
    let (confirm_req, confirm_required, confirm_method) = request(&flow.confirm);
    let confirm_id = ident(&flow.confirm.rust.0);
    let code = ident(&flow.confirm.rust.1);
    let errors = "The client's [`Error`](baas_runtime::Error).";
    let send_doc = lines_doc(&[
        &format!(
            "Sends the application's OTP (`{}`) by `channel`.",
            flow.send.operation
        ),
        "# Errors",
        errors,
    ]);
    let confirm_doc = lines_doc(&[
        &format!("Confirms the application with the OTP its owner received (`{}`): this is what releases the money. A confirmation whose outcome is unknown is [`ErrorKind::OutcomeUnknown`](baas_runtime::ErrorKind::OutcomeUnknown): look the application up before confirming again.", flow.confirm.operation),
        "# Errors",
        errors,
    ]);
    quote! {
        #send_doc
        pub async fn send_otp(&self, channel: #channel_ty) -> Result<(), baas_runtime::Error> {
            let request = #send_req::new(#send_required {
                #send_id: self.business_id.clone(),
                #channel: channel,
            });
            self.client.#send_method(request).send().await.map(|_| ())
        }

        #confirm_doc
        pub async fn confirm(&self, otp: impl Into<String>) -> Result<(), baas_runtime::Error> {
            let request = #confirm_req::new(#confirm_required {
                #confirm_id: self.business_id.clone(),
                #code: otp.into(),
            });
            self.client.#confirm_method(request).send().await.map(|_| ())
        }
    }
}

/// `Client::group_pending`: pending applications grouped under one, confirmed with one
/// OTP.
fn group_pending(g: &OtpStepPlan) -> TokenStream {
    let (req, required, method) = request(g);
    let ids = ident(&g.rust.0);
    let doc = lines_doc(&[
        &format!("Groups pending applications under one application (`{}`), confirmed with one OTP: send and confirm the returned handle's OTP instead of each one's.", g.operation),
        "# Errors",
        "The client's [`Error`](baas_runtime::Error); a response without the new application id is [`ErrorKind::Decode`](baas_runtime::ErrorKind::Decode).",
    ]);
    quote! {
        impl super::Client {
            #doc
            pub async fn group_pending(
                &self,
                business_ids: &[&str],
            ) -> Result<PendingApplication<<#req as baas_runtime::Operation>::Response>, baas_runtime::Error> {
                self.#method(#required {
                    #ids: business_ids.iter().map(|id| (*id).to_owned()).collect(),
                })
                .pending()
                .await
            }
        }
    }
}

/// `impl OtpApplication` for one request: where its application's business id is read.
/// `field` is the Rust name of the answer field holding the id, when one does.
fn otp_application(
    module: &str,
    type_name: &str,
    business: &BusinessIdPlan,
    field: Option<&str>,
) -> TokenStream {
    let m = ident(module);
    let req = ident(&format!("{type_name}Request"));
    let (read, what) = match business {
        BusinessIdPlan::ResponseField(wire_name) => {
            let f = ident(field.unwrap_or(wire_name));
            (
                quote!(success.data.#f.as_deref()),
                sentences::business_id_from(Some(wire_name)),
            )
        }
        BusinessIdPlan::RequestId => (
            quote!(Some(success.request_id.as_str())),
            sentences::business_id_from(None),
        ),
    };
    quote! {
        impl OtpApplication for super::#m::#req {
            const BUSINESS_ID: &'static str = #what;

            fn business_id(success: &baas_runtime::Success<Self::Response>) -> Option<&str> {
                #read
            }
        }
    }
}

/// `settle` on the handle of one operation's application: its status query sent once
/// with the business id, each state read as its [`baas_runtime::Phase`].
fn settle_method(
    plan: &SdkPlan,
    flow: &OtpPlan,
    op: &OperationPlan,
    s: &SettleCall,
) -> TokenStream {
    let m = ident(&op.group);
    let req = ident(&format!("{}Request", op.type_name));
    let qm = ident(&s.query_group);
    let query = ident(&format!("{}Request", s.query_type_name));
    let query_required = ident(&format!("{}Required", s.query_type_name));
    let param = ident(&s.param_rust);
    let field = ident(s.field_rust.as_deref().unwrap_or(&s.field));
    let rule = &s.otp_rule;
    let (state_ty, read) = match s.enum_name.as_deref().and_then(|e| plan.enum_plan(e)) {
        Some(def) => {
            let ty = ident(&def.name);
            let arm = |wires: &[String]| -> Vec<TokenStream> {
                def.values
                    .iter()
                    .filter(|v| wires.contains(&v.wire))
                    .map(|v| {
                        let v = ident(&v.name);
                        quote!(super::enums::#ty::#v)
                    })
                    .collect()
            };
            let awaiting = arm(&s.awaiting_otp);
            let finals = arm(&s.finals);
            (
                quote!(super::enums::#ty),
                quote! {
                    response.#field.as_ref().map(|state| {
                        let phase = match state {
                            #(#awaiting)|* => baas_runtime::Phase::AwaitingOtp,
                            #(#finals)|* => baas_runtime::Phase::Final,
                            super::enums::#ty::Unknown(_) => baas_runtime::Phase::Unlisted,
                            _ => baas_runtime::Phase::InProgress,
                        };
                        (state.to_owned(), phase)
                    })
                },
            )
        }
        None => {
            let awaiting = &s.awaiting_otp;
            let finals = &s.finals;
            (
                quote!(String),
                quote! {
                    response.#field.as_ref().map(|state| {
                        let state = state.to_string();
                        let phase = if [#(#awaiting),*].contains(&state.as_str()) {
                            baas_runtime::Phase::AwaitingOtp
                        } else if [#(#finals),*].contains(&state.as_str()) {
                            baas_runtime::Phase::Final
                        } else {
                            baas_runtime::Phase::InProgress
                        };
                        (state, phase)
                    })
                },
            )
        }
    };
    let doc = lines_doc(&[
        &format!(
            "Settles a confirmation whose outcome is unknown (`{}` failed with [`Outcome::Unknown`](baas_runtime::Outcome::Unknown)): sends `{}` once with the business id and reads `{}`.",
            flow.confirm.operation, s.query, s.field
        ),
        &format!(
            "[`Settlement::NotConfirmed`](baas_runtime::Settlement::NotConfirmed) when it is {} (still waiting for its OTP): the confirmation never arrived, so confirming again is safe, as its `otp_rule` says. [`Settlement::Confirmed`](baas_runtime::Settlement::Confirmed) (with the state, and whether it is final) otherwise: do not confirm again. [`Settlement::StillUnknown`](baas_runtime::Settlement::StillUnknown) with the error when the lookup fails or its answer carries no state, or one this SDK does not list.",
            s.awaiting_otp.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(" or ")
        ),
    ]);
    quote! {
        impl PendingApplication<<super::#m::#req as baas_runtime::Operation>::Response> {
            #doc
            pub async fn settle(&self) -> baas_runtime::Settlement<#state_ty> {
                let query = super::#qm::#query::new(super::#qm::#query_required {
                    #param: self.business_id.clone(),
                });
                self.client
                    .runtime()
                    .settle(
                        &query,
                        |response: &<super::#qm::#query as baas_runtime::Operation>::Response| {
                            #read
                        },
                        #rule,
                    )
                    .await
            }
        }
    }
}

/// `impl OtpApplication` for every request whose call makes an application waiting for its
/// OTP, and for the group step's.
fn otp_applications(plan: &SdkPlan, flow: &OtpPlan) -> Vec<TokenStream> {
    let mut impls: Vec<TokenStream> = plan
        .operations()
        .filter_map(|op| {
            let p = op.calls.pending.as_ref()?;
            Some(otp_application(
                &op.group,
                &op.type_name,
                &p.business_id,
                p.business_id_rust.as_deref(),
            ))
        })
        .collect();
    if let Some(g) = &flow.group {
        let business = BusinessIdPlan::ResponseField(g.other.clone());
        impls.push(otp_application(
            &g.group,
            &g.type_name,
            &business,
            Some(&g.rust.1),
        ));
    }
    impls
}

/// The `pending` module's items (empty when the spec marks no OTP flow).
pub fn emit_pending(plan: &SdkPlan) -> TokenStream {
    let Some(flow) = &plan.otp else {
        return TokenStream::new();
    };
    let steps = step_methods(flow);
    let group = flow.group.as_ref().map(group_pending);
    let settles: Vec<TokenStream> = plan
        .operations()
        .filter_map(|op| {
            let s = op.calls.settle.as_ref()?;
            Some(settle_method(plan, flow, op, s))
        })
        .collect();
    let impls = otp_applications(plan, flow);
    quote! {
        /// A request whose successful call makes an application that waits for its OTP, and where that application's business id is read. Implemented by every such request: it is what makes `.pending()` available on its call, and what [`PendingApplication::from_success`] reads from a call made through the runtime client.
        pub trait OtpApplication: baas_runtime::Operation {
            /// Where the business id is read, in words (for errors).
            const BUSINESS_ID: &'static str;

            /// The application's business id in a successful call's answer, if it carries one.
            fn business_id(success: &baas_runtime::Success<Self::Response>) -> Option<&str>;
        }

        #(#impls)*

        /// An application that waits for its OTP: the response of the call that made it, its business id, and the steps that finish it. Made by `.pending()` on the call of such an operation (`client.apply_for_transfer(..).pending().await`), or from a success of your own with [`PendingApplication::from_success`].
        #[derive(Debug, Clone)]
        pub struct PendingApplication<R> {
            client: super::Client,
            business_id: String,
            response: R,
        }

        impl<R> PendingApplication<R> {
            /// The handle of the application that a successful call of `O` made (for example one sent with `.send_with_details()`, or through the runtime client).
            ///
            /// # Errors
            ///
            /// [`ErrorKind::Decode`](baas_runtime::ErrorKind::Decode), in that call, when the answer carries no business id.
            pub fn from_success<O: OtpApplication<Response = R>>(
                client: super::Client,
                success: baas_runtime::Success<R>,
            ) -> Result<Self, baas_runtime::Error> {
                let id = O::business_id(&success).filter(|id| !id.is_empty()).map(str::to_owned);
                match id {
                    Some(business_id) => Ok(PendingApplication { client, business_id, response: success.data }),
                    None => Err(baas_runtime::Error::decode(
                        None,
                        format!("the answer carries no business id ({})", O::BUSINESS_ID),
                        success.raw_data.get().as_bytes(),
                        None,
                    )
                    .in_call(O::NAME, Some(success.request_id), success.attempts)),
                }
            }

            /// The business id that the OTP steps name (also what a status query or a cancellation takes).
            #[must_use]
            pub fn business_id(&self) -> &str {
                &self.business_id
            }

            /// The response of the call that made the application.
            #[must_use]
            pub fn response(&self) -> &R {
                &self.response
            }

            /// The response, giving up the handle.
            #[must_use]
            pub fn into_response(self) -> R {
                self.response
            }

            #steps
        }

        #(#settles)*

        #group
    }
}
