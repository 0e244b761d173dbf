//! Checking one list of fields (one struct: an envelope side, a record, the parameters
//! or the response of an operation): each field's wire and Rust names, type
//! ([`super::types`]), rules ([`super::rules`]), decisions and deprecation; then the names
//! unique within the list, and the signing-order warning among siblings.

use super::declare::Declared;
use super::rules::rules;
use super::types::resolve_type;
use super::{code_list, names, Checker, Owner};
use crate::model::{self, Field, Location, Requirement, TypeRef};
use crate::spec_file::{FieldSpec, RequiredSpec, Spanned};

/// Characters that would make a wire name ambiguous in the flattened signing string.
const SIGNING_SEPARATORS: &[char] = &['=', '&', '.', '[', ']'];

/// Rust field name from the wire name or the `rust_name:` override.
fn field_rust_name(ck: &mut Checker, f: &FieldSpec, what: &str) -> String {
    if let Some(over) = &f.rust_name {
        let n = over.value.as_str();
        if !names::is_snake(n) {
            ck.error(
                &over.loc,
                format!("`rust_name: {n}` of {what} is not a snake_case Rust identifier"),
                Some(format!(
                    "write a snake_case identifier such as `{}`",
                    names::snake(n)
                )),
            );
        } else if names::is_keyword(n) {
            ck.error(
                &over.loc,
                format!("`rust_name: {n}` of {what} is a Rust keyword"),
                Some(format!("choose another name, e.g. `{n}_value`")),
            );
        }
        return n.to_owned();
    }
    let snake = names::snake(&f.name.value);
    if !names::is_identifier(&snake) {
        ck.error(
            &f.name.loc,
            format!("{what} becomes `{snake}` in Rust, which is not an identifier"),
            Some("set `rust_name:` to a snake_case identifier".into()),
        );
        snake
    } else if names::is_unraw_keyword(&snake) {
        ck.error(
            &f.name.loc,
            format!(
                "{what} becomes the Rust keyword `{snake}`, which cannot be a field name even as a raw identifier"
            ),
            Some(format!("set `rust_name:` to another name, e.g. `{snake}_value`")),
        );
        snake
    } else if names::is_keyword(&snake) {
        format!("r#{snake}")
    } else {
        snake
    }
}

/// Checks one list of fields (one struct): each field, then unique wire and Rust names,
/// then the signing-order warning among siblings.
pub(super) fn fields<'a>(
    ck: &mut Checker,
    declared: &Declared,
    list: impl IntoIterator<Item = &'a Spanned<FieldSpec>>,
    owner: &Owner,
) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for f in list {
        let field = field(ck, declared, f, owner);
        if let Some(prev) = out.iter().find(|p| p.wire_name == field.wire_name) {
            let first = prev.location.clone();
            ck.error(
                &f.value.name.loc,
                format!("field `{}` of {owner} is defined twice", field.wire_name),
                Some(format!(
                    "first defined at {}:{}:{}; remove one",
                    first.file, first.line, first.column
                )),
            );
        } else if let Some(prev) = out.iter().find(|p| p.rust_name == field.rust_name) {
            let (pw, first) = (prev.wire_name.clone(), prev.location.clone());
            ck.error(
                &f.value.name.loc,
                format!(
                    "fields `{pw}` and `{}` of {owner} both become the Rust field `{}`",
                    field.wire_name, field.rust_name
                ),
                Some(format!(
                    "set `rust_name:` on one of them (the other is at {}:{}:{})",
                    first.file, first.line, first.column
                )),
            );
        }
        out.push(field);
    }
    let sibling: Vec<(String, Location)> = out
        .iter()
        .map(|f| (f.wire_name.clone(), f.location.clone()))
        .collect();
    signing_order(ck, &sibling, owner);
    out
}

/// Warns about sibling wire names whose order differs between sorting whole
/// `path=value` strings and sorting keys.
pub(super) fn signing_order(ck: &mut Checker, siblings: &[(String, Location)], owner: &Owner) {
    for (a, _) in siblings {
        for (b, loc) in siblings {
            if b.len() > a.len() && b.starts_with(a.as_str()) {
                if let Some(&next) = b.as_bytes().get(a.len()) {
                    if next < b'=' {
                        ck.warn(
                            loc,
                            format!(
                                "fragile signing order in {owner}: `{a}` is a prefix of `{b}` and the next byte `{}` sorts before `=`",
                                char::from(next)
                            ),
                            format!(
                                "sorting whole `path=value` strings puts `{b}=` before `{a}=`, sorting keys puts `{a}` first; the runtime follows the specification (whole strings): confirm the service agrees for these fields, and record it as a decision"
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// One field: names, type, requirement, rules, doc, decisions, deprecation.
fn field(ck: &mut Checker, declared: &Declared, f: &Spanned<FieldSpec>, owner: &Owner) -> Field {
    let spec = &f.value;
    let wire = spec.name.value.as_str();
    let what = format!("field `{wire}` of {owner}");
    if wire.trim().is_empty() {
        ck.error(
            &spec.name.loc,
            format!("a field of {owner} has an empty name"),
            Some("write the exact wire name".into()),
        );
    } else if wire.contains(SIGNING_SEPARATORS) || wire.chars().any(char::is_whitespace) {
        ck.error(
            &spec.name.loc,
            format!("wire name `{wire}` of {owner} contains a space or one of `= & . [ ]`"),
            Some(
                "these characters make the flattened signing string ambiguous; check the wire name"
                    .into(),
            ),
        );
    }
    let rust_name = field_rust_name(ck, spec, &what);
    if matches!(owner, Owner::Operation(_) | Owner::Record(_))
        && crate::reserved::STRUCT_METHODS.contains(&rust_name.as_str())
    {
        let loc = spec.rust_name.as_ref().map_or(&spec.name.loc, |r| &r.loc);
        ck.error(
            loc,
            format!(
                "{what} becomes the Rust field `{rust_name}`, whose setter would collide with the generated method `{rust_name}`"
            ),
            Some(format!(
                "set `rust_name:` to another snake_case name, e.g. `{rust_name}_value`; the generated structs reserve {}",
                code_list(crate::reserved::STRUCT_METHODS)
            )),
        );
    }
    // An unknown type is reported once; its rules are then not checked against a
    // stand-in type, which would only add errors that are not the author's.
    let resolved = resolve_type(ck, declared, &spec.ty, spec.wire.as_ref(), &what);
    let known = resolved.is_some();
    let ty = resolved.unwrap_or(TypeRef::Json);
    let required = match spec.required.as_ref().map(|r| r.value) {
        Some(RequiredSpec::Yes) => Requirement::Required,
        Some(RequiredSpec::Conditional) => Requirement::Conditional,
        Some(RequiredSpec::No) | None => Requirement::Optional,
    };
    let rules = if known {
        rules(
            ck,
            declared,
            spec.rules.as_deref().unwrap_or(&[]),
            &ty,
            &what,
        )
    } else {
        Vec::new()
    };
    value_list_in_doc(ck, declared, spec, &ty, &what, &f.loc);
    let decisions = ck.decisions_of(&spec.decisions, &what);
    let deprecated = ck.deprecation(spec.deprecated.as_ref(), &what);
    Field {
        deprecated,
        wire_name: wire.to_owned(),
        rust_name,
        ty,
        required,
        doc: spec.doc.clone().unwrap_or_default(),
        rules,
        source: spec.source.map_or(model::Source::Seed, Into::into),
        decisions,
        location: f.loc.clone(),
    }
}

/// Warns when the doc of a field typed by an enum lists that enum's values again: the
/// enum documents them, and two copies drift apart.
fn value_list_in_doc(
    ck: &mut Checker,
    declared: &Declared,
    spec: &FieldSpec,
    ty: &TypeRef,
    what: &str,
    loc: &Location,
) {
    let name = match ty {
        TypeRef::Enum { name } => name,
        TypeRef::Array { item } => match item.as_ref() {
            TypeRef::Enum { name } => name,
            _ => return,
        },
        _ => return,
    };
    let (Some(doc), Some(info)) = (spec.doc.as_deref(), declared.enums.get(name)) else {
        return;
    };
    let words: Vec<&str> = doc
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    if info.wires.len() >= 2 && info.wires.iter().all(|w| words.contains(&w.as_str())) {
        ck.warn(
            loc,
            format!("the doc of {what} lists the values of enum `{name}` again"),
            "the enum documents its values; keep the field's doc to what is particular to the field",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::declare::EnumInfo;
    use crate::check::testing::{checker, errors, file, loc, warnings};
    use crate::model::EnumWireType;

    fn declared() -> Declared {
        let mut d = Declared {
            enums: Default::default(),
            records: Default::default(),
            types: Default::default(),
        };
        d.enums.insert(
            "Kind".into(),
            EnumInfo {
                wire_type: EnumWireType::String,
                wires: vec!["PERSONAL".into(), "BUSINESS".into()],
            },
        );
        d
    }

    /// The fields of record `R` written as `fields` (YAML list items), checked.
    fn check(fields_yaml: &str) -> (Vec<Field>, Vec<String>, Vec<String>) {
        let f = file(&format!(
            "records:\n  - name: R\n    fields:\n{fields_yaml}"
        ));
        let list = f
            .records
            .as_ref()
            .map_or(&[][..], |r| &r.value[0].value.fields[..]);
        let mut ck = checker();
        let out = fields(&mut ck, &declared(), list, &Owner::Record("R".into()));
        (out, errors(&ck), warnings(&ck))
    }

    #[test]
    fn names_are_unique_in_the_list() {
        let (out, errors, _) = check(
            "      - { name: type, type: string }\n      - { name: a_b, type: string }\n      - { name: aB, type: int }\n      - { name: type, type: int }\n      - { name: new, type: int }\n",
        );
        let rust: Vec<&str> = out.iter().map(|f| f.rust_name.as_str()).collect();
        assert_eq!(rust, ["r#type", "a_b", "a_b", "r#type", "new"]);
        assert_eq!(
            errors,
            [
                "s/t.yaml:6:17: fields `a_b` and `aB` of record `R` both become the Rust field `a_b`",
                "s/t.yaml:7:17: field `type` of record `R` is defined twice",
                "s/t.yaml:8:17: field `new` of record `R` becomes the Rust field `new`, whose setter would collide with the generated method `new`",
            ]
        );
    }

    #[test]
    fn an_unknown_type_is_reported_once_and_its_rules_not_checked() {
        let (out, errors, _) = check(
            "      - { name: \"a.b\", type: Strng, required: conditional, rules: [{ positive: true }] }\n",
        );
        assert_eq!(out[0].ty, TypeRef::Json);
        assert_eq!(out[0].required, Requirement::Conditional);
        assert!(out[0].rules.is_empty());
        assert_eq!(
            errors,
            [
                "s/t.yaml:4:17: wire name `a.b` of record `R` contains a space or one of `= & . [ ]`",
                "s/t.yaml:4:30: unknown type `Strng` for field `a.b` of record `R`",
            ]
        );
    }

    #[test]
    fn a_doc_repeating_the_enum_values_warns() {
        let (_, errors, warnings) = check(
            "      - { name: kind, type: Kind, doc: \"PERSONAL or BUSINESS\" }\n      - { name: other, type: Kind, doc: \"PERSONAL only\" }\n",
        );
        assert!(errors.is_empty());
        assert_eq!(
            warnings,
            ["s/t.yaml:4:9: the doc of field `kind` of record `R` lists the values of enum `Kind` again"]
        );
    }

    #[test]
    fn signing_order_warns_only_below_equals() {
        let mut ck = checker();
        let siblings = [
            ("amount".to_owned(), loc(1)),
            ("amount2".to_owned(), loc(2)),
            ("amountX".to_owned(), loc(3)),
            ("amount-fee".to_owned(), loc(4)),
        ];
        signing_order(&mut ck, &siblings, &Owner::Record("R".into()));
        let lines: Vec<usize> = ck.warnings.iter().map(|w| w.location.line).collect();
        assert_eq!(lines, [2, 4]);
        assert!(ck.errors.is_empty());
    }
}
