"""The conformance suite (``tests/conformance/scenarios/*.json``, described in
``tests/conformance/README.md``) run by the generated Python SDK against the sandbox
binary, one fresh sandbox per scenario. The other SDKs run the same files (the runners are
listed in that README)."""

from __future__ import annotations

import base64
import dataclasses
import enum
import json
import re
import time
import types
import typing
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import baas_client.account
import baas_client.cny
import baas_client.otp
import baas_client.transfers
from baas_client import (
    ApiError,
    BaasError,
    Client,
    Confirmed,
    NotConfirmed,
    InvalidRequest,
    OutcomeUnknown,
    ResultCode,
    SandboxProcess,
    SignatureInvalid,
    SignatureMissing,
    SettlingPendingApplication,
    StillUnknown,
    Unknown,
    Untrusted,
    WaitPolicy,
)
from baas_runtime.notification import SeenFile, Verifier, signed_body
from baas_runtime.transport import HttpRequest, HttpResponse, HttpxTransport
from baas_runtime.errors import TransportError
from conftest import REPO

SCENARIOS = sorted((REPO / "tests" / "conformance" / "scenarios").glob("*.json"))

#: Request classes by operation name, from the generated modules the suite uses.
REQUESTS: dict[str, type[Any]] = {
    getattr(cls, "OPERATION"): cls
    for module in (baas_client.account, baas_client.cny, baas_client.otp, baas_client.transfers)
    for cls in vars(module).values()
    if isinstance(cls, type) and isinstance(getattr(cls, "OPERATION", None), str)
}


#: The faults a step may name (applied here at the client's transport).
FAULTS = {"drop_answer", "lose_request", "tamper_answer", "strip_signature"}

#: The keys a step of each kind may have, and the keys of its ``expect``: anything else
#: fails the scenario, so a step this runner does not understand is never skipped.
STEP_KEYS = {
    "call": ({"call", "mode", "params", "fault", "save", "pending", "expect"},
             {"outcome", "sent", "fields", "error", "code", "result_code", "retryable", "violations", "items"}),
    "settle": ({"settle", "fault", "expect"}, {"settled", "state", "final", "sent", "error", "code", "retryable"}),
    "notification": ({"notification", "expect"}, {"outcome", "error", "fields", "new"}),
}


def check_keys(at: str, step: dict[str, Any]) -> None:
    kind = next((k for k in ("notification", "settle", "call") if k in step), None)
    assert kind is not None, f"{at}: a step is a call, a settle or a notification: {step}"
    keys, expect_keys = STEP_KEYS[kind]
    assert set(step) <= keys, f"{at}: unknown step keys {set(step) - keys}"
    assert set(step.get("expect", {})) <= expect_keys, f"{at}: unknown expect keys {set(step['expect']) - expect_keys}"
    assert step.get("fault", "drop_answer") in FAULTS, f"{at}: unknown fault {step['fault']}"


class Probe:
    """The client's transport: counts the requests that leave the client and applies a
    scenario's fault to the next one."""

    def __init__(self) -> None:
        self.inner = HttpxTransport()
        self.sent = 0
        self.fault: str | None = None

    def post_json(self, request: HttpRequest) -> HttpResponse:
        self.sent += 1
        fault, self.fault = self.fault, None
        if fault == "lose_request":
            # Never forwarded: the service sees nothing, and the client sees what a connection
            # broken after sending shows (it cannot tell the two apart).
            raise TransportError("conformance: request lost after sending", may_have_reached_service=True)
        answer = self.inner.post_json(request)
        if fault == "drop_answer":
            raise TransportError("conformance: answer dropped after sending", may_have_reached_service=True)
        if fault == "tamper_answer":
            # As the sandbox's own hook does: the msg changes after the answer is signed.
            return HttpResponse(answer.status, answer.body.replace(b'"msg":"', b'"msg":"(tampered) ', 1))
        if fault == "strip_signature":
            body = re.sub(rb',"signature":"[^"]*"|"signature":"[^"]*",?', b"", answer.body, count=1)
            return HttpResponse(answer.status, body)
        if fault is not None:
            raise AssertionError(f"unknown fault {fault}")
        return answer

    def close(self) -> None:
        self.inner.close()


def snake(name: str) -> str:
    """``payerAccountId`` → ``payer_account_id``."""
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def convert(tp: Any, value: Any) -> Any:
    """A scenario's wire value as the generated model's Python type."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return convert(next(a for a in typing.get_args(tp) if a is not type(None)), value)
    if origin in (list, Sequence):
        (item,) = typing.get_args(tp)
        return [convert(item, v) for v in value]
    if tp is Decimal:
        return Decimal(str(value))
    if tp is bytes:
        # A document, given in a scenario as its Base64 text, as the wire carries it.
        return base64.b64decode(value, validate=True)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    if isinstance(tp, type) and isinstance(value, dict) and dataclasses.is_dataclass(tp):
        return tp(**fields_of(tp, value))
    return value


#: Wire names whose Python name is not their snake case: the spec's corrected spellings.
NAMES = {"oderArray": "order_array"}


def fields_of(cls: type[Any], params: dict[str, Any]) -> dict[str, Any]:
    """A scenario's wire params (of a request or a record) as keyword arguments of ``cls``."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    out: dict[str, Any] = {}
    for wire, value in params.items():
        name = NAMES.get(wire, snake(wire))
        assert name in names, f"{cls.__name__} has no field {wire}"
        out[name] = convert(hints[name], value)
    return out


def keyword_args(op: str, params: dict[str, Any]) -> dict[str, Any]:
    return fields_of(REQUESTS[op], params)


def text(value: Any) -> str | None:
    """A value as the text a scenario compares (strings as they are, numbers as JSON)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return text(value.value)
    if isinstance(value, Unknown):
        return value.wire
    return str(value)


def field(data: Any, name: str) -> Any:
    if isinstance(data, dict):
        return data.get(name)
    return getattr(data, snake(name), None)


def error_name(error: BaseException) -> str:
    for cls, name in (
        (InvalidRequest, "invalid_request"),
        (ApiError, "api"),
        (OutcomeUnknown, "outcome_unknown"),
        (SignatureMissing, "signature_missing"),
        (SignatureInvalid, "signature_invalid"),
        (Untrusted, "untrusted"),
    ):
        if isinstance(error, cls):
            return name
    return type(error).__name__


class Run:
    def __init__(self, name: str, sandbox: SandboxProcess, tmp: Path) -> None:
        self.name = name
        self.sandbox = sandbox
        self.probe = Probe()
        self.client = Client(sandbox.config(), transport=self.probe)
        self.vars: dict[str, str] = {}
        self.pending: dict[str, SettlingPendingApplication[Any, Any]] = {}
        self.tmp = tmp

    def substitute(self, value: Any) -> Any:
        """``${name}`` is a saved value, ``${otp:name}`` the sandbox's OTP of one."""
        if isinstance(value, str) and value.startswith("${") and value.endswith("}"):
            inner = value[2:-1]
            if inner.startswith("otp:"):
                return self.sandbox.admin.otp(self.vars[inner[4:]])
            return self.vars[inner]
        if isinstance(value, list):
            return [self.substitute(v) for v in value]
        if isinstance(value, dict):
            return {k: self.substitute(v) for k, v in value.items()}
        return value

    def call(self, op: str, mode: str, params: dict[str, Any]) -> Any:
        kwargs = keyword_args(op, params)
        if mode == "pending":
            pending: SettlingPendingApplication[Any, Any] = getattr(self.client, snake(op) + "_pending")(**kwargs)
            return pending
        if mode == "call":
            return self.client.execute(REQUESTS[op](**kwargs))
        if mode == "until_final":
            policy = WaitPolicy(first_delay=0.02, max_delay=0.2, deadline=20)
            return getattr(self.client, snake(op) + "_until_final")(policy=policy, **kwargs)
        if mode == "pages":
            return list(getattr(self.client, snake(op) + "_pages")(**kwargs).items())
        raise AssertionError(f"{self.name}: no mode {mode}")


def check_fields(at: str, data: Any, fields: dict[str, Any]) -> None:
    for name, want in fields.items():
        assert text(field(data, name)) == text(want), f"{at}: field {name} of {data!r}"


def check_error(at: str, error: BaseException, expect: dict[str, Any]) -> None:
    if "error" in expect:
        assert error_name(error) == expect["error"], f"{at}: error kind of {error!r}"
    assert isinstance(error, BaasError), f"{at}: {error!r}"
    if "code" in expect:
        assert error.api_code == expect["code"], f"{at}: code of {error}"
    if "result_code" in expect:
        typed = ResultCode.from_error(error)
        assert isinstance(typed, ResultCode) and typed.name.lower() == expect["result_code"], f"{at}: {typed}"
    if "retryable" in expect:
        assert error.is_retryable() == expect["retryable"], f"{at}: retryable of {error}"
    if "violations" in expect:
        assert isinstance(error, InvalidRequest), f"{at}: {error!r}"
        got = [[str(v.field), v.rule.value] for v in error.violations]
        assert got == expect["violations"], f"{at}: violations"


def check_items(at: str, items: list[Any], expect: dict[str, Any]) -> None:
    if "count" in expect:
        assert str(len(items)) == text(expect["count"]), f"{at}: item count"
    if "min_count" in expect:
        assert len(items) >= expect["min_count"], f"{at}: {len(items)} items"
    if "unique" in expect:
        keys = [text(field(i, expect["unique"])) for i in items]
        assert len(set(keys)) == len(keys), f"{at}: an item twice"
    if "contains" in expect:
        wanted: dict[str, Any] = expect["contains"]
        assert any(all(text(field(i, k)) == text(v) for k, v in wanted.items()) for i in items), f"{at}: {wanted}"


def run_notification(run: Run, at: str, step: dict[str, Any], verifier: Verifier, seen: SeenFile) -> None:
    n = run.substitute(step["notification"])
    expect: dict[str, Any] = step.get("expect", {})
    request_id: str = n["requestId"]
    body = signed_body(
        n["type"],
        request_id,
        n["sender"],
        "en_KE",
        n["params"],
        run.sandbox.private_key,
        timestamp_ms=int(time.time() * 1000) - int(n.get("age_seconds", 0)) * 1000,
    )
    if n.get("tamper"):
        body = body.replace(f'"{request_id}"'.encode(), f'"{request_id}X"'.encode(), 1)
    try:
        got = verifier.verify(body)
    except BaasError as error:
        assert expect.get("outcome") == "refused", f"{at}: refused: {error}"
        check_error(at, error, expect)
        return
    assert expect.get("outcome", "ok") == "ok", f"{at}: accepted {got}"
    check_fields(at, {"notificationType": got.notification_type, "requestId": got.request_id}, expect.get("fields", {}))
    new = seen.is_new(got.delivery_id)
    if "new" in expect:
        assert new == expect["new"], f"{at}: is new"
    if new:
        seen.record(got)


def run_settle(run: Run, at: str, step: dict[str, Any]) -> None:
    """``{"settle": name}``: the pending application's ``settle()``, one lookup."""
    expect: dict[str, Any] = step.get("expect", {})
    assert "settled" in expect, f"{at}: a settle step expects `settled`"
    pending = run.pending.get(step["settle"])
    assert pending is not None, f"{at}: no pending application {step['settle']}"
    run.probe.fault = step.get("fault")
    before = run.probe.sent
    settlement = pending.settle()
    run.probe.fault = None
    if "sent" in expect:
        assert run.probe.sent - before == expect["sent"], f"{at}: requests sent by the client"
    if isinstance(settlement, Confirmed):
        kind, state, final = "confirmed", text(settlement.state), settlement.is_final
    elif isinstance(settlement, NotConfirmed):
        kind, state, final = "not_confirmed", text(settlement.state), None
    else:
        assert isinstance(settlement, StillUnknown), f"{at}: {settlement!r}"
        kind, state, final = "still_unknown", None, None
    assert settlement.safe_to_confirm_again == (kind == "not_confirmed"), f"{at}: safe_to_confirm_again"
    assert kind == expect["settled"], f"{at}: settled {settlement!r}"
    if "state" in expect:
        assert state == text(expect["state"]), f"{at}: state of {settlement!r}"
    if "final" in expect:
        assert final == expect["final"], f"{at}: final of {settlement!r}"
    if isinstance(settlement, StillUnknown):
        check_error(at, settlement.error, expect)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path, fresh_sandbox: SandboxProcess, tmp_path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    run = Run(path.name, fresh_sandbox, tmp_path)
    verifier = Verifier(fresh_sandbox.private_key, scenario.get("service_sender", "baas-sandbox"))
    seen = SeenFile(tmp_path / "seen")  # ids kept DEFAULT_KEEP from when recorded
    try:
        for i, step in enumerate(scenario["steps"], 1):
            at = f"{path.name} step {i}"
            check_keys(at, step)
            if "settle" in step:
                run_settle(run, at, step)
                continue
            if "notification" in step:
                run_notification(run, at, step, verifier, seen)
                continue
            expect: dict[str, Any] = step.get("expect", {})
            want = expect.get("outcome", "ok")
            run.probe.fault = step.get("fault")
            before = run.probe.sent
            mode = step.get("mode", "call")
            if "pending" in step:
                assert mode == "call", f"{at}: `pending` is for a plain call"
                mode = "pending"
            try:
                got = run.call(step["call"], mode, run.substitute(step["params"]))
            except BaasError as error:
                assert error.outcome.value == want, f"{at}: outcome of {error!r}"
                check_error(at, error, expect)
                got = None
            else:
                assert want == "ok", f"{at}: succeeded with {got!r}"
            finally:
                run.probe.fault = None  # never left for a later step
            if "sent" in expect:
                assert run.probe.sent - before == expect["sent"], f"{at}: requests sent by the client"
            if got is None:
                continue
            if isinstance(got, SettlingPendingApplication):
                run.pending[step["pending"]] = got
                run.vars[step["pending"]] = got.business_id
                got = got.response
            if isinstance(got, list):
                check_items(at, got, run.substitute(expect.get("items", {})))
                continue
            check_fields(at, got, run.substitute(expect.get("fields", {})))
            for var, name in step.get("save", {}).items():
                value = text(field(got, name))
                assert value is not None, f"{at}: no {name} to save"
                run.vars[var] = value
    finally:
        run.client.close()


def test_every_scenario_is_found() -> None:
    assert len(SCENARIOS) >= 10
    assert set(REQUESTS) >= {"getAccountDetails", "applyForTransfer", "sendOtp", "confirmOperation", "getTransList"}
