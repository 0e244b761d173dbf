//! rustdoc text built from the spec: doc text, wire names and paths, rules in words,
//! provenance and recorded decisions.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::TypeRef;
use crate::plan::{sentences, ConstraintPlan, Direction, FieldPlan, RulePlan, SdkPlan};
use crate::rules::RuleKind;

/// Lines of one doc comment, in paragraphs.
#[derive(Debug, Default, Clone)]
pub struct Doc {
    lines: Vec<String>,
}

impl Doc {
    /// An empty doc.
    pub fn new() -> Doc {
        Doc::default()
    }

    /// Adds a paragraph of spec text ([`spec_text`]). Empty text adds nothing.
    pub fn text(&mut self, text: &str) -> &mut Doc {
        let text = spec_text(text);
        if !text.is_empty() {
            self.raw(&text);
        }
        self
    }

    /// Adds a paragraph written by the generator (already valid Markdown, one line).
    pub fn raw(&mut self, line: &str) -> &mut Doc {
        if !self.lines.is_empty() {
            self.lines.push(String::new());
        }
        self.lines.push(line.to_owned());
        self
    }

    /// Continues the last paragraph with `line` (a sentence written by the generator), or
    /// starts the first: short facts join the text they belong to instead of standing
    /// alone. A paragraph that does not end a sentence (spec text such as `"0 not
    /// submitted"`) gets its full stop first.
    pub fn sentence(&mut self, line: &str) -> &mut Doc {
        match self.lines.last_mut() {
            Some(last) if !last.is_empty() && !last.starts_with("- ") && !last.starts_with('#') => {
                crate::model::end_sentence(last);
                last.push(' ');
                last.push_str(line);
            }
            _ => {
                self.raw(line);
            }
        }
        self
    }

    /// Adds lines as one block (a fenced code block), none of them escaped.
    pub fn block(&mut self, lines: &[String]) -> &mut Doc {
        if !self.lines.is_empty() {
            self.lines.push(String::new());
        }
        self.lines.extend(lines.iter().cloned());
        self
    }

    /// Adds a bullet list as one paragraph.
    pub fn list(&mut self, heading: &str, items: &[String]) -> &mut Doc {
        if items.is_empty() {
            return self;
        }
        self.raw(heading);
        self.lines.push(String::new());
        for item in items {
            self.lines.push(format!("- {item}"));
        }
        self
    }

    /// Adds a fenced code block (`lang` after the opening fence) as one paragraph.
    pub fn code(&mut self, lang: &str, lines: &[String]) -> &mut Doc {
        self.raw(&format!("```{lang}"));
        self.lines.extend(lines.iter().cloned());
        self.lines.push("```".to_owned());
        self
    }

    /// Outer doc attributes (`#[doc = " ..."]`).
    pub fn outer(&self) -> TokenStream {
        let lines = self.lines.iter().map(|l| pad(l));
        quote!(#(#[doc = #lines])*)
    }

    /// Inner doc attributes (`#![doc = " ..."]`).
    pub fn inner(&self) -> TokenStream {
        let lines = self.lines.iter().map(|l| pad(l));
        quote!(#(#![doc = #lines])*)
    }
}

fn pad(line: &str) -> String {
    if line.is_empty() {
        String::new()
    } else {
        format!(" {line}")
    }
}

/// Spec text as rustdoc shows it: partner text (as every SDK shows it: whitespace
/// collapsed, no file partners do not have), its Markdown specials escaped.
pub fn spec_text(text: &str) -> String {
    escape_markdown(&crate::text::partner_text(text))
}

/// Escapes characters rustdoc would read as links or HTML outside code spans.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code && matches!(c, '[' | ']' | '<' | '>' | '*' | '_' | '\\' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    if in_code {
        // An unbalanced backtick would swallow the rest of the doc: escape it instead.
        return escape_markdown(&text.replace('`', "'"));
    }
    out
}

/// Adds where a fact comes from (the plan's sentence, `None` for the bank's API document)
/// to the last paragraph of a doc.
pub fn add_evidence(doc: &mut Doc, evidence: Option<&str>) {
    if let Some(words) = evidence {
        doc.sentence(words);
    }
}

/// The rustdoc id of the heading of decision `id` in the decisions section
/// (`## Decision `id``): rustdoc lowercases the heading text, turns spaces into `-` and
/// drops other punctuation.
pub fn decision_anchor(id: &str) -> String {
    let mut out = String::from("decision-");
    for c in id.chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c.is_whitespace() {
            out.push('-');
        }
    }
    out
}

/// Adds a one-line link per recorded decision that is not one the plan lists throughout
/// ([`DecisionPlan::blanket`](crate::plan::DecisionPlan::blanket)): the decision is
/// written in full once, in the decisions section at the root ([`add_decisions_section`]);
/// an item only points there. Every item carrying decisions sits in a module at the root,
/// so `super` is the root, in the crate and in a single-file fixture alike.
pub fn add_decisions(doc: &mut Doc, plan: &SdkPlan, ids: &[String]) {
    for id in ids {
        let link = format!("[`{id}`](super::decisions#{})", decision_anchor(id));
        match plan.decision(id) {
            Some(d) if d.blanket => {}
            Some(d) => {
                doc.raw(&format!(
                    "Decision {link}: about {}.",
                    spec_text(&d.about).trim_end_matches('.')
                ));
            }
            None => {
                doc.raw(&format!("Decision `{id}`."));
            }
        }
    }
}

/// The decisions that apply throughout, one line each (at the crate root).
pub fn add_blanket_decisions(doc: &mut Doc, plan: &SdkPlan) {
    let items: Vec<String> = plan
        .decisions
        .iter()
        .filter(|d| d.blanket)
        .map(|d| {
            format!(
                "[`{}`](decisions#{}) — {}",
                d.id,
                decision_anchor(&d.id),
                spec_text(&d.about).trim_end_matches('.')
            )
        })
        .collect();
    doc.list(
        "Decisions that apply to many items are listed here once instead of on each:",
        &items,
    );
}

/// Adds every recorded decision in full, under a `# Decisions` heading with one
/// `## Decision `id`` heading each (the targets of [`add_decisions`] links).
pub fn add_decisions_section(doc: &mut Doc, plan: &SdkPlan) {
    if plan.decisions.is_empty() {
        return;
    }
    doc.raw("# Decisions");
    doc.raw("Where the source document is ambiguous, the spec records what was decided and why. Items link here.");
    for d in &plan.decisions {
        doc.raw(&format!("## Decision `{}`", d.id));
        doc.raw(&format!(
            "About {}. **Decided:** {} **Why:** {}",
            spec_text(&d.about).trim_end_matches('.'),
            spec_text(&d.decision),
            spec_text(&d.reason)
        ));
        let source = spec_text(&d.source_text);
        if !source.is_empty() {
            doc.raw(&format!("> {source}"));
        }
    }
}

/// A rule in words: "at most 100 characters" (a server-side rule's text escaped for
/// Markdown).
pub fn rule_words(kind: &RuleKind) -> String {
    kind.words_with(spec_text)
}

/// One rule as a list item, with its note and where it is known from.
pub fn rule_item(rule: &RulePlan) -> String {
    let mut s = rule_words(&rule.kind);
    let doc = spec_text(&rule.text);
    if !doc.is_empty() {
        s.push_str(" — ");
        s.push_str(&doc);
    }
    if let Some(p) = &rule.evidence {
        s.push_str(" (");
        s.push_str(p.trim_end_matches('.'));
        s.push(')');
    }
    if rule.each_element {
        s.insert_str(0, "each element: ");
    }
    s
}

/// `#[deprecated(note = "…")]` when deprecated.
pub fn deprecated_attr(note: Option<&str>) -> TokenStream {
    match note {
        Some(note) => {
            let note = crate::text::partner_text(note);
            quote!(#[deprecated(note = #note)])
        }
        None => quote!(),
    }
}

/// A human description of a model type, linking the type of the given direction.
pub fn type_words(ty: &TypeRef, direction: Direction) -> String {
    match ty {
        TypeRef::String => "string".to_owned(),
        TypeRef::Int => "int".to_owned(),
        TypeRef::Long => "long".to_owned(),
        TypeRef::Decimal { wire } => match wire {
            crate::model::DecimalWire::String => "decimal, sent as a JSON string".to_owned(),
            crate::model::DecimalWire::Number => "decimal, sent as a JSON number".to_owned(),
        },
        TypeRef::Bool => "bool".to_owned(),
        TypeRef::Date => "date, `YYYY-MM-DD`: [`Date`](baas_runtime::Date)".to_owned(),
        TypeRef::Document => {
            "document, sent as Base64: [`Document`](baas_runtime::Document), from bytes or a file"
                .to_owned()
        }
        TypeRef::Scalar => {
            "a string or number whose type is not shown; read it either way".to_owned()
        }
        TypeRef::Json => "JSON, shape not given by the spec".to_owned(),
        TypeRef::Enum { name } => format!("value set [`enums::{name}`](super::enums::{name})"),
        TypeRef::Record {
            name,
            received_name,
        } => {
            let name = match direction {
                Direction::Sent => name,
                Direction::Received => received_name,
            };
            format!("record [`records::{name}`](super::records::{name})")
        }
        TypeRef::Array { item } => format!("array of {}", type_words(item, direction)),
    }
}

/// The doc of a field: spec text, wire name and type, requirement, rules, where it is
/// known from, decisions.
pub fn field_doc(plan: &SdkPlan, field: &FieldPlan, direction: Direction) -> Doc {
    let mut doc = Doc::new();
    doc.text(&field.text);
    let mut line = format!(
        "Wire name: `{}` ({}).",
        field.wire_name,
        type_words(&field.ty, direction)
    );
    if direction == Direction::Sent {
        line.push(' ');
        line.push_str(sentences::requirement(field.requirement));
    }
    if let Some(p) = &field.evidence {
        line.push(' ');
        line.push_str(p);
    }
    doc.sentence(&line);
    let rules: Vec<String> = field.rules.iter().map(rule_item).collect();
    doc.list("Rules:", &rules);
    add_decisions(&mut doc, plan, &field.decisions);
    add_deprecation(&mut doc, field.deprecated());
    doc
}

/// Adds `Deprecated: note` (rustdoc shows the attribute too; the sentence keeps the note
/// in the text and in the docs of items without the attribute).
pub fn add_deprecation(doc: &mut Doc, note: Option<&str>) {
    if let Some(note) = note {
        doc.raw(&format!("Deprecated: {}", spec_text(note)));
    }
}

/// A constraint in words for the request's doc: the plan's sentence, with the spec's own
/// text escaped for rustdoc.
pub fn constraint_item(c: &ConstraintPlan) -> String {
    c.sentence_with(&spec_text)
}
