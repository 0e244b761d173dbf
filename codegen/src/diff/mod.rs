//! `baas-codegen diff`: compares two checked models and classifies every change twice.
//!
//! - **Rust** ([`Level`]): what the change does to code written against the generated
//!   crate, by Cargo's semver rules and the shape of the generated API (required fields
//!   named in a `<Name>Required` struct literal, optional ones by setters, one shape per
//!   direction, `#[non_exhaustive]` structs and enums with an opaque `Unknown`).
//! - **wire** ([`Wire`]): whether a request the service accepted before is refused now,
//!   or a response field partners read may be missing or different.
//!
//! Each change also says whether it changes the signed string (a renamed wire name, a
//! moved field, a changed enum wire value, the envelope) and whether it removes something
//! that was not deprecated first. The verdict table is in `codegen/DIFF.md`.
//!
//! Comparing is pure: [`compare`] reads two models and returns a [`Report`]; [`source`]
//! loads a side from a folder or a git revision, [`render`] prints Markdown and JSON,
//! [`gate`] checks the version bump and the changelog.

pub mod gate;
pub mod render;
pub mod source;

mod fields;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::model::{
    Api, Condition, ConstraintKind, EnumDef, Operation, Params, Record, Response, TypeRef,
};

/// What a change does to code written against the generated crate (Cargo's semver).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Nothing a caller can see but documentation (or behaviour inside a call).
    Patch,
    /// Additions: code that compiled still compiles.
    Minor,
    /// Code that compiled may not compile any more.
    Major,
}

/// The largest Rust verdict of a report: the version bump it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bump {
    /// Nothing changed.
    None,
    Patch,
    Minor,
    Major,
}

impl From<Level> for Bump {
    fn from(l: Level) -> Bump {
        match l {
            Level::Patch => Bump::Patch,
            Level::Minor => Bump::Minor,
            Level::Major => Bump::Major,
        }
    }
}

impl std::fmt::Display for Bump {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        })
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Bump::from(*self).fmt(f)
    }
}

/// What a change does on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wire {
    /// Requests accepted before are still accepted; responses carry what they carried.
    Compatible,
    /// A request accepted before may be refused now, or a response field partners read
    /// may be missing or different.
    Breaking,
}

impl std::fmt::Display for Wire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Wire::Compatible => "compatible",
            Wire::Breaking => "breaking",
        })
    }
}

/// What part of the API a change is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Operation,
    Record,
    Enum,
    ResultCodes,
    Notifications,
    Envelope,
    Decisions,
    Api,
}

/// One classified change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The operation's name when the change is about an operation, else `None`.
    pub operation: Option<String>,
    /// What kind of thing `name` is.
    pub scope: Scope,
    /// The operation, record or enum (empty for the envelope, decisions and the api).
    pub name: String,
    /// The field, value, code, ... inside it (empty when the change is about the whole).
    pub item: String,
    /// What changed, in words (`optional parameter became required`).
    pub change: String,
    pub rust: Level,
    pub wire: Wire,
    /// The change alters the signed string (a wire name, where a field sits, a value).
    pub signing: bool,
    /// Something is removed that was not deprecated first.
    pub removed_without_deprecation: bool,
    /// For records and enums: the operations (of either side) whose params or response
    /// reach it, sorted.
    pub used_by: Vec<String>,
}

/// Versions of one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Versions {
    /// `api.client_version`.
    pub client_version: String,
    /// `api.version`.
    pub api_version: String,
}

/// Every change from one model to another.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub bump: Bump,
    pub old: Versions,
    pub new: Versions,
    pub changes: Vec<Change>,
}

impl Report {
    /// Whether some change is wire-breaking.
    pub fn wire_breaking(&self) -> bool {
        self.changes.iter().any(|c| c.wire == Wire::Breaking)
    }
}

/// A change before its scope is attached.
pub(crate) struct Item {
    pub item: String,
    pub change: String,
    pub rust: Level,
    pub wire: Wire,
    pub signing: bool,
    pub removed_without_deprecation: bool,
}

impl Item {
    pub(crate) fn new(item: &str, change: impl Into<String>, rust: Level, wire: Wire) -> Item {
        Item {
            item: item.to_owned(),
            change: change.into(),
            rust,
            wire,
            signing: false,
            removed_without_deprecation: false,
        }
    }

    pub(crate) fn signing(mut self) -> Item {
        self.signing = true;
        self
    }

    /// Marks a removal of something whose `deprecated` was `None`.
    pub(crate) fn removal(mut self, deprecated: &Option<String>) -> Item {
        self.removed_without_deprecation = deprecated.is_none();
        self
    }
}

struct Out {
    changes: Vec<Change>,
}

impl Out {
    fn push(&mut self, scope: Scope, name: &str, used_by: &[String], items: Vec<Item>) {
        for i in items {
            self.changes.push(Change {
                operation: (scope == Scope::Operation).then(|| name.to_owned()),
                scope: scope.clone(),
                name: name.to_owned(),
                item: i.item,
                change: i.change,
                rust: i.rust,
                wire: i.wire,
                signing: i.signing,
                removed_without_deprecation: i.removed_without_deprecation,
                used_by: used_by.to_vec(),
            });
        }
    }
}

/// Compares two checked models.
pub fn compare(old: &Api, new: &Api) -> Report {
    let mut out = Out {
        changes: Vec::new(),
    };
    operations(&mut out, old, new);
    records(&mut out, old, new);
    enums(&mut out, old, new);
    result_codes(&mut out, old, new);
    notifications(&mut out, old, new);
    envelope(&mut out, old, new);
    decisions(&mut out, old, new);
    otp_flow(&mut out, old, new);
    api_header(&mut out, old, new);
    let bump = out
        .changes
        .iter()
        .map(|c| Bump::from(c.rust))
        .max()
        .unwrap_or(Bump::None);
    Report {
        bump,
        old: versions(old),
        new: versions(new),
        changes: out.changes,
    }
}

fn versions(api: &Api) -> Versions {
    Versions {
        client_version: api.client_version.clone(),
        api_version: api.version.clone(),
    }
}

// ---- operations ----

fn operations(out: &mut Out, old: &Api, new: &Api) {
    let olds: Vec<&Operation> = old.operations().collect();
    let news: Vec<&Operation> = new.operations().collect();
    let mut matched_old = BTreeSet::new();
    let mut pairs: Vec<(Option<&Operation>, Option<&Operation>)> = Vec::new();
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
        if let Some(o) = o {
            matched_old.insert(o.name.clone());
        }
        pairs.push((o, Some(n)));
    }
    for o in &olds {
        if !matched_old.contains(&o.name) {
            pairs.push((Some(o), None));
        }
    }
    for pair in pairs {
        match pair {
            (None, Some(n)) => out.push(
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
            (Some(o), None) => out.push(
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
            (Some(o), Some(n)) => {
                let items = operation(old, new, o, n);
                out.push(Scope::Operation, &n.name, &[], items);
            }
            (None, None) => {}
        }
    }
}

fn operation(old: &Api, new: &Api, o: &Operation, n: &Operation) -> Vec<Item> {
    let mut items = Vec::new();
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
    deprecation(&mut items, "", "operation", &o.deprecated, &n.deprecated);
    if o.doc != n.doc || o.source != n.source || o.decisions != n.decisions {
        items.push(docs_item(""));
    }
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
    helpers(&mut items, o, n);
    // Parameters.
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
            moved_fields(old, new, o, n, &mut items);
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
    // Constraints.
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
    // Response.
    response(old, new, &o.response, &n.response, &mut items);
    items
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
    let pending = |op: &Operation| op.business_id.clone();
    let until = |op: &Operation| {
        op.final_states
            .as_ref()
            .map(|f| serde_json::to_string(f).unwrap_or_default())
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
fn otp_flow(out: &mut Out, old: &Api, new: &Api) {
    let key = |api: &Api| {
        api.otp_flow
            .as_ref()
            .map(|f| serde_json::to_string(f).unwrap_or_default())
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

fn response(old: &Api, new: &Api, o: &Response, n: &Response, items: &mut Vec<Item>) {
    use Response as R;
    let item = "response";
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
                items.push(docs_item(item));
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
                // Another record: the wire verdict is that of its fields, as received.
                let of = old.record(a).map(|r| r.fields.as_slice()).unwrap_or(&[]);
                let nf = new.record(b).map(|r| r.fields.as_slice()).unwrap_or(&[]);
                let sub = fields::diff(old, new, of, nf, fields::Dirs::RECEIVED, "field");
                let wire = sub.iter().map(|i| i.wire).max().unwrap_or(Wire::Compatible);
                items.push(Item::new(
                    item,
                    format!("response record changed from `{a}` to `{b}`"),
                    Level::Major,
                    wire,
                ));
            } else if sa != sb {
                items.push(docs_item(item));
            }
            // Changes inside the record are reported under the record.
        }
        (R::Unspecified { note: a }, R::Unspecified { note: b })
        | (R::Empty { note: a }, R::Empty { note: b }) => {
            if a != b {
                items.push(docs_item(item));
            }
        }
        (R::Unspecified { .. }, R::Fields { .. } | R::Record { .. }) => items.push(Item::new(
            item,
            format!(
                "response documented: `data` is {} instead of raw JSON",
                response_words(n)
            ),
            Level::Major,
            Wire::Compatible,
        )),
        (R::Fields { .. } | R::Record { .. }, R::Unspecified { .. }) => items.push(Item::new(
            item,
            format!(
                "response no longer documented: `data` is raw JSON instead of {}",
                response_words(o)
            ),
            Level::Major,
            Wire::Breaking,
        )),
        (R::Empty { .. }, _) => items.push(Item::new(
            item,
            format!("response now carries `data` ({})", response_words(n)),
            Level::Major,
            Wire::Compatible,
        )),
        (_, R::Empty { .. }) => items.push(Item::new(
            item,
            format!(
                "response no longer carries `data` (was {})",
                response_words(o)
            ),
            Level::Major,
            Wire::Breaking,
        )),
        (R::Fields { .. }, R::Record { .. }) | (R::Record { .. }, R::Fields { .. }) => {
            let of = response_fields(old, o);
            let nf = response_fields(new, n);
            let sub = fields::diff(old, new, of, nf, fields::Dirs::RECEIVED, "field");
            let wire = sub.iter().map(|i| i.wire).max().unwrap_or(Wire::Compatible);
            items.push(Item::new(
                item,
                format!(
                    "response changed from {} to {}",
                    response_words(o),
                    response_words(n)
                ),
                Level::Major,
                wire,
            ));
        }
    }
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

pub(crate) fn docs_item(item: &str) -> Item {
    Item::new(
        item,
        "documentation changed",
        Level::Patch,
        Wire::Compatible,
    )
}

pub(crate) fn deprecation(
    items: &mut Vec<Item>,
    item: &str,
    what: &str,
    o: &Option<String>,
    n: &Option<String>,
) {
    match (o, n) {
        (None, Some(note)) => items.push(Item::new(
            item,
            format!("{what} deprecated: {note}"),
            Level::Minor,
            Wire::Compatible,
        )),
        (Some(_), None) => items.push(Item::new(
            item,
            format!("{what} no longer deprecated"),
            Level::Minor,
            Wire::Compatible,
        )),
        (Some(a), Some(b)) if a != b => items.push(docs_item(item)),
        _ => {}
    }
}

// ---- records ----

/// Records reachable from some types (transitively), by name.
fn reachable_records<'a>(api: &Api, types: impl Iterator<Item = &'a TypeRef>) -> BTreeSet<String> {
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

/// For each record and enum name: the operations whose params or response reach it.
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
        let records = reachable_records(api, types.iter().copied());
        let mut all: Vec<&TypeRef> = types.clone();
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
            map.entry(name).or_default().insert(op.name.clone());
        }
    }
    map
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
    for n in news {
        let items = match olds.iter().find(|o| o.name() == n.name()) {
            Some(o) => compare(o, n),
            None => vec![Item::new(
                "",
                format!("{} added", T::WHAT),
                Level::Minor,
                Wire::Compatible,
            )],
        };
        out.push(T::SCOPE, n.name(), &used_by(old, new, n.name()), items);
    }
    for o in olds
        .iter()
        .filter(|o| !news.iter().any(|n| n.name() == o.name()))
    {
        let removed = Item::new(
            "",
            format!("{} removed", T::WHAT),
            Level::Major,
            Wire::Compatible,
        );
        out.push(
            T::SCOPE,
            o.name(),
            &used_by(old, new, o.name()),
            vec![removed],
        );
    }
}

fn records(out: &mut Out, old: &Api, new: &Api) {
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

fn enums(out: &mut Out, old: &Api, new: &Api) {
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

// ---- the rest ----

fn result_codes(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for n in &new.result_codes {
        match old.result_codes.iter().find(|o| o.code == n.code) {
            None => items.push(Item::new(
                &n.code,
                format!("result code added (`ResultCode::{}`)", n.name),
                Level::Minor,
                Wire::Compatible,
            )),
            Some(o) => {
                if o.name != n.name {
                    items.push(Item::new(
                        &n.code,
                        format!("variant renamed from `{}` to `{}`", o.name, n.name),
                        Level::Major,
                        Wire::Compatible,
                    ));
                }
                if o.retryable != n.retryable {
                    items.push(Item::new(
                        &n.code,
                        if n.retryable {
                            "now retryable"
                        } else {
                            "no longer retryable"
                        },
                        Level::Patch,
                        Wire::Compatible,
                    ));
                }
                if o.text != n.text || o.source != n.source {
                    items.push(docs_item(&n.code));
                }
            }
        }
    }
    for o in &old.result_codes {
        if !new.result_codes.iter().any(|n| n.code == o.code) {
            items.push(Item::new(
                &o.code,
                format!("result code removed (`ResultCode::{}`)", o.name),
                Level::Major,
                Wire::Compatible,
            ));
        }
    }
    out.push(Scope::ResultCodes, "", &[], items);
}

fn notifications(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for n in &new.notifications {
        let t = &n.notification_type;
        match old.notifications.iter().find(|o| &o.notification_type == t) {
            None => items.push(Item::new(
                t,
                format!("notification added (`NotificationType::{}`)", n.name),
                Level::Minor,
                Wire::Compatible,
            )),
            Some(o) => {
                if o.name != n.name {
                    items.push(Item::new(
                        t,
                        format!("variant renamed from `{}` to `{}`", o.name, n.name),
                        Level::Major,
                        Wire::Compatible,
                    ));
                }
                if o.doc != n.doc
                    || o.relates_to != n.relates_to
                    || o.payload_note != n.payload_note
                    || o.source != n.source
                {
                    items.push(docs_item(t));
                }
            }
        }
    }
    for o in &old.notifications {
        let t = &o.notification_type;
        if !new.notifications.iter().any(|n| &n.notification_type == t) {
            items.push(Item::new(
                t,
                format!("notification removed (`NotificationType::{}`)", o.name),
                Level::Major,
                Wire::Compatible,
            ));
        }
    }
    out.push(Scope::Notifications, "", &[], items);
}

/// The envelope is the runtime's: a change of it changes what is signed and sent for
/// every operation, not the generated types.
fn envelope(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for (of, nf, dirs, what) in [
        (
            &old.envelope.request,
            &new.envelope.request,
            fields::Dirs::SENT,
            "request envelope field",
        ),
        (
            &old.envelope.response,
            &new.envelope.response,
            fields::Dirs::RECEIVED,
            "response envelope field",
        ),
    ] {
        for mut i in fields::diff(old, new, of, nf, dirs, what) {
            if i.change != "documentation changed" {
                i.rust = Level::Patch;
                i.signing = true;
                i.wire = Wire::Breaking;
            }
            items.push(i);
        }
    }
    out.push(Scope::Envelope, "", &[], items);
}

fn decisions(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for n in &new.decisions {
        match old.decision(&n.id) {
            None => items.push(Item::new(
                &n.id,
                "decision recorded",
                Level::Patch,
                Wire::Compatible,
            )),
            Some(o)
                if (&o.about, &o.source_text, &o.decision, &o.reason)
                    != (&n.about, &n.source_text, &n.decision, &n.reason) =>
            {
                items.push(Item::new(
                    &n.id,
                    "decision changed",
                    Level::Patch,
                    Wire::Compatible,
                ))
            }
            Some(_) => {}
        }
    }
    for o in &old.decisions {
        if new.decision(&o.id).is_none() {
            items.push(Item::new(
                &o.id,
                "decision removed",
                Level::Patch,
                Wire::Compatible,
            ));
        }
    }
    out.push(Scope::Decisions, "", &[], items);
}

fn api_header(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    if old.title != new.title || old.source_document != new.source_document {
        items.push(docs_item("api"));
    }
    if old.success_code != new.success_code {
        items.push(Item::new(
            "success_code",
            format!(
                "success code changed from `{}` to `{}`",
                old.success_code, new.success_code
            ),
            Level::Patch,
            Wire::Breaking,
        ));
    }
    out.push(Scope::Api, "", &[], items);
}
