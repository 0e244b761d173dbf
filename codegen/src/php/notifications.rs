//! The typed payloads of notifications (`Notifications`).

use super::names::{self, NAMESPACE};
use super::types;
use super::PhpFile;
use crate::plan::{Doc, SdkPlan};

/// The typed payloads of notifications.
pub fn notifications_file(plan: &SdkPlan) -> PhpFile {
    let mut f = PhpFile::new(NAMESPACE, "Notifications");
    f.uses("Baas\\Signing\\Notification");
    let mut returns = Vec::new();
    for n in &plan.notifications {
        if let Some(payload) = &n.payload {
            let class = names::class_named(payload);
            f.uses(&format!("{}\\{class}", types::records_namespace()));
            if !returns.contains(&class) {
                returns.push(class);
            }
        }
    }
    returns.push("mixed".to_owned());
    f.doc(
        &Doc::of([
            "The typed payload of each notification the service sends: verify the body \
                   with `NotificationVerifier` (or `NotificationHandler`), then read its \
                   `params` here."
                .to_owned(),
        ]),
        &[],
    );
    f.body.line("final class Notifications");
    f.body.line("{");
    f.body.indent();
    let mut lines = Vec::new();
    for n in &plan.notifications {
        let mut line = format!("{} => ", names::string(&n.notification_type));
        match &n.payload {
            Some(payload) => {
                let class = names::class_named(payload);
                line.push_str(&format!(
                    "{class}::read($n->params, 'params') ?? new {class}(),"
                ));
            }
            None => line.push_str("$n->params,"),
        }
        lines.push((n, line));
    }
    let mut tags = vec!["@param Notification $n a verified notification".to_owned()];
    tags.push(format!(
        "@return {} the payload (its `params` as read, for a type this version does not type)",
        returns.join("|")
    ));
    let mut doc =
        Doc::of(["The payload of a verified notification, by its `notificationType`:".to_owned()]);
    for (n, _) in &lines {
        doc.push(format!(
            "- `{}` ({}): {}",
            n.notification_type,
            n.name,
            n.payload
                .as_deref()
                .map_or("its params as read".to_owned(), |p| format!("`{p}`"))
        ));
    }
    f.doc(&doc, &tags);
    f.body
        .line("public static function payload(Notification $n): mixed");
    f.body.line("{");
    f.body.indent();
    f.body.line("return match ($n->notificationType) {");
    f.body.indent();
    for (_, line) in &lines {
        f.body.line(line);
    }
    f.body.line("default => $n->params,");
    f.body.dedent();
    f.body.line("};");
    f.body.dedent();
    f.body.line("}");
    f.body.dedent();
    f.body.line("}");
    f
}
