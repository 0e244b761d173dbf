//! Changes of operations: parameters, responses, constraints, helpers (pagers, pending
//! handles, waiters) and the OTP flow.

use std::collections::BTreeSet;

use super::definitions::reachable_records;
use super::{deprecation, docs_item, fields, Item, Level, Out, Pair, Scope, Wire};
use crate::model::{Api, Condition, ConstraintKind, Operation, Params, Response};

pub(super) fn operations(out: &mut Out, old: &Api, new: &Api) {
    let olds: Vec<&Operation> = old.operations().collect();
    let news: Vec<&Operation> = new.operations().collect();
    let mut matched_old = BTreeSet::new();
    // Operations pair by name, or else a renamed one by path: not `pairs`' one key.
    let mut pairs: Vec<Pair<'_, Operation>> = Vec::new();
    for n in &news {
        // Same name, or else a renamed operation on the same path.
        let o = olds
            .iter()
            .find(|o| o.name == n.name)
            .or_else(|| {
                olds.iter().find(|o| {
                    o.path == n.path
                        && !news.iter().any(|m| m.name == o.name)
                        && !matched_old.contains(&o.name)
                })
            })
            .copied();
        match o {
            Some(o) => {
                matched_old.insert(o.name.clone());
                pairs.push(Pair::Kept(o, n));
            }
            None => pairs.push(Pair::Added(n)),
        }
    }
    for o in &olds {
        if !matched_old.contains(&o.name) {
            pairs.push(Pair::Removed(o));
        }
    }
    for pair in pairs {
        match pair {
            Pair::Added(n) => out.push(
                Scope::Operation,
                &n.name,
                &[],
                vec![Item::new(
                    "",
                    format!("operation added (`{}`, `POST {}`)", n.rust_name, n.path),
                    Level::Minor,
                    Wire::Compatible,
                )],
            ),
            Pair::Removed(o) => out.push(
                Scope::Operation,
                &o.name,
                &[],
                vec![Item::new(
                    "",
                    format!("operation removed (`{}`, `POST {}`)", o.rust_name, o.path),
                    Level::Major,
                    Wire::Breaking,
                )
                .removal(&o.deprecated)],
            ),
            Pair::Kept(o, n) => {
                let items = operation(old, new, o, n);
                out.push(Scope::Operation, &n.name, &[], items);
            }
        }
    }
}

fn operation(old: &Api, new: &Api, o: &Operation, n: &Operation) -> Vec<Item> {
    let mut items = Vec::new();
    identity(&mut items, o, n);
    behaviour(&mut items, o, n);
    helpers(&mut items, o, n);
    params(&mut items, old, new, o, n);
    constraints(&mut items, o, n);
    response(old, new, &o.response, &n.response, &mut items);
    items
}

/// What names the operation: its name (and so its method and types), path, module,
/// deprecation and documentation.
fn identity(items: &mut Vec<Item>, o: &Operation, n: &Operation) {
    if o.name != n.name {
        items.push(Item::new(
            "",
            format!(
                "operation renamed from `{}` (method `{}` → `{}`, types `{}…` → `{}…`)",
                o.name, o.rust_name, n.rust_name, o.type_name, n.type_name
            ),
            Level::Major,
            Wire::Compatible,
        ));
    }
    if o.path != n.path {
        items.push(Item::new(
            "",
            format!("path changed from `{}` to `{}`", o.path, n.path),
            Level::Patch,
            Wire::Breaking,
        ));
    }
    if o.group != n.group {
        items.push(Item::new(
            "",
            format!("moved from module `{}` to `{}`", o.group, n.group),
            Level::Major,
            Wire::Compatible,
        ));
    }
    deprecation(items, "", "operation", &o.deprecated, &n.deprecated);
    if o.doc != n.doc || o.source != n.source || o.decisions != n.decisions {
        items.push(docs_item(""));
    }
}

/// How a call behaves: whether it may move money (never re-sent) and whether it must be
/// confirmed with an OTP.
fn behaviour(items: &mut Vec<Item>, o: &Operation, n: &Operation) {
    if o.moves_money != n.moves_money {
        items.push(Item::new(
            "",
            if n.moves_money {
                "now may move money (never re-sent automatically)"
            } else {
                "no longer marked as moving money"
            },
            Level::Patch,
            Wire::Compatible,
        ));
    }
    if o.otp != n.otp {
        items.push(if n.otp {
            Item::new(
                "",
                "now must be confirmed with an OTP (sendOtp + confirmOperation)",
                Level::Patch,
                Wire::Breaking,
            )
        } else {
            Item::new(
                "",
                "no longer needs OTP confirmation",
                Level::Patch,
                Wire::Compatible,
            )
        });
    }
}

/// The parameters: field by field (as sent), or documented / no longer documented.
fn params(items: &mut Vec<Item>, old: &Api, new: &Api, o: &Operation, n: &Operation) {
    match (&o.params, &n.params) {
        (Params::Fields { fields: of }, Params::Fields { fields: nf }) => {
            items.extend(fields::diff(
                old,
                new,
                of,
                nf,
                fields::Dirs::SENT,
                "parameter",
            ));
            moved_fields(old, new, o, n, items);
        }
        (Params::Unspecified { note: a }, Params::Unspecified { note: b }) => {
            if a != b {
                items.push(docs_item("params"));
            }
        }
        (Params::Unspecified { .. }, Params::Fields { .. }) => items.push(Item::new(
            "params",
            "parameters documented: the request is a typed struct instead of raw JSON",
            Level::Major,
            Wire::Compatible,
        )),
        (Params::Fields { .. }, Params::Unspecified { .. }) => items.push(Item::new(
            "params",
            "parameters no longer documented: the request is raw JSON instead of a typed struct",
            Level::Major,
            Wire::Compatible,
        )),
    }
}

/// Constraints added (the service refuses more) or removed, compared in words.
fn constraints(items: &mut Vec<Item>, o: &Operation, n: &Operation) {
    let oc: BTreeSet<String> = o.constraints.iter().map(|c| constraint(&c.kind)).collect();
    let nc: BTreeSet<String> = n.constraints.iter().map(|c| constraint(&c.kind)).collect();
    for c in nc.difference(&oc) {
        items.push(Item::new(
            "constraints",
            format!("constraint added: {c}"),
            Level::Patch,
            Wire::Breaking,
        ));
    }
    for c in oc.difference(&nc) {
        items.push(Item::new(
            "constraints",
            format!("constraint removed: {c}"),
            Level::Patch,
            Wire::Compatible,
        ));
    }
}

/// The client methods an operation's spec keys generate: a paginator (`paging` with
/// `items`), a pending-application method (`business_id`), a waiter (`final_states`).
/// Adding one adds a method (minor); removing or changing one removes a method or
/// changes what it does (major). None of them changes what is sent.
fn helpers(items: &mut Vec<Item>, o: &Operation, n: &Operation) {
    let pages = |op: &Operation| {
        op.paging
            .as_ref()
            .filter(|p| p.items.is_some())
            .map(|p| serde_json::to_string(p).unwrap_or_default())
    };
    let pending = |op: &Operation| {
        op.business_id
            .as_ref()
            .map(|b| serde_json::to_string(b).unwrap_or_default())
    };
    // `awaiting_otp` is what `settle` reads, not the waiter: compared below.
    let until = |op: &Operation| {
        op.final_states.as_ref().map(|f| {
            let mut f = f.clone();
            f.awaiting_otp.clear();
            serde_json::to_string(&f).unwrap_or_default()
        })
    };
    let settle = |op: &Operation| {
        op.settled_by
            .as_ref()
            .map(|s| serde_json::to_string(s).unwrap_or_default())
    };
    let method = n.rust_name.trim_start_matches("r#");
    for (what, name, before, after) in [
        ("paginator", format!("{method}_pages"), pages(o), pages(n)),
        (
            "pending-application method",
            format!("{method}_pending"),
            pending(o),
            pending(n),
        ),
        (
            "waiter",
            format!("{method}_until_final"),
            until(o),
            until(n),
        ),
        (
            "settle method",
            format!("{method}_pending().settle"),
            settle(o),
            settle(n),
        ),
    ] {
        let item = match (before, after) {
            (None, Some(_)) => Item::new(
                "",
                format!("{what} `{name}` added"),
                Level::Minor,
                Wire::Compatible,
            ),
            (Some(_), None) => Item::new(
                "",
                format!("{what} `{name}` removed"),
                Level::Major,
                Wire::Compatible,
            ),
            (Some(a), Some(b)) if a != b => Item::new(
                "",
                format!("{what} `{name}` changed (what it reads or when it stops)"),
                Level::Major,
                Wire::Compatible,
            ),
            _ => continue,
        };
        items.push(item);
    }
}

/// The OTP flow (`otp_step:` marks): the `PendingApplication` handle and `group_pending`
/// exist only with it.
pub(super) fn otp_flow(out: &mut Out, old: &Api, new: &Api) {
    // The reuse rule is a sentence `settle` gives, not a method or a field.
    let key = |api: &Api| {
        api.otp_flow.as_ref().map(|f| {
            let mut f = f.clone();
            f.otp_reuse = None;
            serde_json::to_string(&f).unwrap_or_default()
        })
    };
    let item = match (key(old), key(new)) {
        (None, Some(_)) => Item::new(
            "otp_step",
            "OTP flow added: `PendingApplication` (and `group_pending` with a group step)",
            Level::Minor,
            Wire::Compatible,
        ),
        (Some(_), None) => Item::new(
            "otp_step",
            "OTP flow removed: `PendingApplication`, every `*_pending` and `group_pending` go",
            Level::Major,
            Wire::Compatible,
        ),
        (Some(a), Some(b)) if a != b => Item::new(
            "otp_step",
            "OTP flow changed: the operations or fields `PendingApplication` uses",
            Level::Major,
            Wire::Compatible,
        ),
        _ => return,
    };
    out.push(Scope::Api, "", &[], vec![item]);
}

/// A parameter that left the top level for a record reachable from the params (or came
/// back): the signed string names it by another path.
fn moved_fields(old: &Api, new: &Api, o: &Operation, n: &Operation, items: &mut [Item]) {
    let (Params::Fields { fields: of }, Params::Fields { fields: nf }) = (&o.params, &n.params)
    else {
        return;
    };
    let nested = |api: &Api, fields: &[crate::model::Field]| -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        for r in reachable_records(api, fields.iter().map(|f| &f.ty)) {
            if let Some(rec) = api.record(&r) {
                names.extend(rec.fields.iter().map(|f| f.wire_name.clone()));
            }
        }
        names
    };
    let old_nested = nested(old, of);
    let new_nested = nested(new, nf);
    for item in items.iter_mut() {
        let left = !nf.iter().any(|f| f.wire_name == item.item)
            && of.iter().any(|f| f.wire_name == item.item)
            && new_nested.contains(&item.item)
            && !old_nested.contains(&item.item);
        let came = !of.iter().any(|f| f.wire_name == item.item)
            && nf.iter().any(|f| f.wire_name == item.item)
            && old_nested.contains(&item.item)
            && !new_nested.contains(&item.item);
        if left || came {
            item.signing = true;
            item.change.push_str(if left {
                " (moved into a nested record: signed as `params.<record>.…` now)"
            } else {
                " (moved out of a nested record to the top level: signed by another path)"
            });
        }
    }
}

/// The response: field by field when its shape stays (inline fields as received, the
/// record by name), else one change of shape.
fn response(old: &Api, new: &Api, o: &Response, n: &Response, items: &mut Vec<Item>) {
    use Response as R;
    match (o, n) {
        (
            R::Fields {
                fields: of,
                source: a,
            },
            R::Fields {
                fields: nf,
                source: b,
            },
        ) => {
            items.extend(fields::diff(
                old,
                new,
                of,
                nf,
                fields::Dirs::RECEIVED,
                "response field",
            ));
            if a != b {
                items.push(docs_item(RESPONSE));
            }
        }
        (
            R::Record {
                record: a,
                source: sa,
                ..
            },
            R::Record {
                record: b,
                source: sb,
                ..
            },
        ) => {
            if a != b {
                items.push(record_replaced(old, new, a, b));
            } else if sa != sb {
                items.push(docs_item(RESPONSE));
            }
            // Changes inside the record are reported under the record.
        }
        (R::Unspecified { note: a }, R::Unspecified { note: b })
        | (R::Empty { note: a }, R::Empty { note: b }) => {
            if a != b {
                items.push(docs_item(RESPONSE));
            }
        }
        _ => items.push(shape_changed(old, new, o, n)),
    }
}

/// The item every response change is reported under.
const RESPONSE: &str = "response";

/// The response is another record: the wire verdict is that of its fields, as received.
fn record_replaced(old: &Api, new: &Api, a: &str, b: &str) -> Item {
    let of = old.record(a).map(|r| r.fields.as_slice()).unwrap_or(&[]);
    let nf = new.record(b).map(|r| r.fields.as_slice()).unwrap_or(&[]);
    let sub = fields::diff(old, new, of, nf, fields::Dirs::RECEIVED, "field");
    let wire = sub.iter().map(|i| i.wire).max().unwrap_or(Wire::Compatible);
    Item::new(
        RESPONSE,
        format!("response record changed from `{a}` to `{b}`"),
        Level::Major,
        wire,
    )
}

/// The response changed shape (raw JSON, nothing, inline fields, a record); `response`
/// handles the pairs of one shape.
fn shape_changed(old: &Api, new: &Api, o: &Response, n: &Response) -> Item {
    use Response as R;
    let (change, wire) = match (o, n) {
        (R::Unspecified { .. }, R::Fields { .. } | R::Record { .. }) => (
            format!(
                "response documented: `data` is {} instead of raw JSON",
                response_words(n)
            ),
            Wire::Compatible,
        ),
        (R::Fields { .. } | R::Record { .. }, R::Unspecified { .. }) => (
            format!(
                "response no longer documented: `data` is raw JSON instead of {}",
                response_words(o)
            ),
            Wire::Breaking,
        ),
        (R::Empty { .. }, _) => (
            format!("response now carries `data` ({})", response_words(n)),
            Wire::Compatible,
        ),
        (_, R::Empty { .. }) => (
            format!(
                "response no longer carries `data` (was {})",
                response_words(o)
            ),
            Wire::Breaking,
        ),
        // Inline fields to a record or back: the wire verdict is that of the fields.
        _ => {
            let of = response_fields(old, o);
            let nf = response_fields(new, n);
            let sub = fields::diff(old, new, of, nf, fields::Dirs::RECEIVED, "field");
            let wire = sub.iter().map(|i| i.wire).max().unwrap_or(Wire::Compatible);
            (
                format!(
                    "response changed from {} to {}",
                    response_words(o),
                    response_words(n)
                ),
                wire,
            )
        }
    };
    Item::new(RESPONSE, change, Level::Major, wire)
}

fn response_fields<'a>(api: &'a Api, r: &'a Response) -> &'a [crate::model::Field] {
    match r {
        Response::Fields { fields, .. } => fields,
        Response::Record { record, .. } => api
            .record(record)
            .map(|r| r.fields.as_slice())
            .unwrap_or(&[]),
        _ => &[],
    }
}

fn response_words(r: &Response) -> String {
    match r {
        Response::Fields { fields, .. } => format!("{} inline field(s)", fields.len()),
        Response::Record { received_name, .. } => format!("record `{received_name}`"),
        Response::Unspecified { .. } => "raw JSON".to_owned(),
        Response::Empty { .. } => "nothing".to_owned(),
    }
}

/// A constraint in words, by wire names only (what the service checks).
fn constraint(k: &ConstraintKind) -> String {
    let names = |f: &[crate::model::ParamRef]| {
        f.iter()
            .map(|p| format!("`{}`", p.wire_name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match k {
        ConstraintKind::RequiredIf { field, when } => {
            let cond = match when {
                Condition::Equals { field, value } => format!("`{}` = `{value}`", field.wire_name),
                Condition::SumGreaterThan { array, item, value } => format!(
                    "sum of `{}[].{}` > {value}",
                    array.wire_name, item.wire_name
                ),
            };
            format!("`{}` required when {cond}", field.wire_name)
        }
        ConstraintKind::AtLeastOneOf { fields } => format!("at least one of {}", names(fields)),
        ConstraintKind::ExactlyOneOf { fields } => format!("exactly one of {}", names(fields)),
        ConstraintKind::ServerSide { fields, text } => {
            format!("server-side on {}: {text}", fields.join(", "))
        }
    }
}
