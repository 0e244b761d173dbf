//! `PendingApplication` and `AsyncPendingApplication`: an application waiting for its
//! OTP, with the steps that finish it.

use super::super::models::field_ident;
use super::super::names::{ident, py_type};
use super::super::{doc, docstring};
use super::Flavour;
use crate::plan::{Direction, OtpStepPlan, SdkPlan};
use crate::text::Out;

/// `PendingApplication` or `AsyncPendingApplication`, when the spec has an OTP flow.
pub(super) fn pending_class(out: &mut Out, plan: &SdkPlan, flavour: Flavour) {
    let Some(flow) = &plan.otp else {
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
    let channel = py_type(&flow.send.other_ty, Direction::Sent);
    step(
        out,
        plan,
        flavour,
        "send_otp",
        (&channel, "channel"),
        &flow.send,
    );
    out.blank();
    step(out, plan, flavour, "confirm", ("str", "otp"), &flow.confirm);
    out.dedent();
    if plan.settles() {
        settling_class(out, flavour);
    }
}

/// `SettlingPendingApplication` or its asyncio twin: a pending application whose
/// unknown confirmation `settle()` settles, with the lookup its `*_pending` method gave.
fn settling_class(out: &mut Out, flavour: Flavour) {
    let name = flavour.settling();
    let pending = flavour.pending();
    let settles = match flavour {
        Flavour::Sync => "Callable[[str], Settlement[S]]",
        Flavour::Async => "Callable[[str], Awaitable[Settlement[S]]]",
    };
    out.blank();
    out.blank();
    out.line(&format!("class {name}({pending}[R], Generic[R, S]):"));
    out.indent();
    docstring(
        out,
        "An application waiting for its OTP whose confirmation can be settled: when \
         `confirm` fails with an unknown outcome, `settle()` tells with one lookup whether \
         the confirmation arrived. Made by the `*_pending` methods of the operations the spec \
         settles by a status query.",
    );
    out.blank();
    out.line(&format!(
        "def __init__(self, pending: {pending}[R], settle: {settles}) -> None:"
    ));
    out.line("    super().__init__(pending._client, pending.business_id, pending.response)");
    out.line("    self._settle = settle");
    out.blank();
    out.line(&format!("{} settle(self) -> Settlement[S]:", flavour.def()));
    out.indent();
    docstring(
        out,
        "Settles a confirmation whose outcome is unknown: sends the application's status \
         query once with its business id. `Confirmed` (with the state and whether it is \
         final) when it no longer waits for its OTP: do not confirm again. `NotConfirmed` \
         when it still waits for it: the confirmation never arrived, so confirming again is \
         safe, as its `otp_rule` says. `StillUnknown` (with the error) when the lookup fails \
         or its answer carries no state, or one this SDK does not list. Never raises.",
    );
    out.line(&format!(
        "return {}self._settle(self._business_id)",
        flavour.call()
    ));
    out.dedent();
    out.dedent();
}

/// A step of the OTP flow on the handle (`send_otp`, `confirm`): the client's method of
/// the step's operation, with the business id and the step's argument `(type, name)`.
fn step(
    out: &mut Out,
    plan: &SdkPlan,
    flavour: Flavour,
    name: &str,
    (ty, arg): (&str, &str),
    step: &OtpStepPlan,
) {
    let Some(op) = plan.operation(&step.operation) else {
        return;
    };
    out.line(&format!(
        "{} {name}(self, {arg}: {ty}, *, options: CallOptions | None = None) -> None:",
        flavour.def()
    ));
    out.indent();
    doc(out, &step.doc);
    out.line(&format!(
        "{}self._client.{}({}=self._business_id, {}={arg}, options=options)",
        flavour.call(),
        ident(&op.words),
        field_ident(op.params(), &step.business_id),
        field_ident(op.params(), &step.other)
    ));
    out.dedent();
}
