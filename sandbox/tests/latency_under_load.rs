//! A normal request is served on time while large bodies are read and checked (issue
//! 17): three max-size unsigned bodies are sent again and again, and a normal request's
//! median latency stays within 5 times its median with the sandbox idle. It used to
//! take 3.8 s instead of 0.1 s while two such bodies were parsed on the async workers.
//!
//! Alone in its test binary, so no other test competes for the two workers.

mod common;

use std::sync::Arc;

use baas_sandbox::{Sandbox, MAX_BODY_BYTES};
use common::heavy::{
    client, large_body, median_latency, median_latency_under, normal_request, Load,
};

/// Most the loaded median may be, in idle medians.
const RATIO_LIMIT: f64 = 5.0;
/// Requests per median.
const SAMPLES: usize = 31;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_normal_request_is_on_time_while_large_bodies_are_parsed() {
    let sandbox = Sandbox::start().await.unwrap();
    let transport = client();
    for _ in 0..5 {
        normal_request(&sandbox, &transport).await;
    }
    let body = Arc::new(large_body(MAX_BODY_BYTES - 1024));
    let mut lines = Vec::new();
    // A busy machine can spoil one measurement: the best of three counts.
    for attempt in 1..=3 {
        let idle = median_latency(&sandbox, &transport, SAMPLES).await;
        let load = Load::start(&sandbox, 3, body.clone());
        // Normal requests all the while two large bodies are read and checked.
        let (loaded, n) = median_latency_under(&sandbox, &transport, &load, 2, SAMPLES).await;
        drop(load);
        let ratio = loaded.as_secs_f64() / idle.as_secs_f64().max(1e-6);
        let line = format!(
            "attempt {attempt}: idle median {idle:?}; median of {n} while 3 senders of {} MB bodies had 2 of them answered {loaded:?} (x{ratio:.2})",
            body.len() / 1_000_000
        );
        println!("{line}");
        lines.push(line);
        if ratio <= RATIO_LIMIT {
            return;
        }
    }
    panic!(
        "a normal request took more than {RATIO_LIMIT} times as long under load:\n{}",
        lines.join("\n")
    );
}
