//! Generates a client with progenitor (from crates.io, version pinned by the script) for
//! tests/compile_cost/run.sh: `progenitor-gen OPENAPI.json OUT.rs`. Progenitor's default
//! settings: the positional interface, no tags, no hooks. The output is progenitor's
//! tokens formatted with prettyplease, as its build.rs recipe does, so what the script
//! times is the compilation of generated code (no macro expansion), as for baas-client.
//!
//! Exit codes: 2 if the document does not load as OpenAPI 3.0 (the `openapiv3` crate),
//! 3 if progenitor refuses it, 1 for I/O errors.

use std::process::exit;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, input, output] = args.as_slice() else {
        eprintln!("usage: progenitor-gen OPENAPI.json OUT.rs");
        exit(1);
    };
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| {
        eprintln!("cannot read {input}: {e}");
        exit(1);
    });
    let spec: openapiv3::OpenAPI = serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!("{input} does not load as OpenAPI 3.0 (openapiv3): {e}");
        exit(2);
    });
    let mut generator = progenitor::Generator::default();
    let tokens = generator.generate_tokens(&spec).unwrap_or_else(|e| {
        eprintln!("progenitor refuses {input}: {e}");
        exit(3);
    });
    let file: syn::File = syn::parse2(tokens).unwrap_or_else(|e| {
        eprintln!("progenitor's output does not parse: {e}");
        exit(3);
    });
    let text = prettyplease::unparse(&file);
    std::fs::write(output, &text).unwrap_or_else(|e| {
        eprintln!("cannot write {output}: {e}");
        exit(1);
    });
    eprintln!(
        "progenitor-gen: {} paths -> {output} ({} lines; uses futures: {})",
        spec.paths.paths.len(),
        text.lines().count(),
        generator.uses_futures()
    );
}
