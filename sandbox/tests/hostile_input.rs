//! Hostile bodies cost the sandbox time linear in their size before it knows whether
//! their signature holds: reading the JSON, the expansion limit and the signature
//! check, in the order of `server::answer`.
//!
//! Each hostile shape is timed against a benign body of the same size in the same run
//! (the fastest of three runs), then at four times the size: linear work grows about
//! 4x, quadratic work about 16x. Sizes are chosen at run time so that the benign body
//! takes a few milliseconds; ratios are compared, never wall-clock times. The same
//! shapes are tested on the runtime's verifiers in `runtime/tests/hostile_input.rs`.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baas_sandbox::json::Json;
use baas_sandbox::signing;

/// Time of a body four times larger over the time of the body (at least the benign
/// body's), at most. Linear: ~4, n log n: ~4.5, quadratic: ~16.
const GROWTH_LIMIT: f64 = 9.0;
/// Time of a hostile body over a benign body of the same size, at most (but for the
/// body near the expansion limit, whose pairs are up to 32 times the body).
const HOSTILE_LIMIT: f64 = 16.0;
const RUNS: usize = 3;
const ATTEMPTS: usize = 3;
const BENIGN_TARGET: Duration = Duration::from_millis(2);
const KEY: &str = "sandbox-test-key-not-a-secret";

/// What the server does with a body before the signature is known to hold.
fn sandbox_verifier(body: &[u8]) {
    let Ok(text) = std::str::from_utf8(body) else {
        return;
    };
    let Ok(message) = Json::parse(text) else {
        return;
    };
    if !signing::within_expansion_limit(&message, body.len()) {
        return;
    }
    std::hint::black_box(signing::verify(&message, KEY));
}

fn envelope_with(params: &str) -> Vec<u8> {
    format!(
        r#"{{"requestId":"r1","sender":"sandbox-partner","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","signature":"{}","params":{params}}}"#,
        "0".repeat(64)
    )
    .into_bytes()
}

fn repeated(
    size: usize,
    open: &str,
    sep: &str,
    close: &str,
    item: impl Fn(usize) -> String,
) -> String {
    let mut text = String::with_capacity(size + 256);
    text.push_str(open);
    let mut i = 0;
    while text.len() < size {
        if i > 0 {
            text.push_str(sep);
        }
        text.push_str(&item(i));
        i += 1;
    }
    text.push_str(close);
    text
}

fn benign(size: usize) -> String {
    repeated(size, r#"{"orders":["#, ",", "]}", |i| {
        format!(
            r#"{{"productName":"Product {i} 电子元件","quantity":{q},"amount":"{i}2500.50","orderTime":1650533105687,"platform":"https://shop.example.cn/item/{i}"}}"#,
            q = 10 * i
        )
    })
}

fn colliding_keys(size: usize) -> String {
    repeated(size, "{", ",", "}", |i| {
        format!(r#""aaaaaaaa{i:08}zzzzzzzz":1"#)
    })
}

fn many_keys(size: usize) -> String {
    repeated(size, "{", ",", "}", |i| format!(r#""{i}":{i}"#))
}

/// Items nested as deep as the sandbox reads (the envelope is depth 0, `params` 1, the
/// innermost value 64), side by side.
fn deep_nesting(size: usize) -> String {
    let levels = 62;
    let mut item = String::new();
    for level in 0..levels {
        item.push_str(if level % 2 == 0 { r#"{"a":"# } else { "[" });
    }
    item.push('1');
    for level in (0..levels).rev() {
        item.push(if level % 2 == 0 { '}' } else { ']' });
    }
    repeated(size, "[", ",", "]", |_| item.clone())
}

fn long_string(size: usize) -> String {
    repeated(size, r#"{"s":""#, "", r#""}"#, |_| {
        r#"plain text 电子元件 \"quoted\" \u00e9\n\ud83d\ude00 "#.to_owned()
    })
}

fn long_number(size: usize) -> String {
    let digits = repeated(size.saturating_sub(16), "-1", "", "", |i| {
        (i % 10).to_string()
    });
    format!(r#"{{"n":{digits}.5e+12}}"#)
}

fn many_short_arrays(size: usize) -> String {
    repeated(size, "[", ",", "]", |_| r#"[1],[],{},{"a":[2]}"#.to_owned())
}

fn long_key_many_elements(size: usize) -> String {
    let key = "k".repeat(size / 64);
    let elements = repeated(size / 2, "[", ",", "]", |_| "1".to_owned());
    format!(r#"{{"{key}":{elements}}}"#)
}

fn path_near_the_expansion_limit(size: usize) -> String {
    let elements = repeated(size, "[", ",", "]", |_| "1".to_owned());
    format!(r#"{{"{}":{elements}}}"#, "k".repeat(40))
}

type Shape = (&'static str, fn(usize) -> String, f64);

const SHAPES: &[Shape] = &[
    ("colliding keys", colliding_keys, HOSTILE_LIMIT),
    ("many keys", many_keys, HOSTILE_LIMIT),
    ("deep nesting", deep_nesting, HOSTILE_LIMIT),
    ("long string", long_string, HOSTILE_LIMIT),
    ("long number", long_number, HOSTILE_LIMIT),
    ("many short arrays", many_short_arrays, HOSTILE_LIMIT),
    (
        "long key over many elements",
        long_key_many_elements,
        HOSTILE_LIMIT,
    ),
    (
        "path near the expansion limit",
        path_near_the_expansion_limit,
        2.0 * signing::MAX_EXPANSION as f64,
    ),
];

/// The fastest of [`RUNS`] calls, or an error past `deadline` (the thread left running
/// ends the measuring).
fn fastest(body: &Arc<Vec<u8>>, deadline: Duration) -> Result<Duration, String> {
    let (tx, rx) = mpsc::channel();
    let len = body.len();
    let body = Arc::clone(body);
    std::thread::spawn(move || {
        let mut best = Duration::MAX;
        for _ in 0..RUNS {
            let start = Instant::now();
            sandbox_verifier(&body);
            best = best.min(start.elapsed());
        }
        let _ = tx.send(best);
    });
    rx.recv_timeout(deadline)
        .map_err(|_| format!("{RUNS} calls on {len} bytes did not finish within {deadline:?}"))
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

/// Hostile over benign at the size and at four times the size, and the growth.
fn measure(
    params: fn(usize) -> String,
    limit: f64,
    size: usize,
) -> Result<(f64, f64, f64), String> {
    let mut times = [(Duration::ZERO, Duration::ZERO); 2];
    for (slot, n) in times.iter_mut().zip([size, 4 * size]) {
        let benign = Arc::new(envelope_with(&benign(n)));
        let hostile = Arc::new(envelope_with(&params(n)));
        let tb = fastest(&benign, Duration::from_secs(60))?;
        let deadline = (tb * RUNS as u32).mul_f64(limit * 8.0) + Duration::from_secs(1);
        *slot = (tb, fastest(&hostile, deadline)?);
        if ratio(slot.1, slot.0) > limit * 4.0 {
            break;
        }
    }
    let [small, large] = times;
    Ok((
        ratio(small.1, small.0),
        ratio(large.1, large.0),
        ratio(large.1, small.1.max(small.0)),
    ))
}

#[test]
fn hostile_bodies_cost_linear_time_before_the_signature_check() {
    let mut size = 8 * 1024;
    while size < 8 * 1024 * 1024 {
        match fastest(
            &Arc::new(envelope_with(&benign(size))),
            Duration::from_secs(30),
        ) {
            Ok(t) if t >= BENIGN_TARGET => break,
            _ => size *= 2,
        }
    }
    let holds =
        |f: &(f64, f64, f64), limit: f64| f.0 <= limit && f.1 <= limit && f.2 <= GROWTH_LIMIT;
    let mut failures = Vec::new();
    // The shapes are read, and refused by the expansion limit or not, as meant.
    for &(name, params, _) in SHAPES {
        let body = envelope_with(&params(16 * 1024));
        let text = std::str::from_utf8(&body).unwrap_or_default();
        match Json::parse(text) {
            Ok(message) => {
                let within = signing::within_expansion_limit(&message, body.len());
                if within != (name != "long key over many elements") {
                    failures.push(format!("{name}: within the expansion limit: {within}"));
                }
                assert!(!signing::verify(&message, KEY), "{name}");
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    for &(name, params, limit) in SHAPES {
        let mut last = Err(String::new());
        for _ in 0..ATTEMPTS {
            last = measure(params, limit, size);
            match &last {
                Ok(f) if holds(f, limit) => break,
                Ok(_) => continue,
                Err(_) => break,
            }
        }
        let line = match &last {
            Ok(f) => format!(
                "{name:<30} {size:>8} B: vs benign {:>5.2} / {:>5.2}, x4 size -> x{:.2} time",
                f.0, f.1, f.2
            ),
            Err(e) => format!("{name:<30} {size:>8} B: {e}"),
        };
        println!("{line}");
        if !matches!(&last, Ok(f) if holds(f, limit)) {
            failures.push(line);
        }
        if last.is_err() {
            break;
        }
    }
    assert!(
        failures.is_empty(),
        "super-linear cost (limits: x{GROWTH_LIMIT} time for x4 size, x{HOSTILE_LIMIT} a benign body but for the expansion case):\n{}",
        failures.join("\n")
    );
}
