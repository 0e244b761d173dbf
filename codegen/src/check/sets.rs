//! Field sets (`field_sets:`): fields written once and included by records
//! (`include: [Name, ...]`). A set is not a type and generates nothing: its fields are
//! flattened into each including record, first and in order, before the record's own
//! `fields:`, keeping the place where the set defines them.

use std::collections::{BTreeMap, BTreeSet};

use super::{at, names, Checker, Owner};
use crate::spec_file::{FieldSetSpec, FieldSpec, Spanned};

/// The declared field sets, and which of them are included somewhere.
pub(super) struct FieldSets<'a> {
    sets: BTreeMap<String, &'a Spanned<FieldSetSpec>>,
    used: BTreeSet<String>,
}

impl<'a> FieldSets<'a> {
    /// Checks the declarations: names, an empty set, `include:` inside a set, duplicates.
    pub(super) fn declare(
        ck: &mut Checker,
        specs: impl IntoIterator<Item = &'a Spanned<FieldSetSpec>>,
    ) -> Self {
        let mut sets: BTreeMap<String, &'a Spanned<FieldSetSpec>> = BTreeMap::new();
        for s in specs {
            let spec = &s.value;
            let n = spec.name.value.as_str();
            if n.is_empty() {
                ck.error(
                    &spec.name.loc,
                    "field set with an empty name",
                    Some("name the field set in UpperCamelCase, e.g. `SmeOnboardingCommon`".into()),
                );
                continue;
            }
            if !names::is_upper_camel(n) || names::is_keyword(n) {
                let hint = names::camel(n);
                ck.error(
                    &spec.name.loc,
                    format!("field set name `{n}` is not UpperCamelCase"),
                    Some(
                        if names::is_upper_camel(&hint) && !names::is_keyword(&hint) {
                            format!("rename it, e.g. `{hint}` (and every `include:` naming it)")
                        } else {
                            "rename it to an UpperCamelCase name".into()
                        },
                    ),
                );
            }
            ck.non_empty(&spec.doc, &format!("`doc` of field set `{n}`"));
            if let Some(inc) = &spec.include {
                let listed: Vec<&str> = inc.value.iter().map(|i| i.value.as_str()).collect();
                let (message, help) = if listed.contains(&n) {
                    (
                        format!("field set `{n}` includes itself"),
                        "a field set cannot include field sets (itself included): remove its `include:`"
                            .to_owned(),
                    )
                } else {
                    let mut all = listed.clone();
                    all.push(n);
                    (
                        format!("field set `{n}` has an `include:`, but a field set cannot include field sets"),
                        format!(
                            "only records include field sets: remove this `include:` and include the sets side by side in the record, e.g. `include: [{}]`",
                            all.join(", ")
                        ),
                    )
                };
                ck.error(&inc.loc, message, Some(help));
            }
            if spec.fields.value.is_empty() {
                ck.error(
                    &spec.fields.loc,
                    format!("field set `{n}` has no fields"),
                    Some("list its fields, or delete the field set".into()),
                );
            }
            if let Some(prev) = sets.get(n) {
                let prev = at(&prev.value.name.loc);
                ck.error(
                    &spec.name.loc,
                    format!("field set `{n}` is defined twice"),
                    Some(format!(
                        "first defined at {prev}; field set names are unique"
                    )),
                );
                continue;
            }
            sets.insert(n.to_owned(), s);
        }
        FieldSets {
            sets,
            used: BTreeSet::new(),
        }
    }

    /// The fields of `owner`: those of each included set, in order, then its own.
    /// A field defined twice where a set is involved is reported here (pointing at both
    /// places) and kept once; two of the owner's own fields are left to the field check.
    pub(super) fn expand(
        &mut self,
        ck: &mut Checker,
        include: Option<&'a [Spanned<String>]>,
        own: &'a [Spanned<FieldSpec>],
        owner: &Owner,
    ) -> Vec<&'a Spanned<FieldSpec>> {
        let mut out: Vec<(&'a Spanned<FieldSpec>, Option<&'a str>)> = Vec::new();
        let mut included: Vec<&str> = Vec::new();
        for inc in include.unwrap_or(&[]) {
            let n = inc.value.as_str();
            if included.contains(&n) {
                ck.error(
                    &inc.loc,
                    format!("field set `{n}` is included twice by {owner}"),
                    Some("list each field set once in `include:`".into()),
                );
                continue;
            }
            included.push(n);
            let Some(set) = self.sets.get(n).copied() else {
                let help = match crate::diagnostics::suggest::did_you_mean(n, self.sets.keys().map(String::as_str)) {
                    Some(s) => format!("did you mean `{s}`? `include:` names field sets declared under `field_sets:`"),
                    None => "declare it under `field_sets:`, or remove it from `include:`".into(),
                };
                ck.error(
                    &inc.loc,
                    format!("unknown field set `{n}` in `include:` of {owner}"),
                    Some(help),
                );
                continue;
            };
            self.used.insert(n.to_owned());
            let set_name = set.value.name.value.as_str();
            for f in &set.value.fields.value {
                push(ck, &mut out, f, Some(set_name), owner);
            }
        }
        for f in own {
            push(ck, &mut out, f, None, owner);
        }
        out.into_iter().map(|(f, _)| f).collect()
    }

    /// Warns about every field set no record includes.
    pub(super) fn report_unused(&self, ck: &mut Checker) {
        for (n, set) in &self.sets {
            if !self.used.contains(n) {
                ck.warn(
                    &set.value.name.loc,
                    format!("field set `{n}` is included by no record"),
                    format!("include it in a record (`include: [{n}]`) or delete it: a field set generates nothing by itself"),
                );
            }
        }
    }
}

fn push<'a>(
    ck: &mut Checker,
    out: &mut Vec<(&'a Spanned<FieldSpec>, Option<&'a str>)>,
    f: &'a Spanned<FieldSpec>,
    set: Option<&'a str>,
    owner: &Owner,
) {
    let wire = f.value.name.value.as_str();
    let prev = out
        .iter()
        .find(|(p, _)| p.value.name.value == wire)
        .map(|(p, s)| (p.value.name.loc.clone(), *s));
    let Some((prev_loc, prev_set)) = prev else {
        out.push((f, set));
        return;
    };
    let prev_at = at(&prev_loc);
    let (message, help) = match (prev_set, set) {
        (None, _) => {
            // Two own fields (included ones always come first): the field check reports
            // it, as for any record.
            out.push((f, set));
            return;
        }
        (Some(s), None) => (
            format!("field `{wire}` of {owner} is defined twice: here and in the included field set `{s}`"),
            format!("field set `{s}` defines it at {prev_at}; remove it here, or stop including `{s}`"),
        ),
        (Some(s), Some(t)) if s == t => (
            format!("field `{wire}` of field set `{s}` (included by {owner}) is defined twice"),
            format!("first defined at {prev_at}; remove one"),
        ),
        (Some(s), Some(t)) => (
            format!("field `{wire}` of {owner} is defined twice: in the included field sets `{s}` and `{t}`"),
            format!("field set `{s}` defines it at {prev_at}; keep it in one of the two sets"),
        ),
    };
    ck.error(&f.value.name.loc, message, Some(help));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::testing::{checker, errors, file};

    #[test]
    fn a_field_defined_by_a_set_and_again_is_kept_once() {
        let f = file(
            "field_sets:\n  - name: Common\n    doc: shared\n    fields: [{ name: id, type: string }, { name: at, type: long }]\n  - name: bad_name\n    doc: \"\"\n    fields: []\n    include: [Common]\nrecords:\n  - { name: R, include: [Common, Common, Missing], fields: [{ name: id, type: int }, { name: own, type: int }] }\n",
        );
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let mut sets = FieldSets::declare(&mut ck, c.field_sets.iter().copied());
        let r = &c.records[0].value;
        let owner = Owner::Record("R".into());
        let listed = sets.expand(&mut ck, r.include.as_deref(), &r.fields, &owner);
        let wires: Vec<&str> = listed.iter().map(|f| f.value.name.value.as_str()).collect();
        assert_eq!(wires, ["id", "at", "own"]);
        sets.report_unused(&mut ck);
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:5:11: field set name `bad_name` is not UpperCamelCase",
                "s/t.yaml:6:10: `doc` of field set `bad_name` is empty",
                "s/t.yaml:8:14: field set `bad_name` has an `include:`, but a field set cannot include field sets",
                "s/t.yaml:7:13: field set `bad_name` has no fields",
                "s/t.yaml:10:34: field set `Common` is included twice by record `R`",
                "s/t.yaml:10:42: unknown field set `Missing` in `include:` of record `R`",
                "s/t.yaml:10:69: field `id` of record `R` is defined twice: here and in the included field set `Common`",
            ]
        );
        assert_eq!(ck.warnings.len(), 1, "bad_name is included by no record");
    }
}
