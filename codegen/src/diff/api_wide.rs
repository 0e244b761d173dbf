//! Changes that concern the whole API: result codes, notifications, the envelope,
//! decisions and the api header.

use super::{docs_item, fields, pairs, Item, Level, Out, Pair, Scope, Wire};
use crate::model::Api;

pub(super) fn result_codes(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for pair in pairs(&old.result_codes, &new.result_codes, |o, n| {
        o.code == n.code
    }) {
        match pair {
            Pair::Added(n) => items.push(Item::new(
                &n.code,
                format!("result code added (`ResultCode::{}`)", n.name),
                Level::Minor,
                Wire::Compatible,
            )),
            Pair::Kept(o, n) => {
                if o.name != n.name {
                    items.push(Item::new(
                        &n.code,
                        format!("variant renamed from `{}` to `{}`", o.name, n.name),
                        Level::Major,
                        Wire::Compatible,
                    ));
                }
                if o.retryable != n.retryable {
                    items.push(Item::new(
                        &n.code,
                        if n.retryable {
                            "now retryable"
                        } else {
                            "no longer retryable"
                        },
                        Level::Patch,
                        Wire::Compatible,
                    ));
                }
                if o.text != n.text || o.source != n.source {
                    items.push(docs_item(&n.code));
                }
            }
            Pair::Removed(o) => items.push(Item::new(
                &o.code,
                format!("result code removed (`ResultCode::{}`)", o.name),
                Level::Major,
                Wire::Compatible,
            )),
        }
    }
    out.push(Scope::ResultCodes, "", &[], items);
}

pub(super) fn notifications(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    let same = |o: &crate::model::Notification, n: &crate::model::Notification| {
        o.notification_type == n.notification_type
    };
    for pair in pairs(&old.notifications, &new.notifications, same) {
        match pair {
            Pair::Added(n) => items.push(Item::new(
                &n.notification_type,
                format!("notification added (`NotificationType::{}`)", n.name),
                Level::Minor,
                Wire::Compatible,
            )),
            Pair::Kept(o, n) => {
                let t = &n.notification_type;
                if o.name != n.name {
                    items.push(Item::new(
                        t,
                        format!("variant renamed from `{}` to `{}`", o.name, n.name),
                        Level::Major,
                        Wire::Compatible,
                    ));
                }
                if o.doc != n.doc
                    || o.relates_to != n.relates_to
                    || o.payload_note != n.payload_note
                    || o.source != n.source
                {
                    items.push(docs_item(t));
                }
            }
            Pair::Removed(o) => items.push(Item::new(
                &o.notification_type,
                format!("notification removed (`NotificationType::{}`)", o.name),
                Level::Major,
                Wire::Compatible,
            )),
        }
    }
    out.push(Scope::Notifications, "", &[], items);
}

/// The envelope is the runtime's: a change of it changes what is signed and sent for
/// every operation, not the generated types.
pub(super) fn envelope(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for (of, nf, dirs, what) in [
        (
            &old.envelope.request,
            &new.envelope.request,
            fields::Dirs::SENT,
            "request envelope field",
        ),
        (
            &old.envelope.response,
            &new.envelope.response,
            fields::Dirs::RECEIVED,
            "response envelope field",
        ),
    ] {
        for mut i in fields::diff(old, new, of, nf, dirs, what) {
            if i.change != "documentation changed" {
                i.rust = Level::Patch;
                i.signing = true;
                i.wire = Wire::Breaking;
            }
            items.push(i);
        }
    }
    out.push(Scope::Envelope, "", &[], items);
}

pub(super) fn decisions(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    for pair in pairs(&old.decisions, &new.decisions, |o, n| o.id == n.id) {
        let (id, change) = match pair {
            Pair::Added(n) => (&n.id, "decision recorded"),
            Pair::Kept(o, n)
                if (&o.about, &o.source_text, &o.decision, &o.reason)
                    != (&n.about, &n.source_text, &n.decision, &n.reason) =>
            {
                (&n.id, "decision changed")
            }
            Pair::Kept(..) => continue,
            Pair::Removed(o) => (&o.id, "decision removed"),
        };
        items.push(Item::new(id, change, Level::Patch, Wire::Compatible));
    }
    out.push(Scope::Decisions, "", &[], items);
}

pub(super) fn api_header(out: &mut Out, old: &Api, new: &Api) {
    let mut items = Vec::new();
    if old.title != new.title || old.source_document != new.source_document {
        items.push(docs_item("api"));
    }
    if old.success_code != new.success_code {
        items.push(Item::new(
            "success_code",
            format!(
                "success code changed from `{}` to `{}`",
                old.success_code, new.success_code
            ),
            Level::Patch,
            Wire::Breaking,
        ));
    }
    out.push(Scope::Api, "", &[], items);
}
