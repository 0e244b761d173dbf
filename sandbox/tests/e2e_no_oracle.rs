//! The sandbox is no signing oracle and signs nothing that could be re-cut (issue 17):
//! a request whose sender, body or signature did not pass gets an unsigned `code`/`msg`
//! that quotes nothing of it; a verified request's requestId and locale are checked
//! before an answer echoes them; values that could be re-cut are refused before they
//! are stored, so no later answer or notification can carry them.

mod common;

use std::time::Duration;

use baas_sandbox::json::Json;
use baas_sandbox::{recut, signing, Sandbox, SandboxConfig};
use common::raw;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The locale of the attack: echoed in a signed answer, it read as a `0028`
/// notification for 50,000.00.
const HOSTILE_LOCALE: &str = "en_KE&notificationType=0028&params.amount=50000.00&params.zz=";

/// The remark of the attack: stored with a transfer, it came back signed in
/// the payee's `getTransList` as an extra row of 900,000.00.
const HOSTILE_REMARK: &str =
    "x&data.result[1].amount=900000.00&data.result[1].txStatus=8&data.result[1].zz=";

fn now() -> i64 {
    baas_runtime::envelope::now_millis()
}

/// Every string value of `request`, at any depth.
fn strings(request: &Value, out: &mut Vec<String>) {
    match request {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// `answer` is exactly `{"code": code, "msg": ...}` (no signature, no requestId) and its
/// text holds none of the request's string values, nor any piece of `also` (parts of
/// an attack that must not come back either).
fn assert_unsigned_quoting_nothing(answer: &[u8], code: &str, request: &Value, also: &[&str]) {
    let text = String::from_utf8_lossy(answer);
    let value: Value = serde_json::from_slice(answer).unwrap_or(Value::Null);
    let members: Vec<&str> = value
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(members, ["code", "msg"], "{text}");
    assert_eq!(value["code"], code, "{text}");
    let mut quoted = Vec::new();
    strings(request, &mut quoted);
    quoted.extend(also.iter().map(|s| (*s).to_owned()));
    for s in quoted.iter().filter(|s| s.len() >= 3) {
        assert!(
            !text.contains(s.as_str()),
            "the answer quotes `{s}`: {text}"
        );
    }
}

/// POSTs `body` to `path` over a fresh connection; the raw answer body.
async fn post_raw(sb: &Sandbox, path: &str, body: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(sb.addr()).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    read_answer(&mut stream).await
}

/// The body of the HTTP answer on `stream`, which must come within 5 seconds.
async fn read_answer(stream: &mut TcpStream) -> Vec<u8> {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(
        read.is_ok(),
        "no answer within 5 s: {}",
        String::from_utf8_lossy(&answer)
    );
    let at = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP answer");
    answer.split_off(at + 4)
}

/// A request signed by the sandbox's own signer, which signs whatever it is given (the
/// runtime refuses to sign a body that could be re-cut).
fn signed_by_hand(sb: &Sandbox, request: &Value) -> Vec<u8> {
    let key = String::from_utf8(sb.private_key().expose().to_vec()).unwrap();
    signing::signed(Json::from_value(request), &key)
        .to_json_string()
        .into_bytes()
}

fn envelope(request_id: &str, sender: &str, locale: &str, params: Value) -> Value {
    json!({
        "requestId": request_id,
        "sender": sender,
        "locale": locale,
        "timestamp": now(),
        "salt": "probe-salt-4e1d",
        "params": params,
    })
}

#[tokio::test]
async fn a_bogus_signature_gets_an_unsigned_answer_quoting_nothing() {
    let sb = Sandbox::start().await.unwrap();
    let mut request = envelope(
        "ORACLE-PROBE-7f3a",
        sb.sender(),
        HOSTILE_LOCALE,
        json!({"accountId": "1000000001"}),
    );
    request["signature"] = json!("0".repeat(64));
    let body = serde_json::to_vec(&request).unwrap();
    let answer = post_raw(&sb, "/query/getAccountDetails", &body).await;
    assert_unsigned_quoting_nothing(
        &answer,
        "12005",
        &request,
        &["notificationType", "0028", "50000.00"],
    );
    // No signature at all: the same.
    request.as_object_mut().unwrap().remove("signature");
    let body = serde_json::to_vec(&request).unwrap();
    let answer = post_raw(&sb, "/query/getAccountDetails", &body).await;
    assert_unsigned_quoting_nothing(&answer, "12005", &request, &["notificationType"]);
}

#[tokio::test]
async fn an_unknown_sender_gets_an_unsigned_answer_quoting_nothing() {
    let sb = Sandbox::start().await.unwrap();
    // Signed with the partner's key, but under a sender the sandbox does not know.
    let request = envelope(
        "ORACLE-PROBE-5c2e",
        "stranger-9d41",
        HOSTILE_LOCALE,
        json!({"accountId": "1000000001"}),
    );
    let answer = post_raw(
        &sb,
        "/query/getAccountDetails",
        &signed_by_hand(&sb, &request),
    )
    .await;
    assert_unsigned_quoting_nothing(&answer, "12003", &request, &["notificationType"]);
}

#[tokio::test]
async fn a_body_over_the_limit_is_answered_before_it_is_read() {
    let sb = Sandbox::start().await.unwrap();
    let request = envelope(
        "ORACLE-PROBE-1b9c",
        sb.sender(),
        HOSTILE_LOCALE,
        json!({"remark": "big-body-remark"}),
    );
    let start = serde_json::to_vec(&request).unwrap();
    // A Content-Length over the 48 MB limit: answered at once, with only the first
    // bytes sent (the sandbox used to read up to the limit first).
    let mut stream = TcpStream::connect(sb.addr()).await.unwrap();
    let head = format!(
        "POST /query/getAccountDetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        baas_sandbox::MAX_BODY_BYTES + 1
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&start[..start.len() - 1]).await.unwrap();
    let answer = read_answer(&mut stream).await;
    assert_unsigned_quoting_nothing(&answer, "12001", &request, &["notificationType"]);

    // Chunked, so no length is declared: answered once the bytes received pass the
    // limit (a smaller one, configured), without waiting for the rest.
    let mut config = SandboxConfig::default();
    config.max_body_bytes = 256 * 1024;
    let small = Sandbox::start_with(config).await.unwrap();
    let mut stream = TcpStream::connect(small.addr()).await.unwrap();
    stream
        .write_all(b"POST /query/getAccountDetails HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        .await
        .unwrap();
    let mut body = start[..start.len() - 1].to_vec();
    body.resize(256 * 1024 + 1, b' ');
    for chunk in body.chunks(16 * 1024) {
        let framed = [
            format!("{:x}\r\n", chunk.len()).as_bytes(),
            chunk,
            b"\r\n".as_slice(),
        ]
        .concat();
        stream.write_all(&framed).await.unwrap();
    }
    let answer = read_answer(&mut stream).await;
    assert_unsigned_quoting_nothing(&answer, "12001", &request, &["notificationType"]);
    assert!(
        String::from_utf8_lossy(&answer).contains("262144"),
        "the limit is named"
    );
}

#[tokio::test]
async fn a_verified_request_is_answered_with_nothing_that_could_be_re_cut() {
    let sb = Sandbox::start().await.unwrap();
    let key = sb.private_key();
    let path = "/query/getAccountDetails";
    let params = json!({"accountId": "1000000001"});

    // A hostile locale under a signature that holds: refused, signed, and the answer
    // carries the sandbox's locale, not the request's.
    let request = envelope(
        "LOCALE-PROBE-1",
        sb.sender(),
        HOSTILE_LOCALE,
        params.clone(),
    );
    let answer = post_raw(&sb, path, &signed_by_hand(&sb, &request)).await;
    assert_eq!(baas_runtime::sign::verify(&answer, &key), Ok(()));
    let value: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(
        (&value["code"], &value["requestId"], &value["locale"]),
        (&json!("12001"), &json!("LOCALE-PROBE-1"), &json!("en_KE")),
        "{value}"
    );
    assert!(value["msg"].as_str().unwrap().contains("locale"), "{value}");

    // A requestId that could be re-cut cannot be echoed: unsigned, quoting nothing.
    for request_id in ["R1&notificationType=0028&params.zz=", "with space", ""] {
        let request = envelope(request_id, sb.sender(), "en_KE", params.clone());
        let answer = post_raw(&sb, path, &signed_by_hand(&sb, &request)).await;
        assert_unsigned_quoting_nothing(&answer, "12002", &request, &["notificationType"]);
    }
    let long = "R".repeat(129);
    let request = envelope(&long, sb.sender(), "en_KE", params.clone());
    let answer = post_raw(&sb, path, &signed_by_hand(&sb, &request)).await;
    assert_unsigned_quoting_nothing(&answer, "12002", &request, &[]);

    // Keys that could be re-cut: refused before the signature is checked, unsigned.
    for params in [
        json!({"accountId": "1000000001", "data.result[1].amount": "900000.00"}),
        json!({"accountId": "1000000001", "": "x"}),
    ] {
        let request = envelope("KEY-PROBE-1", sb.sender(), "en_KE", params);
        let answer = post_raw(&sb, path, &signed_by_hand(&sb, &request)).await;
        assert_unsigned_quoting_nothing(&answer, "12001", &request, &["data.result"]);
    }
}

#[tokio::test]
async fn values_that_could_be_re_cut_are_refused_before_they_are_stored() {
    let sb = Sandbox::start().await.unwrap();
    let key = sb.private_key();
    let before = (sb.balance("1000000001"), sb.totals());
    let list = json!({"accountId": "1000000004", "startTime": 0,
        "endTime": 4_102_444_800_000_i64, "pageNo": 1, "pageSize": 50, "orderByDesc": 1});
    let rows_before = raw::ok(&sb, "/query/getTransList", list.clone()).await;
    for (field, value) in [
        ("remark", HOSTILE_REMARK),
        ("remark", "&data.x=1"),
        ("payeeAccountName", "Jane&data.result[0].amount=1"),
    ] {
        let mut params = json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
            "payeeAccountId": "1000000004", "currency": "KES", "amount": "1.00",
            "payeeAccountName": "Brian Otieno"});
        params[field] = json!(value);
        let request_id = format!("STORE-PROBE-{}", field.len() + value.len());
        let request = envelope(&request_id, sb.sender(), "en_KE", params);
        let answer = post_raw(
            &sb,
            "/trans/v2/applyForTransfer",
            &signed_by_hand(&sb, &request),
        )
        .await;
        // Signed (the signature held), unambiguous, and naming the field.
        assert_eq!(
            baas_runtime::sign::verify(&answer, &key),
            Ok(()),
            "{}",
            String::from_utf8_lossy(&answer)
        );
        let answer: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(answer["code"], "12001", "{answer}");
        assert_eq!(answer["requestId"], request_id.as_str());
        let msg = answer["msg"].as_str().unwrap();
        assert!(msg.starts_with(&format!("{field}: ")), "{msg}");
        assert!(!msg.contains('&'), "{msg}");
    }
    // Nothing was stored: no money moved, the payee's list is as it was.
    assert_eq!((sb.balance("1000000001"), sb.totals()), before);
    assert_eq!(raw::ok(&sb, "/query/getTransList", list).await, rows_before);
    // The same rules for a `null`, named by its path.
    let request = envelope(
        "NULL-PROBE-1",
        sb.sender(),
        "en_KE",
        json!({"accountId": "1000000001", "extra": [1, null]}),
    );
    let answer = post_raw(
        &sb,
        "/query/getAccountDetails",
        &signed_by_hand(&sb, &request),
    )
    .await;
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["code"], "12001", "{answer}");
    assert!(
        answer["msg"]
            .as_str()
            .unwrap()
            .starts_with("extra[1]: is null"),
        "{answer}"
    );
}

#[tokio::test]
async fn text_with_an_ampersand_that_reads_as_no_pair_is_still_served() {
    // `a=b&c`: an ampersand followed by no `name=` is no pair; stored and echoed
    // signed. (`AT&T a=b` is one: `T a` reads as a name.)
    let sb = Sandbox::start().await.unwrap();
    let data = raw::ok(
        &sb,
        "/trans/v2/applyForTransfer",
        json!({"payerAccountId": "1000000001", "payeeBankCode": "46",
            "payeeAccountId": "1000000004", "currency": "KES", "amount": "1.00",
            "remark": "a=b&c"}),
    )
    .await;
    let tx = data["txId"].as_str().unwrap().to_owned();
    let answer = raw::confirm(&sb, &tx).await;
    assert_eq!(answer["code"], "00000", "{answer}");
    let result = raw::call(&sb, "/query/getTransResult", json!({"txId": tx})).await;
    let text = result.to_string();
    assert_eq!(result["data"]["extInfo"]["remark"], "a=b&c", "{text}");
    let message = Json::parse(&text).unwrap();
    assert_eq!(recut::first_breach(&message), None);
}
