//! `Client` and `AsyncClient` (`com.baas.client`): a method per operation, and the
//! `…Pending`, `…Pages` and `…UntilFinal` calls where the plan says.

use super::head::method_doc;
use super::names::{javadoc, member, string_literal};
use super::ops::{op_names, OpNames};
use super::{class_file, Ctx, ROOT_PACKAGE};
use crate::artifact::EmittedFile;
use crate::plan::{BusinessIdPlan, OperationPlan, ResponsePlan, Words};
use crate::text::Out;

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

/// How an application is settled: the state's type, and the blocking and asynchronous
/// lookups (functions of the business id) its `SettlingPending` is given.
struct SettleOf {
    state_ty: String,
    blocking: String,
    asynchronous: String,
}

/// The lookups of an application settled by its status query, or `None` when its state
/// cannot be read typed.
fn settle_of(ctx: &Ctx<'_>, s: &crate::plan::SettleCall) -> Option<SettleOf> {
    let query = ctx.plan.operation(&s.query)?;
    let q = op_names(ctx, query);
    if matches!(q.returns.as_str(), "Void" | "JsonValue") || s.field_rust.is_none() {
        return None;
    }
    let param = crate::java::shape::fields(query.params(), crate::plan::Direction::Sent)
        .into_iter()
        .find(|f| f.plan.wire_name == s.param)?
        .name;
    let build = format!("{}.builder().{param}(id).build()", q.request);
    let getter = member(&Words::of(&s.field));
    let (state_ty, state) = match &s.enum_name {
        Some(e) => (e.clone(), format!("r -> r.{getter}()")),
        None => (
            "String".to_owned(),
            format!("r -> r.{getter}().map(v -> String.valueOf(v))"),
        ),
    };
    let set = |values: &[String]| {
        let quoted: Vec<String> = values.iter().map(|v| string_literal(v)).collect();
        format!("Set.of({})", quoted.join(", "))
    };
    let args = format!(
        "{build}, {state}, {}, {}, Pending.OTP_RULE",
        set(&s.awaiting_otp),
        set(&s.finals)
    );
    Some(SettleOf {
        state_ty,
        blocking: format!("id -> runtime.settle({args})"),
        asynchronous: format!("id -> runtime.settleAsync({args})"),
    })
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
        async_members(&mut out);
    } else {
        blocking_members(ctx, &mut out);
    }
    for op in ctx.plan.operations() {
        let n = op_names(ctx, op);
        operation_methods(ctx, &mut out, op, &n, asynchronous);
    }
    super::otp::group_methods(ctx, &mut out, asynchronous);
    out.dedent();
    out.line("}");
    class_file(ROOT_PACKAGE, class, out.finish())
}

/// The asynchronous client's fields and constructor: it runs on the blocking client's
/// runtime.
fn async_members(out: &mut Out) {
    out.line("private final RuntimeClient runtime;");
    out.line("private final Client client;");
    out.blank();
    out.line("AsyncClient(RuntimeClient runtime, Client client) {");
    out.line("    this.runtime = runtime;");
    out.line("    this.client = client;");
    out.line("}");
}

/// The blocking client's version constant, fields, constructors, accessors (its
/// asynchronous twin, its runtime) and `close`.
fn blocking_members(ctx: &Ctx<'_>, out: &mut Out) {
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
            "A client over a transport of yours (or <code>MockService</code> in tests).".to_owned(),
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

/// Every method of one operation: the send methods, and its pending, pages and
/// until-final calls where the plan has them.
fn operation_methods(
    ctx: &Ctx<'_>,
    out: &mut Out,
    op: &OperationPlan,
    n: &OpNames,
    asynchronous: bool,
) {
    send_methods(out, op, n, asynchronous);
    pending_methods(ctx, out, op, n, asynchronous);
    pages_method(out, op, n);
    until_final_methods(ctx, out, op, n, asynchronous);
}

/// `t`, or a `CompletableFuture` of it for the asynchronous client.
fn returned(t: &str, asynchronous: bool) -> String {
    if asynchronous {
        format!("CompletableFuture<{t}>")
    } else {
        t.to_owned()
    }
}

/// `name(request)` and `name(request, options)`: send the request, return the answer.
fn send_methods(out: &mut Out, op: &OperationPlan, n: &OpNames, asynchronous: bool) {
    let name = member(&op.words);
    let returns = returned(&n.returns, asynchronous);
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
}

/// `namePending(request[, options])`: the application waiting for its OTP (a
/// `SettlingPending` when a status query settles an unknown confirmation), when the
/// operation has a pending call and its business id can be read.
fn pending_methods(
    ctx: &Ctx<'_>,
    out: &mut Out,
    op: &OperationPlan,
    n: &OpNames,
    asynchronous: bool,
) {
    let (Some(pending), Some((expr, field))) = (&op.calls.pending, business_id(op, n)) else {
        return;
    };
    let name = member(&op.words);
    let r = &n.request;
    let settle = op.calls.settle.as_ref().and_then(|s| settle_of(ctx, s));
    let ptype = match &settle {
        Some(s) => format!("SettlingPending<{}, {}>", n.returns, s.state_ty),
        None => format!("Pending<{}>", n.returns),
    };
    let mut pending_doc = pending.doc.clone();
    if let Some(s) = &op.calls.settle {
        for p in &s.doc.paragraphs {
            pending_doc.push(p.clone());
        }
    }
    let pending = &crate::plan::PendingCall {
        doc: pending_doc,
        ..pending.clone()
    };
    let made = |client: &str| match &settle {
        Some(s) => format!(
            "new SettlingPending<>({client}, s, {expr}, {}, {r}.OPERATION, {}, {})",
            string_literal(&field),
            s.blocking,
            s.asynchronous
        ),
        None => format!(
            "new Pending<>({client}, s, {expr}, {}, {r}.OPERATION)",
            string_literal(&field)
        ),
    };
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
        returned(&ptype, asynchronous)
    ));
    if asynchronous {
        out.line(&format!(
            "    return runtime.executeWithAsync(request, options).thenApply(s -> {});",
            made("client")
        ));
    } else {
        out.line(&format!(
            "    Success<{}> s = runtime.executeWith(request, options);",
            n.returns
        ));
        out.line(&format!("    return {};", made("this")));
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
        returned(&ptype, asynchronous)
    ));
    out.line(&format!(
        "    return {name}Pending(request, CallOptions.none());"
    ));
    out.line("}");
}

/// `namePages(request)`: the pages of a paged operation (the same in both clients).
fn pages_method(out: &mut Out, op: &OperationPlan, n: &OpNames) {
    let (Some(pages), Some(item)) = (&op.calls.pages, &n.item) else {
        return;
    };
    let name = member(&op.words);
    let r = &n.request;
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

/// `nameUntilFinal(request[, policy])`: asks the status query until its state is final,
/// when the operation has an until-final call whose state can be read.
fn until_final_methods(
    ctx: &Ctx<'_>,
    out: &mut Out,
    op: &OperationPlan,
    n: &OpNames,
    asynchronous: bool,
) {
    let (Some(f), Some((state, finals))) = (&op.calls.until_final, state_of(ctx, op, n)) else {
        return;
    };
    let name = member(&op.words);
    let returns = returned(&n.returns, asynchronous);
    let r = &n.request;
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
