//! Resolving a `type:` (with its `wire:`) against the built-in types and the declared
//! names ([`Declared`]).

use super::declare::Declared;
use super::Checker;
use crate::model::{DecimalWire, TypeRef};
use crate::spec_file::{DecimalWireSpec, Spanned};

/// Built-in type names of the spec format.
const BUILTIN_TYPES: &[&str] = &[
    "string", "int", "long", "decimal", "bool", "date", "document", "scalar", "json",
];

/// The type as written in the spec (`array<OrderItem>`), for messages.
pub(super) fn type_text(t: &TypeRef) -> String {
    match t {
        TypeRef::String => "string".into(),
        TypeRef::Int => "int".into(),
        TypeRef::Long => "long".into(),
        TypeRef::Decimal { .. } => "decimal".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::Date => "date".into(),
        TypeRef::Document => "document".into(),
        TypeRef::Scalar => "scalar".into(),
        TypeRef::Json => "json".into(),
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => name.clone(),
        TypeRef::Array { item } => format!("array<{}>", type_text(item)),
    }
}

/// Resolves a `type:` (and its `wire:`) for `what` (e.g. "field `x` of operation `y`");
/// `None` when the type is unknown or malformed (reported).
pub(super) fn resolve_type(
    ck: &mut Checker,
    declared: &Declared,
    ty: &Spanned<String>,
    wire: Option<&Spanned<DecimalWireSpec>>,
    what: &str,
) -> Option<TypeRef> {
    let text = ty.value.trim();
    let (inner, is_array) = match text
        .strip_prefix("array<")
        .and_then(|r| r.strip_suffix('>'))
    {
        Some(inner) => (inner.trim(), true),
        None => (text, false),
    };
    if is_array && inner.starts_with("array<") {
        ck.error(
            &ty.loc,
            format!("nested array type `{text}` for {what}"),
            Some("an array holds a non-array type; wrap the inner list in a record".into()),
        );
        return None;
    }
    let base = base_type(ck, declared, inner, ty, wire, what)?;
    if !matches!(base, TypeRef::Decimal { .. }) {
        if let Some(w) = wire {
            ck.error(
                &w.loc,
                format!("`wire:` on {what} of type `{text}`"),
                Some("`wire:` applies to decimals only; remove it".into()),
            );
        }
    }
    Some(if is_array {
        TypeRef::Array {
            item: Box::new(base),
        }
    } else {
        base
    })
}

/// A type that is not an array: built-in, or a declared enum or record.
fn base_type(
    ck: &mut Checker,
    declared: &Declared,
    inner: &str,
    ty: &Spanned<String>,
    wire: Option<&Spanned<DecimalWireSpec>>,
    what: &str,
) -> Option<TypeRef> {
    Some(match inner {
        "string" => TypeRef::String,
        "int" => TypeRef::Int,
        "long" => TypeRef::Long,
        "bool" => TypeRef::Bool,
        "date" => TypeRef::Date,
        "document" => TypeRef::Document,
        "scalar" => TypeRef::Scalar,
        "json" => TypeRef::Json,
        "decimal" => TypeRef::Decimal {
            wire: decimal_wire(ck, ty, wire, what),
        },
        name if declared.enums.contains_key(name) => TypeRef::Enum {
            name: name.to_owned(),
        },
        // `received_name` is settled once the uses of every record are known
        // (the shapes pass).
        name if declared.records.contains(name) => TypeRef::Record {
            name: name.to_owned(),
            received_name: name.to_owned(),
        },
        name => {
            unknown_type(ck, declared, name, ty, what);
            return None;
        }
    })
}

/// The `wire:` of a decimal; a missing one is reported (and taken as `string`).
fn decimal_wire(
    ck: &mut Checker,
    ty: &Spanned<String>,
    wire: Option<&Spanned<DecimalWireSpec>>,
    what: &str,
) -> DecimalWire {
    match wire {
        Some(w) => match w.value {
            DecimalWireSpec::String => DecimalWire::String,
            DecimalWireSpec::Number => DecimalWire::Number,
        },
        None => {
            ck.error(
                &ty.loc,
                format!("decimal {what} has no `wire:`"),
                Some(
                    "add `wire: string` (sent as \"100.50\") or `wire: number` (sent as 100.50), and record the reason as a decision"
                        .into(),
                ),
            );
            DecimalWire::String
        }
    }
}

fn unknown_type(
    ck: &mut Checker,
    declared: &Declared,
    name: &str,
    ty: &Spanned<String>,
    what: &str,
) {
    let candidates: Vec<&str> = BUILTIN_TYPES
        .iter()
        .copied()
        .chain(declared.enums.keys().map(String::as_str))
        .chain(declared.records.iter().map(String::as_str))
        .collect();
    let mut help =
        "use one of string, int, long, decimal, bool, json, array<T>, or a declared enum/record"
            .to_owned();
    if let Some(s) = crate::diagnostics::suggest::did_you_mean(name, candidates) {
        help.push_str(&format!(" (did you mean `{s}`?)"));
    } else if name.starts_with("array") || name.starts_with("Array") {
        help.push_str(" (an array is written `array<T>`)");
    }
    ck.error(
        &ty.loc,
        format!("unknown type `{name}` for {what}"),
        Some(help),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::declare::EnumInfo;
    use crate::check::testing::{checker, errors, loc};
    use crate::model::EnumWireType;

    fn declared() -> Declared {
        let mut d = Declared {
            enums: Default::default(),
            records: Default::default(),
            types: Default::default(),
        };
        d.enums.insert(
            "Status".into(),
            EnumInfo {
                wire_type: EnumWireType::String,
                wires: vec!["a".into()],
            },
        );
        d.records.insert("OrderItem".into());
        d
    }

    fn resolve(text: &str, wire: Option<DecimalWireSpec>) -> (Option<TypeRef>, Vec<String>) {
        let mut ck = checker();
        let ty = Spanned {
            loc: loc(1),
            value: text.to_owned(),
        };
        let wire = wire.map(|value| Spanned { loc: loc(2), value });
        let t = resolve_type(&mut ck, &declared(), &ty, wire.as_ref(), "field `x`");
        (t, errors(&ck))
    }

    #[test]
    fn declared_names_and_arrays_resolve() {
        let (t, e) = resolve("array< OrderItem >", None);
        assert_eq!(
            t.as_ref().map(type_text).as_deref(),
            Some("array<OrderItem>")
        );
        assert!(e.is_empty());
        let (t, _) = resolve("Status", None);
        assert_eq!(
            t,
            Some(TypeRef::Enum {
                name: "Status".into()
            })
        );
        let (t, e) = resolve("decimal", Some(DecimalWireSpec::Number));
        assert_eq!(
            t,
            Some(TypeRef::Decimal {
                wire: DecimalWire::Number
            })
        );
        assert!(e.is_empty());
    }

    #[test]
    fn unknown_and_malformed_types_are_reported() {
        assert_eq!(
            resolve("Stauts", None).1,
            ["s/t.yaml:1:1: unknown type `Stauts` for field `x`"]
        );
        assert_eq!(
            resolve("array<array<int>>", None).1,
            ["s/t.yaml:1:1: nested array type `array<array<int>>` for field `x`"]
        );
        let (t, e) = resolve("decimal", None);
        assert!(t.is_some(), "taken as a string decimal after the error");
        assert_eq!(e, ["s/t.yaml:1:1: decimal field `x` has no `wire:`"]);
        assert_eq!(
            resolve("int", Some(DecimalWireSpec::String)).1,
            ["s/t.yaml:2:1: `wire:` on field `x` of type `int`"]
        );
    }
}
