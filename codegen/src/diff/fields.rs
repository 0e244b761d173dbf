//! Field lists compared: parameters (sent), response fields (received), record fields
//! (the directions the record is used in). One verdict per direction, the larger kept.

use super::{deprecation, docs_item, Item, Level, Wire};
use crate::model::{Api, Field, Number, Requirement, Rule, RuleKind, TypeRef};

/// The shapes a field list is generated in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dirs {
    /// In a sent struct: required fields in the `Required` literal, optional ones setters.
    pub sent: bool,
    /// In a received struct: every field an `Option`, partners read them.
    pub received: bool,
}

impl Dirs {
    pub const SENT: Dirs = Dirs {
        sent: true,
        received: false,
    };
    pub const RECEIVED: Dirs = Dirs {
        sent: false,
        received: true,
    };
}

/// A verdict per direction; `None` where the change means nothing in that direction.
struct Verdict {
    sent: (Level, Wire),
    received: (Level, Wire),
}

fn pick(dirs: Dirs, v: Verdict) -> (Level, Wire) {
    match (dirs.sent, dirs.received) {
        (true, true) => (v.sent.0.max(v.received.0), v.sent.1.max(v.received.1)),
        (true, false) => v.sent,
        _ => v.received,
    }
}

fn both(l: Level, w: Wire) -> Verdict {
    Verdict {
        sent: (l, w),
        received: (l, w),
    }
}

fn req_words(r: Requirement) -> &'static str {
    match r {
        Requirement::Required => "required",
        Requirement::Optional => "optional",
        Requirement::Conditional => "conditional",
    }
}

fn rank(r: Requirement) -> u8 {
    match r {
        Requirement::Optional => 0,
        Requirement::Conditional => 1,
        Requirement::Required => 2,
    }
}

/// Compares two field lists; `what` names a field in the messages (`parameter`).
pub(crate) fn diff(
    old_api: &Api,
    new_api: &Api,
    old: &[Field],
    new: &[Field],
    dirs: Dirs,
    what: &str,
) -> Vec<Item> {
    let mut items = Vec::new();
    let mut matched_old: Vec<&str> = Vec::new();
    for n in new {
        let o = old.iter().find(|o| o.wire_name == n.wire_name);
        // A wire name renamed under the same Rust name.
        let renamed = o.is_none().then(|| {
            old.iter().find(|o| {
                o.rust_name == n.rust_name && !new.iter().any(|m| m.wire_name == o.wire_name)
            })
        });
        match (o, renamed.flatten()) {
            (Some(o), _) => {
                matched_old.push(&o.wire_name);
                items.extend(field(old_api, new_api, o, n, dirs, what));
            }
            (None, Some(o)) => {
                matched_old.push(&o.wire_name);
                let (l, w) = pick(dirs, both(Level::Patch, Wire::Breaking));
                items.push(
                    Item::new(
                        &n.wire_name,
                        format!(
                            "wire name changed from `{}` to `{}` (Rust name `{}` kept)",
                            o.wire_name, n.wire_name, n.rust_name
                        ),
                        l,
                        w,
                    )
                    .signing(),
                );
                let mut same = o.clone();
                same.wire_name = n.wire_name.clone();
                items.extend(field(old_api, new_api, &same, n, dirs, what));
            }
            (None, None) => {
                let v = match n.required {
                    Requirement::Required => Verdict {
                        sent: (Level::Major, Wire::Breaking),
                        received: (Level::Minor, Wire::Compatible),
                    },
                    Requirement::Conditional => Verdict {
                        sent: (Level::Minor, Wire::Breaking),
                        received: (Level::Minor, Wire::Compatible),
                    },
                    Requirement::Optional => both(Level::Minor, Wire::Compatible),
                };
                let (l, w) = pick(dirs, v);
                items.push(Item::new(
                    &n.wire_name,
                    format!("{} {what} added", req_words(n.required)),
                    l,
                    w,
                ));
            }
        }
    }
    for o in old {
        if !matched_old.contains(&o.wire_name.as_str()) {
            let (l, w) = pick(
                dirs,
                Verdict {
                    sent: (Level::Major, Wire::Compatible),
                    received: (Level::Major, Wire::Breaking),
                },
            );
            items.push(
                Item::new(
                    &o.wire_name,
                    format!("{} {what} removed", req_words(o.required)),
                    l,
                    w,
                )
                .removal(&o.deprecated),
            );
        }
    }
    items
}

fn field(old_api: &Api, new_api: &Api, o: &Field, n: &Field, dirs: Dirs, what: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let name = n.wire_name.as_str();
    let push = |change: String, v: Verdict| {
        let (l, w) = pick(dirs, v);
        Item::new(name, change, l, w)
    };
    if o.required != n.required {
        let (ro, rn) = (rank(o.required), rank(n.required));
        // Sent: a field entering or leaving the `Required` literal breaks the literal;
        // a stricter requirement refuses requests that left it out.
        let crosses =
            (o.required == Requirement::Required) != (n.required == Requirement::Required);
        let sent = (
            if crosses { Level::Major } else { Level::Patch },
            if rn > ro {
                Wire::Breaking
            } else {
                Wire::Compatible
            },
        );
        // Received: every field is an Option; a field that was always there may be
        // missing now.
        let received = (
            Level::Patch,
            if o.required == Requirement::Required && rn < ro {
                Wire::Breaking
            } else {
                Wire::Compatible
            },
        );
        items.push(push(
            format!(
                "{} {what} became {}",
                req_words(o.required),
                req_words(n.required)
            ),
            Verdict { sent, received },
        ));
    }
    if o.rust_name != n.rust_name {
        items.push(push(
            format!(
                "Rust name changed from `{}` to `{}`",
                o.rust_name, n.rust_name
            ),
            both(Level::Major, Wire::Compatible),
        ));
    }
    if let Some(v) = type_change(old_api, new_api, &o.ty, &n.ty) {
        items.push(push(
            format!(
                "type changed from {} to {}",
                type_words(&o.ty),
                type_words(&n.ty)
            ),
            v,
        ));
    }
    items.extend(
        rules(&o.rules, &n.rules)
            .into_iter()
            .map(|(change, tighter)| {
                let v = match tighter {
                    // Requests that passed may be refused; responses stay within what they were.
                    Some(true) => Verdict {
                        sent: (Level::Patch, Wire::Breaking),
                        received: (Level::Patch, Wire::Compatible),
                    },
                    // Requests pass as before; responses may carry values outside the old rule.
                    Some(false) => Verdict {
                        sent: (Level::Patch, Wire::Compatible),
                        received: (Level::Patch, Wire::Breaking),
                    },
                    None => both(Level::Patch, Wire::Compatible),
                };
                push(change, v)
            }),
    );
    deprecation(&mut items, name, what, &o.deprecated, &n.deprecated);
    if o.doc != n.doc || o.source != n.source || o.decisions != n.decisions {
        items.push(docs_item(name));
    }
    items
}

fn type_words(t: &TypeRef) -> String {
    match t {
        TypeRef::String => "`string`".into(),
        TypeRef::Int => "`int`".into(),
        TypeRef::Long => "`long`".into(),
        TypeRef::Decimal { wire } => format!("`decimal` ({wire:?} on the wire)").to_lowercase(),
        TypeRef::Bool => "`bool`".into(),
        TypeRef::Json => "`json`".into(),
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => format!("`{name}`"),
        TypeRef::Array { item } => format!("array of {}", type_words(item)),
    }
}

/// `None` when the types are the same (a record's received name is the record's own
/// business, reported under the record).
fn type_change(old_api: &Api, new_api: &Api, o: &TypeRef, n: &TypeRef) -> Option<Verdict> {
    use TypeRef as T;
    match (o, n) {
        (T::Array { item: a }, T::Array { item: b }) => type_change(old_api, new_api, a, b),
        (T::Record { name: a, .. }, T::Record { name: b, .. }) if a == b => None,
        (T::Decimal { wire: a }, T::Decimal { wire: b }) if a != b => {
            // The Rust type is `Amount` either way; the JSON spelling changes.
            Some(both(Level::Patch, Wire::Breaking))
        }
        // Widening: every request accepted still is; responses may now exceed an i32.
        (T::Int, T::Long) => Some(Verdict {
            sent: (Level::Major, Wire::Compatible),
            received: (Level::Major, Wire::Breaking),
        }),
        (T::Long, T::Int) => Some(Verdict {
            sent: (Level::Major, Wire::Breaking),
            received: (Level::Major, Wire::Compatible),
        }),
        (T::Enum { name: a }, T::Enum { name: b }) if a != b => {
            // Another value set: the wire is unchanged only when the wire values are.
            let wires = |api: &Api, e: &str| {
                api.enum_def(e)
                    .map(|d| d.values.iter().map(|v| v.wire.clone()).collect::<Vec<_>>())
            };
            let same = wires(old_api, a) == wires(new_api, b);
            Some(both(
                Level::Major,
                if same {
                    Wire::Compatible
                } else {
                    Wire::Breaking
                },
            ))
        }
        _ if o == n => None,
        _ => Some(both(Level::Major, Wire::Breaking)),
    }
}

fn rule_key(k: &RuleKind) -> &'static str {
    match k {
        RuleKind::MaxChars { .. } => "max_chars",
        RuleKind::MinChars { .. } => "min_chars",
        RuleKind::Range { .. } => "range",
        RuleKind::Positive => "positive",
        RuleKind::Whole => "whole",
        RuleKind::DecimalPlaces { .. } => "decimal_places",
        RuleKind::Alphanumeric => "alphanumeric",
        RuleKind::Base64MaxBytes { .. } => "base64_max_bytes",
        RuleKind::MaxItems { .. } => "max_items",
        RuleKind::MinItems { .. } => "min_items",
        RuleKind::ServerSide { .. } => "server_side",
    }
}

fn rule_words(k: &RuleKind) -> String {
    let n = |x: &Option<Number>| x.map(|v| v.to_string()).unwrap_or_else(|| "…".into());
    match k {
        RuleKind::MaxChars { max } => format!("max_chars {max}"),
        RuleKind::MinChars { min } => format!("min_chars {min}"),
        RuleKind::Range { min, max } => format!("range {}..={}", n(min), n(max)),
        RuleKind::DecimalPlaces { places } => format!("decimal_places {places}"),
        RuleKind::Base64MaxBytes { max } => format!("base64_max_bytes {max}"),
        RuleKind::MaxItems { max } => format!("max_items {max}"),
        RuleKind::MinItems { min } => format!("min_items {min}"),
        RuleKind::ServerSide { text } => format!("server_side \"{text}\""),
        other => rule_key(other).to_owned(),
    }
}

fn value(n: &Number) -> (i128, u32) {
    (i128::from(n.mantissa), n.scale)
}

/// `a <= b` for exact decimals.
fn le(a: &Number, b: &Number) -> bool {
    let ((ma, sa), (mb, sb)) = (value(a), value(b));
    let s = sa.max(sb);
    ma * 10i128.pow(s - sa) <= mb * 10i128.pow(s - sb)
}

/// Whether `n` accepts nothing `o` refused... `Some(true)` when the new rule is
/// stricter somewhere, `Some(false)` when only looser, `None` when neither.
fn tighter(o: &RuleKind, n: &RuleKind) -> Option<bool> {
    use std::cmp::Ordering::*;
    let up = |a: u64, b: u64| match b.cmp(&a) {
        Less => Some(true),
        Greater => Some(false),
        Equal => None,
    };
    match (o, n) {
        (RuleKind::MaxChars { max: a }, RuleKind::MaxChars { max: b })
        | (RuleKind::Base64MaxBytes { max: a }, RuleKind::Base64MaxBytes { max: b })
        | (RuleKind::MaxItems { max: a }, RuleKind::MaxItems { max: b }) => up(*a, *b),
        (RuleKind::DecimalPlaces { places: a }, RuleKind::DecimalPlaces { places: b }) => {
            up(u64::from(*a), u64::from(*b))
        }
        (RuleKind::MinChars { min: a }, RuleKind::MinChars { min: b })
        | (RuleKind::MinItems { min: a }, RuleKind::MinItems { min: b }) => up(*b, *a),
        (
            RuleKind::Range {
                min: omin,
                max: omax,
            },
            RuleKind::Range {
                min: nmin,
                max: nmax,
            },
        ) => {
            // Stricter if the new bound refuses a value the old one took.
            let min_tighter = match (omin, nmin) {
                (None, Some(_)) => true,
                (Some(a), Some(b)) => !le(b, a),
                _ => false,
            };
            let max_tighter = match (omax, nmax) {
                (None, Some(_)) => true,
                (Some(a), Some(b)) => !le(a, b),
                _ => false,
            };
            if min_tighter || max_tighter {
                Some(true)
            } else if omin != nmin || omax != nmax {
                Some(false)
            } else {
                None
            }
        }
        // Another text: what the service checks changed, in which direction is unknown.
        (RuleKind::ServerSide { .. }, RuleKind::ServerSide { .. }) if o != n => Some(true),
        _ => None,
    }
}

/// Rule changes of one field: (words, `Some(stricter)` or `None` for docs only).
fn rules(old: &[Rule], new: &[Rule]) -> Vec<(String, Option<bool>)> {
    let mut out = Vec::new();
    for n in new {
        let same_kind: Vec<&Rule> = old
            .iter()
            .filter(|o| rule_key(&o.kind) == rule_key(&n.kind))
            .collect();
        if same_kind.iter().any(|o| o.kind == n.kind) {
            if let Some(o) = same_kind.iter().find(|o| o.kind == n.kind) {
                if o.doc != n.doc || o.source != n.source {
                    out.push((
                        format!("rule `{}` documentation changed", rule_words(&n.kind)),
                        None,
                    ));
                }
            }
            continue;
        }
        match same_kind.first() {
            Some(o) if rule_key(&n.kind) != "server_side" || same_kind.len() == 1 => {
                let t = tighter(&o.kind, &n.kind);
                let how = match t {
                    Some(true) => "tightened",
                    Some(false) => "loosened",
                    None => "changed",
                };
                out.push((
                    format!(
                        "rule {how}: `{}` → `{}`",
                        rule_words(&o.kind),
                        rule_words(&n.kind)
                    ),
                    t,
                ));
            }
            _ => out.push((format!("rule added: `{}`", rule_words(&n.kind)), Some(true))),
        }
    }
    for o in old {
        let kept = new.iter().any(|n| rule_key(&n.kind) == rule_key(&o.kind))
            && (rule_key(&o.kind) != "server_side"
                || new.iter().any(|n| n.kind == o.kind)
                || new
                    .iter()
                    .filter(|n| rule_key(&n.kind) == "server_side")
                    .count()
                    == 1
                    && old
                        .iter()
                        .filter(|x| rule_key(&x.kind) == "server_side")
                        .count()
                        == 1);
        if !kept {
            out.push((
                format!("rule removed: `{}`", rule_words(&o.kind)),
                Some(false),
            ));
        }
    }
    out
}
