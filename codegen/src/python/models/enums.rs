//! `enums.py`: the spec's value sets, `ResultCode` and `NotificationType`.

use super::super::names::{member, string};
use super::super::Out;
use super::docstring;
use crate::model::{Api, EnumDef, EnumWireType};

/// `enums.py`: every value set, the result codes and the notification types.
pub fn enums_module(api: &Api) -> Out {
    let mut out = Out::module(
        "The value sets of the API. A received value the client does not know is kept as \
         `baas_runtime.Unknown` (its text), never an error; a value to send is a member.",
    );
    out.line("import enum");
    out.blank();
    out.line("from baas_runtime import BaasError, Unknown");
    out.line("from baas_runtime.notification import Notification");
    for e in &api.enums {
        enum_class(&mut out, e);
    }
    result_code_class(&mut out, api);
    retryable_codes(&mut out, api);
    notification_type_class(&mut out, api);
    out
}

/// The class of one value set: a member per value, each with its docstring.
fn enum_class(out: &mut Out, e: &EnumDef) {
    out.blank();
    out.blank();
    out.line(&format!("class {}(enum.Enum):", e.name));
    out.indent();
    let mut doc = e.doc.trim().to_owned();
    if doc.is_empty() {
        doc = format!("The value set `{}`.", e.name);
    }
    docstring(out, &doc);
    out.blank();
    let mut used: Vec<String> = Vec::new();
    for v in &e.values {
        let name = unique(member(&v.name), &mut used);
        let value = match (e.wire_type, v.integer) {
            (EnumWireType::Integer, Some(n)) => n.to_string(),
            _ => string(&v.wire),
        };
        out.line(&format!("{name} = {value}"));
        let mut text = e.value_doc(v);
        if let Some(note) = &v.deprecated {
            text = format!("{text} Deprecated: {note}").trim().to_owned();
        }
        if text.is_empty() {
            text = format!("Wire value `{}`.", v.wire);
        }
        docstring(out, &text);
    }
    out.dedent();
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
fn result_code_class(out: &mut Out, api: &Api) {
    out.blank();
    out.blank();
    out.line("class ResultCode(enum.Enum):");
    out.indent();
    docstring(
        out,
        "The service's result codes (`00000` is success). Read an error's code as one with \
         `ResultCode.from_error(error)`.",
    );
    out.blank();
    let mut used = Vec::new();
    for c in &api.result_codes {
        out.line(&format!(
            "{} = {}",
            unique(member(&c.name), &mut used),
            string(&c.code)
        ));
        docstring(out, &c.partner_doc());
    }
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
fn retryable_codes(out: &mut Out, api: &Api) {
    out.blank();
    out.blank();
    let retryable: Vec<String> = api
        .result_codes
        .iter()
        .filter(|c| c.retryable)
        .map(|c| string(&c.code))
        .collect();
    out.line(&format!(
        "RETRYABLE_CODES: frozenset[str] = frozenset({{{}}})",
        retryable.join(", ")
    ));
    docstring(
        out,
        "The result codes after which the spec says a call may be tried again.",
    );
}

/// `NotificationType`: the notifications the service sends, and `of`.
fn notification_type_class(out: &mut Out, api: &Api) {
    out.blank();
    out.blank();
    out.line("class NotificationType(enum.Enum):");
    out.indent();
    docstring(
        out,
        "The notifications the service POSTs to the partner's callback URL.",
    );
    out.blank();
    let mut used = Vec::new();
    for n in &api.notifications {
        out.line(&format!(
            "{} = {}",
            unique(member(&n.name), &mut used),
            string(&n.notification_type)
        ));
        let mut text = n.doc.trim().to_owned();
        if !n.payload_note.trim().is_empty() {
            text = format!("{text} {}", n.payload_note.trim());
        }
        docstring(out, &text);
    }
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
