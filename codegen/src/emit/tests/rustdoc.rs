//! The emitted docs: decisions written once and linked, constructors, the crate root's
//! first call and what must not compile.

use super::*;
use crate::emit::docs;

/// A decision is written in full once, at the root; the items it concerns link to it,
/// unless it marks more than a few items: then the crate root lists it once instead.
#[test]
fn decisions_are_written_once_and_linked() {
    let mut api = sample_api();
    api.decisions.push(Decision {
        id: "d2".into(),
        about: "one field".into(),
        source_text: "x".into(),
        decision: "Do z.".into(),
        reason: "For once.".into(),
    });
    if let Params::Fields { fields } = &mut api.groups[0].operations[0].params {
        fields[0].decisions.push("d2".to_owned());
    }
    let text = crate::pipeline::single_file(&api, "x").expect("emits");
    assert_eq!(text.matches("For once.").count(), 1, "{text}");
    assert!(text.contains("## Decision `d2`"), "{text}");
    assert_eq!(
        text.matches("[`d2`](super::decisions#decision-d2)").count(),
        1,
        "{text}"
    );
    // Every operation of the sample carries d1: listed once at the root, on no item.
    assert!(crate::plan::build(&api)
        .decision("d1")
        .is_some_and(|d| d.blanket));
    assert!(
        !text.contains("[`d1`](super::decisions#decision-d1)"),
        "{text}"
    );
    let files = crate::pipeline::rust_crate(&api).expect("emits");
    let root = files
        .iter()
        .find(|f| f.path == "src/lib.rs")
        .expect("a crate root");
    assert!(root.contents.contains("[`d1`](decisions#decision-d1)"));
    let decisions = files
        .iter()
        .find(|f| f.path == "src/decisions.rs")
        .expect("a decisions module");
    assert!(decisions.contents.contains("## Decision `d1`"));
    assert!(decisions.contents.contains("**Why:** Because."));
    assert!(
        !files[1].contents.contains("Because."),
        "the crate root stays short"
    );
    assert_eq!(
        docs::decision_anchor("Sme.Status shapes"),
        "decision-smestatus-shapes"
    );
}

/// Constructor docs read as English whatever the type name ("A `ApplyFor...`" did not).
#[test]
fn constructor_docs_have_no_article_before_the_type_name() {
    let text = crate::pipeline::single_file(&sample_api(), "x").expect("emits");
    assert!(!text.contains("/// A `"), "{text}");
    assert!(text.contains("/// Builds `"), "{text}");
}

/// The crate docs show a first call and, as a `compile_fail` doc test, the same request
/// without a required field.
#[test]
fn crate_docs_prove_a_missing_required_field_does_not_compile() {
    let mut api = sample_api();
    // No sample operation has only plain required fields: add one.
    api.groups[0].operations.push(op(
        "getThing",
        "get_thing",
        "GetThing",
        Params::Fields {
            fields: vec![
                field("id", "id", TypeRef::String, Requirement::Required, vec![]),
                field("page", "page", TypeRef::Int, Requirement::Required, vec![]),
            ],
        },
        vec![],
        Response::Unspecified {
            note: String::new(),
        },
    ));
    let lib = &crate::pipeline::rust_crate(&api).expect("emits")[1];
    let text = &lib.contents;
    let ok = text.find("//! ```no_run").expect("a first call example");
    let fail = text
        .find("//! ```compile_fail")
        .expect("a compile_fail example");
    assert!(ok < fail, "{text}");
    let line = |from: usize, needle: &str| {
        text[from..]
            .lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle}"))
            .to_owned()
    };
    let block = |from: usize| {
        let rest = &text[from..];
        rest[..rest.find("//! ```\n").expect("a closed block")].to_owned()
    };
    let (with, without) = (block(ok), block(fail));
    // The call takes the required fields' struct literal itself.
    assert!(
        line(ok, "let response = ")
            .contains("client.get_thing(baas_client::trans::GetThingRequired {"),
        "{with}"
    );
    assert!(with.contains(".send().await?;"), "{with}");
    assert!(
        line(fail, "let request = ")
            .contains("GetThingRequest::from(baas_client::trans::GetThingRequired {"),
        "{without}"
    );
    assert!(with.contains("//!     id: \"...\".into(),"), "{with}");
    assert!(with.contains("//!     page: 1,"), "{with}");
    assert!(without.contains("id: \"...\".into(),"), "{without}");
    assert!(!without.contains("page: 1,"), "{without}");
    assert!(
        text.contains("//! ```compile_fail,E0063"),
        "a missing field is E0063"
    );
}

/// Spec text reaches rustdoc as partner text, as in every SDK: a file partners do not have
/// is named by what it is.
#[test]
fn spec_text_is_partner_text() {
    let mut api = sample_api();
    api.records[0].doc = "Seen in public-facts.md,\n  twice.".to_owned();
    let text = crate::pipeline::single_file(&api, "x").expect("emits");
    assert!(
        text.contains("Seen in the public documentation, twice."),
        "{text}"
    );
    assert!(!text.contains("public-facts.md"), "{text}");
}
