//! Signing a CNY Express request with three order items, against a bare SHA-256 of the
//! same canonical bytes and a naive signer (JSON tree to owned strings, sort, join, hash);
//! and verifying large bodies (1 MiB of order items, of one-digit numbers, of one-letter
//! keys), where the flattener's memory and passes over the body show.

#[path = "roundtrip/naive.rs"]
mod naive;

use std::hint::black_box;

use baas_runtime::canonical::Flattened;
use baas_runtime::{sign, PrivateKey};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sha2::{Digest, Sha256};

fn cny_express_request() -> Vec<u8> {
    let order = |i: u32| {
        format!(
            r#"{{"productName":"Product {i} 电子元件","quantity":{q},"amount":"{i}2500.50","orderTime":1650533105687,"platform":"https://shop.example.cn/item/{i}"}}"#,
            q = 10 * i
        )
    };
    format!(
        r#"{{"requestId":"client1a1b2c3d4e5f60718293a4b5c6d7e8f9","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","params":{{"payerAccountId":"1002003004005","beneficiaryType":"1","beneficiaryName":"张三","beneficiaryIdNumber":"110101199003071234","beneficiaryCountryCode":"CN","beneficiaryBankCode":"ICBKCNBJ","beneficiaryBankName":"Industrial and Commercial Bank of China","beneficiaryBankAddress":"55 Fuxingmennei Avenue, Beijing","beneficiaryAccountId":"6222020200112233445","paymentPurpose":"PURCHASE_GOODS","messageToBeneficiary":"Invoice 2024-001 & 2024-002","remark":"Q2 stock","supportDocumentFile":"JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K","supportDocumentType":"pdf","companyRegisDocumentFile":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk","companyRegisDocumentType":"image","invoiceDocumentType":"pdf","oderArray":[{},{},{}]}}}}"#,
        order(1),
        order(2),
        order(3)
    )
    .into_bytes()
}

fn naive_sign(body: &[u8], key: &str) -> String {
    naive::sign(body, key).1
}

fn bench(c: &mut Criterion) {
    let body = cny_express_request();
    let key = PrivateKey::new("partner-secret-key");
    let signature = sign::sign(&body, &key).unwrap_or_default();
    assert_eq!(
        signature,
        naive_sign(&body, "partner-secret-key"),
        "both signers agree"
    );
    let canonical = Flattened::parse(&body)
        .map(|f| f.canonical_bytes_exposing_key(&key))
        .unwrap_or_default();
    let mut group = c.benchmark_group("cny_express_3_items");
    group.bench_function("runtime_sign", |b| {
        b.iter(|| sign::sign(black_box(&body), &key))
    });
    group.bench_function("parse_unambiguous", |b| {
        b.iter(|| Flattened::parse_unambiguous(black_box(&body)).map(|f| f.len()))
    });
    let flat = Flattened::parse_unambiguous(&body).unwrap();
    group.bench_function("digest_of_parsed", |b| b.iter(|| flat.digest(&key)));
    group.bench_function("bare_sha256_of_canonical", |b| {
        b.iter(|| hex::encode(Sha256::digest(black_box(&canonical))))
    });
    group.bench_function("naive_tree_sign", |b| {
        b.iter(|| naive_sign(black_box(&body), "partner-secret-key"))
    });
    group.finish();
}

/// An answer around `data` of about `size` bytes: `item` repeated in an array.
fn large_answer(size: usize, item: &str) -> Vec<u8> {
    let count = size / (item.len() + 1);
    let data = vec![item; count].join(",");
    format!(
        r#"{{"requestId":"r1","code":"00000","msg":"success","sender":"svc","salt":"s","timestamp":1650533105687,"data":{{"list":[{data}]}}}}"#
    )
    .into_bytes()
}

fn bench_large(c: &mut Criterion) {
    let key = PrivateKey::new("partner-secret-key");
    let one_letter: String = {
        let members: Vec<String> = (b'a'..=b'z')
            .map(|c| format!("\"{}\":1", char::from(c)))
            .collect();
        format!("{{{}}}", members.join(","))
    };
    let order = r#"{"productName":"Product 7 电子元件","quantity":70,"amount":"72500.50","orderTime":1650533105687,"platform":"https://shop.example.cn/item/7"}"#;
    let mut group = c.benchmark_group("verify_1MiB");
    group.sample_size(20);
    for (name, item) in [
        ("order_items", order),
        ("one_digit_numbers", "1"),
        ("one_letter_keys", one_letter.as_str()),
    ] {
        let body = sign::sign_and_attach(large_answer(1 << 20, item), &key).unwrap_or_default();
        assert!(sign::verify(&body, &key).is_ok(), "{name}");
        group.throughput(Throughput::Bytes(body.len() as u64));
        group.bench_function(name, |b| b.iter(|| sign::verify(black_box(&body), &key)));
    }
    group.finish();
}

criterion_group!(benches, bench, bench_large);
criterion_main!(benches);
