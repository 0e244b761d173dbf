//! ARCHITECTURE.md's recipe for a new rule kind lists the files a rule kind must be added
//! to. This test keeps the list true: it finds every hand-written source file of the
//! repository that names every rule kind of the registry (by spec key, or by validator
//! method, in the casings the languages use) and compares that set with the list.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use baas_codegen::model::{DecimalWire, Number, TypeRef};
use baas_codegen::rules::{Arg, ArgShape, RuleKey, RuleKind};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files between the markers of ARCHITECTURE.md, as written in its table.
fn listed() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let start = text
        .find("<!-- rule-kind-files:start -->")
        .expect("the start marker");
    let end = text
        .find("<!-- rule-kind-files:end -->")
        .expect("the end marker");
    text[start..end]
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split('`').next())
        .map(str::to_owned)
        .collect()
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    for (i, w) in snake.split('_').enumerate() {
        let mut c = w.chars();
        match (i, c.next()) {
            (0, Some(f)) => out.extend(std::iter::once(f).chain(c)),
            (_, Some(f)) => out.extend(f.to_uppercase().chain(c)),
            _ => {}
        }
    }
    out
}

fn pascal(snake: &str) -> String {
    let c = camel(snake);
    let mut chars = c.chars();
    chars
        .next()
        .map(|f| f.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Every validator method the registry can name, on every type a rule applies to.
fn methods() -> BTreeSet<&'static str> {
    let types = [
        TypeRef::String,
        TypeRef::Int,
        TypeRef::Long,
        TypeRef::Decimal {
            wire: DecimalWire::String,
        },
        TypeRef::Enum {
            name: "Currency".to_owned(),
        },
        TypeRef::Array {
            item: Box::new(TypeRef::String),
        },
    ];
    let mut out = BTreeSet::new();
    for key in RuleKey::ALL {
        let rule = example(key);
        for ty in &types {
            if let Some(check) = rule.check(ty) {
                out.insert(check.method);
            }
        }
    }
    out
}

/// A rule of kind `key` with an argument of its shape.
fn example(key: RuleKey) -> RuleKind {
    let number = |text: &str| Number::parse(text).expect("a number");
    let arg = match key.arg() {
        ArgShape::Count => Arg::Count(5),
        ArgShape::Places => Arg::Places(2),
        ArgShape::Flag => Arg::Flag,
        ArgShape::Range => Arg::Range {
            min: Some(number("1")),
            max: Some(number("10")),
        },
        ArgShape::Text => Arg::Text("checked by the service".to_owned()),
        ArgShape::Values => Arg::Values(vec!["KES".to_owned()]),
    };
    key.with(arg).expect("an argument of the key's shape")
}

fn names_all(text: &str, names: &BTreeSet<&str>) -> bool {
    names
        .iter()
        .all(|n| text.contains(n) || text.contains(&camel(n)) || text.contains(&pascal(n)))
}

/// Hand-written sources: generated code, build output, dependencies and the generator's
/// snapshot fixtures (its output) are not where a rule kind is added.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let skip = name.starts_with('.')
                || [
                    "target",
                    "node_modules",
                    "generated",
                    "build",
                    "dist",
                    "vendor",
                    "__pycache__",
                    "fixtures",
                ]
                .contains(&name.as_str());
            if !skip {
                sources(&path, out);
            }
        } else if [".rs", ".py", ".ts", ".java", ".php", ".mjs"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            out.push(path);
        }
    }
}

#[test]
fn the_rule_kind_recipe_lists_every_file_that_names_every_rule_kind() {
    let methods = methods();
    let keys: BTreeSet<&str> = RuleKey::ALL.iter().map(|k| k.spec_key()).collect();
    assert!(
        methods.len() >= 10 && keys.len() >= 10,
        "{methods:?} {keys:?}"
    );
    let root = root().canonicalize().expect("repository root");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let found: BTreeSet<String> = files
        .iter()
        .filter(|path| {
            std::fs::read_to_string(path)
                .is_ok_and(|text| names_all(&text, &methods) || names_all(&text, &keys))
        })
        .filter_map(|path| path.strip_prefix(&root).ok())
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    let listed = listed();
    let unlisted: Vec<&String> = found.difference(&listed).collect();
    let stale: Vec<&String> = listed.difference(&found).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "ARCHITECTURE.md's rule-kind files disagree with the repository:\n  \
         name every rule kind but are not listed: {unlisted:?}\n  \
         listed but do not name every rule kind: {stale:?}"
    );
}
