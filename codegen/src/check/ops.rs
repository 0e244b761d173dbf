//! Building the whole API: top-level keys, groups and operations, constraints, responses,
//! and the checks that need everything at once (names, paths, decisions, record usage).

use std::collections::{BTreeMap, BTreeSet};

use super::collect::Collected;
use super::decisions::Decisions;
use super::declare::{type_name, Declarations};
use super::operations::{operations, Known, Operations};
use super::{at, names, Checker, Owner};
use crate::model::{self, Field, Location, Params, Requirement, Response, TypeRef};
use crate::spec_file::Spanned;

/// Checks the `name:` of a result code (the variant of the generated `ResultCode`):
/// UpperCamelCase, not a keyword, not `Unknown`, unique among the codes checked so far.
/// Returns the name as written (errors are recorded).
fn result_code_name(
    ck: &mut Checker,
    name: &Spanned<String>,
    code: &str,
    text: &str,
    earlier: &[model::ResultCode],
) -> String {
    let n = name.value.as_str();
    let hint = names::camel(text);
    let example = if names::is_upper_camel(&hint) && !names::is_keyword(&hint) && hint != "Unknown"
    {
        format!("`{hint}`")
    } else {
        "`InsufficientBalance`".to_owned()
    };
    if n.is_empty() {
        ck.error(
            &name.loc,
            format!("result code `{code}` has an empty name"),
            Some(format!(
                "name it in UpperCamelCase after its text, e.g. {example}: it becomes a variant of the generated `ResultCode`"
            )),
        );
    } else if n == "Unknown" {
        ck.error(
            &name.loc,
            format!("name `Unknown` of result code `{code}` is reserved"),
            Some(format!(
                "the generated `ResultCode` keeps unseen codes in `Unknown`; name this code otherwise, e.g. {example}"
            )),
        );
    } else if !names::is_upper_camel(n) || names::is_keyword(n) {
        let own = names::camel(n);
        let help = if names::is_upper_camel(&own) && !names::is_keyword(&own) && own != "Unknown" {
            format!("rename it, e.g. `{own}`")
        } else {
            format!("rename it to an UpperCamelCase identifier, e.g. {example}")
        };
        ck.error(
            &name.loc,
            format!("name `{n}` of result code `{code}` is not an UpperCamelCase Rust identifier"),
            Some(help),
        );
    } else if let Some(prev) = earlier.iter().find(|p| p.name == n) {
        ck.error(
            &name.loc,
            format!(
                "result code name `{n}` is used twice (also by `{}`)",
                prev.code
            ),
            Some(format!(
                "each code becomes its own variant of `ResultCode`; give `{code}` another name, e.g. `{n}Alias`"
            )),
        );
    }
    n.to_owned()
}

/// Builds the model; `None` when something essential is missing (errors are recorded).
pub(super) fn build(
    ck: &mut Checker,
    collected: &Collected<'_>,
    decisions: Decisions,
    declarations: Declarations<'_>,
) -> Option<model::Api> {
    let api = collected.api;
    let envelope = collected.envelope;

    let declared = &declarations.declared;
    let type_locs = &declared.types;
    let enum_defs = declarations.enums;
    let record_specs = declarations.records;
    let mut records = super::records::records(ck, declared, &collected.field_sets, &record_specs);
    let envelope_model = super::envelope::envelope(ck, declared, envelope);

    let known = Known {
        declared,
        records: &records,
    };
    let Operations {
        mut groups,
        otp_steps,
    } = operations(ck, known, collected);
    let all_ops: Vec<&model::Operation> = groups.iter().flat_map(|g| g.operations.iter()).collect();
    operation_names(ck, &all_ops, type_locs);
    shared_paths(ck, &all_ops, &decisions.list);
    usage(ck, &mut records.defs, &all_ops);
    shape_names(ck, &mut records.defs, &mut groups, type_locs);
    let otp_flow = super::otp::otp_flow(ck, &otp_steps, &groups);
    let all_ops: Vec<&model::Operation> = groups.iter().flat_map(|g| g.operations.iter()).collect();

    // Result codes.
    let mut codes: Vec<model::ResultCode> = Vec::new();
    for c in collected.result_codes.iter().copied() {
        let s = &c.value;
        ck.non_empty(&s.code, "result code");
        if codes.iter().any(|p| p.code == s.code.value) {
            ck.error(
                &s.code.loc,
                format!("result code `{}` is listed twice", s.code.value),
                Some("list each code once".into()),
            );
            continue;
        }
        let name = result_code_name(ck, &s.name, &s.code.value, &s.text, &codes);
        codes.push(model::ResultCode {
            code: s.code.value.clone(),
            name,
            text: s.text.clone(),
            source: s.source.map_or(model::Source::Seed, Into::into),
            retryable: s.retryable.unwrap_or(false),
        });
    }

    // Notifications.
    let op_names: Vec<&str> = all_ops.iter().map(|o| o.name.as_str()).collect();
    let mut notes: Vec<model::Notification> = Vec::new();
    for n in collected.notifications.iter().copied() {
        let s = &n.value;
        ck.non_empty(&s.notification_type, "notification type");
        if notes
            .iter()
            .any(|p| p.notification_type == s.notification_type.value)
        {
            ck.error(
                &s.notification_type.loc,
                format!(
                    "notification type `{}` is listed twice",
                    s.notification_type.value
                ),
                Some("list each notification type once".into()),
            );
        }
        if s.name.value == "Unknown" {
            ck.error(
                &s.name.loc,
                format!(
                    "notification name `Unknown` (type `{}`) is reserved",
                    s.notification_type.value
                ),
                Some("the generated `NotificationType` keeps unseen types in `Unknown`; name this notification after what it reports".into()),
            );
        } else if type_name(ck, &s.name, "notification")
            && notes.iter().any(|p| p.name == s.name.value)
        {
            ck.error(
                &s.name.loc,
                format!("notification name `{}` is used twice", s.name.value),
                Some("notification names are unique".into()),
            );
        }
        let mut relates = Vec::new();
        for r in s.relates_to.iter().flatten() {
            if !op_names.contains(&r.value.as_str()) {
                let help = match names::did_you_mean(&r.value, op_names.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => "name an operation defined under `operations:`".into(),
                };
                ck.error(
                    &r.loc,
                    format!(
                        "notification `{}` relates to unknown operation `{}`",
                        s.name.value, r.value
                    ),
                    Some(help),
                );
            }
            relates.push(r.value.clone());
        }
        notes.push(model::Notification {
            notification_type: s.notification_type.value.clone(),
            name: s.name.value.clone(),
            doc: s.doc.clone().unwrap_or_default(),
            relates_to: relates,
            payload_note: s
                .payload
                .as_ref()
                .map(|p| p.unspecified.clone())
                .unwrap_or_default(),
            source: s.source.map_or(model::Source::Seed, Into::into),
        });
    }

    // Decision references, now that every reference is collected.
    super::decisions::references(ck, &decisions);

    // The api header.
    let Some(api) = api else {
        let root = ck.root.clone();
        ck.error(
            &root,
            "no file defines `api:`",
            Some(
                "add `api:` with title, source_document and success_code (see spec/SCHEMA.md)"
                    .into(),
            ),
        );
        return None;
    };
    let a = &api.value;
    ck.non_empty(&a.title, "api title");
    ck.non_empty(&a.source_document, "api source_document");
    ck.non_empty(&a.success_code, "api success_code");
    if let Some(v) = &a.version {
        ck.non_empty(v, "api version");
    }
    if let Some(v) = &a.client_version {
        if model::Semver::parse(&v.value).is_none() {
            ck.error(
                &v.loc,
                format!("client_version `{}` is not MAJOR.MINOR.PATCH", v.value),
                Some(
                    "write three numbers, e.g. `client_version: \"1.4.0\"` (see spec/SCHEMA.md)"
                        .into(),
                ),
            );
        }
    }
    if let Some(m) = &a.method {
        if m.value != "POST" {
            ck.error(
                &m.loc,
                format!("method `{}` is not supported", m.value),
                Some("every endpoint is called with POST; write `method: POST`".into()),
            );
        }
    }
    if let Some(c) = &a.content_type {
        if c.value != "application/json" {
            ck.error(
                &c.loc,
                format!("content type `{}` is not supported", c.value),
                Some("the client sends JSON; write `content_type: application/json`".into()),
            );
        }
    }
    Some(model::Api {
        title: a.title.value.clone(),
        source_document: a.source_document.value.clone(),
        success_code: a.success_code.value.clone(),
        version: a
            .version
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        client_version: a
            .client_version
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_else(|| model::DEFAULT_CLIENT_VERSION.to_owned()),
        envelope: envelope_model?,
        result_codes: codes,
        groups,
        records: records.defs,
        enums: enum_defs,
        notifications: notes,
        decisions: decisions.list,
        otp_flow,
    })
}

fn operation_names(
    ck: &mut Checker,
    ops: &[&model::Operation],
    types: &BTreeMap<String, (String, Location)>,
) {
    let mut by_name: BTreeMap<&str, &Location> = BTreeMap::new();
    let mut by_method: BTreeMap<&str, (&str, &Location)> = BTreeMap::new();
    let mut type_names: BTreeMap<String, (String, Location)> = types.clone();
    for op in ops {
        if op.name.is_empty() {
            continue;
        }
        if let Some(prev) = by_name.get(op.name.as_str()) {
            let prev = at(prev);
            ck.error(
                &op.location,
                format!("operation `{}` is defined twice", op.name),
                Some(format!(
                    "first defined at {prev}; operation names are unique"
                )),
            );
            continue;
        }
        by_name.insert(&op.name, &op.location);
        if let Some((other, prev)) = by_method.get(op.rust_name.as_str()) {
            let prev = at(prev);
            ck.error(
                &op.location,
                format!(
                    "operations `{other}` and `{}` both become the Rust method `{}`",
                    op.name, op.rust_name
                ),
                Some(format!("rename one of them (the other is at {prev})")),
            );
            continue;
        }
        by_method.insert(&op.rust_name, (&op.name, &op.location));
        for suffix in ["Request", "Response"] {
            let t = format!("{}{suffix}", op.type_name);
            if let Some((kind, prev)) = type_names.get(&t) {
                let prev = at(prev);
                ck.error(
                    &op.location,
                    format!(
                        "the type `{t}` generated for operation `{}` collides with {kind} `{t}`",
                        op.name
                    ),
                    Some(format!("rename the operation or the other (at {prev})")),
                );
            } else {
                type_names.insert(
                    t,
                    (
                        format!(
                            "the {} type of operation `{}`, ",
                            suffix.to_lowercase(),
                            op.name
                        ),
                        op.location.clone(),
                    ),
                );
            }
        }
    }
}

fn about_names_path(about: &str, path: &str) -> bool {
    about
        .split_whitespace()
        .any(|t| t.trim_matches(|c: char| ",;:()`'\"".contains(c)) == path)
}

fn shared_paths(ck: &mut Checker, ops: &[&model::Operation], decisions: &[model::Decision]) {
    let mut by_path: BTreeMap<&str, Vec<&model::Operation>> = BTreeMap::new();
    for op in ops {
        by_path.entry(op.path.as_str()).or_default().push(op);
    }
    for (path, list) in by_path {
        if list.len() < 2 {
            continue;
        }
        let all: Vec<String> = list.iter().map(|o| format!("`{}`", o.name)).collect();
        for op in &list {
            let recorded = op.decisions.iter().any(|id| {
                decisions
                    .iter()
                    .any(|d| d.id == *id && about_names_path(&d.about, path))
            });
            if !recorded {
                ck.error(
                    &op.location,
                    format!("path `{path}` is shared by operations {} without a recorded decision on operation `{}`", all.join(", "), op.name),
                    Some(format!("list under this operation's `decisions:` a decision whose `about:` names `{path}`, saying why the path is shared")),
                );
            }
        }
    }
}

fn record_refs(t: &TypeRef, out: &mut Vec<String>) {
    match t {
        TypeRef::Record { name, .. } => out.push(name.clone()),
        TypeRef::Array { item } => record_refs(item, out),
        _ => {}
    }
}

/// Marks records used by requests and responses (transitively); request records may not
/// hold `required: conditional` fields.
fn usage(ck: &mut Checker, records: &mut [model::Record], ops: &[&model::Operation]) {
    let mut req = Vec::new();
    let mut resp = Vec::new();
    for op in ops {
        if let Params::Fields { fields } = &op.params {
            fields.iter().for_each(|f| record_refs(&f.ty, &mut req));
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
            ck.conditional_outside_operation(&r.fields, &Owner::Record(r.name.clone()));
        }
    }
}

/// Names the shapes of records and requests (`<Record>Received` for the received shape
/// of a record used in both directions, `<Type>Required` for the struct of required
/// fields), refuses those that collide with another generated type, and settles
/// `received_name` in every `TypeRef::Record`.
fn shape_names(
    ck: &mut Checker,
    records: &mut [model::Record],
    groups: &mut [model::Group],
    types: &BTreeMap<String, (String, Location)>,
) {
    let mut taken: BTreeMap<String, (String, Location)> = types.clone();
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        for suffix in ["Request", "Response"] {
            taken
                .entry(format!("{}{suffix}", op.type_name))
                .or_insert_with(|| {
                    (
                        format!("a type of operation `{}`,", op.name),
                        op.location.clone(),
                    )
                });
        }
    }
    let mut claim = |ck: &mut Checker, name: String, what: String, loc: &Location| {
        if let Some((kind, prev)) = taken.get(&name) {
            let prev = at(prev);
            ck.error(
                loc,
                format!("the type `{name}` generated for {what} collides with {kind} `{name}`"),
                Some(format!("rename one of them (the other is at {prev})")),
            );
        } else {
            taken.insert(
                name,
                (format!("the type generated for {what},"), loc.clone()),
            );
        }
    };
    let mut received: BTreeMap<String, String> = BTreeMap::new();
    for r in records.iter_mut() {
        r.received_name = if r.has_two_shapes() {
            let name = format!("{}Received", r.name);
            claim(
                ck,
                name.clone(),
                format!("the received shape of record `{}`", r.name),
                &r.location,
            );
            name
        } else {
            r.name.clone()
        };
        received.insert(r.name.clone(), r.received_name.clone());
        if r.used_in_request && r.fields.iter().any(|f| f.required == Requirement::Required) {
            claim(
                ck,
                format!("{}Required", r.name),
                format!("the required fields of record `{}`", r.name),
                &r.location,
            );
        }
    }
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        if let Params::Fields { fields } = &op.params {
            if fields.iter().any(|f| f.required == Requirement::Required) {
                claim(
                    ck,
                    format!("{}Required", op.type_name),
                    format!("the required parameters of operation `{}`", op.name),
                    &op.location,
                );
            }
        }
    }
    let settle = |fields: &mut [Field]| {
        for f in fields {
            settle_received(&mut f.ty, &received);
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
