//! `notifications.py`: a verified notification's `params` as the record of its type.

use super::super::names::string;
use super::super::{docstring, module};
use super::slotted::{slots_and_init, Slot, SET};
use crate::plan::SdkPlan;
use crate::text::Out;

/// The module: `OtherPayload`, the `Payload` alias and `payload_of`.
pub fn notifications_module(plan: &SdkPlan) -> String {
    let mut out = module(
        "Typed payloads of the notifications (callbacks) the service sends: after a \
         `Verifier` has verified a body, `payload_of` gives its `params` as the record of \
         its type.",
    );
    let mut typed: Vec<(&str, &str)> = plan
        .notifications
        .iter()
        .filter_map(|n| Some((n.notification_type.as_str(), n.payload.as_deref()?)))
        .collect();
    let mut records: Vec<&str> = typed.iter().map(|(_, r)| *r).collect();
    records.sort_unstable();
    records.dedup();
    imports_and_exports(&mut out, &records);
    out.line(SET);
    other_payload_class(&mut out);
    payload_of(&mut out, &mut typed, &records);
    out.finish()
}

/// The imports (the runtime, `NotificationType`, the payload records) and `__all__`.
fn imports_and_exports(out: &mut Out, records: &[&str]) {
    out.line("from typing import Callable, Union");
    out.blank();
    out.line("from baas_runtime import JsonValue, Unknown");
    out.line("from baas_runtime.notification import Notification");
    out.line("from baas_runtime.record import Record");
    out.blank();
    out.line("from .enums import NotificationType");
    if !records.is_empty() {
        out.line(&format!("from .records import {}", records.join(", ")));
    }
    out.blank();
    // Re-exported explicitly: `from baas_client.notifications import ClosingBalanceReport`
    // passes `mypy --strict` (an import alone is not an export to it).
    let mut exported: Vec<&str> = vec!["NotificationType", "OtherPayload", "Payload", "payload_of"];
    exported.extend(records.iter().copied());
    exported.sort_unstable_by_key(|name| name.to_ascii_lowercase());
    out.line("__all__ = [");
    for name in &exported {
        out.line(&format!("    {},", string(name)));
    }
    out.line("]");
    out.blank();
}

/// `OtherPayload`: a notification's type and `params` as received, when its payload is not
/// typed here.
fn other_payload_class(out: &mut Out) {
    out.blank();
    out.blank();
    out.line("class OtherPayload(Record):");
    out.indent();
    docstring(
        out,
        "A notification whose payload is not typed here (not shown, or a type this client \
         does not list): its type and `params` as received.",
    );
    out.blank();
    let slot = |ident: &str, ty: &str, doc: &str| {
        Slot::new(ident.to_owned(), ty.to_owned(), None, doc.to_owned())
    };
    slots_and_init(
        out,
        &[
            slot(
                "notification_type",
                "NotificationType | Unknown",
                "The notification's type.",
            ),
            slot(
                "params",
                "JsonValue",
                "`params` as received (numbers as their literal text).",
            ),
        ],
    );
    out.dedent();
    out.blank();
    out.blank();
}

/// The `Payload` union, the reader of each typed notification type, and `payload_of`.
fn payload_of(out: &mut Out, typed: &mut [(&str, &str)], records: &[&str]) {
    let mut members: Vec<&str> = records.to_vec();
    members.push("OtherPayload");
    out.line(&format!("Payload = Union[{}]", members.join(", ")));
    docstring(
        out,
        "What `payload_of` returns: the record of the notification's type, or `OtherPayload`.",
    );
    out.blank();
    typed.sort_unstable();
    out.line("_READERS: dict[str, Callable[[JsonValue, str], Payload]] = {");
    for (t, r) in typed.iter() {
        out.line(&format!("    {}: {r}._from_wire,", string(t)));
    }
    out.line("}");
    out.blank();
    out.blank();
    out.line("def payload_of(notification: Notification) -> Payload:");
    out.indent();
    docstring(
        out,
        "The typed payload of a verified notification: the record of its type (every field \
         may be None; members this client does not know are ignored), or `OtherPayload`. \
         Several types share a record (0001, 0005 and 0006 carry an onboarding result): \
         `notification.notification_type` tells them apart. Raises `WireShapeError` when \
         `params` has another shape than its type's record.",
    );
    out.line("reader = _READERS.get(notification.notification_type)");
    out.line("if reader is None:");
    out.line("    return OtherPayload(notification_type=NotificationType.of(notification), params=notification.params)");
    out.line("return reader(notification.params, \"params\")");
    out.dedent();
}
