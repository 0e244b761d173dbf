//! The hostile bodies, the benign body they are compared with, and the timing, shared by
//! `runtime/tests/hostile_input.rs` (the runtime's verifiers) and
//! `sandbox/tests/hostile_input.rs` (the sandbox's request path), which include this file
//! by path so that both test the same shapes in the same way.
//!
//! Each hostile shape is measured against a benign body of the same size in the same run
//! (the least of a few runs), then at four times the size: work that is linear grows
//! about 4x, quadratic work about 16x. Sizes are chosen at run time so that the benign
//! body costs a few milliseconds, in debug and in release builds alike; ratios are
//! compared, never absolute figures.
//!
//! What is measured is the CPU time of the thread doing the work
//! (`CLOCK_THREAD_CPUTIME_ID`), not wall-clock time: on a machine shared with other
//! processes, wall-clock time also counts their turns on the CPU, which made this test
//! fail at load averages of 13 to 16 on two cores. Counting instructions would be better
//! still, but the virtual machines this runs on expose no hardware counters
//! (`perf stat -e instructions:u` says "not supported"). Wall-clock time is used only
//! for the deadline that stops a runaway body.

use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

/// Time of a body four times larger over the time of the body, at most. Linear: ~4,
/// n log n: ~4.5, quadratic: ~16. A hostile body cheaper than the benign one counts
/// as costing as much (a refusal after a few bytes would otherwise make any later
/// cost look like growth; so do allocator caches, which hold a few megabytes).
pub const GROWTH_LIMIT: f64 = 9.0;
/// Time of a hostile body over a benign body of the same size, at most (see
/// [`Shape::limit`] for the one exception). Generous: a body of one-byte values has
/// a pair for every few bytes where the benign body has one for every 25, and costs
/// up to 9 times as much in release builds.
pub const HOSTILE_LIMIT: f64 = 16.0;
/// Runs of one measurement (the least CPU time counts).
const RUNS: usize = 3;
/// Measurements of one case before it is declared failed (a busy machine can spoil one).
const ATTEMPTS: usize = 3;
/// The benign body is made large enough to cost this much CPU time.
const BENIGN_TARGET: Duration = Duration::from_millis(2);
/// Levels of objects and arrays in each item of [`deep_nesting`]: with the envelope
/// and `params` above them, 64, as deep as both parsers accept.
const NESTING_LEVELS: usize = 62;

/// The CPU time the calling thread has used so far (the kernel adds the running slice).
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; the call writes nothing else.
    let done = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(done, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// What is measured: a body in, nothing out (the result goes to `black_box`).
pub type EntryPoint = fn(&[u8]);
/// A complete envelope around the `params` text.
pub type Envelope = fn(&str) -> Vec<u8>;

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

/// Values nested as deep as the parsers accept (see [`NESTING_LEVELS`]), side by side.
fn deep_nesting(size: usize) -> String {
    let mut item = String::new();
    for level in 0..NESTING_LEVELS {
        item.push_str(if level % 2 == 0 { r#"{"a":"# } else { "[" });
    }
    item.push('1');
    for level in (0..NESTING_LEVELS).rev() {
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

pub struct Shape {
    pub name: &'static str,
    /// The `params` text of about the given size.
    pub params: fn(usize) -> String,
    /// The body is within the parser's limits (it has a canonical string, which is then
    /// compared with the signature); when false, the expansion limit refuses it.
    pub parses: bool,
    /// Time over a benign body of the same size, at most.
    pub limit: f64,
}

/// Every hostile shape, for a verifier whose pairs may be `max_expansion` times the body.
pub fn shapes(max_expansion: usize) -> Vec<Shape> {
    let hostile = |name, params, parses| Shape {
        name,
        params,
        parses,
        limit: HOSTILE_LIMIT,
    };
    vec![
        hostile("colliding keys", colliding_keys, true),
        hostile(
            "colliding keys, many objects",
            colliding_keys_in_many_objects,
            true,
        ),
        hostile("many keys", many_keys, true),
        hostile("deep nesting", deep_nesting, true),
        hostile("long string", long_string, true),
        hostile("long number", long_number, true),
        hostile("many short arrays", many_short_arrays, true),
        hostile("long key over many elements", long_key_many_elements, false),
        // The costliest body accepted: pairs up to `max_expansion` times the body are the
        // price of the algorithm (each pair repeats its path), where a benign body's pairs
        // are about 1.5 times its size; sorting them costs some more. Linear all the same.
        Shape {
            name: "path near the expansion limit",
            params: path_near_the_expansion_limit,
            parses: true,
            limit: 2.0 * max_expansion as f64,
        },
    ]
}

/// The least CPU time of [`RUNS`] calls of `entry` on `body`, or an error once `deadline`
/// (wall-clock) has passed (the calls go on in a thread that is left behind: the test
/// stops measuring and fails).
fn fastest(entry: EntryPoint, body: &Arc<Vec<u8>>, deadline: Duration) -> Result<Duration, String> {
    let (tx, rx) = mpsc::channel();
    let len = body.len();
    let body = Arc::clone(body);
    std::thread::spawn(move || {
        let mut best = Duration::MAX;
        for _ in 0..RUNS {
            let start = thread_cpu();
            entry(&body);
            best = best.min(thread_cpu().saturating_sub(start));
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
fn calibrated_size(entry: EntryPoint, envelope: Envelope) -> usize {
    let mut size = 8 * 1024;
    while size < 8 * 1024 * 1024 {
        let body = Arc::new(envelope(&benign(size)));
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

fn measure(
    entry: EntryPoint,
    envelope: Envelope,
    shape: &Shape,
    size: usize,
) -> Result<Figures, String> {
    let mut small = (Duration::ZERO, Duration::ZERO);
    let mut large = (Duration::ZERO, Duration::ZERO);
    for (n, out) in [(size, &mut small), (4 * size, &mut large)] {
        let benign = Arc::new(envelope(&benign(n)));
        let hostile = Arc::new(envelope(&(shape.params)(n)));
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

/// Times every shape at `entry` (named `entry_name` in the lines printed), adding a line
/// to `failures` for each that costs more than its limits. Returns false when a call
/// passed its deadline: the calls left running would skew every later measurement, so
/// the caller measures nothing more.
pub fn measure_all(
    entry_name: &str,
    entry: EntryPoint,
    envelope: Envelope,
    shapes: &[Shape],
    failures: &mut Vec<String>,
) -> bool {
    let size = calibrated_size(entry, envelope);
    for shape in shapes {
        let mut last = Err(String::new());
        for _ in 0..ATTEMPTS {
            last = measure(entry, envelope, shape, size);
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
            return false;
        }
    }
    true
}

/// Fails with every line of `failures`, if any.
pub fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "super-linear cost (limits: x{GROWTH_LIMIT} time for x4 size, x{HOSTILE_LIMIT} a benign body but for the expansion case):\n{}",
        failures.join("\n")
    );
}
