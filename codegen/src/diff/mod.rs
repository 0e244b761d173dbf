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

mod api_wide;
mod definitions;
mod fields;
mod operations;

use serde::Serialize;

use crate::model::Api;

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

pub(crate) struct Out {
    changes: Vec<Change>,
}

impl Out {
    pub(crate) fn push(&mut self, scope: Scope, name: &str, used_by: &[String], items: Vec<Item>) {
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
    operations::operations(&mut out, old, new);
    definitions::records(&mut out, old, new);
    definitions::enums(&mut out, old, new);
    api_wide::result_codes(&mut out, old, new);
    api_wide::notifications(&mut out, old, new);
    api_wide::envelope(&mut out, old, new);
    api_wide::decisions(&mut out, old, new);
    operations::otp_flow(&mut out, old, new);
    api_wide::api_header(&mut out, old, new);
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

/// One element of two sides paired by key (see [`pairs`]).
pub(crate) enum Pair<'a, T> {
    /// Only in the new side.
    Added(&'a T),
    /// In both: the old one, then the new one.
    Kept(&'a T, &'a T),
    /// Only in the old side.
    Removed(&'a T),
}

/// Pairs the elements of both sides: every new element in order (added, or kept with
/// the old element `same` matches), then the old elements no new one matched, in order.
pub(crate) fn pairs<'a, T>(
    olds: &'a [T],
    news: &'a [T],
    same: impl Fn(&T, &T) -> bool,
) -> Vec<Pair<'a, T>> {
    let mut out: Vec<Pair<'a, T>> = news
        .iter()
        .map(|n| match olds.iter().find(|o| same(o, n)) {
            Some(o) => Pair::Kept(o, n),
            None => Pair::Added(n),
        })
        .collect();
    out.extend(
        olds.iter()
            .filter(|o| !news.iter().any(|n| same(o, n)))
            .map(Pair::Removed),
    );
    out
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
