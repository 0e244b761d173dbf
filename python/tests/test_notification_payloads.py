"""A verified notification's params as the record of its type (`baas_client.notifications`)."""

from decimal import Decimal

import pytest

from baas_client import NotificationType, PrivateKey, Unknown, Verifier
from baas_client.notifications import OtherPayload, payload_of
from baas_client.records import BalanceChange, ClosingBalanceReport, OnboardingResult
from baas_runtime.notification import signed_body
from baas_runtime.wire import WireShapeError

KEY = PrivateKey("sandbox-test-key-not-a-secret")
SENDER = "baas-sandbox"


def verified(notification_type: str, params: dict[str, object]) -> object:
    body = signed_body(notification_type, "N1", SENDER, "en_US", params, KEY)  # type: ignore[arg-type]
    return payload_of(Verifier(KEY, SENDER).verify(body))


def test_each_type_reads_as_its_record() -> None:
    report = verified(
        "0015",
        {"jobId": "J1", "queryDate": "2026-11-24", "balances": [{"accountId": "1", "closingBalance": "10.50"}]},
    )
    assert isinstance(report, ClosingBalanceReport)
    assert report.job_id == "J1" and report.balances is not None
    assert report.balances[0].closing_balance == Decimal("10.50")
    change = verified("0003", {"txId": "T1", "amount": "5.00", "newMember": 1, "extInfo": {"oppoPhoneNumber": "07"}})
    assert isinstance(change, BalanceChange)
    assert change.amount == Decimal("5.00") and change.ext_info is not None
    assert change.ext_info.oppo_phone_number == "07"
    # 0001, 0005 and 0006 share a record; the status is a value set, open to new values.
    upgrade = verified("0005", {"status": 42, "accountType": 3})
    assert isinstance(upgrade, OnboardingResult)
    assert upgrade.status == Unknown("42") and upgrade.account_type == "3"


def test_other_types_stay_raw() -> None:
    other = verified("0021", {"anything": "x"})
    assert isinstance(other, OtherPayload)
    assert other.notification_type == NotificationType.STATUS_CHANGE
    unlisted = verified("0099", {"a": "b"})
    assert isinstance(unlisted, OtherPayload) and unlisted.notification_type == Unknown("0099")


def test_a_payload_of_another_shape_is_an_error() -> None:
    with pytest.raises(WireShapeError):
        verified("0015", {"balances": "not a list"})
