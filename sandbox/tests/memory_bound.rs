//! Memory the sandbox spends on a hostile body before it knows whether the signature
//! holds, measured by a counting allocator (this test binary's only test, so nothing
//! else allocates meanwhile).
//!
//! An unsigned 47 MB body took the sandbox to 1.6 GB (issue 17): the JSON tree held a
//! string per value, and the canonical string a string per pair, then all of them
//! joined. Now the tree is capped at `json::MAX_VALUES` values and the pairs are hashed
//! as they are walked, never held: the peak is the body plus about its size again
//! (the tree's copy of the text), whatever the shape.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use baas_sandbox::{Offline, MAX_BODY_BYTES};

/// The system allocator, counting the bytes held now and the most held since reset.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn add(bytes: usize) {
    let now = HELD.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

// SAFETY: every call is passed to `System` unchanged; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            add(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        HELD.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = System.realloc(ptr, layout, new_size);
        if !new.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::SeqCst);
            add(new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// An unsigned envelope (a signature of zeros) around `params`, as a partner's body.
fn envelope(params: &str) -> Vec<u8> {
    format!(
        r#"{{"requestId":"r1","sender":"sandbox-partner","locale":"en_KE","timestamp":1650533105687,"salt":"9f8e7d6c5b4a39281706f5e4","signature":"{}","params":{params}}}"#,
        "0".repeat(64)
    )
    .into_bytes()
}

/// `item` repeated with `sep` inside `open`..`close`, about `size` bytes in all.
fn repeated(size: usize, open: &str, item: &str, sep: &str, close: &str) -> String {
    let n = size / (item.len() + sep.len());
    format!(
        "{open}{}{item}{close}",
        format!("{item}{sep}").repeat(n - 1)
    )
}

/// An object of distinct keys `"0":0,"1":1,...`, about `size` bytes.
fn many_keys(size: usize) -> String {
    let mut text = String::with_capacity(size + 64);
    text.push('{');
    let mut i = 0;
    while text.len() < size {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(r#""{i}":{i}"#));
        i += 1;
    }
    text.push('}');
    text
}

/// Peak bytes held, besides the body, while the sandbox answers `body`.
fn peak_besides_body(sandbox: &Offline, body: &[u8]) -> (usize, Vec<u8>) {
    let before = HELD.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let answer = sandbox.answer("/query/getAccountDetails", body);
    (PEAK.load(Ordering::SeqCst) - before, answer)
}

/// A line of figures for `name`.
fn figures(name: &str, body: &[u8], extra: usize) -> String {
    format!(
        "{name:<22} {:>5.1} MB body: {:>5.1} MB more at the peak = {:.2} x the body",
        body.len() as f64 / 1e6,
        extra as f64 / 1e6,
        extra as f64 / body.len() as f64
    )
}

#[test]
fn a_max_size_hostile_body_costs_about_its_size_again() {
    let sandbox = Offline::new();
    // Within the limit, less the envelope.
    let size = MAX_BODY_BYTES - 1024;
    let filler = |size: usize| format!(r#""{}""#, "f".repeat(size));
    let shapes: Vec<(&str, String, &str)> = vec![
        // One 48 MB string: read, copied into the tree, hashed.
        (
            "long string",
            format!(r#"{{"s":{}}}"#, filler(size)),
            "12005",
        ),
        // 24 million one-digit elements: refused at the value cap.
        ("many values", repeated(size, "[", "1", ",", "]"), "12001"),
        // Many short distinct keys (a quarter of the size: refused at the cap as well).
        ("many keys", many_keys(size / 4), "12001"),
        // Short arrays and objects (a quarter of the size, the same).
        (
            "many short arrays",
            repeated(size / 4, "[", r#"[1],[],{},{"a":[2]}"#, ",", "]"),
            "12001",
        ),
        // Just under the cap (100,000 values in all), the rest one long string: the
        // largest tree of a body whose signature is checked.
        (
            "values up to the cap",
            format!(
                r#"{{"v":{},"s":{}}}"#,
                repeated(99_000 * 2, "[", "1", ",", "]"),
                filler(size - 99_000 * 2)
            ),
            "12005",
        ),
    ];
    let mut measured = Vec::new();
    for (name, params, code) in shapes {
        let body = envelope(&params);
        drop(params);
        let (extra, answer) = peak_besides_body(&sandbox, &body);
        let answer: serde_json::Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(answer["code"], code, "{name}: {answer}");
        let line = figures(name, &body, extra);
        println!("{line}");
        measured.push((line, extra, body.len()));
    }
    // Pairs near the expansion limit: a key of 880 bytes above 99,000 elements, whose
    // pairs are about 30 times the body, and none is held. At a sixteenth of the size
    // (3 MB), as hashing 1.5 GB takes minutes in a debug build; memory is what is
    // measured here, and it does not grow with the pairs. The filler comes first: the
    // limit holds at the end of every member, as in every SDK (after it, the elements'
    // pairs would pass 32 times the bytes read so far).
    let elements = repeated(99_000 * 2, "[", "1", ",", "]");
    let filler_len = MAX_BODY_BYTES / 16 - elements.len() - 2048;
    let params = format!(
        r#"{{"s":{},"{}":{elements}}}"#,
        filler(filler_len),
        "k".repeat(880)
    );
    let body = envelope(&params);
    drop((params, elements));
    let (extra, answer) = peak_besides_body(&sandbox, &body);
    let answer: serde_json::Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["code"], "12005", "expansion: {answer}");
    let line = figures("pairs ~30x the body", &body, extra);
    println!("{line}");
    measured.push((line, extra, body.len()));
    // For comparison, what building the canonical string costs (the sandbox's plain
    // flattener, which the server used to verify with).
    let before = HELD.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let text = std::str::from_utf8(&body).unwrap();
    let message = baas_sandbox::json::Json::parse(text).unwrap();
    let canonical = baas_sandbox::signing::canonical_string(&message, "k");
    let built = PEAK.load(Ordering::SeqCst) - before;
    println!(
        "{}   (building its {:.0} MB canonical string instead)",
        figures("pairs ~30x the body", &body, built),
        canonical.len() as f64 / 1e6
    );
    drop((canonical, message));

    // Besides the body itself: a copy of its text in the tree, and the tree's own
    // allocations, bounded by the value cap (about 64 bytes a value at most).
    let over: Vec<&str> = measured
        .iter()
        .filter(|(_, extra, len)| *extra > len + TREE_BOUND)
        .map(|(line, _, _)| line.as_str())
        .collect();
    assert!(
        over.is_empty(),
        "more than the body's size plus {TREE_BOUND} bytes:\n{}",
        over.join("\n")
    );
}

/// What the tree of at most `json::MAX_VALUES` values may take besides the text (150
/// bytes a value were measured for short arrays, the worst shape).
const TREE_BOUND: usize = baas_sandbox::json::MAX_VALUES * 200;
