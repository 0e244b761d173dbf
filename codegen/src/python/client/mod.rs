//! `_client.py`: `Client` and `AsyncClient`, a method per operation (with `_pages`,
//! `_pending` and `_until_final` where the spec says, in [`methods`]), and the OTP
//! handles ([`pending`]).

mod methods;
mod pending;

use super::models::{docstring, request_name, response_name};
use super::names::{ident, string};
use super::Out;
use crate::model::{Api, OtpStep};
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
fn client_class(out: &mut Out, api: &Api, flavour: Flavour) {
    let name = flavour.client();
    out.blank();
    out.blank();
    out.line(&format!("class {name}:"));
    out.indent();
    docstring(out, &client_doc(api, flavour));
    out.blank();
    constructor(out, flavour);
    out.blank();
    lifecycle(out, flavour);
    out.blank();
    execute_method(out, flavour);
    for op in api.operations() {
        operation_methods(out, api, op, flavour);
    }
    if let Some(group) = api.otp_flow.as_ref().and_then(|f| f.group.as_ref()) {
        group_pending_method(out, flavour, group);
    }
    out.dedent();
}

/// The docstring of a client class.
fn client_doc(api: &Api, flavour: Flavour) -> String {
    let what = match flavour {
        Flavour::Sync => "blocking",
        Flavour::Async => "asyncio (every call is awaited)",
    };
    format!(
        "The {} client of {}: a method per operation.\n\nEvery call validates its \
         parameters, signs the exact bytes it sends, verifies the answer's signature and \
         requestId echo, and retries the spec's retryable codes only where that is \
         safe. Use it as a context manager, or call `{}` when done.",
        what,
        api.title,
        match flavour {
            Flavour::Sync => "close()",
            Flavour::Async => "await aclose()",
        }
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
fn group_pending_method(out: &mut Out, flavour: Flavour, group: &OtpStep) {
    out.blank();
    def_line(
        out,
        flavour,
        "group_pending",
        &["business_ids: Sequence[str]".to_owned()],
        &["options: CallOptions | None = None"],
        &format!("{}[{}Response]", flavour.pending(), group.type_name),
    );
    out.indent();
    docstring(
        out,
        &format!(
            "Groups pending applications under one (`{}`), confirmed with one OTP: send and \
             confirm the returned handle's OTP instead of each one's.",
            group.operation
        ),
    );
    out.line(&format!(
        "request = {}Request({}=list(business_ids))",
        group.type_name,
        ident(&group.business_id)
    ));
    out.line(&format!(
        "success = {}self._runtime.execute_with(request, options)",
        flavour.call()
    ));
    out.line(&format!(
        "return {}._from_success(self, success, success.data.{}, {}, {})",
        flavour.pending(),
        ident(&group.other),
        string(&group.other_wire),
        string(&group.operation)
    ));
    out.dedent();
}

/// `_client.py`.
pub fn client_module(api: &Api) -> Out {
    let mut out = Out::module(&format!(
        "`Client` and `AsyncClient` of {}: a method per operation.",
        api.title
    ));
    out.line("from decimal import Decimal");
    out.line("from typing import Generic, Mapping, Sequence, TypeVar");
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
    for group in &api.groups {
        let names: Vec<String> = group
            .operations
            .iter()
            .flat_map(|op| [request_name(op), response_name(op)])
            .collect();
        out.line(&format!("from .{} import (", ident(&group.name)));
        for n in names {
            out.line(&format!("    {n},"));
        }
        out.line(")");
    }
    out.blank();
    out.line("R = TypeVar(\"R\")");
    out.blank();
    if api.otp_flow.is_some() {
        out.line("__all__ = [\"Client\", \"AsyncClient\", \"PendingApplication\", \"AsyncPendingApplication\"]");
    } else {
        out.line("__all__ = [\"Client\", \"AsyncClient\"]");
    }
    client_class(&mut out, api, Flavour::Sync);
    client_class(&mut out, api, Flavour::Async);
    pending_class(&mut out, api, Flavour::Sync);
    pending_class(&mut out, api, Flavour::Async);
    out.line_raw("");
    out
}
