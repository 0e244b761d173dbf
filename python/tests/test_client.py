"""The client core against the mock service: outcomes, retries, options, async, logs."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

import httpx
import pytest

from baas_runtime import (
    ApiError,
    AsyncRuntimeClient,
    BaasError,
    CallOptions,
    Config,
    ConfigError,
    DecodeError,
    EncodeError,
    FieldPath,
    InvalidRequest,
    Outcome,
    OutcomeUnknown,
    PrivateKey,
    Request,
    RequestIdMismatch,
    RuntimeClient,
    SignatureInvalid,
    TransportError,
    Untrusted,
    Validator,
)
from baas_runtime.canonical import JsonValue
from baas_runtime.envelope import signed_response_body
from baas_runtime.mock import Failure, MockService, Refusal
from baas_runtime.wire import WireObject, decimal_of, decimal_text, object_of, str_of

KEY = PrivateKey("test-key-not-a-secret")


@dataclass(frozen=True)
class Balance:
    balance: Decimal | None
    currency: str | None


@dataclass(frozen=True, kw_only=True)
class GetBalance(Request[Balance]):
    OPERATION: ClassVar[str] = "getBalance"
    PATH: ClassVar[str] = "/query/getBalance"
    MOVES_MONEY: ClassVar[bool] = False
    account_id: str

    def _validate_at(self, v: Validator, at: FieldPath) -> None:
        p = at.field("accountId")
        if v.is_type(p, self.account_id, str, "a str"):
            v.required(p, self.account_id != "")
            v.max_chars(p, self.account_id, 20)

    def _to_wire(self) -> WireObject:
        return {"accountId": self.account_id}

    def _decode_response(self, data: JsonValue) -> Balance:
        o = object_of(data, "data")
        return Balance(decimal_of(o.get("balance"), "data.balance"), str_of(o.get("currency"), "data.currency"))


@dataclass(frozen=True, kw_only=True)
class Pay(Request[dict[str, JsonValue]]):
    OPERATION: ClassVar[str] = "pay"
    PATH: ClassVar[str] = "/trans/pay"
    MOVES_MONEY: ClassVar[bool] = True
    amount: Decimal
    remark: str | None = None

    def _validate_at(self, v: Validator, at: FieldPath) -> None:
        p = at.field("amount")
        if v.is_decimal(p, self.amount):
            v.positive_amount(p, self.amount)
            v.decimal_places(p, self.amount, 2)

    def _to_wire(self) -> WireObject:
        out: dict[str, str] = {"amount": decimal_text(self.amount)}
        if self.remark is not None:
            out["remark"] = self.remark
        return out

    def _decode_response(self, data: JsonValue) -> dict[str, JsonValue]:
        return object_of(data, "data")


def config(**changes: object) -> Config:
    c = Config("https://mock.invalid", "partner1", KEY, retry_backoff=0.0)
    return c.replace(**changes) if changes else c


def client_for(mock: MockService, **changes: object) -> RuntimeClient:
    return RuntimeClient(config(**changes), mock.transport(), retryable_codes={"10001"})


def test_success_is_verified_and_decoded() -> None:
    mock = MockService(KEY)
    mock.on(GetBalance, lambda p: {"balance": Decimal("100.50"), "currency": "KES", "added": [1]})
    client = client_for(mock)
    success = client.execute_with(GetBalance(account_id="1000000001"))
    assert success.data == Balance(Decimal("100.50"), "KES")
    assert str(success.data.balance) == "100.50"
    assert success.attempts == 1 and success.request_id.startswith("partner1")
    assert len(success.request_id) == len("partner1") + 32
    assert mock.requests_of(GetBalance)[0].params == {"accountId": "1000000001"}


def test_invalid_request_is_not_sent() -> None:
    mock = MockService(KEY)
    client = client_for(mock)
    with pytest.raises(InvalidRequest) as refused:
        client.execute(GetBalance(account_id="x" * 21))
    e = refused.value
    assert e.outcome is Outcome.NOT_SENT and e.attempts == 0 and e.operation == "getBalance"
    assert [(v.field, v.rule.value) for v in e.violations] == [("accountId", "max_chars")]
    assert str(e).startswith("getBalance (0 attempts): invalid request")
    with pytest.raises(InvalidRequest) as floats:
        client.execute(Pay(amount=1.5))  # type: ignore[arg-type]
    assert floats.value.violations[0].rule.value == "type"
    assert not mock.requests


def test_a_value_that_could_be_re_cut_is_never_signed() -> None:
    mock = MockService(KEY)
    client = client_for(mock)
    with pytest.raises(EncodeError) as refused:
        client.execute(Pay(amount=Decimal("1.00"), remark="x&params.amount=900"))
    assert "params.remark" in str(refused.value)
    assert refused.value.outcome is Outcome.NOT_SENT
    assert not mock.requests


def test_signed_refusal_is_refused_unsigned_is_unknown() -> None:
    mock = MockService(KEY)
    client = client_for(mock)
    mock.on(GetBalance, lambda p: Refusal("14001", "no such account"))
    with pytest.raises(ApiError) as signed:
        client.execute(GetBalance(account_id="1"))
    assert signed.value.verified and signed.value.outcome is Outcome.REFUSED
    mock.on(GetBalance, lambda p: Refusal("14001", "no such account", signed=False))
    with pytest.raises(ApiError) as unsigned:
        client.execute(GetBalance(account_id="1"))
    assert not unsigned.value.verified and unsigned.value.outcome is Outcome.UNKNOWN
    # For a call that moves money an unsigned refusal proves nothing: unknown outcome.
    mock.on(Pay, lambda p: Refusal("14009", "insufficient balance", signed=False))
    with pytest.raises(OutcomeUnknown) as unknown:
        client.execute(Pay(amount=Decimal("1.00")))
    assert unknown.value.outcome is Outcome.UNKNOWN and not unknown.value.is_retryable()
    assert isinstance(unknown.value.cause, ApiError)
    assert unknown.value.request_id is not None and unknown.value.attempts == 1


@pytest.mark.parametrize("failure", [Failure.NO_ANSWER, Failure.GATEWAY_ERROR])
def test_money_calls_are_never_resent_once_sent(failure: Failure) -> None:
    mock = MockService(KEY)
    mock.on(Pay, lambda p: failure)
    with pytest.raises(OutcomeUnknown):
        client_for(mock).execute(Pay(amount=Decimal("1.00")))
    assert len(mock.requests_of(Pay)) == 1


def test_money_call_not_sent_is_retried() -> None:
    attempts: list[int] = []

    def flaky(p: dict[str, JsonValue]) -> Failure | dict[str, str]:
        attempts.append(1)
        return Failure.NOT_SENT if len(attempts) < 2 else {"txId": "T1"}

    mock = MockService(KEY)
    mock.on(Pay, flaky)
    success = client_for(mock).execute_with(Pay(amount=Decimal("1.00")))
    assert success.attempts == 2 and success.data == {"txId": "T1"}


def test_retryable_codes_are_retried_only_where_safe() -> None:
    mock = MockService(KEY)
    mock.on(GetBalance, lambda p: Refusal("10001", "busy"))
    with pytest.raises(ApiError) as busy:
        client_for(mock, max_retries=2).execute(GetBalance(account_id="1"))
    assert busy.value.attempts == 3 and busy.value.is_retryable()
    assert len({r.request_id for r in mock.requests}) == 3, "a new requestId per attempt"
    mock.on(Pay, lambda p: Refusal("10001", "busy"))
    with pytest.raises(ApiError):
        client_for(mock).execute(Pay(amount=Decimal("1.00")))
    assert len(mock.requests_of(Pay)) == 1
    mock.on(GetBalance, lambda p: Refusal("14001", "no such account"))
    with pytest.raises(ApiError) as final:
        client_for(mock).execute(GetBalance(account_id="1"))
    assert final.value.attempts == 1 and not final.value.is_retryable()


def test_per_call_request_id_and_a_fixed_id_is_not_resent() -> None:
    mock = MockService(KEY)
    mock.on(GetBalance, lambda p: Failure.NO_ANSWER)
    with pytest.raises(BaasError) as e:
        client_for(mock).execute(GetBalance(account_id="1"), CallOptions(request_id="my-ref-1", timeout=2.0))
    assert e.value.request_id == "my-ref-1" and e.value.attempts == 1
    with pytest.raises(EncodeError):
        client_for(mock).execute(GetBalance(account_id="1"), CallOptions(request_id="has space"))


def raw_transport(answer: bytes, status: int = 200) -> httpx.Client:
    return httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(status, content=answer)))


def test_tampered_and_foreign_answers() -> None:
    from baas_runtime.transport import HttpxTransport

    good = signed_response_body(
        request_id="X", sender="s", locale="en_KE", code="00000", msg="ok", data={"balance": "1.00"}, key=KEY
    )
    cases: list[tuple[bytes, type[BaasError]]] = [
        (good.replace(b"1.00", b"9.00"), SignatureInvalid),
        (good, RequestIdMismatch),
        (b"<html>502</html>", DecodeError),
        (b'{"code":"00000","data":{"x":1}', DecodeError),
    ]
    for body, kind in cases:
        client = RuntimeClient(config(max_retries=0), HttpxTransport(raw_transport(body)))
        with pytest.raises(kind):
            client.execute(GetBalance(account_id="1"))
    recut = signed_response_body(
        request_id="X", sender="s", locale="en_KE", code="00000", msg="ok", data={}, key=KEY
    ).replace(b'"data":{}', b'"data":{},"notificationType":"0028"')
    client = RuntimeClient(config(), HttpxTransport(raw_transport(recut)))
    with pytest.raises(Untrusted):
        client.execute(GetBalance(account_id="1"))


def test_connection_refused_is_not_sent() -> None:
    client = RuntimeClient(config(base_url="http://127.0.0.1:9", max_retries=1, retry_backoff=0.0))
    with pytest.raises(TransportError) as refused:
        client.execute(Pay(amount=Decimal("1.00")))
    assert refused.value.outcome is Outcome.NOT_SENT and refused.value.attempts == 2


def test_config_is_checked_and_never_shows_the_key() -> None:
    with pytest.raises(ConfigError) as e:
        RuntimeClient(Config("http://api.example", "p", KEY))
    assert e.value.field == "base_url"
    for bad, field in [
        (config(locale="en-KE"), "locale"),
        (config(sender=" "), "sender"),
        (config(request_timeout=0), "request_timeout"),
        (Config("https://x", "p", PrivateKey("")), "private_key"),
    ]:
        with pytest.raises(ConfigError) as wrong:
            bad.check()
        assert wrong.value.field == field
    assert "test-key" not in repr(config())
    for url in ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:4000"]:
        config(base_url=url).check()
    for url in ["http://127.0.0.1@evil.example", "http://127.0.0.1.evil.example", "http://10.0.0.1"]:
        with pytest.raises(ConfigError):
            config(base_url=url).check()


def test_logs_never_show_the_key(caplog: pytest.LogCaptureFixture) -> None:
    mock = MockService(KEY)
    mock.on(GetBalance, lambda p: {"balance": "1.00"})
    caplog.set_level(logging.DEBUG, logger="baas")
    client_for(mock, log_params=True).execute(GetBalance(account_id="1000000001"))
    text = caplog.text
    assert "getBalance" in text and "outcome=success" in text and "1000000001" in text
    assert KEY.expose() not in text


def test_async_client() -> None:
    mock = MockService(KEY)
    mock.on(GetBalance, lambda p: {"balance": 12, "currency": 404})
    mock.on(Pay, lambda p: Failure.NO_ANSWER)

    async def run() -> None:
        async with AsyncRuntimeClient(config(), mock.async_transport()) as client:
            balance = await client.execute(GetBalance(account_id="1"))
            assert balance == Balance(Decimal("12"), "404")
            with pytest.raises(OutcomeUnknown):
                await client.execute(Pay(amount=Decimal("2.00")))

    asyncio.run(run())


def test_null_members_of_answers_read_as_absent_null_elements_refused() -> None:
    from baas_runtime.transport import HttpxTransport
    from baas_runtime.canonical import parse
    from baas_runtime.sign import attach_signature

    def answer(data: bytes) -> bytes:
        text = b'{"requestId":"R","code":"00000","msg":"ok","data":' + data + b"}"
        return attach_signature(text, parse(text, unambiguous=False).signature_hex(KEY))

    ok = RuntimeClient(config(), HttpxTransport(raw_transport(answer(b'{"balance":"1.00","currency":null}'))))
    assert ok.execute(GetBalance(account_id="1"), CallOptions(request_id="R")) == Balance(Decimal("1.00"), None)
    bad = RuntimeClient(config(), HttpxTransport(raw_transport(answer(b'{"balance":"1.00","list":[1,null]}'))))
    with pytest.raises(Untrusted):
        bad.execute(GetBalance(account_id="1"), CallOptions(request_id="R"))


def test_an_empty_key_variable_is_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAAS_TEST_KEY_VARIABLE", "")
    assert PrivateKey.from_env("BAAS_TEST_KEY_VARIABLE") is None
    monkeypatch.setenv("BAAS_TEST_KEY_VARIABLE", "k")
    assert PrivateKey.from_env("BAAS_TEST_KEY_VARIABLE") is not None
