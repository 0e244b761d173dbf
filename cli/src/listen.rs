//! `baas listen`: receives the service's (or the sandbox's) notifications on a loopback
//! port, verifies each with the partner's key and the service's sender, prints it (its
//! type, delivery id, first or repeated, typed payload) as a JSON line, and with
//! `--forward-to URL` forwards the exact bytes received to the partner's receiver and
//! answers the service with the receiver's answer. A notification that does not verify
//! is answered 401 and never forwarded.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baas_runtime::notification::Verifier;
use baas_runtime::transport::reqwest;
use bytes::Bytes;
use clap::{Arg, ArgMatches, Command};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};

use crate::exit::Failure;

/// Largest notification body read.
const MAX_BODY: usize = 1024 * 1024;

/// The `listen` command.
pub fn command() -> Command {
    Command::new("listen")
        .about("Receive notifications on a loopback port, verify and print them; --forward-to passes them on")
        .long_about(
            "Receive notifications on 127.0.0.1, verify each with the profile's key and the \
             service's sender (the profile's service_sender; without a profile the sandbox's), \
             print each as a JSON line (type, delivery id, first or repeat, typed payload), and \
             with --forward-to URL forward the exact bytes to your receiver, answering the \
             service with its answer (else `ok`). One that does not verify is answered 401 and \
             not forwarded.",
        )
        .arg(
            Arg::new("port")
                .long("port")
                .value_parser(clap::value_parser!(u16))
                .default_value("8491")
                .help("Port on 127.0.0.1 (0: any free port; the URL is printed)"),
        )
        .arg(
            Arg::new("forward-to")
                .long("forward-to")
                .value_name("URL")
                .help("Your receiver: each verified notification's exact bytes are POSTed there"),
        )
}

struct State {
    verifier: Verifier,
    seen: Mutex<HashSet<(String, String)>>,
    forward: Option<String>,
    http: reqwest::Client,
}

fn answer(status: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r
}

async fn handle(state: Arc<State>, req: Request<Incoming>) -> Response<Full<Bytes>> {
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(c) => c.to_bytes(),
        Err(e) => {
            return answer(
                StatusCode::BAD_REQUEST,
                format!("cannot read the body: {e}"),
            )
        }
    };
    let notification = match state.verifier.verify(&body) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("baas listen: REFUSED (not verified, not forwarded): {e}");
            return answer(StatusCode::UNAUTHORIZED, "not verified");
        }
    };
    let id = notification.delivery_id();
    let first = state
        .seen
        .lock()
        .map(|mut s| s.insert((id.request_id.clone(), id.notification_type.clone())))
        .unwrap_or(true);
    // Decoded as its type's record: `typed` says the payload has the record's shape.
    let typed = baas_client::notifications::Payload::from_notification(&notification);
    let kind = baas_client::enums::NotificationType::from_notification(&notification);
    let payload: serde_json::Value =
        serde_json::from_str(notification.params.get()).unwrap_or(serde_json::Value::Null);
    let line = serde_json::json!({
        "type": notification.notification_type,
        "type_name": format!("{kind:?}"),
        "typed": typed.is_ok(),
        "delivery_id": format!("{}/{}", id.request_id, id.notification_type),
        "delivery": if first { "first" } else { "repeat" },
        "payload": payload,
    });
    let _ = crate::output::print_line(&line);
    let Some(url) = &state.forward else {
        return answer(StatusCode::OK, notification.ack());
    };
    let sent = state
        .http
        .post(url)
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await;
    match sent {
        Ok(r) => {
            let status = r.status().as_u16();
            let text = r.bytes().await.unwrap_or_default();
            eprintln!(
                "baas listen: forwarded to {url}: HTTP {status}: {}",
                String::from_utf8_lossy(&text)
            );
            answer(
                StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY),
                text,
            )
        }
        Err(e) => {
            eprintln!("baas listen: cannot forward to {url}: {e}");
            answer(StatusCode::BAD_GATEWAY, "the receiver did not answer")
        }
    }
}

/// Runs `baas listen` until Ctrl-C.
pub async fn run(args: &ArgMatches, profile_flag: Option<&str>) -> Result<(), Failure> {
    let (_, file) = crate::profile::load().map_err(Failure::Local)?;
    let verifier = match crate::profile::chosen(profile_flag, &file).map_err(Failure::Local)? {
        Some((name, p)) => {
            let key = crate::profile::key(&p).map_err(Failure::Local)?;
            let sender = p.service_sender.clone().ok_or_else(|| {
                Failure::Local(format!(
                    "profile {name} has no service_sender: the sender the service signs notifications with"
                ))
            })?;
            Verifier::new(key.key, sender)
        }
        None => Verifier::new(
            baas_runtime::PrivateKey::new(baas_sandbox::DEFAULT_KEY),
            baas_sandbox::SERVICE_SENDER,
        ),
    };
    let port = args.get_one::<u16>("port").copied().unwrap_or(8491);
    let listener = tokio::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
        .await
        .map_err(|e| Failure::Local(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::Local(e.to_string()))?;
    let http = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| Failure::Local(e.to_string()))?;
    let forward = args.get_one::<String>("forward-to").cloned();
    let state = Arc::new(State {
        verifier,
        seen: Mutex::new(HashSet::new()),
        forward: forward.clone(),
        http,
    });
    eprintln!("baas listen: listening on http://{addr}/");
    if let Some(url) = &forward {
        eprintln!("baas listen: forwarding verified notifications to {url}");
    }
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("baas listen: accept: {e}");
                    continue;
                }
            },
            _ = tokio::signal::ctrl_c() => return Ok(()),
        };
        let state = state.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let state = state.clone();
                async move { Ok::<_, std::convert::Infallible>(handle(state, req).await) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}
