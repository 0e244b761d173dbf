"""Settling a confirmation whose outcome is unknown (issue 34 item 9): against the
sandbox binary with its ``lose_request`` fault (the confirmation never arrived: not
confirmed, confirmed again once with the same OTP) and ``drop_answer`` (it arrived:
confirmed), and against the mock for the lookups that say nothing."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from baas_client import (
    AsyncClient,
    Client,
    Config,
    Confirmed,
    DecodeError,
    MockService,
    NotConfirmed,
    Outcome,
    OutcomeUnknown,
    PrivateKey,
    Refusal,
    SandboxProcess,
    SettlingPendingApplication,
    StillUnknown,
)
from baas_client.enums import Currency, NetworkProvider, OtpType, TxStatus, UtilityPaymentStatus
from baas_client.transfers import ApplyForTransferRequest, ApplyForTransferResponse, GetTransResultRequest
from baas_runtime.mock import Failure

PAYER, PAYEE = "1000000001", "1000000004"
KEY = PrivateKey("unit-test-key")


def transfer(client: Client) -> SettlingPendingApplication[ApplyForTransferResponse, TxStatus]:
    return client.apply_for_transfer_pending(
        payer_account_id=PAYER, payee_bank_code="46", payee_account_id=PAYEE,
        currency=Currency.KES, amount=Decimal("1000.50"),
    )


def balance(client: Client, account: str) -> Decimal | None:
    return client.get_account_details(account_id=account).balance


def confirmations(sandbox: SandboxProcess) -> list[str]:
    return [str(r["code"]) for r in sandbox.admin.requests() if r.get("operation") == "confirmOperation"]


def lose(sandbox: SandboxProcess, fault: str, business_id: str) -> None:
    sandbox.admin.add_faults(
        f"faults:\n  - operation: confirmOperation\n    when: {{ businessId: {business_id} }}\n    fault: {fault}\n"
    )


def test_a_confirmation_lost_before_it_arrived_is_not_confirmed_then_confirmed_once(
    fresh_sandbox: SandboxProcess,
) -> None:
    with Client(fresh_sandbox.config()) as client:
        before = (balance(client, PAYER), balance(client, PAYEE))
        pending = transfer(client)
        pending.send_otp(OtpType.SMS)
        otp = fresh_sandbox.admin.otp(pending.business_id)
        lose(fresh_sandbox, "lose_request", pending.business_id)
        with pytest.raises(OutcomeUnknown) as unknown:
            pending.confirm(otp)
        assert unknown.value.outcome is Outcome.UNKNOWN
        assert (balance(client, PAYER), balance(client, PAYEE)) == before
        assert confirmations(fresh_sandbox) == ["lost"]

        settled = pending.settle()
        assert isinstance(settled, NotConfirmed), settled
        assert settled.state is TxStatus.SUBMITTED and settled.safe_to_confirm_again
        assert "same OTP" in settled.otp_rule
        pending.confirm(otp)  # the same OTP, as the rule says
        again = pending.settle()
        assert isinstance(again, Confirmed) and again.state is TxStatus.SUCCEEDED and again.is_final
        payer, payee = before
        assert payer is not None and payee is not None
        assert balance(client, PAYER) == payer - Decimal("1000.50")
        assert balance(client, PAYEE) == payee + Decimal("1000.50")
        assert confirmations(fresh_sandbox) == ["00000", "lost"]  # newest first


def test_a_confirmation_whose_answer_was_lost_is_confirmed_asyncio(fresh_sandbox: SandboxProcess) -> None:
    async def run() -> None:
        async with AsyncClient(fresh_sandbox.config()) as client:
            before = (await client.get_account_details(account_id=PAYER)).balance
            pending = await client.apply_for_transfer_pending(
                payer_account_id=PAYER, payee_bank_code="46", payee_account_id=PAYEE,
                currency=Currency.KES, amount=Decimal("1000.50"),
            )
            await pending.send_otp(OtpType.SMS)
            lose(fresh_sandbox, "drop_answer", pending.business_id)
            with pytest.raises(OutcomeUnknown):
                await pending.confirm(fresh_sandbox.admin.otp(pending.business_id))
            settled = await pending.settle()
            assert isinstance(settled, Confirmed), settled
            assert settled.state is TxStatus.SUCCEEDED and settled.is_final
            assert not settled.safe_to_confirm_again
            after = (await client.get_account_details(account_id=PAYER)).balance
            assert before is not None and after == before - Decimal("1000.50")
            assert confirmations(fresh_sandbox) == ["00000"]

    asyncio.run(run())


def test_a_payment_settles_by_its_query(fresh_sandbox: SandboxProcess) -> None:
    with Client(fresh_sandbox.config()) as client:
        pending = client.airtime_payment_pending(
            account_id=PAYER, mobile_number="254700000001",
            network_provider=NetworkProvider.FIRST, amount=Decimal("100"),
        )
        pending.send_otp(OtpType.SMS)
        lose(fresh_sandbox, "lose_request", pending.business_id)
        with pytest.raises(OutcomeUnknown):
            pending.confirm(fresh_sandbox.admin.otp(pending.business_id))
        settled = pending.settle()
        assert isinstance(settled, NotConfirmed) and settled.state is UtilityPaymentStatus.WAITING_FOR_OTP


def mocked(mock: MockService) -> Client:
    return Client(Config("https://mock.invalid", "me", KEY, retry_backoff=0.0, max_retries=0), transport=mock.transport())


def test_a_lookup_that_fails_or_says_nothing_leaves_it_still_unknown() -> None:
    mock = MockService(KEY)
    mock.on(ApplyForTransferRequest, lambda p: {"txId": "T1"})
    client = mocked(mock)
    pending = transfer(client)
    for answer in (Refusal("10001", "busy"), Failure.NO_ANSWER):
        mock.on(GetTransResultRequest, lambda p, a=answer: a)  # type: ignore[misc]
        settled = pending.settle()
        assert isinstance(settled, StillUnknown), settled
        assert settled.error.operation == "getTransResult" and not settled.safe_to_confirm_again
    mock.on(GetTransResultRequest, lambda p: {"txId": "T1"})
    settled = pending.settle()
    assert isinstance(settled, StillUnknown) and isinstance(settled.error, DecodeError)
    assert "no state" in str(settled.error)
    mock.on(GetTransResultRequest, lambda p: {"txId": "T1", "txStatus": 3})
    settled = pending.settle()
    assert isinstance(settled, StillUnknown) and "not one this SDK lists" in str(settled.error)
    mock.on(GetTransResultRequest, lambda p: {"txId": "T1", "txStatus": 2})
    settled = pending.settle()
    assert isinstance(settled, Confirmed) and settled.state is TxStatus.PROCESSING and not settled.is_final
    assert [r.path for r in mock.requests].count("/query/getTransResult") == 5
