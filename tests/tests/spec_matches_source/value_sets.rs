//! Every enum against its value set as written in the source document or in public-facts.md.

use super::*;

/// Where a value set is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Doc {
    /// The source document.
    Seed,
    /// `public-facts.md`.
    Facts,
    /// The source document, as the currencies of a list of `A/B` pairs (in order of
    /// first appearance).
    PairCurrencies,
}

/// The wire values of a list as written: the items separated by `;` (or `,` when there
/// is no `;`) and ` or `, each item's first word (quotes dropped, `(...)` ignored; in a
/// table cell `| FLAG | ... |` only the last cell; a leading `value` skipped).
pub(crate) fn values_of(list: &str) -> Vec<String> {
    let mut text = list.trim().trim_matches('|').to_string();
    if let Some((_, last)) = text.rsplit_once('|') {
        text = last.to_string();
    }
    let mut plain = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let sep = if plain.contains(';') { ';' } else { ',' };
    plain
        .split(sep)
        .flat_map(|s| s.split(" or "))
        .filter_map(|item| {
            let mut words = item.split_whitespace();
            let mut w = words.next()?;
            if w == "value" {
                w = words.next()?;
            }
            Some(w.trim_matches('\'').to_string())
        })
        .collect()
}

/// `list` with the values of an "adds" text (`6 waiting ... and 8 failed ...`), in
/// wire order when every value is an integer.
pub(crate) fn with_added(mut list: Vec<String>, adds: &[String]) -> Vec<String> {
    if adds.is_empty() {
        return list;
    }
    for item in adds
        .iter()
        .flat_map(|a| a.split(" and "))
        .flat_map(|a| a.split(", "))
    {
        if let Some(value) = item.split_whitespace().next() {
            list.push(value.to_owned());
        }
    }
    let numbers: Option<Vec<i64>> = list.iter().map(|v| v.parse().ok()).collect();
    if let Some(mut numbers) = numbers {
        numbers.sort_unstable();
        list = numbers.iter().map(i64::to_string).collect();
    }
    list
}

pub(crate) fn normalize(text: &str) -> String {
    text.replace('`', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Compares every enum with its value set in the documents.
pub(crate) fn compare_value_sets(spec: &Spec, seed: &str, facts: &str) -> Vec<String> {
    let (seed, facts) = (normalize(seed), normalize(facts));
    let mut out = Vec::new();
    for ValueSet {
        name,
        wire_type,
        doc,
        list,
        adds,
    } in &tables().value_sets
    {
        let text = match doc {
            Doc::Seed => &seed,
            Doc::Facts => &facts,
            Doc::PairCurrencies => &seed,
        };
        for written in std::iter::once(list).chain(adds) {
            if !text.contains(written.as_str()) {
                out.push(format!(
                    "value set {name}: `{written}` is not written in {doc:?}"
                ));
            }
        }
        match (spec.enums.get(name), spec.enum_values.get(name)) {
            (Some(w), Some(values)) => {
                if w != wire_type {
                    out.push(format!(
                        "enum {name}: wire type `{w}`, expected `{wire_type}`"
                    ));
                }
                // A value graded `sandbox` is the sandbox's own choice, which no document lists.
                let values: Vec<&(String, Source)> = values
                    .iter()
                    .filter(|(_, s)| *s != Source::Sandbox)
                    .collect();
                let got: Vec<&str> = values.iter().map(|(v, _)| v.as_str()).collect();
                let want = match doc {
                    Doc::PairCurrencies => {
                        let mut seen: Vec<String> = Vec::new();
                        for c in list.split(", ").flat_map(|pair| pair.split('/')) {
                            if !seen.iter().any(|s| s == c) {
                                seen.push(c.to_owned());
                            }
                        }
                        seen
                    }
                    _ => with_added(values_of(list), adds),
                };
                if got != want {
                    out.push(format!(
                        "enum {name}: wire values {got:?}, the source lists {want:?} (in this order)"
                    ));
                }
                let want_source = |s: &Source| match doc {
                    Doc::Seed => *s == Source::Seed,
                    Doc::Facts => *s != Source::Seed,
                    Doc::PairCurrencies => *s == Source::Seed,
                };
                for (v, s) in values {
                    if !want_source(s) {
                        out.push(format!(
                            "enum {name}: value {v} has source {}, but it is written in {doc:?}",
                            source_text(*s)
                        ));
                    }
                }
            }
            _ => out.push(format!("enum {name}: missing from the spec")),
        }
    }
    let listed: BTreeSet<&str> = tables()
        .value_sets
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    for name in spec.enums.keys() {
        if !listed.contains(name.as_str()) {
            out.push(format!(
                "enum {name}: not tied to a value set of the documents (add it to value_sets of tests/data/source_tables.yaml)"
            ));
        }
    }
    out
}
