//! Unit tests of the emitter on a model built in code (the front end is not needed).

use super::*;
use crate::model::*;
use crate::rules::RuleKind;

fn loc() -> Location {
    Location {
        file: "test.yaml".to_owned(),
        line: 1,
        column: 1,
    }
}

fn rule(kind: RuleKind) -> Rule {
    Rule {
        kind,
        source: Source::Seed,
        doc: String::new(),
        location: loc(),
    }
}

fn field(wire: &str, rust: &str, ty: TypeRef, required: Requirement, rules: Vec<Rule>) -> Field {
    Field {
        wire_name: wire.to_owned(),
        rust_name: rust.to_owned(),
        ty,
        required,
        doc: format!("The {wire} [field]."),
        rules,
        source: Source::Seed,
        decisions: Vec::new(),
        deprecated: None,
        location: loc(),
    }
}

fn num(mantissa: i64, scale: u32) -> Number {
    Number { mantissa, scale }
}

/// A resolved parameter reference.
fn pref(wire: &str, rust: &str, optional: bool, text: bool) -> ParamRef {
    ParamRef {
        wire_name: wire.to_owned(),
        rust_name: rust.to_owned(),
        optional,
        text,
    }
}

fn rec(name: &str, received: &str) -> TypeRef {
    TypeRef::Record {
        name: name.to_owned(),
        received_name: received.to_owned(),
    }
}

fn value(wire: &str, name: &str, doc: &str, source: Source, integer: Option<i64>) -> EnumValue {
    EnumValue {
        wire: wire.into(),
        name: name.into(),
        doc: doc.into(),
        source,
        integer,
        deprecated: None,
    }
}

fn constraint(kind: ConstraintKind) -> Constraint {
    Constraint {
        kind,
        source: Source::Live,
        doc: String::new(),
        decisions: Vec::new(),
        location: loc(),
    }
}

fn op(
    name: &str,
    rust: &str,
    ty: &str,
    params: Params,
    constraints: Vec<Constraint>,
    response: Response,
) -> Operation {
    Operation {
        name: name.to_owned(),
        rust_name: rust.to_owned(),
        type_name: ty.to_owned(),
        path: format!("/t/{name}"),
        group: "trans".to_owned(),
        doc: "Does a thing.".to_owned(),
        source: Source::Seed,
        moves_money: true,
        otp: true,
        params,
        constraints,
        response,
        decisions: vec!["d1".to_owned()],
        deprecated: None,
        paging: None,
        business_id: None,
        final_states: None,
        settled_by: None,
        location: loc(),
    }
}

/// A model touching every emitter feature.
pub(crate) fn sample_api() -> Api {
    use Requirement::*;
    let amount = TypeRef::Decimal {
        wire: DecimalWire::String,
    };
    let order = Record {
        name: "OrderItem".to_owned(),
        doc: "An order item.".to_owned(),
        source: Source::Seed,
        fields: vec![
            field(
                "productName",
                "product_name",
                TypeRef::String,
                Required,
                vec![rule(RuleKind::MaxChars { max: 10 })],
            ),
            field(
                "amount",
                "amount",
                amount.clone(),
                Required,
                vec![
                    rule(RuleKind::Positive),
                    rule(RuleKind::DecimalPlaces { places: 2 }),
                ],
            ),
            field(
                "qty",
                "qty",
                TypeRef::Int,
                Optional,
                vec![rule(RuleKind::Range {
                    min: Some(num(1, 0)),
                    max: Some(num(99, 0)),
                })],
            ),
        ],
        decisions: Vec::new(),
        used_in_request: true,
        used_in_response: true,
        received_name: "OrderItemReceived".to_owned(),
        location: loc(),
    };
    let detail = Record {
        name: "Detail".to_owned(),
        doc: "A detail.".to_owned(),
        source: Source::Docs,
        fields: vec![
            field(
                "orders",
                "orders",
                TypeRef::Array {
                    item: Box::new(rec("OrderItem", "OrderItemReceived")),
                },
                Optional,
                vec![],
            ),
            field(
                "status",
                "status",
                TypeRef::Enum {
                    name: "TxStatus".into(),
                },
                Optional,
                vec![],
            ),
            field(
                "fee",
                "fee",
                TypeRef::Decimal {
                    wire: DecimalWire::Number,
                },
                Optional,
                vec![],
            ),
        ],
        decisions: Vec::new(),
        used_in_request: false,
        used_in_response: true,
        received_name: "Detail".to_owned(),
        location: loc(),
    };
    let apply = op(
        "applyForThing",
        "apply_for_thing",
        "ApplyForThing",
        Params::Fields {
            fields: vec![
                field(
                    "type",
                    "r#type",
                    TypeRef::Enum {
                        name: "Kind".into(),
                    },
                    Required,
                    vec![rule(RuleKind::OneOf {
                        values: vec!["1".into()],
                    })],
                ),
                field(
                    "oderArray",
                    "oder_array",
                    TypeRef::Array {
                        item: Box::new(rec("OrderItem", "OrderItemReceived")),
                    },
                    Required,
                    vec![
                        rule(RuleKind::MaxItems { max: 3 }),
                        rule(RuleKind::MinItems { min: 1 }),
                    ],
                ),
                field(
                    "countryCode",
                    "country_code",
                    TypeRef::String,
                    Conditional,
                    vec![rule(RuleKind::Alphanumeric)],
                ),
                field(
                    "invoice",
                    "invoice",
                    TypeRef::String,
                    Conditional,
                    vec![rule(RuleKind::Base64MaxBytes { max: 100 })],
                ),
                field(
                    "userId",
                    "user_id",
                    TypeRef::String,
                    Conditional,
                    vec![rule(RuleKind::MinChars { min: 1 })],
                ),
                field("mobile", "mobile", TypeRef::String, Conditional, vec![]),
                field(
                    "total",
                    "total",
                    TypeRef::Decimal {
                        wire: DecimalWire::Number,
                    },
                    Optional,
                    vec![
                        rule(RuleKind::Range {
                            min: Some(num(1, 2)),
                            max: Some(num(9_999_999_999, 2)),
                        }),
                        rule(RuleKind::Whole),
                    ],
                ),
                field(
                    "pageSize",
                    "page_size",
                    TypeRef::Long,
                    Optional,
                    vec![
                        rule(RuleKind::Range {
                            min: Some(num(-1, 0)),
                            max: None,
                        }),
                        rule(RuleKind::Positive),
                    ],
                ),
                field(
                    "tags",
                    "tags",
                    TypeRef::Array {
                        item: Box::new(TypeRef::String),
                    },
                    Optional,
                    vec![
                        rule(RuleKind::MaxChars { max: 5 }),
                        rule(RuleKind::ServerSide {
                            text: "known tags".into(),
                        }),
                    ],
                ),
                field("extra", "extra", TypeRef::Json, Optional, vec![]),
                field("flag", "flag", TypeRef::Bool, Optional, vec![]),
            ],
        },
        vec![
            constraint(ConstraintKind::RequiredIf {
                field: pref("countryCode", "country_code", true, true),
                when: Condition::Equals {
                    field: pref("type", "r#type", false, false),
                    value: "1".into(),
                },
            }),
            constraint(ConstraintKind::RequiredIf {
                field: pref("invoice", "invoice", true, true),
                when: Condition::SumGreaterThan {
                    array: pref("oderArray", "oder_array", false, false),
                    item: pref("amount", "amount", false, false),
                    value: num(70000, 0),
                },
            }),
            constraint(ConstraintKind::AtLeastOneOf {
                fields: vec![
                    pref("userId", "user_id", true, true),
                    pref("mobile", "mobile", true, true),
                ],
            }),
            constraint(ConstraintKind::ExactlyOneOf {
                fields: vec![
                    pref("userId", "user_id", true, true),
                    pref("mobile", "mobile", true, true),
                ],
            }),
            constraint(ConstraintKind::ServerSide {
                fields: vec!["mobile".into()],
                text: "must exist".into(),
            }),
        ],
        Response::Record {
            record: "Detail".into(),
            received_name: "Detail".into(),
            source: Source::Seed,
        },
    );
    let raw = op(
        "rawThing",
        "raw_thing",
        "RawThing",
        Params::Unspecified {
            note: "not shown".into(),
        },
        vec![],
        Response::Unspecified {
            note: "not shown".into(),
        },
    );
    let empty = op(
        "emptyThing",
        "empty_thing",
        "EmptyThing",
        Params::Fields { fields: vec![] },
        vec![],
        Response::Empty {
            note: "code and msg".into(),
        },
    );
    let inline = op(
        "inlineThing",
        "inline_thing",
        "InlineThing",
        Params::Fields {
            fields: vec![field(
                "status",
                "status",
                TypeRef::Enum {
                    name: "TxStatus".into(),
                },
                Optional,
                vec![],
            )],
        },
        vec![constraint(ConstraintKind::RequiredIf {
            field: pref("status", "status", true, false),
            when: Condition::Equals {
                field: pref("status", "status", true, false),
                value: "-1".into(),
            },
        })],
        Response::Fields {
            fields: vec![field(
                "balances",
                "balances",
                TypeRef::Array {
                    item: Box::new(TypeRef::Decimal {
                        wire: DecimalWire::String,
                    }),
                },
                Optional,
                vec![],
            )],
            source: Source::Live,
        },
    );
    Api {
        title: "Test API".to_owned(),
        source_document: "test.md".to_owned(),
        success_code: "00000".to_owned(),
        version: String::new(),
        client_version: "0.1.0".to_owned(),
        envelope: Envelope {
            request: vec![],
            response: vec![],
        },
        result_codes: vec![
            ResultCode {
                code: "00000".into(),
                name: "Success".into(),
                text: "ok".into(),
                source: Source::Seed,
                retryable: false,
            },
            ResultCode {
                code: "10001".into(),
                name: "SystemBusy".into(),
                text: "busy".into(),
                source: Source::Live,
                retryable: true,
            },
        ],
        groups: vec![Group {
            name: "trans".into(),
            doc: "Transfers.".into(),
            operations: vec![apply, raw, empty, inline],
        }],
        records: vec![detail, order],
        enums: vec![
            EnumDef {
                name: "Kind".into(),
                wire_type: EnumWireType::String,
                open: false,
                doc: "Kind <x>.".into(),
                source: Source::Seed,
                values: vec![
                    value("1", "Individual", "A person", Source::Seed, None),
                    value("2", "Enterprise", "A company", Source::Seed, None),
                ],
                decisions: vec![],
                location: loc(),
            },
            EnumDef {
                name: "TxStatus".into(),
                wire_type: EnumWireType::Integer,
                open: false,
                doc: "Status.".into(),
                source: Source::Live,
                values: vec![
                    value("-1", "Timeout", "timeout", Source::Live, Some(-1)),
                    value("8", "Succeeded", "done", Source::Live, Some(8)),
                ],
                decisions: vec![],
                location: loc(),
            },
        ],
        notifications: vec![],
        decisions: vec![Decision {
            id: "d1".into(),
            about: "/t/applyForThing".into(),
            source_text: "x".into(),
            decision: "Do y.".into(),
            reason: "Because.".into(),
        }],
        otp_flow: None,
    }
}

#[test]
fn whole_crate_emits_and_parses() {
    let files = crate::pipeline::rust_crate(&sample_api()).expect("emits");
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "Cargo.toml",
            "src/lib.rs",
            "src/enums.rs",
            "src/records.rs",
            "src/trans.rs",
            "src/client.rs",
            "src/call.rs",
            "src/decisions.rs",
            "src/dispatch.rs"
        ]
    );
    for f in &files {
        assert!(
            f.contents.starts_with("// @generated") || f.contents.starts_with("# @generated"),
            "{}",
            f.path
        );
    }
    let trans = &files[4].contents;
    assert!(
        trans.contains("#[serde(rename = \"oderArray\")]"),
        "{trans}"
    );
    assert!(trans.contains("pub r#type: super::enums::Kind"), "{trans}");
    // A `one_of` rule checks the value set's wire text against its list.
    assert!(
        trans.contains("v.one_of(at.field(\"type\"), self.r#type.as_str(), &[\"1\"]);"),
        "{trans}"
    );
    assert!(trans.contains("deny_unknown_fields"), "{trans}");
    // Required fields by name, no positional constructor.
    assert!(
        trans.contains("pub struct ApplyForThingRequired {"),
        "{trans}"
    );
    assert!(
        trans.contains("pub fn new(required: ApplyForThingRequired) -> Self"),
        "{trans}"
    );
    // One shape per direction: the sent record is validated with plain required fields,
    // the received one is all options.
    let records = &files[3].contents;
    assert!(records.contains("pub struct OrderItem {"), "{records}");
    assert!(
        records.contains("pub struct OrderItemReceived {"),
        "{records}"
    );
    assert!(
        records.contains("pub struct OrderItemRequired {"),
        "{records}"
    );
    assert!(
        trans.contains("pub oder_array: Vec<super::records::OrderItem>,"),
        "{trans}"
    );
    // What only a server needs is behind the feature.
    let lib = &files[1].contents;
    assert!(
        lib.contains("#[cfg(feature = \"server\")]\npub mod dispatch;"),
        "{lib}"
    );
    assert!(lib.contains("mod client;") && lib.contains("pub use client::Client;"));
    assert!(files[0].contents.contains("server = []"));
    // The library path is explicit: the workspace loads even with src/ deleted, so the
    // regenerate command still runs.
    assert!(files[0].contents.contains("[lib]"), "{}", files[0].contents);
    assert!(files[0].contents.contains("path = \"src/lib.rs\""));
}

/// `deprecated:` notes become `#[deprecated]` on the operation's request and method, on
/// fields (and their setters), and on enum values; the generated crate allows its own
/// uses of them.
#[test]
fn deprecations_are_attributes() {
    let mut api = sample_api();
    api.groups[0].operations[0].deprecated = Some("use getThing".into());
    if let Params::Fields { fields } = &mut api.groups[0].operations[0].params {
        fields[2].deprecated = Some("use `type`".into());
    }
    api.enums[0].values[1].deprecated = Some("no longer offered".into());
    let text = crate::pipeline::single_file(&api, "x").expect("emits");
    assert_eq!(
        text.matches("#[deprecated(note = \"use getThing\")]")
            .count(),
        2,
        "{text}"
    );
    // The field, its setter and the call's setter.
    assert_eq!(
        text.matches("#[deprecated(note = \"use `type`\")]").count(),
        3,
        "{text}"
    );
    assert!(
        text.contains("#[deprecated(note = \"no longer offered\")]\n        Enterprise,"),
        "{text}"
    );
    assert!(text.contains("#![allow(deprecated)]"), "{text}");
}

#[test]
fn output_is_deterministic() {
    let a = crate::pipeline::single_file(&sample_api(), "x").expect("emits");
    let b = crate::pipeline::single_file(&sample_api(), "x").expect("emits");
    assert_eq!(a, b);
    if let Ok(dir) = std::env::var("BAAS_EMIT_DUMP") {
        std::fs::write(format!("{dir}/sample.rs"), a).expect("dump");
    }
}

/// The sample crate written to a folder: every file carries the header, and a second
/// sync finds nothing to change. `BAAS_EMIT_CRATE_DUMP=<dir>` keeps it there (to compile
/// it by hand); otherwise a temporary folder is used and removed.
#[test]
fn the_sample_crate_writes_and_then_is_up_to_date() {
    let kept = std::env::var("BAAS_EMIT_CRATE_DUMP").ok();
    let dir = kept.clone().map_or_else(
        || std::env::temp_dir().join(format!("baas-emit-sample-{}", std::process::id())),
        std::path::PathBuf::from,
    );
    let files = crate::pipeline::rust_crate(&sample_api()).expect("emits");
    let written = crate::write::sync(&dir, &files, crate::write::Mode::Write).expect("writes");
    assert_eq!(written.len(), files.len(), "a fresh folder gets every file");
    for file in &files {
        let text = std::fs::read_to_string(dir.join(&file.path)).expect("written");
        assert_eq!(text, file.contents);
        assert!(text.starts_with("// @generated") || text.starts_with("# @generated"));
    }
    let again = crate::write::sync(&dir, &files, crate::write::Mode::Check).expect("reads");
    assert!(again.is_empty(), "{again:?}");
    if kept.is_none() {
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}

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
