//! Snapshots of the generator on small fixture specs, one feature each. Every rendered
//! output is stored once, as a module of this crate's library
//! (`tests/src/fixtures/<name>.rs`), so it is compiled as well as compared.
//!
//! After an intended change (the README's update command):
//! `BAAS_UPDATE_FIXTURES=1 INSTA_UPDATE=always cargo test -p baas-tests`.

use std::path::{Path, PathBuf};

const FIXTURES: &[&str] = &[
    "conditional_rule",
    "evolution_v1",
    "evolution_v2",
    "keyword_field",
    "nested_records",
    "result_codes",
    "rule_kinds",
    "unspecified_response",
    "value_set",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn render(name: &str) -> String {
    let dir = root().join("fixtures/gen").join(name);
    let checked = match baas_codegen::check_spec(&dir) {
        Ok(checked) => checked,
        Err(diagnostics) => panic!("fixture {name} does not check:\n{diagnostics}"),
    };
    match baas_codegen::pipeline::single_file(&checked.api, &format!("tests/fixtures/gen/{name}")) {
        Ok(text) => text,
        Err(e) => panic!("fixture {name} does not emit: {e}"),
    }
}

fn check_fixture(name: &str) {
    let rendered = render(name);
    let compiled = root().join("src/fixtures").join(format!("{name}.rs"));
    if std::env::var_os("BAAS_UPDATE_FIXTURES").is_some() {
        if let Err(e) = std::fs::write(&compiled, &rendered) {
            panic!("cannot write {}: {e}", compiled.display());
        }
    }
    let on_disk = std::fs::read_to_string(&compiled).unwrap_or_default();
    assert!(
        on_disk == rendered,
        "{} differs from a fresh render of tests/fixtures/gen/{name}; run \
         `BAAS_UPDATE_FIXTURES=1 cargo test -p baas-tests --test generator_snapshots`",
        compiled.display()
    );
}

#[test]
fn every_fixture_directory_is_listed() {
    let mut found: Vec<String> = std::fs::read_dir(root().join("fixtures/gen"))
        .expect("fixtures/gen exists")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    assert_eq!(found, FIXTURES);
}

#[test]
fn value_set() {
    check_fixture("value_set");
}

#[test]
fn conditional_rule() {
    check_fixture("conditional_rule");
}

#[test]
fn rule_kinds() {
    check_fixture("rule_kinds");
}

#[test]
fn nested_records() {
    check_fixture("nested_records");
}

#[test]
fn unspecified_response() {
    check_fixture("unspecified_response");
}

#[test]
fn keyword_field() {
    check_fixture("keyword_field");
}

#[test]
fn result_codes() {
    check_fixture("result_codes");
}

#[test]
fn evolution_v1() {
    check_fixture("evolution_v1");
}

#[test]
fn evolution_v2() {
    check_fixture("evolution_v2");
}

/// The rendered fixtures behave as documented (they are compiled into the library).
mod behaviour {
    use baas_runtime::Operation;
    use baas_tests::fixtures::{conditional_rule, keyword_field, nested_records, value_set};

    #[test]
    fn unknown_enum_values_are_kept() {
        use value_set::enums::{PaymentPurpose, TxStatus};
        let p: PaymentPurpose = serde_json::from_str("\"NEW_PURPOSE\"").expect("decodes");
        assert!(matches!(&p, PaymentPurpose::Unknown(v) if v.as_str() == "NEW_PURPOSE"));
        // Partners' text is strict: a misspelled name is an error, never `Unknown`.
        assert!("PURCHASE_GOOD".parse::<PaymentPurpose>().is_err());
        assert!("PurchaseGoods".parse::<PaymentPurpose>().is_err());
        assert_eq!("PURCHASE_GOODS".parse(), Ok(PaymentPurpose::PurchaseGoods));
        assert_eq!(
            serde_json::to_string(&p).expect("encodes"),
            "\"NEW_PURPOSE\""
        );
        let s: TxStatus = serde_json::from_str("-1").expect("decodes");
        assert_eq!(s, TxStatus::Timeout);
        let s: TxStatus = serde_json::from_str("42").expect("decodes");
        assert!(matches!(s, TxStatus::Unknown(v) if v.get() == 42));
        // A known value spelled as a string still decodes as its variant.
        let s: TxStatus = serde_json::from_str("\"8\"").expect("decodes");
        assert_eq!(s, TxStatus::Succeeded);
        assert!(TxStatus::try_from(42).is_err());
        assert_eq!(TxStatus::try_from(-1), Ok(TxStatus::Timeout));
        assert_eq!("-1".parse(), Ok(TxStatus::Timeout));
        assert!("42".parse::<TxStatus>().is_err());
        assert_eq!(PaymentPurpose::PurchaseGoods.to_string(), "PURCHASE_GOODS");
    }

    #[test]
    fn responses_decode_with_extra_and_missing_fields() {
        let r: value_set::pay::GetPaymentResponse =
            serde_json::from_str(r#"{"txStatus": 8, "addedLater": true}"#).expect("decodes");
        assert_eq!(r.tx_status, Some(value_set::enums::TxStatus::Succeeded));
        assert_eq!(r.purpose, None);
        let _empty: conditional_rule::cny::ApplyForCnyResponse =
            serde_json::from_str("{}").expect("empty decodes");
    }

    #[test]
    fn requests_use_exact_wire_names_and_never_send_null() {
        use keyword_field::media::{UploadMediaRequest, UploadMediaRequired};
        let req = UploadMediaRequest::new(UploadMediaRequired {
            r#type: "IMAGE".into(),
            content: b"ABC".into(), // sent as its Base64, QUJD
        });
        let json = serde_json::to_string(&req).expect("encodes");
        assert_eq!(json, r#"{"type":"IMAGE","content":"QUJD"}"#);
        let req = req.match_kind("exact");
        assert!(serde_json::to_string(&req)
            .expect("encodes")
            .contains(r#""match":"exact""#));
        let bad = serde_json::from_str::<keyword_field::media::UploadMediaRequest>(
            r#"{"type":"x","content":"QUJD","typo":1}"#,
        );
        assert!(bad.is_err(), "unknown request fields are refused");
    }

    #[test]
    fn validation_names_nested_paths_and_constraints() {
        use nested_records::records::{OrderItem, OrderItemRequired};
        use nested_records::trans::{ApplyWithOrdersRequest, ApplyWithOrdersRequired};
        let item = OrderItem::new(OrderItemRequired {
            product_name: "p".into(),
            quantity: 0,
            amount: "80000".parse().expect("amount"),
        });
        let req = ApplyWithOrdersRequest::new(ApplyWithOrdersRequired {
            oder_array: vec![item],
        });
        let errors = req.validate().expect_err("invalid");
        let fields: Vec<&str> = errors
            .violations()
            .iter()
            .map(|v| v.field.as_str())
            .collect();
        assert!(fields.contains(&"oderArray[0].quantity"), "{fields:?}");
        assert!(fields.contains(&"invoice"), "{fields:?}");
        let json = serde_json::to_string(&req).expect("encodes");
        assert!(
            json.contains(r#""amount":80000"#),
            "wire: number amounts: {json}"
        );

        use conditional_rule::cny::{ApplyForCnyRequest, ApplyForCnyRequired};
        use conditional_rule::enums::BeneficiaryType;
        let req = ApplyForCnyRequest::new(ApplyForCnyRequired {
            beneficiary_type: BeneficiaryType::Individual,
            amount: "10.00".parse().expect("amount"),
        });
        let errors = req.validate().expect_err("invalid");
        let fields: Vec<&str> = errors
            .violations()
            .iter()
            .map(|v| v.field.as_str())
            .collect();
        assert!(fields.contains(&"beneficiaryCountryCode"), "{fields:?}");
        let req = req.beneficiary_country_code("KE").mobile("0700");
        assert!(req.validate().is_ok());
    }
}
