//! The one way through the generator: load → check → emit → format → write.
//!
//! [`Artifact::ALL`] is the one list of what is generated from the checked model; the SDK
//! plan ([`crate::plan::build`]) is built once and given to the Rust client's renderer;
//! each artifact's emitter only writes what the model or the plan says (it cannot fail),
//! formatting fails only on a generator bug, and [`crate::write`] does the I/O.

use std::fmt;
use std::path::Path;

use crate::artifact::{EmittedFile, GeneratedFile};
use crate::format::FormatError;
use crate::model::Api;
use crate::plan::SdkPlan;
use crate::write::{Change, Mode, WriteError};
use crate::{check_spec, Checked, Diagnostics};

/// What the generator writes below the output folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Artifact {
    /// The `baas-client` crate (`Cargo.toml`, `src/`).
    RustClient,
    /// The OpenAPI 3.1 document (`openapi/openapi.json`).
    OpenApi,
    /// The JSON Schema of the spec format (`spec-schema/spec.schema.json`).
    SpecSchema,
    /// The Postman collection that signs (`postman/…`).
    Postman,
    /// The Python SDK (`python/`, package `baas_client`).
    PythonSdk,
    /// The TypeScript SDK (`typescript/`, package `@baas/client`).
    TypeScriptSdk,
    /// The PHP SDK (`php/`, Composer package `baas/client`).
    PhpSdk,
    /// The Java SDK (`java/`, Maven artifact `com.baas:baas-client`).
    JavaSdk,
    /// The `baas` command line's table of operations (`cli/commands.rs`, included by
    /// the `baas-cli` package).
    CliCommands,
}

impl Artifact {
    /// Every artifact, in the order its files are written.
    pub const ALL: [Artifact; 9] = [
        Artifact::RustClient,
        Artifact::OpenApi,
        Artifact::SpecSchema,
        Artifact::Postman,
        Artifact::PythonSdk,
        Artifact::TypeScriptSdk,
        Artifact::PhpSdk,
        Artifact::JavaSdk,
        Artifact::CliCommands,
    ];

    /// The artifact's files, unformatted: the SDKs from `plan`, which is `api`'s.
    pub fn emit(self, api: &Api, plan: &SdkPlan) -> Vec<EmittedFile> {
        match self {
            Artifact::RustClient => crate::emit::emit_crate(plan),
            Artifact::OpenApi => crate::openapi::files(api),
            Artifact::SpecSchema => crate::spec_schema::files(),
            Artifact::Postman => crate::postman::files(api),
            Artifact::PythonSdk => crate::python::files(plan),
            Artifact::TypeScriptSdk => crate::typescript::files(plan),
            Artifact::PhpSdk => crate::php::files(plan),
            Artifact::JavaSdk => crate::java::files(plan),
            Artifact::CliCommands => crate::cli::files(plan),
        }
    }
}

/// Every file of every artifact, unformatted.
pub fn emit(api: &Api) -> Vec<EmittedFile> {
    let plan = crate::plan::build(api);
    Artifact::ALL
        .into_iter()
        .flat_map(|artifact| artifact.emit(api, &plan))
        .collect()
}

/// Every file of every artifact, formatted.
///
/// # Errors
/// Only on a generator bug (emitted tokens that do not parse).
pub fn render(api: &Api) -> Result<Vec<GeneratedFile>, FormatError> {
    crate::format::format_files(emit(api))
}

/// The Rust client crate alone, formatted.
///
/// # Errors
/// Only on a generator bug (tokens that do not parse).
pub fn rust_crate(api: &Api) -> Result<Vec<GeneratedFile>, FormatError> {
    crate::format::format_files(crate::emit::emit_crate(&crate::plan::build(api)))
}

/// The whole client as one formatted file, every module inline (snapshot fixtures).
///
/// # Errors
/// Only on a generator bug (tokens that do not parse).
pub fn single_file(api: &Api, origin: &str) -> Result<String, FormatError> {
    // A fixture is a module of another crate, where the examples' `baas_client::` paths
    // name nothing: they are kept (so the snapshot shows them) but not compiled.
    crate::format::format_tokens(crate::emit::emit_single_file(
        &crate::plan::build(api),
        origin,
    ))
    .map(|text| text.replace("/// ```no_run", "/// ```ignore"))
}

/// Why regeneration failed.
#[derive(Debug)]
pub enum RegenerateError {
    /// The spec does not pass the checks.
    Spec(Diagnostics),
    /// The emitted tokens did not format (a generator bug: emitting a checked model
    /// cannot fail).
    Format(FormatError),
    /// A file could not be read or written.
    Write(WriteError),
}

impl fmt::Display for RegenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegenerateError::Spec(d) => write!(f, "the spec does not pass the checks:\n{d}"),
            RegenerateError::Format(e) => write!(f, "internal error, please report: {e}"),
            RegenerateError::Write(e) => write!(f, "cannot write: {e}"),
        }
    }
}

impl std::error::Error for RegenerateError {}

/// Renders every artifact of `api` and syncs (or, with [`Mode::Check`], compares) them
/// with `out_dir`; returns the files that differ.
///
/// # Errors
/// A generator bug, or an I/O failure.
pub fn regenerate(api: &Api, out_dir: &Path, mode: Mode) -> Result<Vec<Change>, RegenerateError> {
    let files = render(api).map_err(RegenerateError::Format)?;
    crate::write::sync(out_dir, &files, mode).map_err(RegenerateError::Write)
}

/// The whole way: checks the spec folder, then [`regenerate`]s `out_dir`. Returns the
/// checked spec (its warnings) and the files that differ.
///
/// # Errors
/// Every problem of the spec, a generator bug, or an I/O failure.
pub fn run(
    spec_dir: &Path,
    out_dir: &Path,
    mode: Mode,
) -> Result<(Checked, Vec<Change>), RegenerateError> {
    let checked = check_spec(spec_dir).map_err(RegenerateError::Spec)?;
    let changes = regenerate(&checked.api, out_dir, mode)?;
    Ok((checked, changes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_artifact_is_emitted_in_order_and_formats() {
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
        let checked = check_spec(&spec).expect("spec/ checks");
        let files = render(&checked.api).expect("formats");
        let first = |prefix: &str| files.iter().position(|f| f.path.starts_with(prefix));
        let order = [
            first("Cargo.toml"),
            first("openapi/"),
            first("spec-schema/"),
            first("postman/"),
            first("python/"),
            first("typescript/"),
            first("php/"),
            first("java/"),
            first("cli/"),
        ];
        assert!(order.iter().all(Option::is_some), "{order:?}");
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        let mut paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), files.len(), "no file is written twice");
    }
}
