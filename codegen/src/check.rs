//! Checking: merge the decoded files, resolve every name and validate every rule, giving
//! the checked [`model::Api`] or every problem found, each located and with help.
//!
//! The checker runs as passes, each a module whose output type says what the later
//! passes may rely on; every pass records its findings in the one [`Checker`] and goes
//! on, so one run reports every problem:
//!
//! 1. [`collect`]: the top-level items of every file ([`collect::Collected`]);
//! 2. [`decisions`]: the recorded decisions ([`decisions::Decisions`]);
//! 3. [`declare`]: the names of enums and records, and each enum's values
//!    ([`declare::Declarations`], whose [`declare::Declared`] the later passes read);
//! 4. [`records`]: each record's fields, with its field sets ([`records::Records`]);
//!    a field list is checked by [`fields`] (types by [`types`], rules by [`rules`]);
//! 5. [`envelope`]: the envelope's fields ([`model::Envelope`]);
//! 6. [`operations`]: groups and operations ([`operations::Operations`]; one operation
//!    in [`operation`], with [`constraints`], [`paging`], [`final_states`]);
//! 7. cross-checks over every operation ([`cross`]), then [`shapes`]: record directions
//!    and the names of generated shapes ([`shapes::Shaped`]), the OTP flow ([`otp`]),
//!    result codes and notifications ([`codes`]), decision references
//!    ([`decisions::references`]);
//! 8. [`api`]: the `api:` header, and the [`model::Api`] put together.
//!
//! The order is also the order problems are found in, which breaks ties between
//! problems at the same place once they are sorted by place.

mod api;
mod codes;
mod collect;
mod constraints;
mod cross;
mod decisions;
mod declare;
mod enums;
mod envelope;
mod fields;
mod final_states;
mod known;
pub(crate) mod names;
mod operation;
mod operations;
mod otp;
mod paging;
mod records;
mod rules;
mod sets;
mod settle;
mod shapes;
#[cfg(test)]
mod testing;
mod types;

use std::fmt;

use crate::diagnostics::{self, Diagnostic};
use crate::model::{self, Location};
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

/// What every pass writes to: the findings so far, and the decision references to check
/// once every decision is known. What the passes learn about the spec is in their
/// outputs, not here.
pub(crate) struct Checker {
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    /// Decision ids referenced somewhere, checked once all decisions are known.
    decision_refs: Vec<(Spanned<String>, String)>,
    /// Where the spec root is, for problems that have no better place.
    root: Location,
    /// Whether completeness findings (an OTP operation without a business id, a paged
    /// operation without a pager) are errors, or warnings for a spec written before the
    /// rule (an earlier revision read by the diff).
    completeness: Completeness,
}

/// How the checker treats what a spec lacks for the client's helpers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Completeness {
    /// Errors: the spec being built must be complete.
    Enforced,
    /// Warnings: an earlier revision, compared with the current one, may predate a rule.
    Reported,
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
            completeness: Completeness::Enforced,
        }
    }

    /// Something the client's helpers need and the spec lacks: an error, or a warning
    /// under [`Completeness::Reported`].
    fn incomplete(&mut self, loc: &Location, message: impl Into<String>, help: String) {
        match self.completeness {
            Completeness::Enforced => self.error(loc, message, Some(help)),
            Completeness::Reported => self.warn(loc, message, help),
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
pub(crate) fn check(
    files: &[SpecFile],
    root: &str,
    completeness: Completeness,
) -> Result<Outcome, Vec<Diagnostic>> {
    let mut ck = Checker::new(root);
    ck.completeness = completeness;
    let api = passes(&mut ck, files);
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

/// Runs every pass in order; `None` when something essential is missing (reported).
fn passes(ck: &mut Checker, files: &[SpecFile]) -> Option<model::Api> {
    let collected = collect::collect(ck, files);
    let decisions = decisions::decisions(ck, &collected.decisions);
    let declarations = declare::declare(ck, &collected);
    let declared = &declarations.declared;
    let records = records::records(ck, declared, &collected.field_sets, &declarations.records);
    let envelope = envelope::envelope(ck, declared, collected.envelope);
    let known = known::Known {
        declared,
        records: &records,
    };
    let operations = operations::operations(ck, known, &collected);
    let all_ops: Vec<&model::Operation> = operations
        .groups
        .iter()
        .flat_map(|g| g.operations.iter())
        .collect();
    cross::operation_names(ck, &all_ops, &declared.types);
    cross::shared_paths(ck, &all_ops, &decisions.list);
    let op_names: Vec<&str> = all_ops.iter().map(|o| o.name.as_str()).collect();
    let notifications =
        codes::notifications(ck, &collected.notifications, &op_names, &declared.records);
    let shaped = shapes::shapes(
        ck,
        records,
        operations.groups,
        notifications,
        &declared.types,
    );
    let otp_flow = otp::otp_flow(ck, &operations.otp_steps, &shaped.groups);
    let mut groups = shaped.groups;
    settle::settled_by(ck, &operations.settled_by, &mut groups, otp_flow.as_ref());
    let result_codes = codes::result_codes(ck, &collected.result_codes);
    decisions::references(ck, &decisions);
    let parts = api::Parts {
        envelope,
        result_codes,
        groups,
        records: shaped.records,
        enums: declarations.enums,
        notifications: shaped.notifications,
        decisions: decisions.list,
        otp_flow,
    };
    api::api(ck, collected.api, parts)
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
