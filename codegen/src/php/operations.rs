//! Each operation's request class (implementing the runtime's `Request` or `PagedRequest`)
//! and answer class, from the plan.

use super::names;
use super::types::{self, constructor, received_class, to_wire_method, validate_method};
use super::PhpFile;
use crate::model::{Condition, ConstraintKind, ParamRef, TypeRef};
use crate::plan::{
    Direction, Doc, FieldPlan, OperationPlan, PagesCall, RequestPlan, ResponsePlan, SdkPlan, Words,
};
use crate::rules::{CheckArg, CheckLevel, CheckValue};

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

fn arg(a: &CheckArg) -> String {
    match a {
        CheckArg::Count(n) => n.to_string(),
        CheckArg::Places(n) => n.to_string(),
        CheckArg::Integer(Some(n)) => n.to_string(),
        CheckArg::Amount(Some(n)) => names::string(&n.to_string()),
        CheckArg::Integer(None) | CheckArg::Amount(None) => "null".to_owned(),
    }
}

/// A validator call on `value` at `at`.
fn call(check: &crate::rules::Check, at: &str, value: &str) -> String {
    let value = match check.value {
        CheckValue::Length => format!("count({value})"),
        CheckValue::Text | CheckValue::Integer | CheckValue::Amount => value.to_owned(),
    };
    let mut args = vec![at.to_owned(), value];
    args.extend(check.args.iter().map(arg));
    format!(
        "$v->{}({});",
        Words::of(check.method).camel(),
        args.join(", ")
    )
}

/// The checks of one sent field, written into `validate()`.
pub fn field_checks(f: &mut PhpFile, plan: &SdkPlan, field: &FieldPlan) {
    let _ = plan;
    let name = names::prop(&field.wire_name, &field.words);
    let this = format!("$this->{name}");
    let at = format!("$at->field({})", names::string(&field.wire_name));
    if field.required_text() {
        f.body.line(&format!("$v->required({at}, {this} !== '');"));
    }
    let mut lines = Vec::new();
    match &field.ty {
        TypeRef::Array { item } => {
            let mut inner = Vec::new();
            for check in field.checks.iter().filter(|c| c.level == CheckLevel::Array) {
                inner.push(call(check, &at, &this));
            }
            let mut each = Vec::new();
            if !matches!(item.as_ref(), TypeRef::Array { .. }) {
                for check in field.checks.iter().filter(|c| c.level == CheckLevel::Value) {
                    each.push(call(check, &format!("{at}->index($i)"), "$item"));
                }
                if let TypeRef::Record { .. } = item.as_ref() {
                    each.push(format!("$item->validate($v, {at}->index($i));"));
                }
            }
            if !each.is_empty() {
                inner.push(format!("foreach ({this} as $i => $item) {{"));
                inner.extend(each.into_iter().map(|l| format!("    {l}")));
                inner.push("}".to_owned());
            }
            match names::list_item_check(item) {
                Some(check) => {
                    f.runtime("Validator");
                    lines.push(format!("if ($v->listOf({at}, {this}, {check})) {{"));
                    lines.extend(inner.into_iter().map(|l| format!("    {l}")));
                    lines.push("}".to_owned());
                }
                None => lines.extend(inner),
            }
        }
        TypeRef::Record { .. } => {
            for check in &field.checks {
                lines.push(call(check, &at, &this));
            }
            lines.push(format!("{this}->validate($v, {at});"));
        }
        _ => {
            for check in &field.checks {
                lines.push(call(check, &at, &this));
            }
        }
    }
    if lines.is_empty() {
        return;
    }
    if field.required() {
        for l in lines {
            f.body.line(&l);
        }
    } else {
        f.body.line(&format!("if ({this} !== null) {{"));
        f.body.indent();
        for l in lines {
            f.body.line(&l);
        }
        f.body.dedent();
        f.body.line("}");
    }
}

/// Whether a parameter is present: set and, for text, not empty.
fn present(p: &ParamRef, fields: &[FieldPlan]) -> String {
    let name = prop_of(&p.wire_name, fields);
    match (p.optional, p.text) {
        (true, true) => format!("($this->{name} !== null && $this->{name} !== '')"),
        (true, false) => format!("$this->{name} !== null"),
        (false, true) => format!("$this->{name} !== ''"),
        (false, false) => "true".to_owned(),
    }
}

fn prop_of(wire: &str, fields: &[FieldPlan]) -> String {
    fields.iter().find(|f| f.wire_name == wire).map_or_else(
        || names::prop(wire, &Words::of(wire)),
        |f| names::prop(&f.wire_name, &f.words),
    )
}

/// A condition as a PHP expression over the request's properties.
fn condition(plan: &SdkPlan, c: &Condition, fields: &[FieldPlan], f: &mut PhpFile) -> String {
    match c {
        Condition::Equals { field, value } => {
            let name = prop_of(&field.wire_name, fields);
            let ty = fields
                .iter()
                .find(|x| x.wire_name == field.wire_name)
                .map(|x| &x.ty);
            match ty {
                Some(TypeRef::Enum { name: set }) => {
                    let integer = plan.enum_plan(set).is_some_and(|e| e.integer);
                    let literal = match value.parse::<i64>() {
                        Ok(n) if integer => n.to_string(),
                        _ => names::string(value),
                    };
                    format!("$this->{name}?->value === {literal}")
                }
                Some(TypeRef::Int | TypeRef::Long) => match value.parse::<i64>() {
                    Ok(n) => format!("$this->{name} === {n}"),
                    Err(_) => format!("(string) $this->{name} === {}", names::string(value)),
                },
                _ => format!("$this->{name} === {}", names::string(value)),
            }
        }
        Condition::SumGreaterThan { array, item, value } => {
            f.runtime("Decimal");
            let list = prop_of(&array.wire_name, fields);
            let record = fields
                .iter()
                .find(|x| x.wire_name == array.wire_name)
                .and_then(|x| match &x.ty {
                    TypeRef::Array { item } => match item.as_ref() {
                        TypeRef::Record { name, .. } => plan.record(name),
                        _ => None,
                    },
                    _ => None,
                });
            let (class, member) = match record {
                Some(r) => (
                    names::class_named(&r.name),
                    prop_of(&item.wire_name, &r.fields),
                ),
                None => (
                    "object".to_owned(),
                    names::prop(&item.wire_name, &Words::of(&item.wire_name)),
                ),
            };
            let fallback = if item.optional {
                " ?? Decimal::zero()"
            } else {
                ""
            };
            format!(
                "Decimal::sum(array_map(static fn ({class} $x): Decimal => $x->{member}{fallback}, $this->{list} ?? []))->compareTo({}) > 0",
                names::string(&value.to_string())
            )
        }
    }
}

/// The validator calls of an operation's constraints (the service's own checks have none).
fn constraint_lines(plan: &SdkPlan, op: &OperationPlan, f: &mut PhpFile) -> Vec<String> {
    let fields = op.params();
    let mut out = Vec::new();
    for c in op.constraints.iter().filter(|c| c.checked) {
        match &c.kind {
            ConstraintKind::RequiredIf { field, when } => {
                let cond = condition(plan, when, fields, f);
                let words = c.condition.clone().unwrap_or_default();
                out.push(format!(
                    "$v->requiredIf($at->field({}), {}, {cond}, {});",
                    names::string(&field.wire_name),
                    present(field, fields),
                    names::string(&words)
                ));
            }
            ConstraintKind::AtLeastOneOf { fields: set }
            | ConstraintKind::ExactlyOneOf { fields: set } => {
                let method = if matches!(c.kind, ConstraintKind::AtLeastOneOf { .. }) {
                    "atLeastOneOf"
                } else {
                    "exactlyOneOf"
                };
                let members: Vec<String> = set
                    .iter()
                    .map(|p| format!("{} => {}", names::string(&p.wire_name), present(p, fields)))
                    .collect();
                out.push(format!("$v->{method}($at, [{}]);", members.join(", ")));
            }
            ConstraintKind::ServerSide { .. } => {}
        }
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

fn paged_methods(
    f: &mut PhpFile,
    plan: &SdkPlan,
    op: &OperationPlan,
    p: &PagesCall,
    response: &str,
) {
    let params = op.params();
    let page = prop_of(&p.page, params);
    let size = params.iter().find(|x| x.wire_name == p.size);
    let answer = response_fields(plan, op);
    let items = prop_of(&p.items, answer);
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
