//! Every sentence partners read in the generated SDKs, written once. Sentences are plain
//! text with Markdown code spans (`` `txId` ``); each renderer places them in its doc
//! syntax (and turns code spans into its own, as Javadoc's `{@code}`). Spec text reaches
//! them through [`crate::text::partner_text`].

use crate::model::{Condition, Constraint, ConstraintKind, Field, ParamRef, Source};
use crate::text::partner_text;

/// Where a fact comes from, when that is not the bank's API document.
pub fn evidence(source: Source) -> Option<String> {
    source.partner_words().map(str::to_owned)
}

/// A condition in words, for docs and for the messages of violations:
/// `beneficiaryType is 1`.
pub fn condition(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => format!("{} is {value}", field.wire_name),
        Condition::SumGreaterThan { array, item, value } => format!(
            "the sum of {}[].{} is greater than {value}",
            array.wire_name, item.wire_name
        ),
    }
}

fn code_list(fields: &[ParamRef]) -> String {
    fields
        .iter()
        .map(|f| format!("`{}`", f.wire_name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Spec text as a sentence of its own: its first letter capitalised, a full stop at the
/// end (`""` for empty text).
pub fn as_sentence(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out: String = first.to_uppercase().chain(chars).collect();
    crate::model::end_sentence(&mut out);
    out
}

/// A condition with its names and values as code spans, for docs:
/// `` `beneficiaryType` is `1` ``.
fn condition_in_code(condition: &Condition) -> String {
    match condition {
        Condition::Equals { field, value } => format!("`{}` is `{value}`", field.wire_name),
        Condition::SumGreaterThan { array, item, value } => format!(
            "the sum of `{}[].{}` is greater than {value}",
            array.wire_name, item.wire_name
        ),
    }
}

/// A constraint of an operation in words, with its spec text and where it comes from.
pub fn constraint(c: &Constraint) -> String {
    constraint_with(&c.kind, &c.doc, c.source, &partner_text)
}

/// [`constraint`], with the spec's own text (the constraint's doc, a rule only the service
/// checks) passed through `spec_text`: a renderer whose doc syntax gives some characters
/// a meaning (rustdoc's Markdown) escapes them there.
pub fn constraint_with(
    kind: &ConstraintKind,
    doc: &str,
    source: Source,
    spec_text: &dyn Fn(&str) -> String,
) -> String {
    let mut text = match kind {
        ConstraintKind::RequiredIf { field, when } => format!(
            "`{}` is required when {}.",
            field.wire_name,
            condition_in_code(when)
        ),
        ConstraintKind::AtLeastOneOf { fields } => {
            format!("At least one of {} is required.", code_list(fields))
        }
        ConstraintKind::ExactlyOneOf { fields } => {
            format!("Exactly one of {} is required.", code_list(fields))
        }
        ConstraintKind::ServerSide { fields, text } => {
            let names: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
            let mut rule = spec_text(text);
            crate::model::end_sentence(&mut rule);
            format!("{}: checked by the service only: {rule}", names.join(", "))
        }
    };
    let doc = as_sentence(&spec_text(doc));
    if !doc.is_empty() {
        text.push(' ');
        text.push_str(&doc);
    }
    if let Some(words) = evidence(source) {
        text.push(' ');
        text.push_str(&words);
    }
    text
}

/// A sent field's rules in words (`Rules: at most 35 characters; required.`), or `None`.
pub fn rules(field: &Field) -> Option<String> {
    let words: Vec<String> = field.rules.iter().map(|r| r.kind.words()).collect();
    (!words.is_empty()).then(|| format!("Rules: {}.", words.join("; ")))
}

/// The wire name of a field, for languages whose names differ from it.
pub fn wire_name(wire: &str) -> String {
    format!("Wire name `{wire}`.")
}

/// The operation and its HTTP request.
pub fn operation_call(name: &str, path: &str) -> String {
    format!("Operation `{name}`: `POST {path}`.")
}

/// What every call does before and after sending.
pub const CHECKED_AND_VERIFIED: &str = "The parameters are checked against the spec's rules \
    before anything is sent (an invalid request names each field and rule); the answer's \
    signature and requestId echo are verified before its `data` is read.";

/// What a call that moves money never does.
pub const MOVES_MONEY: &str = "Moves money: once its bytes may have left it is never \
    re-sent; a failure without a verified answer is an unknown outcome (`OutcomeUnknown`): \
    look the application up before sending it again.";

/// An application that takes effect only once confirmed.
pub fn needs_otp(send: &str, confirm: &str) -> String {
    format!("Takes effect only once confirmed with an OTP (`{send}`, then `{confirm}`).")
}

/// How every call fails.
pub const ERRORS: &str = "Every failure says whether the request was not sent (fix it and \
    send again), refused (the service's signed result code, typed as a result code) or has \
    an unknown outcome (the bytes may have arrived and no verified answer came back), and \
    names the operation, the requestId of its last attempt and the attempts made.";

/// A per-call requestId turns off the retries of queries (the requestId would repeat).
pub const OWN_REQUEST_ID: &str = "A requestId of your own (a call's options) turns off \
    retries, queries included: a failed attempt that may have reached the service (a timeout, \
    a dropped connection, a retryable code) would be sent again with the same requestId, which \
    the service refuses (`12002`), so the call is tried again only when the failed attempt \
    provably never left.";

/// The doc of an operation's request type.
pub fn request(name: &str) -> String {
    format!("The parameters of `{name}`.")
}

/// The request of an operation whose parameters are not shown.
pub fn free_params(note: &str) -> String {
    let mut text = format!(
        "The spec does not show the parameters: they are sent as given. {}",
        partner_text(note)
    );
    crate::model::end_sentence(&mut text);
    text.trim().to_owned()
}

/// The answer of an operation whose fields are listed (or a record).
pub fn response(name: &str) -> String {
    format!(
        "The answer of `{name}` (its `data`): every field optional, and members the service \
         adds later are ignored."
    )
}

/// The answer of an operation whose `data` is not shown.
pub fn raw_response(name: &str, note: &str) -> String {
    let mut text = format!(
        "The answer of `{name}`, as received. {}",
        partner_text(note)
    );
    crate::model::end_sentence(&mut text);
    text.trim().to_owned()
}

/// The answer of an operation that answers with a code and a message only.
pub fn empty_response(name: &str, note: &str) -> String {
    let mut text = format!(
        "The answer of `{name}`: code and message only. {}",
        partner_text(note)
    );
    crate::model::end_sentence(&mut text);
    text.trim().to_owned()
}

/// The auto-pager of a paged operation.
pub fn pages(name: &str, page: &str, size: &str) -> String {
    format!(
        "Every page of `{name}`, from the `{page}` given on, or every item across pages. It \
         stops after an empty page, a page shorter than `{size}`, or the page that reaches the \
         total; an error ends it. Each page is one call."
    )
}

/// How a paged operation pages.
pub fn paging(name: &str, page: &str, first: i64, size: &str) -> String {
    format!("How `{name}` pages: by `{page}` from {first}, `{size}` a page.")
}

/// Where an OTP application's business id comes from.
pub fn business_id_from(field: Option<&str>) -> String {
    match field {
        Some(wire) => format!("the answer's `{wire}`"),
        None => "the requestId the call was sent with".to_owned(),
    }
}

/// The call that returns an application waiting for its OTP.
pub fn pending(name: &str, field: Option<&str>) -> String {
    format!(
        "Calls `{name}` and returns the application waiting for its OTP, whose business id is \
         {}: send its OTP and confirm it from there.",
        business_id_from(field)
    )
}

/// Waiting for a status query's final state.
pub fn until_final(name: &str, field: &str, values: &[String]) -> String {
    format!(
        "Sends `{name}` until the answer's `{field}` is final ({}), waiting between queries as \
         the policy says (growing delays, a deadline), and returns that answer; fails with the \
         last state when the deadline passes first.",
        values.join(", ")
    )
}

/// Grouping applications under one OTP.
pub fn group(name: &str, ids: &str, new_id: &str) -> String {
    format!(
        "Calls `{name}` with the applications' business ids (`{ids}`) and returns the group \
         waiting for one OTP, whose business id is the answer's `{new_id}`."
    )
}

/// Sending an application's OTP.
pub fn send_otp(name: &str) -> String {
    format!("Sends the application's OTP to the customer (`{name}` with its business id).")
}

/// Confirming an application.
pub fn confirm(name: &str) -> String {
    format!(
        "Confirms the application with the OTP the customer received (`{name}` with its \
         business id). Never retried: if its outcome is unknown, look the application up \
         before confirming again."
    )
}

/// Settling a confirmation whose outcome is unknown.
pub fn settle(query: &str, field: &str, awaiting: &[String], confirm: &str) -> String {
    format!(
        "Settles a confirmation whose outcome is unknown (`{confirm}` failed with an unknown \
         outcome): sends `{query}` once with the business id and reads `{field}`. Confirmed \
         (with the state, and whether it is final) when the application no longer waits for \
         its OTP: do not confirm again. Not confirmed when `{field}` is {} (still waiting for \
         its OTP): the confirmation never arrived, so confirming again is safe, as the OTP \
         rule it carries says. Still unknown, with the error, when the lookup fails or its \
         answer carries no state. Never throws.",
        awaiting.join(" or ")
    )
}

/// A received record.
pub fn received_record(name: &str) -> String {
    format!("`{name}` as received: every field optional, and members added later are ignored.")
}

/// A value the SDK does not list.
pub const UNKNOWN_VALUE: &str = "A value this version of the SDK does not list is kept as \
    it was received, never refused.";

/// An open value set: requests take values it does not list.
pub const OPEN_VALUE_SET: &str = "The list is open: a request may carry a value this version \
    does not list (the listed ones are named here), and an answer's is kept.";

/// A result code the client retries.
pub const MAY_BE_RETRIED: &str = "May be retried.";

/// The retryable result codes.
pub const RETRYABLE_CODES: &str =
    "The result codes the spec marks retryable: the client retries these only.";

/// Whether a sent field must be given.
pub fn requirement(requirement: crate::model::Requirement) -> &'static str {
    match requirement {
        crate::model::Requirement::Required => "Required.",
        crate::model::Requirement::Optional => "Optional.",
        crate::model::Requirement::Conditional => {
            "Required under a condition: see the request's constraints."
        }
    }
}
