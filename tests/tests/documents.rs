//! Documents (spec type `document`, decision `document-type`) through the Rust client on the
//! shipped mock: bytes or a file, sent as the exact standard Base64 text (the mock verifies
//! the signature over the bytes it received), a document too large refused before sending
//! naming the field and the rule, and no `Debug` showing a document's bytes.

use std::sync::Arc;

use baas_client::cny::{ApplyForCnyExpressRequest, ApplyForCnyExpressRequired};
use baas_client::enums::{BeneficiaryType, CnyDocumentType, PaymentPurpose};
use baas_client::mock::{MockTransport, Refusal};
use baas_client::records::OrderItemRequired;
use baas_client::reversal::{TxReversalRequest, TxReversalRequired, TxReversalResponse};
use baas_client::{Client, Config, Document, ErrorKind, Outcome, PrivateKey, RuleKind};

const PDF: &[u8] = b"%PDF-1.7\n\x00\xff\xfe\x80";

fn mocked() -> (Arc<MockTransport>, Client) {
    let key = PrivateKey::new("unit-test-key");
    let mock = Arc::new(MockTransport::new(key.clone()));
    let client = Client::with_transport(
        Config::new("https://mock.invalid", "partner", key),
        mock.clone(),
    )
    .expect("client");
    (mock, client)
}

fn cny(support: Document) -> ApplyForCnyExpressRequest {
    ApplyForCnyExpressRequest::new(ApplyForCnyExpressRequired {
        payer_account_id: "1000000001".into(),
        beneficiary_type: BeneficiaryType::Enterprise,
        beneficiary_name: "Shenzhen Trading".into(),
        beneficiary_id_number: "91440300".into(),
        beneficiary_bank_code: "CMB".into(),
        beneficiary_bank_name: "China Merchants Bank".into(),
        beneficiary_bank_address: "Shenzhen".into(),
        beneficiary_account_id: "6225880000000000".into(),
        payment_purpose: PaymentPurpose::PurchaseGoods,
        support_document_file: support,
        support_document_type: CnyDocumentType::Pdf,
        company_regis_document_file: b"registration".into(),
        company_regis_document_type: CnyDocumentType::Pdf,
        invoice_document_type: CnyDocumentType::Pdf,
        order_array: vec![OrderItemRequired {
            product_name: "goods".into(),
            quantity: 1,
            amount: "100.00".parse().expect("amount"),
            order_time: 1,
            platform: "shop".into(),
        }
        .into()],
    })
}

#[tokio::test]
async fn bytes_are_sent_as_the_exact_base64_text_and_a_file_is_read() {
    let (mock, client) = mocked();
    mock.on::<TxReversalRequest, _>(|_| {
        let mut r = TxReversalResponse::default();
        r.application_id = Some("A1".into());
        Ok::<_, Refusal>(r)
    });
    let required = || TxReversalRequired {
        transaction_id: "T1".into(),
    };
    client
        .tx_reversal(required())
        .voucher_base64(PDF.to_vec())
        .send()
        .await
        .expect("answered");
    let dir = std::env::temp_dir().join(format!("baas-documents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("voucher.pdf");
    std::fs::write(&file, [PDF, PDF].concat()).expect("written");
    client
        .tx_reversal(required())
        .voucher_base64(Document::from_path(&file).expect("read"))
        .send()
        .await
        .expect("answered");
    let missing = Document::from_path(dir.join("missing.pdf")).unwrap_err();
    assert!(
        matches!(missing.kind(), ErrorKind::Storage { .. }),
        "{missing:?}"
    );
    assert!(missing.to_string().contains("missing.pdf"), "{missing}");
    std::fs::remove_dir_all(&dir).expect("removed");

    // The mock verified each signature over the exact bytes it received.
    let sent: Vec<String> = mock
        .requests()
        .iter()
        .map(|r| r.params.get().to_owned())
        .collect();
    assert_eq!(
        sent[0],
        r#"{"transactionId":"T1","voucherBase64":"JVBERi0xLjcKAP/+gA=="}"#
    );
    assert!(
        sent[1].contains(r#""voucherBase64":"JVBERi0xLjcKAP/+gCVQREYtMS43CgD//oA=""#),
        "{}",
        sent[1]
    );
    let decoded = mock.requests_of::<TxReversalRequest>();
    assert_eq!(
        decoded[1].voucher_base64.as_ref().map(Document::as_bytes),
        Some(&[PDF, PDF].concat()[..])
    );
}

#[tokio::test]
async fn a_document_too_large_is_refused_before_sending_naming_field_and_rule() {
    let (mock, client) = mocked();
    let at_limit = cny(b"s".into()).invoice(vec![0u8; 31_457_280]);
    baas_client::Operation::validate(&at_limit).expect("30 MiB exactly: the document's own size");
    let err = client
        .apply_for_cny_express(cny(b"s".into()))
        .invoice(vec![0u8; 31_457_281])
        .send()
        .await
        .unwrap_err();
    assert_eq!(err.outcome(), Outcome::NotSent);
    let ErrorKind::InvalidRequest(errors) = err.kind() else {
        panic!("{err:?}");
    };
    let got: Vec<(&str, RuleKind)> = errors
        .violations()
        .iter()
        .map(|v| (v.field.as_str(), v.rule))
        .collect();
    assert_eq!(got, [("invoice", RuleKind::Base64MaxBytes)]);
    assert!(
        err.to_string()
            .contains("31457281 bytes, at most 31457280 allowed"),
        "{err}"
    );
    assert!(mock.requests().is_empty());
}

/// The violations of a refused call, and its message.
fn refused(err: &baas_client::Error) -> (Vec<(String, RuleKind)>, String) {
    assert_eq!(err.outcome(), Outcome::NotSent, "{err:?}");
    let ErrorKind::InvalidRequest(errors) = err.kind() else {
        panic!("{err:?}");
    };
    let got = errors
        .violations()
        .iter()
        .map(|v| (v.field.as_str().to_owned(), v.rule))
        .collect();
    (got, err.to_string())
}

#[tokio::test]
async fn an_empty_required_document_is_refused_before_sending_as_an_empty_string_is() {
    let (mock, client) = mocked();
    mock.on::<ApplyForCnyExpressRequest, _>(|_| {
        Ok::<_, Refusal>(baas_client::cny::ApplyForCnyExpressResponse::default())
    });
    // A document of no bytes is as missing as an empty string: the rule `required`, the
    // field named, nothing sent.
    let err = client
        .apply_for_cny_express(cny(Document::default()))
        .send()
        .await
        .unwrap_err();
    let (got, message) = refused(&err);
    assert_eq!(
        got,
        [("supportDocumentFile".to_owned(), RuleKind::Required)]
    );
    let mut text = cny(b"s".into());
    text.payer_account_id = String::new();
    let err = client.apply_for_cny_express(text).send().await.unwrap_err();
    let (got_text, message_text) = refused(&err);
    assert_eq!(
        got_text,
        [("payerAccountId".to_owned(), RuleKind::Required)]
    );
    assert_eq!(
        message.replace("supportDocumentFile", "payerAccountId"),
        message_text
    );
    assert!(
        message.contains("supportDocumentFile: is required"),
        "{message}"
    );
    assert!(mock.requests().is_empty());

    // An empty invoice while the orders exceed 70000 is absent: `required_if`.
    let mut big = cny(b"s".into()).invoice(Vec::new());
    big.order_array[0].amount = "70000.01".parse().expect("amount");
    let err = client.apply_for_cny_express(big).send().await.unwrap_err();
    assert_eq!(
        refused(&err).0,
        [("invoice".to_owned(), RuleKind::RequiredIf)]
    );
    assert!(mock.requests().is_empty());

    // One byte is a document.
    client
        .apply_for_cny_express(cny(b"s".into()))
        .send()
        .await
        .expect("one byte passes");
    assert_eq!(mock.requests().len(), 1);
}

#[test]
fn no_debug_shows_a_document() {
    let secret = b"PASSPORT-NUMBER-X1234567";
    let request = cny(secret.into()).invoice(secret.to_vec());
    for shown in [
        format!("{request:?}"),
        format!("{request:#?}"),
        format!("{:?}", Document::from(secret)),
    ] {
        assert!(
            !shown.contains("PASSPORT") && !shown.contains("UEFTU1BPUlQ"),
            "{shown}"
        );
        assert!(!shown.contains("80, 65, 83, 83"), "{shown}");
    }
    assert_eq!(
        format!("{:?}", Document::from(secret)),
        "Document(24 bytes)"
    );
}
