//! What any object of the document may carry besides its schema: its description and
//! the `x-baas-…` marks of provenance, decisions and deprecation.

use serde_json::{json, Map, Value};

use crate::model::Source;

pub(super) fn source_text(source: Source) -> &'static str {
    source.spec_word()
}

/// Adds `x-baas-source` unless the fact is the source document's own.
pub(super) fn put_source(map: &mut Map<String, Value>, source: Source) {
    if source != Source::Seed {
        map.insert("x-baas-source".into(), json!(source_text(source)));
    }
}

pub(super) fn put_decisions(map: &mut Map<String, Value>, decisions: &[String]) {
    if !decisions.is_empty() {
        map.insert("x-baas-decisions".into(), json!(decisions));
    }
}

pub(super) fn put_deprecated(map: &mut Map<String, Value>, note: Option<&String>) {
    if let Some(note) = note {
        map.insert("deprecated".into(), json!(true));
        map.insert("x-baas-deprecated".into(), json!(note));
    }
}

pub(super) fn put_doc(map: &mut Map<String, Value>, doc: &str) {
    if !doc.is_empty() {
        map.insert("description".into(), json!(doc));
    }
}
