//! `enums.py`: the spec's value sets, `ResultCode` and `NotificationType`.

use super::super::names::{member, string};
use super::super::{doc, docstring, module};
use crate::plan::{sentences, EnumPlan, SdkPlan, Words};
use crate::text::Out;

/// `enums.py`: every value set, the result codes and the notification types.
pub fn enums_module(plan: &SdkPlan) -> String {
    let mut out = module(
        "The value sets of the API. A received value the client does not know is kept as \
         `baas_runtime.Unknown` (its text), never an error; a value to send is a member.",
    );
    out.line("import enum");
    out.blank();
    out.line("from baas_runtime import BaasError, Unknown");
    out.line("from baas_runtime.notification import Notification");
    for e in &plan.enums {
        enum_class(&mut out, e);
    }
    result_code_class(&mut out, plan);
    retryable_codes(&mut out, plan);
    notification_type_class(&mut out, plan);
    out.finish()
}

/// The class of one value set: a member per value, each with its docstring.
fn enum_class(out: &mut Out, e: &EnumPlan) {
    out.blank();
    out.blank();
    out.line(&format!("class {}(enum.Enum):", e.name));
    out.indent();
    doc(out, &e.doc);
    out.blank();
    let mut used: Vec<String> = Vec::new();
    for v in &e.values {
        let name = unique(member(&v.words), &mut used);
        let value = match (e.integer, v.integer) {
            (true, Some(n)) => n.to_string(),
            _ => string(&v.wire),
        };
        out.line(&format!("{name} = {value}"));
        doc(out, &v.doc);
    }
    out.dedent();
}

/// The members of `ResultCode` or `NotificationType`: `(words, value, doc)` each.
fn members<'a>(out: &mut Out, members: impl Iterator<Item = (&'a Words, &'a str, String)>) {
    let mut used = Vec::new();
    for (words, value, text) in members {
        let name = unique(member(words), &mut used);
        out.line(&format!("{name} = {}", string(value)));
        docstring(out, &text);
    }
}

/// `name`, or `name_2`, `name_3`, ... when `used` has it already.
fn unique(name: String, used: &mut Vec<String>) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while used.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    used.push(candidate.clone());
    candidate
}

/// `ResultCode`: the service's result codes, and `from_error`.
fn result_code_class(out: &mut Out, plan: &SdkPlan) {
    out.blank();
    out.blank();
    out.line("class ResultCode(enum.Enum):");
    out.indent();
    docstring(
        out,
        &format!(
            "The service's result codes (`{}` is success). Read an error's code as one with \
             `ResultCode.from_error(error)`.",
            plan.success_code
        ),
    );
    out.blank();
    let codes = plan.result_codes.iter();
    members(
        out,
        codes.map(|c| (&c.words, c.code.as_str(), c.doc.clone())),
    );
    out.blank();
    out.line("@classmethod");
    out.line("def from_error(cls, error: BaseException) -> \"ResultCode | Unknown | None\":");
    out.indent();
    docstring(out, "The result code of an `ApiError` (`Unknown` for a code this client does not list), else None.");
    out.line("code = error.api_code if isinstance(error, BaasError) else None");
    out.line("if code is None:");
    out.line("    return None");
    out.line("for member in cls:");
    out.line("    if member.value == code:");
    out.line("        return member");
    out.line("return Unknown(code)");
    out.dedent();
    out.dedent();
}

/// `RETRYABLE_CODES`: the result codes after which a call may be tried again.
fn retryable_codes(out: &mut Out, plan: &SdkPlan) {
    out.blank();
    out.blank();
    let retryable: Vec<String> = plan.retryable_codes().map(string).collect();
    out.line(&format!(
        "RETRYABLE_CODES: frozenset[str] = frozenset({{{}}})",
        retryable.join(", ")
    ));
    docstring(out, sentences::RETRYABLE_CODES);
}

/// `NotificationType`: the notifications the service sends, and `of`.
fn notification_type_class(out: &mut Out, plan: &SdkPlan) {
    out.blank();
    out.blank();
    out.line("class NotificationType(enum.Enum):");
    out.indent();
    docstring(
        out,
        "The notifications the service POSTs to the partner's callback URL.",
    );
    out.blank();
    let types = plan.notifications.iter();
    members(
        out,
        types.map(|n| (&n.words, n.notification_type.as_str(), n.doc.plain())),
    );
    out.blank();
    out.line("@classmethod");
    out.line("def of(cls, notification: Notification) -> \"NotificationType | Unknown\":");
    out.indent();
    docstring(
        out,
        "The type of a verified notification (`Unknown` for a type this client does not list).",
    );
    out.line("for member in cls:");
    out.line("    if member.value == notification.notification_type:");
    out.line("        return member");
    out.line("return Unknown(notification.notification_type)");
    out.dedent();
    out.dedent();
}
