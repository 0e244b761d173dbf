//! The `constraints:` of an operation (part of the operations pass): each names
//! parameters of its operation; `required_if` conditions compare a parameter with a
//! value, or a sum over an array of records with a number; a `required: conditional`
//! parameter is named by some constraint.

use std::collections::BTreeSet;

use super::known::Known;
use super::types::type_text;
use super::{Checker, Owner};
use crate::model::{
    self, Condition, Constraint, ConstraintKind, EnumWireType, Field, ParamRef, Params,
    Requirement, TypeRef,
};
use crate::spec_file::{ConstraintBody, ConstraintSpec, RequiredIfSpec, ServerSideSpec, Spanned};

/// The checked constraints of an operation whose parameters are `params`.
pub(super) fn constraints(
    ck: &mut Checker,
    known: Known<'_>,
    list: &[Spanned<ConstraintSpec>],
    params: &Params,
    owner: &Owner,
) -> Vec<Constraint> {
    let mut out = Vec::new();
    for c in list {
        let Some(body) = constraint_body(ck, c, owner) else {
            continue;
        };
        let kind = if let Some(ri) = body.required_if {
            required_if(ck, known, &ri.value, params, owner)
        } else if let Some(l) = body.at_least_one_of {
            field_set(ck, l, params, owner, "at_least_one_of")
                .map(|fields| ConstraintKind::AtLeastOneOf { fields })
        } else if let Some(l) = body.exactly_one_of {
            field_set(ck, l, params, owner, "exactly_one_of")
                .map(|fields| ConstraintKind::ExactlyOneOf { fields })
        } else if let Some(ss) = body.server_side {
            let mut fields = Vec::new();
            for f in &ss.value.fields {
                param(ck, params, f, owner, "`server_side`");
                fields.push(f.value.clone());
            }
            if ss.value.text.trim().is_empty() {
                ck.error(
                    &ss.loc,
                    format!("`server_side` constraint of {owner} has no text"),
                    Some("say what the service checks".into()),
                );
            }
            Some(ConstraintKind::ServerSide {
                fields,
                text: ss.value.text.clone(),
            })
        } else {
            None
        };
        let s = &c.value;
        let decisions = ck.decisions_of(&s.decisions, &format!("a constraint of {owner}"));
        if let Some(kind) = kind {
            out.push(Constraint {
                kind,
                source: s.source.map_or(model::Source::Seed, Into::into),
                doc: s.doc.clone().unwrap_or_default(),
                decisions,
                location: c.loc.clone(),
            });
        }
    }
    out
}

/// Which body a constraint item uses, or `None` after reporting a malformed item.
fn constraint_body<'a>(
    ck: &mut Checker,
    c: &'a Spanned<ConstraintSpec>,
    owner: &Owner,
) -> Option<ConstraintRef<'a>> {
    let s = &c.value;
    let inline = ConstraintRef {
        required_if: s.required_if.as_ref(),
        at_least_one_of: s.at_least_one_of.as_ref(),
        exactly_one_of: s.exactly_one_of.as_ref(),
        server_side: s.server_side.as_ref(),
    };
    let body = match &s.constraint {
        Some(body) => {
            if inline.count() > 0 {
                ck.error(
                    &c.loc,
                    format!("constraint of {owner} mixes `constraint:` with a constraint key"),
                    Some("in the long form, put the constraint under `constraint:` only".into()),
                );
                return None;
            }
            ConstraintRef::of(&body.value)
        }
        None => {
            if s.source.is_some() || s.doc.is_some() || s.decisions.is_some() {
                ck.error(&c.loc, format!("constraint of {owner} has `source:`/`doc:`/`decisions:` without `constraint:`"), Some("write the long form: `- constraint: { ... }` then `source:`/`doc:`/`decisions:`".into()));
                return None;
            }
            inline
        }
    };
    if body.count() != 1 {
        ck.error(
            &c.loc,
            format!("a constraint item of {owner} must hold exactly one of `required_if`, `at_least_one_of`, `exactly_one_of`, `server_side` (found {})", body.count()),
            Some("write each constraint as its own list item".into()),
        );
        return None;
    }
    Some(body)
}

struct ConstraintRef<'a> {
    required_if: Option<&'a Spanned<RequiredIfSpec>>,
    at_least_one_of: Option<&'a Spanned<Vec<Spanned<String>>>>,
    exactly_one_of: Option<&'a Spanned<Vec<Spanned<String>>>>,
    server_side: Option<&'a Spanned<ServerSideSpec>>,
}

impl<'a> ConstraintRef<'a> {
    fn of(b: &'a ConstraintBody) -> Self {
        ConstraintRef {
            required_if: b.required_if.as_ref(),
            at_least_one_of: b.at_least_one_of.as_ref(),
            exactly_one_of: b.exactly_one_of.as_ref(),
            server_side: b.server_side.as_ref(),
        }
    }
    fn count(&self) -> usize {
        usize::from(self.required_if.is_some())
            + usize::from(self.at_least_one_of.is_some())
            + usize::from(self.exactly_one_of.is_some())
            + usize::from(self.server_side.is_some())
    }
}

/// The parameter `name` of the operation, for `role`; reported when there is none.
pub(super) fn param<'f>(
    ck: &mut Checker,
    params: &'f Params,
    name: &Spanned<String>,
    owner: &Owner,
    role: &str,
) -> Option<&'f Field> {
    match params {
        Params::Unspecified { .. } => {
            ck.error(
                &name.loc,
                format!(
                    "{role} names `{}`, but the parameters of {owner} are unspecified",
                    name.value
                ),
                Some("list the parameters, or remove the constraint".into()),
            );
            None
        }
        Params::Fields { fields } => {
            let found = fields.iter().find(|f| f.wire_name == name.value);
            if found.is_none() {
                let help = match crate::diagnostics::suggest::did_you_mean(
                    &name.value,
                    fields.iter().map(|f| f.wire_name.as_str()),
                ) {
                    Some(m) => format!(
                        "did you mean `{m}`? a constraint names parameters of its operation"
                    ),
                    None => format!("name a parameter of {owner}"),
                };
                ck.error(
                    &name.loc,
                    format!(
                        "{role} names `{}`, which is not a parameter of {owner}",
                        name.value
                    ),
                    Some(help),
                );
            }
            found
        }
    }
}

fn field_set(
    ck: &mut Checker,
    l: &Spanned<Vec<Spanned<String>>>,
    params: &Params,
    owner: &Owner,
    key: &str,
) -> Option<Vec<ParamRef>> {
    let mut ok = true;
    let mut names_: Vec<ParamRef> = Vec::new();
    for n in &l.value {
        if names_.iter().any(|p| p.wire_name == n.value) {
            ck.error(
                &n.loc,
                format!("`{key}` of {owner} names `{}` twice", n.value),
                Some("name each field once".into()),
            );
            ok = false;
        }
        match param(ck, params, n, owner, &format!("`{key}`")) {
            Some(f) => {
                if f.required == Requirement::Required {
                    ck.warn(
                        &n.loc,
                        format!("`{key}` of {owner} names `{}`, which is `required: true`", n.value),
                        "a required field is always present; make it `required: conditional` or drop the constraint",
                    );
                }
                names_.push(param_ref(f));
            }
            None => ok = false,
        }
    }
    if l.value.len() < 2 {
        ck.error(
            &l.loc,
            format!("`{key}` of {owner} names fewer than two fields"),
            Some("name at least two parameters".into()),
        );
        ok = false;
    }
    ok.then_some(names_)
}

/// The resolved reference to a parameter, for the emitter.
pub(super) fn param_ref(f: &Field) -> ParamRef {
    ParamRef {
        wire_name: f.wire_name.clone(),
        rust_name: f.rust_name.clone(),
        optional: f.optional_when_sent(),
        empty: f.ty.emptiness(),
    }
}

/// `required_if`: the target parameter, required when the condition holds.
fn required_if(
    ck: &mut Checker,
    known: Known<'_>,
    ri: &RequiredIfSpec,
    params: &Params,
    owner: &Owner,
) -> Option<ConstraintKind> {
    let target = param(ck, params, &ri.field, owner, "`required_if`");
    let w = &ri.when.value;
    let cond = match (&w.field, &w.equals, &w.sum, &w.greater_than) {
        (Some(field), Some(value), None, None) => equals(ck, known, field, value, params, owner)?,
        (None, None, Some(sum), Some(gt)) => sum_greater_than(ck, known, sum, gt, params, owner)?,
        _ => {
            ck.error(&ri.when.loc, format!("`when:` of a `required_if` of {owner} must be `{{ field, equals }}` or `{{ sum, greater_than }}`"), Some("e.g. `when: { field: beneficiaryType, equals: \"1\" }`".into()));
            return None;
        }
    };
    if let Some(t) = target {
        if t.required == Requirement::Required {
            let loc = ri.field.loc.clone();
            ck.warn(
                &loc,
                format!(
                    "`required_if` of {owner} targets `{}`, which is `required: true`",
                    ri.field.value
                ),
                "a required field is always present; make it `required: conditional`",
            );
        }
    }
    target.map(|t| ConstraintKind::RequiredIf {
        field: param_ref(t),
        when: cond,
    })
}

/// `when: { field, equals }`: a string or enum parameter compared with a wire value (an
/// enum's, in the enum's own spelling).
fn equals(
    ck: &mut Checker,
    known: Known<'_>,
    field: &Spanned<String>,
    value: &Spanned<String>,
    params: &Params,
    owner: &Owner,
) -> Option<Condition> {
    let f = param(ck, params, field, owner, "`required_if` condition")?;
    let mut wire_value = value.value.clone();
    match &f.ty {
        TypeRef::String => {}
        TypeRef::Enum { name } => {
            if let Some(info) = known.declared.enums.get(name) {
                let matched = info.wires.iter().find(|w| {
                    **w == value.value
                        || (info.wire_type == EnumWireType::Integer
                            && w.parse::<i64>()
                                .ok()
                                .is_some_and(|a| value.value.parse::<i64>().ok() == Some(a)))
                });
                if let Some(w) = matched {
                    // Compared with the enum's own wire text (`01` means `1`).
                    wire_value = w.clone();
                } else {
                    let list = info.wires.join(", ");
                    ck.error(
                        &value.loc,
                        format!(
                            "`equals: {}` is not a value of enum `{name}` (field `{}` of {owner})",
                            value.value, field.value
                        ),
                        Some(format!("use one of its wire values: {list}")),
                    );
                    return None;
                }
            }
        }
        other => {
            ck.error(
                &field.loc,
                format!(
                    "`required_if` compares field `{}` of {owner}, of type `{}`, with `equals`",
                    field.value,
                    type_text(other)
                ),
                Some("`equals` compares a string or enum parameter with a wire value".into()),
            );
            return None;
        }
    }
    Some(Condition::Equals {
        field: param_ref(f),
        value: wire_value,
    })
}

/// `when: { sum, greater_than }`: a decimal field added over an array-of-record
/// parameter, compared with an exact number.
fn sum_greater_than(
    ck: &mut Checker,
    known: Known<'_>,
    sum: &Spanned<String>,
    gt: &Spanned<String>,
    params: &Params,
    owner: &Owner,
) -> Option<Condition> {
    let Some((array, item)) = sum.value.split_once("[].") else {
        ck.error(
            &sum.loc,
            format!(
                "`sum: {}` of {owner} is not of the form `array[].field`",
                sum.value
            ),
            Some("write e.g. `sum: \"oderArray[].amount\"`".into()),
        );
        return None;
    };
    let arr = Spanned {
        loc: sum.loc.clone(),
        value: array.to_owned(),
    };
    let f = param(ck, params, &arr, owner, "`sum`")?;
    let array_ref = param_ref(f);
    let record_of_items = match &f.ty {
        TypeRef::Array { item: inner } => match inner.as_ref() {
            TypeRef::Record { name, .. } => Some(name.clone()),
            _ => None,
        },
        _ => None,
    };
    let Some(rec) = record_of_items else {
        ck.error(
            &sum.loc,
            format!("`sum` over `{array}` of {owner}, which is not an array of records"),
            Some(
                "`sum` adds a decimal field over the elements of an array-of-record parameter"
                    .into(),
            ),
        );
        return None;
    };
    let item_ref = match known.records.field(&rec, item) {
        Some(item_field) if matches!(item_field.ty, TypeRef::Decimal { .. }) => {
            param_ref(item_field)
        }
        Some(other) => {
            ck.error(
                &sum.loc,
                format!(
                    "`sum` adds `{item}` of record `{rec}`, of type `{}`, not decimal",
                    type_text(&other.ty)
                ),
                Some("`sum` adds a decimal field".into()),
            );
            return None;
        }
        None => {
            ck.error(
                &sum.loc,
                format!("`sum` names `{item}`, which is not a field of record `{rec}`"),
                Some(format!("name a decimal field of `{rec}`")),
            );
            return None;
        }
    };
    let Ok(threshold) = crate::model::Number::parse(&gt.value) else {
        ck.error(
            &gt.loc,
            format!(
                "`greater_than: {}` of {owner} is not a decimal number",
                gt.value
            ),
            Some("write digits with an optional `-` and `.` (at most 18 significant digits), e.g. \"70000\"".into()),
        );
        return None;
    };
    Some(Condition::SumGreaterThan {
        array: array_ref,
        item: item_ref,
        value: threshold,
    })
}

/// Every `required: conditional` parameter is named by a constraint.
pub(super) fn conditional_backed(
    ck: &mut Checker,
    fields: &[Field],
    constraints: &[Constraint],
    owner: &Owner,
) {
    let named: BTreeSet<&str> = constraints
        .iter()
        .flat_map(|c| match &c.kind {
            ConstraintKind::RequiredIf { field, .. } => vec![field.wire_name.as_str()],
            ConstraintKind::AtLeastOneOf { fields } | ConstraintKind::ExactlyOneOf { fields } => {
                fields.iter().map(|f| f.wire_name.as_str()).collect()
            }
            ConstraintKind::ServerSide { .. } => Vec::new(),
        })
        .collect();
    for f in fields {
        if f.required == Requirement::Conditional && !named.contains(f.wire_name.as_str()) {
            ck.error(
                &f.location,
                format!("field `{}` of {owner} is `required: conditional`, but no constraint names it", f.wire_name),
                Some(format!("add a `required_if`, `at_least_one_of` or `exactly_one_of` constraint naming `{}`, or make it `required: true`/`false`", f.wire_name)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, operations_of, warnings};

    const PARAMS: &str = "
    params:
      - { name: status, type: Status, required: true }
      - { name: kind, type: Kind }
      - { name: count, type: int }
      - { name: items, type: \"array<Item>\" }
      - { name: note, type: string, required: conditional }
      - { name: userId, type: string, required: conditional }
      - { name: mobile, type: string }
      - { name: loose, type: string, required: conditional }";

    /// The constraints (YAML list items under `constraints:`) of an operation with
    /// [`PARAMS`], checked: the constraints kept, errors and warnings.
    fn check(constraints: &str) -> (Vec<ConstraintKind>, Vec<String>, Vec<String>) {
        let (mut groups, ck) = operations_of(&format!(
            "group: g\noperations:\n  - name: op\n    path: /op\n    response: {{ empty: e }}{PARAMS}\n    constraints:\n{constraints}"
        ));
        let op = groups.remove(0).operations.remove(0);
        let kinds = op.constraints.into_iter().map(|c| c.kind).collect();
        (kinds, errors(&ck), warnings(&ck))
    }

    #[test]
    fn conditions_resolve_to_parameters_and_exact_values() {
        let (kinds, errors, _) = check(
            "      - required_if: { field: note, when: { field: status, equals: \"01\" } }\n      - required_if: { field: note, when: { sum: \"items[].amount\", greater_than: \"70000.50\" } }\n      - at_least_one_of: [userId, mobile]\n      - required_if: { field: loose, when: { field: kind, equals: B } }\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let ConstraintKind::RequiredIf {
            field,
            when: Condition::Equals { value, .. },
        } = &kinds[0]
        else {
            panic!("{:?}", kinds[0]);
        };
        assert_eq!((field.rust_name.as_str(), value.as_str()), ("note", "1"));
        let ConstraintKind::RequiredIf {
            when: Condition::SumGreaterThan { array, item, value },
            ..
        } = &kinds[1]
        else {
            panic!("{:?}", kinds[1]);
        };
        assert_eq!(
            (array.wire_name.as_str(), item.wire_name.as_str()),
            ("items", "amount")
        );
        assert_eq!(value.to_string(), "70000.5");
        assert!(matches!(&kinds[2], ConstraintKind::AtLeastOneOf { fields } if fields.len() == 2));
    }

    #[test]
    fn wrong_names_and_values_are_reported() {
        let (kinds, errors, warnings) = check(
            "      - required_if: { field: status, when: { field: status, equals: \"7\" } }\n      - required_if: { field: note, when: { sum: \"items[].label\", greater_than: \"1\" } }\n      - exactly_one_of: [userId]\n      - server_side: { fields: [mobil], text: checked }\n      - required_if: { field: status, when: { field: kind, equals: A } }\n",
        );
        assert_eq!(
            kinds.len(),
            2,
            "server_side and the last required_if are kept"
        );
        assert_eq!(
            errors,
            [
                "s/t.yaml:16:70: `equals: 7` is not a value of enum `Status` (field `status` of operation `op`)",
                "s/t.yaml:17:50: `sum` adds `label` of record `Item`, of type `string`, not decimal",
                "s/t.yaml:18:25: `exactly_one_of` of operation `op` names fewer than two fields",
                "s/t.yaml:19:33: `server_side` names `mobil`, which is not a parameter of operation `op`",
                // A constraint that does not resolve names no parameter.
                "s/t.yaml:11:9: field `note` of operation `op` is `required: conditional`, but no constraint names it",
                "s/t.yaml:12:9: field `userId` of operation `op` is `required: conditional`, but no constraint names it",
                "s/t.yaml:14:9: field `loose` of operation `op` is `required: conditional`, but no constraint names it",
            ]
        );
        assert_eq!(
            warnings,
            ["s/t.yaml:20:31: `required_if` of operation `op` targets `status`, which is `required: true`"]
        );
    }
}
