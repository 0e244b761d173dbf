//! `baas-codegen diff`: one fixture per kind of change, each with both verdicts (Rust and
//! wire), the signing and deprecation flags; then the Markdown, the JSON, the gate and the
//! command line.
//!
//! Every case starts from the spec in `tests/fixtures/bad_specs/_base` and edits its text
//! (an exact, unique piece of one file replaced), on the new side and, where the case needs
//! it, on the old side too.

use std::path::{Path, PathBuf};

use baas_codegen::diff::{self, gate, render, Bump, Change, Report};
use baas_codegen::{check_sources, model::Api};

#[path = "diff/cli.rs"]
mod cli;
#[path = "diff/client_helpers.rs"]
mod client_helpers;

fn base_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/bad_specs/_base")
}

/// The base spec as `(spec/<path>, text)`.
fn base() -> Vec<(String, String)> {
    let dir = base_dir();
    let mut files = Vec::new();
    for name in ["api.yaml", "types.yaml", "operations/transfers.yaml"] {
        let text = std::fs::read_to_string(dir.join(name)).expect("base file");
        files.push((format!("spec/{name}"), text));
    }
    files
}

/// `(file stem, exact text, replacement)`: `api`, `types` or `transfers`.
type Edit = (&'static str, &'static str, &'static str);

fn edited(edits: &[Edit]) -> Api {
    let mut files = base();
    for (file, from, to) in edits {
        let (_, text) = files
            .iter_mut()
            .find(|(n, _)| n.ends_with(&format!("{file}.yaml")))
            .expect("file of the edit");
        assert_eq!(
            text.matches(from).count(),
            1,
            "`{from}` must occur once in {file}"
        );
        *text = text.replacen(from, to, 1);
    }
    match check_sources("spec", &files) {
        Ok(c) => c.api,
        Err(d) => panic!("edited spec does not check:\n{d}"),
    }
}

fn report(old: &[Edit], new: &[Edit]) -> Report {
    diff::compare(&edited(old), &edited(new))
}

/// One expected change: scope name (operation, record, enum; `""` for the rest), item,
/// words the change contains, Rust verdict, wire verdict, signing, removed without
/// deprecation.
type Want = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    bool,
    bool,
);

/// A case: its name, the edits of the old side, of the new side, the changes expected, the
/// bump.
type Case = (&'static str, Vec<Edit>, Vec<Edit>, Vec<Want>, Bump);

fn find<'a>(r: &'a Report, w: &Want) -> &'a Change {
    r.changes
        .iter()
        .find(|c| c.name == w.0 && c.item == w.1 && c.change.contains(w.2))
        .unwrap_or_else(|| panic!("no change {w:?} in {:#?}", r.changes))
}

fn expect(case: &str, r: &Report, want: &[Want], bump: Bump) {
    for w in want {
        let c = find(r, w);
        let got = (
            c.rust.to_string(),
            c.wire.to_string(),
            c.signing,
            c.removed_without_deprecation,
        );
        assert_eq!(
            got,
            (w.3.to_owned(), w.4.to_owned(), w.5, w.6),
            "{case}: {w:?} got {c:#?}"
        );
    }
    assert_eq!(r.bump, bump, "{case}: bump; changes {:#?}", r.changes);
}

const GET_PARAMS: &str = "      - { name: applicationId, type: string, required: true }\n";

#[test]
fn no_change_is_no_bump() {
    let r = report(&[], &[]);
    assert!(r.changes.is_empty());
    assert_eq!(r.bump, Bump::None);
}

#[test]
fn parameters() {
    let cases: Vec<Case> = vec![
        (
            "optional parameter added",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true }\n      - { name: remark, type: string }\n")],
            vec![("getTransfer", "remark", "optional parameter added", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "required parameter added",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true }\n      - { name: channel, type: string, required: true }\n")],
            vec![("getTransfer", "channel", "required parameter added", "major", "breaking", false, false)],
            Bump::Major,
        ),
        (
            "conditional parameter added with its constraint",
            vec![],
            vec![
                ("transfers", "      - { name: mobile, type: string }\n", "      - { name: mobile, type: string }\n      - { name: purpose, type: string, required: conditional }\n"),
                ("transfers", "    constraints:\n", "    constraints:\n      - required_if: { field: purpose, when: { field: beneficiaryType, equals: \"2\" } }\n"),
            ],
            vec![
                ("applyForTransfer", "purpose", "conditional parameter added", "minor", "breaking", false, false),
                ("applyForTransfer", "constraints", "constraint added: `purpose` required when `beneficiaryType` = `2`", "patch", "breaking", false, false),
            ],
            Bump::Minor,
        ),
        (
            "parameter removed without deprecation",
            vec![],
            vec![("transfers", "      - { name: type, type: string }\n", "")],
            vec![("applyForTransfer", "type", "optional parameter removed", "major", "compatible", false, true)],
            Bump::Major,
        ),
        (
            "deprecated parameter removed",
            vec![("transfers", "      - { name: type, type: string }\n", "      - { name: type, type: string, deprecated: \"use beneficiaryType\" }\n")],
            vec![("transfers", "      - { name: type, type: string }\n", "")],
            vec![("applyForTransfer", "type", "optional parameter removed", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "parameter deprecated",
            vec![],
            vec![("transfers", "      - { name: type, type: string }\n", "      - { name: type, type: string, deprecated: \"use beneficiaryType\" }\n")],
            vec![("applyForTransfer", "type", "parameter deprecated: use beneficiaryType", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "optional parameter made required",
            vec![],
            vec![("transfers", "      - { name: type, type: string }\n", "      - { name: type, type: string, required: true }\n")],
            vec![("applyForTransfer", "type", "optional parameter became required", "major", "breaking", false, false)],
            Bump::Major,
        ),
        (
            "required parameter made optional",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string }\n")],
            vec![("getTransfer", "applicationId", "required parameter became optional", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "optional parameter made conditional",
            vec![],
            vec![
                ("transfers", "      - { name: type, type: string }\n", "      - { name: type, type: string, required: conditional }\n"),
                ("transfers", "    constraints:\n", "    constraints:\n      - required_if: { field: type, when: { field: beneficiaryType, equals: \"2\" } }\n"),
            ],
            vec![("applyForTransfer", "type", "optional parameter became conditional", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "parameter type changed",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: long, required: true }\n")],
            vec![("getTransfer", "applicationId", "type changed from `string` to `long`", "major", "breaking", false, false)],
            Bump::Major,
        ),
        (
            "Base64 text became a document (bytes)",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: document, required: true }\n")],
            vec![("getTransfer", "applicationId", "type changed from `string` to `document`", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "int parameter widened to long",
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true }\n      - { name: pageNo, type: int }\n")],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true }\n      - { name: pageNo, type: long }\n")],
            vec![("getTransfer", "pageNo", "type changed from `int` to `long`", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "decimal sent as a number instead of a string",
            vec![],
            vec![("transfers", "        wire: string\n", "        wire: number\n")],
            vec![("applyForTransfer", "amount", "type changed from `decimal` (string on the wire) to `decimal` (number on the wire)", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "wire name renamed, Rust name kept",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: appId, type: string, required: true, rust_name: application_id }\n")],
            vec![("getTransfer", "appId", "wire name changed from `applicationId` to `appId`", "patch", "breaking", true, false)],
            Bump::Patch,
        ),
        (
            "Rust name changed, wire name kept",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true, rust_name: app_id }\n")],
            vec![("getTransfer", "applicationId", "Rust name changed from `application_id` to `app_id`", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "parameter moved into a nested record",
            vec![],
            vec![
                ("transfers", "      - { name: type, type: string }\n", ""),
                ("types", "      - { name: productName,", "      - { name: type, type: string }\n      - { name: productName,"),
            ],
            vec![
                ("applyForTransfer", "type", "moved into a nested record", "major", "compatible", true, true),
                ("OrderItem", "type", "optional field added", "minor", "compatible", false, false),
            ],
            Bump::Major,
        ),
        (
            "rule tightened on a parameter",
            vec![],
            vec![("transfers", "          - max_chars: 32\n", "          - max_chars: 16\n")],
            vec![("applyForTransfer", "payerAccountId", "rule tightened: `max_chars 32` → `max_chars 16`", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "rule loosened on a parameter",
            vec![],
            vec![("transfers", "          - rule: { range: { min: \"0.01\", max: \"99999999\" } }\n", "          - rule: { range: { min: \"0.01\", max: \"999999999\" } }\n")],
            vec![("applyForTransfer", "amount", "rule loosened", "patch", "compatible", false, false)],
            Bump::Patch,
        ),
        (
            "rule removed from a parameter",
            vec![],
            vec![("transfers", "          - alphanumeric: true\n", "")],
            vec![("applyForTransfer", "payerAccountId", "rule removed: `alphanumeric`", "patch", "compatible", false, false)],
            Bump::Patch,
        ),
        (
            "constraint removed",
            vec![],
            vec![("transfers", "      - server_side: { fields: [payerAccountId], text: \"the account must belong to the channel\" }\n", "")],
            vec![("applyForTransfer", "constraints", "constraint removed: server-side on payerAccountId", "patch", "compatible", false, false)],
            Bump::Patch,
        ),
        (
            "parameter documented",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true, doc: \"From applyForTransfer.\" }\n")],
            vec![("getTransfer", "applicationId", "documentation changed", "patch", "compatible", false, false)],
            Bump::Patch,
        ),
    ];
    for (name, old, new, want, bump) in cases {
        expect(name, &report(&old, &new), &want, bump);
    }
}

#[test]
fn operations_and_responses() {
    let get_op = "  - name: getTransfer\n    path: /trans/getTransfer\n";
    let list_op = "  - name: listBanks\n    path: /query/listBanks\n    params: { unspecified: \"not shown\" }\n    response: { unspecified: \"not shown\" }\n";
    let cases: Vec<Case> = vec![
        (
            "operation added",
            vec![],
            vec![("transfers", list_op, "  - name: listBanks\n    path: /query/listBanks\n    params: { unspecified: \"not shown\" }\n    response: { unspecified: \"not shown\" }\n  - name: ping\n    path: /query/ping\n    params: []\n    response: { empty: \"code only\" }\n")],
            vec![("ping", "", "operation added (`ping`, `POST /query/ping`)", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "operation removed without deprecation",
            vec![],
            vec![("transfers", list_op, "")],
            vec![("listBanks", "", "operation removed", "major", "breaking", false, true)],
            Bump::Major,
        ),
        (
            "operation deprecated",
            vec![],
            vec![("transfers", get_op, "  - name: getTransfer\n    path: /trans/getTransfer\n    deprecated: \"use getTransResult\"\n")],
            vec![("getTransfer", "", "operation deprecated: use getTransResult", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "operation renamed on the same path",
            vec![],
            vec![("transfers", get_op, "  - name: fetchTransfer\n    path: /trans/getTransfer\n")],
            vec![("fetchTransfer", "", "operation renamed from `getTransfer`", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "path changed",
            vec![],
            vec![("transfers", get_op, "  - name: getTransfer\n    path: /trans/v2/getTransfer\n")],
            vec![("getTransfer", "", "path changed from `/trans/getTransfer` to `/trans/v2/getTransfer`", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "OTP now needed",
            vec![],
            vec![("transfers", get_op, "  - name: getTransfer\n    path: /trans/getTransfer\n    otp: true\n")],
            vec![("getTransfer", "", "now must be confirmed with an OTP", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "response documented",
            vec![],
            vec![("transfers", "    response: { unspecified: \"not shown\" }\n", "    response:\n      fields:\n        - { name: bankCode, type: string }\n")],
            vec![("listBanks", "response", "response documented: `data` is 1 inline field(s) instead of raw JSON", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "response no longer documented",
            vec![],
            vec![("transfers", "    response:\n      fields:\n        - { name: status, type: TransferStatus }\n", "    response: { unspecified: \"not shown\" }\n")],
            vec![("getTransfer", "response", "response no longer documented", "major", "breaking", false, false)],
            Bump::Major,
        ),
        (
            "response field added",
            vec![],
            vec![("transfers", "        - { name: status, type: TransferStatus }\n", "        - { name: status, type: TransferStatus }\n        - { name: reason, type: string }\n")],
            vec![("getTransfer", "reason", "optional response field added", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "response field removed",
            vec![],
            vec![("transfers", "        - { name: status, type: TransferStatus }\n", "        - { name: reason, type: string }\n")],
            vec![("getTransfer", "status", "optional response field removed", "major", "breaking", false, true)],
            Bump::Major,
        ),
        (
            "response field no longer always present",
            vec![("transfers", "        - { name: status, type: TransferStatus }\n", "        - { name: status, type: TransferStatus, required: true }\n")],
            vec![],
            vec![("getTransfer", "status", "required response field became optional", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "response rule loosened",
            vec![("transfers", "        - { name: status, type: TransferStatus }\n", "        - { name: status, type: TransferStatus }\n        - { name: note, type: string, rules: [{ max_chars: 10 }] }\n")],
            vec![("transfers", "        - { name: status, type: TransferStatus }\n", "        - { name: status, type: TransferStatus }\n        - { name: note, type: string, rules: [{ max_chars: 20 }] }\n")],
            vec![("getTransfer", "note", "rule loosened", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
    ];
    for (name, old, new, want, bump) in cases {
        expect(name, &report(&old, &new), &want, bump);
    }
}

#[test]
fn records_enums_and_the_rest() {
    let cases: Vec<Case> = vec![
        (
            "received record gains an optional field",
            vec![],
            vec![("types", "      - { name: applicationId, type: string }\n", "      - { name: applicationId, type: string }\n      - { name: fee, type: decimal, wire: string }\n")],
            vec![("TransferDetail", "fee", "optional field added", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "record used both ways gains a required field",
            vec![],
            vec![("types", "      - { name: productName,", "      - { name: sku, type: string, required: true }\n      - { name: productName,")],
            vec![("OrderItem", "sku", "required field added", "major", "breaking", false, false)],
            Bump::Major,
        ),
        (
            "rule loosened on a record used both ways (responses may differ)",
            vec![],
            vec![("types", "rules: [{ max_chars: 100 }]", "rules: [{ max_chars: 200 }]")],
            vec![("OrderItem", "productName", "rule loosened", "patch", "breaking", false, false)],
            Bump::Patch,
        ),
        (
            "received-only record now also sent: its received shape is renamed",
            vec![],
            vec![("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true }\n      - { name: previous, type: TransferDetail }\n")],
            vec![("TransferDetail", "", "generated shapes changed", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "record added",
            vec![],
            vec![("types", "records:\n", "records:\n  - name: Bank\n    fields:\n      - { name: code, type: string }\n")],
            vec![("Bank", "", "record added", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "enum value added",
            vec![],
            vec![("types", "      - { wire: \"2\", name: Enterprise, doc: \"Enterprise\" }\n", "      - { wire: \"2\", name: Enterprise, doc: \"Enterprise\" }\n      - { wire: \"3\", name: Government }\n")],
            vec![("BeneficiaryType", "Government (3)", "value added", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "enum value deprecated",
            vec![],
            vec![("types", "      - { wire: \"2\", name: Enterprise, doc: \"Enterprise\" }\n", "      - { wire: \"2\", name: Enterprise, doc: \"Enterprise\", deprecated: \"use Individual\" }\n")],
            vec![("BeneficiaryType", "Enterprise (2)", "value deprecated: use Individual", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "enum value removed from a set sent in requests",
            vec![],
            vec![("types", "      - { wire: \"2\", name: Enterprise, doc: \"Enterprise\" }\n", "")],
            vec![("BeneficiaryType", "Enterprise (2)", "value removed (requests sending it are refused)", "major", "breaking", false, true)],
            Bump::Major,
        ),
        (
            "enum value removed from a set only received",
            vec![],
            vec![("types", "      - { wire: -1, name: Failed }\n", "")],
            vec![("TransferStatus", "Failed (-1)", "value removed", "major", "compatible", false, true)],
            Bump::Major,
        ),
        (
            "enum variant renamed",
            vec![],
            vec![("types", "name: Enterprise,", "name: Company,")],
            vec![("BeneficiaryType", "Company (2)", "variant renamed from `Enterprise` to `Company`", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "enum wire value changed",
            vec![],
            vec![("types", "wire: \"2\", name: Enterprise", "wire: \"E\", name: Enterprise")],
            vec![("BeneficiaryType", "Enterprise", "wire value changed from `2` to `E`", "patch", "breaking", true, false)],
            Bump::Patch,
        ),
        (
            "result code added",
            vec![],
            vec![("api", "  - { code: \"00000\", name: Success, text: \"Completed successfully\" }\n", "  - { code: \"00000\", name: Success, text: \"Completed successfully\" }\n  - { code: \"15002\", name: PageTooLarge, text: \"page size over 50\" }\n")],
            vec![("", "15002", "result code added", "minor", "compatible", false, false)],
            Bump::Minor,
        ),
        (
            "result code removed",
            vec![],
            vec![("api", "  - { code: \"14009\", name: InsufficientBalance, text: \"insufficient balance\", source: live, retryable: false }\n", "")],
            vec![("", "14009", "result code removed", "major", "compatible", false, false)],
            Bump::Major,
        ),
        (
            "envelope field changed",
            vec![],
            vec![("api", "    - { name: params, type: json, required: true }\n", "    - { name: params, type: json, required: true }\n    - { name: nonce, type: string, required: true }\n")],
            vec![("", "nonce", "required request envelope field added", "patch", "breaking", true, false)],
            Bump::Patch,
        ),
        (
            "decision reworded",
            vec![],
            vec![("api", "decision: \"Sent as a JSON string.\"", "decision: \"Sent as a JSON string, never a number.\"")],
            vec![("", "amount-as-string", "decision changed", "patch", "compatible", false, false)],
            Bump::Patch,
        ),
    ];
    for (name, old, new, want, bump) in cases {
        expect(name, &report(&old, &new), &want, bump);
    }
}

#[test]
fn records_and_enums_name_the_operations_using_them() {
    let r = report(&[], &[("types", "name: Enterprise,", "name: Company,")]);
    assert_eq!(r.changes[0].used_by, ["applyForTransfer"]);
    assert_eq!(r.changes[0].operation, None);
}

/// A value set reached only through a notification's payload still says who reads it.
#[test]
fn records_and_enums_name_the_notifications_carrying_them() {
    let payload: Edit = (
        "api",
        r#"payload: { unspecified: "not shown" }"#,
        "payload: { record: TransferDetail }",
    );
    let r = report(
        &[payload],
        &[
            payload,
            (
                "types",
                "{ wire: 1, name: Completed }",
                "{ wire: 1, name: Done }",
            ),
        ],
    );
    assert!(!r.changes.is_empty());
    for c in &r.changes {
        assert!(c.used_by.iter().any(|u| u == "notification 0028"), "{c:?}");
    }
}

const OPTIONAL_TO_REQUIRED: Edit = (
    "transfers",
    "      - { name: type, type: string }\n",
    "      - { name: type, type: string, required: true }\n",
);

#[test]
fn markdown_groups_by_operation_and_marks_breaking_lines() {
    let r = report(
        &[],
        &[
            OPTIONAL_TO_REQUIRED,
            ("transfers", GET_PARAMS, "      - { name: applicationId, type: string, required: true }\n      - { name: remark, type: string }\n"),
        ],
    );
    let md = render::markdown(&r);
    assert!(md.starts_with("## 0.1.0\n"), "{md}");
    assert!(md.contains("**major** bump"), "{md}");
    assert!(md.contains("### Operation `applyForTransfer`\n\n- **BREAKING (Rust, wire)** `type`: optional parameter became required — Rust major, wire breaking\n"), "{md}");
    assert!(md.contains("### Operation `getTransfer`\n\n- `remark`: optional parameter added — Rust minor, wire compatible\n"), "{md}");
}

#[test]
fn json_has_the_documented_shape() {
    let r = report(&[], &[OPTIONAL_TO_REQUIRED]);
    let v: serde_json::Value = serde_json::from_str(&render::json(&r)).expect("JSON");
    assert_eq!(v["bump"], "major");
    assert_eq!(
        v["changes"][0],
        serde_json::json!({
            "operation": "applyForTransfer",
            "scope": "operation",
            "name": "applyForTransfer",
            "item": "type",
            "change": "optional parameter became required",
            "rust": "major",
            "wire": "breaking",
            "signing": false,
            "removed_without_deprecation": false,
            "used_by": []
        })
    );
    assert_eq!(v["old"]["client_version"], "0.1.0");
}

#[test]
fn gate_wants_the_bump_and_the_entry() {
    let versioned = |v: &'static str| -> Edit {
        (
            "api",
            "  success_code: \"00000\"\n",
            match v {
                "1.0.0" => "  success_code: \"00000\"\n  client_version: \"1.0.0\"\n",
                "1.1.0" => "  success_code: \"00000\"\n  client_version: \"1.1.0\"\n",
                _ => "  success_code: \"00000\"\n  client_version: \"2.0.0\"\n",
            },
        )
    };
    let log = "# Changelog\n\n## 2.0.0\n\n## 1.1.0\n\n## 1.0.0\n";
    // A breaking change with a minor step: refused.
    let r = report(
        &[versioned("1.0.0")],
        &[versioned("1.1.0"), OPTIONAL_TO_REQUIRED],
    );
    let problems = gate::check(&r, Some(log));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("need a major bump but client_version 1.0.0 → 1.1.0 is a minor step"),
        "{problems:?}"
    );
    assert!(problems[0].contains("to 2.0.0"), "{problems:?}");
    // The major step: accepted, if the changelog has the entry.
    let r = report(
        &[versioned("1.0.0")],
        &[versioned("2.0.0"), OPTIONAL_TO_REQUIRED],
    );
    assert!(gate::check(&r, Some(log)).is_empty());
    let problems = gate::check(&r, Some("# Changelog\n\n## 1.0.0\n"));
    assert!(problems[0].contains("no `## 2.0.0` entry"), "{problems:?}");
    // No change, no bump: fine.
    let r = report(&[versioned("1.0.0")], &[versioned("1.0.0")]);
    assert!(gate::check(&r, Some(log)).is_empty());
}
