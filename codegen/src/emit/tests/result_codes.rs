//! `ResultCode` and `NotificationType`: the spec's codes and notifications as enums.

use super::*;

/// `result_codes:` and `notifications:` become enums of the `enums` module, emitted by
/// the one enum emitter and sorted among the spec's own enums, with their helpers; the
/// crate root re-exports them and links its lists to their variants.
#[test]
fn result_codes_and_notifications_are_enums() {
    let mut api = sample_api();
    api.notifications.push(Notification {
        notification_type: "0028".into(),
        name: "ThingDone".into(),
        doc: "A thing [done]".into(),
        relates_to: vec!["applyForThing".into()],
        payload_note: "not shown".into(),
        payload: None,
        source: Source::Seed,
    });
    let text = crate::pipeline::single_file(&api, "x").expect("emits");
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("no `{needle}` in:\n{text}"))
    };
    // Sorted by name among the spec's enums: Kind < NotificationType < ResultCode < TxStatus.
    assert!(at("pub enum Kind") < at("pub enum NotificationType"));
    assert!(at("pub enum NotificationType") < at("pub enum ResultCode"));
    assert!(at("pub enum ResultCode") < at("pub enum TxStatus"));
    // What every generated string enum has.
    for name in ["ResultCode", "NotificationType"] {
        at(&format!("impl std::str::FromStr for {name}"));
        assert!(!text.contains(&format!("impl From<&str> for {name}")));
        at(&format!("impl serde::Serialize for {name}"));
        at(&format!("impl std::fmt::Display for {name}"));
    }
    at("\"10001\" => ResultCode::SystemBusy,");
    at("pub fn from_error(error: &baas_runtime::Error) -> Option<ResultCode>");
    at("pub const RETRYABLE_CODES: &'static [&'static str] = &[\"10001\"];");
    // Variant docs: the service's text as a sentence, provenance, retryability, the related
    // client method (spec text escaped).
    at("/// Busy. Wire value: `10001`.");
    at("May be retried.");
    at("A thing \\[done\\]");
    at("[`Client::apply_for_thing`](super::client::Client::apply_for_thing)");

    // One public path: the codes live in `enums` only.
    let files = crate::pipeline::rust_crate(&api).expect("emits");
    assert!(!files[1].contents.contains("pub use enums::"));

    // Nothing listed, nothing emitted (and nothing re-exported).
    api.result_codes.clear();
    api.notifications.clear();
    let text = crate::pipeline::single_file(&api, "x").expect("emits");
    assert!(!text.contains("ResultCode") && !text.contains("NotificationType"));
}

/// With no retryable code, `is_retryable` still compiles (an empty list) and says so.
#[test]
fn no_retryable_code_means_never_retryable() {
    let mut api = sample_api();
    for c in &mut api.result_codes {
        c.retryable = false;
    }
    let text = crate::pipeline::single_file(&api, "x").expect("emits");
    assert!(
        text.contains("pub const RETRYABLE_CODES: &'static [&'static str] = &[];"),
        "{text}"
    );
    assert!(
        text.contains("No result code of the spec is retryable"),
        "{text}"
    );
}
