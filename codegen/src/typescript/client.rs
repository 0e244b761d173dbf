//! `client.ts` (`Client`, a method per operation, `*Pages`, `*Pending`, `*UntilFinal`, and
//! `Pending`, the OTP handle) and `notifications.ts` (typed notification verification).

use super::names::{access, binding, module, string, ts_type, Direction};
use super::types::{param_wire, response_wire};
use super::Out;
use crate::model::{Api, BusinessId, Operation, OtpFlow, TypeRef};

fn find<'a>(api: &'a Api, name: &str) -> Option<&'a Operation> {
    api.operations().find(|o| o.name == name)
}

/// The method name of an operation (`getAccountDetails`).
fn method(op: &Operation) -> String {
    binding(&op.name)
}

/// `client.ts`.
pub fn client_module(api: &Api) -> Out {
    let mut out = Out::module(&format!(
        "The client of the {}: a method per operation, each validating its parameters, signing \
         the exact bytes it sends, verifying the answer's signature and requestId echo, and \
         retrying the spec's retryable codes only where that is safe.",
        api.title
    ));
    out.line("import * as rt from \"@baas/runtime\";");
    for group in &api.groups {
        out.line(&format!(
            "import * as {0} from \"./{0}.js\";",
            module(&group.name)
        ));
    }
    out.line("import { RETRYABLE_CODES } from \"./codes.js\";");
    if api.otp_flow.is_some() {
        out.line("import { Pending } from \"./pending.js\";");
    }
    out.blank();
    out.doc(&format!(
        "The client of the {}: a method per operation.\n\nEvery call throws a `BaasError` on \
         failure: its `outcome` is `not_sent` (nothing left: fix and send again), `refused` (a \
         signed answer with a result code; `ApiError`) or `unknown` (the bytes may have arrived \
         and no verified answer came back; for a call that moves money, `OutcomeUnknown`: look \
         the application up before sending it again). Every error names the operation, the \
         requestId of its last attempt and the attempts made.",
        api.title
    ));
    out.line("export class Client {");
    out.indent();
    out.doc("The runtime client (`execute`, `executeWith`, `pages`, `waitUntil`).");
    out.line("readonly runtime: rt.RuntimeClient;");
    out.blank();
    out.doc("A client for `config` (base URL, sender, private key; `fetch` to reach a proxy or a `MockService`).");
    out.line("constructor(config: rt.Config) {");
    out.line("  this.runtime = new rt.RuntimeClient(config, RETRYABLE_CODES);");
    out.line("}");
    for group in &api.groups {
        for op in &group.operations {
            operation_methods(&mut out, api, op, &module(&group.name));
        }
    }
    if let Some(flow) = &api.otp_flow {
        group_method(&mut out, api, flow);
    }
    out.dedent();
    out.line("}");
    out
}

/// `pending.ts`: the OTP handle (when the spec has an OTP flow).
pub fn pending_module(api: &Api) -> Out {
    let mut out = Out::module("The OTP handle: an application waiting for its one-time password.");
    out.line("import * as rt from \"@baas/runtime\";");
    out.line("import type { Client } from \"./client.js\";");
    if let Some(flow) = &api.otp_flow {
        let mut groups: Vec<String> = [&flow.send.operation, &flow.confirm.operation]
            .iter()
            .filter_map(|name| find(api, name))
            .map(|op| module(&op.group))
            .collect();
        groups.sort();
        groups.dedup();
        for group in groups {
            out.line(&format!("import type * as {group} from \"./{group}.js\";"));
        }
        if let TypeRef::Enum { name } = &flow.send.other_ty {
            out.line(&format!("import type {{ {name} }} from \"./enums.js\";"));
        }
        pending_class(&mut out, api, flow);
    }
    out
}

fn request_type(op: &Operation, module: &str) -> String {
    format!("{module}.{}Request", op.type_name)
}

fn response_type(op: &Operation, module: &str) -> String {
    format!("{module}.{}Response", op.type_name)
}

fn operation_methods(out: &mut Out, api: &Api, op: &Operation, module: &str) {
    let req = request_type(op, module);
    let res = response_type(op, module);
    let descriptor = format!("{module}.{}", binding(&op.name));
    let mut doc = format!("{} (`POST {}`)", op.doc.trim(), op.path);
    if op.moves_money {
        doc.push_str(
            " Moves money: once its bytes may have left it is never re-sent; a failure without a \
             verified answer is `OutcomeUnknown`.",
        );
    }
    if op.otp {
        if let Some(flow) = &api.otp_flow {
            doc.push_str(&format!(
                " Takes effect only after `{}` and `{}`.",
                flow.send.operation, flow.confirm.operation
            ));
        }
    }
    if let Some(words) = op.source.partner_words() {
        doc.push_str(&format!("\n\n{words}"));
    }
    if let Some(note) = &op.deprecated {
        doc.push_str(&format!("\n\n@deprecated {note}"));
    }
    out.blank();
    out.doc(&doc);
    out.line(&format!(
        "{}(params: {req}, options?: rt.CallOptions): Promise<{res}> {{",
        method(op)
    ));
    out.line(&format!(
        "  return this.runtime.execute({descriptor}, params, options);"
    ));
    out.line("}");
    if let Some(paging) = &op.paging {
        if let Some(items) = &paging.items {
            let item = format!("NonNullable<{res}[{}]>[number]", string(&items.wire_name));
            out.blank();
            out.doc(&format!(
                "Every page of `{}`, from `{}` on (`for await`), or every item with `.items()`. It \
                 stops after an empty page, a page shorter than `{}`, or the page that reaches the \
                 total; an error ends it, thrown. Each page is one call.",
                op.name, paging.page.wire_name, paging.size.wire_name
            ));
            out.line(&format!(
                "{}Pages(params: {req}): rt.Pages<{req}, {res}, {item}> {{",
                method(op)
            ));
            out.line(&format!(
                "  return this.runtime.pages({descriptor}, {descriptor}Paging, params);"
            ));
            out.line("}");
        }
    }
    if let (Some(business), Some(_)) = (&op.business_id, &api.otp_flow) {
        let (id, from) = match business {
            BusinessId::ResponseField { wire_name, .. } => (
                format!("rt.stateText({})", access("success.data", wire_name)),
                format!("the answer's `{wire_name}`"),
            ),
            BusinessId::RequestId => (
                "success.requestId".to_owned(),
                "the requestId the call was sent with".to_owned(),
            ),
        };
        let field = match business {
            BusinessId::ResponseField { wire_name, .. } => wire_name.clone(),
            BusinessId::RequestId => "requestId".to_owned(),
        };
        out.blank();
        out.doc(&format!(
            "Calls `{}` and returns the application waiting for its OTP, whose business id is \
             {from}: send its OTP and confirm it from there.",
            op.name
        ));
        out.line(&format!(
            "async {}Pending(params: {req}, options?: rt.CallOptions): Promise<Pending<{res}>> {{",
            method(op)
        ));
        out.indent();
        out.line(&format!(
            "const success = await this.runtime.executeWith({descriptor}, params, options);"
        ));
        out.line(&format!(
            "return Pending.of(this, success, {id}, {}, {});",
            string(&field),
            string(&op.name)
        ));
        out.dedent();
        out.line("}");
    }
    if let Some(finals) = &op.final_states {
        let values: Vec<String> = finals.values.iter().map(|v| string(v)).collect();
        let state = if finals.rust_name.is_some() {
            format!("rt.stateText({})", access("r", &finals.wire_name))
        } else {
            format!("rt.memberText(r, {})", string(&finals.wire_name))
        };
        out.blank();
        out.doc(&format!(
            "Sends `{}` until the answer's `{}` is final ({}), waiting between queries as `policy` \
             says (doubling delays, a deadline), and returns that answer. Throws `WaitDeadline` \
             with the last state when the deadline passes first.",
            op.name,
            finals.wire_name,
            finals.values.join(", ")
        ));
        out.line(&format!(
            "{}UntilFinal(params: {req}, policy?: rt.WaitPolicy): Promise<{res}> {{",
            method(op)
        ));
        out.line(&format!(
            "  return this.runtime.waitUntil({descriptor}, params, (r) => {state}, [{}], policy);",
            values.join(", ")
        ));
        out.line("}");
    }
}

fn group_method(out: &mut Out, api: &Api, flow: &OtpFlow) {
    let Some(group_step) = &flow.group else {
        return;
    };
    let Some(op) = find(api, &group_step.operation) else {
        return;
    };
    let module = module(&op.group);
    let ids = param_wire(Some(op), &group_step.business_id);
    let new_id = response_wire(api, op, &group_step.other);
    out.blank();
    out.doc(&format!(
        "Groups pending applications under one (`{}`), confirmed with one OTP: send and confirm \
         the returned handle's OTP instead of each one's.",
        op.name
    ));
    out.line(&format!(
        "async groupPending(businessIds: readonly string[], options?: rt.CallOptions): Promise<Pending<{}>> {{",
        response_type(op, &module)
    ));
    out.indent();
    out.line(&format!(
        "const success = await this.runtime.executeWith({module}.{}, {{ {}: [...businessIds] }}, options);",
        binding(&op.name),
        super::names::prop(&ids)
    ));
    out.line(&format!(
        "return Pending.of(this, success, rt.stateText({}), {}, {});",
        access("success.data", &new_id),
        string(&new_id),
        string(&op.name)
    ));
    out.dedent();
    out.line("}");
}

fn pending_class(out: &mut Out, api: &Api, flow: &OtpFlow) {
    let send = find(api, &flow.send.operation);
    let confirm = find(api, &flow.confirm.operation);
    let channel = match &flow.send.other_ty {
        TypeRef::Enum { name } => name.clone(),
        other => ts_type(other, Direction::Sent, &api.enums),
    };
    out.blank();
    out.doc(
        "An application waiting for its OTP: the answer of the call that made it, its business id, \
         and the steps that finish it. Made by the client's `…Pending` methods.",
    );
    out.line("export class Pending<R> {");
    out.indent();
    out.line("private constructor(");
    out.line("  private readonly client: Client,");
    out.line(
        "  /** The id the OTP steps name (also what a status query or a cancellation takes). */",
    );
    out.line("  readonly businessId: string,");
    out.line("  /** The answer of the call that made the application. */");
    out.line("  readonly response: R,");
    out.line(") {}");
    out.blank();
    out.doc("The handle of a successful call whose answer carries the business id (`DecodeError` when it does not).");
    out.line("static of<R>(client: Client, success: rt.Success<R>, businessId: string | undefined, field: string, operation: string): Pending<R> {");
    out.indent();
    out.line("if (businessId === undefined || businessId === \"\") {");
    out.line("  throw new rt.DecodeError(`the response carries no \\`${field}\\`, the application's business id`).inCall(operation, success.requestId, success.attempts);");
    out.line("}");
    out.line("return new Pending(client, businessId, success.data);");
    out.dedent();
    out.line("}");
    let send_module = send.map(|o| module(&o.group)).unwrap_or_default();
    let send_id = param_wire(send, &flow.send.business_id);
    out.blank();
    out.doc(&format!(
        "Sends the application's OTP (`{}`) by `channel`.",
        flow.send.operation
    ));
    out.line(&format!(
        "async sendOtp(channel: {channel}, options?: rt.CallOptions): Promise<{}> {{",
        send.map(|o| response_type(o, &send_module))
            .unwrap_or_else(|| "rt.JsonValue".to_owned())
    ));
    out.line(&format!(
        "  return this.client.{}({{ {}: this.businessId, {}: channel }}, options);",
        binding(&flow.send.operation),
        super::names::prop(&send_id),
        super::names::prop(&flow.send.other_wire)
    ));
    out.line("}");
    let confirm_module = confirm.map(|o| module(&o.group)).unwrap_or_default();
    let confirm_id = param_wire(confirm, &flow.confirm.business_id);
    out.blank();
    out.doc(&format!(
        "Confirms the application with the OTP its owner received (`{}`): this is what releases \
         the money. A confirmation whose outcome is unknown throws `OutcomeUnknown`: look the \
         application up before confirming again.",
        flow.confirm.operation
    ));
    out.line(&format!(
        "async confirm(code: string, options?: rt.CallOptions): Promise<{}> {{",
        confirm
            .map(|o| response_type(o, &confirm_module))
            .unwrap_or_else(|| "rt.JsonValue".to_owned())
    ));
    out.line(&format!(
        "  return this.client.{}({{ {}: this.businessId, {}: code }}, options);",
        binding(&flow.confirm.operation),
        super::names::prop(&confirm_id),
        super::names::prop(&flow.confirm.other_wire)
    ));
    out.line("}");
    out.dedent();
    out.line("}");
}

/// `notifications.ts`: the notification types, their payloads and a verifier typed by them.
pub fn notifications_module(api: &Api) -> Out {
    let mut out = Out::module(
        "Callback notifications: their types and payloads, and a verifier whose answers are typed \
         by them.",
    );
    out.line("import * as rt from \"@baas/runtime\";");
    let mut types: Vec<&str> = api
        .notifications
        .iter()
        .filter_map(|n| n.payload.as_ref().map(|p| p.received_name.as_str()))
        .collect();
    types.sort_unstable();
    types.dedup();
    let mut shapes: Vec<String> = api
        .notifications
        .iter()
        .filter_map(|n| n.payload.as_ref().map(|p| format!("{}Shape", p.record)))
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
    out.blank();
    out.doc("The notification types, by name (`notificationType` of a notification).");
    out.line("export const NotificationType = {");
    out.indent();
    for n in &api.notifications {
        let mut doc = n.doc.clone();
        if n.payload.is_none() && !n.payload_note.trim().is_empty() {
            doc.push_str(&format!("\n\n{}", n.payload_note));
        }
        out.doc(&doc);
        out.line(&format!(
            "{}: {},",
            super::names::prop(&n.name),
            string(&n.notification_type)
        ));
    }
    out.dedent();
    out.line("} as const;");
    out.line(
        "export type NotificationType = (typeof NotificationType)[keyof typeof NotificationType];",
    );
    out.blank();
    out.doc("The payload (`params`) of each notification type: a record, or JSON as received where the payload is not shown.");
    out.line("export interface NotificationPayloads {");
    out.indent();
    for n in &api.notifications {
        let ty = n
            .payload
            .as_ref()
            .map_or("rt.JsonValue", |p| p.received_name.as_str());
        out.line(&format!("readonly {}: {ty};", string(&n.notification_type)));
    }
    out.dedent();
    out.line("}");
    out.blank();
    out.doc(
        "A verified notification of a known type: switch on `notificationType` and `params` has \
         that type's payload. `deliveryId` (requestId and type) is the key of a repeated \
         delivery: process each once, then answer `ACK`.",
    );
    out.line("export type KnownNotification = {");
    out.line("  [T in keyof NotificationPayloads]: rt.Notification<T, NotificationPayloads[T]> & { readonly known: true };");
    out.line("}[keyof NotificationPayloads];");
    out.doc(
        "A verified notification of a type this version does not list: its params as received.",
    );
    out.line("export type OtherNotification = rt.Notification<rt.Unknown<string>, rt.JsonValue> & { readonly known: false };");
    out.doc("A verified notification: test `known`, then switch on `notificationType`.");
    out.line("export type Notification = KnownNotification | OtherNotification;");
    out.blank();
    out.line("const PAYLOADS: ReadonlyMap<string, rt.RecordShape | undefined> = new Map([");
    out.indent();
    for n in &api.notifications {
        let shape = n
            .payload
            .as_ref()
            .map_or("undefined".to_owned(), |p| format!("{}Shape", p.record));
        out.line(&format!("[{}, {shape}],", string(&n.notification_type)));
    }
    out.dedent();
    out.line("]);");
    out.blank();
    out.doc(
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
    out.doc("How long processed delivery ids must be kept (milliseconds).");
    out.line("get windowMs(): number {");
    out.line("  return this.#inner.windowMs;");
    out.line("}");
    out.blank();
    out.doc("The verified notification, or a `BaasError` (`SignatureInvalid`, `SignatureMissing`, `Untrusted`, `DecodeError` for a payload of another shape).");
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
    out
}
