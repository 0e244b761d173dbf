//! A webhook receiver: the sandbox POSTs signed notifications (here `0026`, after an FX
//! conversion) to a local URL; the receiver verifies each (signature, re-cut rules,
//! sender, freshness), processes it once (the processed ids kept in a file, so a restart
//! does not process a re-delivery again), answers `ok`.
//!
//! ```sh
//! cargo run -p baas-sandbox --example webhook
//! ```

use std::time::Duration;

use baas_client::enums::Currency;
use baas_client::fx::{ApplyForFcExchangeRequest, ApplyForFcExchangeRequired};
use baas_client::notification::SeenFile;
use baas_client::notifications::Payload;
use baas_client::Client;
use baas_sandbox::Sandbox;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sandbox = Sandbox::start().await?;
    // The service's sender is the sandbox's here; with the bank, use the name it gives.
    let verifier = sandbox.notification_verifier();
    let seen_path = std::env::temp_dir().join(format!("baas-webhook-seen-{}", std::process::id()));
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    sandbox.set_callback_url(&format!("http://{}/callbacks", listener.local_addr()?))?;

    let client = Client::new(sandbox.client_config())?;
    client
        .apply_for_fc_exchange(
            ApplyForFcExchangeRequest::new(ApplyForFcExchangeRequired {
                source_currency: Currency::Kes,
                target_currency: Currency::Eur,
                source_account: "2000000001".into(),
                target_account: "2000000003".into(),
            })
            .target_amount("10.00".parse::<baas_client::Amount>()?),
        )
        .send()
        .await?;

    // A minimal HTTP receiver: one request per connection.
    let mut seen = SeenFile::open(&seen_path, baas_client::notification::DEFAULT_KEEP)?;
    let (mut socket, _) =
        tokio::time::timeout(Duration::from_secs(10), listener.accept()).await??;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let body = loop {
        let n = socket.read(&mut chunk).await?;
        if n == 0 {
            break None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..at]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if buf.len() >= at + 4 + len {
                break Some(buf[at + 4..at + 4 + len].to_vec());
            }
        }
    };
    let body = body.ok_or("the connection closed before a notification arrived")?;
    // Refuses an unsigned, altered, stale or re-cut body, and one from another sender.
    let verified = verifier.verify(&body)?;
    if seen.is_new(&verified.delivery_id()) {
        // The params as the payload record of the notification's type.
        match Payload::from_notification(&verified)? {
            Payload::ForeignExchange(fx) => println!(
                "FX {} done: {} {} at {}",
                fx.application_id.unwrap_or_default(),
                fx.amount.map(|a| a.to_string()).unwrap_or_default(),
                fx.currency.map(|c| c.to_string()).unwrap_or_default(),
                fx.fx_rate.map(|r| r.to_string()).unwrap_or_default(),
            ),
            other => println!("notification {}: {other:?}", other.notification_type()),
        }
        seen.record(&verified)?; // on disk before answering
    }
    let ack = verified.ack();
    let reply = format!(
        "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{ack}",
        ack.len()
    );
    socket.write_all(reply.as_bytes()).await?;
    drop(seen);
    std::fs::remove_file(&seen_path)?;
    Ok(())
}
