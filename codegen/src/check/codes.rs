//! Cross-check, the service's code sets: `result_codes:` (the generated `ResultCode`)
//! and `notifications:` (the generated `NotificationType`), whose operations must exist.

use std::collections::BTreeSet;

use super::declare::type_name;
use super::{names, Checker};
use crate::model;
use crate::spec_file::{NotificationSpec, ResultCodeSpec, Spanned};

/// The result codes, in spec order. Later passes may rely on: codes unique (a repeat is
/// left out), names checked.
pub(super) fn result_codes(
    ck: &mut Checker,
    specs: &[&Spanned<ResultCodeSpec>],
) -> Vec<model::ResultCode> {
    let mut codes: Vec<model::ResultCode> = Vec::new();
    for c in specs {
        let s = &c.value;
        ck.non_empty(&s.code, "result code");
        if codes.iter().any(|p| p.code == s.code.value) {
            ck.error(
                &s.code.loc,
                format!("result code `{}` is listed twice", s.code.value),
                Some("list each code once".into()),
            );
            continue;
        }
        let name = result_code_name(ck, &s.name, &s.code.value, &s.text, &codes);
        codes.push(model::ResultCode {
            code: s.code.value.clone(),
            name,
            text: s.text.clone(),
            source: s.source.map_or(model::Source::Seed, Into::into),
            retryable: s.retryable.unwrap_or(false),
        });
    }
    codes
}

/// Checks the `name:` of a result code (the variant of the generated `ResultCode`):
/// UpperCamelCase, not a keyword, not `Unknown`, unique among the codes checked so far.
/// Returns the name as written (errors are recorded).
fn result_code_name(
    ck: &mut Checker,
    name: &Spanned<String>,
    code: &str,
    text: &str,
    earlier: &[model::ResultCode],
) -> String {
    let n = name.value.as_str();
    let hint = names::camel(text);
    let example = if names::is_upper_camel(&hint) && !names::is_keyword(&hint) && hint != "Unknown"
    {
        format!("`{hint}`")
    } else {
        "`InsufficientBalance`".to_owned()
    };
    if n.is_empty() {
        ck.error(
            &name.loc,
            format!("result code `{code}` has an empty name"),
            Some(format!(
                "name it in UpperCamelCase after its text, e.g. {example}: it becomes a variant of the generated `ResultCode`"
            )),
        );
    } else if n == "Unknown" {
        ck.error(
            &name.loc,
            format!("name `Unknown` of result code `{code}` is reserved"),
            Some(format!(
                "the generated `ResultCode` keeps unseen codes in `Unknown`; name this code otherwise, e.g. {example}"
            )),
        );
    } else if !names::is_upper_camel(n) || names::is_keyword(n) {
        let own = names::camel(n);
        let help = if names::is_upper_camel(&own) && !names::is_keyword(&own) && own != "Unknown" {
            format!("rename it, e.g. `{own}`")
        } else {
            format!("rename it to an UpperCamelCase identifier, e.g. {example}")
        };
        ck.error(
            &name.loc,
            format!("name `{n}` of result code `{code}` is not an UpperCamelCase Rust identifier"),
            Some(help),
        );
    } else if let Some(prev) = earlier.iter().find(|p| p.name == n) {
        ck.error(
            &name.loc,
            format!(
                "result code name `{n}` is used twice (also by `{}`)",
                prev.code
            ),
            Some(format!(
                "each code becomes its own variant of `ResultCode`; give `{code}` another name, e.g. `{n}Alias`"
            )),
        );
    }
    n.to_owned()
}

/// The notifications, in spec order, each relating to operations of `op_names`.
pub(super) fn notifications(
    ck: &mut Checker,
    specs: &[&Spanned<NotificationSpec>],
    op_names: &[&str],
    records: &BTreeSet<String>,
) -> Vec<model::Notification> {
    let mut notes: Vec<model::Notification> = Vec::new();
    for n in specs {
        let s = &n.value;
        ck.non_empty(&s.notification_type, "notification type");
        if notes
            .iter()
            .any(|p| p.notification_type == s.notification_type.value)
        {
            ck.error(
                &s.notification_type.loc,
                format!(
                    "notification type `{}` is listed twice",
                    s.notification_type.value
                ),
                Some("list each notification type once".into()),
            );
        }
        if s.name.value == "Unknown" {
            ck.error(
                &s.name.loc,
                format!(
                    "notification name `Unknown` (type `{}`) is reserved",
                    s.notification_type.value
                ),
                Some("the generated `NotificationType` keeps unseen types in `Unknown`; name this notification after what it reports".into()),
            );
        } else if type_name(ck, &s.name, "notification")
            && notes.iter().any(|p| p.name == s.name.value)
        {
            ck.error(
                &s.name.loc,
                format!("notification name `{}` is used twice", s.name.value),
                Some("notification names are unique".into()),
            );
        }
        let mut relates = Vec::new();
        for r in s.relates_to.iter().flatten() {
            if !op_names.contains(&r.value.as_str()) {
                let help = match crate::diagnostics::suggest::did_you_mean(
                    &r.value,
                    op_names.iter().copied(),
                ) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => "name an operation defined under `operations:`".into(),
                };
                ck.error(
                    &r.loc,
                    format!(
                        "notification `{}` relates to unknown operation `{}`",
                        s.name.value, r.value
                    ),
                    Some(help),
                );
            }
            relates.push(r.value.clone());
        }
        let (payload, payload_note) = payload(ck, s, records);
        notes.push(model::Notification {
            notification_type: s.notification_type.value.clone(),
            name: s.name.value.clone(),
            doc: s.doc.clone().unwrap_or_default(),
            relates_to: relates,
            payload_note,
            payload,
            source: s.source.map_or(model::Source::Seed, Into::into),
        });
    }
    notes
}

/// A notification's payload: a declared record, or a note saying it is not shown (the
/// received shape's name is settled by the shapes pass).
fn payload(
    ck: &mut Checker,
    s: &NotificationSpec,
    records: &BTreeSet<String>,
) -> (Option<model::PayloadRecord>, String) {
    let Some(p) = &s.payload else {
        return (None, String::new());
    };
    match (&p.record, &p.unspecified) {
        (Some(r), None) => {
            if !records.contains(&r.value) {
                let help = match crate::diagnostics::suggest::did_you_mean(
                    &r.value,
                    records.iter().map(String::as_str),
                ) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => "name a record declared under `records:`".into(),
                };
                ck.error(
                    &r.loc,
                    format!(
                        "the payload of notification `{}` is the unknown record `{}`",
                        s.name.value, r.value
                    ),
                    Some(help),
                );
                return (None, String::new());
            }
            let record = model::PayloadRecord {
                record: r.value.clone(),
                received_name: r.value.clone(),
            };
            (Some(record), String::new())
        }
        (None, Some(note)) => (None, note.clone()),
        _ => {
            ck.error(
                &s.name.loc,
                format!(
                    "the payload of notification `{}` must be exactly one of `record` and `unspecified`",
                    s.name.value
                ),
                Some("`payload: { record: Name }` or `payload: { unspecified: \"why\" }`".into()),
            );
            (None, String::new())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::testing::{checker, errors, file};

    #[test]
    fn result_codes_are_unique_and_named_as_variants() {
        let f = file(
            "result_codes:\n  - { code: \"0\", name: Success, text: ok }\n  - { code: \"0\", name: Again, text: again }\n  - { code: \"1\", name: Success, text: twice }\n  - { code: \"2\", name: Unknown, text: u }\n  - { code: \"3\", name: no_such, text: \"no such user\", retryable: true }\n",
        );
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let codes = result_codes(&mut ck, &c.result_codes);
        let kept: Vec<&str> = codes.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(kept, ["0", "1", "2", "3"]);
        assert!(codes[3].retryable);
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:3:13: result code `0` is listed twice",
                "s/t.yaml:4:24: result code name `Success` is used twice (also by `0`)",
                "s/t.yaml:5:24: name `Unknown` of result code `2` is reserved",
                "s/t.yaml:6:24: name `no_such` of result code `3` is not an UpperCamelCase Rust identifier",
            ]
        );
    }

    #[test]
    fn notifications_relate_to_known_operations() {
        let f = file(
            "notifications:\n  - { type: \"01\", name: Paid, relates_to: [pay, pya] }\n  - { type: \"01\", name: Paid }\n  - { type: \"02\", name: Unknown }\n",
        );
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let notes = notifications(&mut ck, &c.notifications, &["pay"], &BTreeSet::new());
        assert_eq!(notes.len(), 3);
        assert_eq!(notes[0].relates_to, ["pay", "pya"]);
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:2:49: notification `Paid` relates to unknown operation `pya`",
                "s/t.yaml:3:13: notification type `01` is listed twice",
                "s/t.yaml:3:25: notification name `Paid` is used twice",
                "s/t.yaml:4:25: notification name `Unknown` (type `02`) is reserved",
            ]
        );
    }
}
