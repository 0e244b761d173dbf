//! `PendingApplication` and `AsyncPendingApplication`: an application waiting for its
//! OTP, with the steps that finish it.

use super::super::models::docstring;
use super::super::names::{ident, py_type, Direction};
use super::super::Out;
use super::Flavour;
use crate::model::{Api, OtpFlow, TypeRef};

/// `PendingApplication` or `AsyncPendingApplication`, when the spec has an OTP flow.
pub(super) fn pending_class(out: &mut Out, api: &Api, flavour: Flavour) {
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
    send_otp_method(out, flow, flavour);
    out.blank();
    confirm_method(out, flow, flavour);
    out.dedent();
}

/// `send_otp`: the OTP sent by a channel, through the client's send step.
fn send_otp_method(out: &mut Out, flow: &OtpFlow, flavour: Flavour) {
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
}

/// `confirm`: the application confirmed with its OTP, through the client's confirm step.
fn confirm_method(out: &mut Out, flow: &OtpFlow, flavour: Flavour) {
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
}
