//! The `notifications` module: a verified notification's `params` as the typed payload
//! of its type.

use proc_macro2::TokenStream;
use quote::quote;

use super::codes::NOTIFICATION_TYPE;
use super::docs::{self, Doc};
use super::names::ident;
use crate::plan::{NotificationPlan, SdkPlan};

/// One variant of `Payload`: the notification's name holding its record.
fn variant(n: &NotificationPlan, record: &str) -> TokenStream {
    let id = ident(&n.name);
    let ty = ident(record);
    let mut doc = Doc::new();
    doc.raw(&format!(
        "`{}`: {}",
        n.notification_type,
        docs::spec_text(&n.text)
    ));
    docs::add_evidence(&mut doc, n.evidence.as_deref());
    let doc = doc.outer();
    quote!(#doc #id(super::records::#ty),)
}

/// The module's items: `Payload` and its decoding (and, for servers, its encoding).
pub fn emit_notifications(plan: &SdkPlan) -> TokenStream {
    let typed: Vec<(&NotificationPlan, &str)> = plan
        .notifications
        .iter()
        .filter_map(|n| n.payload.as_deref().map(|p| (n, p)))
        .collect();
    let payload = payload_enum(&typed);
    let from_notification = from_notification_method(&typed);
    let notification_type = notification_type_method(&typed);
    let to_params = to_params_method(&typed);
    quote! {
        #payload

        impl Payload {
            #from_notification

            #notification_type

            #to_params
        }
    }
}

/// `Payload`: a variant per notification type with a shown payload, and `Other`.
fn payload_enum(typed: &[(&NotificationPlan, &str)]) -> TokenStream {
    let variants: Vec<TokenStream> = typed.iter().map(|(n, r)| variant(n, r)).collect();
    let nt = ident(NOTIFICATION_TYPE);
    quote! {
    /// The payload (`params`) of a verified notification, typed by its `notificationType`. Read it with [`Payload::from_notification`] after a [`baas_runtime::notification::Verifier`] has verified the body; a type whose payload is not shown, or that this version does not know, is [`Payload::Other`] with `params` as received.
    ///
    /// Like answers, payloads never fail to decode because the service added a member or a value: every field is an `Option`, and value sets keep unseen values in `Unknown`.
    #[derive(Debug, Clone, PartialEq)]
    #[non_exhaustive]
    pub enum Payload {
        #(#variants)*
        /// A notification whose payload is not typed here: its type and `params` as received.
        Other {
            /// The notification's type.
            notification_type: super::enums::#nt,
            /// `params` as received.
            params: baas_runtime::RawJson,
        },
    }
    }
}

/// `Payload::from_notification`: decodes `params` as the record of the notification's
/// type (`Other` for a type without one).
fn from_notification_method(typed: &[(&NotificationPlan, &str)]) -> TokenStream {
    let nt = ident(NOTIFICATION_TYPE);
    let decode_arms: Vec<TokenStream> = typed
        .iter()
        .map(|(n, _)| {
            let id = ident(&n.name);
            quote! {
                super::enums::#nt::#id => notification.params.parse().map(Payload::#id),
            }
        })
        .collect();
    quote! {
    /// The typed payload of a verified notification.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Decode`](baas_runtime::ErrorKind::Decode) when `params` has another shape than its type's record (an object where a text was expected, say); the notification is still verified, and its raw `params` are still there.
    // Compiled where it is called: decoding every payload record was a third of this
    // crate's release build, paid by partners who never receive notifications.
    #[inline]
    pub fn from_notification(
        notification: &baas_runtime::notification::Notification,
    ) -> Result<Payload, baas_runtime::Error> {
        let notification_type = super::enums::#nt::from_notification(notification);
        #[allow(clippy::match_single_binding)]
        let decoded: Result<Payload, baas_runtime::Error> = match notification_type {
            #(#decode_arms)*
            notification_type => Ok(Payload::Other {
                notification_type,
                params: notification.params.clone(),
            }),
        };
        decoded.map_err(|e| {
            baas_runtime::Error::decode(
                None,
                format!("the params of notification {} do not decode: {e}", notification.notification_type),
                notification.params.get().as_bytes(),
                None,
            )
        })
    }
    }
}

/// `Payload::notification_type`: the type of each variant.
fn notification_type_method(typed: &[(&NotificationPlan, &str)]) -> TokenStream {
    let nt = ident(NOTIFICATION_TYPE);
    let type_arms: Vec<TokenStream> = typed
        .iter()
        .map(|(n, _)| {
            let id = ident(&n.name);
            quote!(Payload::#id(_) => super::enums::#nt::#id,)
        })
        .collect();
    quote! {
    /// The notification type this payload belongs to.
    #[must_use]
    pub fn notification_type(&self) -> super::enums::#nt {
        match self {
            #(#type_arms)*
            Payload::Other { notification_type, .. } => notification_type.clone(),
        }
    }
    }
}

/// `Payload::to_params` (server feature): the payload as the JSON of `params`.
fn to_params_method(typed: &[(&NotificationPlan, &str)]) -> TokenStream {
    let params_arms: Vec<TokenStream> = typed
        .iter()
        .map(|(n, _)| {
            let id = ident(&n.name);
            quote!(Payload::#id(p) => baas_runtime::RawJson::from_serialize(p),)
        })
        .collect();
    quote! {
    /// The payload as the JSON of a notification's `params` (what a server signs and sends).
    ///
    /// # Errors
    ///
    /// When the payload does not serialize (it always does for the generated records).
    #[cfg(feature = "server")]
    pub fn to_params(&self) -> Result<baas_runtime::RawJson, baas_runtime::Error> {
        match self {
            #(#params_arms)*
            Payload::Other { params, .. } => Ok(params.clone()),
        }
    }
    }
}
