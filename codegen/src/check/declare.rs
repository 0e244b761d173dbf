//! Pass 3, declare: the names of the declared types (enums, then records), so that any
//! field can refer to any of them, and then each enum's values ([`super::enums`]).
//!
//! A type name is an UpperCamelCase Rust type name, no keyword, not a name the generated
//! crate defines itself or would shadow, and unique among the declared types.

use std::collections::{BTreeMap, BTreeSet};

use super::collect::Collected;
use super::{at, code_list, enums, names, Checker};
use crate::model::{self, EnumWireType, Location};
use crate::spec_file::{RecordSpec, Spanned};

/// What is known about a declared enum: its wire type and wire values (as checked).
pub(super) struct EnumInfo {
    pub wire_type: EnumWireType,
    pub wires: Vec<String>,
}

/// The declared type names. Later passes may rely on: every name here is a valid Rust
/// type name, unreserved and unique among enums and records, and each enum's values are
/// checked. A name that failed its checks is absent (a field naming it is an unknown type).
pub(super) struct Declared {
    pub enums: BTreeMap<String, EnumInfo>,
    pub records: BTreeSet<String>,
    /// Every declared type name with its kind (`enum`, `record`) and place, for the
    /// collisions with the names generated for operations and record shapes.
    pub types: BTreeMap<String, (String, Location)>,
}

/// The output of the declare pass.
pub(super) struct Declarations<'a> {
    pub declared: Declared,
    /// The checked enums, sorted by name.
    pub enums: Vec<model::EnumDef>,
    /// The records whose names were declared, in spec order; their fields are checked by
    /// the records pass.
    pub records: Vec<&'a Spanned<RecordSpec>>,
}

/// Declares the enums and records of `collected`, then checks each declared enum.
pub(super) fn declare<'a>(ck: &mut Checker, collected: &Collected<'a>) -> Declarations<'a> {
    let mut declared = Declared {
        enums: BTreeMap::new(),
        records: BTreeSet::new(),
        types: BTreeMap::new(),
    };
    let mut enum_specs = Vec::new();
    for e in collected.enums.iter().copied() {
        if declared.declare(ck, &e.value.name, "enum") {
            declared.enums.insert(
                e.value.name.value.clone(),
                EnumInfo {
                    wire_type: EnumWireType::String,
                    wires: Vec::new(),
                },
            );
            enum_specs.push(e);
        }
    }
    let mut records = Vec::new();
    for r in collected.records.iter().copied() {
        if declared.declare(ck, &r.value.name, "record") {
            declared.records.insert(r.value.name.value.clone());
            records.push(r);
        }
    }
    let mut enum_defs = Vec::new();
    for e in enum_specs {
        let def = enums::enum_def(ck, e);
        declared.enums.insert(
            def.name.clone(),
            EnumInfo {
                wire_type: def.wire_type,
                wires: def.values.iter().map(|v| v.wire.clone()).collect(),
            },
        );
        enum_defs.push(def);
    }
    enum_defs.sort_by(|a, b| a.name.cmp(&b.name));
    Declarations {
        declared,
        enums: enum_defs,
        records,
    }
}

impl Declared {
    /// Takes `name` for a type of `kind`; false (reported) when it is not a valid type
    /// name or another type has it.
    fn declare(&mut self, ck: &mut Checker, name: &Spanned<String>, kind: &str) -> bool {
        if !type_name(ck, name, kind) {
            return false;
        }
        if let Some((prev_kind, prev)) = self.types.get(&name.value) {
            let msg = format!(
                "{kind} `{}` has the same name as {prev_kind} `{}`",
                name.value, name.value
            );
            let help = format!("the other is at {}; type names are unique", at(prev));
            ck.error(&name.loc, msg, Some(help));
            return false;
        }
        self.types
            .insert(name.value.clone(), (kind.to_owned(), name.loc.clone()));
        true
    }
}

/// Checks a type name (record, enum, notification): UpperCamelCase, not a keyword, and
/// (but for a notification, which is a variant) not a name the generated crate uses.
pub(super) fn type_name(ck: &mut Checker, name: &Spanned<String>, kind: &str) -> bool {
    let n = name.value.as_str();
    if n.is_empty() {
        ck.error(
            &name.loc,
            format!("{kind} with an empty name"),
            Some(format!("name the {kind} in UpperCamelCase")),
        );
        return false;
    }
    if !names::is_upper_camel(n) || names::is_keyword(n) {
        let hint = names::camel(n);
        ck.error(
            &name.loc,
            format!("{kind} name `{n}` is not an UpperCamelCase Rust type name"),
            Some(
                if names::is_identifier(&hint) && !names::is_keyword(&hint) {
                    format!("rename it, e.g. `{hint}`")
                } else {
                    "rename it to an UpperCamelCase identifier".into()
                },
            ),
        );
        return false;
    }
    if kind != "notification" && crate::reserved::GENERATED_TYPES.contains(&n) {
        ck.error(
            &name.loc,
            format!("{kind} name `{n}` is taken by the generated crate"),
            Some(format!(
                "rename the {kind}, e.g. `Api{n}`: the generated crate defines {} itself, from `result_codes:` and `notifications:`",
                code_list(crate::reserved::GENERATED_TYPES)
            )),
        );
        return false;
    }
    if kind != "notification" && crate::reserved::TYPES.contains(&n) {
        ck.error(
            &name.loc,
            format!("{kind} name `{n}` would shadow Rust's `{n}` in the generated module"),
            Some(format!(
                "rename the {kind}, e.g. `Api{n}`: the generated code uses the names of Rust's prelude (`Option`, `String`, `Vec`, `Result`, `From`, ...) unqualified"
            )),
        );
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::testing::{checker, errors, file};

    const VALUES: &str = "wire_type: string, values: [{ wire: a, name: A }, { wire: b, name: B }]";

    #[test]
    fn names_are_unique_across_enums_and_records() {
        let f = file(&format!(
            "enums:\n  - {{ name: Status, {VALUES} }}\n  - {{ name: Kind, {VALUES} }}\nrecords:\n  - {{ name: Status, fields: [] }}\n  - {{ name: Detail, fields: [] }}\n"
        ));
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let d = declare(&mut ck, &c);
        assert_eq!(
            d.declared.enums.keys().collect::<Vec<_>>(),
            ["Kind", "Status"]
        );
        assert_eq!(d.declared.records.iter().collect::<Vec<_>>(), ["Detail"]);
        assert_eq!(d.records.len(), 1);
        assert_eq!(d.declared.types["Status"].0, "enum");
        let defs: Vec<&str> = d.enums.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(defs, ["Kind", "Status"], "sorted by name");
        assert_eq!(d.declared.enums["Kind"].wires, ["a", "b"]);
        assert_eq!(
            errors(&ck),
            ["s/t.yaml:5:13: record `Status` has the same name as enum `Status`"]
        );
    }

    #[test]
    fn reserved_and_malformed_type_names_are_not_declared() {
        let f = file(
            "records:\n  - { name: ResultCode, fields: [] }\n  - { name: Option, fields: [] }\n  - { name: order_item, fields: [] }\n  - { name: \"\", fields: [] }\n",
        );
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let d = declare(&mut ck, &c);
        assert!(d.declared.records.is_empty() && d.records.is_empty());
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:2:13: record name `ResultCode` is taken by the generated crate",
                "s/t.yaml:3:13: record name `Option` would shadow Rust's `Option` in the generated module",
                "s/t.yaml:4:13: record name `order_item` is not an UpperCamelCase Rust type name",
                "s/t.yaml:5:13: record with an empty name",
            ]
        );
    }
}
