//! `baas-codegen`: check the spec, print the model, regenerate `generated/`, or compare
//! two versions of the spec.
//!
//! ```text
//! cargo run -p baas-codegen -- check [--spec DIR]   # check spec/, print a summary
//! cargo run -p baas-codegen -- model [--spec DIR]   # print the checked model as JSON
//! cargo run -p baas-codegen                         # regenerate generated/
//! cargo run -p baas-codegen -- --check              # exit 1 if generated/ is stale
//! cargo run -p baas-codegen -- --spec DIR --out DIR  # generate another spec elsewhere
//! cargo run -p baas-codegen -- diff HEAD~1 spec/    # classify every change (codegen/DIFF.md)
//! ```
//!
//! Exit codes: 0 success; 1 spec errors, stale output or a failed gate; 2 usage or I/O
//! errors. Default paths are relative to the repository: the nearest folder at or above
//! the current directory holding `spec/` and `Cargo.toml` (or `--repo DIR`), so the
//! command works from any folder inside a clone and always on the clone it runs in.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use baas_codegen::diff::{self, gate, render, source};
use baas_codegen::model::{Api, Field, Params, Response};
use baas_codegen::rules::RuleKind;
use baas_codegen::{check_spec, Checked};
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Checks the YAML spec of the BaaS API and generates the `baas-client` crate from it.
///
/// Without a subcommand: regenerate generated/ from spec/ and list the files that changed.
#[derive(Parser)]
#[command(name = "baas-codegen")]
struct Cli {
    /// The repository [default: the nearest folder at or above the current directory
    /// holding `spec/` and `Cargo.toml`].
    #[arg(long, global = true, value_name = "DIR")]
    repo: Option<PathBuf>,
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
    /// Compare two specs and classify every change for Rust and on the wire
    /// (codegen/DIFF.md).
    Diff(DiffArgs),
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

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// A changelog entry: grouped by operation, breaking lines marked.
    Markdown,
    /// For tools: `{ "bump": ..., "changes": [...] }`.
    Json,
}

#[derive(Args)]
struct DiffArgs {
    /// The old spec: a folder, a git revision of this repository (its spec/), or REV:PATH.
    old: String,
    /// The new spec, likewise (usually `spec/`, the working tree).
    new: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    format: Format,
    /// Exit 1 unless NEW's client_version is bumped at least as much as the changes need
    /// and the changelog has an entry for it.
    #[arg(long)]
    gate: bool,
    /// Insert the Markdown entry, as a draft to edit, into the changelog (refused when the
    /// version is not bumped enough or already has an entry).
    #[arg(long)]
    write_changelog: bool,
    /// The changelog [default: generated/CHANGELOG.md of the workspace].
    #[arg(long, value_name = "FILE")]
    changelog: Option<PathBuf>,
}

fn default_spec(root: &Path, spec: Option<PathBuf>) -> PathBuf {
    spec.unwrap_or_else(|| root.join("spec"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let generate_args =
        cli.generate.check || cli.generate.spec.is_some() || cli.generate.out.is_some();
    if cli.command.is_some() && generate_args {
        // `check` (the spec) and `--check` (generated/ is fresh) are different questions.
        eprintln!(
            "baas-codegen: `--check`, `--spec` and `--out` before a subcommand belong to \
             generation; give them after the subcommand (e.g. `check --spec DIR`)"
        );
        return ExitCode::from(2);
    }
    let root = match baas_codegen::workspace::resolve(cli.repo.as_deref()) {
        Ok(root) => root,
        Err(e) => {
            eprintln!("baas-codegen: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Some(Cmd::Check(a)) => run_check(&default_spec(&root, a.spec)),
        Some(Cmd::Model(a)) => run_model(&default_spec(&root, a.spec)),
        Some(Cmd::Generate(g)) => generate(&root, g),
        Some(Cmd::Diff(d)) => run_diff(&root, d),
        None => generate(&root, cli.generate),
    }
}

fn generate(root: &Path, g: GenerateArgs) -> ExitCode {
    let out = match (&g.spec, g.out) {
        (_, Some(out)) => out,
        (None, None) => root.join("generated"),
        (Some(_), None) => {
            eprintln!(
                "baas-codegen: `--spec` with generation needs `--out DIR` (it would overwrite generated/)"
            );
            return ExitCode::from(2);
        }
    };
    run_generate(root, &default_spec(root, g.spec), &out, g.check)
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

fn run_generate(root: &Path, spec: &Path, out: &Path, check_only: bool) -> ExitCode {
    use baas_codegen::pipeline::regenerate;
    use baas_codegen::write::Mode;
    let checked = match load(spec) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mode = if check_only { Mode::Check } else { Mode::Write };
    let label = if out == root.join("generated") {
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

// ---- diff ----

fn run_diff(root: &Path, d: DiffArgs) -> ExitCode {
    let mut sides = Vec::new();
    for arg in [&d.old, &d.new] {
        match source::load(arg, root) {
            Ok(checked) => sides.push(checked.api),
            Err(e @ source::SideError::NotFound(_)) => {
                eprintln!("baas-codegen: {e}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("baas-codegen: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let report = diff::compare(&sides[0], &sides[1]);
    match d.format {
        Format::Markdown => print!("{}", render::markdown(&report)),
        Format::Json => print!("{}", render::json(&report)),
    }
    let changelog_path = d
        .changelog
        .unwrap_or_else(|| root.join("generated/CHANGELOG.md"));
    let changelog = std::fs::read_to_string(&changelog_path).ok();
    if d.write_changelog {
        if let Err(e) = write_changelog(&report, &changelog_path, changelog.as_deref()) {
            eprintln!("baas-codegen: {e}");
            return ExitCode::from(1);
        }
        eprintln!(
            "baas-codegen: draft entry `{}` written to {}: edit it before committing",
            render::entry_heading(&report),
            changelog_path.display()
        );
        return ExitCode::SUCCESS;
    }
    if d.gate {
        let changelog = std::fs::read_to_string(&changelog_path).ok();
        let problems = gate::check(&report, changelog.as_deref());
        if !problems.is_empty() {
            for p in &problems {
                eprintln!("baas-codegen: gate: {p}");
            }
            return ExitCode::from(1);
        }
        eprintln!(
            "baas-codegen: gate: ok ({} bump needed; client_version {} → {}; changelog has its entry)",
            report.bump, report.old.client_version, report.new.client_version
        );
    }
    ExitCode::SUCCESS
}

/// Inserts the report's entry above the newest one (the first `## ` heading).
fn write_changelog(
    report: &diff::Report,
    path: &Path,
    existing: Option<&str>,
) -> Result<(), String> {
    let version = &report.new.client_version;
    let problems = gate::check(report, Some(""));
    if let Some(p) = problems.iter().find(|p| !p.contains("CHANGELOG")) {
        return Err(format!("not writing the changelog: {p}"));
    }
    let existing = existing.unwrap_or("# Changelog of baas-client\n");
    if gate::has_entry(existing, version) {
        return Err(format!(
            "{} already has an entry for {version}: edit it by hand",
            path.display()
        ));
    }
    let entry = render::markdown(report);
    let at = existing
        .match_indices("\n## ")
        .next()
        .map(|(i, _)| i + 1)
        .unwrap_or(existing.len());
    let (head, tail) = existing.split_at(at);
    let mut text = head.trim_end().to_owned();
    text.push_str("\n\n");
    text.push_str(entry.trim_end());
    text.push('\n');
    if !tail.is_empty() {
        text.push('\n');
        text.push_str(tail);
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
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
