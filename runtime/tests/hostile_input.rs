//! Hostile bodies cost time linear in their size at every entry point that parses a body
//! before its signature can be checked: `sign::verify`, `notification::verify`,
//! `envelope::open_response` and `envelope::verify_request`.
//!
//! Anyone who can POST to a partner's notification URL chooses those bytes, and the body
//! is parsed and flattened before the signature says whether it came from the service.
//! Each hostile shape is timed against a benign body of the same size in the same run
//! (the minimum of a few runs, so a busy machine makes no difference), then at four times
//! the size: work that is linear grows about 4x, quadratic work about 16x. Sizes are
//! chosen at run time so that the benign body takes a few milliseconds, in debug and in
//! release builds alike; ratios are compared, never wall-clock times.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use baas_runtime::canonical::Flattened;
use baas_runtime::envelope::{self, Expect};
use baas_runtime::serde::de::IgnoredAny;
use baas_runtime::{notification, sign, PrivateKey};

/// Time of a body four times larger over the time of the body, at most. Linear: ~4,
/// n log n: ~4.5, quadratic: ~16. A hostile body cheaper than the benign one counts
/// as costing as much (a refusal after a few bytes would otherwise make any later
/// cost look like growth; so do allocator caches, which hold a few megabytes).
const GROWTH_LIMIT: f64 = 9.0;
/// Time of a hostile body over a benign body of the same size, at most (see
/// [`Shape::limit`] for the one exception). Generous: a body of one-byte values has
/// a pair for every few bytes where the benign body has one for every 25, and costs
/// up to 9 times as much in release builds.
const HOSTILE_LIMIT: f64 = 16.0;
/// Runs of one measurement (the fastest counts).
const RUNS: usize = 3;
/// Measurements of one case before it is declared failed (a busy machine can spoil one).
const ATTEMPTS: usize = 3;
/// The benign body is made large enough to take this long.
const BENIGN_TARGET: Duration = Duration::from_millis(2);

const KEY: &str = "partner-secret-key";

type EntryPoint = fn(&[u8]);

fn key() -> PrivateKey {
    PrivateKey::new(KEY)
}

fn via_sign_verify(body: &[u8]) {
    std::hint::black_box(sign::verify(body, &key()).is_ok());
}

fn via_notification_verify(body: &[u8]) {
    std::hint::black_box(notification::verify(body, &key()).is_ok());
}

fn via_open_response(body: &[u8]) {
    let expect = Expect {
        request_id: "r1",
        accept_unsigned_success: false,
    };
    let opened = envelope::open_response::<IgnoredAny>(Some(200), body, &key(), expect);
    std::hint::black_box(opened.is_ok());
}

fn via_verify_request(body: &[u8]) {
    std::hint::black_box(envelope::verify_request(body, &key()).is_ok());
}

const ENTRY_POINTS: &[(&str, EntryPoint)] = &[
    ("sign::verify", via_sign_verify),
    ("notification::verify", via_notification_verify),
    ("envelope::open_response", via_open_response),
    ("envelope::verify_request", via_verify_request),
];

/// A complete envelope (the fields every entry point reads, a wrong signature so that
/// the canonical string is computed and compared) around `params`.
fn envelope_with(params: &str) -> Vec<u8> {
    format!(
        r#"{{"requestId":"r1","sender":"client1","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","notificationType":"0028","code":"00000","msg":"ok","signature":"{}","params":{params}}}"#,
        "0".repeat(64)
    )
    .into_bytes()
}

/// `open`, then `item(i)` for i = 0, 1, ... separated by `sep` until the text is at least
/// `size` bytes long, then `close`.
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

/// Order items as a real request carries them.
fn benign(size: usize) -> String {
    repeated(size, r#"{"orders":["#, ",", "]}", |i| {
        format!(
            r#"{{"productName":"Product {i} 电子元件","quantity":{q},"amount":"{i}2500.50","orderTime":1650533105687,"platform":"https://shop.example.cn/item/{i}"}}"#,
            q = 10 * i
        )
    })
}

/// Keys of 24 bytes that differ only in their middle: the first and last eight bytes and
/// the length are the same.
fn colliding_keys(size: usize) -> String {
    repeated(size, "{", ",", "}", |i| {
        format!(r#""aaaaaaaa{i:08}zzzzzzzz":1"#)
    })
}

/// Many small objects, each with two keys that collide as above.
fn colliding_keys_in_many_objects(size: usize) -> String {
    repeated(size, "[", ",", "]", |i| {
        format!(
            r#"{{"aaaaaaaa{i:08}zzzzzzzz":1,"aaaaaaaa{:08}zzzzzzzz":1}}"#,
            i + 1
        )
    })
}

/// Many short distinct keys in one object.
fn many_keys(size: usize) -> String {
    repeated(size, "{", ",", "}", |i| format!(r#""{i}":{i}"#))
}

/// Values nested as deep as the parser accepts (the envelope is level 1, `params`
/// level 2, each item 62 levels of objects and arrays below it), side by side.
fn deep_nesting(size: usize) -> String {
    let levels = baas_runtime::canonical::MAX_DEPTH - 2;
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

/// One long string, plain runs, multi-byte characters and escapes mixed.
fn long_string(size: usize) -> String {
    repeated(size, r#"{"s":""#, "", r#""}"#, |_| {
        r#"plain text 电子元件 \"quoted\" \u00e9\n\ud83d\ude00 "#.to_owned()
    })
}

/// One long number literal.
fn long_number(size: usize) -> String {
    let digits = repeated(size.saturating_sub(16), "-1", "", "", |i| {
        (i % 10).to_string()
    });
    format!(r#"{{"n":{digits}.5e+12}}"#)
}

/// Many short arrays and objects, empty or not.
fn many_short_arrays(size: usize) -> String {
    repeated(size, "[", ",", "]", |_| r#"[1],[],{},{"a":[2]}"#.to_owned())
}

/// A key as long as the expansion limit allows above many one-digit elements: every
/// element's pair repeats the path (about 60 bytes for 2 of body).
fn path_near_the_expansion_limit(size: usize) -> String {
    let elements = repeated(size, "[", ",", "]", |_| "1".to_owned());
    format!(r#"{{"{}":{elements}}}"#, "k".repeat(40))
}

/// One long key above many short elements: every element's pair repeats the key, so
/// the pairs would be far longer than the body (they are refused).
fn long_key_many_elements(size: usize) -> String {
    let key = "k".repeat(size / 64);
    let elements = repeated(size / 2, "[", ",", "]", |_| "1".to_owned());
    format!(r#"{{"{key}":{elements}}}"#)
}

struct Shape {
    name: &'static str,
    params: fn(usize) -> String,
    /// The body has a canonical string (it is then compared with the signature).
    parses: bool,
    /// Time over a benign body of the same size, at most.
    limit: f64,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "colliding keys",
        params: colliding_keys,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "colliding keys, many objects",
        params: colliding_keys_in_many_objects,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "many keys",
        params: many_keys,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "deep nesting",
        params: deep_nesting,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "long string",
        params: long_string,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "long number",
        params: long_number,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "many short arrays",
        params: many_short_arrays,
        parses: true,
        limit: HOSTILE_LIMIT,
    },
    Shape {
        name: "long key over many elements",
        params: long_key_many_elements,
        parses: false,
        limit: HOSTILE_LIMIT,
    },
    // The costliest body accepted: pairs up to `MAX_EXPANSION` times the body are the
    // price of the algorithm (each pair repeats its path), where a benign body's pairs
    // are about 1.5 times its size; sorting them costs some more. Linear all the same.
    Shape {
        name: "path near the expansion limit",
        params: path_near_the_expansion_limit,
        parses: true,
        limit: 2.0 * baas_runtime::canonical::MAX_EXPANSION as f64,
    },
];

/// The fastest of [`RUNS`] calls of `entry` on `body`, or an error once `deadline` has
/// passed (the calls go on in a thread that is left behind: the test stops measuring
/// and fails).
fn fastest(entry: EntryPoint, body: &Arc<Vec<u8>>, deadline: Duration) -> Result<Duration, String> {
    let (tx, rx) = mpsc::channel();
    let len = body.len();
    let body = Arc::clone(body);
    std::thread::spawn(move || {
        let mut best = Duration::MAX;
        for _ in 0..RUNS {
            let start = Instant::now();
            entry(&body);
            best = best.min(start.elapsed());
        }
        let _ = tx.send(best);
    });
    rx.recv_timeout(deadline)
        .map_err(|_| format!("{RUNS} calls on {len} bytes did not finish within {deadline:?}"))
}

/// Time a hostile body may take before it is given up on, when the benign body took
/// `benign`.
fn deadline(benign: Duration, limit: f64) -> Duration {
    (benign * RUNS as u32).mul_f64(limit * 8.0) + Duration::from_secs(1)
}

/// A size for which the benign body takes about [`BENIGN_TARGET`] at `entry`.
fn calibrated_size(entry: EntryPoint) -> usize {
    let mut size = 8 * 1024;
    while size < 8 * 1024 * 1024 {
        let body = Arc::new(envelope_with(&benign(size)));
        match fastest(entry, &body, Duration::from_secs(30)) {
            Ok(t) if t >= BENIGN_TARGET => break,
            _ => size *= 2,
        }
    }
    size
}

struct Figures {
    /// Hostile over benign, at the size and at four times the size.
    vs_benign: (f64, f64),
    /// Hostile at four times the size over hostile (at least benign) at the size.
    growth: f64,
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

fn measure(entry: EntryPoint, shape: &Shape, size: usize) -> Result<Figures, String> {
    let mut small = (Duration::ZERO, Duration::ZERO);
    let mut large = (Duration::ZERO, Duration::ZERO);
    for (n, out) in [(size, &mut small), (4 * size, &mut large)] {
        let benign = Arc::new(envelope_with(&benign(n)));
        let hostile = Arc::new(envelope_with(&(shape.params)(n)));
        let tb = fastest(entry, &benign, Duration::from_secs(60))?;
        let th = fastest(entry, &hostile, deadline(tb, shape.limit))?;
        *out = (tb, th);
        // Stop before the larger size if this one is already far off.
        if ratio(th, tb) > shape.limit * 4.0 {
            break;
        }
    }
    Ok(Figures {
        vs_benign: (ratio(small.1, small.0), ratio(large.1, large.0)),
        growth: ratio(large.1, small.1.max(small.0)),
    })
}

fn holds(f: &Figures, shape: &Shape) -> bool {
    f.growth <= GROWTH_LIMIT && f.vs_benign.0 <= shape.limit && f.vs_benign.1 <= shape.limit
}

#[test]
fn hostile_bodies_cost_linear_time_before_the_signature_check() {
    let mut failures = Vec::new();
    // The shapes are what they claim to be.
    for shape in SHAPES {
        let body = envelope_with(&(shape.params)(16 * 1024));
        let parsed = Flattened::parse(&body);
        if parsed.is_ok() != shape.parses {
            let outcome = parsed.map(|f| format!("{} pairs", f.len()));
            failures.push(format!("{}: parsed to {outcome:?}", shape.name));
        }
        assert!(sign::verify(&body, &key()).is_err(), "{}", shape.name);
    }
    'entry_points: for &(entry_name, entry) in ENTRY_POINTS {
        let size = calibrated_size(entry);
        for shape in SHAPES {
            let mut last = Err(String::new());
            for _ in 0..ATTEMPTS {
                last = measure(entry, shape, size);
                match &last {
                    Ok(f) if holds(f, shape) => break,
                    Ok(_) => continue,
                    // Past the deadline: no point in trying again.
                    Err(_) => break,
                }
            }
            let line = match &last {
                Ok(f) => format!(
                    "{entry_name:<25} {:<28} {size:>8} B: vs benign {:>5.2} / {:>5.2}, x4 size -> x{:.2} time",
                    shape.name, f.vs_benign.0, f.vs_benign.1, f.growth
                ),
                Err(e) => format!("{entry_name:<25} {:<28} {size:>8} B: {e}", shape.name),
            };
            println!("{line}");
            if !matches!(&last, Ok(f) if holds(f, shape)) {
                failures.push(line);
            }
            if last.is_err() {
                // The calls left running would skew every later measurement.
                break 'entry_points;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "super-linear cost (limits: x{GROWTH_LIMIT} time for x4 size, x{HOSTILE_LIMIT} a benign body but for the expansion case):\n{}",
        failures.join("\n")
    );
}
