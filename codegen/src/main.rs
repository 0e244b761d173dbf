//! `baas-codegen`: check the spec, print the model, or regenerate `generated/`.
//!
//! ```text
//! cargo run -p baas-codegen -- check [--spec DIR]   # check spec/, print a summary
//! cargo run -p baas-codegen -- model [--spec DIR]   # print the checked model as JSON
//! cargo run -p baas-codegen                         # regenerate generated/
//! cargo run -p baas-codegen -- --check              # exit 1 if generated/ is stale
//! cargo run -p baas-codegen -- --spec DIR --out DIR  # generate another spec elsewhere
//! ```
//!
//! Exit codes: 0 success; 1 spec errors or stale output; 2 usage or I/O
//! errors. Default paths are relative to the workspace root, so any working directory
//! works.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use baas_codegen::model::{Api, Field, Params, Response, RuleKind};
use baas_codegen::{check_spec, Checked};
use clap::{Args, Parser, Subcommand};

/// Checks the YAML spec of the BaaS API and generates the `baas-client` crate from it.
///
/// Without a subcommand: regenerate generated/ from spec/ and list the files that changed.
#[derive(Parser)]
#[command(name = "baas-codegen", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    generate: GenerateArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Check the spec and print a summary (exit 1 on spec errors).
    Check(SpecArg),
    /// Print the checked model as JSON (shape: codegen/MODEL.md).
    Model(SpecArg),
    /// Regenerate generated/ (the same as no subcommand).
    Generate(GenerateArgs),
}

#[derive(Args)]
struct SpecArg {
    /// Spec folder [default: spec/ of the workspace].
    #[arg(long, value_name = "DIR")]
    spec: Option<PathBuf>,
}

#[derive(Args)]
struct GenerateArgs {
    /// Change nothing; exit 1 if generated/ is not what the spec generates.
    #[arg(long)]
    check: bool,
    /// Spec folder [default: spec/ of the workspace].
    #[arg(long, value_name = "DIR")]
    spec: Option<PathBuf>,
    /// Output crate folder [default: generated/ of the workspace; required with --spec,
    /// so another spec never overwrites the client].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn default_spec(spec: Option<PathBuf>) -> PathBuf {
    spec.unwrap_or_else(|| workspace_root().join("spec"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Cmd::Check(a)) => run_check(&default_spec(a.spec)),
        Some(Cmd::Model(a)) => run_model(&default_spec(a.spec)),
        Some(Cmd::Generate(g)) => generate(g),
        None => generate(cli.generate),
    }
}

fn generate(g: GenerateArgs) -> ExitCode {
    let out = match (&g.spec, g.out) {
        (_, Some(out)) => out,
        (None, None) => workspace_root().join("generated"),
        (Some(_), None) => {
            eprintln!(
                "baas-codegen: `--spec` with generation needs `--out DIR` (it would overwrite generated/)"
            );
            return ExitCode::from(2);
        }
    };
    run_generate(&default_spec(g.spec), &out, g.check)
}

/// Loads and checks the spec, printing diagnostics to stderr; `Err` holds the exit code.
fn load(spec: &Path) -> Result<Checked, ExitCode> {
    if !spec.is_dir() {
        eprintln!("baas-codegen: spec folder `{}` not found", spec.display());
        return Err(ExitCode::from(2));
    }
    match check_spec(spec) {
        Ok(checked) => {
            for w in &checked.warnings {
                eprintln!("{w}");
            }
            Ok(checked)
        }
        Err(diags) => {
            eprint!("{diags}");
            eprintln!(
                "baas-codegen: the spec has {} error{}",
                diags.len(),
                if diags.len() == 1 { "" } else { "s" }
            );
            Err(ExitCode::from(1))
        }
    }
}

fn run_check(spec: &Path) -> ExitCode {
    match load(spec) {
        Ok(checked) => {
            print!("{}", summary(&checked));
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

fn run_model(spec: &Path) -> ExitCode {
    let checked = match load(spec) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match serde_json::to_string_pretty(&checked.api) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("baas-codegen: cannot print the model: {e}");
            ExitCode::from(2)
        }
    }
}

// ---- generate / --check: the emitter's arm (codegen/src/emit, format.rs, write.rs) ----

fn run_generate(spec: &Path, out: &Path, check_only: bool) -> ExitCode {
    use baas_codegen::write::{regenerate, Mode};
    let checked = match load(spec) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mode = if check_only { Mode::Check } else { Mode::Write };
    let label = if out == workspace_root().join("generated") {
        "generated/".to_owned()
    } else {
        out.display().to_string()
    };
    match regenerate(&checked.api, out, mode) {
        Ok(changes) if changes.is_empty() => {
            println!("{label} is up to date");
            ExitCode::SUCCESS
        }
        Ok(changes) => {
            for c in &changes {
                println!("{c}");
            }
            if check_only {
                eprintln!(
                    "baas-codegen: {label} is stale ({} file(s)); run `cargo run -p baas-codegen`",
                    changes.len()
                );
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("baas-codegen: {e}");
            ExitCode::from(2)
        }
    }
}

// ---- summary of `check` ----

fn all_fields(api: &Api) -> Vec<&Field> {
    let mut v: Vec<&Field> = api
        .envelope
        .request
        .iter()
        .chain(api.envelope.response.iter())
        .collect();
    for op in api.operations() {
        if let Params::Fields { fields } = &op.params {
            v.extend(fields);
        }
        if let Response::Fields { fields, .. } = &op.response {
            v.extend(fields);
        }
    }
    for r in &api.records {
        v.extend(&r.fields);
    }
    v
}

fn summary(checked: &Checked) -> String {
    let api = &checked.api;
    let ops: Vec<_> = api.operations().collect();
    let unspecified_params = ops
        .iter()
        .filter(|o| matches!(o.params, Params::Unspecified { .. }))
        .count();
    let unspecified_resp = ops
        .iter()
        .filter(|o| matches!(o.response, Response::Unspecified { .. }))
        .count();
    let rules: Vec<_> = all_fields(api).into_iter().flat_map(|f| &f.rules).collect();
    let server = rules
        .iter()
        .filter(|r| matches!(r.kind, RuleKind::ServerSide { .. }))
        .count();
    let constraints: usize = ops.iter().map(|o| o.constraints.len()).sum();
    let values: usize = api.enums.iter().map(|e| e.values.len()).sum();
    let money = ops.iter().filter(|o| o.moves_money).count();
    let mut s = String::new();
    s.push_str(&format!("spec ok: {}\n", api.title));
    s.push_str(&format!(
        "  operations:    {} in {} groups ({} move money; {} with unspecified params, {} with unspecified response)\n",
        ops.len(),
        api.groups.len(),
        money,
        unspecified_params,
        unspecified_resp
    ));
    s.push_str(&format!("  records:       {}\n", api.records.len()));
    s.push_str(&format!(
        "  enums:         {} ({} values)\n",
        api.enums.len(),
        values
    ));
    s.push_str(&format!(
        "  rules:         {} ({} checked by the client, {} server-side)\n",
        rules.len(),
        rules.len() - server,
        server
    ));
    s.push_str(&format!("  constraints:   {constraints}\n"));
    s.push_str(&format!("  decisions:     {}\n", api.decisions.len()));
    s.push_str(&format!("  result codes:  {}\n", api.result_codes.len()));
    s.push_str(&format!("  notifications: {}\n", api.notifications.len()));
    s.push_str(&format!("  warnings:      {}\n", checked.warnings.len()));
    s
}
