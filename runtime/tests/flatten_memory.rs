//! Memory while a body is flattened and its signature checked is bounded by its size
//! (issue 17, part 5): the densest shapes of body, each a few MiB, through
//! `sign::verify` (which reads the body in place) and through
//! `Flattened::parse_unambiguous` + `digest` (which keeps a copy of the body).
//!
//! A global allocator counts the bytes allocated and keeps the peak. Everything runs
//! in one test function, so no other test allocates meanwhile. A `realloc` is counted
//! as the new block allocated before the old one is freed, as it may be.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use baas_runtime::canonical::Flattened;
use baas_runtime::{sign, PrivateKey};

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

fn shrank(bytes: usize) {
    CURRENT.fetch_sub(bytes, Ordering::SeqCst);
}

// SAFETY: every call is passed on to the system allocator unchanged; the counters
// only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            grew(new_size);
            shrank(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes allocated at the peak of `f`, over what was allocated before.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = CURRENT.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    f();
    PEAK.load(Ordering::SeqCst) - base
}

/// Bytes on top of the ratio: buffers of fixed size (the hasher's 8 KiB, the path).
const ALLOWANCE: usize = 64 * 1024;

/// `open`, `item` repeated with `sep` until about `size` bytes, `close`.
fn repeated(size: usize, open: &str, item: &str, sep: &str, close: &str) -> String {
    let count = size / (item.len() + sep.len());
    let mut text = String::with_capacity(size + open.len() + close.len() + 128);
    text.push_str(open);
    for i in 0..count {
        if i > 0 {
            text.push_str(sep);
        }
        text.push_str(item);
    }
    text.push_str(close);
    text
}

/// A complete answer around `data`, with a wrong signature (so that the canonical
/// string is written and hashed).
fn answer(data: &str) -> Vec<u8> {
    format!(
        r#"{{"requestId":"r1","code":"00000","msg":"success","sender":"svc","salt":"s","timestamp":1650533105687,"data":{data},"signature":"{}"}}"#,
        "0".repeat(64)
    )
    .into_bytes()
}

fn shapes(size: usize) -> Vec<(&'static str, Vec<u8>)> {
    let one_letter: String = {
        let members: Vec<String> = (b'a'..=b'z')
            .chain(b'A'..=b'Z')
            .map(|c| format!("\"{}\":1", char::from(c)))
            .collect();
        format!("{{{}}}", members.join(","))
    };
    let deep_arrays = format!("{}1{}", "[".repeat(60), "]".repeat(60));
    let deep_mixed = {
        let mut item = String::new();
        for level in 0..60 {
            item.push_str(if level % 2 == 0 { r#"{"a":"# } else { "[" });
        }
        item.push('1');
        for level in (0..60).rev() {
            item.push(if level % 2 == 0 { '}' } else { ']' });
        }
        item
    };
    let many_keys = {
        let members: Vec<String> = (0..size / 12)
            .map(|i| format!("\"k{i}\":{}", i % 10))
            .collect();
        format!("{{{}}}", members.join(","))
    };
    let benign = r#"{"productName":"Product 7 电子元件","quantity":70,"amount":"72500.50","orderTime":1650533105687,"platform":"https://shop.example.cn/item/7"}"#;
    vec![
        (
            "array of one-digit numbers",
            answer(&repeated(size, "[", "1", ",", "]")),
        ),
        ("array of []", answer(&repeated(size, "[", "[]", ",", "]"))),
        (
            "array of [1]",
            answer(&repeated(size, "[", "[1]", ",", "]")),
        ),
        (
            "objects of one-letter keys",
            answer(&repeated(size, "[", &one_letter, ",", "]")),
        ),
        ("one object, many keys", answer(&many_keys)),
        (
            "long key over many values",
            answer(&format!(
                r#"{{"{}":{}}}"#,
                "k".repeat(48),
                repeated(size, "[", "1", ",", "]")
            )),
        ),
        (
            "deep nesting, arrays",
            answer(&repeated(size, "[", &deep_arrays, ",", "]")),
        ),
        (
            "deep nesting, objects and arrays",
            answer(&repeated(size, "[", &deep_mixed, ",", "]")),
        ),
        (
            "long string holding & and escapes",
            answer(&format!(
                r#"{{"s":"{}"}}"#,
                "a&b \\u00e9\\n".repeat(size / 13)
            )),
        ),
        (
            "order items (benign)",
            answer(&repeated(size, "[", benign, ",", "]")),
        ),
    ]
}

#[test]
fn peak_memory_is_a_small_multiple_of_the_body() {
    let key = PrivateKey::new("partner-secret-key");
    let mut failures = Vec::new();
    for (name, body) in shapes(1 << 20) {
        // Every shape is read (it has a canonical string); its signature is wrong.
        assert!(
            Flattened::parse_unambiguous(&body).is_ok(),
            "{name}: {:?}",
            Flattened::parse_unambiguous(&body).err()
        );
        let in_place = peak_of(|| {
            assert!(matches!(
                sign::verify(&body, &key),
                Err(sign::VerifyError::Mismatch)
            ));
        });
        let with_copy = peak_of(|| {
            let flat = Flattened::parse_unambiguous(&body).unwrap();
            std::hint::black_box(flat.digest(&key));
        });
        let ratio = |peak: usize| peak as f64 / body.len() as f64;
        let line = format!(
            "{name:<36} {:>9} B: sign::verify x{:.2}, Flattened + digest x{:.2}",
            body.len(),
            ratio(in_place),
            ratio(with_copy)
        );
        println!("{line}");
        // The bound of the issue: three times the body (plus fixed buffers), with the
        // copy that `Flattened` keeps; in place, about twice.
        if with_copy > 3 * body.len() + ALLOWANCE || in_place > 2 * body.len() + ALLOWANCE {
            failures.push(line);
        }
    }
    assert!(
        failures.is_empty(),
        "over x3 (Flattened) or x2 (sign::verify) the body:\n{}",
        failures.join("\n")
    );
}
