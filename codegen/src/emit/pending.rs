//! The OTP flow as a handle: an application waiting for its OTP, and its steps.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::Doc;
use super::names::{ident, rust_type, Direction};
use crate::model::{Api, OtpFlow, OtpStep};

fn request(step: &OtpStep) -> (TokenStream, TokenStream, proc_macro2::Ident) {
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
fn step_methods(flow: &OtpFlow) -> TokenStream {
    let (send_req, send_required, send_method) = request(&flow.send);
    let send_id = ident(&flow.send.business_id);
    let channel = ident(&flow.send.other);
    let channel_ty = rust_type(&flow.send.other_ty, Direction::Sent);
    let (confirm_req, confirm_required, confirm_method) = request(&flow.confirm);
    let confirm_id = ident(&flow.confirm.business_id);
    let code = ident(&flow.confirm.other);
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
            self.client.#send_method(&request).await.map(|_| ())
        }

        #confirm_doc
        pub async fn confirm(&self, otp: impl Into<String>) -> Result<(), baas_runtime::Error> {
            let request = #confirm_req::new(#confirm_required {
                #confirm_id: self.business_id.clone(),
                #code: otp.into(),
            });
            self.client.#confirm_method(&request).await.map(|_| ())
        }
    }
}

/// `Client::group_pending`: pending applications grouped under one, confirmed with one
/// OTP.
fn group_pending(g: &OtpStep) -> TokenStream {
    let (req, required, _) = request(g);
    let ids = ident(&g.business_id);
    let result = ident(&g.other);
    let resp = {
        let module = ident(&g.group);
        let r = ident(&format!("{}Response", g.type_name));
        quote!(super::#module::#r)
    };
    let doc = lines_doc(&[
        &format!("Groups pending applications under one application (`{}`), confirmed with one OTP: send and confirm the returned handle's OTP instead of each one's.", g.operation),
        "# Errors",
        "The client's [`Error`](baas_runtime::Error); a response without the new application id is [`ErrorKind::Decode`](baas_runtime::ErrorKind::Decode).",
    ]);
    let wire = g.other_wire.clone();
    quote! {
        impl super::Client {
            #doc
            pub async fn group_pending(
                &self,
                business_ids: &[&str],
            ) -> Result<PendingApplication<#resp>, baas_runtime::Error> {
                let request = #req::new(#required {
                    #ids: business_ids.iter().map(|id| (*id).to_owned()).collect(),
                });
                let success = self.runtime().execute_with(&request, &baas_runtime::CallOptions::new()).await?;
                PendingApplication::from_success::<#req>(self.clone(), success, |r| r.#result.as_deref(), #wire)
            }
        }
    }
}

/// The `pending` module's items (empty when the spec marks no OTP flow).
pub fn emit_pending(api: &Api) -> TokenStream {
    let Some(flow) = &api.otp_flow else {
        return TokenStream::new();
    };
    let steps = step_methods(flow);
    let group = flow.group.as_ref().map(group_pending);
    quote! {
        /// An application that waits for its OTP: the response of the call that made it, its business id, and the steps that finish it. Made by the client's `*_pending` methods.
        #[derive(Debug, Clone)]
        pub struct PendingApplication<R> {
            client: super::Client,
            business_id: String,
            response: R,
        }

        impl<R> PendingApplication<R> {
            /// The handle of the application a successful call made; `business_id` reads its id from the response field `field`. A response without it is an error of that call.
            pub(crate) fn from_success<O: baas_runtime::Operation<Response = R>>(
                client: super::Client,
                success: baas_runtime::Success<R>,
                business_id: impl Fn(&R) -> Option<&str>,
                field: &str,
            ) -> Result<Self, baas_runtime::Error> {
                let id = business_id(&success.data).filter(|id| !id.is_empty()).map(str::to_owned);
                match id {
                    Some(business_id) => Ok(PendingApplication { client, business_id, response: success.data }),
                    None => Err(baas_runtime::Error::decode(
                        None,
                        format!("the response carries no `{field}`, the application's business id"),
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

        #group
    }
}
