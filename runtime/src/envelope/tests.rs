//! The envelope's unit tests: fresh ids and salts, signing requests, opening answers.

use super::*;

fn key() -> PrivateKey {
    PrivateKey::new("k3y")
}

#[test]
fn ids_and_salts_are_fresh() {
    let a = new_request_id("client1").unwrap();
    let b = new_request_id("client1").unwrap();
    assert_ne!(a, b);
    assert!(a.starts_with("client1") && a.len() == 7 + 32);
    let s = new_salt().unwrap();
    assert_eq!(s.len(), 24);
    assert!(s.bytes().all(|c| c.is_ascii_hexdigit()));
    assert!(now_millis() > 1_600_000_000_000);
}

#[test]
fn request_round_trip() {
    let params = serde_json::json!({"name": "Tester", "list": [1, {"a": "x & y"}]});
    let signed = sign_request(&params, "client1", "en_KE", &key()).unwrap();
    assert!(signed.body.ends_with(b"\"}"));
    let received = verify_request(&signed.body, &key()).unwrap();
    assert_eq!(received.request_id, signed.request_id);
    assert_eq!(received.locale, "en_KE");
    assert_eq!(
        received.params.get(),
        r#"{"list":[1,{"a":"x & y"}],"name":"Tester"}"#
    );
    assert!(matches!(
        verify_request(&signed.body, &PrivateKey::new("other")).map_err(Error::into_kind),
        Err(ErrorKind::SignatureInvalid)
    ));
    let null = serde_json::json!({"a": null});
    assert!(matches!(
        sign_request(&null, "c", "en_KE", &key()).map_err(Error::into_kind),
        Err(ErrorKind::Encode { .. })
    ));
    assert!(sign_request(&[1, 2], "c", "en_KE", &key()).is_ok());
    // A value that reads as more pairs is never signed: the message could be re-cut.
    let recut = serde_json::json!({"remark": "x&params.amount=9"});
    match sign_request(&recut, "c", "en_KE", &key()).map_err(Error::into_kind) {
        Err(ErrorKind::Encode { message, .. }) => {
            assert!(message.contains("params.remark"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn response_rules() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct D {
        #[serde(default)]
        x: Option<crate::Amount>,
    }
    let expect = Expect {
        request_id: "r1",
        accept_unsigned_success: false,
    };
    let data = RawJson::from_string(r#"{"x":100.50}"#.into()).unwrap();
    let ok =
        signed_response_body("r1", "svc", "en_KE", "00000", "ok", Some(&data), &key()).unwrap();
    let d: D = open_response(Some(200), &ok, &key(), expect).unwrap();
    assert_eq!(d.x.map(|a| a.to_string()).as_deref(), Some("100.50"));
    let none = signed_response_body("r1", "svc", "en_KE", "00000", "ok", None, &key()).unwrap();
    assert_eq!(
        open_response::<D>(Some(200), &none, &key(), expect).unwrap(),
        D { x: None }
    );
    let other = Expect {
        request_id: "r2",
        ..expect
    };
    assert!(matches!(
        open_response::<D>(Some(200), &ok, &key(), other).map_err(Error::into_kind),
        Err(ErrorKind::RequestIdMismatch { .. })
    ));
    let fail =
        signed_response_body("r1", "svc", "en_KE", "14009", "insufficient", None, &key()).unwrap();
    assert!(matches!(
        open_response::<D>(Some(200), &fail, &key(), expect).map_err(Error::into_kind),
        Err(ErrorKind::Api { verified: true, ref code, .. }) if code == "14009"
    ));
    let unsigned_fail = br#"{"code":"12005","msg":"Invalid signature"}"#;
    assert!(matches!(
        open_response::<D>(Some(200), unsigned_fail, &key(), expect).map_err(Error::into_kind),
        Err(ErrorKind::Api {
            verified: false,
            request_id: None,
            ..
        })
    ));
    let unsigned_ok = br#"{"requestId":"r1","code":"00000","msg":"ok","data":{"x":"1"}}"#;
    assert!(matches!(
        open_response::<D>(Some(200), unsigned_ok, &key(), expect).map_err(Error::into_kind),
        Err(ErrorKind::SignatureMissing)
    ));
    let relaxed = Expect {
        accept_unsigned_success: true,
        ..expect
    };
    assert!(open_response::<D>(Some(200), unsigned_ok, &key(), relaxed).is_ok());
    let bad_data = signed_response_body(
        "r1",
        "s",
        "en_KE",
        "00000",
        "ok",
        Some(&RawJson::from_string(r#"{"x":true}"#.into()).unwrap()),
        &key(),
    )
    .unwrap();
    assert!(matches!(
        open_response::<D>(Some(200), &bad_data, &key(), expect).map_err(Error::into_kind),
        Err(ErrorKind::Decode { .. })
    ));
    // A notification, or a request, passed off as an answer.
    for member in [r#""notificationType":"0028""#, r#""params":{}"#] {
        let text = format!(r#"{{"requestId":"r1","code":"00000","msg":"ok",{member}}}"#);
        let body = sign::sign_and_attach(text.into_bytes(), &key()).unwrap();
        assert!(matches!(
            open_response::<D>(Some(200), &body, &key(), expect).map_err(Error::into_kind),
            Err(ErrorKind::Untrusted { .. })
        ));
    }
    // A signed answer that could be re-cut (a null element; a dotted key; a value
    // reading as a pair) is refused before its signature is looked at.
    for text in [
        r#"{"requestId":"r1","code":"00000","msg":"ok","data":{"x":[1,null]}}"#,
        r#"{"requestId":"r1","code":"00000","msg":"ok","data.x":"1"}"#,
        r#"{"requestId":"r1","code":"00000","msg":"ok","data":{"x":"1&data.y=2"}}"#,
    ] {
        let flat = Flattened::parse(text.as_bytes()).unwrap();
        let body = format!(
            "{},\"signature\":\"{}\"}}",
            text.strip_suffix('}').unwrap_or(text),
            flat.signature_hex(&key())
        );
        assert!(matches!(
            open_response::<D>(Some(200), body.as_bytes(), &key(), expect)
                .map_err(Error::into_kind),
            Err(ErrorKind::Untrusted { .. })
        ));
    }
    // A null member reads as absent (the service's document gives answer fields
    // as null): accepted, and decoded as if it were not there.
    let text = r#"{"requestId":"r1","code":"00000","msg":"ok","data":{"x":null}}"#;
    let flat = Flattened::parse(text.as_bytes()).unwrap();
    let with_null = format!(
        "{},\"signature\":\"{}\"}}",
        text.strip_suffix('}').unwrap_or(text),
        flat.signature_hex(&key())
    );
    assert_eq!(
        open_response::<D>(Some(200), with_null.as_bytes(), &key(), expect).unwrap(),
        D { x: None }
    );
    // The envelope's members are read from the canonical parse: escaped keys,
    // whitespace, a `data` holding brackets in strings, an integer code, null msg.
    // (Signed as the service may sign a null: the runtime's signer refuses one.)
    let signed_anyway = |text: &str| {
        let flat = Flattened::parse(text.as_bytes()).unwrap();
        let head = text.trim_end().strip_suffix('}').unwrap();
        format!("{head},\"signature\":\"{}\"}}", flat.signature_hex(&key())).into_bytes()
    };
    let spaced = signed_anyway(
        r#"{ "re\u0071uestId" : "r\u0031" , "code" : "00000", "msg" : null,
            "data" : { "x" : "1.5", "y" : ["]}", {"z": "[{"}] } }"#,
    );
    let value: serde_json::Value = open_response(Some(200), &spaced, &key(), expect).unwrap();
    assert_eq!(
        value,
        serde_json::json!({"x": "1.5", "y": ["]}", {"z": "[{"}]})
    );
    let int_code = sign::sign_and_attach(
        br#"{"requestId":"r1","code":14009,"msg":"no"}"#.to_vec(),
        &key(),
    )
    .unwrap();
    assert!(matches!(
        open_response::<D>(Some(200), &int_code, &key(), expect).map_err(Error::into_kind),
        Err(ErrorKind::Api { verified: true, ref code, .. }) if code == "14009"
    ));
    for wrong in [
        r#"{"requestId":1,"code":"00000","msg":"ok"}"#,
        r#"{"requestId":"r1","code":true,"msg":"ok"}"#,
        r#"{"requestId":"r1","code":"00000","msg":[]}"#,
    ] {
        let body = sign::sign_and_attach(wrong.as_bytes().to_vec(), &key()).unwrap();
        assert!(
            matches!(
                open_response::<D>(Some(200), &body, &key(), expect).map_err(Error::into_kind),
                Err(ErrorKind::Decode { .. })
            ),
            "{wrong}"
        );
    }
    let null_data =
        signed_anyway(r#"{"requestId":"r1","code":"00000","msg":"ok","data":null,"params":null}"#);
    assert_eq!(
        open_response::<D>(Some(200), &null_data, &key(), expect).unwrap(),
        D { x: None }
    );
    let no_code = sign::sign_and_attach(br#"{"requestId":"r1"}"#.to_vec(), &key()).unwrap();
    assert!(matches!(
        open_response::<D>(Some(200), &no_code, &key(), expect).map_err(Error::into_kind),
        Err(ErrorKind::Decode { .. })
    ));
}
