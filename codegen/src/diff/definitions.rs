//! Changes of records and value sets, each named with the operations and notifications
//! that use it.

use std::collections::{BTreeMap, BTreeSet};

use super::{deprecation, docs_item, fields, pairs, Item, Level, Out, Pair, Scope, Wire};
use crate::model::{Api, EnumDef, Params, Record, Response, TypeRef};

/// Records reachable from some types (transitively), by name.
pub(super) fn reachable_records<'a>(
    api: &Api,
    types: impl Iterator<Item = &'a TypeRef>,
) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&TypeRef> = types.collect();
    while let Some(t) = todo.pop() {
        match t {
            TypeRef::Array { item } => todo.push(item),
            TypeRef::Record { name, .. } if seen.insert(name.clone()) => {
                if let Some(r) = api.record(name) {
                    todo.extend(r.fields.iter().map(|f| &f.ty));
                }
            }
            _ => {}
        }
    }
    seen
}

/// For each record and enum name: the operations whose params or response reach it, and
/// the notifications (`notification 0001`) whose payload does.
fn users(api: &Api) -> BTreeMap<String, BTreeSet<String>> {
    let mut map: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for op in api.operations() {
        let mut types: Vec<&TypeRef> = Vec::new();
        if let Params::Fields { fields } = &op.params {
            types.extend(fields.iter().map(|f| &f.ty));
        }
        let resp_record;
        match &op.response {
            Response::Fields { fields, .. } => types.extend(fields.iter().map(|f| &f.ty)),
            Response::Record {
                record,
                received_name,
                ..
            } => {
                resp_record = TypeRef::Record {
                    name: record.clone(),
                    received_name: received_name.clone(),
                };
                types.push(&resp_record);
            }
            _ => {}
        }
        add_user(&mut map, api, &types, &op.name);
    }
    for n in &api.notifications {
        if let Some(payload) = &n.payload {
            let record = TypeRef::Record {
                name: payload.record.clone(),
                received_name: payload.received_name.clone(),
            };
            let user = format!("notification {}", n.notification_type);
            add_user(&mut map, api, &[&record], &user);
        }
    }
    map
}

/// Records `user` for every record and enum that `types` reach.
fn add_user(
    map: &mut BTreeMap<String, BTreeSet<String>>,
    api: &Api,
    types: &[&TypeRef],
    user: &str,
) {
    let records = reachable_records(api, types.iter().copied());
    let mut all: Vec<&TypeRef> = types.to_vec();
    for r in &records {
        if let Some(rec) = api.record(r) {
            all.extend(rec.fields.iter().map(|f| &f.ty));
        }
    }
    let mut names = records;
    for t in all {
        let mut t = t;
        while let TypeRef::Array { item } = t {
            t = item;
        }
        if let TypeRef::Enum { name } = t {
            names.insert(name.clone());
        }
    }
    for name in names {
        map.entry(name).or_default().insert(user.to_owned());
    }
}

fn used_by(old: &Api, new: &Api, name: &str) -> Vec<String> {
    let mut all = BTreeSet::new();
    for api in [old, new] {
        if let Some(ops) = users(api).get(name) {
            all.extend(ops.iter().cloned());
        }
    }
    all.into_iter().collect()
}

/// The generated types of a record: (type name, "sent" | "received").
fn shapes(r: &Record) -> BTreeSet<(String, &'static str)> {
    let mut s = BTreeSet::new();
    if r.used_in_request {
        s.insert((r.name.clone(), "sent"));
    }
    if r.used_in_response || !r.used_in_request {
        s.insert((r.received_name.clone(), "received"));
    }
    s
}

/// Records and value sets: definitions of which each side has one per name, each
/// reported with the operations that use it.
trait Definition {
    /// The scope of its changes.
    const SCOPE: Scope;
    /// What it is called in a change (`record added`).
    const WHAT: &'static str;
    fn name(&self) -> &str;
}

impl Definition for Record {
    const SCOPE: Scope = Scope::Record;
    const WHAT: &'static str = "record";
    fn name(&self) -> &str {
        &self.name
    }
}

impl Definition for EnumDef {
    const SCOPE: Scope = Scope::Enum;
    const WHAT: &'static str = "value set";
    fn name(&self) -> &str {
        &self.name
    }
}

/// Pairs the definitions of both sides by name. One added is minor and one removed
/// major, wire-compatible both (only operations put them on the wire, and they report
/// their own changes); `compare` lists the changes of one on both sides.
fn definitions<T: Definition>(
    out: &mut Out,
    old: &Api,
    new: &Api,
    olds: &[T],
    news: &[T],
    mut compare: impl FnMut(&T, &T) -> Vec<Item>,
) {
    for pair in pairs(olds, news, |o, n| o.name() == n.name()) {
        let (name, items) = match pair {
            Pair::Added(n) => (
                n.name(),
                vec![Item::new(
                    "",
                    format!("{} added", T::WHAT),
                    Level::Minor,
                    Wire::Compatible,
                )],
            ),
            Pair::Kept(o, n) => (n.name(), compare(o, n)),
            Pair::Removed(o) => (
                o.name(),
                vec![Item::new(
                    "",
                    format!("{} removed", T::WHAT),
                    Level::Major,
                    Wire::Compatible,
                )],
            ),
        };
        out.push(T::SCOPE, name, &used_by(old, new, name), items);
    }
}

pub(super) fn records(out: &mut Out, old: &Api, new: &Api) {
    definitions(out, old, new, &old.records, &new.records, |o, n| {
        record(old, new, o, n)
    });
}

fn record(old: &Api, new: &Api, o: &Record, n: &Record) -> Vec<Item> {
    let mut items = Vec::new();
    let (os, ns) = (shapes(o), shapes(n));
    if os != ns {
        let words = |s: &BTreeSet<(String, &str)>| {
            s.iter()
                .map(|(t, d)| format!("`{t}` ({d})"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let lost = os.difference(&ns).count() > 0;
        items.push(Item::new(
            "",
            format!(
                "generated shapes changed from {} to {}",
                words(&os),
                words(&ns)
            ),
            if lost { Level::Major } else { Level::Minor },
            Wire::Compatible,
        ));
    }
    if o.doc != n.doc || o.source != n.source || o.decisions != n.decisions {
        items.push(docs_item(""));
    }
    let dirs = fields::Dirs {
        sent: o.used_in_request || n.used_in_request,
        received: o.used_in_response
            || n.used_in_response
            || !(o.used_in_request || n.used_in_request),
    };
    items.extend(fields::diff(old, new, &o.fields, &n.fields, dirs, "field"));
    items
}

// ---- enums ----

fn enum_in_requests(api: &Api, name: &str) -> bool {
    let mut types: Vec<&TypeRef> = Vec::new();
    for op in api.operations() {
        if let Params::Fields { fields } = &op.params {
            types.extend(fields.iter().map(|f| &f.ty));
        }
    }
    for r in api.records.iter().filter(|r| r.used_in_request) {
        types.extend(r.fields.iter().map(|f| &f.ty));
    }
    types.into_iter().any(|mut t| {
        while let TypeRef::Array { item } = t {
            t = item;
        }
        matches!(t, TypeRef::Enum { name: e } if e == name)
    })
}

pub(super) fn enums(out: &mut Out, old: &Api, new: &Api) {
    definitions(out, old, new, &old.enums, &new.enums, |o, n| {
        enum_values(old, o, n)
    });
}

fn enum_values(old: &Api, o: &EnumDef, n: &EnumDef) -> Vec<Item> {
    let mut items = Vec::new();
    if o.wire_type != n.wire_type {
        items.push(Item::new(
            "",
            format!(
                "wire type changed from {:?} to {:?}",
                o.wire_type, n.wire_type
            )
            .to_lowercase(),
            Level::Patch,
            Wire::Breaking,
        ));
    }
    if o.open != n.open {
        // Open: requests may carry any value (a constructor of unlisted values is added,
        // and a value no longer refused by the type); closed again takes that away.
        items.push(Item::new(
            "",
            if n.open {
                "opened: requests may carry a value it does not list".to_owned()
            } else {
                "closed: requests may no longer carry a value it does not list".to_owned()
            },
            if n.open { Level::Minor } else { Level::Major },
            Wire::Compatible,
        ));
    }
    if o.doc != n.doc || o.source != n.source || o.decisions != n.decisions {
        items.push(docs_item(""));
    }
    let in_requests = enum_in_requests(old, &o.name);
    for nv in &n.values {
        match o.values.iter().find(|ov| ov.wire == nv.wire) {
            Some(ov) => {
                let item = format!("{} ({})", nv.name, nv.wire);
                if ov.name != nv.name {
                    items.push(Item::new(
                        &item,
                        format!("variant renamed from `{}` to `{}`", ov.name, nv.name),
                        Level::Major,
                        Wire::Compatible,
                    ));
                }
                deprecation(&mut items, &item, "value", &ov.deprecated, &nv.deprecated);
                if ov.doc != nv.doc || ov.source != nv.source {
                    items.push(docs_item(&item));
                }
            }
            None => match o
                .values
                .iter()
                .find(|ov| ov.name == nv.name && !n.values.iter().any(|v| v.wire == ov.wire))
            {
                Some(ov) => items.push(
                    Item::new(
                        &nv.name,
                        format!("wire value changed from `{}` to `{}`", ov.wire, nv.wire),
                        Level::Patch,
                        Wire::Breaking,
                    )
                    .signing(),
                ),
                None => items.push(Item::new(
                    &format!("{} ({})", nv.name, nv.wire),
                    "value added (non-exhaustive enum; older clients read it as `Unknown`)",
                    Level::Minor,
                    Wire::Compatible,
                )),
            },
        }
    }
    for ov in &o.values {
        let gone = !n
            .values
            .iter()
            .any(|v| v.wire == ov.wire || v.name == ov.name);
        if gone {
            items.push(
                Item::new(
                    &format!("{} ({})", ov.name, ov.wire),
                    if in_requests {
                        "value removed (requests sending it are refused)"
                    } else {
                        "value removed"
                    },
                    Level::Major,
                    if in_requests {
                        Wire::Breaking
                    } else {
                        Wire::Compatible
                    },
                )
                .removal(&ov.deprecated),
            );
        }
    }
    items
}
