//! `_client.py`: `Client` and `AsyncClient`, a method per operation (with `_pages`,
//! `_pending` and `_until_final` where the spec says), and the OTP handles.

use super::models::{docstring, request_name, response_fields, response_name};
use super::names::{ident, py_type, string, Direction};
use super::Out;
use crate::model::{Api, Field, FinalStates, Operation, OtpStep, PagingItems, Params, TypeRef};

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

fn params(op: &Operation) -> Vec<&Field> {
    match &op.params {
        Params::Fields { fields } => {
            let (required, optional): (Vec<&Field>, Vec<&Field>) =
                fields.iter().partition(|f| !f.optional_when_sent());
            required.into_iter().chain(optional).collect()
        }
        Params::Unspecified { .. } => Vec::new(),
    }
}

/// `(keyword parameters, constructor arguments)` of an operation's method.
fn signature(op: &Operation) -> (Vec<String>, String) {
    let mut sig = Vec::new();
    let mut args = Vec::new();
    match &op.params {
        Params::Fields { .. } => {
            for f in params(op) {
                let id = ident(&f.rust_name);
                let ty = py_type(&f.ty, Direction::Sent);
                if f.optional_when_sent() {
                    sig.push(format!("{id}: {ty} | None = None"));
                } else {
                    sig.push(format!("{id}: {ty}"));
                }
                args.push(format!("{id}={id}"));
            }
        }
        Params::Unspecified { .. } => {
            sig.push("params: Mapping[str, WireValue] | None = None".to_owned());
            args.push("params=dict(params or {})".to_owned());
        }
    }
    (sig, format!("{}({})", request_name(op), args.join(", ")))
}

fn method_doc(op: &Operation) -> String {
    let mut doc = if op.doc.trim().is_empty() {
        format!("Calls `{}`.", op.name)
    } else {
        op.doc.trim().to_owned()
    };
    doc.push_str(&format!(
        "\n\nOperation `{}`: `POST {}`. The parameters are checked against the spec's rules \
         before anything is sent (`InvalidRequest` names each field and rule); the answer's \
         signature and requestId echo are verified before its `data` is read as `{}`.",
        op.name,
        op.path,
        response_name(op)
    ));
    if op.moves_money {
        doc.push_str(
            "\n\nMoves money: once its bytes may have left it is never re-sent; a failure \
             without a verified answer is `OutcomeUnknown` (look the application up before \
             sending it again).",
        );
    }
    if op.otp {
        doc.push_str(
            "\n\nNeeds confirmation: it takes effect only after `sendOtp` and `confirmOperation`.",
        );
    }
    if let Some(note) = &op.deprecated {
        doc.push_str(&format!("\n\nDeprecated: {note}"));
    }
    doc.push_str(
        "\n\nRaises `ApiError` for a result code other than `00000` (`ResultCode.from_error` \
         types it), otherwise a transport, timeout, signature or decoding error; every \
         `BaasError` names the operation, the requestId of its last attempt and the attempts \
         made. `options` sets this call's requestId or time limit.",
    );
    doc
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

/// The business id's wire name in a response, for messages.
fn wire_of(api: &Api, op: &Operation, rust: &str) -> String {
    response_fields(api, op)
        .and_then(|fields| fields.iter().find(|f| f.rust_name == rust))
        .map_or_else(|| rust.to_owned(), |f| f.wire_name.clone())
}

/// An operation's methods: the call, and `_pages`, `_pending` and `_until_final` where
/// the spec pages it, confirms it with an OTP, or names its final states.
fn operation_methods(out: &mut Out, api: &Api, op: &Operation, flavour: Flavour) {
    let (sig, build) = signature(op);
    call_method(out, op, flavour, &sig, &build);
    if let Some(items) = op.paging.as_ref().and_then(|p| p.items.as_ref()) {
        pages_method(out, op, flavour, items, &sig, &build);
    }
    if let (true, Some(business)) = (op.otp, &op.business_id) {
        pending_method(out, api, op, flavour, business, &sig, &build);
    }
    if let Some(finals) = &op.final_states {
        until_final_method(out, op, flavour, finals, &sig, &build);
    }
}

/// The method that calls an operation: its request built from the keyword arguments.
fn call_method(out: &mut Out, op: &Operation, flavour: Flavour, sig: &[String], build: &str) {
    out.blank();
    def_line(
        out,
        flavour,
        &ident(&op.rust_name),
        sig,
        &["options: CallOptions | None = None"],
        &response_name(op),
    );
    out.indent();
    docstring(out, &method_doc(op));
    out.line(&format!(
        "return {}self._runtime.execute({build}, options)",
        flavour.call()
    ));
    out.dedent();
}

/// `<operation>_pages`: every page of a paged operation (not itself awaited).
fn pages_method(
    out: &mut Out,
    op: &Operation,
    flavour: Flavour,
    items: &PagingItems,
    sig: &[String],
    build: &str,
) {
    let resp = response_name(op);
    let p = op
        .paging
        .as_ref()
        .map(|p| (p.page.wire_name.clone(), p.first_page));
    let (page, first) = p.unwrap_or_default();
    let item = py_type(&items.item, Direction::Received);
    out.blank();
    def_line(
        out,
        Flavour::Sync,
        &format!("{}_pages", ident(&op.rust_name)),
        sig,
        &[],
        &format!("{}[{resp}, {item}]", flavour.pages()),
    );
    out.indent();
    let iteration = match flavour {
        Flavour::Sync => "for",
        Flavour::Async => "async for",
    };
    docstring(
        out,
        &format!(
            "Every page of `{}`, from `{page}` on (the first page is {first}): {iteration} \
             the pages, or over `.items()` for every `{}` of every page. It stops after \
             the page that reaches the total, a page shorter than the page size, or an \
             empty one; an error ends it, raised. Each page is one call.",
            op.name, item
        ),
    );
    out.line(&format!("return self._runtime.pages({build})"));
    out.dedent();
}

/// `<operation>_pending`: the call, answered by the application waiting for its OTP.
fn pending_method(
    out: &mut Out,
    api: &Api,
    op: &Operation,
    flavour: Flavour,
    business: &str,
    sig: &[String],
    build: &str,
) {
    let pending = flavour.pending();
    out.blank();
    def_line(
        out,
        flavour,
        &format!("{}_pending", ident(&op.rust_name)),
        sig,
        &["options: CallOptions | None = None"],
        &format!("{pending}[{}]", response_name(op)),
    );
    out.indent();
    let wire = wire_of(api, op, business);
    docstring(
        out,
        &format!(
            "Calls `{}` and returns the application waiting for its OTP, whose business id \
             is the answer's `{wire}`: send its OTP and confirm it from there. An answer \
             without `{wire}` raises `DecodeError`.",
            op.name
        ),
    );
    out.line(&format!(
        "success = {}self._runtime.execute_with({build}, options)",
        flavour.call()
    ));
    out.line(&format!(
        "return {pending}._from_success(self, success, success.data.{}, {}, {})",
        ident(business),
        string(&wire),
        string(&op.name)
    ));
    out.dedent();
}

/// `<operation>_until_final`: the query sent until its answer's state is final.
fn until_final_method(
    out: &mut Out,
    op: &Operation,
    flavour: Flavour,
    finals: &FinalStates,
    sig: &[String],
    build: &str,
) {
    out.blank();
    def_line(
        out,
        flavour,
        &format!("{}_until_final", ident(&op.rust_name)),
        sig,
        &["policy: WaitPolicy | None = None"],
        &response_name(op),
    );
    out.indent();
    let values: Vec<String> = finals.values.iter().map(|v| string(v)).collect();
    docstring(
        out,
        &format!(
            "Sends `{}` until the answer's `{}` is final ({}), waiting between queries as \
             `policy` says (doubling delays, a deadline), and returns that answer. Raises \
             `WaitDeadline` with the last state when the deadline passes first; a \
             retryable failure of one query is polled past.",
            op.name,
            finals.wire_name,
            finals
                .values
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );
    let state = match &finals.rust_name {
        Some(rust) => format!("lambda r: _w.wire_text(r.{})", ident(rust)),
        None => format!("lambda r: _w.member_text(r, {})", string(&finals.wire_name)),
    };
    out.line(&format!(
        "return {}self._runtime.wait_until({build}, {state}, ({},), policy)",
        flavour.call(),
        values.join(", ")
    ));
    out.dedent();
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

fn pending_class(out: &mut Out, api: &Api, flavour: Flavour) {
    let Some(flow) = &api.otp_flow else {
        return;
    };
    let name = flavour.pending();
    out.blank();
    out.blank();
    out.line(&format!("class {name}(Generic[R]):"));
    out.indent();
    docstring(
        out,
        "An application that waits for its OTP: the answer of the call that made it, its \
         business id, and the steps that finish it. Made by the client's `*_pending` methods.",
    );
    out.blank();
    out.line(&format!(
        "def __init__(self, client: {}, business_id: str, response: R) -> None:",
        flavour.client()
    ));
    out.line("    self._client = client");
    out.line("    self._business_id = business_id");
    out.line("    self._response = response");
    out.blank();
    out.line("@classmethod");
    out.line(&format!(
        "def _from_success(cls, client: {}, success: Success[R], business_id: str | None, field: str, operation: str) -> {name}[R]:",
        flavour.client()
    ));
    out.indent();
    out.line("if not business_id:");
    out.line("    error = DecodeError(f\"the response carries no `{field}`, the application's business id\")");
    out.line("    raise error.in_call(operation, success.request_id, success.attempts)");
    out.line("return cls(client, business_id, success.data)");
    out.dedent();
    out.blank();
    out.line("@property");
    out.line("def business_id(self) -> str:");
    out.line("    \"\"\"The id the OTP steps name (also what a status query or a cancellation takes).\"\"\"");
    out.line("    return self._business_id");
    out.blank();
    out.line("@property");
    out.line("def response(self) -> R:");
    out.line("    \"\"\"The answer of the call that made the application.\"\"\"");
    out.line("    return self._response");
    out.blank();
    let channel = match &flow.send.other_ty {
        TypeRef::Enum { name } => name.clone(),
        other => py_type(other, Direction::Sent),
    };
    out.line(&format!(
        "{} send_otp(self, channel: {channel}, *, options: CallOptions | None = None) -> None:",
        flavour.def()
    ));
    out.indent();
    docstring(
        out,
        &format!(
            "Sends the application's OTP (`{}`) by `channel`.",
            flow.send.operation
        ),
    );
    out.line(&format!(
        "{}self._client.{}({}=self._business_id, {}=channel, options=options)",
        flavour.call(),
        ident(&flow.send.rust_name),
        ident(&flow.send.business_id),
        ident(&flow.send.other)
    ));
    out.dedent();
    out.blank();
    out.line(&format!(
        "{} confirm(self, otp: str, *, options: CallOptions | None = None) -> None:",
        flavour.def()
    ));
    out.indent();
    docstring(
        out,
        &format!(
            "Confirms the application with the OTP its owner received (`{}`): this is what \
             releases the money. A confirmation whose outcome is unknown raises \
             `OutcomeUnknown`: look the application up before confirming again.",
            flow.confirm.operation
        ),
    );
    out.line(&format!(
        "{}self._client.{}({}=self._business_id, {}=otp, options=options)",
        flavour.call(),
        ident(&flow.confirm.rust_name),
        ident(&flow.confirm.business_id),
        ident(&flow.confirm.other)
    ));
    out.dedent();
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
