//! Each operation's request (an `Operation` the runtime runs: staged builder, checks,
//! writing, paging) and response (`com.baas.client.<group>`).

use super::names::{self, doc_paragraphs, string_literal, type_name};
use super::shape::{self, JField};
use super::types::received_members;
use super::{class_file, Ctx};
use crate::model::{Condition, ConstraintKind, ParamRef, TypeRef};
use crate::plan::{Direction, OperationPlan, RequestPlan, ResponsePlan};
use crate::text::Out;

/// The Java names of an operation's types.
pub struct OpNames {
    pub package: String,
    pub request: String,
    pub response: String,
    /// The Java type the client returns (`Void`, `JsonValue`, a record, the response).
    pub returns: String,
    /// The paged item type, when the operation pages.
    pub item: Option<String>,
}

pub fn op_names(ctx: &Ctx<'_>, op: &OperationPlan) -> OpNames {
    let stem = op.type_words.pascal();
    let package = format!("{}.{}", super::ROOT_PACKAGE, ctx.group_package(&op.group));
    let response = format!("{stem}Response");
    let returns = match &op.response {
        ResponsePlan::Fields { .. } => response.clone(),
        ResponsePlan::Record { received_name, .. } => type_name(received_name),
        ResponsePlan::Raw { .. } => "JsonValue".to_owned(),
        ResponsePlan::Empty { .. } => "Void".to_owned(),
    };
    OpNames {
        package,
        request: format!("{stem}Request"),
        response,
        returns,
        item: op
            .calls
            .pages
            .as_ref()
            .map(|p| names::java_type(&p.item, Direction::Received)),
    }
}

/// The files of one operation.
pub fn files(ctx: &Ctx<'_>, op: &OperationPlan) -> Vec<crate::artifact::EmittedFile> {
    let n = op_names(ctx, op);
    let mut files = vec![class_file(&n.package, &n.request, request(ctx, op, &n))];
    if let ResponsePlan::Fields { fields, doc } = &op.response {
        let fields = shape::fields(fields, Direction::Received);
        let mut out = Out::new("    ");
        out.line(&format!("package {};", n.package));
        out.blank();
        let mut d = doc.clone();
        d.push("Immutable.");
        out.block_doc(&doc_paragraphs(&d), 92);
        out.line(&format!("public final class {} {{", n.response));
        out.indent();
        shape::declare(&mut out, &fields);
        shape::constructor(&mut out, &n.response, &fields);
        received_members(&mut out, &n.response, &fields);
        out.dedent();
        out.line("}");
        files.push(class_file(&n.package, &n.response, out.finish()));
    }
    files
}

fn param_type<'a>(op: &'a OperationPlan, p: &ParamRef) -> Option<&'a TypeRef> {
    op.param(&p.wire_name).map(|f| &f.ty)
}

fn var(p: &ParamRef, fields: &[JField<'_>]) -> String {
    fields
        .iter()
        .find(|f| f.plan.wire_name == p.wire_name)
        .map_or_else(
            || names::member(&crate::plan::Words::of(&p.wire_name)),
            |f| f.name.clone(),
        )
}

fn present(p: &ParamRef, fields: &[JField<'_>]) -> String {
    format!(
        "Validator.present({}, {})",
        string_literal(&p.wire_name),
        shape::present(&var(p, fields), p.empty)
    )
}

fn condition(op: &OperationPlan, c: &Condition, fields: &[JField<'_>]) -> String {
    match c {
        Condition::Equals { field, value } => {
            let v = var(field, fields);
            let lit = string_literal(value);
            match param_type(op, field) {
                Some(TypeRef::Enum { .. }) => format!("{v} != null && {v}.wire().equals({lit})"),
                Some(TypeRef::String) | None => format!("{lit}.equals({v})"),
                Some(_) => format!("{v} != null && String.valueOf({v}).equals({lit})"),
            }
        }
        Condition::SumGreaterThan { array, item, value } => {
            let a = var(array, fields);
            let getter = names::member(&crate::plan::Words::of(&item.wire_name));
            let read = if item.optional {
                format!("e.{getter}().orElse(null)")
            } else {
                format!("e.{getter}()")
            };
            format!(
                "{a} != null && {a}.stream().filter(Objects::nonNull).map(e -> {read}).filter(Objects::nonNull).reduce(BigDecimal.ZERO, BigDecimal::add).compareTo(new BigDecimal(\"{value}\")) > 0"
            )
        }
    }
}

/// The request class of an operation: its constants, fields (or free params), builder,
/// and the `Operation` methods the runtime calls.
fn request(ctx: &Ctx<'_>, op: &OperationPlan, n: &OpNames) -> String {
    let class = &n.request;
    let mut out = Out::new("    ");
    out.line(&format!("package {};", n.package));
    out.blank();
    out.block_doc(&doc_paragraphs(&op.request_doc), 92);
    if op.request_doc.deprecated.is_some() {
        out.line("@Deprecated");
    }
    let iface = match (&op.calls.pages, &n.item) {
        (Some(_), Some(item)) => format!("PagedOperation<{}, {item}>", n.returns),
        _ => format!("Operation<{}>", n.returns),
    };
    out.line(&format!("public final class {class} implements {iface} {{"));
    out.indent();
    out.block_doc(&["The operation's spec name.".to_owned()], 92);
    out.line(&format!(
        "public static final String OPERATION = {};",
        string_literal(&op.wire_name)
    ));
    out.block_doc(&["The operation's wire path.".to_owned()], 92);
    out.line(&format!(
        "public static final String PATH = {};",
        string_literal(&op.path)
    ));
    out.blank();
    let fields: Vec<JField<'_>> = match &op.request {
        RequestPlan::Fields(f) => shape::fields(f, Direction::Sent),
        RequestPlan::Free { .. } => Vec::new(),
    };
    if let RequestPlan::Free { note } = &op.request {
        free_params(&mut out, class, note);
    } else {
        shape::declare(&mut out, &fields);
        shape::constructor(&mut out, class, &fields);
        shape::builder(&mut out, class, &fields);
        shape::getters(&mut out, &fields, Direction::Sent);
    }
    // Operation
    for (sig, body) in [
        (
            "public String operationName()",
            "return OPERATION;".to_owned(),
        ),
        ("public String operationPath()", "return PATH;".to_owned()),
        (
            "public boolean movesMoney()",
            format!("return {};", op.moves_money),
        ),
    ] {
        out.blank();
        out.line("@Override");
        out.line(&format!("{sig} {{"));
        out.line(&format!("    {body}"));
        out.line("}");
    }
    validate_method(&mut out, op, &fields);
    out.blank();
    out.line("@Override");
    out.line("public void writeParams(JsonWriter w) {");
    out.indent();
    if fields.is_empty() && matches!(op.request, RequestPlan::Free { .. }) {
        out.line("w.json(params);");
    } else {
        shape::write_fields(&mut out, ctx, &fields);
    }
    out.dedent();
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line(&format!(
        "public {} decodeResponse(JsonValue data) {{",
        n.returns
    ));
    match &op.response {
        ResponsePlan::Fields { .. } | ResponsePlan::Record { .. } => {
            out.line(&format!("    return {}.decode(data, \"data\");", n.returns))
        }
        ResponsePlan::Raw { .. } => out.line("    return data;"),
        ResponsePlan::Empty { .. } => out.line("    return null;"),
    }
    out.line("}");
    if let (Some(p), Some(item)) = (&op.calls.pages, &n.item) {
        paging(&mut out, class, &fields, p, item, &n.returns);
    }
    if fields.is_empty() {
        params_value_methods(&mut out, class);
    } else {
        shape::value_methods(&mut out, class, &fields);
    }
    out.dedent();
    out.line("}");
    out.finish()
}

/// A free-params request's field, constructor, `of(params)` and `params()`: the object
/// is sent as given.
fn free_params(out: &mut Out, class: &str, note: &str) {
    out.line("private final JsonValue.JsonObject params;");
    out.blank();
    out.line(&format!("private {class}(JsonValue.JsonObject params) {{"));
    out.line("    this.params = Objects.requireNonNull(params, \"params\");");
    out.line("}");
    out.blank();
    out.block_doc(
        &[
            names::javadoc(note),
            "@param params the params object, sent as given\n@return the request".to_owned(),
        ],
        92,
    );
    out.line(&format!(
        "public static {class} of(JsonValue.JsonObject params) {{"
    ));
    out.line(&format!("    return new {class}(params);"));
    out.line("}");
    out.blank();
    out.block_doc(&["The params.".to_owned(), "@return them".to_owned()], 92);
    out.line("public JsonValue.JsonObject params() {");
    out.line("    return params;");
    out.line("}");
}

/// `validate(Validator)`: each field's rules, then the operation's client-checked
/// constraints (required-if, at-least-one-of, exactly-one-of).
fn validate_method(out: &mut Out, op: &OperationPlan, fields: &[JField<'_>]) {
    out.blank();
    out.line("@Override");
    out.line("public void validate(Validator v) {");
    out.indent();
    if !fields.is_empty() {
        out.line("FieldPath at = FieldPath.ROOT;");
        shape::validate_fields(out, fields);
        for c in op.constraints.iter().filter(|c| c.checked) {
            match &c.kind {
                ConstraintKind::RequiredIf { field, when } => out.line(&format!(
                    "v.requiredIf(at.field({}), {}, {}, {});",
                    string_literal(&field.wire_name),
                    shape::present(&var(field, fields), field.empty),
                    condition(op, when, fields),
                    string_literal(c.condition.as_deref().unwrap_or(""))
                )),
                ConstraintKind::AtLeastOneOf { fields: ps }
                | ConstraintKind::ExactlyOneOf { fields: ps } => {
                    let method = if matches!(c.kind, ConstraintKind::AtLeastOneOf { .. }) {
                        "atLeastOneOf"
                    } else {
                        "exactlyOneOf"
                    };
                    let args: Vec<String> = ps.iter().map(|p| present(p, fields)).collect();
                    out.line(&format!("v.{method}(at, {});", args.join(", ")));
                }
                ConstraintKind::ServerSide { .. } => {}
            }
        }
    }
    out.dedent();
    out.line("}");
}

/// `equals`, `hashCode` and `toString` of a request without fields, over its params.
fn params_value_methods(out: &mut Out, class: &str) {
    out.blank();
    out.line("@Override");
    out.line("public boolean equals(Object other) {");
    out.line(&format!(
        "    return other instanceof {class} o && o.params.equals(params);"
    ));
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line("public int hashCode() {");
    out.line("    return params.hashCode();");
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line("public String toString() {");
    out.line(&format!("    return \"{class}[\" + params + \"]\";"));
    out.line("}");
}

fn number_of(ty: &TypeRef, expr: &str) -> String {
    match ty {
        TypeRef::String => format!("Integer.parseInt({expr})"),
        TypeRef::Long => format!("Math.toIntExact({expr})"),
        _ => expr.to_owned(),
    }
}

fn paging(
    out: &mut Out,
    class: &str,
    fields: &[JField<'_>],
    p: &crate::plan::PagesCall,
    item: &str,
    returns: &str,
) {
    let field = |wire: &str| fields.iter().find(|f| f.plan.wire_name == wire);
    let Some(page) = field(&p.page) else { return };
    out.blank();
    out.line("@Override");
    out.line("public int pageNumber() {");
    out.line(&format!(
        "    return {0} == null ? {1} : {2};",
        page.name,
        p.first_page,
        number_of(&page.plan.ty, &page.name)
    ));
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line(&format!("public {class} withPageNumber(int page) {{"));
    let value = match page.plan.ty {
        TypeRef::String => "Integer.toString(page)",
        TypeRef::Long => "(long) page",
        _ => "page",
    };
    let args: Vec<String> = fields
        .iter()
        .map(|f| {
            if f.name == page.name {
                value.to_owned()
            } else {
                f.name.clone()
            }
        })
        .collect();
    out.line(&format!("    return new {class}({});", args.join(", ")));
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line("public OptionalInt requestedPageSize() {");
    match field(&p.size) {
        Some(size) => out.line(&format!(
            "    return {0} == null ? OptionalInt.empty() : OptionalInt.of({1});",
            size.name,
            number_of(&size.plan.ty, &size.name)
        )),
        None => out.line("    return OptionalInt.empty();"),
    }
    out.line("}");
    out.blank();
    let items_getter = names::member(&crate::plan::Words::of(&p.items));
    out.line("@Override");
    out.line(&format!(
        "public List<{item}> pageItems({returns} response) {{"
    ));
    out.line(&format!(
        "    return response.{items_getter}().orElse(List.of());"
    ));
    out.line("}");
    out.blank();
    out.line("@Override");
    out.line(&format!(
        "public OptionalLong pageTotal({returns} response) {{"
    ));
    match &p.total {
        Some(total) => {
            let getter = names::member(&crate::plan::Words::of(total));
            out.line(&format!(
                "    return response.{getter}().map(t -> OptionalLong.of(Long.parseLong(String.valueOf(t)))).orElse(OptionalLong.empty());"
            ));
        }
        None => out.line("    return OptionalLong.empty();"),
    }
    out.line("}");
}
