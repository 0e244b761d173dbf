//! The front end on bad specs: one fixture per kind of problem, each with an insta snapshot
//! of the located messages (`file:line:column: error: ...` + help).
//!
//! Every case under `tests/fixtures/bad_specs/<case>/` is laid over the good minimal spec
//! `tests/fixtures/bad_specs/_base/`: a case file replaces the base file of the same path
//! or adds a new one, so each case shows only what is wrong.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use baas_codegen::{check_sources, check_spec, Severity};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bad_specs")
}

fn yaml_files(dir: &Path, rel: &Path, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = fs::read_dir(dir.join(rel))
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().expect("name").to_owned();
        let child = rel.join(&name);
        if path.is_dir() {
            yaml_files(dir, &child, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            let key = child
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.insert(key, fs::read_to_string(&path).expect("fixture text"));
        }
    }
}

/// The base spec with the case's files laid over it, named `<case>/<path>`.
fn case_files(case: &str) -> Vec<(String, String)> {
    let mut files = BTreeMap::new();
    yaml_files(&fixtures().join("_base"), Path::new(""), &mut files);
    yaml_files(&fixtures().join(case), Path::new(""), &mut files);
    files
        .into_iter()
        .map(|(k, v)| (format!("{case}/{k}"), v))
        .collect()
}

/// Rendered errors of a case that must fail.
fn errors(case: &str) -> String {
    match check_sources(case, &case_files(case)) {
        Ok(_) => panic!("case `{case}` was accepted"),
        Err(diags) => {
            assert!(!diags.is_empty());
            assert!(diags.0.iter().all(|d| d.severity == Severity::Error));
            // Every error is located in a file of the case and says how to fix it.
            for d in &diags.0 {
                assert!(d.location.file.starts_with(&format!("{case}/")), "{d}");
                assert!(d.help.is_some(), "no help: {d}");
            }
            diags.to_string()
        }
    }
}

macro_rules! bad_spec {
    ($($case:ident),* $(,)?) => {$(
        #[test]
        fn $case() {
            insta::assert_snapshot!(stringify!($case), errors(stringify!($case)));
        }
    )*};
}

bad_spec!(
    yaml_syntax,
    unknown_key,
    unknown_type,
    unknown_enum,
    duplicate_operation,
    duplicate_generated_name,
    constraint_missing_field,
    incompatible_rule,
    keyword_name,
    path_collision,
    conditional_without_constraint,
    unknown_decision,
    multiple_errors,
    decimal_wire,
    notification_unknown_operation,
    record_cycle,
    yaml_features_refused,
    operations_without_group,
    reserved_name,
    result_code_names,
    result_code_missing_name,
    field_set_unknown,
    field_set_duplicate_field,
    field_set_includes,
    paging_mismatch,
    otp_flow_mismatch,
);

#[test]
fn fragile_sort_warning() {
    let checked = check_sources("fragile_sort_warning", &case_files("fragile_sort_warning"))
        .unwrap_or_else(|e| panic!("fragile order is a warning, not an error:\n{e}"));
    assert!(checked
        .warnings
        .iter()
        .all(|w| w.severity == Severity::Warning));
    let text: Vec<String> = checked.warnings.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!("fragile_sort_warning", text.join("\n"));
}

/// A field's doc that repeats its enum's values is a warning (the fact is stated twice
/// and the copies drift); a doc about the field itself is not.
#[test]
fn value_list_in_doc() {
    let checked = check_sources("value_list_in_doc", &case_files("value_list_in_doc"))
        .unwrap_or_else(|e| panic!("a repeated value list is a warning, not an error:\n{e}"));
    let text: Vec<String> = checked.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 1, "{text:?}");
    insta::assert_snapshot!("value_list_in_doc", text.join("\n"));
}

#[test]
fn field_set_unused() {
    let checked = check_sources("field_set_unused", &case_files("field_set_unused"))
        .unwrap_or_else(|e| panic!("an unused field set is a warning, not an error:\n{e}"));
    assert!(checked
        .warnings
        .iter()
        .all(|w| w.severity == Severity::Warning));
    // The included set is flattened into the record, first, located where the set defines it.
    let record = checked
        .api
        .record("TransferDetail")
        .expect("TransferDetail");
    let names: Vec<&str> = record.fields.iter().map(|f| f.wire_name.as_str()).collect();
    assert_eq!(names, ["applicationId", "status", "orders"]);
    let first = &record.fields[0].location;
    assert_eq!(
        (first.file.as_str(), first.line, first.column),
        ("field_set_unused/types.yaml", 16, 9)
    );
    let text: Vec<String> = checked.warnings.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!("field_set_unused", text.join("\n"));
}

#[test]
fn every_fixture_case_has_a_test() {
    let mut cases: Vec<String> = fs::read_dir(fixtures())
        .expect("fixtures")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "_base")
        .collect();
    cases.sort();
    let source = include_str!("spec_errors.rs");
    for case in cases {
        assert!(
            source.contains(&format!("    {case},")) || source.contains(&format!("fn {case}()")),
            "fixture case `{case}` has no test"
        );
    }
}

#[test]
fn good_minimal_spec_checks_clean_from_its_folder() {
    let checked = check_spec(&fixtures().join("_base")).unwrap_or_else(|e| panic!("{e}"));
    assert!(checked.warnings.is_empty(), "{:?}", checked.warnings);
    let api = &checked.api;
    assert_eq!(api.operations().count(), 3);
    let op = api.operations().next().expect("an operation");
    assert_eq!(op.location.file, "_base/operations/transfers.yaml");
    assert_eq!((op.location.line, op.location.column), (4, 5));
    // A keyword field name becomes a raw identifier.
    let baas_codegen::model::Params::Fields { fields } = &op.params else {
        panic!("fields expected")
    };
    let ty = fields
        .iter()
        .find(|f| f.wire_name == "type")
        .expect("field `type`");
    assert_eq!(ty.rust_name, "r#type");
    let oder = fields
        .iter()
        .find(|f| f.wire_name == "oderArray")
        .expect("oderArray");
    assert_eq!(oder.rust_name, "oder_array");
    let record = api.record("OrderItem").expect("OrderItem");
    assert!(record.used_in_request && record.used_in_response);
    assert!(api
        .record("TransferDetail")
        .is_some_and(|r| r.used_in_response));
}

#[test]
fn real_spec_checks_clean() {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let has_yaml = fs::read_dir(&spec)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .any(|e| e.path().extension().is_some_and(|x| x == "yaml"))
        })
        .unwrap_or(false);
    if !has_yaml {
        return; // spec/ not written yet
    }
    let checked = check_spec(&spec).unwrap_or_else(|e| panic!("spec/ has errors:\n{e}"));
    assert!(checked.api.operations().count() > 0);
    for op in checked.api.operations() {
        assert!(
            op.location.file.starts_with("spec/"),
            "{}",
            op.location.file
        );
    }
}
