//! Whatever the YAML, the front end answers with a model or diagnostics: never a panic;
//! and every spec that `check` accepts generates (emitting a checked model cannot fail).
//!
//! Three generators: arbitrary text, text assembled from YAML and spec-format tokens (to
//! reach the decoder and the checks), and small edits of a valid spec (to reach the deep
//! checks with nearly valid input).

use baas_codegen::check_sources;
use proptest::prelude::*;

const VALID: &str = r#"api: { title: T, source_document: d.md, success_code: "00000" }
envelope:
  request:
    - { name: requestId, type: string, required: true }
    - { name: sender, type: string }
    - { name: locale, type: string }
    - { name: timestamp, type: long }
    - { name: salt, type: string }
    - { name: signature, type: string }
    - { name: params, type: json }
  response:
    - { name: requestId, type: string }
    - { name: sender, type: string }
    - { name: locale, type: string }
    - { name: timestamp, type: long }
    - { name: salt, type: string }
    - { name: signature, type: string }
    - { name: code, type: string }
    - { name: msg, type: string }
    - { name: data, type: json }
decisions:
  - { id: d1, about: "/a/b x", source_text: s, decision: d, reason: r }
enums:
  - name: Kind
    wire_type: integer
    values: [{ wire: 1, name: One }, { wire: -1, name: Minus, deprecated: "gone" }]
records:
  - name: Item
    fields:
      - { name: amount, type: decimal, wire: string, rules: [{ positive: true }, { range: { min: "0.01", max: "99999999.99" } }] }
      - { name: count, type: int, deprecated: "use amount", rules: [{ range: { max: "2147483647" } }] }
group: g
operations:
  - name: doIt
    path: /a/b
    decisions: [d1]
    params:
      - { name: kind, type: Kind, required: conditional }
      - { name: items, type: "array<Item>", rules: [{ max_items: 3 }] }
      - { name: name, type: string, required: true, rules: [{ max_chars: 5 }, { rule: { min_chars: 1 }, source: live }] }
      - { name: total, type: decimal, wire: number, rules: [{ range: { max: "70000" } }] }
    constraints:
      - required_if: { field: kind, when: { sum: "items[].amount", greater_than: "10" } }
    response: { fields: [{ name: x, type: "array<string>" }] }
"#;

const TOKENS: &[&str] = &[
    "api:",
    "envelope:",
    "enums:",
    "records:",
    "group:",
    "operations:",
    "decisions:",
    "notifications:",
    "result_codes:",
    "name:",
    "type:",
    "path:",
    "params:",
    "rules:",
    "constraints:",
    "response:",
    "fields:",
    "record:",
    "values:",
    "wire:",
    "wire_type:",
    "required:",
    "rust_name:",
    "required_if:",
    "when:",
    "sum:",
    "equals:",
    "range:",
    "max_chars:",
    "unspecified:",
    "- ",
    "  ",
    "    ",
    "\n",
    ": ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a",
    "*a",
    "!t",
    "<<:",
    "|",
    ">",
    "'",
    "\"",
    "#",
    "---",
    "...",
    "?",
    "%YAML 1.2",
    "string",
    "decimal",
    "array<",
    ">",
    "Kind",
    "Item",
    "1",
    "-1",
    "0.5",
    "true",
    "null",
    "~",
    "conditional",
    "type",
    "self",
    "Unknown",
    "é",
    "\t",
    "\u{feff}",
    "\r\n",
    "99999999999999999999",
    "9223372036854775808",
    "0.00000000000000000000000000001",
    "deprecated: ",
    "deprecated: \"\"",
    "{ range: { max: \"99999999999999999999\" } }",
    "required: true",
    "used_in_request",
    "Received",
    "ItemRequired",
    "wire: number",
];

fn run(files: Vec<(String, String)>) {
    // Either outcome is fine; rendering must not panic either.
    match check_sources("spec", &files) {
        Ok(c) => {
            for w in &c.warnings {
                let _ = w.to_string();
            }
            let _ = serde_json::to_string(&c.api);
            // What check accepts, emit writes: formatting fails only on a generator bug.
            if let Err(e) = baas_codegen::pipeline::rust_crate(&c.api) {
                panic!("a checked spec did not generate: {e}");
            }
            if let Err(e) = baas_codegen::pipeline::single_file(&c.api, "x") {
                panic!("a checked spec did not render: {e}");
            }
        }
        Err(d) => {
            assert!(!d.is_empty());
            let _ = d.to_string();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_text(text in "\\PC*") {
        run(vec![("spec/a.yaml".into(), text)]);
    }

    #[test]
    fn yaml_token_soup(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..120)) {
        run(vec![("spec/a.yaml".into(), tokens.concat())]);
    }

    #[test]
    fn edits_of_a_valid_spec(
        edits in proptest::collection::vec((0..VALID.len(), 0usize..8, proptest::sample::select(TOKENS)), 1..4)
    ) {
        let mut text = VALID.to_owned();
        for (at, del, ins) in edits {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) { at -= 1; }
            let mut end = (at + del).min(text.len());
            while !text.is_char_boundary(end) { end -= 1; }
            text.replace_range(at..end.max(at), ins);
        }
        run(vec![("spec/a.yaml".into(), text)]);
    }
}

#[test]
fn the_valid_base_checks_clean() {
    let checked = check_sources("spec", &[("spec/a.yaml".into(), VALID.into())])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(checked.api.operations().count(), 1);
    let files = baas_codegen::pipeline::rust_crate(&checked.api).expect("generates");
    let all: String = files.iter().map(|f| f.contents.as_str()).collect();
    assert!(
        all.contains("#[deprecated(note = \"use amount\")]"),
        "{all}"
    );
    assert!(all.contains("pub struct DoItRequired"), "{all}");
}

/// A bound the generated code cannot represent is refused by `check`, with its place,
/// instead of passing and then failing to generate.
#[test]
fn bounds_beyond_the_generated_types_are_located_errors() {
    let text = VALID.replace(r#"max: "99999999.99""#, r#"max: "99999999999999999999""#);
    let err = check_sources("spec", &[("spec/a.yaml".into(), text)]).expect_err("refused");
    let message = err.to_string();
    assert!(message.starts_with("spec/a.yaml:"), "{message}");
    assert!(message.contains("99999999999999999999"), "{message}");
    assert!(
        message.contains("more digits than the client can represent"),
        "{message}"
    );
}

/// A recorded deprecation needs its note.
#[test]
fn deprecation_needs_a_note() {
    let text = VALID.replace(r#"deprecated: "use amount""#, r#"deprecated: " ""#);
    let err = check_sources("spec", &[("spec/a.yaml".into(), text)]).expect_err("refused");
    assert!(
        err.to_string().contains("`deprecated:` of field `count`"),
        "{err}"
    );
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let text = "a: ".to_owned() + &"[".repeat(100) + &"]".repeat(100);
    let err = check_sources("spec", &[("spec/a.yaml".into(), text)]).expect_err("too deep");
    assert!(err.to_string().contains("nesting deeper than 64"), "{err}");
    // Far deeper: the parser's own limit answers first, still as a located error.
    let text = "a: ".to_owned() + &"[".repeat(100_000) + &"]".repeat(100_000);
    let err = check_sources("spec", &[("spec/a.yaml".into(), text)]).expect_err("too deep");
    assert!(err.to_string().starts_with("spec/a.yaml:1:"), "{err}");
}
