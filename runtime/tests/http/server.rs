//! The loopback HTTP/1.1 server the call tests talk to (a tiny hand-written responder, so it
//! can send HTML, truncated JSON, oversized bodies or nothing at all), and the two operations
//! they call.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use baas_runtime::envelope::{signed_response_body, verify_request};
use baas_runtime::{
    Amount, Config, FieldPath, Operation, PrivateKey, RawJson, ValidationErrors, Validator,
};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

pub const KEY: &str = "partner-secret-key";

pub fn key() -> PrivateKey {
    PrivateKey::new(KEY)
}

/// What the server does with one request body.
pub enum Reply {
    /// Send these bytes, then close.
    Raw(Vec<u8>),
    /// Read the request, then close without answering.
    Close,
    /// Never answer.
    Hang,
}

pub fn http(status: &str, content_type: &str, body: &[u8]) -> Reply {
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    Reply::Raw(out)
}

pub fn json_ok(body: &[u8]) -> Reply {
    http("200 OK", "application/json", body)
}

pub struct Server {
    pub base_url: String,
    pub hits: Arc<AtomicUsize>,
}

pub async fn read_request(stream: &mut tokio::net::TcpStream) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let header_end = loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(p) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break p + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_ascii_lowercase();
    assert!(head.starts_with("post "), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < header_end + length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    Some(buf[header_end..header_end + length].to_vec())
}

pub async fn serve(handler: impl Fn(Vec<u8>) -> Reply + Send + Sync + 'static) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let handler = Arc::new(handler);
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let handler = handler.clone();
            let counter = counter.clone();
            tokio::spawn(async move {
                let Some(body) = read_request(&mut stream).await else {
                    return;
                };
                counter.fetch_add(1, Ordering::SeqCst);
                match handler(body) {
                    Reply::Raw(bytes) => {
                        let _ = stream.write_all(&bytes).await;
                        let _ = stream.shutdown().await;
                    }
                    Reply::Close => drop(stream),
                    Reply::Hang => tokio::time::sleep(Duration::from_secs(30)).await,
                }
            });
        }
    });
    Server {
        base_url: format!("http://{addr}"),
        hits,
    }
}

/// A signed response echoing the request's requestId (as the service does).
pub fn respond(request: &[u8], code: &str, data: Option<&str>) -> Vec<u8> {
    let received = verify_request(request, &key()).expect("the client's request verifies");
    assert_eq!(received.locale, "en_KE");
    assert_eq!(received.sender, "client1");
    let data = data.map(|d| RawJson::from_string(d.to_owned()).unwrap());
    signed_response_body(
        &received.request_id,
        "baas",
        "en_KE",
        code,
        "msg",
        data.as_ref(),
        &key(),
    )
    .unwrap()
}

pub fn config(server: &Server) -> Config {
    let mut c = Config::new(&server.base_url, "client1", key());
    c.request_timeout = Duration::from_millis(500);
    c.retry_backoff = Duration::from_millis(5);
    c
}

#[derive(Serialize)]
pub struct GetAccountDetails {
    #[serde(rename = "accountId")]
    pub account_id: String,
}

#[derive(Deserialize, Debug)]
pub struct AccountDetails {
    pub balance: Option<Amount>,
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
        v.finish()
    }
}

#[derive(Serialize)]
pub struct Transfer {
    pub amount: Amount,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remark: Option<String>,
    #[serde(rename = "nullable")]
    pub nullable: Option<String>,
}

impl Operation for Transfer {
    type Response = RawJson;
    const NAME: &'static str = "applyForTransfer";
    const PATH: &'static str = "/trans/v2/applyForTransfer";
    const MOVES_MONEY: bool = true;
    fn validate(&self) -> Result<(), ValidationErrors> {
        let mut v = Validator::new();
        v.positive_amount(FieldPath::ROOT.field("amount"), &self.amount);
        v.finish()
    }
}

pub fn account() -> GetAccountDetails {
    GetAccountDetails {
        account_id: "A1".into(),
    }
}

pub fn transfer() -> Transfer {
    Transfer {
        amount: Amount::new(10050, 2),
        remark: None,
        nullable: Some("x".into()),
    }
}
