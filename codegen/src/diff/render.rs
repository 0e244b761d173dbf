//! A [`Report`] as Markdown (a changelog entry, grouped by operation, breaking lines
//! marked) or as JSON for tools (shape: `codegen/DIFF.md`).

use std::fmt::Write as _;

use super::{Change, Level, Report, Scope, Wire};

/// The report as pretty JSON, then a newline.
pub fn json(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(report).unwrap_or_else(|e| {
        // Serialising plain strings, enums and vectors cannot fail.
        format!("{{\"error\": \"{e}\"}}")
    });
    s.push('\n');
    s
}

fn heading(c: &Change) -> String {
    match c.scope {
        Scope::Operation => format!("Operation `{}`", c.name),
        Scope::Record => format!("Record `{}`", c.name),
        Scope::Enum => format!("Value set `{}`", c.name),
        Scope::ResultCodes => "Result codes".to_owned(),
        Scope::Notifications => "Notifications".to_owned(),
        Scope::Envelope => "Envelope".to_owned(),
        Scope::Decisions => "Decisions".to_owned(),
        Scope::Api => "API".to_owned(),
    }
}

fn line(c: &Change) -> String {
    let mut marks = Vec::new();
    if c.rust == Level::Major {
        marks.push("Rust");
    }
    if c.wire == Wire::Breaking {
        marks.push("wire");
    }
    let mut s = String::from("- ");
    if !marks.is_empty() {
        let _ = write!(s, "**BREAKING ({})** ", marks.join(", "));
    }
    if !c.item.is_empty() {
        let _ = write!(s, "`{}`: ", c.item);
    }
    s.push_str(&c.change);
    let _ = write!(s, " — Rust {}, wire {}", c.rust, c.wire);
    if c.signing {
        s.push_str("; **changes the signed string**");
    }
    if c.removed_without_deprecation {
        s.push_str("; **removed without being deprecated first**");
    }
    s
}

/// The entry's heading: `## <client version>`, with the API's version when given.
pub fn entry_heading(report: &Report) -> String {
    if report.new.api_version.is_empty() {
        format!("## {}", report.new.client_version)
    } else {
        format!(
            "## {} (API {})",
            report.new.client_version, report.new.api_version
        )
    }
}

/// A changelog entry: heading, the bump and its reason, then one section per operation
/// (then records, value sets, the rest), each change on a line.
pub fn markdown(report: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}", entry_heading(report));
    let _ = writeln!(s);
    let from = &report.old;
    let _ = writeln!(
        s,
        "Spec changes since {}{}: **{}** bump by Cargo's semver rules{}.",
        from.client_version,
        if from.api_version.is_empty() {
            String::new()
        } else {
            format!(" (API {})", from.api_version)
        },
        report.bump,
        if report.wire_breaking() {
            "; **some requests accepted before are refused now, or responses differ**"
        } else {
            ""
        }
    );
    if report.changes.is_empty() {
        let _ = writeln!(s, "\nNo change to the API.");
        return s;
    }
    let _ = writeln!(
        s,
        "\n_Rust_: what code written against `baas-client` must change (major: it may not compile). _wire_: whether a request the service accepted before is refused now, or a response field partners read may be missing or different."
    );
    let mut last = String::new();
    for c in &report.changes {
        let h = heading(c);
        if h != last {
            let _ = writeln!(s, "\n### {h}\n");
            if !c.used_by.is_empty() {
                let ops: Vec<String> = c.used_by.iter().map(|o| format!("`{o}`")).collect();
                let _ = writeln!(s, "Used by {}.\n", ops.join(", "));
            }
            last = h;
        }
        let _ = writeln!(s, "{}", line(c));
    }
    s
}
