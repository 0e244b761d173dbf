//! The sandbox reads request documents (spec type `document`) as the service does:
//! standard Base64 with padding (decision `document-type`). Params are raw JSON, so these
//! tests do not depend on the shape of the generated request types.

mod common;

use baas_sandbox::Sandbox;
use common::raw::{call, ok};
use serde_json::json;

/// Documents are standard Base64 with padding, decoded as the service reads them
/// (decision `document-type`): such a text is accepted, and text the service would not
/// decode (unpadded, URL-safe, broken into lines, not Base64) is refused naming the field.
#[tokio::test]
async fn documents_are_standard_padded_base64() {
    let sb = Sandbox::start().await.unwrap();
    let cny = |support: &str| {
        json!({"payerAccountId": "2000000001", "beneficiaryType": "2",
            "beneficiaryName": "Shanghai Tea Co", "beneficiaryIdNumber": "91310000",
            "beneficiaryBankCode": "ICBC",
            "beneficiaryBankName": "Industrial and Commercial Bank of China",
            "beneficiaryBankAddress": "Shanghai", "beneficiaryAccountId": "6222000011112222",
            "paymentPurpose": "PURCHASE_GOODS", "supportDocumentFile": support,
            "supportDocumentType": "pdf", "companyRegisDocumentFile": "JVBERi0xLjcKAP/+gA==",
            "companyRegisDocumentType": "pdf", "invoiceDocumentType": "pdf",
            "oderArray": [{"productName": "tea", "quantity": 1, "amount": "10.00",
                "orderTime": 1_750_000_000_000_i64, "platform": "shop"}]})
    };
    let data = ok(
        &sb,
        "/trans/applyForCnyExpress",
        cny("JVBERi0xLjcKAP/+gA=="),
    )
    .await;
    assert!(data["applicationId"].is_string(), "{data}");
    for bad in [
        "JVBERi0xLjcKAP_-gA==",
        "JVBERi0xLjcKAP/+gA",
        "JVBERi0x\nLjcKAP/+gA==",
        "a pdf",
    ] {
        let answer = call(&sb, "/trans/applyForCnyExpress", cny(bad)).await;
        assert_eq!(answer["code"], "12001", "{bad}: {answer}");
        let msg = answer["msg"].as_str().unwrap();
        assert!(
            msg.contains("supportDocumentFile") || msg.contains("Base64"),
            "{bad}: {answer}"
        );
    }
}
