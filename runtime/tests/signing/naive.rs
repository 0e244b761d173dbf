use proptest::prelude::*;
use sha2::{Digest, Sha256};

#[derive(Debug, Clone)]
pub enum J {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

fn text() -> impl Strategy<Value = String> {
    // Every kind of character: controls, quotes, backslash, `/`, `&`, `=`, `.`,
    // `[`, non-BMP (surrogate pairs when escaped).
    prop::collection::vec(
        prop_oneof![
            3 => prop::char::range('a', 'e'),
            1 => prop::sample::select(vec!['"', '\\', '/', '\n', '\t', '\u{0}', '\u{1f}', '\u{7f}', '&', '=', '.', '[', ']', ' ', 'é', '张', '\u{ffff}', '😀', '\u{10ffff}']),
            1 => any::<char>(),
        ],
        0..6,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn number() -> impl Strategy<Value = String> {
    "-?(0|[1-9][0-9]{0,20})(\\.[0-9]{1,6})?([eE][+-]?[0-9]{1,3})?"
}

fn leaf() -> impl Strategy<Value = J> {
    prop_oneof![
        1 => Just(J::Null),
        1 => any::<bool>().prop_map(J::Bool),
        2 => number().prop_map(J::Num),
        3 => text().prop_map(J::Str),
    ]
}

fn unique(pairs: Vec<(String, J)>) -> Vec<(String, J)> {
    let mut seen = std::collections::HashSet::new();
    pairs
        .into_iter()
        .filter(|(k, _)| seen.insert(k.clone()))
        .collect()
}

pub fn object() -> impl Strategy<Value = J> {
    let value = leaf().prop_recursive(5, 64, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(J::Arr),
            prop::collection::vec((text(), inner), 0..5).prop_map(|p| J::Obj(unique(p))),
        ]
    });
    let top_key = prop_oneof![
        3 => text(),
        1 => Just("signature".to_owned()),
        1 => Just("amount".to_owned()),
        1 => Just("amount2".to_owned()),
        1 => Just("senderKex".to_owned()),
        1 => Just("senderKeyz".to_owned()),
    ];
    prop::collection::vec((top_key, value), 0..7).prop_map(|p| {
        // A top-level `signature` must be a string (or null) to be a message.
        let p = unique(p)
            .into_iter()
            .map(|(k, v)| match v {
                J::Null | J::Str(_) => (k, v),
                other if k == "signature" => (k, J::Str(format!("{other:?}"))),
                other => (k, other),
            })
            .collect();
        J::Obj(p)
    })
}

/// A tiny deterministic generator for the writer's choices.
pub struct Choices(pub u64);

impl Choices {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn ws(out: &mut String, c: &mut Choices) {
    for _ in 0..c.next(3) {
        out.push([' ', '\t', '\n', '\r'][c.next(4) as usize]);
    }
}

fn write_str(s: &str, out: &mut String, c: &mut Choices) {
    out.push('"');
    for ch in s.chars() {
        let short = match ch {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        let must_escape = matches!(ch, '"' | '\\') || (ch as u32) < 0x20;
        match c.next(3) {
            0 if !must_escape => out.push(ch),
            1 if short.is_some() => out.push_str(short.unwrap_or_default()),
            _ => {
                let mut units = [0u16; 2];
                for u in ch.encode_utf16(&mut units) {
                    if c.next(2) == 0 {
                        out.push_str(&format!("\\u{u:04x}"));
                    } else {
                        out.push_str(&format!("\\u{u:04X}"));
                    }
                }
            }
        }
    }
    out.push('"');
}

pub fn write(j: &J, out: &mut String, c: &mut Choices) {
    ws(out, c);
    match j {
        J::Null => out.push_str("null"),
        J::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        J::Num(n) => out.push_str(n),
        J::Str(s) => write_str(s, out, c),
        J::Arr(items) => {
            out.push('[');
            ws(out, c);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out, c);
            }
            out.push(']');
        }
        J::Obj(pairs) => {
            out.push('{');
            ws(out, c);
            for (i, (k, v)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(out, c);
                write_str(k, out, c);
                ws(out, c);
                out.push(':');
                write(v, out, c);
            }
            out.push('}');
        }
    }
    ws(out, c);
}

fn flatten(path: &str, j: &J, out: &mut Vec<String>) {
    match j {
        J::Null => {}
        J::Bool(b) => out.push(format!("{path}={b}")),
        J::Num(n) => out.push(format!("{path}={n}")),
        J::Str(s) => out.push(format!("{path}={s}")),
        J::Arr(items) if items.is_empty() => out.push(format!("{path}=[]")),
        J::Obj(pairs) if pairs.is_empty() => out.push(format!("{path}={{}}")),
        J::Arr(items) => {
            for (i, item) in items.iter().enumerate() {
                flatten(&format!("{path}[{i}]"), item, out);
            }
        }
        J::Obj(pairs) => {
            for (k, v) in pairs {
                flatten(&format!("{path}.{k}"), v, out);
            }
        }
    }
}

/// The canonical string of a top-level object, with the key.
pub fn canonical(top: &J, key: &str) -> String {
    let mut pairs = Vec::new();
    if let J::Obj(members) = top {
        for (k, v) in members {
            if k != "signature" {
                flatten(k, v, &mut pairs);
            }
        }
    }
    pairs.push(format!("senderKey={key}"));
    pairs.sort();
    pairs.join("&")
}

pub fn signature(top: &J, key: &str) -> String {
    hex::encode(Sha256::digest(canonical(top, key).as_bytes()))
}
