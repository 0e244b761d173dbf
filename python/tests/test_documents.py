"""Documents (spec type ``document``, decision ``document-type``): a request's document field
takes bytes, sent as standard padded Base64 and signed over that text; a file is read with
``Document.from_path``; ``base64_max_bytes`` refuses a document too large before sending; no
repr shows a document's bytes; an answer's document never fails to read."""

from __future__ import annotations

import base64
import dataclasses
from decimal import Decimal
from pathlib import Path

import pytest

from baas_client import Client, Config, Document, InvalidRequest, MockService, Outcome, PrivateKey
from baas_client.cny import ApplyForCnyExpressRequest
from baas_client.enums import BeneficiaryType, CnyDocumentType, PaymentPurpose
from baas_client.records import OrderItem
from baas_client.reversal import TxReversalRequest
from baas_runtime.wire import WireShapeError, document_of

KEY = PrivateKey("unit-test-key")
PDF = b"%PDF-1.7\n\x00\xff\xfe binary \x80"


def mock_client(mock: MockService) -> Client:
    return Client(Config("https://mock.invalid", "me", KEY, retry_backoff=0.0), transport=mock.transport())


def cny(**documents: bytes) -> ApplyForCnyExpressRequest:
    return ApplyForCnyExpressRequest(
        payer_account_id="1000000001",
        beneficiary_type=BeneficiaryType.ENTERPRISE,
        beneficiary_name="Shenzhen Trading",
        beneficiary_id_number="91440300",
        beneficiary_bank_code="CMB",
        beneficiary_bank_name="China Merchants Bank",
        beneficiary_bank_address="Shenzhen",
        beneficiary_account_id="6225880000000000",
        payment_purpose=PaymentPurpose.PURCHASE_GOODS,
        support_document_file=documents.get("support", b"support"),
        support_document_type=CnyDocumentType.PDF,
        company_regis_document_file=documents.get("registration", b"registration"),
        company_regis_document_type=CnyDocumentType.PDF,
        invoice_document_type=CnyDocumentType.PDF,
        order_array=[
            OrderItem(product_name="goods", quantity=1, amount=Decimal("100.00"), order_time=1, platform="shop")
        ],
        invoice=documents.get("invoice"),
    )


def test_bytes_are_sent_as_exact_base64_and_signed_over_it(tmp_path: Path) -> None:
    mock = MockService(KEY)
    mock.on(TxReversalRequest, lambda p: {"applicationId": "A1"})
    client = mock_client(mock)
    assert client.tx_reversal(transaction_id="T1", voucher_base64=PDF).application_id == "A1"
    # The mock verified the signature over the exact bytes it received.
    [sent] = mock.requests_of(TxReversalRequest)
    assert sent.params["voucherBase64"] == base64.b64encode(PDF).decode("ascii") == "JVBERi0xLjcKAP/+IGJpbmFyeSCA"

    file = tmp_path / "voucher.pdf"
    file.write_bytes(PDF * 3)
    client.tx_reversal(transaction_id="T2", voucher_base64=Document.from_path(file))
    assert mock.requests_of(TxReversalRequest)[1].params["voucherBase64"] == base64.b64encode(PDF * 3).decode()
    with pytest.raises(FileNotFoundError, match="missing.pdf"):
        Document.from_path(tmp_path / "missing.pdf")


def test_a_document_too_large_is_refused_before_sending_naming_field_and_rule() -> None:
    mock = MockService(KEY)
    mock.on(ApplyForCnyExpressRequest, lambda p: {"applicationId": "A1"})
    client = mock_client(mock)
    cny(invoice=bytes(31457280)).validate()  # 30 MiB exactly: the document's own size
    with pytest.raises(InvalidRequest) as refused:
        client.runtime.execute(cny(invoice=bytes(31457281)))
    assert [(v.field, v.rule.value) for v in refused.value.violations] == [("invoice", "base64_max_bytes")]
    assert "31457281 bytes, at most 31457280 allowed" in str(refused.value)
    assert refused.value.outcome is Outcome.NOT_SENT and not mock.requests
    with pytest.raises(InvalidRequest) as text:
        cny(support="JVBERi0=", registration=b"x").validate()  # type: ignore[arg-type]
    assert [(v.field, v.rule.value) for v in text.value.violations] == [("supportDocumentFile", "type")]
    assert "Document.from_path" in str(text.value)


def test_no_repr_shows_a_document() -> None:
    secret = b"PASSPORT-NUMBER-X1234567"
    request = cny(support=secret, registration=Document(secret), invoice=secret)
    for shown in (repr(request), str(request), repr(Document(secret)), str(Document(secret)), f"{Document(secret)}"):
        assert "PASSPORT" not in shown and "UEFTU1BPUlQ" not in shown, shown
    assert repr(Document(secret)) == "Document(24 bytes)"
    assert "invoice=Document(24 bytes)" in repr(request)
    assert Document(secret) == secret  # it is bytes


def test_an_answers_document_never_fails_to_read() -> None:
    assert document_of("Zm9vYmFy", "d") == b"foobar"
    assert document_of("Zm9vYg", "d") == b"foob"  # padding left out
    assert document_of("Zm9v\r\nYmFy", "d") == b"foobar"  # line breaks
    assert document_of("-_8=", "d") == b"\xfb\xff"  # URL-safe
    assert document_of("data:application/pdf;base64,JVBE", "d") == b"data:application/pdf;base64,JVBE"
    assert document_of(None, "d") is None
    with pytest.raises(WireShapeError):
        document_of(True, "d")


def test_an_empty_required_document_is_refused_before_sending_as_an_empty_string_is() -> None:
    mock = MockService(KEY)
    mock.on(ApplyForCnyExpressRequest, lambda p: {"applicationId": "A1"})
    client = mock_client(mock)

    def refused(request: ApplyForCnyExpressRequest) -> tuple[list[tuple[str, str]], str]:
        with pytest.raises(InvalidRequest) as e:
            client.runtime.execute(request)
        assert e.value.outcome is Outcome.NOT_SENT
        return [(v.field, v.rule.value) for v in e.value.violations], str(e.value)

    document, document_message = refused(cny(support=b""))
    assert document == [("supportDocumentFile", "required")]
    text, text_message = refused(dataclasses.replace(cny(), payer_account_id=""))
    assert text == [("payerAccountId", "required")]
    assert document_message.replace("supportDocumentFile", "payerAccountId") == text_message
    assert refused(cny(registration=Document(b"")))[0] == [("companyRegisDocumentFile", "required")]
    # An empty invoice while the orders exceed 70000 is an absent one.
    big = [OrderItem(product_name="goods", quantity=1, amount=Decimal("70000.01"), order_time=1, platform="shop")]
    assert refused(dataclasses.replace(cny(invoice=b""), order_array=big))[0] == [("invoice", "required_if")]
    assert not mock.requests
    client.runtime.execute(dataclasses.replace(cny(support=b"\0", invoice=b"\0"), order_array=big))
    assert len(mock.requests) == 1
