//! `paging:` of an operation (part of the operations pass), resolved against its
//! parameters (page number and size) and response (items and total).

use super::constraints::param;
use super::{Checker, Owner};
use crate::model::{self, Field, Params, Requirement, Response, TypeRef};
use crate::spec_file::{PagingSpec, Spanned};

/// Resolves `paging:` against the operation's parameters and response; `None` when some
/// part does not resolve (reported).
pub(super) fn paging(
    ck: &mut Checker,
    p: &Spanned<PagingSpec>,
    params: &Params,
    response: &Response,
    owner: &Owner,
) -> Option<model::Paging> {
    let spec = &p.value;
    let page = number_param(ck, params, &spec.page, "page", owner);
    let size = number_param(ck, params, &spec.size, "size", owner);
    let fields = match response {
        Response::Fields { fields, .. } => Some(fields.as_slice()),
        _ => None,
    };
    let items = match &spec.items {
        None => {
            ck.incomplete(
                &p.loc,
                format!("`paging` of {owner} names no `items`, so its client would have no pager"),
                "show the response (`fields:`) and name the array field that holds a page with `items:`".into(),
            );
            None
        }
        Some(name) => Some(items(ck, fields, name, owner)?),
    };
    let total = match &spec.total {
        None => None,
        Some(name) => Some(total(ck, fields, name, owner)?),
    };
    let first_page = match &spec.first_page {
        None => 1,
        Some(n) => match i64::try_from(n.value) {
            Ok(v) => v,
            Err(_) => {
                ck.error(
                    &n.loc,
                    format!("`first_page` of {owner} is too large"),
                    Some("pages are numbered from 0 or 1".into()),
                );
                return None;
            }
        },
    };
    Some(model::Paging {
        page: page?,
        size: size?,
        first_page,
        items,
        total,
    })
}

/// The page number or size: a required int, long or digit-string parameter.
fn number_param(
    ck: &mut Checker,
    params: &Params,
    name: &Spanned<String>,
    role: &str,
    owner: &Owner,
) -> Option<model::PagingField> {
    let f = param(ck, params, name, owner, &format!("`paging: {{ {role} }}`"))?;
    let fits = matches!(f.ty, TypeRef::Int | TypeRef::Long | TypeRef::String);
    if !fits || f.required != Requirement::Required {
        ck.error(
            &name.loc,
            format!(
                "`paging: {{ {role}: {} }}` of {owner} names a parameter that is not a required int, long or string",
                name.value
            ),
            Some("the page number and size are required integer (or digit string) parameters".into()),
        );
        return None;
    }
    Some(model::PagingField {
        wire_name: f.wire_name.clone(),
        rust_name: f.rust_name.clone(),
        ty: f.ty.clone(),
    })
}

/// The listed response field `name` (for `role`), reported when there is none.
fn response_field<'r>(
    ck: &mut Checker,
    fields: Option<&'r [Field]>,
    name: &Spanned<String>,
    role: &str,
    owner: &Owner,
) -> Option<&'r Field> {
    let Some(fields) = fields else {
        ck.error(
            &name.loc,
            format!("`paging: {{ {role} }}` of {owner} names a response field, but the response has no listed fields"),
            Some("leave `items` and `total` out while the response is not shown".into()),
        );
        return None;
    };
    let found = fields.iter().find(|f| f.wire_name == name.value);
    if found.is_none() {
        let help = match crate::diagnostics::suggest::did_you_mean(
            &name.value,
            fields.iter().map(|f| f.wire_name.as_str()),
        ) {
            Some(m) => format!("did you mean `{m}`?"),
            None => "name a field of the response".into(),
        };
        ck.error(
            &name.loc,
            format!(
                "`paging: {{ {role}: {} }}` of {owner} is not a response field",
                name.value
            ),
            Some(help),
        );
    }
    found
}

/// `items`: the response array holding a page.
fn items(
    ck: &mut Checker,
    fields: Option<&[Field]>,
    name: &Spanned<String>,
    owner: &Owner,
) -> Option<model::PagingItems> {
    let f = response_field(ck, fields, name, "items", owner)?;
    match &f.ty {
        TypeRef::Array { item } => Some(model::PagingItems {
            wire_name: f.wire_name.clone(),
            rust_name: f.rust_name.clone(),
            item: (**item).clone(),
        }),
        _ => {
            ck.error(
                &name.loc,
                format!(
                    "`paging: {{ items: {} }}` of {owner} is not an array field",
                    name.value
                ),
                Some("`items` names the response array that holds a page".into()),
            );
            None
        }
    }
}

/// `total`: the int or long response field counting every item.
fn total(
    ck: &mut Checker,
    fields: Option<&[Field]>,
    name: &Spanned<String>,
    owner: &Owner,
) -> Option<model::PagingField> {
    let f = response_field(ck, fields, name, "total", owner)?;
    if !matches!(f.ty, TypeRef::Int | TypeRef::Long) {
        ck.error(
            &name.loc,
            format!(
                "`paging: {{ total: {} }}` of {owner} is not an int or long field",
                name.value
            ),
            Some("`total` names the response field counting every item".into()),
        );
        return None;
    }
    Some(model::PagingField {
        wire_name: f.wire_name.clone(),
        rust_name: f.rust_name.clone(),
        ty: f.ty.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, operations_of};

    fn check(paging: &str, response: &str) -> (Option<model::Paging>, Vec<String>) {
        let (mut groups, ck) = operations_of(&format!(
            "group: g\noperations:\n  - name: list\n    path: /list\n    params:\n      - {{ name: pageNo, type: int, required: true }}\n      - {{ name: pageSize, type: string, required: true }}\n      - {{ name: maybe, type: int }}\n    response: {response}\n    paging: {paging}\n"
        ));
        let op = groups.remove(0).operations.remove(0);
        (op.paging, errors(&ck))
    }

    const RESPONSE: &str = "{ fields: [{ name: rows, type: \"array<Item>\" }, { name: total, type: long }, { name: label, type: string }] }";

    #[test]
    fn parameters_and_response_fields_resolve() {
        let (p, errors) = check(
            "{ page: pageNo, size: pageSize, items: rows, total: total, first_page: 0 }",
            RESPONSE,
        );
        assert!(errors.is_empty(), "{errors:?}");
        let p = p.expect("paging");
        assert_eq!(
            (p.page.rust_name.as_str(), p.size.ty.clone()),
            ("page_no", TypeRef::String)
        );
        assert_eq!(p.first_page, 0);
        assert_eq!(p.items.map(|i| i.rust_name).as_deref(), Some("rows"));
        assert_eq!(p.total.map(|t| t.wire_name).as_deref(), Some("total"));
        let (p, _) = check("{ page: pageNo, size: pageSize }", "{ empty: e }");
        assert_eq!(
            p.map(|p| p.first_page),
            Some(1),
            "pages count from 1 unless told"
        );
    }

    #[test]
    fn mismatches_are_reported() {
        let (p, errors) = check("{ page: maybe, size: pageSize, items: label }", RESPONSE);
        assert!(p.is_none());
        assert_eq!(
            errors,
            [
                "s/t.yaml:10:21: `paging: { page: maybe }` of operation `list` names a parameter that is not a required int, long or string",
                "s/t.yaml:10:51: `paging: { items: label }` of operation `list` is not an array field",
            ]
        );
        let (p, errors) = check("{ page: pageNo, size: pageSize, total: totl }", RESPONSE);
        assert!(p.is_none());
        assert_eq!(
            errors,
            [
                "s/t.yaml:10:13: `paging` of operation `list` names no `items`, so its client would have no pager",
                "s/t.yaml:10:52: `paging: { total: totl }` of operation `list` is not a response field",
            ]
        );
    }
}
