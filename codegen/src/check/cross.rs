//! Cross-checks over every operation: operation names, Rust methods and the types
//! generated for them unique (and free of the declared type names); a path shared by
//! operations is backed by a recorded decision.

use std::collections::BTreeMap;

use super::{at, Checker};
use crate::model::{self, Location};

/// Operation names, their methods and their `<Type>Request`/`<Type>Response` types are
/// unique, and no generated type takes a declared type's name.
pub(super) fn operation_names(
    ck: &mut Checker,
    ops: &[&model::Operation],
    types: &BTreeMap<String, (String, Location)>,
) {
    let mut by_name: BTreeMap<&str, &Location> = BTreeMap::new();
    let mut by_method: BTreeMap<&str, (&str, &Location)> = BTreeMap::new();
    let mut type_names: BTreeMap<String, (String, Location)> = types.clone();
    for op in ops {
        if op.name.is_empty() {
            continue;
        }
        if let Some(prev) = by_name.get(op.name.as_str()) {
            let prev = at(prev);
            ck.error(
                &op.location,
                format!("operation `{}` is defined twice", op.name),
                Some(format!(
                    "first defined at {prev}; operation names are unique"
                )),
            );
            continue;
        }
        by_name.insert(&op.name, &op.location);
        if let Some((other, prev)) = by_method.get(op.rust_name.as_str()) {
            let prev = at(prev);
            ck.error(
                &op.location,
                format!(
                    "operations `{other}` and `{}` both become the Rust method `{}`",
                    op.name, op.rust_name
                ),
                Some(format!("rename one of them (the other is at {prev})")),
            );
            continue;
        }
        by_method.insert(&op.rust_name, (&op.name, &op.location));
        for suffix in ["Request", "Response"] {
            let t = format!("{}{suffix}", op.type_name);
            if let Some((kind, prev)) = type_names.get(&t) {
                let prev = at(prev);
                ck.error(
                    &op.location,
                    format!(
                        "the type `{t}` generated for operation `{}` collides with {kind} `{t}`",
                        op.name
                    ),
                    Some(format!("rename the operation or the other (at {prev})")),
                );
            } else {
                type_names.insert(
                    t,
                    (
                        format!(
                            "the {} type of operation `{}`, ",
                            suffix.to_lowercase(),
                            op.name
                        ),
                        op.location.clone(),
                    ),
                );
            }
        }
    }
}

/// True when `about` names `path` as a word (quotes and punctuation around it aside).
fn about_names_path(about: &str, path: &str) -> bool {
    about
        .split_whitespace()
        .any(|t| t.trim_matches(|c: char| ",;:()`'\"".contains(c)) == path)
}

/// Operations sharing a path each list a decision whose `about:` names the path.
pub(super) fn shared_paths(
    ck: &mut Checker,
    ops: &[&model::Operation],
    decisions: &[model::Decision],
) {
    let mut by_path: BTreeMap<&str, Vec<&model::Operation>> = BTreeMap::new();
    for op in ops {
        by_path.entry(op.path.as_str()).or_default().push(op);
    }
    for (path, list) in by_path {
        if list.len() < 2 {
            continue;
        }
        let all: Vec<String> = list.iter().map(|o| format!("`{}`", o.name)).collect();
        for op in &list {
            let recorded = op.decisions.iter().any(|id| {
                decisions
                    .iter()
                    .any(|d| d.id == *id && about_names_path(&d.about, path))
            });
            if !recorded {
                ck.error(
                    &op.location,
                    format!("path `{path}` is shared by operations {} without a recorded decision on operation `{}`", all.join(", "), op.name),
                    Some(format!("list under this operation's `decisions:` a decision whose `about:` names `{path}`, saying why the path is shared")),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, run};

    fn check(ops_yaml: &str) -> Vec<String> {
        let mut ran = run(&format!("group: g\noperations:\n{ops_yaml}"), false);
        let ops: Vec<&model::Operation> = ran
            .groups
            .iter()
            .flat_map(|g| g.operations.iter())
            .collect();
        let before = ran.ck.errors.len();
        let mut types = ran.declared.types.clone();
        types.insert(
            "PayRequest".into(),
            ("record".into(), crate::check::testing::loc(1)),
        );
        operation_names(&mut ran.ck, &ops, &types);
        shared_paths(&mut ran.ck, &ops, &[]);
        errors(&ran.ck).split_off(before)
    }

    #[test]
    fn operation_names_methods_and_types_are_unique() {
        let errors = check(
            "  - { name: getItem, path: /a, params: [], response: { empty: e } }
  - { name: getItem, path: /b, params: [], response: { empty: e } }
  - { name: get_item, path: /c, params: [], response: { empty: e } }
  - { name: pay, path: /d, params: [], response: { empty: e } }
",
        );
        assert_eq!(
            errors,
            [
                "s/t.yaml:4:5: operation `getItem` is defined twice",
                "s/t.yaml:5:5: operations `getItem` and `get_item` both become the Rust method `get_item`",
                "s/t.yaml:6:5: the type `PayRequest` generated for operation `pay` collides with record `PayRequest`",
            ]
        );
    }

    #[test]
    fn a_shared_path_needs_a_decision_naming_it() {
        let errors = check(
            "  - { name: one, path: /same, params: [], response: { empty: e } }
  - { name: two, path: /same, params: [], response: { empty: e } }
  - { name: three, path: /other, params: [], response: { empty: e } }
",
        );
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0]
            .starts_with("s/t.yaml:3:5: path `/same` is shared by operations `one`, `two`"));
        assert!(about_names_path("why `/same` is shared", "/same"));
        assert!(!about_names_path("/same/more", "/same"));
    }
}
