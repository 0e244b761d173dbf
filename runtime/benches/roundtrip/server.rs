//! The round-trip benchmark's query (`getAccountDetails`, an operation written as generated
//! code writes one) and the in-process HTTP/1.1 server on loopback that answers it,
//! signing each answer for the request's requestId.

use std::convert::Infallible;

use baas_runtime::envelope::signed_response_body;
use baas_runtime::{FieldPath, Operation, PrivateKey, RawJson, ValidationErrors, Validator};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde::{Deserialize, Serialize};

use super::cpu::{this_thread_schedstat, SERVER_THREADS};

pub(crate) const KEY: &str = "partner-secret-key";
pub(crate) const SENDER: &str = "client1";

pub(crate) fn key() -> PrivateKey {
    PrivateKey::new(KEY)
}

#[derive(Serialize)]
pub(crate) struct GetAccountDetails {
    #[serde(rename = "accountId")]
    pub(crate) account_id: String,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
pub(crate) struct AccountDetails {
    #[serde(rename = "accountId")]
    pub(crate) account_id: Option<String>,
    pub(crate) balance: Option<String>,
    currency: Option<String>,
    status: Option<String>,
}

impl Operation for GetAccountDetails {
    type Response = AccountDetails;
    const NAME: &'static str = "getAccountDetails";
    const PATH: &'static str = "/query/getAccountDetails";
    const MOVES_MONEY: bool = false;
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut v = Validator::new();
        v.required(
            FieldPath::ROOT.field("accountId"),
            !self.account_id.is_empty(),
        );
        v.max_chars(FieldPath::ROOT.field("accountId"), &self.account_id, 32);
        v.finish()
    }
}

pub(crate) fn operation() -> GetAccountDetails {
    GetAccountDetails {
        account_id: "1002003004005".to_owned(),
    }
}

pub(crate) fn answer_data() -> RawJson {
    RawJson::from_string(
        r#"{"accountId":"1002003004005","balance":"1520.75","currency":"KES","status":"ACTIVE"}"#
            .to_owned(),
    )
    .unwrap()
}

/// The requestId of a request body, read without parsing it (the server's cost is the
/// same for both clients and kept small).
pub(crate) fn request_id_of(body: &[u8]) -> &str {
    let marker = b"\"requestId\":\"";
    let start = body
        .windows(marker.len())
        .position(|w| w == marker)
        .map(|p| p + marker.len())
        .unwrap_or(0);
    let len = body[start..].iter().position(|&b| b == b'"').unwrap_or(0);
    std::str::from_utf8(&body[start..start + len]).unwrap_or("")
}

pub(crate) async fn answer(
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    thread_local! {
        static DATA: RawJson = answer_data();
    }
    let body = request
        .into_body()
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let id = request_id_of(&body);
    let signed = DATA.with(|data| {
        signed_response_body(id, "svc", "en_KE", "00000", "success", Some(data), &key())
    });
    Ok(Response::builder()
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(signed.unwrap_or_default())))
        .unwrap())
}

/// An HTTP/1.1 server on loopback on its own runtime (one worker thread) and thread;
/// returns its base URL. Runs until the process ends.
pub(crate) fn start_server() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let record = || {
            if let (Some(file), Ok(mut threads)) = (this_thread_schedstat(), SERVER_THREADS.lock())
            {
                threads.push(file);
            }
        };
        record();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .on_thread_start(record)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let _ = stream.set_nodelay(true);
                tokio::spawn(async move {
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), hyper::service::service_fn(answer))
                        .await;
                });
            }
        });
    });
    let addr = rx.recv().unwrap();
    format!("http://{addr}")
}
