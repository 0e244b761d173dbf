//! Field lists compared: parameters (sent), response fields (received), record fields
//! (the directions the record is used in). One verdict per direction, the larger kept.

use super::{deprecation, docs_item, Item, Level, Wire};
use crate::model::{Api, Field, Requirement, Rule, TypeRef};

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
        TypeRef::Date => "`date`".into(),
        TypeRef::Document => "`document`".into(),
        TypeRef::Scalar => "`scalar`".into(),
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
        // Base64 text to the document's bytes (or back): the JSON is the same Base64 string,
        // but partners' code passes bytes (Rust `Document`) where it passed a `String`.
        (T::String, T::Document) | (T::Document, T::String) => {
            Some(both(Level::Major, Wire::Compatible))
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

/// Rule changes of one field: (words, `Some(stricter)` or `None` for docs only).
fn rules(old: &[Rule], new: &[Rule]) -> Vec<(String, Option<bool>)> {
    let mut out = Vec::new();
    for n in new {
        let same_kind: Vec<&Rule> = old
            .iter()
            .filter(|o| o.kind.key() == n.kind.key())
            .collect();
        if same_kind.iter().any(|o| o.kind == n.kind) {
            if let Some(o) = same_kind.iter().find(|o| o.kind == n.kind) {
                if o.doc != n.doc || o.source != n.source {
                    out.push((
                        format!("rule `{}` documentation changed", n.kind.spec_text()),
                        None,
                    ));
                }
            }
            continue;
        }
        match same_kind.first() {
            Some(o) if !n.kind.key().repeatable() || same_kind.len() == 1 => {
                let t = o.kind.tighter(&n.kind);
                let how = match t {
                    Some(true) => "tightened",
                    Some(false) => "loosened",
                    None => "changed",
                };
                out.push((
                    format!(
                        "rule {how}: `{}` → `{}`",
                        o.kind.spec_text(),
                        n.kind.spec_text()
                    ),
                    t,
                ));
            }
            _ => out.push((format!("rule added: `{}`", n.kind.spec_text()), Some(true))),
        }
    }
    for o in old {
        let kept = new.iter().any(|n| n.kind.key() == o.kind.key())
            && (!o.kind.key().repeatable()
                || new.iter().any(|n| n.kind == o.kind)
                || new.iter().filter(|n| n.kind.key().repeatable()).count() == 1
                    && old.iter().filter(|x| x.kind.key().repeatable()).count() == 1);
        if !kept {
            out.push((
                format!("rule removed: `{}`", o.kind.spec_text()),
                Some(false),
            ));
        }
    }
    out
}
