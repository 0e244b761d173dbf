//! Pass 7, shapes: which direction uses each record (transitively, through requests and
//! responses), the name of each generated shape (`<Record>Received` for the received
//! shape of a record used both ways, `<Type>Required` for a struct of required fields),
//! and `received_name` settled in every record reference.

use std::collections::{BTreeMap, BTreeSet};

use super::records::Records;
use super::{at, Checker, Owner};
use crate::model::{self, Field, Location, Params, Requirement, Response, TypeRef};

/// Records and operations with their shapes settled. Later passes may rely on: every
/// record's `used_in_request`, `used_in_response` and `received_name` are final, as is
/// the `received_name` of every `TypeRef::Record` and `Response::Record`; no generated
/// shape name collides with another generated type.
pub(super) struct Shaped {
    pub records: Vec<model::Record>,
    pub groups: Vec<model::Group>,
    pub notifications: Vec<model::Notification>,
}

/// Settles the shapes of `records` as the operations of `groups` use them; `types` are
/// the declared type names.
pub(super) fn shapes(
    ck: &mut Checker,
    records: Records,
    mut groups: Vec<model::Group>,
    mut notifications: Vec<model::Notification>,
    types: &BTreeMap<String, (String, Location)>,
) -> Shaped {
    let mut records = records.defs;
    usage(ck, &mut records, &groups, &notifications);
    let received = shape_names(ck, &mut records, &groups, types);
    settle(&mut records, &mut groups, &received);
    for n in &mut notifications {
        if let Some(p) = &mut n.payload {
            if let Some(r) = received.get(p.record.as_str()) {
                p.received_name.clone_from(r);
            }
        }
    }
    Shaped {
        records,
        groups,
        notifications,
    }
}

fn record_refs(t: &TypeRef, out: &mut Vec<String>) {
    match t {
        TypeRef::Record { name, .. } => out.push(name.clone()),
        TypeRef::Array { item } => record_refs(item, out),
        _ => {}
    }
}

/// Marks records used by requests and responses (transitively; a notification's payload
/// is received like a response); request records may not hold `required: conditional`
/// fields, and nothing sent may be a `scalar` (a type for what is received).
fn usage(
    ck: &mut Checker,
    records: &mut [model::Record],
    groups: &[model::Group],
    notifications: &[model::Notification],
) {
    let mut req = Vec::new();
    let mut resp: Vec<String> = notifications
        .iter()
        .filter_map(|n| n.payload.as_ref().map(|p| p.record.clone()))
        .collect();
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        if let Params::Fields { fields } = &op.params {
            fields.iter().for_each(|f| record_refs(&f.ty, &mut req));
            no_scalar_sent(ck, fields, &Owner::Operation(op.name.clone()));
        }
        match &op.response {
            Response::Fields { fields, .. } => {
                fields.iter().for_each(|f| record_refs(&f.ty, &mut resp))
            }
            Response::Record { record, .. } => resp.push(record.clone()),
            _ => {}
        }
    }
    let closure = |mut todo: Vec<String>, records: &[model::Record]| {
        let mut seen = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if seen.insert(n.clone()) {
                if let Some(r) = records.iter().find(|r| r.name == n) {
                    r.fields.iter().for_each(|f| record_refs(&f.ty, &mut todo));
                }
            }
        }
        seen
    };
    let req = closure(req, records);
    let resp = closure(resp, records);
    for r in records.iter_mut() {
        r.used_in_request = req.contains(&r.name);
        r.used_in_response = resp.contains(&r.name);
        if r.used_in_request {
            conditional_outside_operation(ck, &r.fields, &Owner::Record(r.name.clone()));
            no_scalar_sent(ck, &r.fields, &Owner::Record(r.name.clone()));
        }
    }
}

/// A `scalar` is a received value whose JSON type is not shown; what the client sends has
/// a type.
fn no_scalar_sent(ck: &mut Checker, fields: &[Field], owner: &Owner) {
    for f in fields {
        let scalar = match &f.ty {
            TypeRef::Scalar => true,
            TypeRef::Array { item } => **item == TypeRef::Scalar,
            _ => false,
        };
        if scalar {
            ck.error(
                &f.location,
                format!(
                    "field `{}` of {owner} is sent, but `scalar` is for received values only",
                    f.wire_name
                ),
                Some("give a sent field its type (`string`, `int`, `decimal`, ...)".into()),
            );
        }
    }
}

/// Only operation parameters have constraints, so only they may be
/// `required: conditional`.
fn conditional_outside_operation(ck: &mut Checker, fields: &[Field], owner: &Owner) {
    for f in fields {
        if f.required == Requirement::Conditional {
            ck.error(
                &f.location,
                format!(
                    "field `{}` of {owner} is `required: conditional`, but only operation parameters have constraints",
                    f.wire_name
                ),
                Some("make it `required: false` and describe the condition in `doc:`".into()),
            );
        }
    }
}

/// The generated type names taken so far, with what took each and where.
struct Taken(BTreeMap<String, (String, Location)>);

impl Taken {
    /// Takes `name` for `what`; a name already taken is reported.
    fn claim(&mut self, ck: &mut Checker, name: String, what: String, loc: &Location) {
        if let Some((kind, prev)) = self.0.get(&name) {
            let prev = at(prev);
            ck.error(
                loc,
                format!("the type `{name}` generated for {what} collides with {kind} `{name}`"),
                Some(format!("rename one of them (the other is at {prev})")),
            );
        } else {
            self.0.insert(
                name,
                (format!("the type generated for {what},"), loc.clone()),
            );
        }
    }
}

/// Names the shapes of records and requests, refusing those that collide with another
/// generated type; gives each record's received name.
fn shape_names(
    ck: &mut Checker,
    records: &mut [model::Record],
    groups: &[model::Group],
    types: &BTreeMap<String, (String, Location)>,
) -> BTreeMap<String, String> {
    let mut taken = Taken(types.clone());
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        for suffix in ["Request", "Response"] {
            taken
                .0
                .entry(format!("{}{suffix}", op.type_name))
                .or_insert_with(|| {
                    (
                        format!("a type of operation `{}`,", op.name),
                        op.location.clone(),
                    )
                });
        }
    }
    let mut received: BTreeMap<String, String> = BTreeMap::new();
    for r in records.iter_mut() {
        r.received_name = if r.has_two_shapes() {
            let name = format!("{}Received", r.name);
            let what = format!("the received shape of record `{}`", r.name);
            taken.claim(ck, name.clone(), what, &r.location);
            name
        } else {
            r.name.clone()
        };
        received.insert(r.name.clone(), r.received_name.clone());
        if r.used_in_request && r.fields.iter().any(|f| f.required == Requirement::Required) {
            let what = format!("the required fields of record `{}`", r.name);
            taken.claim(ck, format!("{}Required", r.name), what, &r.location);
        }
    }
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        if let Params::Fields { fields } = &op.params {
            if fields.iter().any(|f| f.required == Requirement::Required) {
                let what = format!("the required parameters of operation `{}`", op.name);
                taken.claim(ck, format!("{}Required", op.type_name), what, &op.location);
            }
        }
    }
    received
}

/// Settles `received_name` in every record reference (`received`: record → its name).
fn settle(
    records: &mut [model::Record],
    groups: &mut [model::Group],
    received: &BTreeMap<String, String>,
) {
    let settle = |fields: &mut [Field]| {
        for f in fields {
            settle_received(&mut f.ty, received);
        }
    };
    for r in records.iter_mut() {
        settle(&mut r.fields);
    }
    for op in groups.iter_mut().flat_map(|g| g.operations.iter_mut()) {
        if let Params::Fields { fields } = &mut op.params {
            settle(fields);
        }
        match &mut op.response {
            Response::Fields { fields, .. } => settle(fields),
            Response::Record {
                record,
                received_name,
                ..
            } => {
                if let Some(r) = received.get(record.as_str()) {
                    received_name.clone_from(r);
                }
            }
            _ => {}
        }
    }
}

fn settle_received(ty: &mut TypeRef, received: &BTreeMap<String, String>) {
    match ty {
        TypeRef::Record {
            name,
            received_name,
        } => {
            if let Some(r) = received.get(name) {
                received_name.clone_from(r);
            }
        }
        TypeRef::Array { item } => settle_received(item, received),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{errors, run};

    fn check(ops_yaml: &str) -> (Shaped, Vec<String>) {
        let mut ran = run(&format!("group: g\noperations:\n{ops_yaml}"), false);
        let before = ran.ck.errors.len();
        let shaped = shapes(
            &mut ran.ck,
            ran.records,
            ran.groups,
            Vec::new(),
            &ran.declared.types,
        );
        (shaped, errors(&ran.ck).split_off(before))
    }

    #[test]
    fn records_used_both_ways_get_a_received_shape() {
        let (shaped, errors) = check(
            "  - { name: put, path: /put, params: [{ name: items, type: \"array<Item>\" }], response: { record: Item } }
  - { name: get, path: /get, params: [], response: { fields: [{ name: detail, type: Detail }] } }
",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let item = shaped
            .records
            .iter()
            .find(|r| r.name == "Item")
            .expect("Item");
        assert!(item.used_in_request && item.used_in_response);
        assert_eq!(item.received_name, "ItemReceived");
        let detail = shaped
            .records
            .iter()
            .find(|r| r.name == "Detail")
            .expect("Detail");
        assert!(!detail.used_in_request && detail.used_in_response);
        assert_eq!(detail.received_name, "Detail");
        let put = &shaped.groups[0].operations[0];
        let Response::Record { received_name, .. } = &put.response else {
            panic!("{:?}", put.response);
        };
        assert_eq!(received_name, "ItemReceived");
        let Params::Fields { fields } = &put.params else {
            panic!("{:?}", put.params);
        };
        assert_eq!(
            fields[0].ty,
            TypeRef::Array {
                item: Box::new(TypeRef::Record {
                    name: "Item".into(),
                    received_name: "ItemReceived".into()
                })
            }
        );
    }

    #[test]
    fn generated_shape_names_do_not_collide() {
        let (_, errors) = check(
            "  - { name: item, path: /item, params: [{ name: items, type: \"array<Item>\", required: true }], response: { empty: e } }
",
        );
        assert_eq!(
            errors,
            ["s/t.yaml:3:5: the type `ItemRequired` generated for the required parameters of operation `item` collides with the type generated for the required fields of record `Item`, `ItemRequired`"]
        );
    }
}
