//! A normal request's latency with the sandbox idle, and while three senders send it
//! max-size unsigned bodies again and again (each read, parsed and hashed before its
//! signature is found wrong); prints the ratio of the medians at the end.
//!
//! `cargo bench -p baas-sandbox --bench latency`. The sandbox runs on two async workers
//! in this process, as on a 2-core machine.

#[path = "../tests/common/heavy.rs"]
#[allow(dead_code)]
mod heavy;

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use baas_sandbox::{Sandbox, MAX_BODY_BYTES};
use criterion::{criterion_group, criterion_main, Criterion};

/// Senders of large bodies during the loaded case.
const SENDERS: usize = 3;

fn median(times: &Mutex<Vec<Duration>>) -> Duration {
    let mut times = times.lock().unwrap().clone();
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn latency(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let sandbox = rt.block_on(Sandbox::start()).expect("sandbox");
    let transport = heavy::client();
    let idle = Arc::new(Mutex::new(Vec::new()));
    let loaded = Arc::new(Mutex::new(Vec::new()));
    let mut group = c.benchmark_group("normal request");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    let mut run = |name: &str, record: &Arc<Mutex<Vec<Duration>>>| {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let took = heavy::normal_request(&sandbox, &transport).await;
                        record.lock().unwrap().push(took);
                        total += took;
                    }
                    total
                })
            })
        });
    };
    run("idle", &idle);
    let body = Arc::new(heavy::large_body(MAX_BODY_BYTES - 1024));
    let load = {
        let _entered = rt.enter();
        heavy::Load::start(&sandbox, SENDERS, body.clone())
    };
    run(
        &format!(
            "while {SENDERS} senders send {} MB unsigned bodies",
            body.len() / 1_000_000
        ),
        &loaded,
    );
    let answered = load.answered.load(Ordering::SeqCst);
    drop(load);
    group.finish();
    let (idle, loaded) = (median(&idle), median(&loaded));
    println!(
        "normal request: median {idle:?} idle, {loaded:?} under load ({answered} large bodies answered meanwhile): ratio x{:.2}",
        loaded.as_secs_f64() / idle.as_secs_f64().max(1e-9)
    );
}

criterion_group!(benches, latency);
criterion_main!(benches);
