//! Pass 1, collect: the top-level items of every decoded file.
//!
//! A key naming one thing (`api:`, `envelope:`) is taken from the first file defining it.
//! A list key (`enums:`, `records:`, ...) gathers the items of every file defining it:
//! checking all of them shows every real problem instead of a cascade of unknown names.
//! Either way, every definition of a top-level key after the first is reported.

use super::{at, Checker};
use crate::spec_file::{
    ApiSpec, DecisionSpec, EnumSpec, EnvelopeSpec, FieldSetSpec, NotificationSpec, RecordSpec,
    ResultCodeSpec, Spanned, SpecFile, TopLevel,
};

/// The spec's top-level items. Later passes may rely on: each list holds the items of
/// every file in path order, and a second definition of any key is already reported.
pub(super) struct Collected<'a> {
    /// `api:` of the first file defining it.
    pub api: Option<&'a TopLevel<ApiSpec>>,
    /// `envelope:` of the first file defining it.
    pub envelope: Option<&'a TopLevel<EnvelopeSpec>>,
    pub result_codes: Vec<&'a Spanned<ResultCodeSpec>>,
    pub notifications: Vec<&'a Spanned<NotificationSpec>>,
    pub decisions: Vec<&'a Spanned<DecisionSpec>>,
    pub enums: Vec<&'a Spanned<EnumSpec>>,
    pub records: Vec<&'a Spanned<RecordSpec>>,
    pub field_sets: Vec<&'a Spanned<FieldSetSpec>>,
    /// Every file, for the groups and operations each declares (the operations pass
    /// checks `group:` with its `operations:` file by file).
    pub files: &'a [SpecFile],
}

/// Collects the top-level items of `files` (in path order).
pub(super) fn collect<'a>(ck: &mut Checker, files: &'a [SpecFile]) -> Collected<'a> {
    let api = every(ck, files, "api", |f| f.api.as_ref()).first().copied();
    let envelope = every(ck, files, "envelope", |f| f.envelope.as_ref())
        .first()
        .copied();
    let result_codes = items(every(ck, files, "result_codes", |f| {
        f.result_codes.as_ref()
    }));
    let notifications = items(every(ck, files, "notifications", |f| {
        f.notifications.as_ref()
    }));
    let decisions = items(every(ck, files, "decisions", |f| f.decisions.as_ref()));
    let enums = items(every(ck, files, "enums", |f| f.enums.as_ref()));
    let records = items(every(ck, files, "records", |f| f.records.as_ref()));
    let field_sets = items(every(ck, files, "field_sets", |f| f.field_sets.as_ref()));
    Collected {
        api,
        envelope,
        result_codes,
        notifications,
        decisions,
        enums,
        records,
        field_sets,
        files,
    }
}

/// Every definition of a top-level key, in file order; each one after the first is an
/// error.
fn every<'a, T>(
    ck: &mut Checker,
    files: &'a [SpecFile],
    key: &str,
    get: impl Fn(&'a SpecFile) -> Option<&'a TopLevel<T>>,
) -> Vec<&'a TopLevel<T>> {
    let mut all: Vec<&'a TopLevel<T>> = Vec::new();
    for t in files.iter().filter_map(get) {
        if let Some(prev) = all.first() {
            ck.error(
                &t.key,
                format!("top-level key `{key}` is defined in two files"),
                Some(format!(
                    "it is first defined at {}; keep all of `{key}` in one file",
                    at(&prev.key)
                )),
            );
        }
        all.push(t);
    }
    all
}

/// The items of every definition of a list key, in order.
fn items<T>(defs: Vec<&TopLevel<Vec<Spanned<T>>>>) -> Vec<&Spanned<T>> {
    defs.into_iter().flat_map(|d| d.value.iter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{checker, errors, files};

    #[test]
    fn one_thing_keys_come_from_the_first_file_and_list_keys_from_all() {
        let files = files(&[
            (
                "s/a.yaml",
                "enums:\n  - { name: A, wire_type: string, values: [{ wire: a, name: A }] }\n",
            ),
            (
                "s/b.yaml",
                "enums:\n  - { name: B, wire_type: string, values: [{ wire: b, name: B }] }\n",
            ),
            (
                "s/c.yaml",
                "api: { title: t, source_document: d, success_code: \"0\" }\n",
            ),
            (
                "s/d.yaml",
                "api: { title: u, source_document: d, success_code: \"0\" }\n",
            ),
        ]);
        let mut ck = checker();
        let c = collect(&mut ck, &files);
        let names: Vec<&str> = c
            .enums
            .iter()
            .map(|e| e.value.name.value.as_str())
            .collect();
        assert_eq!(names, ["A", "B"]);
        assert_eq!(c.api.map(|a| a.value.title.value.as_str()), Some("t"));
        assert!(c.envelope.is_none() && c.records.is_empty());
        assert_eq!(
            errors(&ck),
            [
                "s/d.yaml:1:1: top-level key `api` is defined in two files",
                "s/b.yaml:1:1: top-level key `enums` is defined in two files",
            ]
        );
    }
}
