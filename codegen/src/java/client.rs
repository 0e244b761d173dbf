//! `Client`, `AsyncClient`, the OTP handle `Pending` and the typed `Notifications`
//! (`com.baas.client`).

use super::names::{doc_paragraphs, javadoc, member, string_literal, type_name};
use super::ops::{op_names, OpNames};
use super::{class_file, Ctx, ROOT_PACKAGE};
use crate::artifact::EmittedFile;
use crate::plan::{BusinessIdPlan, Direction, Doc, OperationPlan, ResponsePlan, Words};
use crate::text::Out;

fn imports(ctx: &Ctx<'_>, out: &mut Out, extra: &[&str]) {
    for g in &ctx.plan.groups {
        if !g.operations.is_empty() {
            out.line(&format!(
                "import {ROOT_PACKAGE}.{}.*;",
                ctx.group_package(&g.name)
            ));
        }
    }
    for line in [
        "import com.baas.client.model.*;",
        "import com.baas.runtime.CallOptions;",
        "import com.baas.runtime.Config;",
        "import com.baas.runtime.JdkTransport;",
        "import com.baas.runtime.Pages;",
        "import com.baas.runtime.RuntimeClient;",
        "import com.baas.runtime.Success;",
        "import com.baas.runtime.Transport;",
        "import com.baas.runtime.ValueSet;",
        "import com.baas.runtime.WaitPolicy;",
        "import com.baas.runtime.Wire;",
        "import com.baas.signing.JsonValue;",
        "import java.util.Optional;",
        "import java.util.Set;",
    ] {
        out.line(line);
    }
    for line in extra {
        out.line(line);
    }
    out.blank();
}

fn method_doc(out: &mut Out, doc: &Doc, tags: &[String]) {
    let mut p = doc_paragraphs(doc);
    p.retain(|x| !x.starts_with("@deprecated"));
    let mut all = tags.to_vec();
    if let Some(note) = &doc.deprecated {
        all.push(format!("@deprecated {}", javadoc(note)));
    }
    p.push(all.join("\n"));
    out.block_doc(&p, 92);
    if doc.deprecated.is_some() {
        out.line("@Deprecated");
    }
}

/// The business id of a success `s`, as Java.
fn business_id(op: &OperationPlan, n: &OpNames) -> Option<(String, String)> {
    let pending = op.calls.pending.as_ref()?;
    Some(match &pending.business_id {
        BusinessIdPlan::RequestId => ("s.requestId()".to_owned(), "requestId".to_owned()),
        BusinessIdPlan::ResponseField(wire) => {
            let expr = if n.returns == "JsonValue" {
                format!(
                    "s.data() instanceof JsonValue.JsonObject o ? Wire.text(o.get({})) : null",
                    string_literal(wire)
                )
            } else if n.returns == "Void" {
                return None;
            } else {
                format!(
                    "s.data().{}().map(v -> String.valueOf(v)).orElse(null)",
                    member(&Words::of(wire))
                )
            };
            (expr, wire.clone())
        }
    })
}

/// The state function of an until-final call, or `None` when the state cannot be read.
fn state_of(ctx: &Ctx<'_>, op: &OperationPlan, n: &OpNames) -> Option<(String, String)> {
    let f = op.calls.until_final.as_ref()?;
    let fields: &[crate::plan::FieldPlan] = match &op.response {
        ResponsePlan::Fields { fields, .. } => fields,
        ResponsePlan::Record { record, .. } => ctx.plan.record(record).map_or(&[], |r| &r.fields),
        _ => &[],
    };
    let is_enum = fields
        .iter()
        .find(|x| x.wire_name == f.field)
        .is_some_and(|x| matches!(x.ty, crate::model::TypeRef::Enum { .. }));
    let read = if n.returns == "JsonValue" {
        format!("r -> r instanceof JsonValue.JsonObject o ? Optional.ofNullable(Wire.text(o.get({}))) : Optional.<String>empty()", string_literal(&f.field))
    } else if f.typed
        && matches!(
            op.response,
            ResponsePlan::Fields { .. } | ResponsePlan::Record { .. }
        )
    {
        let text = if is_enum {
            "ValueSet::wire"
        } else {
            "v -> String.valueOf(v)"
        };
        format!("r -> r.{}().map({text})", member(&Words::of(&f.field)))
    } else {
        return None;
    };
    let finals: Vec<String> = f.values.iter().map(|v| string_literal(v)).collect();
    Some((read, format!("Set.of({})", finals.join(", "))))
}

/// `Client` (blocking) or `AsyncClient` (CompletableFuture).
pub fn client(ctx: &Ctx<'_>, asynchronous: bool) -> EmittedFile {
    let class = if asynchronous {
        "AsyncClient"
    } else {
        "Client"
    };
    let mut out = Out::new("    ");
    out.line(&format!("package {ROOT_PACKAGE};"));
    out.blank();
    imports(
        ctx,
        &mut out,
        &["import java.util.concurrent.CompletableFuture;"],
    );
    let about = if asynchronous {
        format!("The {} without blocking: each method returns a <code>CompletableFuture</code> that completes with the answer, or exceptionally with the <code>BaasException</code> the blocking call would throw. Get one from <code>Client.async()</code>; it shares the client's connection and configuration.", javadoc(&ctx.plan.title))
    } else {
        format!("The {}: one method per operation. Every request is checked against the spec's rules, signed over the exact bytes sent, and its answer verified (signature, requestId, kind) before it is decoded.", javadoc(&ctx.plan.title))
    };
    out.block_doc(
        &[
            about,
            javadoc(crate::plan::sentences::ERRORS),
            javadoc(crate::plan::sentences::OWN_REQUEST_ID),
        ],
        92,
    );
    let closeable = if asynchronous {
        ""
    } else {
        " implements AutoCloseable"
    };
    out.line(&format!("public final class {class}{closeable} {{"));
    out.indent();
    if asynchronous {
        out.line("private final RuntimeClient runtime;");
        out.line("private final Client client;");
        out.blank();
        out.line("AsyncClient(RuntimeClient runtime, Client client) {");
        out.line("    this.runtime = runtime;");
        out.line("    this.client = client;");
        out.line("}");
    } else {
        out.block_doc(
            &["This SDK's version (<code>api.client_version</code>).".to_owned()],
            92,
        );
        out.line(&format!(
            "public static final String VERSION = {};",
            string_literal(&ctx.plan.client_version)
        ));
        out.blank();
        out.line("private final RuntimeClient runtime;");
        out.line("private final AsyncClient async;");
        out.blank();
        out.block_doc(
            &[
                "A client over java.net.http.".to_owned(),
                "@param config the configuration".to_owned(),
            ],
            92,
        );
        out.line("public Client(Config config) {");
        out.line("    this(config, new JdkTransport(config.connectTimeout()));");
        out.line("}");
        out.blank();
        out.block_doc(
            &[
                "A client over a transport of yours (or <code>MockService</code> in tests)."
                    .to_owned(),
                "@param config the configuration\n@param transport the transport".to_owned(),
            ],
            92,
        );
        out.line("public Client(Config config, Transport transport) {");
        out.line("    this.runtime = new RuntimeClient(config, transport, ResultCode.RETRYABLE);");
        out.line("    this.async = new AsyncClient(runtime, this);");
        out.line("}");
        out.blank();
        out.block_doc(
            &[
                "The same operations without blocking.".to_owned(),
                "@return the asynchronous client".to_owned(),
            ],
            92,
        );
        out.line("public AsyncClient async() {");
        out.line("    return async;");
        out.line("}");
        out.blank();
        out.block_doc(&["The runtime under this client (to run a request object directly, or for its configuration).".to_owned(), "@return the runtime".to_owned()], 92);
        out.line("public RuntimeClient runtime() {");
        out.line("    return runtime;");
        out.line("}");
        out.blank();
        out.block_doc(&["Closes the transport.".to_owned()], 92);
        out.line("@Override");
        out.line("public void close() {");
        out.line("    runtime.close();");
        out.line("}");
    }
    for op in ctx.plan.operations() {
        let n = op_names(ctx, op);
        operation_methods(ctx, &mut out, op, &n, asynchronous);
    }
    group_methods(ctx, &mut out, asynchronous);
    out.dedent();
    out.line("}");
    class_file(ROOT_PACKAGE, class, out.finish())
}

fn operation_methods(
    ctx: &Ctx<'_>,
    out: &mut Out,
    op: &OperationPlan,
    n: &OpNames,
    asynchronous: bool,
) {
    let name = member(&op.words);
    let ret = |t: &str| {
        if asynchronous {
            format!("CompletableFuture<{t}>")
        } else {
            t.to_owned()
        }
    };
    let returns = ret(&n.returns);
    let r = &n.request;
    let ret_tag = if n.returns == "Void" {
        "@return nothing (the answer has no data)"
    } else {
        "@return the answer"
    };
    out.blank();
    method_doc(
        out,
        &op.doc,
        &["@param request the request".to_owned(), ret_tag.to_owned()],
    );
    out.line(&format!("public {returns} {name}({r} request) {{"));
    out.line(&format!("    return {name}(request, CallOptions.none());"));
    out.line("}");
    out.blank();
    method_doc(
        out,
        &op.doc,
        &[
            "@param request the request".to_owned(),
            "@param options a requestId of yours, a time limit".to_owned(),
            ret_tag.to_owned(),
        ],
    );
    let exec = if asynchronous {
        "executeAsync"
    } else {
        "execute"
    };
    out.line(&format!(
        "public {returns} {name}({r} request, CallOptions options) {{"
    ));
    out.line(&format!("    return runtime.{exec}(request, options);"));
    out.line("}");
    if let (Some(pending), Some((expr, field))) = (&op.calls.pending, business_id(op, n)) {
        let ptype = format!("Pending<{}>", n.returns);
        out.blank();
        method_doc(
            out,
            &pending.doc,
            &[
                "@param request the request".to_owned(),
                "@param options a requestId of yours, a time limit".to_owned(),
                "@return the application waiting for its OTP".to_owned(),
            ],
        );
        out.line(&format!(
            "public {} {name}Pending({r} request, CallOptions options) {{",
            ret(&ptype)
        ));
        if asynchronous {
            out.line(&format!("    return runtime.executeWithAsync(request, options).thenApply(s -> new Pending<>(client, s, {expr}, {}, {r}.OPERATION));", string_literal(&field)));
        } else {
            out.line(&format!(
                "    Success<{}> s = runtime.executeWith(request, options);",
                n.returns
            ));
            out.line(&format!(
                "    return new Pending<>(this, s, {expr}, {}, {r}.OPERATION);",
                string_literal(&field)
            ));
        }
        out.line("}");
        out.blank();
        method_doc(
            out,
            &pending.doc,
            &[
                "@param request the request".to_owned(),
                "@return the application waiting for its OTP".to_owned(),
            ],
        );
        out.line(&format!(
            "public {} {name}Pending({r} request) {{",
            ret(&ptype)
        ));
        out.line(&format!(
            "    return {name}Pending(request, CallOptions.none());"
        ));
        out.line("}");
    }
    if let (Some(pages), Some(item)) = (&op.calls.pages, &n.item) {
        out.blank();
        let mut d = pages.doc.clone();
        d.push(pages.paging_doc.clone());
        method_doc(out, &d, &["@param request the request of the first page".to_owned(), "@return the pages (and <code>items()</code>, <code>stream()</code>, <code>collectAsync()</code>)".to_owned()]);
        out.line(&format!(
            "public Pages<{}, {item}> {name}Pages({r} request) {{",
            n.returns
        ));
        out.line("    return runtime.pages(request);");
        out.line("}");
    }
    if let (Some(f), Some((state, finals))) = (&op.calls.until_final, state_of(ctx, op, n)) {
        let wait = if asynchronous {
            "waitUntilAsync"
        } else {
            "waitUntil"
        };
        out.blank();
        method_doc(
            out,
            &f.doc,
            &[
                "@param request the status query".to_owned(),
                "@param policy how long and how often to ask".to_owned(),
                "@return the first answer in a final state".to_owned(),
            ],
        );
        out.line(&format!(
            "public {returns} {name}UntilFinal({r} request, WaitPolicy policy) {{"
        ));
        out.line(&format!(
            "    return runtime.{wait}(request, {state}, {finals}, policy);"
        ));
        out.line("}");
        out.blank();
        method_doc(out, &f.doc, &["@param request the status query".to_owned(), "@return the first answer in a final state (default policy: 1 s doubled up to 30 s, for 10 minutes)".to_owned()]);
        out.line(&format!(
            "public {returns} {name}UntilFinal({r} request) {{"
        ));
        out.line(&format!(
            "    return {name}UntilFinal(request, WaitPolicy.defaults());"
        ));
        out.line("}");
    }
}

/// `groupPending`: several pending applications grouped under one OTP (when the plan has the
/// group step and its answer names the new business id).
fn group_methods(ctx: &Ctx<'_>, out: &mut Out, asynchronous: bool) {
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
    let channel_ty = super::names::java_type(&otp.send.other_ty, Direction::Sent);
    let (send, send_n) = step_request(ctx, &otp.send, "businessId()", "channel")?;
    let (confirm, confirm_n) = step_request(ctx, &otp.confirm, "businessId()", "code")?;
    let mut out = Out::new("    ");
    out.line(&format!("package {ROOT_PACKAGE};"));
    out.blank();
    imports(
        ctx,
        &mut out,
        &[
            "import com.baas.runtime.PendingApplication;",
            "import java.util.concurrent.CompletableFuture;",
        ],
    );
    out.block_doc(&[
        "An application waiting for its OTP: the answer of the call that made it, its business id, and the steps that finish it. Made by the client's <code>…Pending</code> methods.".to_owned(),
        "@param <R> the answer of the call that made the application".to_owned(),
    ], 92);
    out.line("public final class Pending<R> extends PendingApplication<R> {");
    out.indent();
    out.line("private final Client client;");
    out.blank();
    out.line("Pending(Client client, Success<R> success, String businessId, String field, String operation) {");
    out.line("    super(success, businessId, field, operation);");
    out.line("    this.client = client;");
    out.line("}");
    let send_name = member(&Words::of(&otp.send.operation));
    let confirm_name = member(&Words::of(&otp.confirm.operation));
    for (method, arg, argty, chain, n, opname, doc) in [
        (
            "sendOtp",
            "channel",
            channel_ty.as_str(),
            &send,
            &send_n,
            &send_name,
            &otp.send.doc,
        ),
        (
            "confirm",
            "code",
            "String",
            &confirm,
            &confirm_n,
            &confirm_name,
            &otp.confirm.doc,
        ),
    ] {
        out.blank();
        method_doc(
            &mut out,
            doc,
            &[
                format!(
                    "@param {arg} the {}",
                    if arg == "code" {
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
            "public {} {method}({argty} {arg}, CallOptions options) {{",
            n.returns
        ));
        out.line(&format!("    return client.{opname}({chain}, options);"));
        out.line("}");
        out.blank();
        method_doc(
            &mut out,
            doc,
            &[
                format!("@param {arg} the value"),
                "@return the answer".to_owned(),
            ],
        );
        out.line(&format!("public {} {method}({argty} {arg}) {{", n.returns));
        out.line(&format!("    return {method}({arg}, CallOptions.none());"));
        out.line("}");
        out.blank();
        method_doc(
            &mut out,
            doc,
            &[
                format!("@param {arg} the value"),
                "@return the answer to come".to_owned(),
            ],
        );
        out.line(&format!(
            "public CompletableFuture<{}> {method}Async({argty} {arg}) {{",
            n.returns
        ));
        out.line(&format!("    return client.async().{opname}({chain});"));
        out.line("}");
    }
    out.dedent();
    out.line("}");
    Some(class_file(ROOT_PACKAGE, "Pending", out.finish()))
}

/// `Notifications`: each notification's payload typed.
pub fn notifications(ctx: &Ctx<'_>) -> EmittedFile {
    let mut out = Out::new("    ");
    out.line(&format!("package {ROOT_PACKAGE};"));
    out.blank();
    out.line("import com.baas.signing.Notification;");
    out.blank();
    out.block_doc(&[
        "The notifications the service sends, their payloads typed: verify the body with <code>NotificationVerifier</code> (or let <code>NotificationHandler</code> do it), then <code>Notifications.payload(n)</code> and a <code>switch</code> over the result.".to_owned(),
    ], 92);
    out.line("public final class Notifications {");
    out.indent();
    out.line("private Notifications() {");
    out.line("}");
    out.blank();
    out.block_doc(&["A notification with its payload typed; <code>Other</code> for a type this version does not know.".to_owned()], 92);
    out.line("public sealed interface Payload {");
    out.line("    /**\n     * The verified notification.\n     *\n     * @return it\n     */");
    out.line("    Notification notification();");
    out.line("}");
    let mut cases = Vec::new();
    for n in &ctx.plan.notifications {
        let class = type_name(&n.words.pascal());
        let mut d = n.doc.clone();
        d.push(format!("Notification type `{}`.", n.notification_type));
        let mut p = doc_paragraphs(&d);
        out.blank();
        match &n.payload {
            Some(record) => {
                // Fully qualified: a notification's name may be a record's too.
                let rt = format!("{}.{}", super::MODEL, type_name(record));
                p.push(
                    "@param notification the verified notification\n@param params its payload"
                        .to_owned(),
                );
                out.block_doc(&p, 92);
                out.line(&format!("public record {class}(Notification notification, {rt} params) implements Payload {{"));
                out.line("}");
                cases.push(format!(
                    "case {} -> new {class}(n, {rt}.decode(n.params(), \"params\"));",
                    string_literal(&n.notification_type)
                ));
            }
            None => {
                p.push(
                    "@param notification the verified notification (its params as received)"
                        .to_owned(),
                );
                out.block_doc(&p, 92);
                out.line(&format!(
                    "public record {class}(Notification notification) implements Payload {{"
                ));
                out.line("}");
                cases.push(format!(
                    "case {} -> new {class}(n);",
                    string_literal(&n.notification_type)
                ));
            }
        }
    }
    out.blank();
    out.block_doc(
        &[
            "A notification of a type this version does not list.".to_owned(),
            "@param notification the verified notification".to_owned(),
        ],
        92,
    );
    out.line("public record Other(Notification notification) implements Payload {");
    out.line("}");
    out.blank();
    out.block_doc(&[
        "The typed payload of a verified notification.".to_owned(),
        "@param n the notification\n@return its payload\n@throws com.baas.runtime.DecodeException when the payload has another shape".to_owned(),
    ], 92);
    out.line("public static Payload payload(Notification n) {");
    out.line("    return switch (n.notificationType()) {");
    for c in &cases {
        out.line(&format!("        {c}"));
    }
    out.line("        default -> new Other(n);");
    out.line("    };");
    out.line("}");
    out.dedent();
    out.line("}");
    class_file(ROOT_PACKAGE, "Notifications", out.finish())
}
