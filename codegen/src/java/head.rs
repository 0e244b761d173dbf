//! The head pieces of generated classes that call the client (`Client`, `AsyncClient`,
//! `Pending`): their methods' Javadoc. Below `client` and `otp`, which both use them.

use super::names::{doc_paragraphs, javadoc};
use crate::plan::Doc;
use crate::text::Out;

/// A method's Javadoc: the plan's paragraphs, then `tags`, the deprecation last (and the
/// `@Deprecated` annotation).
pub fn method_doc(out: &mut Out, doc: &Doc, tags: &[String]) {
    let mut p = doc_paragraphs(doc);
    p.retain(|x| !x.starts_with("@deprecated"));
    let mut all = tags.to_vec();
    if let Some(note) = &doc.deprecated {
        all.push(format!("@deprecated {}", javadoc(note)));
    }
    p.push(all.join("\n"));
    out.block_doc(&p, 92);
    if doc.deprecated.is_some() {
        out.line("@Deprecated");
    }
}
