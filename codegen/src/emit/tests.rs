//! Unit tests of the Rust renderer on a model built in code (planned by `plan::build`,
//! then emitted; the front end is not needed).

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
fn pref(wire: &str, rust: &str, optional: bool, empty: Option<Emptiness>) -> ParamRef {
    ParamRef {
        wire_name: wire.to_owned(),
        rust_name: rust.to_owned(),
        optional,
        empty,
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
                    TypeRef::Document,
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
                field: pref("countryCode", "country_code", true, Some(Emptiness::Text)),
                when: Condition::Equals {
                    field: pref("type", "r#type", false, None),
                    value: "1".into(),
                },
            }),
            constraint(ConstraintKind::RequiredIf {
                field: pref("invoice", "invoice", true, Some(Emptiness::Document)),
                when: Condition::SumGreaterThan {
                    array: pref("oderArray", "oder_array", false, None),
                    item: pref("amount", "amount", false, None),
                    value: num(70000, 0),
                },
            }),
            constraint(ConstraintKind::AtLeastOneOf {
                fields: vec![
                    pref("userId", "user_id", true, Some(Emptiness::Text)),
                    pref("mobile", "mobile", true, Some(Emptiness::Text)),
                ],
            }),
            constraint(ConstraintKind::ExactlyOneOf {
                fields: vec![
                    pref("userId", "user_id", true, Some(Emptiness::Text)),
                    pref("mobile", "mobile", true, Some(Emptiness::Text)),
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
            field: pref("status", "status", true, None),
            when: Condition::Equals {
                field: pref("status", "status", true, None),
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

/// `ResultCode` and `NotificationType`.
mod result_codes;
/// Docs: decisions, constructors, the crate root's first call.
mod rustdoc;
