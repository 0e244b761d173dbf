//! The `Client` (one method per operation, in a trait per group so no file grows long), with
//! `…Pages`, `…Items`, `…Pending` and `…UntilFinal` where the plan says, and the typed
//! payloads of notifications.

use super::names::{self, NAMESPACE};
use super::operations::{request_class, response_fields, response_type};
use super::types;
use super::PhpFile;
use crate::model::TypeRef;
use crate::plan::{
    BusinessIdPlan, Direction, Doc, FieldPlan, GroupPlan, OperationPlan, OtpStepPlan, RequestPlan,
    SdkPlan,
};

/// The trait holding a group's calls (`TransfersCalls`).
fn trait_name(g: &GroupPlan) -> String {
    format!("{}Calls", names::class(&g.words))
}

/// The client: configuration, the retryable codes, the traits of every group.
pub fn client_file(plan: &SdkPlan) -> PhpFile {
    let mut f = PhpFile::new(NAMESPACE, "Client");
    for name in [
        "CallOptions",
        "Config",
        "Request",
        "RuntimeClient",
        "Transport\\Transport",
    ] {
        f.runtime(name);
    }
    f.uses(&format!("{NAMESPACE}\\Enums\\ResultCode"));
    for g in &plan.groups {
        f.uses(&format!(
            "{}\\{}",
            names::group_namespace(&g.name),
            trait_name(g)
        ));
    }
    let mut doc = Doc::of([
        format!(
            "The {} client ({}): one method per operation, each taking the request's fields as \
             named arguments (required ones without a default) and `options` for this call.",
            plan.title, plan.client_version
        ),
        crate::plan::sentences::CHECKED_AND_VERIFIED.to_owned(),
        crate::plan::sentences::ERRORS.to_owned(),
        crate::plan::sentences::OWN_REQUEST_ID.to_owned(),
    ]);
    if !plan.api_version.is_empty() {
        doc.push(format!(
            "Describes the bank's API revision {}.",
            plan.api_version
        ));
    }
    f.doc(&doc, &[]);
    f.body.line("final class Client");
    f.body.line("{");
    f.body.indent();
    for g in &plan.groups {
        f.body.line(&format!("use {};", trait_name(g)));
    }
    f.body.blank();
    f.body.line(&format!(
        "/** The version of this client (`api.client_version`). */\npublic const VERSION = {};",
        names::string(&plan.client_version)
    ));
    if let Some(rule) = plan.otp_rule() {
        f.body.blank();
        f.body.line(&format!(
            "/** When the OTP of an application that was not confirmed may be sent again (the spec's words). */\npublic const OTP_RULE = {};",
            names::string(rule)
        ));
    }
    f.body.blank();
    f.body.line("private readonly RuntimeClient $runtime;");
    f.body.blank();
    f.doc(
        &Doc::of(["A client of the service at `$config->baseUrl`.".to_owned()]),
        &[
            "@param Config $config the URL, your sender and key, the limits".to_owned(),
            "@param Transport|null $transport the transport (curl when loaded, else PHP's streams; a MockService in tests)".to_owned(),
            "@throws \\Baas\\Runtime\\Exception\\ConfigError when the configuration cannot work".to_owned(),
        ],
    );
    f.body
        .line("public function __construct(Config $config, ?Transport $transport = null)");
    f.body.line("{");
    f.body.line(
        "    $this->runtime = new RuntimeClient($config, $transport, ResultCode::RETRYABLE);",
    );
    f.body.line("}");
    f.body.blank();
    f.doc(
        &Doc::of([
            "The runtime client under this one (`pages()`, `waitUntil()`, `executeWith()`)."
                .to_owned(),
        ]),
        &["@return RuntimeClient the runtime client".to_owned()],
    );
    f.body.line("public function runtime(): RuntimeClient");
    f.body.line("{");
    f.body.line("    return $this->runtime;");
    f.body.line("}");
    f.body.blank();
    f.doc(
        &Doc::of(["Sends any request of this API (a request object built beforehand).".to_owned()]),
        &[
            "@template T".to_owned(),
            "@param Request<T> $request the request".to_owned(),
            "@param CallOptions|null $options per-call options".to_owned(),
            "@return T the answer".to_owned(),
            "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying its outcome"
                .to_owned(),
        ],
    );
    f.body
        .line("public function send(Request $request, ?CallOptions $options = null): mixed");
    f.body.line("{");
    f.body
        .line("    return $this->runtime->execute($request, $options);");
    f.body.line("}");
    if let Some(otp) = &plan.otp {
        if let Some(group) = &otp.group {
            group_pending_method(&mut f, plan, otp, group);
        }
    }
    f.body.dedent();
    f.body.line("}");
    f
}

/// A group's calls, as a trait the client uses.
pub fn group_trait_file(plan: &SdkPlan, g: &GroupPlan) -> PhpFile {
    let name = trait_name(g);
    let mut f = PhpFile::new(&names::group_namespace(&g.name), &name);
    f.runtime("CallOptions");
    f.runtime("RuntimeClient");
    let mut doc = g.doc.clone();
    doc.push(format!("The `{}` calls of the `Client`.", g.name));
    f.doc(&doc, &[]);
    f.body.line(&format!("trait {name}"));
    f.body.line("{");
    f.body.indent();
    f.doc(
        &Doc::of(["The runtime client the calls go through.".to_owned()]),
        &["@return RuntimeClient the runtime client".to_owned()],
    );
    f.body
        .line("abstract public function runtime(): RuntimeClient;");
    for op in &g.operations {
        operation_methods(&mut f, plan, op);
    }
    f.body.dedent();
    f.body.line("}");
    f
}

/// The parameters of a call, its `@param` tags, and the request built from them.
struct Args {
    params: Vec<String>,
    /// With each field's first paragraph (the operation's own method).
    tags: Vec<String>,
    /// Only the types the declarations do not say (the derived methods: pages, pending,
    /// until-final, whose parameters are the operation's).
    short_tags: Vec<String>,
    build: String,
}

fn args(f: &mut PhpFile, op: &OperationPlan) -> Args {
    let request = request_class(op);
    f.uses(&format!("{}\\{request}", names::group_namespace(&op.group)));
    match &op.request {
        RequestPlan::Free { .. } => {
            f.runtime("WireObject");
            let tag = "@param array<string, mixed>|WireObject $params the params, sent as given"
                .to_owned();
            Args {
                params: vec!["array|WireObject $params = []".to_owned()],
                tags: vec![tag.clone()],
                short_tags: vec![tag],
                build: format!("new {request}($params)"),
            }
        }
        RequestPlan::Fields(fields) => {
            let mut ordered: Vec<&FieldPlan> = fields.iter().collect();
            ordered.sort_by_key(|x| !x.required());
            let mut params = Vec::new();
            let mut tags = Vec::new();
            let mut short_tags = Vec::new();
            let mut named = Vec::new();
            for x in ordered {
                f.type_uses(&x.ty, Direction::Sent);
                let name = names::prop(&x.wire_name, &x.words);
                let declared = names::field_type(x, Direction::Sent);
                let doc_ty = names::field_doc_type(x, Direction::Sent);
                let summary =
                    first_sentence(x.sent_doc.paragraphs.first().map_or("", String::as_str));
                let doc_ty = if x.required() {
                    doc_ty
                } else {
                    names::doc_nullable(&doc_ty)
                };
                if x.required() {
                    params.push(format!("{declared} ${name}"));
                } else {
                    params.push(format!("{} ${name} = null", names::nullable(&declared)));
                }
                tags.push(
                    format!("@param {doc_ty} ${name} {summary}")
                        .trim_end()
                        .to_owned(),
                );
                if matches!(x.ty, TypeRef::Array { .. } | TypeRef::Json) {
                    // Only what the declared type does not say (a list's items).
                    short_tags.push(format!("@param {doc_ty} ${name}"));
                }
                named.push(format!("{name}: ${name}"));
            }
            Args {
                params,
                tags,
                short_tags,
                build: format!("new {request}({})", named.join(", ")),
            }
        }
    }
}

/// The first sentence of a text (the whole text when it has one).
fn first_sentence(text: &str) -> String {
    match text.find(". ") {
        Some(end) => text[..=end].to_owned(),
        None => text.to_owned(),
    }
}

fn method_head(f: &mut PhpFile, name: &str, params: &[String], extra: &str, ret: &str) {
    let mut all = params.to_vec();
    if !extra.is_empty() {
        all.push(extra.to_owned());
    }
    f.body.line(&format!("public function {name}("));
    f.body.indent();
    for p in &all {
        f.body.line(&format!("{p},"));
    }
    f.body.dedent();
    f.body.line(&format!("): {ret} {{"));
}

fn operation_methods(f: &mut PhpFile, plan: &SdkPlan, op: &OperationPlan) {
    let a = args(f, op);
    let (response, fqn) = response_type(op);
    if let Some(fqn) = &fqn {
        f.uses(fqn);
    }
    let declared = if response == "null" {
        "mixed"
    } else {
        response.as_str()
    };
    let method = names::method(&op.words);
    let throws = "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying whether the request was not sent, refused or its outcome is unknown".to_owned();
    let options =
        "@param CallOptions|null $options per-call options (your requestId, a time limit, retries)"
            .to_owned();
    let mut tags = a.tags.clone();
    tags.push(options.clone());
    tags.push(format!("@return {response} the answer"));
    tags.push(throws.clone());
    f.body.blank();
    f.doc(&op.doc, &tags);
    method_head(
        f,
        &method,
        &a.params,
        "?CallOptions $options = null",
        declared,
    );
    f.body.line(&format!(
        "    return $this->runtime()->execute({}, $options);",
        a.build
    ));
    f.body.line("}");
    if let Some(p) = &op.calls.pages {
        f.runtime("Page");
        f.type_uses(&p.item, Direction::Received);
        let item = names::doc_type(&p.item, Direction::Received);
        for (suffix, call, ret) in [
            ("Pages", "pages", format!("\\Generator<int, Page<{item}>>")),
            ("Items", "items", format!("\\Generator<int, {item}>")),
        ] {
            let mut tags = a.short_tags.clone();
            tags.push(format!(
                "@return {ret} the {}, fetched as they are read",
                call
            ));
            tags.push(throws.clone());
            f.body.blank();
            f.doc(&p.doc, &tags);
            method_head(
                f,
                &format!("{method}{suffix}"),
                &a.params,
                "",
                "\\Generator",
            );
            f.body.line(&format!(
                "    return $this->runtime()->{call}({});",
                a.build
            ));
            f.body.line("}");
        }
    }
    if let (Some(pending), Some(otp)) = (&op.calls.pending, &plan.otp) {
        pending_method(
            f,
            plan,
            op,
            &a,
            &method,
            &response,
            &pending.doc,
            &pending.business_id,
            otp,
        );
    }
    if let Some(fin) = &op.calls.until_final {
        f.runtime("WaitPolicy");
        f.runtime("Read");
        let mut tags = a.short_tags.clone();
        tags.push("@param WaitPolicy|null $policy how to poll (delays, deadline), or null for the default".to_owned());
        tags.push(format!("@return {response} the answer in a final state"));
        tags.push(
            "@throws \\Baas\\Runtime\\Exception\\WaitDeadline when the deadline passes first"
                .to_owned(),
        );
        tags.push(throws);
        let values: Vec<String> = fin.values.iter().map(|v| names::string(v)).collect();
        let field = response_fields(plan, op)
            .iter()
            .find(|x| x.wire_name == fin.field);
        let state = match field {
            Some(x) if fin.typed && response != "mixed" => format!(
                "static fn ({response} $r): ?string => Read::text($r->{})",
                names::prop(&x.wire_name, &x.words)
            ),
            _ => {
                f.uses("Baas\\Signing\\JsonObject");
                format!(
                    "static fn (mixed $r, mixed $raw): ?string => $raw instanceof JsonObject ? Read::text($raw->get({})) : null",
                    names::string(&fin.field)
                )
            }
        };
        f.body.blank();
        f.doc(&fin.doc, &tags);
        method_head(
            f,
            &format!("{method}UntilFinal"),
            &a.params,
            "?WaitPolicy $policy = null",
            declared,
        );
        f.body.line(&format!(
            "    return $this->runtime()->waitUntil({}, {state}, [{}], $policy);",
            a.build,
            values.join(", ")
        ));
        f.body.line("}");
    }
}

#[allow(clippy::too_many_arguments)]
fn pending_method(
    f: &mut PhpFile,
    plan: &SdkPlan,
    op: &OperationPlan,
    a: &Args,
    method: &str,
    response: &str,
    doc: &Doc,
    business_id: &BusinessIdPlan,
    otp: &crate::plan::OtpPlan,
) {
    f.runtime("Pending");
    f.runtime("Read");
    let (send_ret, _) = step_types(plan, &otp.send);
    let (confirm_ret, _) = step_types(plan, &otp.confirm);
    let settle = op
        .calls
        .settle
        .as_ref()
        .and_then(|s| settle_lookup(f, plan, s));
    let (class, made) = match &settle {
        Some(_) => {
            f.runtime("SettlingPending");
            f.runtime("Settlement");
            ("SettlingPending", "SettlingPending::settling(")
        }
        None => ("Pending", "Pending::of("),
    };
    let mut doc = doc.clone();
    if let (Some(s), Some(_)) = (&op.calls.settle, &settle) {
        for p in &s.doc.paragraphs {
            doc.push(p.clone());
        }
    }
    let doc = &doc;
    let mut tags = a.short_tags.clone();
    tags.push("@param CallOptions|null $options per-call options of this call".to_owned());
    let state = settle
        .as_ref()
        .map_or(String::new(), |(ty, _)| format!(", {ty}"));
    tags.push(format!("@return {class}<{response}, {send_ret}, {confirm_ret}{state}> the application waiting for its OTP"));
    tags.push(
        "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying its outcome"
            .to_owned(),
    );
    f.body.blank();
    f.doc(doc, &tags);
    method_head(
        f,
        &format!("{method}Pending"),
        &a.params,
        "?CallOptions $options = null",
        class,
    );
    f.body.indent();
    f.body.line(&format!(
        "$success = $this->runtime()->executeWith({}, $options);",
        a.build
    ));
    let (id, field) = match business_id {
        BusinessIdPlan::ResponseField(wire) => {
            let name = response_fields(plan, op)
                .iter()
                .find(|x| &x.wire_name == wire)
                .map_or_else(
                    || names::prop(wire, &crate::plan::Words::of(wire)),
                    |x| names::prop(&x.wire_name, &x.words),
                );
            (format!("Read::text($success->data->{name})"), wire.clone())
        }
        BusinessIdPlan::RequestId => ("$success->requestId".to_owned(), "requestId".to_owned()),
    };
    f.body.line(&format!("$id = {id};"));
    f.body.line(&format!("return {made}"));
    f.body.indent();
    f.body.line("$success,");
    f.body.line("$id,");
    f.body.line(&format!("{},", names::string(&field)));
    f.body.line(&format!("{},", names::string(&op.wire_name)));
    step_closures(f, plan, otp);
    if let Some((_, lookup)) = &settle {
        f.body.line(&format!("{lookup},"));
    }
    f.body.dedent();
    f.body.line(");");
    f.body.dedent();
    f.body.line("}");
}

/// The two steps of a `Pending`, as closures over `$id` calling the client's OTP methods.
fn step_closures(f: &mut PhpFile, plan: &SdkPlan, otp: &crate::plan::OtpPlan) {
    let channel_arg = channel(f, &otp.send.other_ty);
    f.body.line(&format!(
        "fn (\\BackedEnum|string $channel, ?CallOptions $o = null): mixed => $this->{}({}: (string) $id, {}: {channel_arg}, options: $o),",
        step_method(plan, &otp.send),
        step_param(plan, &otp.send, &otp.send.business_id),
        step_param(plan, &otp.send, &otp.send.other),
    ));
    f.body.line(&format!(
        "fn (string $code, ?CallOptions $o = null): mixed => $this->{}({}: (string) $id, {}: $code, options: $o),",
        step_method(plan, &otp.confirm),
        step_param(plan, &otp.confirm, &otp.confirm.business_id),
        step_param(plan, &otp.confirm, &otp.confirm.other),
    ));
}

/// `groupPending()`: applications grouped under one, confirmed with one OTP.
fn group_pending_method(
    f: &mut PhpFile,
    plan: &SdkPlan,
    otp: &crate::plan::OtpPlan,
    group: &OtpStepPlan,
) {
    let Some(op) = step_op(plan, group) else {
        return;
    };
    f.runtime("Pending");
    f.runtime("Read");
    let request = request_class(op);
    f.uses(&format!("{}\\{request}", names::group_namespace(&op.group)));
    let (response, fqn) = response_type(op);
    if let Some(fqn) = &fqn {
        f.uses(fqn);
    }
    let (send_ret, _) = step_types(plan, &otp.send);
    let (confirm_ret, _) = step_types(plan, &otp.confirm);
    let ids = step_param(plan, group, &group.business_id);
    let new_id = response_fields(plan, op)
        .iter()
        .find(|x| x.wire_name == group.other)
        .map_or_else(
            || names::prop(&group.other, &crate::plan::Words::of(&group.other)),
            |x| names::prop(&x.wire_name, &x.words),
        );
    f.body.blank();
    f.doc(
        &group.doc,
        &[
            "@param list<string> $businessIds the business ids of the applications to group".to_owned(),
            "@param CallOptions|null $options per-call options of this call".to_owned(),
            format!("@return Pending<{response}, {send_ret}, {confirm_ret}> the group waiting for one OTP"),
            "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying its outcome".to_owned(),
        ],
    );
    f.body.line(
        "public function groupPending(array $businessIds, ?CallOptions $options = null): Pending",
    );
    f.body.line("{");
    f.body.indent();
    f.body.line(&format!(
        "$success = $this->runtime->executeWith(new {request}({ids}: $businessIds), $options);"
    ));
    f.body
        .line(&format!("$id = Read::text($success->data->{new_id});"));
    f.body.line("return Pending::of(");
    f.body.indent();
    f.body.line("$success,");
    f.body.line("$id,");
    f.body.line(&format!("{},", names::string(&group.other)));
    f.body
        .line(&format!("{},", names::string(&group.operation)));
    step_closures(f, plan, otp);
    f.body.dedent();
    f.body.line(");");
    f.body.dedent();
    f.body.line("}");
}

/// The channel argument as the send step's parameter type wants it.
fn channel(f: &mut PhpFile, ty: &TypeRef) -> String {
    match ty {
        TypeRef::Enum { name } => {
            let class = names::class_named(name);
            f.uses(&format!("{}\\{class}", types::enums_namespace()));
            format!("$channel instanceof {class} ? $channel : {class}::from($channel instanceof \\BackedEnum ? $channel->value : $channel)")
        }
        _ => "(string) ($channel instanceof \\BackedEnum ? $channel->value : $channel)".to_owned(),
    }
}

fn step_op<'a>(plan: &'a SdkPlan, step: &OtpStepPlan) -> Option<&'a OperationPlan> {
    plan.operation(&step.operation)
}

fn step_method(plan: &SdkPlan, step: &OtpStepPlan) -> String {
    step_op(plan, step).map_or_else(
        || names::method(&crate::plan::Words::of(&step.operation)),
        |o| names::method(&o.words),
    )
}

fn step_param(plan: &SdkPlan, step: &OtpStepPlan, wire: &str) -> String {
    step_op(plan, step).and_then(|o| o.param(wire)).map_or_else(
        || names::prop(wire, &crate::plan::Words::of(wire)),
        |x| names::prop(&x.wire_name, &x.words),
    )
}

fn step_types(plan: &SdkPlan, step: &OtpStepPlan) -> (String, Option<String>) {
    step_op(plan, step).map_or(("mixed".to_owned(), None), response_type)
}

/// The typed payloads of notifications.
pub fn notifications_file(plan: &SdkPlan) -> PhpFile {
    let mut f = PhpFile::new(NAMESPACE, "Notifications");
    f.uses("Baas\\Signing\\Notification");
    let mut returns = Vec::new();
    for n in &plan.notifications {
        if let Some(payload) = &n.payload {
            let class = names::class_named(payload);
            f.uses(&format!("{}\\{class}", types::records_namespace()));
            if !returns.contains(&class) {
                returns.push(class);
            }
        }
    }
    returns.push("mixed".to_owned());
    f.doc(
        &Doc::of([
            "The typed payload of each notification the service sends: verify the body \
                   with `NotificationVerifier` (or `NotificationHandler`), then read its \
                   `params` here."
                .to_owned(),
        ]),
        &[],
    );
    f.body.line("final class Notifications");
    f.body.line("{");
    f.body.indent();
    let mut lines = Vec::new();
    for n in &plan.notifications {
        let mut line = format!("{} => ", names::string(&n.notification_type));
        match &n.payload {
            Some(payload) => {
                let class = names::class_named(payload);
                line.push_str(&format!(
                    "{class}::read($n->params, 'params') ?? new {class}(),"
                ));
            }
            None => line.push_str("$n->params,"),
        }
        lines.push((n, line));
    }
    let mut tags = vec!["@param Notification $n a verified notification".to_owned()];
    tags.push(format!(
        "@return {} the payload (its `params` as read, for a type this version does not type)",
        returns.join("|")
    ));
    let mut doc =
        Doc::of(["The payload of a verified notification, by its `notificationType`:".to_owned()]);
    for (n, _) in &lines {
        doc.push(format!(
            "- `{}` ({}): {}",
            n.notification_type,
            n.name,
            n.payload
                .as_deref()
                .map_or("its params as read".to_owned(), |p| format!("`{p}`"))
        ));
    }
    f.doc(&doc, &tags);
    f.body
        .line("public static function payload(Notification $n): mixed");
    f.body.line("{");
    f.body.indent();
    f.body.line("return match ($n->notificationType) {");
    f.body.indent();
    for (_, line) in &lines {
        f.body.line(line);
    }
    f.body.line("default => $n->params,");
    f.body.dedent();
    f.body.line("};");
    f.body.dedent();
    f.body.line("}");
    f.body.dedent();
    f.body.line("}");
    f
}

/// `(the state's type, the closure looking an application up by its business id)` of an
/// application settled by its status query, or `None` when its answer is not typed.
fn settle_lookup(
    f: &mut PhpFile,
    plan: &SdkPlan,
    s: &crate::plan::SettleCall,
) -> Option<(String, String)> {
    let query = plan.operation(&s.query)?;
    let (response, fqn) = response_type(query);
    let field = response_fields(plan, query)
        .iter()
        .find(|x| x.wire_name == s.field)?;
    if response == "mixed" || response == "null" || s.field_rust.is_none() {
        return None;
    }
    if let Some(fqn) = &fqn {
        f.uses(fqn);
    }
    let request = request_class(query);
    f.uses(&format!(
        "{}\\{request}",
        names::group_namespace(&query.group)
    ));
    let param = query.param(&s.param)?;
    let param = names::prop(&param.wire_name, &param.words);
    let state_ty = match &s.enum_name {
        Some(_) => {
            f.type_uses(&field.ty, Direction::Received);
            names::php_type(&field.ty, Direction::Received)
                .trim_start_matches('?')
                .to_owned()
        }
        None => "string|int".to_owned(),
    };
    let list = |values: &[String]| {
        values
            .iter()
            .map(|v| names::string(v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some((
        state_ty,
        format!(
            "fn (string $id): Settlement => $this->runtime()->settle(new {request}({param}: $id), static fn ({response} $r): mixed => $r->{}, [{}], [{}], \\Baas\\Client\\Client::OTP_RULE)",
            names::prop(&field.wire_name, &field.words),
            list(&s.awaiting_otp),
            list(&s.finals),
        ),
    ))
}
