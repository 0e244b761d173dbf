//! The generated package against the hand-written runtime it runs on: the runtime's
//! version, and a validator method, with the arguments the registry gives, for every
//! check any rule kind can name (so a new rule kind fails here until `validate.py` has
//! its method, not silently in a partner's call).

use std::path::Path;

use super::{HEADER, RUNTIME_VERSION};
use crate::artifact::GENERATED_WORDS;
use crate::rules::{every_check, CheckArg, CheckValue, RuleKey};

fn runtime_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("python/{path}: {e}"))
}

#[test]
fn the_header_says_the_shared_words() {
    assert_eq!(HEADER, format!("# {GENERATED_WORDS}\n"));
}

/// The package pins the runtime it was generated for: the runtime must have that
/// version, in its metadata and in `baas_runtime.__version__`.
#[test]
fn the_package_needs_the_runtime_version_the_runtime_has() {
    let manifest = runtime_file("pyproject.toml");
    assert!(
        manifest.contains(&format!("\nversion = \"{RUNTIME_VERSION}\"\n")),
        "python/pyproject.toml is not version {RUNTIME_VERSION}"
    );
    let init = runtime_file("baas_runtime/__init__.py");
    assert!(
        init.contains(&format!("\n__version__ = \"{RUNTIME_VERSION}\"\n")),
        "baas_runtime.__version__ is not {RUNTIME_VERSION}"
    );
}

/// The parameters of `Validator.<method>` after `self`, as `name: type` texts.
fn validator_params(source: &str, method: &str) -> Option<Vec<String>> {
    let class = &source[source.find("\nclass Validator")?..];
    let def = &class[class.find(&format!("\n    def {method}("))?..];
    let open = def.find('(')? + 1;
    let params = def[open..open + def[open..].find(") ->")?].split_whitespace();
    let params = params.collect::<Vec<_>>().join(" ");
    let params = params.strip_prefix("self, ")?.trim_end_matches(',');
    Some(params.split(", ").map(str::to_owned).collect())
}

/// The Python type of the value a check reads, and of each argument.
fn python_type(value: CheckValue) -> &'static str {
    match value {
        CheckValue::Text => "str",
        CheckValue::Integer | CheckValue::Length | CheckValue::Size => "int",
        CheckValue::Amount => "Decimal",
        CheckValue::Wire => "str",
    }
}

fn arg_type(arg: &CheckArg) -> &'static str {
    match arg {
        CheckArg::Count(_) | CheckArg::Places(_) => "int",
        CheckArg::Integer(_) => "int | None",
        CheckArg::Amount(_) => "Decimal | None",
        CheckArg::Texts(_) => "Sequence[str]",
    }
}

#[test]
fn the_runtime_validator_has_every_method_the_registry_can_name() {
    let source = runtime_file("baas_runtime/validate.py");
    let checks = every_check();
    // Every client-checked kind names a method somewhere: the loop below is not vacuous.
    for key in RuleKey::ALL.into_iter().filter(|k| k.client_checked()) {
        assert!(
            checks.iter().any(|(k, _)| *k == key),
            "{key:?} has no check"
        );
    }
    for (key, check) in &checks {
        let params = validator_params(&source, check.method).unwrap_or_else(|| {
            panic!(
                "python/baas_runtime/validate.py: Validator has no `{}` ({key:?})",
                check.method
            )
        });
        let types: Vec<&str> = params
            .iter()
            .map(|p| p.split_once(": ").map_or("", |(_, ty)| ty))
            .collect();
        let mut expected = vec!["FieldPath", python_type(check.value)];
        expected.extend(check.args.iter().map(arg_type));
        assert_eq!(
            types, expected,
            "Validator.{} takes {params:?}; the registry calls it with (path, value, {:?})",
            check.method, check.args
        );
        // A violation of the kind is reported under the kind's name.
        assert!(
            source.contains(&format!(" = \"{}\"\n", key.spec_key())),
            "baas_runtime.validate.RuleKind has no member \"{}\"",
            key.spec_key()
        );
    }
}
