//! The package around the modules: `pyproject.toml`, `__init__.py` (what a partner
//! imports) and `__main__.py` (`python -m baas_client sign`).

use super::{docstring, module, names, HEADER, RUNTIME_VERSION};
use crate::plan::SdkPlan;
use crate::text::Out;

/// `pyproject.toml`: the package, at `api.client_version`, on the runtime it needs.
pub fn pyproject(plan: &SdkPlan) -> String {
    let header = HEADER;
    format!(
        r#"{header}[build-system]
requires = ["flit_core>=3.9,<5"]
build-backend = "flit_core.buildapi"

[project]
name = "baas-client"
version = "{version}"
description = "Typed Python client of the {title}: signs every request, verifies every answer, never lets money become a float."
requires-python = ">=3.10"
dependencies = ["baas-runtime=={runtime}"]
license = {{ text = "Proprietary" }}

[tool.flit.module]
name = "baas_client"
"#,
        version = plan.client_version,
        title = plan.title,
        runtime = RUNTIME_VERSION,
    )
}

/// What `baas_client` re-exports from `baas_runtime`.
const RUNTIME_NAMES: [&str; 33] = [
    "ApiError",
    "BaasError",
    "CallOptions",
    "CallTimeout",
    "Config",
    "ConfigError",
    "Confirmed",
    "DecodeError",
    "Document",
    "EncodeError",
    "InvalidRequest",
    "JsonNumber",
    "JsonValue",
    "NotConfirmed",
    "Scalar",
    "Outcome",
    "OutcomeUnknown",
    "Page",
    "PrivateKey",
    "RequestIdMismatch",
    "ResponseTooLarge",
    "RuleKind",
    "Settlement",
    "SignatureInvalid",
    "SignatureMissing",
    "StillUnknown",
    "Success",
    "TransportError",
    "Unknown",
    "Untrusted",
    "Violation",
    "WaitDeadline",
    "WaitPolicy",
];

/// What `baas_client` re-exports from the runtime's modules other than its top level, by
/// module: written once here for the type checker's imports, the lazy table and `__all__`.
const RUNTIME_SUBMODULES: [(&str, &[&str]); 3] = [
    ("baas_runtime.mock", &["Failure", "MockService", "Refusal"]),
    (
        "baas_runtime.notification",
        &["ACK", "DeliveryId", "Notification", "SeenFile", "Verifier"],
    ),
    (
        "baas_runtime.sandbox",
        &[
            "SandboxAdmin",
            "SandboxAdminError",
            "SandboxApplication",
            "SandboxDelivery",
            "SandboxProcess",
        ],
    ),
];

/// The value sets `baas_client` re-exports from its `enums` module.
const ENUM_NAMES: [&str; 2] = ["NotificationType", "ResultCode"];

/// The package's own modules every client has (the groups' modules come from the plan).
const MODULES: [&str; 3] = ["enums", "notifications", "records"];

/// The longest import written on one line (black's default line length); longer ones are
/// parenthesized, one name per line.
const IMPORT_LINE: usize = 88;

/// `__init__.py`: its docstring, its names (imported when first used), the versions, and
/// `__all__`.
pub fn init(plan: &SdkPlan) -> String {
    let mut out = module(&init_doc(plan));
    let mut local = vec!["AsyncClient", "Client"];
    if plan.otp.is_some() {
        local.extend(["AsyncPendingApplication", "PendingApplication"]);
    }
    if plan.settles() {
        local.extend([
            "AsyncSettlingPendingApplication",
            "SettlingPendingApplication",
        ]);
    }
    let groups: Vec<String> = plan.groups.iter().map(|g| names::ident(&g.words)).collect();
    out.line("from typing import TYPE_CHECKING, Any");
    out.blank();
    out.line("if TYPE_CHECKING:");
    out.indent();
    init_imports(&mut out, &local, &groups);
    out.dedent();
    out.blank();
    versions(&mut out, plan);
    out.blank();
    init_all(&mut out, &local, groups.clone());
    out.blank();
    lazy(&mut out, &local, &groups);
    out.finish()
}

/// Where each exported name lives, and the module `__getattr__` (PEP 562) that imports it
/// when it is first used: `import baas_client` loads no more than this file, and a call
/// loads what it needs (issue 36: importing the SDK at most 1.5 times httpx's import).
fn lazy(out: &mut Out, local: &[&str], groups: &[String]) {
    let mut homes: Vec<(String, String)> = Vec::new();
    for n in RUNTIME_NAMES {
        homes.push((n.to_owned(), "baas_runtime".to_owned()));
    }
    for (home, names) in RUNTIME_SUBMODULES {
        for n in names {
            homes.push(((*n).to_owned(), home.to_owned()));
        }
    }
    for n in local {
        homes.push(((*n).to_owned(), "._client".to_owned()));
    }
    for n in ENUM_NAMES {
        homes.push((n.to_owned(), ".enums".to_owned()));
    }
    for n in MODULES
        .iter()
        .map(|s| (*s).to_owned())
        .chain(groups.iter().cloned())
    {
        homes.push((n, String::new()));
    }
    homes.sort();
    out.line("# Where each name lives (\"\" for a module of this package): imported on first use.");
    out.line("_HOMES = {");
    for (name, home) in &homes {
        out.line(&format!(
            "    {}: {},",
            names::string(name),
            names::string(home)
        ));
    }
    out.line("}");
    out.blank();
    out.blank();
    // Hidden from type checkers, which read the imports above: a misspelt name stays an
    // error for a partner's mypy instead of an `Any`.
    out.line("if not TYPE_CHECKING:");
    out.indent();
    out.blank();
    out.line("def __getattr__(name: str) -> Any:");
    out.indent();
    docstring(
        out,
        "Imports a name of the package the first time it is used (PEP 562).",
    );
    out.line("import importlib");
    out.blank();
    out.line("home = _HOMES.get(name)");
    out.line("if home is None:");
    out.line("    raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")");
    out.line("if home:");
    out.line("    value = getattr(importlib.import_module(home, __name__), name)");
    out.line("else:");
    out.line("    value = importlib.import_module(f\"{__name__}.{name}\")");
    out.line("globals()[name] = value");
    out.line("return value");
    out.dedent();
    out.dedent();
    out.blank();
    out.blank();
    out.line("def __dir__() -> list[str]:");
    out.line("    return sorted(set(globals()) | set(__all__))");
}

/// The package's docstring: a partner's first call, and what every call does.
fn init_doc(plan: &SdkPlan) -> String {
    format!(
        "The Python SDK of the {}.\n\nA partner's first call:\n\n    from baas_client import Client, Config, PrivateKey\n\n    key = PrivateKey.from_env(\"BAAS_PRIVATE_KEY\")\n    with Client(Config(\"https://baas.example.com\", \"your-sender\", key)) as client:\n        account = client.get_account_details(account_id=\"1000000001\")\n        print(account.balance)  # a Decimal, never a float\n\nEvery request is checked against the spec's rules before it is sent, signed over the \
         exact bytes sent; every answer is verified over the exact bytes received. Errors \
         are `BaasError`s whose `outcome` says whether the call was not sent, refused, or \
         may have taken effect. Each name is imported when first used, so importing the \
         package costs little.",
        plan.title
    )
}

/// The runtime's names, the clients, the enums and records, and the group modules (for
/// the type checker; at run time `__getattr__` imports them).
fn init_imports(out: &mut Out, local: &[&str], groups: &[String]) {
    out.line("from baas_runtime import (");
    for n in RUNTIME_NAMES {
        out.line(&format!("    {n},"));
    }
    out.line(")");
    for (module, names) in RUNTIME_SUBMODULES {
        import(out, module, names);
    }
    out.blank();
    out.line(&format!("from . import {}", MODULES.join(", ")));
    out.line(&format!("from ._client import {}", local.join(", ")));
    import(out, ".enums", &ENUM_NAMES);
    out.line(&format!("from . import {}", groups.join(", ")));
}

/// `from MODULE import NAMES`, on one line when it fits in [`IMPORT_LINE`].
fn import(out: &mut Out, module: &str, names: &[&str]) {
    let line = format!("from {module} import {}", names.join(", "));
    if line.len() <= IMPORT_LINE {
        out.line(&line);
        return;
    }
    out.line(&format!("from {module} import ("));
    for n in names {
        out.line(&format!("    {n},"));
    }
    out.line(")");
}

/// `__version__` and `API_VERSION`, each with its docstring.
fn versions(out: &mut Out, plan: &SdkPlan) {
    out.line(&format!(
        "__version__ = {}",
        names::string(&plan.client_version)
    ));
    docstring(
        out,
        "The package's version: `api.client_version` of the spec.",
    );
    out.line(&format!(
        "API_VERSION = {}",
        names::string(&plan.api_version)
    ));
    docstring(out, "The revision of the bank's API the spec describes.");
}

/// `__all__`: every name the package exports, sorted.
fn init_all(out: &mut Out, local: &[&str], groups: Vec<String>) {
    let mut all: Vec<String> = RUNTIME_NAMES.iter().map(|s| (*s).to_owned()).collect();
    all.extend(
        RUNTIME_SUBMODULES
            .iter()
            .flat_map(|(_, names)| names.iter().map(|n| (*n).to_owned())),
    );
    all.extend(local.iter().map(|s| (*s).to_owned()));
    all.extend(ENUM_NAMES.iter().chain(&MODULES).map(|s| (*s).to_owned()));
    all.push("API_VERSION".to_owned());
    all.extend(groups);
    all.sort();
    out.line("__all__ = [");
    for n in all {
        out.line(&format!("    {},", names::string(&n)));
    }
    out.line("]");
}

/// `__main__.py`: `python -m baas_client sign [--verify | --attach]`.
pub fn main_module() -> String {
    let mut out = module(
        "`python -m baas_client sign [--verify | --attach]`: compute or check a message's \
         signature as the SDK does (the key from `BAAS_PRIVATE_KEY`, never printed; the \
         signature as the last line). The same behaviour and exit codes as `baas-sign`.",
    );
    out.line("import sys");
    out.blank();
    out.line("from baas_runtime.cli import main");
    out.blank();
    out.line("USAGE = \"usage: python -m baas_client sign [--verify | --attach] < message.json\"");
    out.blank();
    out.line("if __name__ == \"__main__\":");
    out.indent();
    out.line("args = sys.argv[1:]");
    out.line("if not args or args[0] != \"sign\":");
    out.line("    print(USAGE, file=sys.stderr)");
    out.line("    sys.exit(2)");
    out.line("sys.exit(main(args[1:]))");
    out.dedent();
    out.finish()
}
