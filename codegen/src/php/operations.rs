//! Each operation's request class (implementing the runtime's `Request` or `PagedRequest`)
//! and answer class, from the plan.

use super::names;
use super::types::{self, constructor, received_class, to_wire_method, validate_method};
use super::validation::{constraint_lines, prop_of};
use super::PhpFile;
use crate::model::TypeRef;
use crate::plan::{
    Direction, Doc, FieldPlan, OperationPlan, PagesCall, RequestPlan, ResponsePlan, SdkPlan,
};

/// The class names of an operation's request and answer (`ApplyForTransferRequest`).
pub fn request_class(op: &OperationPlan) -> String {
    format!("{}Request", names::class(&op.type_words))
}

/// The PHP type of an operation's answer (`ApplyForTransferResponse`, `Account`, `mixed`,
/// `null`), and the fully qualified class to import, if any.
pub fn response_type(op: &OperationPlan) -> (String, Option<String>) {
    match &op.response {
        ResponsePlan::Fields { .. } => {
            let class = format!("{}Response", names::class(&op.type_words));
            let fqn = format!("{}\\{class}", names::group_namespace(&op.group));
            (class, Some(fqn))
        }
        ResponsePlan::Record { received_name, .. } => {
            let class = names::class_named(received_name);
            let fqn = format!("{}\\{class}", types::records_namespace());
            (class, Some(fqn))
        }
        ResponsePlan::Raw { .. } => ("mixed".to_owned(), None),
        ResponsePlan::Empty { .. } => ("null".to_owned(), None),
    }
}

/// The fields of an operation's answer (a record's too), when listed.
pub fn response_fields<'a>(plan: &'a SdkPlan, op: &'a OperationPlan) -> &'a [FieldPlan] {
    match &op.response {
        ResponsePlan::Fields { fields, .. } => fields,
        ResponsePlan::Record { record, .. } => plan.record(record).map_or(&[], |r| &r.fields),
        ResponsePlan::Raw { .. } | ResponsePlan::Empty { .. } => &[],
    }
}

/// The files of an operation: its request and, when its answer lists fields, its answer.
pub fn operation_files(plan: &SdkPlan, op: &OperationPlan) -> Vec<PhpFile> {
    let mut out = vec![request_file(plan, op)];
    if let ResponsePlan::Fields { fields, doc } = &op.response {
        let (class, _) = response_type(op);
        out.push(received_class(
            &names::group_namespace(&op.group),
            &class,
            doc,
            fields,
        ));
    }
    out
}

fn request_file(plan: &SdkPlan, op: &OperationPlan) -> PhpFile {
    let class = request_class(op);
    let mut f = PhpFile::new(&names::group_namespace(&op.group), &class);
    f.runtime("FieldPath");
    f.runtime("OperationInfo");
    f.runtime("Validator");
    f.runtime("WireObject");
    let (response, response_fqn) = response_type(op);
    if let Some(fqn) = &response_fqn {
        f.uses(fqn);
    }
    let pages = op.calls.pages.as_ref();
    let (interface, generic) = match pages {
        Some(p) => {
            f.runtime("PagedRequest");
            f.type_uses(&p.item, Direction::Received);
            let item = names::doc_type(&p.item, Direction::Received);
            ("PagedRequest", format!("PagedRequest<{response}, {item}>"))
        }
        None => {
            f.runtime("Request");
            ("Request", format!("Request<{response}>"))
        }
    };
    f.doc(&op.request_doc, &[format!("@implements {generic}")]);
    f.body
        .line(&format!("final class {class} implements {interface}"));
    f.body.line("{");
    f.body.indent();
    match &op.request {
        RequestPlan::Fields(fields) => constructor(&mut f, fields, Direction::Sent),
        RequestPlan::Free { note } => {
            f.doc(
                &Doc::of([note.clone()]),
                &[
                    "@param array<string, mixed>|WireObject $params the params, sent as given"
                        .to_owned(),
                ],
            );
            f.body
                .line("public function __construct(public readonly array|WireObject $params = [])");
            f.body.line("{");
            f.body.line("}");
        }
    }
    f.body.blank();
    f.doc(
        &Doc::of([format!(
            "`{}`: its path, and whether it moves money.",
            op.wire_name
        )]),
        &["@return OperationInfo the operation".to_owned()],
    );
    f.body
        .line("public static function operation(): OperationInfo");
    f.body.line("{");
    f.body.line(&format!(
        "    return new OperationInfo({}, {}, {});",
        names::string(&op.wire_name),
        names::string(&op.path),
        op.moves_money
    ));
    f.body.line("}");
    f.body.blank();
    let lines = constraint_lines(plan, op, &mut f);
    validate_method(
        &mut f,
        plan,
        op.params(),
        &lines,
        "Records every rule of the spec these parameters break.",
    );
    f.body.blank();
    match &op.request {
        RequestPlan::Fields(fields) => to_wire_method(&mut f, fields, "The `params` to send."),
        RequestPlan::Free { .. } => {
            f.doc(
                &Doc::of(["The `params` to send.".to_owned()]),
                &["@return WireObject the params".to_owned()],
            );
            f.body.line("public function toWire(): WireObject");
            f.body.line("{");
            f.body.line("    return $this->params instanceof WireObject ? $this->params : new WireObject($this->params);");
            f.body.line("}");
        }
    }
    f.body.blank();
    decode_method(&mut f, op, &response);
    if let Some(p) = pages {
        paged_methods(&mut f, plan, op, p, &response);
    }
    f.body.dedent();
    f.body.line("}");
    f
}

fn decode_method(f: &mut PhpFile, op: &OperationPlan, response: &str) {
    f.doc(
        &Doc::of(["The answer's `data`, read.".to_owned()]),
        &[
            "@param mixed $data `data` as received".to_owned(),
            format!("@return {response} the answer"),
        ],
    );
    let declared = if response == "null" {
        "mixed"
    } else {
        response
    };
    f.body.line(&format!(
        "public function decodeResponse(mixed $data): {declared}"
    ));
    f.body.line("{");
    let body = match &op.response {
        ResponsePlan::Fields { .. } | ResponsePlan::Record { .. } => {
            format!("    return {response}::read($data, '') ?? new {response}();")
        }
        ResponsePlan::Raw { .. } => "    return $data;".to_owned(),
        ResponsePlan::Empty { .. } => "    return null;".to_owned(),
    };
    f.body.line(&body);
    f.body.line("}");
}

/// A paged request's `PagedRequest` methods.
fn paged_methods(
    f: &mut PhpFile,
    plan: &SdkPlan,
    op: &OperationPlan,
    p: &PagesCall,
    response: &str,
) {
    page_request_methods(f, op, p);
    page_answer_methods(f, plan, op, p, response);
}

/// The request's side of paging: `page()`, `withPage()` and `pageSize()`, read from its
/// page and size parameters (a page sent as text is turned into a number and back).
fn page_request_methods(f: &mut PhpFile, op: &OperationPlan, p: &PagesCall) {
    let params = op.params();
    let page = prop_of(&p.page, params);
    let size = params.iter().find(|x| x.wire_name == p.size);
    let page_text = matches!(p.page_ty, TypeRef::String);
    f.body.blank();
    f.doc(
        &Doc::of([p.paging_doc.clone()]),
        &["@return int the page number".to_owned()],
    );
    f.body.line("public function page(): int");
    f.body.line("{");
    let first = p.first_page;
    let page_param_optional = params
        .iter()
        .any(|x| x.wire_name == p.page && !x.required());
    let read = match (page_text, page_param_optional) {
        (true, true) => format!("$this->{page} === null ? {first} : (int) $this->{page}"),
        (true, false) => format!("(int) $this->{page}"),
        (false, true) => format!("$this->{page} ?? {first}"),
        (false, false) => format!("$this->{page}"),
    };
    f.body.line(&format!("    return {read};"));
    f.body.line("}");
    f.body.blank();
    f.doc(
        &Doc::of(["This request for another page.".to_owned()]),
        &[
            "@param int $page the page number".to_owned(),
            "@return static the request".to_owned(),
        ],
    );
    f.body.line("public function withPage(int $page): static");
    f.body.line("{");
    let args: Vec<String> = params
        .iter()
        .map(|x| {
            let name = names::prop(&x.wire_name, &x.words);
            if x.wire_name == p.page {
                format!(
                    "{name}: {}",
                    if page_text { "(string) $page" } else { "$page" }
                )
            } else {
                format!("{name}: $this->{name}")
            }
        })
        .collect();
    f.body
        .line(&format!("    return new static({});", args.join(", ")));
    f.body.line("}");
    f.body.blank();
    f.doc(
        &Doc::of(["The page size asked for.".to_owned()]),
        &["@return int|null the size".to_owned()],
    );
    f.body.line("public function pageSize(): ?int");
    f.body.line("{");
    let size_read = match size {
        Some(s) if matches!(s.ty, TypeRef::Int | TypeRef::Long) => {
            format!("$this->{}", names::prop(&s.wire_name, &s.words))
        }
        Some(s) => {
            let n = names::prop(&s.wire_name, &s.words);
            format!("$this->{n} === null ? null : (int) $this->{n}")
        }
        None => "null".to_owned(),
    };
    f.body.line(&format!("    return {size_read};"));
    f.body.line("}");
}

/// The answer's side of paging: `pageItems()` and `pageTotal()`.
fn page_answer_methods(
    f: &mut PhpFile,
    plan: &SdkPlan,
    op: &OperationPlan,
    p: &PagesCall,
    response: &str,
) {
    let answer = response_fields(plan, op);
    let items = prop_of(&p.items, answer);
    f.body.blank();
    let item = names::doc_type(&p.item, Direction::Received);
    f.doc(
        &Doc::of([format!("The items of a page (`{}`).", p.items)]),
        &[
            format!("@param {response} $response the page"),
            format!("@return list<{item}> its items"),
        ],
    );
    f.body
        .line("public function pageItems(mixed $response): array");
    f.body.line("{");
    f.body
        .line(&format!("    return $response->{items} ?? [];"));
    f.body.line("}");
    f.body.blank();
    f.doc(
        &Doc::of(["The total over all pages, when the answer says it.".to_owned()]),
        &[
            format!("@param {response} $response the page"),
            "@return int|null the total".to_owned(),
        ],
    );
    f.body
        .line("public function pageTotal(mixed $response): ?int");
    f.body.line("{");
    let total = match &p.total {
        Some(wire) => {
            let field = answer.iter().find(|x| &x.wire_name == wire);
            let name = prop_of(wire, answer);
            match field.map(|x| &x.ty) {
                Some(TypeRef::Int | TypeRef::Long) => format!("$response->{name}"),
                _ => format!("$response->{name} === null ? null : (int) $response->{name}"),
            }
        }
        None => "null".to_owned(),
    };
    f.body.line(&format!("    return {total};"));
    f.body.line("}");
}
