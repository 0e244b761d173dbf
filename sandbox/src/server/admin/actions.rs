//! The admin page's actions (POST, loopback only, refused from another site's page):
//! add faults from scenario YAML, remove them, advance the clock, deliver a
//! notification again. A form post (`application/x-www-form-urlencoded`, what the
//! page's buttons send) is answered with a redirect to the page; any other body is
//! answered with JSON.

use std::sync::Arc;
use std::time::Duration;

use baas_runtime::transport::reqwest::Url;
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderMap, CONTENT_TYPE, HOST, LOCATION, ORIGIN};
use hyper::{Response, StatusCode};

use super::{response, text};
use crate::faults::scenario;
use crate::server::{lock, notify, Shared};

/// Largest body of an action read (a scenario file is a few KiB).
pub(super) const MAX_ACTION_BYTES: usize = 256 * 1024;

/// Where `/_sandbox/` POSTs go: `action` is the path after the prefix.
pub(super) fn act(
    shared: &Arc<Shared>,
    action: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Response<Full<Bytes>> {
    if let Some(refusal) = cross_site(headers) {
        return text(StatusCode::FORBIDDEN, refusal);
    }
    let form = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("application/x-www-form-urlencoded"));
    let text_body = String::from_utf8_lossy(body);
    let field = |name: &str| -> Option<String> {
        if !form {
            return None;
        }
        let url = Url::parse(&format!("http://form/?{text_body}")).ok()?;
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    let done = match action {
        "/faults" => {
            let yaml = if form {
                field("scenario").unwrap_or_default()
            } else {
                text_body.clone().into_owned()
            };
            match scenario::parse("scenario", &yaml) {
                Ok(faults) => {
                    let n = faults.len();
                    let mut active = lock(&shared.faults);
                    for fault in faults {
                        active.add(fault);
                    }
                    Ok(format!("{n} fault(s) added"))
                }
                Err(e) => Err(e.to_string()),
            }
        }
        "/faults/clear" => {
            lock(&shared.faults).clear();
            Ok("faults removed".to_owned())
        }
        "/clock" => {
            let ms = field("advance_ms").or_else(|| (!form).then(|| text_body.trim().to_owned()));
            match ms.as_deref().map(str::trim).map(str::parse::<u64>) {
                Some(Ok(ms)) => {
                    let by = Duration::from_millis(ms);
                    let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
                    shared
                        .advance_clock(ms)
                        .map(|()| format!("clock advanced by {ms} ms"))
                }
                _ => Err("advance_ms: expected a whole number of milliseconds".to_owned()),
            }
        }
        "/redeliver" => {
            let id = field("request_id").unwrap_or_else(|| text_body.trim().to_owned());
            notify::redeliver(shared, &id).map(|()| format!("notification {id} delivered again"))
        }
        _ => {
            return text(
                StatusCode::NOT_FOUND,
                "no such action: POST /_sandbox/{faults,faults/clear,clock,redeliver}",
            )
        }
    };
    match (done, form) {
        (Ok(_), true) => {
            let mut r = response(
                StatusCode::SEE_OTHER,
                "text/plain; charset=utf-8",
                Vec::new(),
            );
            r.headers_mut().insert(
                LOCATION,
                hyper::header::HeaderValue::from_static("/_sandbox/"),
            );
            r
        }
        (Ok(message), false) => json(StatusCode::OK, "done", &message),
        (Err(message), false) => json(StatusCode::BAD_REQUEST, "error", &message),
        (Err(message), true) => text(StatusCode::BAD_REQUEST, &message),
    }
}

fn json(status: StatusCode, key: &str, message: &str) -> Response<Full<Bytes>> {
    let body = serde_json::json!({ key: message }).to_string().into_bytes();
    response(status, "application/json", body)
}

/// Why a POST looks like it came from another site's page (a browser on the
/// developer's machine visiting a hostile page can POST to loopback): an `Origin` that
/// is not this host, or `Sec-Fetch-Site: cross-site`.
fn cross_site(headers: &HeaderMap) -> Option<&'static str> {
    let header = |name| {
        headers
            .get(name)
            .and_then(|v: &hyper::header::HeaderValue| v.to_str().ok())
    };
    if header("sec-fetch-site") == Some("cross-site") {
        return Some("refused: a request from another site");
    }
    if let Some(origin) = header(ORIGIN.as_str()) {
        let own = header(HOST.as_str()).map(|h| format!("http://{h}"));
        if own.as_deref() != Some(origin) {
            return Some("refused: the Origin is not the sandbox's own page");
        }
    }
    None
}
