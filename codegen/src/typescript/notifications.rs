//! `notifications.ts`: the notification types, their payloads and a verifier whose answers
//! are typed by them.

use super::names::string;
use super::types::named_values;
use super::{module, says};
use crate::plan::{Doc, NotificationPlan, SdkPlan};
use crate::text::Out;

/// The shape descriptor of a notification's payload record (`undefined` when not shown).
fn payload_shape(plan: &SdkPlan, n: &NotificationPlan) -> Option<String> {
    let payload = n.payload.as_ref()?;
    let record = plan.records.iter().find(|r| r.received_name == *payload)?;
    Some(format!("{}Shape", record.name))
}

/// The module: the notification types, their payloads, and `NotificationVerifier`.
pub fn notifications_module(plan: &SdkPlan) -> String {
    let mut out = module(&Doc::of([
        "Callback notifications: their types and payloads, and a verifier whose answers are \
         typed by them."
            .to_owned(),
    ]));
    imports(&mut out, plan);
    payload_types(&mut out, plan);
    verifier_class(&mut out);
    out.finish()
}

/// The runtime, and the payload records (as types) and their shape descriptors.
fn imports(out: &mut Out, plan: &SdkPlan) {
    out.line("import * as rt from \"@baas/runtime\";");
    let mut types: Vec<&str> = plan
        .notifications
        .iter()
        .filter_map(|n| n.payload.as_deref())
        .collect();
    types.sort_unstable();
    types.dedup();
    let mut shapes: Vec<String> = plan
        .notifications
        .iter()
        .filter_map(|n| payload_shape(plan, n))
        .collect();
    shapes.sort_unstable();
    shapes.dedup();
    if !types.is_empty() {
        out.line(&format!(
            "import type {{ {} }} from \"./records.js\";",
            types.join(", ")
        ));
        out.line(&format!(
            "import {{ {} }} from \"./records.js\";",
            shapes.join(", ")
        ));
    }
}

/// `NotificationType`, the payload of each type (`NotificationPayloads`), the
/// `Notification` union of known and other types, and the map of payload descriptors.
fn payload_types(out: &mut Out, plan: &SdkPlan) {
    out.blank();
    let types = plan
        .notifications
        .iter()
        .map(|n| (n.doc.clone(), n.name.as_str(), string(&n.notification_type)));
    let what = Doc::of([
        "The notification types, by name (`notificationType` of a notification).".to_owned(),
    ]);
    named_values(out, "NotificationType", &what, types);
    out.blank();
    says(out, "The payload (`params`) of each notification type: a record, or JSON as received where the payload is not shown.");
    out.line("export interface NotificationPayloads {");
    out.indent();
    for n in &plan.notifications {
        let ty = n.payload.as_deref().unwrap_or("rt.JsonValue");
        out.line(&format!("readonly {}: {ty};", string(&n.notification_type)));
    }
    out.dedent();
    out.line("}");
    out.blank();
    says(
        out,
        "A verified notification of a known type: switch on `notificationType` and `params` has \
         that type's payload. `deliveryId` (requestId and type) is the key of a repeated \
         delivery: process each once, then answer `ACK`.",
    );
    out.line("export type KnownNotification = {");
    out.line("  [T in keyof NotificationPayloads]: rt.Notification<T, NotificationPayloads[T]> & { readonly known: true };");
    out.line("}[keyof NotificationPayloads];");
    says(
        out,
        "A verified notification of a type this version does not list: its params as received.",
    );
    out.line("export type OtherNotification = rt.Notification<rt.Unknown<string>, rt.JsonValue> & { readonly known: false };");
    says(
        out,
        "A verified notification: test `known`, then switch on `notificationType`.",
    );
    out.line("export type Notification = KnownNotification | OtherNotification;");
    out.blank();
    out.line("const PAYLOADS: ReadonlyMap<string, rt.RecordShape | undefined> = new Map([");
    out.indent();
    for n in &plan.notifications {
        let shape = payload_shape(plan, n).unwrap_or_else(|| "undefined".to_owned());
        out.line(&format!("[{}, {shape}],", string(&n.notification_type)));
    }
    out.dedent();
    out.line("]);");
    out.blank();
}

/// `NotificationVerifier`: the runtime's verifier, whose answers it types by reading a
/// known type's payload (the same for every spec).
fn verifier_class(out: &mut Out) {
    says(
        out,
        "Verifies notification bodies for your key and the service's sender name: the signature \
         over the exact bytes received, that the body is a notification that could not be re-cut, \
         the sender, and the freshness window (24 hours old at most, 5 minutes ahead at most, \
         both configurable); then reads the payload of a known type.",
    );
    out.line("export class NotificationVerifier {");
    out.indent();
    out.line("readonly #inner: rt.Verifier;");
    out.blank();
    out.line("constructor(key: rt.PrivateKey, serviceSender: string, options: rt.VerifierOptions = {}) {");
    out.line("  this.#inner = new rt.Verifier(key, serviceSender, options);");
    out.line("}");
    out.blank();
    says(
        out,
        "How long processed delivery ids must be kept (milliseconds).",
    );
    out.line("get windowMs(): number {");
    out.line("  return this.#inner.windowMs;");
    out.line("}");
    out.blank();
    says(out, "The verified notification, or a `BaasError` (`SignatureInvalid`, `SignatureMissing`, `Untrusted`, `DecodeError` for a payload of another shape).");
    out.line("verify(body: Uint8Array, nowMs?: number): Notification {");
    out.indent();
    out.line("const n = this.#inner.verify(body, nowMs);");
    out.line("if (!PAYLOADS.has(n.notificationType)) {");
    out.line("  // A type this version does not list: kept as received.");
    out.line("  return { ...n, known: false } as OtherNotification;");
    out.line("}");
    out.line("const shape = PAYLOADS.get(n.notificationType);");
    out.line("let params: unknown = n.params;");
    out.line("if (shape !== undefined) {");
    out.line("  try {");
    out.line("    params = rt.readRecord(shape, n.params, \"params\");");
    out.line("  } catch (e) {");
    out.line("    if (e instanceof rt.ShapeError) throw new rt.DecodeError(`notification ${n.notificationType}: ${e.message}`, undefined, body);");
    out.line("    throw e;");
    out.line("  }");
    out.line("}");
    out.line("// The payload was read by the descriptor of this type's record.");
    out.line("return { ...n, params, known: true } as KnownNotification;");
    out.dedent();
    out.line("}");
    out.dedent();
    out.line("}");
}
