//! The `Client` (one method per operation, in a trait per group so no file grows long), with
//! `…Pages`, `…Items`, `…Pending` and `…UntilFinal` where the plan says, and the typed
//! payloads of notifications.

use super::names::{self, NAMESPACE};
use super::operations::{request_class, response_fields, response_type};
use super::pending;
use super::PhpFile;
use crate::model::TypeRef;
use crate::plan::{Direction, Doc, FieldPlan, GroupPlan, OperationPlan, RequestPlan, SdkPlan};

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
    f.doc(&client_doc(plan), &[]);
    f.body.line("final class Client");
    f.body.line("{");
    f.body.indent();
    for g in &plan.groups {
        f.body.line(&format!("use {};", trait_name(g)));
    }
    client_constants(&mut f, plan);
    client_members(&mut f);
    if let Some(otp) = &plan.otp {
        if let Some(group) = &otp.group {
            pending::group_pending_method(&mut f, plan, otp, group);
        }
    }
    f.body.dedent();
    f.body.line("}");
    f
}

/// The client's class doc: what it is, how its methods are called and checked, its errors,
/// and the API revision it describes.
fn client_doc(plan: &SdkPlan) -> Doc {
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
    doc
}

/// `VERSION`, and `OTP_RULE` when the spec has one.
fn client_constants(f: &mut PhpFile, plan: &SdkPlan) {
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
}

/// The runtime it holds, the constructor, `runtime()` and `send()`: the same for every
/// spec.
fn client_members(f: &mut PhpFile) {
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
pub(super) struct Args {
    pub(super) params: Vec<String>,
    /// With each field's first paragraph (the operation's own method).
    tags: Vec<String>,
    /// Only the types the declarations do not say (the derived methods: pages, pending,
    /// until-final, whose parameters are the operation's).
    pub(super) short_tags: Vec<String>,
    pub(super) build: String,
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

pub(super) fn method_head(f: &mut PhpFile, name: &str, params: &[String], extra: &str, ret: &str) {
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

/// `@throws` of every call.
const THROWS: &str = "@throws \\Baas\\Runtime\\Exception\\BaasException every failure, saying whether the request was not sent, refused or its outcome is unknown";

/// Every method of one operation: the call itself, and its pages, pending and
/// until-final calls where the plan has them.
fn operation_methods(f: &mut PhpFile, plan: &SdkPlan, op: &OperationPlan) {
    let a = args(f, op);
    let (response, fqn) = response_type(op);
    if let Some(fqn) = &fqn {
        f.uses(fqn);
    }
    let method = names::method(&op.words);
    send_method(f, op, &a, &method, &response);
    if let Some(p) = &op.calls.pages {
        pages_methods(f, p, &a, &method);
    }
    if let (Some(pending), Some(otp)) = (&op.calls.pending, &plan.otp) {
        pending::pending_method(
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
        until_final_method(f, plan, op, fin, &a, &method, &response);
    }
}

/// The PHP return type declared for an answer documented as `response`.
fn declared(response: &str) -> &str {
    if response == "null" {
        "mixed"
    } else {
        response
    }
}

/// The operation's own method: sends the request built from its arguments.
fn send_method(f: &mut PhpFile, op: &OperationPlan, a: &Args, method: &str, response: &str) {
    let options =
        "@param CallOptions|null $options per-call options (your requestId, a time limit, retries)"
            .to_owned();
    let mut tags = a.tags.clone();
    tags.push(options);
    tags.push(format!("@return {response} the answer"));
    tags.push(THROWS.to_owned());
    f.body.blank();
    f.doc(&op.doc, &tags);
    method_head(
        f,
        method,
        &a.params,
        "?CallOptions $options = null",
        declared(response),
    );
    f.body.line(&format!(
        "    return $this->runtime()->execute({}, $options);",
        a.build
    ));
    f.body.line("}");
}

/// `…Pages` and `…Items`: generators of the pages and of their items.
fn pages_methods(f: &mut PhpFile, p: &crate::plan::PagesCall, a: &Args, method: &str) {
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
        tags.push(THROWS.to_owned());
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

/// `…UntilFinal`: polls until the answer's state is final (read typed when it can be,
/// else from the raw answer).
fn until_final_method(
    f: &mut PhpFile,
    plan: &SdkPlan,
    op: &OperationPlan,
    fin: &crate::plan::FinalCall,
    a: &Args,
    method: &str,
    response: &str,
) {
    f.runtime("WaitPolicy");
    f.runtime("Read");
    let mut tags = a.short_tags.clone();
    tags.push(
        "@param WaitPolicy|null $policy how to poll (delays, deadline), or null for the default"
            .to_owned(),
    );
    tags.push(format!("@return {response} the answer in a final state"));
    tags.push(
        "@throws \\Baas\\Runtime\\Exception\\WaitDeadline when the deadline passes first"
            .to_owned(),
    );
    tags.push(THROWS.to_owned());
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
        declared(response),
    );
    f.body.line(&format!(
        "    return $this->runtime()->waitUntil({}, {state}, [{}], $policy);",
        a.build,
        values.join(", ")
    ));
    f.body.line("}");
}
