//! Pass 4, records: each declared record's fields (its included field sets' first, see
//! [`super::sets`]), decisions, and records that hold themselves.

use std::collections::BTreeSet;

use super::declare::Declared;
use super::fields::fields;
use super::sets::FieldSets;
use super::{Checker, Owner};
use crate::model::{self, Field, Location, TypeRef};
use crate::spec_file::{FieldSetSpec, RecordSpec, Spanned};

/// The checked records. Later passes may rely on: sorted by name, names unique, fields
/// checked. Not settled yet: which direction uses each record (`used_in_request`,
/// `used_in_response`) and its `received_name`, which the shapes pass fills in once
/// every operation is known.
pub(super) struct Records {
    pub defs: Vec<model::Record>,
}

impl Records {
    /// Field `wire` of record `record`, if both exist.
    pub(super) fn field(&self, record: &str, wire: &str) -> Option<&Field> {
        self.defs
            .iter()
            .find(|r| r.name == record)
            .and_then(|r| r.fields.iter().find(|f| f.wire_name == wire))
    }
}

/// Checks the declared records (`specs`, in spec order) with the field sets they include.
pub(super) fn records(
    ck: &mut Checker,
    declared: &Declared,
    field_sets: &[&Spanned<FieldSetSpec>],
    specs: &[&Spanned<RecordSpec>],
) -> Records {
    let mut sets = FieldSets::declare(ck, field_sets.iter().copied());
    let mut defs = Vec::new();
    for r in specs {
        let spec = &r.value;
        let name = spec.name.value.clone();
        let owner = Owner::Record(name.clone());
        let listed = sets.expand(ck, spec.include.as_deref(), &spec.fields, &owner);
        let fields = fields(ck, declared, listed, &owner);
        let decisions = ck.decisions_of(&spec.decisions, &owner.to_string());
        defs.push(model::Record {
            name,
            doc: spec.doc.clone().unwrap_or_default(),
            source: spec.source.map_or(model::Source::Seed, Into::into),
            fields,
            decisions,
            used_in_request: false,
            used_in_response: false,
            received_name: String::new(),
            location: r.loc.clone(),
        });
    }
    sets.report_unused(ck);
    defs.sort_by(|a, b| a.name.cmp(&b.name));
    record_cycles(ck, &defs);
    Records { defs }
}

/// A record holding itself through non-array fields cannot be a Rust struct.
fn record_cycles(ck: &mut Checker, records: &[model::Record]) {
    let direct = |r: &model::Record| -> Vec<(String, String, Location)> {
        r.fields
            .iter()
            .filter_map(|f| match &f.ty {
                TypeRef::Record { name, .. } => {
                    Some((f.wire_name.clone(), name.clone(), f.location.clone()))
                }
                _ => None,
            })
            .collect()
    };
    for start in records {
        // Depth-first search for a path back to `start`.
        let mut stack: Vec<(String, Vec<String>)> =
            vec![(start.name.clone(), vec![start.name.clone()])];
        let mut seen = BTreeSet::new();
        let mut found: Option<(Vec<String>, Location)> = None;
        while let Some((cur, trail)) = stack.pop() {
            let Some(rec) = records.iter().find(|r| r.name == cur) else {
                continue;
            };
            for (fname, target, loc) in direct(rec) {
                let mut t = trail.clone();
                t.push(format!("{fname} → {target}"));
                if target == start.name {
                    if found.is_none() && cur == start.name {
                        found = Some((t.clone(), loc.clone()));
                    } else if found.is_none() {
                        found = Some((t.clone(), start.location.clone()));
                    }
                } else if seen.insert(target.clone()) {
                    stack.push((target, t));
                }
            }
        }
        if let Some((trail, loc)) = found {
            ck.error(
                &loc,
                format!(
                    "record `{}` contains itself ({})",
                    start.name,
                    trail.join(".")
                ),
                Some("a struct cannot hold itself; make one of these fields an array".into()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::declare::declare;
    use crate::check::testing::{checker, errors, file, warnings};

    fn check(yaml: &str) -> (Records, Vec<String>, Vec<String>) {
        let f = file(yaml);
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let d = declare(&mut ck, &c);
        let r = records(&mut ck, &d.declared, &c.field_sets, &d.records);
        (r, errors(&ck), warnings(&ck))
    }

    #[test]
    fn included_sets_come_first_and_records_are_sorted() {
        let (r, errors, warnings) = check(
            "field_sets:\n  - name: Common\n    doc: shared\n    fields: [{ name: id, type: string }]\n  - name: Unused\n    doc: none\n    fields: [{ name: x, type: int }]\nrecords:\n  - { name: Zed, include: [Common], fields: [{ name: own, type: int }] }\n  - { name: Alpha, fields: [{ name: zed, type: Zed }] }\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let names: Vec<&str> = r.defs.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Alpha", "Zed"]);
        let zed: Vec<&str> = r.defs[1]
            .fields
            .iter()
            .map(|f| f.wire_name.as_str())
            .collect();
        assert_eq!(zed, ["id", "own"]);
        assert_eq!(r.field("Zed", "own").map(|f| &f.ty), Some(&TypeRef::Int));
        assert!(r.field("Zed", "nothing").is_none() && r.field("Nope", "id").is_none());
        assert!(r
            .defs
            .iter()
            .all(|r| r.received_name.is_empty() && !r.used_in_request));
        assert_eq!(
            warnings,
            ["s/t.yaml:5:11: field set `Unused` is included by no record"]
        );
    }

    #[test]
    fn a_record_holding_itself_is_refused_unless_through_an_array() {
        let (r, errors, _) = check(
            "records:\n  - { name: A, fields: [{ name: b, type: B }] }\n  - { name: B, fields: [{ name: a, type: A }, { name: more, type: \"array<B>\" }] }\n  - { name: C, fields: [{ name: me, type: C }] }\n",
        );
        assert_eq!(r.defs.len(), 3);
        assert_eq!(
            errors,
            [
                "s/t.yaml:2:5: record `A` contains itself (A.b → B.a → A)",
                "s/t.yaml:3:5: record `B` contains itself (B.a → A.b → B)",
                "s/t.yaml:4:25: record `C` contains itself (C.me → C)",
            ]
        );
    }
}
