//! `client.ts` (`Client`), `calls/<group>.ts` (its methods: one per operation and the
//! `…Pages`, `…Pending`, `…UntilFinal` calls the plan gives it) and `pending.ts`
//! (`Pending`, the OTP handle).

use super::names::{self, access, prop, string};
use super::types::ts_type;
use super::{module, says, write_doc, Out};
use crate::plan::{
    sentences, BusinessIdPlan, Direction, Doc, GroupPlan, OperationPlan, OtpPlan, OtpStepPlan,
    SdkPlan, SettleCall, Words,
};

/// The client's doc: what every call does and how it fails, in TypeScript's error names.
fn client_doc(plan: &SdkPlan) -> Doc {
    Doc::of([
        format!("The client of the {}: a method per operation.", plan.title),
        sentences::CHECKED_AND_VERIFIED.to_owned(),
        sentences::ERRORS.to_owned(),
        "A failure is thrown as a `BaasError` whose `outcome` is `not_sent`, `refused` \
         (`ApiError`) or `unknown` (`OutcomeUnknown` for a call that moves money)."
            .to_owned(),
        sentences::OWN_REQUEST_ID.to_owned(),
    ])
}

/// `client.ts`: the class, whose methods are the calls of every group.
pub fn client_module(plan: &SdkPlan) -> String {
    let mut out = module(&Doc::of([format!(
        "The client of the {}: `Client`, a method per operation.",
        plan.title
    )]));
    let group_step = plan.otp.as_ref().and_then(|otp| otp.group.as_ref());
    out.line("import * as rt from \"@baas/runtime\";");
    out.line("import { RETRYABLE_CODES } from \"./codes.js\";");
    if let Some(step) = group_step {
        let module = names::module(&Words::of(&step.group));
        out.line(&format!("import * as {module} from \"./{module}.js\";"));
        out.line("import { Pending } from \"./pending.js\";");
    }
    let calls: Vec<(String, String)> = plan.groups.iter().map(|g| names::calls(&g.words)).collect();
    for (group, (ty, value)) in plan.groups.iter().zip(&calls) {
        out.line(&format!(
            "import {{ {value}, type {ty} }} from \"./calls/{}.js\";",
            names::module(&group.words)
        ));
    }
    out.blank();
    write_doc(&mut out, &client_doc(plan));
    out.line("export class Client {");
    out.indent();
    says(
        &mut out,
        "The runtime client (`execute`, `executeWith`, `pages`, `waitUntil`).",
    );
    out.line("readonly runtime: rt.RuntimeClient;");
    out.blank();
    says(&mut out, "A client for `config` (base URL, sender, private key; `fetch` to reach a proxy or a `MockService`).");
    out.line("constructor(config: rt.Config) {");
    out.line("  this.runtime = new rt.RuntimeClient(config, RETRYABLE_CODES);");
    out.line("}");
    if let Some(step) = group_step {
        group_call(&mut out, plan, step);
    }
    out.dedent();
    out.line("}");
    out.blank();
    says(
        &mut out,
        "The calls of each group (`calls/<group>.ts`) are the client's methods.",
    );
    let types: Vec<&str> = calls.iter().map(|(ty, _)| ty.as_str()).collect();
    let values: Vec<&str> = calls.iter().map(|(_, value)| value.as_str()).collect();
    out.line(&format!(
        "export interface Client extends {} {{}}",
        types.join(", ")
    ));
    out.line(&format!(
        "Object.assign(Client.prototype, {});",
        values.join(", ")
    ));
    out.finish()
}

/// `calls/<group>.ts`: the client's methods of one group's operations, their signatures
/// with their docs, and their implementations.
pub fn calls_module(group: &GroupPlan) -> String {
    let module_name = names::module(&group.words);
    let (ty, value) = names::calls(&group.words);
    let mut out = module(&Doc::of([format!(
        "The client's methods of the group `{}`: their signatures with their docs, and their \
         implementations.",
        group.name
    )]));
    out.line("import * as rt from \"@baas/runtime\";");
    out.line("import type { Client } from \"../client.js\";");
    let settles: Vec<&SettleCall> = group
        .operations
        .iter()
        .filter_map(|op| op.calls.settle.as_ref())
        .collect();
    if settles.is_empty() {
        if group.operations.iter().any(|op| op.calls.pending.is_some()) {
            out.line("import { Pending } from \"../pending.js\";");
        }
    } else {
        out.line("import { OTP_RULE, Pending, SettlingPending } from \"../pending.js\";");
        let mut enums: Vec<&str> = settles
            .iter()
            .filter_map(|s| s.enum_name.as_deref())
            .collect();
        enums.sort_unstable();
        enums.dedup();
        if !enums.is_empty() {
            out.line(&format!(
                "import {{ {} }} from \"../enums.js\";",
                enums.join(", ")
            ));
        }
    }
    out.line(&format!(
        "import * as {module_name} from \"../{module_name}.js\";"
    ));
    let mut others: Vec<String> = settles
        .iter()
        .map(|s| names::module(&Words::of(&s.query_group)))
        .filter(|m| *m != module_name)
        .collect();
    others.sort();
    others.dedup();
    for other in others {
        out.line(&format!("import * as {other} from \"../{other}.js\";"));
    }
    out.blank();
    says(
        &mut out,
        &format!("The client's methods of the group `{}`.", group.name),
    );
    out.line(&format!("export interface {ty} {{"));
    out.indent();
    for op in &group.operations {
        signatures(&mut out, op);
    }
    out.dedent();
    out.line("}");
    out.blank();
    says(
        &mut out,
        &format!("The implementations of `{ty}`, methods of `Client`."),
    );
    out.line(&format!(
        "export const {value}: {ty} & ThisType<Client> = {{"
    ));
    out.indent();
    for op in &group.operations {
        bodies(&mut out, op);
    }
    out.dedent();
    out.line("};");
    out.finish()
}

/// An operation's types and descriptor, qualified by its group's module.
struct Qualified {
    request: String,
    response: String,
    descriptor: String,
}

fn qualified(op: &OperationPlan) -> Qualified {
    let module = names::module(&Words::of(&op.group));
    Qualified {
        request: format!("{module}.{}", names::request(&op.type_words)),
        response: format!("{module}.{}", names::response(&op.type_words)),
        descriptor: format!("{module}.{}", names::method(&op.words)),
    }
}

/// The client's methods of one operation, with their docs: sending it, and each call the
/// plan gives it.
fn signatures(out: &mut Out, op: &OperationPlan) {
    let Qualified {
        request: req,
        response: res,
        ..
    } = qualified(op);
    let method = names::method(&op.words);
    write_doc(out, &op.doc);
    out.line(&format!(
        "{method}(params: {req}, options?: rt.CallOptions): Promise<{res}>;"
    ));
    if let Some(pages) = &op.calls.pages {
        let item = format!("NonNullable<{res}[{}]>[number]", string(&pages.items));
        let mut doc = pages.doc.clone();
        doc.push("Iterate the pages with `for await`, or every item with `.items()`.");
        write_doc(out, &doc);
        out.line(&format!(
            "{method}Pages(params: {req}): rt.Pages<{req}, {res}, {item}>;"
        ));
    }
    if let Some(pending) = &op.calls.pending {
        match &op.calls.settle {
            Some(settle) => {
                let mut doc = pending.doc.clone();
                for p in &settle.doc.paragraphs {
                    doc.push(p.clone());
                }
                write_doc(out, &doc);
                out.line(&format!(
                    "{method}Pending(params: {req}, options?: rt.CallOptions): Promise<SettlingPending<{res}, {}>>;",
                    settle_state_type(settle)
                ));
            }
            None => {
                write_doc(out, &pending.doc);
                out.line(&format!(
                    "{method}Pending(params: {req}, options?: rt.CallOptions): Promise<Pending<{res}>>;"
                ));
            }
        }
    }
    if let Some(finals) = &op.calls.until_final {
        write_doc(out, &finals.doc);
        out.line(&format!(
            "{method}UntilFinal(params: {req}, policy?: rt.WaitPolicy): Promise<{res}>;"
        ));
    }
}

/// The implementations of [`signatures`], on the runtime client.
fn bodies(out: &mut Out, op: &OperationPlan) {
    let descriptor = qualified(op).descriptor;
    let method = names::method(&op.words);
    out.line(&format!("{method}(params, options) {{"));
    out.line(&format!(
        "  return this.runtime.execute({descriptor}, params, options);"
    ));
    out.line("},");
    if op.calls.pages.is_some() {
        out.line(&format!("{method}Pages(params) {{"));
        out.line(&format!(
            "  return this.runtime.pages({descriptor}, {descriptor}Paging, params);"
        ));
        out.line("},");
    }
    if let Some(pending) = &op.calls.pending {
        let (id, field) = match &pending.business_id {
            BusinessIdPlan::ResponseField(wire) => (
                format!("rt.stateText({})", access("success.data", wire)),
                wire.as_str(),
            ),
            BusinessIdPlan::RequestId => ("success.requestId".to_owned(), "requestId"),
        };
        out.line(&format!("async {method}Pending(params, options) {{"));
        out.line(&format!(
            "  const success = await this.runtime.executeWith({descriptor}, params, options);"
        ));
        match &op.calls.settle {
            Some(settle) => {
                out.line(&format!(
                    "  return SettlingPending.settling(this, success, {id}, {}, {}, (businessId) =>",
                    string(field),
                    string(&op.wire_name)
                ));
                out.line(&format!("    {});", settle_lookup(settle)));
            }
            None => out.line(&format!(
                "  return Pending.of(this, success, {id}, {}, {});",
                string(field),
                string(&op.wire_name)
            )),
        }
        out.line("},");
    }
    if let Some(finals) = &op.calls.until_final {
        let values: Vec<String> = finals.values.iter().map(|v| string(v)).collect();
        let state = if finals.typed {
            format!("rt.stateText({})", access("r", &finals.field))
        } else {
            format!("rt.memberText(r, {})", string(&finals.field))
        };
        out.line(&format!("{method}UntilFinal(params, policy) {{"));
        out.line(&format!(
            "  return this.runtime.waitUntil({descriptor}, params, (r) => {state}, [{}], policy);",
            values.join(", ")
        ));
        out.line("},");
    }
}

/// `groupPending`: the OTP flow's grouping step.
fn group_call(out: &mut Out, plan: &SdkPlan, step: &OtpStepPlan) {
    let Some(op) = plan.operation(&step.operation) else {
        return;
    };
    let q = qualified(op);
    out.blank();
    write_doc(out, &step.doc);
    out.line(&format!(
        "async groupPending(businessIds: readonly string[], options?: rt.CallOptions): Promise<Pending<{}>> {{",
        q.response
    ));
    out.indent();
    out.line(&format!(
        "const success = await this.runtime.executeWith({}, {{ {}: [...businessIds] }}, options);",
        q.descriptor,
        prop(&step.business_id)
    ));
    out.line(&format!(
        "return Pending.of(this, success, rt.stateText({}), {}, {});",
        access("success.data", &step.other),
        string(&step.other),
        string(&step.operation)
    ));
    out.dedent();
    out.line("}");
}

/// `pending.ts`: the OTP handle.
pub fn pending_module(plan: &SdkPlan, otp: &OtpPlan) -> String {
    let mut out = module(&Doc::of([
        "The OTP handle: an application waiting for its one-time password.".to_owned(),
    ]));
    out.line("import * as rt from \"@baas/runtime\";");
    out.line("import type { Client } from \"./client.js\";");
    let mut groups: Vec<String> = [&otp.send, &otp.confirm]
        .iter()
        .map(|step| names::module(&Words::of(&step.group)))
        .collect();
    groups.sort();
    groups.dedup();
    for group in groups {
        out.line(&format!("import type * as {group} from \"./{group}.js\";"));
    }
    if let crate::model::TypeRef::Enum { name } = &otp.send.other_ty {
        out.line(&format!("import type {{ {name} }} from \"./enums.js\";"));
    }
    out.blank();
    says(
        &mut out,
        "An application waiting for its OTP: the answer of the call that made it, its business \
         id, and the steps that finish it. Made by the client's `…Pending` methods.",
    );
    out.line("export class Pending<R> {");
    out.indent();
    out.line("protected constructor(");
    out.line("  private readonly client: Client,");
    out.line(
        "  /** The id the OTP steps name (also what a status query or a cancellation takes). */",
    );
    out.line("  readonly businessId: string,");
    out.line("  /** The answer of the call that made the application. */");
    out.line("  readonly response: R,");
    out.line(") {}");
    out.blank();
    says(&mut out, "The handle of a successful call whose answer carries the business id (`DecodeError` when it does not).");
    out.line("static of<R>(client: Client, success: rt.Success<R>, businessId: string | undefined, field: string, operation: string): Pending<R> {");
    out.indent();
    out.line("if (businessId === undefined || businessId === \"\") {");
    out.line("  throw new rt.DecodeError(`the response carries no \\`${field}\\`, the application's business id`).inCall(operation, success.requestId, success.attempts);");
    out.line("}");
    out.line("return new Pending(client, businessId, success.data);");
    out.dedent();
    out.line("}");
    let channel = ts_type(&otp.send.other_ty, Direction::Sent, plan);
    step_method(
        &mut out,
        plan,
        &otp.send,
        &format!("sendOtp(channel: {channel}"),
        "channel",
    );
    step_method(&mut out, plan, &otp.confirm, "confirm(code: string", "code");
    out.dedent();
    out.line("}");
    if let Some(rule) = plan.otp_rule() {
        settling_class(&mut out, rule);
    }
    out.finish()
}

/// `OTP_RULE` and `SettlingPending`: a pending application whose unknown confirmation
/// `settle()` settles, with the lookup its `…Pending` method gave.
fn settling_class(out: &mut Out, rule: &str) {
    out.blank();
    says(out, "When the OTP of an application that was not confirmed may be sent again (the spec's words).");
    out.line(&format!("export const OTP_RULE = {};", string(rule)));
    out.blank();
    says(
        out,
        "An application waiting for its OTP whose confirmation can be settled: when `confirm` \
         fails with an unknown outcome, `settle()` tells with one lookup whether the \
         confirmation arrived. Made by the `…Pending` methods of the operations the spec \
         settles by a status query.",
    );
    out.line("export class SettlingPending<R, S extends string | number> extends Pending<R> {");
    out.indent();
    out.line("private constructor(");
    out.line("  client: Client,");
    out.line("  businessId: string,");
    out.line("  response: R,");
    out.line("  private readonly lookup: (businessId: string) => Promise<rt.Settlement<S>>,");
    out.line(") {");
    out.line("  super(client, businessId, response);");
    out.line("}");
    out.blank();
    says(out, "The handle of a successful call whose answer carries the business id (`DecodeError` when it does not), settled by `lookup`.");
    out.line("static settling<R, S extends string | number>(client: Client, success: rt.Success<R>, businessId: string | undefined, field: string, operation: string, lookup: (businessId: string) => Promise<rt.Settlement<S>>): SettlingPending<R, S> {");
    out.line("  const pending = Pending.of(client, success, businessId, field, operation);");
    out.line("  return new SettlingPending(client, pending.businessId, pending.response, lookup);");
    out.line("}");
    out.blank();
    says(
        out,
        "Settles a confirmation whose outcome is unknown: sends the application's status query \
         once with its business id. `confirmed` (with the state and whether it is final) when \
         it no longer waits for its OTP: do not confirm again. `not_confirmed` when it still \
         waits for it: the confirmation never arrived, so confirming again is safe, as its \
         `otpRule` says. `still_unknown` (with the error) when the lookup fails or its answer \
         carries no state, or one this SDK does not list. Never throws.",
    );
    out.line("async settle(): Promise<rt.Settlement<S>> {");
    out.line("  return this.lookup(this.businessId);");
    out.line("}");
    out.dedent();
    out.line("}");
}

/// A method of the OTP handle calling one step with the business id and `arg`.
fn step_method(out: &mut Out, plan: &SdkPlan, step: &OtpStepPlan, signature: &str, arg: &str) {
    let response = plan
        .operation(&step.operation)
        .map_or_else(|| "rt.JsonValue".to_owned(), |op| qualified(op).response);
    out.blank();
    write_doc(out, &step.doc);
    out.line(&format!(
        "async {signature}, options?: rt.CallOptions): Promise<{response}> {{"
    ));
    out.line(&format!(
        "  return this.client.{}({{ {}: this.businessId, {}: {arg} }}, options);",
        names::method(&Words::of(&step.operation)),
        prop(&step.business_id),
        prop(&step.other)
    ));
    out.line("}");
}

/// The type of the state an application's settlement carries.
fn settle_state_type(settle: &SettleCall) -> String {
    settle
        .enum_name
        .clone()
        .unwrap_or_else(|| "string".to_owned())
}

/// The runtime's settle call for one application, with `businessId` as the query's
/// parameter.
fn settle_lookup(settle: &SettleCall) -> String {
    let module = names::module(&Words::of(&settle.query_group));
    let descriptor = format!("{module}.{}", names::method(&settle.query_words));
    let (state, known) = match (&settle.enum_name, &settle.field_rust) {
        (Some(e), Some(_)) => (
            access("r", &settle.field),
            format!("known: Object.values({e}), "),
        ),
        (None, Some(_)) => (
            format!("rt.stateText({})", access("r", &settle.field)),
            String::new(),
        ),
        (_, None) => (
            format!("rt.memberText(r, {})", string(&settle.field)),
            String::new(),
        ),
    };
    let list = |values: &[String]| {
        values
            .iter()
            .map(|v| string(v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "this.runtime.settle({descriptor}, {{ {}: businessId }}, {{ state: (r) => {state}, {known}awaitingOtp: [{}], finals: [{}], otpRule: OTP_RULE }})",
        prop(&settle.param),
        list(&settle.awaiting_otp),
        list(&settle.finals),
    )
}
