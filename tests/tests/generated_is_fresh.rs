//! `generated/` must equal a fresh render of `spec/` (it is checked in and never edited
//! by hand).

use std::path::Path;

#[test]
fn generated_crate_is_fresh() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (_, changes) = baas_codegen::pipeline::run(
        &workspace.join("spec"),
        &workspace.join("generated"),
        baas_codegen::write::Mode::Check,
    )
    .unwrap_or_else(|e| panic!("cannot render generated/: {e}"));
    let listed: Vec<String> = changes.iter().map(ToString::to_string).collect();
    assert!(
        changes.is_empty(),
        "generated/ is stale; run `cargo run -p baas-codegen` and commit the result.\n{}",
        listed.join("\n")
    );
}
