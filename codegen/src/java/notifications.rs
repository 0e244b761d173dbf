//! `Notifications`: each notification's payload typed (`com.baas.client`).

use super::names::{doc_paragraphs, string_literal, type_name};
use super::{class_file, Ctx, ROOT_PACKAGE};
use crate::artifact::EmittedFile;
use crate::text::Out;

/// `Notifications`: each notification's payload typed.
pub fn notifications(ctx: &Ctx<'_>) -> EmittedFile {
    let mut out = Out::new("    ");
    out.line(&format!("package {ROOT_PACKAGE};"));
    out.blank();
    out.block_doc(&[
        "The notifications the service sends, their payloads typed: verify the body with <code>NotificationVerifier</code> (or let <code>NotificationHandler</code> do it), then <code>Notifications.payload(n)</code> and a <code>switch</code> over the result.".to_owned(),
    ], 92);
    out.line("public final class Notifications {");
    out.indent();
    out.line("private Notifications() {");
    out.line("}");
    out.blank();
    out.block_doc(&["A notification with its payload typed; <code>Other</code> for a type this version does not know.".to_owned()], 92);
    out.line("public sealed interface Payload {");
    out.line("    /**\n     * The verified notification.\n     *\n     * @return it\n     */");
    out.line("    Notification notification();");
    out.line("}");
    let mut cases = Vec::new();
    for n in &ctx.plan.notifications {
        let class = type_name(&n.words.pascal());
        let mut d = n.doc.clone();
        d.push(format!("Notification type `{}`.", n.notification_type));
        let mut p = doc_paragraphs(&d);
        out.blank();
        match &n.payload {
            Some(record) => {
                // Fully qualified: a notification's name may be a record's too.
                let rt = format!("{}.{}", super::MODEL, type_name(record));
                p.push(
                    "@param notification the verified notification\n@param params its payload"
                        .to_owned(),
                );
                out.block_doc(&p, 92);
                out.line(&format!("public record {class}(Notification notification, {rt} params) implements Payload {{"));
                out.line("}");
                cases.push(format!(
                    "case {} -> new {class}(n, {rt}.decode(n.params(), \"params\"));",
                    string_literal(&n.notification_type)
                ));
            }
            None => {
                p.push(
                    "@param notification the verified notification (its params as received)"
                        .to_owned(),
                );
                out.block_doc(&p, 92);
                out.line(&format!(
                    "public record {class}(Notification notification) implements Payload {{"
                ));
                out.line("}");
                cases.push(format!(
                    "case {} -> new {class}(n);",
                    string_literal(&n.notification_type)
                ));
            }
        }
    }
    out.blank();
    out.block_doc(
        &[
            "A notification of a type this version does not list.".to_owned(),
            "@param notification the verified notification".to_owned(),
        ],
        92,
    );
    out.line("public record Other(Notification notification) implements Payload {");
    out.line("}");
    out.blank();
    out.block_doc(&[
        "The typed payload of a verified notification.".to_owned(),
        "@param n the notification\n@return its payload\n@throws com.baas.runtime.DecodeException when the payload has another shape".to_owned(),
    ], 92);
    out.line("public static Payload payload(Notification n) {");
    out.line("    return switch (n.notificationType()) {");
    for c in &cases {
        out.line(&format!("        {c}"));
    }
    out.line("        default -> new Other(n);");
    out.line("    };");
    out.line("}");
    out.dedent();
    out.line("}");
    class_file(ROOT_PACKAGE, "Notifications", out.finish())
}
