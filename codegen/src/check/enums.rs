//! The values of a declared enum (part of the declare pass): variant names, wire values
//! and their uniqueness, deprecations and decisions.

use super::{names, Checker};
use crate::model::{self, EnumWireType};
use crate::spec_file::{EnumSpec, EnumValueSpec, EnumWireTypeSpec, Spanned};

/// Checks one enum (whose name is already declared): its values, names and wire values.
pub(super) fn enum_def(ck: &mut Checker, e: &Spanned<EnumSpec>) -> model::EnumDef {
    let spec = &e.value;
    let name = spec.name.value.clone();
    let what = format!("enum `{name}`");
    let wire_type = match spec.wire_type {
        EnumWireTypeSpec::String => EnumWireType::String,
        EnumWireTypeSpec::Integer => EnumWireType::Integer,
    };
    let mut values: Vec<model::EnumValue> = Vec::new();
    let mut seen_ints: Vec<(i64, String)> = Vec::new();
    if spec.values.value.is_empty() {
        ck.error(
            &spec.values.loc,
            format!("{what} has no values"),
            Some("list its values, each `{ wire: ..., name: ... }`".into()),
        );
    }
    for v in &spec.values.value {
        let vs = &v.value;
        let vname = vs.name.value.as_str();
        variant_name(ck, vs, &values, &what);
        let wire = vs.wire.value.clone();
        if wire.is_empty() {
            ck.error(
                &vs.wire.loc,
                format!("empty wire value for `{vname}` of {what}"),
                Some("write the exact value sent on the wire".into()),
            );
        }
        let integer = match wire_type {
            EnumWireType::Integer => integer_wire(ck, vs, &mut seen_ints, &what),
            EnumWireType::String => {
                if let Some(prev) = values.iter().find(|p| p.wire == wire) {
                    let prev = prev.name.clone();
                    ck.error(
                        &vs.wire.loc,
                        format!("wire value `{wire}` of {what} is used twice (also by `{prev}`)"),
                        Some("wire values are unique within an enum".into()),
                    );
                }
                None
            }
        };
        values.push(model::EnumValue {
            wire,
            name: vname.to_owned(),
            doc: vs.doc.clone().unwrap_or_default(),
            source: vs.source.map_or(model::Source::Seed, Into::into),
            integer,
            deprecated: ck.deprecation(
                vs.deprecated.as_ref(),
                &format!("value `{vname}` of {what}"),
            ),
        });
    }
    if spec.open == Some(true) && wire_type == EnumWireType::Integer {
        ck.error(
            &spec.name.loc,
            format!("{what} is `open` but its wire values are integers"),
            Some("an open set takes any text code; integer sets are closed (remove `open`)".into()),
        );
    }
    let decisions = ck.decisions_of(&spec.decisions, &what);
    model::EnumDef {
        name,
        wire_type,
        open: spec.open.unwrap_or(false),
        doc: spec.doc.clone().unwrap_or_default(),
        source: spec.source.map_or(model::Source::Seed, Into::into),
        values,
        decisions,
        location: e.loc.clone(),
    }
}

/// A variant name: UpperCamelCase, no keyword, not `Unknown`, unique among `earlier`.
fn variant_name(ck: &mut Checker, vs: &EnumValueSpec, earlier: &[model::EnumValue], what: &str) {
    let vname = vs.name.value.as_str();
    if vname == "Unknown" {
        ck.error(
            &vs.name.loc,
            format!("variant name `Unknown` in {what} is reserved"),
            Some(
                "the generator adds `Unknown` to keep unseen values; name this value otherwise"
                    .into(),
            ),
        );
    } else if !names::is_upper_camel(vname) || names::is_keyword(vname) {
        let hint = names::camel(vname);
        ck.error(
            &vs.name.loc,
            format!("variant name `{vname}` of {what} is not an UpperCamelCase Rust identifier"),
            Some(
                if names::is_identifier(&hint) && !names::is_keyword(&hint) && hint != "Unknown" {
                    format!("rename it, e.g. `{hint}`")
                } else {
                    "rename it to an UpperCamelCase identifier".into()
                },
            ),
        );
    } else if earlier.iter().any(|p| p.name == vname) {
        ck.error(
            &vs.name.loc,
            format!("variant `{vname}` of {what} is defined twice"),
            Some("variant names are unique within an enum".into()),
        );
    }
}

/// The wire value of an integer enum's value, unique among `seen` (which it joins).
fn integer_wire(
    ck: &mut Checker,
    vs: &EnumValueSpec,
    seen: &mut Vec<(i64, String)>,
    what: &str,
) -> Option<i64> {
    let wire = vs.wire.value.as_str();
    let vname = vs.name.value.as_str();
    let Ok(i) = wire.parse::<i64>() else {
        ck.error(
            &vs.wire.loc,
            format!("wire value `{wire}` of integer {what} is not an integer"),
            Some("write an integer such as `wire: 2` or `wire: -1`, or make the enum `wire_type: string`".into()),
        );
        return None;
    };
    if let Some((_, prev)) = seen.iter().find(|(p, _)| *p == i) {
        ck.error(
            &vs.wire.loc,
            format!("wire value `{wire}` of {what} is used twice (also by `{prev}`)"),
            Some("wire values are unique within an enum".into()),
        );
    }
    seen.push((i, vname.to_owned()));
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::testing::{checker, errors, file};

    fn check(yaml: &str) -> (model::EnumDef, Vec<String>) {
        let f = file(yaml);
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let def = enum_def(&mut ck, c.enums[0]);
        (def, errors(&ck))
    }

    #[test]
    fn integer_values_are_parsed_and_unique() {
        let (def, errors) = check(
            "enums:\n  - name: S\n    wire_type: integer\n    values:\n      - { wire: -1, name: Failed }\n      - { wire: \"01\", name: Done }\n      - { wire: 1, name: Again }\n      - { wire: x, name: Bad }\n",
        );
        let ints: Vec<Option<i64>> = def.values.iter().map(|v| v.integer).collect();
        assert_eq!(ints, [Some(-1), Some(1), Some(1), None]);
        assert_eq!(def.wire_type, EnumWireType::Integer);
        assert_eq!(
            errors,
            [
                "s/t.yaml:7:17: wire value `1` of enum `S` is used twice (also by `Done`)",
                "s/t.yaml:8:17: wire value `x` of integer enum `S` is not an integer",
            ]
        );
    }

    #[test]
    fn variant_names_are_checked_and_every_value_kept() {
        let (def, errors) = check(
            "enums:\n  - name: S\n    wire_type: string\n    values:\n      - { wire: a, name: Unknown }\n      - { wire: b, name: lower }\n      - { wire: a, name: Same }\n      - { wire: c, name: Same }\n      - { wire: \"\", name: Empty }\n",
        );
        assert_eq!(def.values.len(), 5);
        assert_eq!(
            errors,
            [
                "s/t.yaml:5:26: variant name `Unknown` in enum `S` is reserved",
                "s/t.yaml:6:26: variant name `lower` of enum `S` is not an UpperCamelCase Rust identifier",
                "s/t.yaml:7:17: wire value `a` of enum `S` is used twice (also by `Unknown`)",
                "s/t.yaml:8:26: variant `Same` of enum `S` is defined twice",
                "s/t.yaml:9:17: empty wire value for `Empty` of enum `S`",
            ]
        );
    }
}
