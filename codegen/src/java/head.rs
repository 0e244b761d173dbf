//! The head pieces of generated classes that call the client (`Client`, `AsyncClient`,
//! `Pending`): their imports and their methods' Javadoc. Below `client` and `otp`, which
//! both use them.

use super::names::{doc_paragraphs, javadoc};
use super::{Ctx, ROOT_PACKAGE};
use crate::plan::Doc;
use crate::text::Out;

/// The imports of a client or OTP handle class: every group's package, the model, the
/// runtime types they use, and `extra`.
pub fn imports(ctx: &Ctx<'_>, out: &mut Out, extra: &[&str]) {
    for g in &ctx.plan.groups {
        if !g.operations.is_empty() {
            out.line(&format!(
                "import {ROOT_PACKAGE}.{}.*;",
                ctx.group_package(&g.name)
            ));
        }
    }
    for line in [
        "import com.baas.client.model.*;",
        "import com.baas.runtime.CallOptions;",
        "import com.baas.runtime.Config;",
        "import com.baas.runtime.JdkTransport;",
        "import com.baas.runtime.Pages;",
        "import com.baas.runtime.RuntimeClient;",
        "import com.baas.runtime.Success;",
        "import com.baas.runtime.Transport;",
        "import com.baas.runtime.ValueSet;",
        "import com.baas.runtime.WaitPolicy;",
        "import com.baas.runtime.Wire;",
        "import com.baas.signing.JsonValue;",
        "import java.util.Optional;",
        "import java.util.Set;",
    ] {
        out.line(line);
    }
    for line in extra {
        out.line(line);
    }
    out.blank();
}

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
