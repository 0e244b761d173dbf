//! `ResultCode` and `NotificationType`: the spec's `result_codes:` and `notifications:`
//! as value sets of the `enums` module. Each is a synthetic `EnumPlan` emitted by the one
//! enum emitter (`enums.rs`), so it has `Unknown`, `as_str`, `Display`, `FromStr` and
//! serde exactly like the spec's own enums; only the helpers below are added.

use proc_macro2::TokenStream;
use quote::quote;

use super::docs::spec_text;
use super::enums::{emit_enum, Extras};
use crate::plan::{sentences, Doc, EnumPlan, SdkPlan, ValuePlan, Words};

/// Name of the generated enum of result codes.
pub(super) const RESULT_CODE: &str = "ResultCode";
/// Name of the generated enum of notification types.
pub(super) const NOTIFICATION_TYPE: &str = "NotificationType";

/// A value set the generator builds itself: it has no place in `spec/`.
fn synthetic(name: &str, values: Vec<ValuePlan>) -> EnumPlan {
    EnumPlan {
        name: name.to_owned(),
        integer: false,
        open: false,
        doc: Doc::default(),
        text: String::new(),
        evidence: None,
        decisions: Vec::new(),
        values,
    }
}

/// A value of a synthetic value set: its wire text, name, text and where it is known from.
fn value(wire: &str, name: &str, text: &str, evidence: Option<&String>) -> ValuePlan {
    ValuePlan {
        wire: wire.to_owned(),
        name: name.to_owned(),
        words: Words::of(name),
        integer: None,
        doc: Doc::default(),
        text: text.to_owned(),
        evidence: evidence.cloned(),
    }
}

/// `ResultCode` (when the spec lists result codes) and `NotificationType` (when it lists
/// notifications), each with its name for sorting among the other enums.
pub(super) fn emit_codes(plan: &SdkPlan) -> Vec<(String, TokenStream)> {
    let mut out = Vec::new();
    if !plan.result_codes.is_empty() {
        out.push((RESULT_CODE.to_owned(), result_code(plan)));
    }
    if !plan.notifications.is_empty() {
        out.push((NOTIFICATION_TYPE.to_owned(), notification_type(plan)));
    }
    out
}

fn result_code(plan: &SdkPlan) -> TokenStream {
    let values = plan
        .result_codes
        .iter()
        .map(|c| value(&c.code, &c.name, &c.text, c.evidence.as_ref()))
        .collect();
    let def = synthetic(RESULT_CODE, values);
    let retryable: Vec<&str> = plan.retryable_codes().collect();
    let extras = Extras {
        doc: vec![
            format!(
                "A result code of the API: the `code` of every response (`{}` is success). [`{RESULT_CODE}::from_error`] reads it from a failed call's [`Error`](baas_runtime::Error); [`{RESULT_CODE}::is_retryable`] says whether the spec allows a retry after it.",
                plan.success_code
            ),
        ],
        value_docs: plan
            .result_codes
            .iter()
            .map(|c| {
                if c.retryable {
                    vec![sentences::MAY_BE_RETRIED.to_owned()]
                } else {
                    Vec::new()
                }
            })
            .collect(),
    };
    let enum_tokens = emit_enum(plan, &def, &extras);

    let retry_doc = if retryable.is_empty() {
        " No result code of the spec is retryable: always `false`.".to_owned()
    } else {
        format!(
            " True for the codes the spec marks retryable ({}). A code this version does not know is not retryable.",
            retryable
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let from_error_doc = format!(
        " The result code of an [`ErrorKind::Api`](baas_runtime::ErrorKind::Api) (the service answered with a code other than `{}`), `None` for every other error (validation, transport, signature, decoding). A code this version does not know is `Unknown`.",
        plan.success_code
    );
    let after_doc = " Repeating a call that may move money can move it twice: retry those only after checking that the first attempt did not complete.";
    quote! {
        #enum_tokens

        impl ResultCode {
            /// The wire values of the codes the spec marks retryable: the policy the generated [`Client`](super::Client) gives the runtime, which keeps no list of its own.
            pub const RETRYABLE_CODES: &'static [&'static str] = &[#(#retryable),*];

            #[doc = #from_error_doc]
            pub fn from_error(error: &baas_runtime::Error) -> Option<ResultCode> {
                error.api_code().map(ResultCode::from_wire)
            }

            #[doc = #retry_doc]
            #[doc = ""]
            #[doc = #after_doc]
            pub fn is_retryable(&self) -> bool {
                ResultCode::RETRYABLE_CODES.contains(&self.as_str())
            }
        }
    }
}

fn notification_type(plan: &SdkPlan) -> TokenStream {
    let values = plan
        .notifications
        .iter()
        .map(|n| value(&n.notification_type, &n.name, &n.text, n.evidence.as_ref()))
        .collect();
    let def = synthetic(NOTIFICATION_TYPE, values);
    let mut value_docs = Vec::new();
    for n in &plan.notifications {
        let mut lines = Vec::new();
        let mut links = Vec::new();
        // The checker refused notifications naming unknown operations.
        for op in n.relates_to.iter().filter_map(|name| plan.operation(name)) {
            // `super` is the crate root in the crate and the fixture module in a
            // single-file fixture: `client` sits beside `enums` in both.
            links.push(format!(
                "[`Client::{0}`](super::client::Client::{0})",
                op.rust_name
            ));
        }
        if !links.is_empty() {
            lines.push(format!("Relates to {}.", links.join(", ")));
        }
        let note = spec_text(&n.payload_note);
        if !note.is_empty() {
            lines.push(note);
        }
        value_docs.push(lines);
    }
    let extras = Extras {
        doc: vec![
            format!("The `notificationType` of a notification (callback) the service sends: after verifying one with a [`baas_runtime::notification::Verifier`], [`{NOTIFICATION_TYPE}::from_notification`] tells which it is."),
        ],
        value_docs,
    };
    let enum_tokens = emit_enum(plan, &def, &extras);
    quote! {
        #enum_tokens

        impl NotificationType {
            /// The type of a verified notification (its `notificationType`); a type this version does not know is `Unknown`.
            pub fn from_notification(
                notification: &baas_runtime::notification::Notification,
            ) -> NotificationType {
                NotificationType::from_wire(&notification.notification_type)
            }
        }
    }
}
