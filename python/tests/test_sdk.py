"""The generated SDK (generated/python/baas_client) as a partner uses it: against the
mock service, and against the sandbox binary."""

from __future__ import annotations

import asyncio
from decimal import Decimal

import pytest

from baas_client import (
    AsyncClient,
    Client,
    Config,
    DecodeError,
    InvalidRequest,
    MockService,
    Outcome,
    OutcomeUnknown,
    PrivateKey,
    Refusal,
    ResultCode,
    SandboxProcess,
    Unknown,
    WaitPolicy,
)
from baas_client.enums import Currency, OrderByDesc, OtpType, TxStatus
from baas_client.transfers import ApplyForTransferRequest, GetTransResultRequest
from baas_client.account import GetAccountDetailsRequest
from baas_runtime.mock import Failure

KEY = PrivateKey("unit-test-key")


def mock_client(mock: MockService) -> Client:
    return Client(Config("https://mock.invalid", "me", KEY, retry_backoff=0.0), transport=mock.transport())


def test_rules_are_checked_before_sending_naming_field_and_rule() -> None:
    mock = MockService(KEY)
    client = mock_client(mock)
    with pytest.raises(InvalidRequest) as refused:
        client.apply_for_transfer(
            payer_account_id="",
            payee_bank_code="46",
            payee_account_id="1000000004",
            currency=Currency.KES,
            amount=Decimal("10.005"),
            remark="x" * 101,
        )
    got = [(v.field, v.rule.value) for v in refused.value.violations]
    assert got == [
        ("payerAccountId", "required"),
        ("amount", "decimal_places"),
        ("remark", "max_chars"),
    ]
    assert refused.value.outcome is Outcome.NOT_SENT and refused.value.operation == "applyForTransfer"
    assert not mock.requests


def test_answers_never_fail_on_added_fields_or_values_and_money_is_text() -> None:
    mock = MockService(KEY)
    mock.on(
        GetAccountDetailsRequest,
        lambda p: {"accountId": str(p["accountId"]), "balance": "100.50", "newField": {"x": 1}, "currency": "XAU"},
    )
    account = mock_client(mock).get_account_details(account_id="1000000001")
    assert account.balance == Decimal("100.50") and str(account.balance) == "100.50"
    assert account.currency == Unknown("XAU")
    mock.on(
        ApplyForTransferRequest,
        lambda p: {"txId": "T1"} if p["amount"] == "1500.50" and p["currency"] == "KES" else Refusal("12001", "bad"),
    )
    applied = mock_client(mock).apply_for_transfer(
        payer_account_id="1", payee_bank_code="46", payee_account_id="2", currency=Currency.KES, amount=Decimal("1500.50")
    )
    assert applied.tx_id == "T1"


def test_result_codes_are_typed_and_lost_money_answers_unknown() -> None:
    mock = MockService(KEY)
    mock.on(ApplyForTransferRequest, lambda p: Refusal("14009", "insufficient balance"))
    client = mock_client(mock)
    args = dict(payer_account_id="1", payee_bank_code="46", payee_account_id="2", currency=Currency.KES, amount=Decimal("1"))
    with pytest.raises(Exception) as refused:
        client.apply_for_transfer(**args)  # type: ignore[arg-type]
    assert ResultCode.from_error(refused.value) is ResultCode.INSUFFICIENT_BALANCE
    mock.on(ApplyForTransferRequest, lambda p: Failure.NO_ANSWER)
    with pytest.raises(OutcomeUnknown):
        client.apply_for_transfer(**args)  # type: ignore[arg-type]
    mock.on(ApplyForTransferRequest, lambda p: {"noTxId": 1})
    with pytest.raises(DecodeError):
        client.apply_for_transfer_pending(**args)  # type: ignore[arg-type]


def test_sandbox_first_call(sandbox: SandboxProcess) -> None:
    with Client(sandbox.config()) as client:
        account = client.get_account_details(account_id="1000000001")
        assert account.balance is not None and account.balance >= 0
        assert account.account_id == "1000000001"


def test_sandbox_otp_transfer_waited_to_a_final_state(sandbox: SandboxProcess) -> None:
    with Client(sandbox.config()) as client:
        pending = client.apply_for_transfer_pending(
            payer_account_id="1000000001",
            payee_bank_code="46",
            payee_account_id="1000000004",
            currency=Currency.KES,
            amount=Decimal("250.00"),
            remark="python sdk",
        )
        pending.send_otp(OtpType.SMS)
        pending.confirm(sandbox.admin.otp(pending.business_id))
        result = client.get_trans_result_until_final(
            tx_id=pending.business_id, policy=WaitPolicy(first_delay=0.05, max_delay=0.5, deadline=20)
        )
        assert result.tx_status in (TxStatus.SUCCEEDED, TxStatus.FAILED, TxStatus.TIMEOUT)
        rows = list(
            client.get_trans_list_pages(
                account_id="1000000001",
                tx_type=[],
                tx_status=[],
                start_time=0,
                end_time=4_102_444_800_000,
                page_no=1,
                page_size=2,
                order_by_desc=OrderByDesc.NEWEST_FIRST,
            ).items()
        )
        assert any(r.tx_id == pending.business_id for r in rows)
        assert len({r.tx_id for r in rows}) == len(rows)


def test_sandbox_wrong_key_is_an_unverified_refusal(sandbox: SandboxProcess) -> None:
    client = Client(Config(sandbox.url, sandbox.sender, PrivateKey("not-the-key"), max_retries=0))
    with pytest.raises(Exception) as refused:
        client.get_account_details(account_id="1000000001")
    assert ResultCode.from_error(refused.value) is ResultCode.INVALID_SIGNATURE
    assert refused.value.outcome is Outcome.UNKNOWN  # type: ignore[attr-defined]


def test_sandbox_async(sandbox: SandboxProcess) -> None:
    async def run() -> None:
        async with AsyncClient(sandbox.config()) as client:
            accounts = await asyncio.gather(
                *(client.get_account_details(account_id=f"100000000{i}") for i in range(1, 4))
            )
            assert [a.account_id for a in accounts] == ["1000000001", "1000000002", "1000000003"]
            query = GetTransResultRequest(tx_id="NO-SUCH-TX")
            with pytest.raises(Exception) as missing:
                await client.execute(query)
            assert missing.value.outcome is Outcome.REFUSED  # type: ignore[attr-defined]

    asyncio.run(run())


def test_open_value_sets_take_any_code_and_one_of_rules_narrow_a_request() -> None:
    """Currency and TxType are open value sets (decisions currency-one-type, tx-type-codes):
    a request takes a listed member or any other code as text; a field the service restricts
    (applyForTransfer's currency) refuses another code before sending; answers keep any code."""
    from baas_client.enums import TxType
    from baas_client.fx import ApplyForFcExchangeRequest
    from baas_client.transfers import GetTransListRequest

    mock = MockService(KEY)
    client = mock_client(mock)
    with pytest.raises(InvalidRequest) as refused:
        client.apply_for_transfer(
            payer_account_id="1", payee_bank_code="46", payee_account_id="2", currency=Currency.CNY, amount=Decimal("1")
        )
    assert [(v.field, v.rule.value) for v in refused.value.violations] == [("currency", "one_of")]
    assert "must be one of KES, USD, GBP, EUR, TZS, UGX, RWF" in str(refused.value)
    with pytest.raises(InvalidRequest) as misspelt:
        client.apply_for_fc_exchange(
            source_currency="KSH", target_currency=Currency.EUR, source_account="1", target_account="2",
            source_amount=Decimal("10"),
        )
    assert [(v.field, v.rule.value) for v in misspelt.value.violations] == [("sourceCurrency", "one_of")]
    assert not mock.requests

    mock.on(
        GetTransListRequest,
        lambda p: {"totalRows": 1, "result": [{"txId": "T1", "txType": "TTID0099", "currency": "XAU"}]}
        if p["txType"] == ["TTID0002", "TTID0099"]
        else Refusal("10000", f"got {p['txType']!r}"),
    )
    page = client.get_trans_list(
        account_id="1", tx_type=[TxType.TRANSFER_OUT, "TTID0099"], tx_status=[], start_time=0, end_time=1,
        page_no=1, page_size=10, order_by_desc=OrderByDesc.NEWEST_FIRST,
    )
    assert page.result is not None and page.result[0].tx_type == Unknown("TTID0099")
    assert page.result[0].currency == Unknown("XAU")
    wire = ApplyForFcExchangeRequest(
        source_currency=Currency.CNY, target_currency="USD", source_account="1", target_account="2",
        target_amount=Decimal("1"),
    )._to_wire()
    assert (wire["sourceCurrency"], wire["targetCurrency"]) == ("CNY", "USD")


def test_dates_are_days_of_the_calendar_written_yyyy_mm_dd() -> None:
    """queryDate is a datetime.date, sent as YYYY-MM-DD (decision date-type); a datetime
    (a moment, not a day) is refused before sending; an answer's date is read exactly."""
    import datetime

    from baas_client.account import QueryClosingBalanceRequest
    from baas_runtime.wire import WireShapeError, date_of

    mock = MockService(KEY)
    mock.on(QueryClosingBalanceRequest, lambda p: {"jobId": "J1"} if p["queryDate"] == "2026-02-28" else Refusal("12001", "bad"))
    client = mock_client(mock)
    assert client.query_closing_balance(query_date=datetime.date(2026, 3, 1) - datetime.timedelta(days=1)).job_id == "J1"
    with pytest.raises(InvalidRequest) as refused:
        client.query_closing_balance(query_date=datetime.datetime(2026, 2, 28, 23, 0))
    assert [(v.field, v.rule.value) for v in refused.value.violations] == [("queryDate", "type")]
    assert "UTC day" in str(refused.value)
    assert date_of("0001-01-01", "d") == datetime.date(1, 1, 1)
    for bad in ["2026-02-30", "27/11/2026", "20261127", "2026-11-27T00:00:00Z", 20261127]:
        with pytest.raises(WireShapeError):
            date_of(bad, "queryDate")  # type: ignore[arg-type]
