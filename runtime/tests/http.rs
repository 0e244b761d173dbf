//! Every error variant of a call, produced against a real HTTP/1.1 server on loopback (see
//! `server`); the failures of the connection itself are in `transport_failures`.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::envelope::{signed_response_body, verify_request};
use baas_runtime::{
    Amount, Client, Config, ErrorKind, HttpsTransport, PrivateKey, RawJson, RuleKind,
};

#[path = "http/server.rs"]
mod server;
use server::*;
#[path = "http/transport_failures.rs"]
mod transport_failures;

#[tokio::test]
async fn success_verifies_and_decodes_exact_amounts() {
    let server =
        serve(|req| json_ok(&respond(&req, "00000", Some(r#"{"balance":"12.30"}"#)))).await;
    let client = Client::new(config(&server)).unwrap();
    let details = client.execute(&account()).await.unwrap();
    assert_eq!(details.balance.unwrap().to_string(), "12.30");
    // Money movement: the amount goes as a string with its exact text.
    let server = serve(|req| {
        let text = String::from_utf8(req.clone()).unwrap();
        assert!(text.contains(r#""amount":"100.50""#), "{text}");
        json_ok(&respond(&req, "00000", None))
    })
    .await;
    let raw = Client::new(config(&server))
        .unwrap()
        .execute(&transfer())
        .await
        .unwrap();
    assert_eq!(raw.get(), "{}");
}

#[tokio::test]
async fn tampered_body_is_signature_invalid() {
    let server = serve(|req| {
        let body =
            String::from_utf8(respond(&req, "00000", Some(r#"{"balance":"12.30"}"#))).unwrap();
        json_ok(body.replace("12.30", "99.30").as_bytes())
    })
    .await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::SignatureInvalid), "{err:?}");
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn missing_signature() {
    let server = serve(|req| {
        let id = verify_request(&req, &key()).unwrap().request_id;
        json_ok(
            format!(
                r#"{{"requestId":"{id}","code":"00000","msg":"ok","data":{{"balance":"1.00"}}}}"#
            )
            .as_bytes(),
        )
    })
    .await;
    let mut cfg = config(&server);
    let err = Client::new(cfg.clone())
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::SignatureMissing), "{err:?}");
    // The documented setting relaxes it.
    cfg.accept_unsigned_success = true;
    let ok = Client::new(cfg).unwrap().execute(&account()).await.unwrap();
    assert_eq!(ok.balance.unwrap().to_string(), "1.00");
    // An unsigned failure (only code and msg) is an API error marked unverified.
    let server = serve(|_| json_ok(br#"{"code":"12005","msg":"Invalid signature"}"#)).await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::Api {
            code,
            msg,
            verified,
            ..
        } => {
            assert_eq!(
                (code.as_str(), msg.as_str(), *verified),
                ("12005", "Invalid signature", false)
            );
            assert!(err.to_string().contains("not verified"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn failure_that_does_not_verify_is_an_unverified_api_error() {
    // The service answers 12005 signed with the key it knows; the partner's configured
    // key is wrong, so the signature cannot verify. The code must stay visible.
    let server = serve(|req| {
        let id = verify_request(&req, &key()).unwrap().request_id;
        json_ok(
            &signed_response_body(
                &id,
                "baas",
                "en_KE",
                "12005",
                "Invalid signature",
                None,
                &PrivateKey::new("the-key-the-service-knows"),
            )
            .unwrap(),
        )
    })
    .await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::Api { code, verified, .. } => {
            assert_eq!((code.as_str(), *verified), ("12005", false));
            assert!(err.to_string().contains("baas-sign"), "{err}");
        }
        other => panic!("{other:?}"),
    }
    // A success whose signature does not verify is still refused.
    let server = serve(|req| {
        let id = verify_request(&req, &key()).unwrap().request_id;
        json_ok(
            &signed_response_body(
                &id,
                "baas",
                "en_KE",
                "00000",
                "ok",
                Some(&RawJson::from_string(r#"{"balance":"1.00"}"#.to_owned()).unwrap()),
                &PrivateKey::new("another-key"),
            )
            .unwrap(),
        )
    })
    .await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::SignatureInvalid), "{err:?}");
}

#[tokio::test]
async fn wrong_request_id() {
    let server = serve(|_| {
        json_ok(
            &signed_response_body("someone-else", "baas", "en_KE", "00000", "ok", None, &key())
                .unwrap(),
        )
    })
    .await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    match err.into_kind() {
        ErrorKind::RequestIdMismatch { expected, received } => {
            assert!(expected.starts_with("client1"));
            assert_eq!(received.as_deref(), Some("someone-else"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn api_error_is_typed_and_busy_is_retried_only_when_safe() {
    let server = serve(|req| json_ok(&respond(&req, "14009", None))).await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::Api {
            code,
            msg,
            request_id,
            verified,
            ..
        } => {
            assert_eq!(
                (code.as_str(), msg.as_str(), *verified),
                ("14009", "msg", true)
            );
            assert!(request_id
                .as_deref()
                .is_some_and(|id| id.starts_with("client1")));
            // The error says its call: the operation, the requestId sent, the attempts.
            assert_eq!(err.operation(), Some("getAccountDetails"));
            assert_eq!(err.request_id(), request_id.as_deref());
            assert_eq!(err.attempts(), 1);
            let text = err.to_string();
            assert!(
                text.starts_with("getAccountDetails (requestId client1")
                    && text.contains(", 1 attempt): API error 14009: msg"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(server.hits.load(Ordering::SeqCst), 1);

    let busy = serve(|req| json_ok(&respond(&req, "10001", None))).await;
    // Without the spec's retry policy no code is retried: the runtime keeps no list.
    let err = Client::new(config(&busy))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(!err.is_retryable());
    assert_eq!(busy.hits.load(Ordering::SeqCst), 1);
    busy.hits.store(0, Ordering::SeqCst);
    let client = Client::new(config(&busy))
        .unwrap()
        .with_retryable_codes(&["10001"]);
    let err = client.execute(&account()).await.unwrap_err();
    assert!(err.is_retryable());
    assert_eq!(err.api_code(), Some("10001"));
    assert_eq!(err.attempts(), 3, "{err}");
    assert_eq!(
        busy.hits.load(Ordering::SeqCst),
        3,
        "a safe call is retried twice"
    );
    busy.hits.store(0, Ordering::SeqCst);
    let err = client.execute(&transfer()).await.unwrap_err();
    assert_eq!(err.api_code(), Some("10001"));
    assert_eq!(
        (err.operation(), err.attempts()),
        (Some("applyForTransfer"), 1)
    );
    assert_eq!(
        busy.hits.load(Ordering::SeqCst),
        1,
        "money movement is never re-sent"
    );
}

#[tokio::test]
async fn html_500_is_decode_with_snippet() {
    let server = serve(|_| {
        http(
            "500 Internal Server Error",
            "text/html",
            format!(
                "<html><body>Internal error{}</body></html>",
                " ".repeat(2000)
            )
            .as_bytes(),
        )
    })
    .await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::Decode {
            status, snippet, ..
        } => {
            assert_eq!(*status, Some(500));
            assert!(snippet.starts_with("<html><body>Internal error"));
            assert!(snippet.len() <= baas_runtime::SNIPPET_MAX_BYTES + 3);
        }
        other => panic!("{other:?}"),
    }
    assert!(std::error::Error::source(&err).is_some());
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn truncated_json_is_decode() {
    let server = serve(|req| {
        let body = respond(&req, "00000", Some(r#"{"balance":"12.30"}"#));
        json_ok(&body[..body.len() / 2])
    })
    .await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Decode {
                status: Some(200),
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn oversized_body_is_refused() {
    let big = format!(r#"{{"balance":"1.00","pad":"{}"}}"#, "x".repeat(10_000));
    let server = serve(move |req| json_ok(&respond(&req, "00000", Some(&big)))).await;
    let mut cfg = config(&server);
    cfg.max_response_bytes = 4096;
    let err = Client::new(cfg)
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ResponseTooLarge { limit: 4096 }),
        "{err:?}"
    );
    // Without Content-Length (body ends at close): the limit holds while reading.
    let server = serve(|_| {
        let mut out =
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
                .to_vec();
        out.extend(std::iter::repeat_n(b' ', 100_000));
        Reply::Raw(out)
    })
    .await;
    let mut cfg = config(&server);
    cfg.max_response_bytes = 4096;
    let err = Client::new(cfg)
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ResponseTooLarge { limit: 4096 }),
        "{err:?}"
    );
}

#[tokio::test]
async fn invalid_request_and_encode_errors_send_nothing() {
    let server = serve(|req| json_ok(&respond(&req, "00000", None))).await;
    let client = Client::new(config(&server)).unwrap();
    let err = client
        .execute(&GetAccountDetails {
            account_id: String::new(),
        })
        .await
        .unwrap_err();
    match err.kind() {
        ErrorKind::InvalidRequest(errors) => {
            assert_eq!(errors.violations()[0].field, "accountId");
            assert_eq!(errors.violations()[0].rule, RuleKind::Required);
        }
        other => panic!("{other:?}"),
    }
    // Refused before any attempt: no requestId, no attempt.
    assert_eq!(
        (err.operation(), err.request_id(), err.attempts()),
        (Some("getAccountDetails"), None, 0)
    );
    let mut null = transfer();
    null.nullable = None;
    let err = client.execute(&null).await.unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Encode { message, .. } if message.contains("params.nullable")),
        "{err:?}"
    );
    assert_eq!(
        (err.operation(), err.request_id()),
        (Some("applyForTransfer"), None)
    );
    assert_eq!(server.hits.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn config_errors_and_secret_never_printed() {
    let err = Client::new(Config::new("localhost:80", "client1", key())).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Config {
                field: "base_url",
                ..
            }
        ),
        "{err:?}"
    );
    // The key never appears in any error or debug output of a failed call.
    let server = serve(|_| http("500 Internal Server Error", "text/html", b"<html>")).await;
    let client = Client::new(config(&server)).unwrap();
    let err = client.execute(&account()).await.unwrap_err();
    for text in [format!("{err}"), format!("{err:?}"), format!("{client:?}")] {
        assert!(!text.contains(KEY), "{text}");
    }
}

#[tokio::test]
async fn per_call_options_and_the_success_envelope() {
    use baas_runtime::CallOptions;
    let server =
        serve(|req| json_ok(&respond(&req, "00000", Some(r#"{"balance":"12.30"}"#)))).await;
    let client = Client::new(config(&server)).unwrap();
    // A requestId of the caller's is sent, echoed, verified and reported.
    let ok = client
        .execute_with(
            &account(),
            &CallOptions::new().request_id("partner-ref-0001"),
        )
        .await
        .unwrap();
    assert_eq!(ok.request_id, "partner-ref-0001");
    assert_eq!(ok.code, "00000");
    assert_eq!(ok.raw_data.get(), r#"{"balance":"12.30"}"#);
    assert_eq!(ok.data.balance, Some(Amount::new(1230, 2)));
    // A requestId that cannot be sent is refused before anything leaves.
    let err = client
        .execute_with(&account(), &CallOptions::new().request_id("has space"))
        .await
        .unwrap_err();
    assert!(!err.may_have_reached_service(), "{err}");

    // A per-call timeout instead of the configured one; with a fixed requestId nothing
    // is re-sent once it may have arrived.
    let hang = serve(|_| Reply::Hang).await;
    let client = Client::new(config(&hang)).unwrap();
    let started = std::time::Instant::now();
    let err = client
        .execute_with(
            &account(),
            &CallOptions::new()
                .timeout(Duration::from_millis(50))
                .request_id("partner-ref-0002"),
        )
        .await
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Timeout { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_millis(400));
    assert_eq!(
        hang.hits.load(Ordering::SeqCst),
        1,
        "a fixed requestId is not re-sent"
    );
}

#[tokio::test]
async fn a_caller_built_reqwest_client_is_used() {
    use baas_runtime::transport::reqwest;
    let seen = Arc::new(std::sync::Mutex::new(String::new()));
    let s2 = seen.clone();
    let server = serve(move |req| {
        *s2.lock().unwrap() = String::from_utf8_lossy(&req).into_owned();
        json_ok(&respond(&req, "00000", Some("{}")))
    })
    .await;
    let http = reqwest::Client::builder()
        .user_agent("partner-agent/1.0")
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let client =
        Client::with_transport(config(&server), Arc::new(HttpsTransport::from_client(http)))
            .unwrap();
    client.execute(&account()).await.unwrap();
    // `serve` hands the handler the request body; the transport's own headers are not
    // visible there, so the client is checked by its effect: the call went through it.
    assert!(seen.lock().unwrap().contains("accountId"));

    // A connection that never opens is still "not sent" through the caller's client.
    let unreachable = {
        let mut c = config(&server);
        c.base_url = "http://127.0.0.1:9".into();
        c
    };
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let err = Client::with_transport(unreachable, Arc::new(HttpsTransport::from_client(http)))
        .unwrap()
        .execute(&transfer())
        .await
        .unwrap_err();
    assert!(!err.may_have_reached_service(), "{err:?}");
}

/// Issue 17: an answer that does not verify proves nothing about a call that moves
/// money, whatever its code or HTTP status: anyone on the path can write
/// `{"code":"14009"}` after the service executed the transfer.
#[tokio::test]
async fn unverified_failures_of_money_calls_are_unknown_outcomes() {
    let wrongly_signed = |req: Vec<u8>| {
        let id = verify_request(&req, &key()).unwrap().request_id;
        signed_response_body(
            &id,
            "baas",
            "en_KE",
            "14009",
            "insufficient",
            None,
            &PrivateKey::new("not-the-partner-key"),
        )
        .unwrap()
    };
    type Handler = Box<dyn Fn(Vec<u8>) -> Reply + Send + Sync>;
    let replies: Vec<(&str, Handler)> = vec![
        (
            "unsigned",
            Box::new(|_| json_ok(br#"{"code":"14009","msg":"insufficient"}"#)),
        ),
        (
            "wrongly signed",
            Box::new(move |req| json_ok(&wrongly_signed(req))),
        ),
        ("not JSON", Box::new(|_| json_ok(b"14009 insufficient"))),
        (
            "an HTTP error page",
            Box::new(|_| http("502 Bad Gateway", "text/html", b"<html>bad gateway</html>")),
        ),
        (
            "unsigned under HTTP 400",
            Box::new(|_| {
                http(
                    "400 Bad Request",
                    "application/json",
                    br#"{"code":"14009","msg":"insufficient"}"#,
                )
            }),
        ),
    ];
    for (what, reply) in replies {
        let server = serve(reply).await;
        let err = Client::new(config(&server))
            .unwrap()
            .execute(&transfer())
            .await
            .unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::OutcomeUnknown { .. }),
            "{what}: {err:?}"
        );
        assert_eq!(err.outcome(), baas_runtime::Outcome::Unknown, "{what}");
        assert!(!err.is_retryable(), "{what}");
        assert_eq!(
            server.hits.load(Ordering::SeqCst),
            1,
            "{what}: never re-sent"
        );
        assert_eq!(err.attempts(), 1, "{what}");
    }
    // A refusal whose signature holds is the service's word: Refused.
    let server = serve(|req| json_ok(&respond(&req, "14009", None))).await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&transfer())
        .await
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Api { verified: true, .. }),
        "{err:?}"
    );
    assert_eq!(err.outcome(), baas_runtime::Outcome::Refused);
    // A query's unsigned refusal keeps its code visible but proves nothing either.
    let server = serve(|_| json_ok(br#"{"code":"12005","msg":"Invalid signature"}"#)).await;
    let err = Client::new(config(&server))
        .unwrap()
        .execute(&account())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Api {
                verified: false,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.outcome(), baas_runtime::Outcome::Unknown);
}
