//! `_client.py`: `Client` and `AsyncClient`, a method per operation (with `_pages`,
//! `_pending` and `_until_final` where the spec says, in [`methods`]), and the OTP
//! handles ([`pending`]).

mod methods;
mod pending;

use super::models::{field_ident, request_name, response_name};
use super::names::{ident, string};
use super::{doc, docstring, module};
use crate::plan::{sentences, OtpStepPlan, SdkPlan};
use crate::text::Out;
use methods::operation_methods;
use pending::pending_class;

/// Sync or async.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavour {
    Sync,
    Async,
}

impl Flavour {
    fn def(self) -> &'static str {
        match self {
            Flavour::Sync => "def",
            Flavour::Async => "async def",
        }
    }
    fn call(self) -> &'static str {
        match self {
            Flavour::Sync => "",
            Flavour::Async => "await ",
        }
    }
    fn client(self) -> &'static str {
        match self {
            Flavour::Sync => "Client",
            Flavour::Async => "AsyncClient",
        }
    }
    fn runtime(self) -> &'static str {
        match self {
            Flavour::Sync => "RuntimeClient",
            Flavour::Async => "AsyncRuntimeClient",
        }
    }
    fn pending(self) -> &'static str {
        match self {
            Flavour::Sync => "PendingApplication",
            Flavour::Async => "AsyncPendingApplication",
        }
    }
    fn settling(self) -> &'static str {
        match self {
            Flavour::Sync => "SettlingPendingApplication",
            Flavour::Async => "AsyncSettlingPendingApplication",
        }
    }
    fn pages(self) -> &'static str {
        match self {
            Flavour::Sync => "Pages",
            Flavour::Async => "AsyncPages",
        }
    }
}

fn def_line(
    out: &mut Out,
    flavour: Flavour,
    name: &str,
    sig: &[String],
    extra: &[&str],
    ret: &str,
) {
    out.line(&format!("{} {name}(", flavour.def()));
    out.indent();
    out.line("self,");
    if !sig.is_empty() || !extra.is_empty() {
        out.line("*,");
    }
    for s in sig {
        out.line(&format!("{s},"));
    }
    for s in extra {
        out.line(&format!("{s},"));
    }
    out.dedent();
    out.line(&format!(") -> {ret}:"));
}

/// `Client` or `AsyncClient`: its docstring, construction and closing, `execute`, a
/// method per operation, and `group_pending` where the OTP flow groups applications.
fn client_class(out: &mut Out, plan: &SdkPlan, flavour: Flavour) {
    let name = flavour.client();
    out.blank();
    out.blank();
    out.line(&format!("class {name}:"));
    out.indent();
    docstring(out, &client_doc(plan, flavour));
    out.blank();
    constructor(out, flavour);
    out.blank();
    lifecycle(out, flavour);
    out.blank();
    execute_method(out, flavour);
    for op in plan.operations() {
        operation_methods(out, plan, op, flavour);
    }
    if let Some(group) = plan.otp.as_ref().and_then(|f| f.group.as_ref()) {
        group_pending_method(out, plan, flavour, group);
    }
    out.dedent();
}

/// The docstring of a client class.
fn client_doc(plan: &SdkPlan, flavour: Flavour) -> String {
    let (what, close) = match flavour {
        Flavour::Sync => ("blocking", "close()"),
        Flavour::Async => ("asyncio (every call is awaited)", "await aclose()"),
    };
    format!(
        "The {what} client of {}: a method per operation. Use it as a context manager, or \
         call `{close}` when done.\n\n{}\n\n{}\n\n{}",
        plan.title,
        sentences::CHECKED_AND_VERIFIED,
        sentences::ERRORS,
        sentences::OWN_REQUEST_ID
    )
}

/// A client's `__init__` and its `runtime` property.
fn constructor(out: &mut Out, flavour: Flavour) {
    let transport = match flavour {
        Flavour::Sync => "Transport",
        Flavour::Async => "AsyncTransport",
    };
    out.line(&format!(
        "def __init__(self, config: Config, *, transport: {transport} | None = None) -> None:"
    ));
    out.indent();
    docstring(
        out,
        "A client for `config` (base URL, sender, private key, ...), on the default httpx \
         transport unless another is given (a `MockService`'s, your own httpx client's).",
    );
    out.line(&format!(
        "self._runtime = {}(config, transport, retryable_codes=RETRYABLE_CODES)",
        flavour.runtime()
    ));
    out.dedent();
    out.blank();
    out.line("@property");
    out.line(&format!("def runtime(self) -> {}:", flavour.runtime()));
    out.line(
        "    \"\"\"The runtime client (`execute`, `execute_with`, `pages`, `wait_until`).\"\"\"",
    );
    out.line("    return self._runtime");
}

/// A client's closing, and its use as a (sync or async) context manager.
fn lifecycle(out: &mut Out, flavour: Flavour) {
    match flavour {
        Flavour::Sync => {
            out.line("def close(self) -> None:");
            out.line("    self._runtime.close()");
            out.blank();
            out.line("def __enter__(self) -> Client:");
            out.line("    return self");
            out.blank();
            out.line("def __exit__(self, *exc: object) -> None:");
            out.line("    self.close()");
        }
        Flavour::Async => {
            out.line("async def aclose(self) -> None:");
            out.line("    await self._runtime.aclose()");
            out.blank();
            out.line("async def __aenter__(self) -> AsyncClient:");
            out.line("    return self");
            out.blank();
            out.line("async def __aexit__(self, *exc: object) -> None:");
            out.line("    await self.aclose()");
        }
    }
}

/// A client's `execute`: a request object of any operation.
fn execute_method(out: &mut Out, flavour: Flavour) {
    out.line(&format!(
        "{} execute(self, request: Request[R], options: CallOptions | None = None) -> R:",
        flavour.def()
    ));
    out.line("    \"\"\"Sends a request object of any operation (see each method).\"\"\"");
    out.line(&format!(
        "    return {}self._runtime.execute(request, options)",
        flavour.call()
    ));
}

/// `group_pending`: pending applications grouped under one, confirmed with one OTP.
fn group_pending_method(out: &mut Out, plan: &SdkPlan, flavour: Flavour, group: &OtpStepPlan) {
    let Some(op) = plan.operation(&group.operation) else {
        return;
    };
    out.blank();
    def_line(
        out,
        flavour,
        "group_pending",
        &["business_ids: Sequence[str]".to_owned()],
        &["options: CallOptions | None = None"],
        &format!("{}[{}]", flavour.pending(), response_name(op)),
    );
    out.indent();
    doc(out, &group.doc);
    out.line(&format!(
        "request = {}({}=list(business_ids))",
        request_name(op),
        field_ident(op.params(), &group.business_id)
    ));
    out.line(&format!(
        "success = {}self._runtime.execute_with(request, options)",
        flavour.call()
    ));
    out.line(&format!(
        "return {}._from_success(self, success, success.data.{}, {}, {})",
        flavour.pending(),
        field_ident(plan.answer_fields(op), &group.other),
        string(&group.other),
        string(&group.operation)
    ));
    out.dedent();
}

/// `_client.py`.
pub fn client_module(plan: &SdkPlan) -> String {
    let mut out = module(&format!(
        "`Client` and `AsyncClient` of {}: a method per operation.",
        plan.title
    ));
    let settles = plan.settles();
    out.line("import datetime as _dt");
    out.line("from decimal import Decimal");
    if settles {
        out.line("from typing import Awaitable, Callable, Generic, Mapping, Sequence, TypeVar");
    } else {
        out.line("from typing import Generic, Mapping, Sequence, TypeVar");
    }
    out.blank();
    out.line("import baas_runtime.wire as _w");
    out.line("from baas_runtime import (");
    for name in [
        "AsyncPages",
        "AsyncRuntimeClient",
        "AsyncTransport",
        "CallOptions",
        "Config",
        "DecodeError",
        "Pages",
        "Request",
        "RuntimeClient",
        "Settlement",
        "Success",
        "Transport",
        "WaitPolicy",
    ] {
        out.line(&format!("    {name},"));
    }
    out.line(")");
    out.line("from baas_runtime.wire import WireValue");
    out.blank();
    out.line("from .enums import *  # noqa: F403 (every value set a parameter may take)");
    out.line("from .enums import RETRYABLE_CODES");
    out.line("from .records import *  # noqa: F403 (every record a parameter or answer may hold)");
    for group in &plan.groups {
        out.line(&format!("from .{} import (", ident(&group.words)));
        for op in &group.operations {
            out.line(&format!("    {},", request_name(op)));
            out.line(&format!("    {},", response_name(op)));
        }
        out.line(")");
    }
    out.blank();
    out.line("R = TypeVar(\"R\")");
    out.line("S = TypeVar(\"S\")");
    out.blank();
    if let Some(rule) = plan.otp_rule() {
        out.line("#: When the OTP of an application that was not confirmed may be sent again (the spec's words).");
        out.line(&format!("_OTP_RULE = {}", string(rule)));
        out.blank();
    }
    if settles {
        out.line("__all__ = [\"Client\", \"AsyncClient\", \"PendingApplication\", \"AsyncPendingApplication\", \"SettlingPendingApplication\", \"AsyncSettlingPendingApplication\"]");
    } else if plan.otp.is_some() {
        out.line("__all__ = [\"Client\", \"AsyncClient\", \"PendingApplication\", \"AsyncPendingApplication\"]");
    } else {
        out.line("__all__ = [\"Client\", \"AsyncClient\"]");
    }
    for flavour in [Flavour::Sync, Flavour::Async] {
        client_class(&mut out, plan, flavour);
    }
    for flavour in [Flavour::Sync, Flavour::Async] {
        pending_class(&mut out, plan, flavour);
    }
    out.line_raw("");
    out.finish()
}
