//! Pass 6, operations: each file's `group:` with its `operations:`, and each operation
//! ([`super::operation`]): names, path, parameters, constraints, response, paging, final
//! states, business id. The checks that need every operation at once are the
//! cross-checks' ([`super::cross`]).

use std::collections::BTreeMap;

use super::collect::Collected;
use super::known::Known;
use super::operation::operation;
use super::{at, code_list, names, Checker};
use crate::model::{self, Location};
use crate::spec_file::{OtpStepSpec, Spanned, SpecFile, TopLevel};

/// The checked groups and operations. Later passes may rely on: groups in file order,
/// operations in spec order, each with its parameters, constraints and response resolved.
/// Not checked yet: names and paths unique across operations, the OTP flow.
pub(super) struct Operations<'a> {
    pub groups: Vec<model::Group>,
    /// Each `otp_step:` with the name of its operation, for the OTP flow.
    pub otp_steps: Vec<(&'a Spanned<OtpStepSpec>, String)>,
    /// Each `settled_by:` with the name of its operation.
    pub settled_by: Vec<(&'a Spanned<String>, String)>,
}

/// Checks every group and its operations, file by file.
pub(super) fn operations<'a>(
    ck: &mut Checker,
    known: Known<'_>,
    collected: &Collected<'a>,
) -> Operations<'a> {
    let mut groups: Vec<model::Group> = Vec::new();
    let mut otp_steps = Vec::new();
    let mut settled_by = Vec::new();
    let mut group_locs: BTreeMap<String, Location> = BTreeMap::new();
    for f in collected.files {
        let Some(group) = group_of(ck, f) else {
            continue;
        };
        let gname = &group.value;
        group_name(ck, gname);
        if let Some(prev) = group_locs.get(&gname.value) {
            let prev = at(prev);
            ck.error(
                &gname.loc,
                format!("group `{}` is defined in two files", gname.value),
                Some(format!(
                    "it is also defined at {prev}; a group (module) lives in one file"
                )),
            );
        }
        group_locs.insert(gname.value.clone(), gname.loc.clone());
        let mut ops = Vec::new();
        for op in f.operations.iter().flat_map(|o| o.value.iter()) {
            if let Some(step) = &op.value.otp_step {
                otp_steps.push((step, op.value.name.value.clone()));
            }
            if let Some(query) = &op.value.settled_by {
                settled_by.push((query, op.value.name.value.clone()));
            }
            ops.push(operation(ck, known, op, &gname.value));
        }
        groups.push(model::Group {
            name: gname.value.clone(),
            doc: f
                .group_doc
                .as_ref()
                .map(|d| d.value.clone())
                .unwrap_or_default(),
            operations: ops,
        });
    }
    Operations {
        groups,
        otp_steps,
        settled_by,
    }
}

/// The `group:` of a file that has `operations:`; a file with only one of the two (or a
/// `group_doc:` alone) is reported.
fn group_of<'f>(ck: &mut Checker, f: &'f SpecFile) -> Option<&'f TopLevel<Spanned<String>>> {
    if let (Some(doc), None) = (&f.group_doc, &f.group) {
        ck.error(
            &doc.key,
            "`group_doc` without `group`",
            Some("add `group:` (the module name) to this file".into()),
        );
    }
    match (&f.group, &f.operations) {
        (Some(g), Some(_)) => Some(g),
        (None, Some(ops)) => {
            ck.error(
                &ops.key,
                "`operations` without `group` in this file",
                Some("add `group: <module name>` (snake_case) to this file".into()),
            );
            None
        }
        (Some(g), None) => {
            ck.error(
                &g.key,
                "`group` without `operations` in this file",
                Some("add the group's `operations:`, or remove `group:`".into()),
            );
            None
        }
        (None, None) => None,
    }
}

/// A group name is a snake_case Rust module name, no keyword, not one the crate uses.
fn group_name(ck: &mut Checker, gname: &Spanned<String>) {
    if gname.value.is_empty() {
        ck.error(
            &gname.loc,
            "empty group name",
            Some("name the group in snake_case, e.g. `cny`".into()),
        );
    } else if !names::is_snake(&gname.value) || names::is_keyword(&gname.value) {
        let hint = names::snake(&gname.value);
        ck.error(
            &gname.loc,
            format!(
                "group name `{}` is not a snake_case Rust module name, or is a keyword",
                gname.value
            ),
            Some(
                if names::is_identifier(&hint) && !names::is_keyword(&hint) {
                    format!("rename it, e.g. `{hint}`")
                } else {
                    "rename it to a snake_case identifier that is not a Rust keyword".into()
                },
            ),
        );
    } else if crate::reserved::MODULES.contains(&gname.value.as_str()) {
        ck.error(
            &gname.loc,
            format!(
                "group name `{}` is taken by the generated crate",
                gname.value
            ),
            Some(format!(
                "rename the group; the generated crate reserves the module names {}",
                code_list(crate::reserved::MODULES)
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{checker, errors, files, operations_of, TYPES};
    use crate::check::{declare::declare, records::records};

    const OP: &str = "{ name: ping, path: /ping, params: [], response: { empty: none } }";

    #[test]
    fn groups_keep_file_order_and_operations_spec_order() {
        let (groups, ck) = operations_of(&format!(
            "group: zeta\ngroup_doc: Last letter.\noperations:\n  - {OP}\n  - {{ name: pong, path: /pong, params: [], response: {{ empty: none }} }}\n"
        ));
        assert!(errors(&ck).is_empty(), "{:?}", errors(&ck));
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].doc, "Last letter.");
        let ops: Vec<&str> = groups[0]
            .operations
            .iter()
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(ops, ["ping", "pong"]);
        assert_eq!(groups[0].operations[0].group, "zeta");
    }

    #[test]
    fn a_group_needs_its_operations_and_a_free_module_name() {
        let files = files(&[
            ("s/a.yaml", TYPES),
            ("s/b.yaml", "group: lonely\n"),
            ("s/c.yaml", &format!("operations:\n  - {OP}\n")),
            (
                "s/d.yaml",
                &format!("group: dispatch\noperations:\n  - {OP}\n"),
            ),
            ("s/e.yaml", "group: Bad-Name\noperations: []\n"),
            ("s/f.yaml", "group: dispatch\noperations: []\n"),
        ]);
        let mut ck = checker();
        let c = crate::check::collect::collect(&mut ck, &files);
        let d = declare(&mut ck, &c);
        let r = records(&mut ck, &d.declared, &c.field_sets, &d.records);
        let known = Known {
            declared: &d.declared,
            records: &r,
        };
        let ops = operations(&mut ck, known, &c);
        let names: Vec<&str> = ops.groups.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(names, ["dispatch", "Bad-Name", "dispatch"]);
        assert_eq!(
            errors(&ck),
            [
                "s/b.yaml:1:1: `group` without `operations` in this file",
                "s/c.yaml:1:1: `operations` without `group` in this file",
                "s/d.yaml:1:8: group name `dispatch` is taken by the generated crate",
                "s/e.yaml:1:8: group name `Bad-Name` is not a snake_case Rust module name, or is a keyword",
                "s/f.yaml:1:8: group name `dispatch` is taken by the generated crate",
                "s/f.yaml:1:8: group `dispatch` is defined in two files",
            ]
        );
    }
}
