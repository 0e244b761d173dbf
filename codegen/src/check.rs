//! Checking: merge the decoded files, resolve every name and validate every rule, giving
//! the checked [`model::Api`] or every problem found, each located and with help.

mod collect;
mod constraints;
mod decimal;
mod decisions;
mod declare;
mod enums;
mod envelope;
mod fields;
mod final_states;
pub(crate) mod names;
mod operation;
mod operations;
mod ops;
mod otp;
mod paging;
mod records;
mod rules;
mod sets;
#[cfg(test)]
mod testing;
mod types;

use std::fmt;

use crate::diagnostics::{self, Diagnostic};
use crate::model::{self, Field, Location, Requirement};
use crate::spec_file::{Spanned, SpecFile};

/// The outcome of a successful check.
pub(crate) struct Outcome {
    pub api: model::Api,
    pub warnings: Vec<Diagnostic>,
}

/// Who owns a list of fields, for messages.
#[derive(Debug, Clone)]
pub(crate) enum Owner {
    Operation(String),
    Response(String),
    Record(String),
    EnvelopeRequest,
    EnvelopeResponse,
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Operation(n) => write!(f, "operation `{n}`"),
            Owner::Response(n) => write!(f, "the response of operation `{n}`"),
            Owner::Record(n) => write!(f, "record `{n}`"),
            Owner::EnvelopeRequest => f.write_str("the request envelope"),
            Owner::EnvelopeResponse => f.write_str("the response envelope"),
        }
    }
}

/// The checker's state: findings so far and the declared names.
pub(crate) struct Checker {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    /// Decision ids referenced somewhere, checked once all decisions are known.
    decision_refs: Vec<(Spanned<String>, String)>,
    /// Where the spec root is, for problems that have no better place.
    root: Location,
}

impl Checker {
    /// A checker with no findings, for the spec whose display root is `root`.
    fn new(root: &str) -> Self {
        Checker {
            errors: Vec::new(),
            warnings: Vec::new(),
            decision_refs: Vec::new(),
            root: Location {
                file: format!("{root}/"),
                line: 0,
                column: 0,
            },
        }
    }

    fn error(&mut self, loc: &Location, message: impl Into<String>, help: Option<String>) {
        let d = Diagnostic::error(loc.clone(), message);
        self.errors.push(match help {
            Some(h) => d.with_help(h),
            None => d,
        });
    }

    fn warn(&mut self, loc: &Location, message: impl Into<String>, help: impl Into<String>) {
        self.warnings
            .push(Diagnostic::warning(loc.clone(), message).with_help(help));
    }

    fn decisions_of(&mut self, list: &Option<Vec<Spanned<String>>>, what: &str) -> Vec<String> {
        let mut out = Vec::new();
        for d in list.iter().flatten() {
            if out.contains(&d.value) {
                self.error(
                    &d.loc,
                    format!("decision `{}` is listed twice for {what}", d.value),
                    Some("list each decision once".into()),
                );
                continue;
            }
            out.push(d.value.clone());
            self.decision_refs.push((d.clone(), what.to_owned()));
        }
        out
    }

    /// A `deprecated:` note: its text, refused when empty (a deprecation says what to
    /// use instead).
    pub(crate) fn deprecation(
        &mut self,
        note: Option<&Spanned<String>>,
        what: &str,
    ) -> Option<String> {
        let note = note?;
        if note.value.trim().is_empty() {
            self.error(
                &note.loc,
                format!("`deprecated:` of {what} has no note"),
                Some("say what to use instead, e.g. `deprecated: \"use applyForTransfer\"`".into()),
            );
            return None;
        }
        Some(note.value.trim().to_owned())
    }

    fn non_empty(&mut self, s: &Spanned<String>, what: &str) {
        if s.value.trim().is_empty() {
            self.error(
                &s.loc,
                format!("{what} is empty"),
                Some(format!("write the {what}")),
            );
        }
    }
}

/// Checks the decoded files (in path order) of the spec whose display root is `root`.
pub(crate) fn check(files: &[SpecFile], root: &str) -> Result<Outcome, Vec<Diagnostic>> {
    let mut ck = Checker::new(root);
    let collected = collect::collect(&mut ck, files);
    let decisions = decisions::decisions(&mut ck, &collected.decisions);
    let declarations = declare::declare(&mut ck, &collected);
    let api = ops::build(&mut ck, &collected, decisions, declarations);
    diagnostics::sort(&mut ck.warnings);
    if ck.errors.is_empty() {
        if let Some(api) = api {
            return Ok(Outcome {
                api,
                warnings: ck.warnings,
            });
        }
    }
    let mut errors = ck.errors;
    diagnostics::sort(&mut errors);
    if errors.is_empty() {
        errors.push(Diagnostic::error(ck.root, "the spec could not be checked"));
    }
    Err(errors)
}

/// `file:line:column` of a place, for help texts pointing at another definition.
pub(crate) fn at(loc: &Location) -> String {
    format!("{}:{}:{}", loc.file, loc.line, loc.column)
}

/// `` `a`, `b`, `c` `` for help texts.
pub(crate) fn code_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Checker {
    /// Checks a declared field list against usage rules that need the whole API.
    fn conditional_outside_operation(&mut self, fields: &[Field], owner: &Owner) {
        for f in fields {
            if f.required == Requirement::Conditional {
                self.error(
                    &f.location,
                    format!(
                        "field `{}` of {owner} is `required: conditional`, but only operation parameters have constraints",
                        f.wire_name
                    ),
                    Some("make it `required: false` and describe the condition in `doc:`".into()),
                );
            }
        }
    }
}
