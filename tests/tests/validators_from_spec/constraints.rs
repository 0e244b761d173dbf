//! Every constraint across fields, exercised both ways.

use super::values::*;
use super::*;

#[test]
fn every_constraint_holds_both_ways() {
    let mut total = 0;
    for (suite, api, dispatch) in suites() {
        let checked = constraint_cases(&api, dispatch);
        // Every constraint the client checks was tried both ways, none skipped.
        let client_checked = api
            .operations()
            .flat_map(|op| &op.constraints)
            .filter(|c| !matches!(c.kind, ConstraintKind::ServerSide { .. }))
            .count();
        assert_eq!(checked, client_checked, "{suite}: constraints not tried");
        total += checked;
    }
    assert!(
        total >= 5,
        "the suites hold {total} constraints: the test lost its cases"
    );
}

/// Checks every constraint of `api` both ways; returns how many.
fn constraint_cases(api: &Api, dispatch: Dispatch) -> usize {
    let mut checked = 0;
    for op in api.operations() {
        let Params::Fields { fields } = &op.params else {
            continue;
        };
        let kinds: Vec<ConstraintKind> = op.constraints.iter().map(|c| c.kind.clone()).collect();
        let base = base_params(api, fields, &kinds);
        let find = |name: &str| fields.iter().find(|f| f.wire_name == name).expect("param");
        for kind in &kinds {
            match kind {
                ConstraintKind::RequiredIf { field, when } => {
                    let field = &field.wire_name;
                    let mut holds = base.clone();
                    match when {
                        Condition::Equals { field: cf, value } => {
                            let cf = &cf.wire_name;
                            let cfield = find(cf);
                            let v = match &cfield.ty {
                                TypeRef::Enum { name }
                                    if api.enum_def(name).expect("enum").wire_type
                                        == EnumWireType::Integer =>
                                {
                                    json!(value.parse::<i64>().expect("int"))
                                }
                                TypeRef::Int | TypeRef::Long => {
                                    json!(value.parse::<i64>().expect("int"))
                                }
                                TypeRef::Bool => json!(value == "true"),
                                _ => json!(value),
                            };
                            holds[cf.as_str()] = v;
                        }
                        Condition::SumGreaterThan { array, item, value } => {
                            let (array, item_field) = (&array.wire_name, &item.wire_name);
                            let value = &value.to_string();
                            let afield = find(array);
                            let mut element = match &afield.ty {
                                TypeRef::Array { item } => valid_scalar(api, item, &[]),
                                _ => unreachable!(),
                            };
                            let rec = match &afield.ty {
                                TypeRef::Array { item } => match item.as_ref() {
                                    TypeRef::Record { name, .. } => {
                                        api.record(name).expect("record")
                                    }
                                    _ => unreachable!(),
                                },
                                _ => unreachable!(),
                            };
                            let ifield = rec
                                .fields
                                .iter()
                                .find(|f| &f.wire_name == item_field)
                                .expect("item field");
                            let wire = wire_of(&ifield.ty);
                            // At the threshold the condition does not hold.
                            element[item_field.as_str()] = decimal(value, wire);
                            let mut at = base.clone();
                            at[array.as_str()] = json!([element.clone()]);
                            at.as_object_mut().expect("object").remove(field);
                            expect_valid(
                                dispatch,
                                &op.name,
                                &at,
                                &format!("sum of {array} at {value}, {field} absent"),
                            );
                            let x: baas_runtime::Amount = value.parse().expect("amount");
                            let past = (x + baas_runtime::Amount::new(1, 2)).expect("no overflow");
                            element[item_field.as_str()] = decimal(&past.to_string(), wire);
                            holds[array.as_str()] = json!([element]);
                        }
                    }
                    let mut with = holds.clone();
                    with[field.as_str()] = valid_value(api, find(field));
                    expect_valid(
                        dispatch,
                        &op.name,
                        &with,
                        &format!("{field} present while required"),
                    );
                    // Present but empty (a string's or a document's `""`) is absent.
                    if find(field).ty.emptiness().is_some() {
                        let mut empty = holds.clone();
                        empty[field.as_str()] = json!("");
                        expect_violation(
                            dispatch,
                            &op.name,
                            &empty,
                            field,
                            Violated::RequiredIf,
                            &format!("{field} empty while required"),
                        );
                    }
                    holds.as_object_mut().expect("object").remove(field);
                    expect_violation(
                        dispatch,
                        &op.name,
                        &holds,
                        field,
                        Violated::RequiredIf,
                        &format!("{field} absent while required"),
                    );
                }
                ConstraintKind::AtLeastOneOf { fields: names } => {
                    let names: Vec<String> = names.iter().map(|n| n.wire_name.clone()).collect();
                    let names = &names;
                    let mut none = base.clone();
                    for n in names {
                        none.as_object_mut().expect("object").remove(n);
                    }
                    let first_path = &names[0];
                    match dispatch(&op.name, &params_text(&none)) {
                        Outcome::Invalid(errors) => assert!(
                            errors
                                .violations()
                                .iter()
                                .any(|v| v.rule == Violated::AtLeastOneOf),
                            "{}: none of {names:?}: {errors}",
                            op.name
                        ),
                        Outcome::Valid => {
                            panic!("{}: none of {names:?} ({first_path}): valid", op.name)
                        }
                        Outcome::Other(other) => {
                            panic!("{}: none of {names:?} ({first_path}): {other}", op.name)
                        }
                    }
                    for n in names {
                        let mut one = none.clone();
                        one[n.as_str()] = valid_value(api, find(n));
                        expect_valid(dispatch, &op.name, &one, &format!("only {n} of {names:?}"));
                    }
                }
                ConstraintKind::ExactlyOneOf { fields: names } => {
                    let names: Vec<String> = names.iter().map(|n| n.wire_name.clone()).collect();
                    let names = &names;
                    let mut two = base.clone();
                    for n in names.iter().take(2) {
                        two[n.as_str()] = valid_value(api, find(n));
                    }
                    match dispatch(&op.name, &params_text(&two)) {
                        Outcome::Invalid(errors) => assert!(
                            errors
                                .violations()
                                .iter()
                                .any(|v| v.rule == Violated::ExactlyOneOf),
                            "{}: two of {names:?}: {errors}",
                            op.name
                        ),
                        Outcome::Valid => panic!("{}: two of {names:?}: valid", op.name),
                        Outcome::Other(other) => {
                            panic!("{}: two of {names:?}: {other}", op.name)
                        }
                    }
                }
                ConstraintKind::ServerSide { .. } => continue,
            }
            checked += 1;
        }
    }
    checked
}
