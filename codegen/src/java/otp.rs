//! The OTP handle `Pending` and the group step (`com.baas.client`).

use super::head::method_doc;
use super::names::{java_type, member, string_literal};
use super::ops::{op_names, OpNames};
use super::{class_file, Ctx, ROOT_PACKAGE};
use crate::artifact::EmittedFile;
use crate::plan::{Direction, Doc, Words};
use crate::text::Out;

/// `groupPending`: several pending applications grouped under one OTP (when the plan has the
/// group step and its answer names the new business id).
pub fn group_methods(ctx: &Ctx<'_>, out: &mut Out, asynchronous: bool) {
    let Some(group) = ctx.plan.otp.as_ref().and_then(|o| o.group.as_ref()) else {
        return;
    };
    let Some((chain, n)) = step_request(ctx, group, "businessIds", "") else {
        return;
    };
    if matches!(n.returns.as_str(), "Void" | "JsonValue") {
        return;
    }
    let id = format!(
        "s.data().{}().map(v -> String.valueOf(v)).orElse(null)",
        member(&Words::of(&group.other))
    );
    let ptype = format!("Pending<{}>", n.returns);
    let ret = if asynchronous {
        format!("CompletableFuture<{ptype}>")
    } else {
        ptype.clone()
    };
    out.blank();
    method_doc(
        out,
        &group.doc,
        &[
            "@param businessIds the pending applications' business ids".to_owned(),
            "@param options a requestId of yours, a time limit".to_owned(),
            "@return the group waiting for one OTP".to_owned(),
        ],
    );
    out.line(&format!(
        "public {ret} groupPending(java.util.List<String> businessIds, CallOptions options) {{"
    ));
    let field = string_literal(&group.other);
    if asynchronous {
        out.line(&format!(
            "    return runtime.executeWithAsync({chain}, options).thenApply(s -> new Pending<>(client, s, {id}, {field}, {}.OPERATION));",
            n.request
        ));
    } else {
        out.line(&format!(
            "    Success<{}> s = runtime.executeWith({chain}, options);",
            n.returns
        ));
        out.line(&format!(
            "    return new Pending<>(this, s, {id}, {field}, {}.OPERATION);",
            n.request
        ));
    }
    out.line("}");
    out.blank();
    method_doc(
        out,
        &group.doc,
        &[
            "@param businessIds the pending applications' business ids".to_owned(),
            "@return the group waiting for one OTP".to_owned(),
        ],
    );
    out.line(&format!(
        "public {ret} groupPending(java.util.List<String> businessIds) {{"
    ));
    out.line("    return groupPending(businessIds, CallOptions.none());");
    out.line("}");
}

/// Builds the request of an OTP step from its business id and other value, or `None` when
/// the step needs a parameter the handle does not have.
fn step_request(
    ctx: &Ctx<'_>,
    step: &crate::plan::OtpStepPlan,
    id: &str,
    other: &str,
) -> Option<(String, OpNames)> {
    let op = ctx.plan.operation(&step.operation)?;
    let n = op_names(ctx, op);
    let mut chain = format!("{}.builder()", n.request);
    let fields = super::shape::fields(op.params(), Direction::Sent);
    for f in fields
        .iter()
        .filter(|f| f.plan.required())
        .chain(fields.iter().filter(|f| !f.plan.required()))
    {
        let value = if f.plan.wire_name == step.business_id {
            id
        } else if f.plan.wire_name == step.other {
            other
        } else if f.plan.required() {
            return None;
        } else {
            continue;
        };
        chain.push_str(&format!(".{}({value})", f.name));
    }
    chain.push_str(".build()");
    Some((chain, n))
}

/// `Pending`: the OTP handle.
pub fn pending(ctx: &Ctx<'_>) -> Option<EmittedFile> {
    let otp = ctx.plan.otp.as_ref()?;
    let channel_ty = java_type(&otp.send.other_ty, Direction::Sent);
    let (send, send_n) = step_request(ctx, &otp.send, "businessId()", "channel")?;
    let (confirm, confirm_n) = step_request(ctx, &otp.confirm, "businessId()", "code")?;
    let mut out = Out::new("    ");
    out.line(&format!("package {ROOT_PACKAGE};"));
    out.blank();
    out.block_doc(&[
        "An application waiting for its OTP: the answer of the call that made it, its business id, and the steps that finish it. Made by the client's <code>…Pending</code> methods.".to_owned(),
        "@param <R> the answer of the call that made the application".to_owned(),
    ], 92);
    out.line("public class Pending<R> extends PendingApplication<R> {");
    out.indent();
    if let Some(rule) = ctx.plan.otp_rule() {
        out.block_doc(&["When the OTP of an application that was not confirmed may be sent again (the spec's words).".to_owned()], 92);
        out.line(&format!(
            "public static final String OTP_RULE = {};",
            string_literal(rule)
        ));
        out.blank();
    }
    out.line("private final Client client;");
    out.blank();
    out.line("Pending(Client client, Success<R> success, String businessId, String field, String operation) {");
    out.line("    super(success, businessId, field, operation);");
    out.line("    this.client = client;");
    out.line("}");
    let send_name = member(&Words::of(&otp.send.operation));
    let confirm_name = member(&Words::of(&otp.confirm.operation));
    for step in [
        StepMethod {
            method: "sendOtp",
            arg: "channel",
            arg_ty: channel_ty.as_str(),
            request: &send,
            returns: &send_n.returns,
            client_method: &send_name,
            doc: &otp.send.doc,
        },
        StepMethod {
            method: "confirm",
            arg: "code",
            arg_ty: "String",
            request: &confirm,
            returns: &confirm_n.returns,
            client_method: &confirm_name,
            doc: &otp.confirm.doc,
        },
    ] {
        step_methods(&mut out, &step);
    }
    out.dedent();
    out.line("}");
    Some(class_file(ROOT_PACKAGE, "Pending", out.finish()))
}

/// One OTP step as `Pending` offers it: its method and argument, and the client call
/// it makes.
struct StepMethod<'a> {
    /// The method's name (`sendOtp`, `confirm`).
    method: &'a str,
    /// The argument's name and Java type.
    arg: &'a str,
    arg_ty: &'a str,
    /// The step's request, built from the business id and the argument.
    request: &'a str,
    /// The Java type the step's call returns.
    returns: &'a str,
    /// The client method that sends the step.
    client_method: &'a str,
    doc: &'a Doc,
}

/// A step's three methods: blocking with options, blocking, and asynchronous.
fn step_methods(out: &mut Out, step: &StepMethod<'_>) {
    let StepMethod {
        method,
        arg,
        arg_ty,
        request,
        returns,
        client_method,
        doc,
    } = step;
    out.blank();
    method_doc(
        out,
        doc,
        &[
            format!(
                "@param {arg} the {}",
                if *arg == "code" {
                    "OTP its owner received"
                } else {
                    "channel"
                }
            ),
            "@param options a requestId of yours, a time limit".to_owned(),
            "@return the answer".to_owned(),
        ],
    );
    out.line(&format!(
        "public {returns} {method}({arg_ty} {arg}, CallOptions options) {{"
    ));
    out.line(&format!(
        "    return client.{client_method}({request}, options);"
    ));
    out.line("}");
    out.blank();
    method_doc(
        out,
        doc,
        &[
            format!("@param {arg} the value"),
            "@return the answer".to_owned(),
        ],
    );
    out.line(&format!("public {returns} {method}({arg_ty} {arg}) {{"));
    out.line(&format!("    return {method}({arg}, CallOptions.none());"));
    out.line("}");
    out.blank();
    method_doc(
        out,
        doc,
        &[
            format!("@param {arg} the value"),
            "@return the answer to come".to_owned(),
        ],
    );
    out.line(&format!(
        "public CompletableFuture<{returns}> {method}Async({arg_ty} {arg}) {{"
    ));
    out.line(&format!(
        "    return client.async().{client_method}({request});"
    ));
    out.line("}");
}

/// `SettlingPending`: a pending application whose unknown confirmation `settle()` settles,
/// with the lookups its `…Pending` method gave (when some operation is settled).
pub fn settling_pending(ctx: &Ctx<'_>) -> Option<EmittedFile> {
    if !ctx.plan.settles() {
        return None;
    }
    let mut out = Out::new("    ");
    out.line(&format!("package {ROOT_PACKAGE};"));
    out.blank();
    out.block_doc(&[
        "An application waiting for its OTP whose confirmation can be settled: when <code>confirm</code> fails with an unknown outcome, <code>settle()</code> tells with one lookup whether the confirmation arrived. Made by the <code>…Pending</code> methods of the operations the spec settles by a status query.".to_owned(),
        "@param <R> the answer of the call that made the application".to_owned(),
        "@param <S> the state its status query reports".to_owned(),
    ], 92);
    out.line("public final class SettlingPending<R, S> extends Pending<R> {");
    out.indent();
    out.line("private final Function<String, Settlement<S>> lookup;");
    out.line("private final Function<String, CompletableFuture<Settlement<S>>> lookupAsync;");
    out.blank();
    out.line("SettlingPending(Client client, Success<R> success, String businessId, String field, String operation,");
    out.line("        Function<String, Settlement<S>> lookup, Function<String, CompletableFuture<Settlement<S>>> lookupAsync) {");
    out.line("    super(client, success, businessId, field, operation);");
    out.line("    this.lookup = lookup;");
    out.line("    this.lookupAsync = lookupAsync;");
    out.line("}");
    let doc = "Settles a confirmation whose outcome is unknown: sends the application's status query once with its business id. <code>Confirmed</code> (with the state and whether it is final) when it no longer waits for its OTP: do not confirm again. <code>NotConfirmed</code> when it still waits for it: the confirmation never arrived, so confirming again is safe, as its <code>otpRule</code> says. <code>StillUnknown</code> (with the error) when the lookup fails or its answer carries no state, or one this SDK does not list. Never throws a <code>BaasException</code>.";
    out.blank();
    out.block_doc(
        &[doc.to_owned(), "@return what the lookup says".to_owned()],
        92,
    );
    out.line("public Settlement<S> settle() {");
    out.line("    return lookup.apply(businessId());");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            format!("{doc} Without blocking: the future always completes normally."),
            "@return what the lookup says, to come".to_owned(),
        ],
        92,
    );
    out.line("public CompletableFuture<Settlement<S>> settleAsync() {");
    out.line("    return lookupAsync.apply(businessId());");
    out.line("}");
    out.dedent();
    out.line("}");
    Some(class_file(ROOT_PACKAGE, "SettlingPending", out.finish()))
}
