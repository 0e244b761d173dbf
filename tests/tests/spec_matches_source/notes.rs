//! The rules and constraints a parameter's notes state (`max 100 characters`, `at most
//! 500,000 CNY`, `required when ...`) against the spec's rules.

use super::*;

/// Limits written in a parameter's notes: `max N characters`, `at most N`, `at most NMB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LimitUnit {
    Chars,
    Megabytes,
    Plain,
}

/// Every `max N ...` / `at most N ...` of `notes_lc` (lower case), with its unit.
pub(crate) fn limits(notes_lc: &str) -> Vec<(u64, LimitUnit)> {
    let mut out = Vec::new();
    for marker in ["max ", "at most "] {
        let mut from = 0;
        while let Some(i) = notes_lc[from..].find(marker) {
            let start = from + i + marker.len();
            let digits: String = notes_lc[start..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .collect();
            let number: String = digits.chars().filter(char::is_ascii_digit).collect();
            from = start;
            let Ok(n) = number.parse::<u64>() else {
                continue;
            };
            let after = notes_lc[start + digits.len()..].trim_start();
            let unit = if after.starts_with("characters") {
                LimitUnit::Chars
            } else if after.starts_with("mb") {
                LimitUnit::Megabytes
            } else {
                LimitUnit::Plain
            };
            out.push((n, unit));
        }
    }
    out
}

/// The first number written after `marker` in `text` (`exceeds 70,000 CNY` → `70000`).
pub(crate) fn number_after(text: &str, marker: &str) -> Option<String> {
    let i = text.find(marker)? + marker.len();
    let n: String = text[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    (!n.is_empty()).then_some(n)
}

/// The identifier right after `marker` in `text`.
pub(crate) fn ident_after(text: &str, marker: &str) -> Option<String> {
    let i = text.find(marker)? + marker.len();
    let id: String = text[i..]
        .chars()
        .take_while(|c| is_ident_char(*c))
        .collect();
    (!id.is_empty()).then_some(id)
}

/// Whole-word tokens of a notes text (`'0' Female, 1 = Till/BuyGoods` → `0`, `Female`,
/// `1`, `Till/BuyGoods`).
pub(crate) fn tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '/' | '-')))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The rules and constraints a parameter's notes state in the source must be in the
/// spec: `max N characters` (max_chars, or a server_side rule naming N), `at most N`
/// (range max), `at most NMB` (base64_max_bytes between N·10^6 and N·2^20), `positive`,
/// `whole number`, `alphanumeric`, `must ...` / `from the ... list` (server_side),
/// `required/mandatory/needed/used when ...` (a constraint naming the field, exactly
/// `required_if` for `required when X = V` and for `exceeds N`), `either A or B is
/// mandatory` (exactly_one_of / at_least_one_of over A and B). A parameter typed with a
/// value set must be an enum holding every value the notes list.
pub(crate) fn check_notes(
    spec: &Spec,
    ctx: &str,
    p: &SrcParam,
    f: &SpecField,
    constraints: &[ConstraintKind],
    out: &mut Vec<String>,
) {
    let notes = p.notes.as_str();
    if notes.is_empty() {
        return;
    }
    let lc = notes.to_ascii_lowercase();
    let server_side: Vec<&str> = f
        .rules
        .iter()
        .filter_map(|r| match r {
            RuleKind::ServerSide { text } => Some(text.as_str()),
            _ => None,
        })
        .chain(constraints.iter().filter_map(|c| match c {
            ConstraintKind::ServerSide { fields, text } if fields.contains(&p.name) => {
                Some(text.as_str())
            }
            _ => None,
        }))
        .collect();
    let server_side_says = |n: u64| {
        server_side
            .iter()
            .any(|t| tokens(t).contains(&n.to_string()))
    };
    let mut missing = |what: String| {
        out.push(format!(
            "{ctx}: `{}`: the source (line {}) says \"{notes}\", the spec has no {what}",
            p.name, p.line
        ))
    };

    for (n, unit) in limits(&lc) {
        let ok =
            match unit {
                LimitUnit::Chars => {
                    f.rules.contains(&RuleKind::MaxChars { max: n }) || server_side_says(n)
                }
                LimitUnit::Megabytes => f.rules.iter().any(|r| {
                    matches!(r, RuleKind::Base64MaxBytes { max }
                    if (n * 1_000_000..=n * 1024 * 1024).contains(max))
                }),
                LimitUnit::Plain => f.rules.iter().any(
                    |r| matches!(r, RuleKind::Range { max: Some(m), .. } if m.to_string() == n.to_string()),
                ) || server_side_says(n),
            };
        if !ok {
            missing(format!("rule for the limit {n} ({unit:?})"));
        }
    }
    if tokens(&lc).contains("positive") && !f.rules.contains(&RuleKind::Positive) {
        missing("`positive` rule".into());
    }
    if lc.contains("whole number") && !f.rules.contains(&RuleKind::Whole) {
        missing("`whole` rule".into());
    }
    if lc.contains("alphanumeric")
        && !f.rules.contains(&RuleKind::Alphanumeric)
        && !server_side.iter().any(|t| t.contains("alphanumeric"))
    {
        missing("`alphanumeric` rule (client or server_side)".into());
    }
    if (lc.contains("must ") || (lc.contains("from the ") && lc.contains(" list")))
        && server_side.is_empty()
    {
        missing("server_side rule".into());
    }
    let names_field = |c: &ConstraintKind| match c {
        ConstraintKind::RequiredIf { field, .. } => field.wire_name == p.name,
        ConstraintKind::ServerSide { fields, .. } => fields.contains(&p.name),
        _ => false,
    };
    if [
        "required when",
        "mandatory when",
        "needed when",
        "used when",
    ]
    .iter()
    .any(|m| lc.contains(m))
        && !constraints.iter().any(names_field)
    {
        missing("constraint naming the field".into());
    }
    if let Some(i) = lc.find("required when ") {
        // `required when X = V`
        let rest = &notes[i + "required when ".len()..];
        let when_field: String = rest.chars().take_while(|c| is_ident_char(*c)).collect();
        let value = rest.split_once(" = ").map(|(_, v)| {
            v.chars()
                .take_while(|c| is_ident_char(*c))
                .collect::<String>()
        });
        let wanted = |c: &ConstraintKind| {
            matches!(c, ConstraintKind::RequiredIf {
                field,
                when: Condition::Equals { field: cf, value: v },
            } if field.wire_name == p.name
                && cf.wire_name == when_field
                && Some(v) == value.as_ref())
        };
        if !constraints.iter().any(wanted) {
            missing(format!(
                "`required_if: {{ field: {}, when: {{ field: {when_field}, equals: {:?} }} }}`",
                p.name,
                value.unwrap_or_default()
            ));
        }
    }
    if let (true, Some(n)) = (lc.contains("mandatory when"), number_after(&lc, "exceeds ")) {
        let ok = constraints.iter().any(|c| {
            matches!(c, ConstraintKind::RequiredIf { field, when: Condition::SumGreaterThan { value, .. } }
                if field.wire_name == p.name && value.to_string() == n)
        });
        if !ok {
            missing(format!("`required_if` on a sum greater than {n}"));
        }
    }
    if let (Some(a), true) = (ident_after(notes, "either "), lc.contains("mandatory")) {
        let b =
            ident_after(&notes[notes.find("either ").unwrap_or(0)..], " or ").unwrap_or_default();
        let ok = constraints.iter().any(|c| match c {
            ConstraintKind::ExactlyOneOf { fields } | ConstraintKind::AtLeastOneOf { fields } => {
                fields.iter().any(|f| f.wire_name == a) && fields.iter().any(|f| f.wire_name == b)
            }
            _ => false,
        });
        if !ok {
            missing(format!(
                "`exactly_one_of`/`at_least_one_of` over {a} and {b}"
            ));
        }
    }

    // Value sets: `0 = Paybill, 1 = Till/BuyGoods`, `image or pdf`, `sms or email`, ...
    let item =
        f.ty.strip_prefix("array<")
            .and_then(|s| s.strip_suffix('>'))
            .unwrap_or(&f.ty);
    match spec.enum_values.get(item) {
        Some(values) => {
            let toks = tokens(notes);
            // A field whose `one_of` rule narrows its set (decision currency-one-type)
            // takes the rule's values, which the notes list; else the set's own values.
            let one_of = f.rules.iter().find_map(|r| match r {
                RuleKind::OneOf { values } => Some(values),
                _ => None,
            });
            let absent: Vec<&str> = match one_of {
                Some(allowed) => allowed.iter().map(String::as_str).collect(),
                None => values
                    .iter()
                    .filter(|(_, src)| *src == Source::Seed)
                    .map(|(w, _)| w.as_str())
                    .collect(),
            };
            let absent: Vec<&str> = absent.into_iter().filter(|w| !toks.contains(*w)).collect();
            if !absent.is_empty() {
                missing(format!(
                    "match between the notes and the values of enum {item}: {absent:?} are not in the notes"
                ));
            }
        }
        None => {
            // Notes that start with a value list (`0 = Paybill, ...`) need an enum.
            let first: String = notes.chars().take_while(|c| !c.is_whitespace()).collect();
            if notes[first.len()..].starts_with(" = ") {
                missing(format!("enum for the value list (the field is `{}`)", f.ty));
            }
        }
    }
}

/// Whether a source document states an operation-level "at least one" rule and the
/// spec holds it over exactly the operation's optional parameters.
pub(crate) fn check_at_least_one(
    ctx: &str,
    src: &SrcOp,
    constraints: &[ConstraintKind],
    out: &mut Vec<String>,
) {
    if !src.text.to_ascii_lowercase().contains("at least one") {
        return;
    }
    let optional: BTreeSet<&str> = src
        .params
        .iter()
        .filter(|p| p.flag == Flag::Optional)
        .map(|p| p.name.as_str())
        .collect();
    let ok = constraints.iter().any(|c| match c {
        ConstraintKind::AtLeastOneOf { fields } => {
            fields
                .iter()
                .map(|f| f.wire_name.as_str())
                .collect::<BTreeSet<_>>()
                == optional
        }
        _ => false,
    });
    if !ok {
        out.push(format!(
            "{ctx}: the source says at least one of {optional:?} must be given, the spec has no `at_least_one_of` over exactly them"
        ));
    }
}
