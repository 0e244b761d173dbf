//! Signing and verification against a bare SHA-256 of the same canonical bytes.

use baas_runtime::canonical::Flattened;

use super::*;

/// A CNY Express transfer request with three order items, unsigned.
pub(crate) fn cny_express_request() -> Vec<u8> {
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

/// A signed answer to the CNY Express request (about the same size).
pub(crate) fn cny_express_answer() -> Vec<u8> {
    let data = RawJson::from_string(
        r#"{"transactionId":"T2024061200012345","orderStatus":"PROCESSING","amount":"37501.50","fee":"12.00","currency":"CNY","beneficiaryName":"张三","beneficiaryAccountId":"6222020200112233445","createTime":1650533105687,"items":[{"productName":"Product 1 电子元件","quantity":10},{"productName":"Product 2 电子元件","quantity":20},{"productName":"Product 3 电子元件","quantity":30}]}"#
            .to_owned(),
    )
    .unwrap();
    signed_response_body(
        "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
        "svc",
        "en_KE",
        "00000",
        "success",
        Some(&data),
        &key(),
    )
    .unwrap()
}

pub(crate) fn canonical_bytes(body: &[u8]) -> Vec<u8> {
    Flattened::parse(body)
        .map(|f| f.canonical_bytes_exposing_key(&key()))
        .unwrap()
}

/// The envelope `envelope::sign_request` serializes, to time serializing alone.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Envelope<'a> {
    request_id: &'a str,
    sender: &'a str,
    locale: &'a str,
    timestamp: i64,
    salt: &'a str,
    params: &'a serde_json::Value,
}

/// How the client signs its own requests: while serializing them (no parse of the
/// bytes written). Its cost is `envelope::sign_request` less serializing the same
/// envelope with `serde_json` alone (the bytes that are sent either way), set against
/// a bare SHA-256 of the canonical bytes it signs.
pub(crate) fn one_pass_signing(request: &[u8], k: &PrivateKey) {
    let body: serde_json::Value = serde_json::from_slice(request).unwrap();
    let params = body["params"].clone();
    let signed = envelope::sign_request(&params, SENDER, "en_KE", k).unwrap();
    let canonical = canonical_bytes(&signed.body);
    let signing_ns = nanos_per_call(|| envelope::sign_request(&params, SENDER, "en_KE", k));
    let serializing_ns = nanos_per_call(|| {
        serde_json::to_vec(&Envelope {
            request_id: "client1a1b2c3d4e5f60718293a4b5c6d7e8f9",
            sender: SENDER,
            locale: "en_KE",
            timestamp: 1_650_533_105_687,
            salt: "9f8e7d6c5b4a39281706f5e4",
            params: black_box(&params),
        })
    });
    let sha_ns = nanos_per_call(|| Sha256::digest(black_box(&canonical)));
    println!(
        "sign the CNY Express request as the client does (envelope::sign_request, signed \
         while serialized): {:.2} µs, of which serde_json alone {:.2} µs; signing's own \
         {:.2} µs against bare SHA-256 {:.2} µs: {:.2}x (target <= 2x)",
        signing_ns / 1e3,
        serializing_ns / 1e3,
        (signing_ns - serializing_ns) / 1e3,
        sha_ns / 1e3,
        (signing_ns - serializing_ns) / sha_ns
    );
}

/// Nanoseconds per call of `f`, median of rounds.
pub(crate) fn nanos_per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    let per_round = 2000;
    let mut rounds = Vec::new();
    for _ in 0..21 {
        let started = Instant::now();
        for _ in 0..per_round {
            black_box(f());
        }
        rounds.push(started.elapsed().as_secs_f64() * 1e9 / f64::from(per_round));
    }
    median(rounds)
}

/// Allocations on this thread per call of `f` (mean of 100 calls).
pub(crate) fn allocations_per_call<T>(mut f: impl FnMut() -> T) -> f64 {
    black_box(f());
    let before = allocations();
    for _ in 0..100 {
        black_box(f());
    }
    (allocations() - before) as f64 / 100.0
}

/// Signing the CNY Express request and verifying its answer (`sign::sign`,
/// `sign::verify`, on bytes) against a bare SHA-256 of the same canonical bytes.
pub(crate) fn against_sha256(request: &[u8], answer: &[u8], k: &PrivateKey) {
    let (request_canonical, answer_canonical) = (canonical_bytes(request), canonical_bytes(answer));
    let sign_ns = nanos_per_call(|| sign::sign(request, k));
    let sha_request_ns = nanos_per_call(|| Sha256::digest(black_box(&request_canonical)));
    let verify_ns = nanos_per_call(|| sign::verify(answer, k));
    let sha_answer_ns = nanos_per_call(|| Sha256::digest(black_box(&answer_canonical)));
    println!(
        "sign CNY Express request ({} bytes): {:.2} µs, bare SHA-256 of its canonical bytes \
         {:.2} µs: {:.2}x (target <= 2x)",
        request.len(),
        sign_ns / 1e3,
        sha_request_ns / 1e3,
        sign_ns / sha_request_ns
    );
    println!(
        "verify CNY Express answer ({} bytes): {:.2} µs, bare SHA-256 of its canonical bytes \
         {:.2} µs: {:.2}x (target <= 2x)",
        answer.len(),
        verify_ns / 1e3,
        sha_answer_ns / 1e3,
        verify_ns / sha_answer_ns
    );
    // What reading the same bytes costs a general JSON parser that builds nothing
    // (serde_json into `IgnoredAny`: syntax and UTF-8 checked, no value kept), against
    // the same SHA-256: the part of the 2x that parsing alone takes.
    let read = |body: &[u8]| {
        nanos_per_call(|| serde_json::from_slice::<serde::de::IgnoredAny>(black_box(body)).is_ok())
    };
    let (read_request_ns, read_answer_ns) = (read(request), read(answer));
    println!(
        "    for reference, serde_json only reading the same bodies (IgnoredAny): request \
         {:.2} µs = {:.2}x, answer {:.2} µs = {:.2}x its bare SHA-256",
        read_request_ns / 1e3,
        read_request_ns / sha_request_ns,
        read_answer_ns / 1e3,
        read_answer_ns / sha_answer_ns
    );
}
