//! Helpers for the passes' unit tests: spec files from YAML text, a fresh checker, and
//! its findings as `file:line:column: message` lines.

use super::collect::collect;
use super::declare::{declare, Declared};
use super::known::Known;
use super::operations::operations;
use super::otp::otp_flow;
use super::records::{records, Records};
use super::settle::settled_by;
use super::Checker;
use crate::load::{load_file, Source};
use crate::model::{self, Location};
use crate::spec_file::SpecFile;

/// Types for the operations of the passes' tests: an integer enum, a string enum, a
/// record of items with a decimal amount, and a record holding a status.
pub(super) const TYPES: &str = "enums:
  - { name: Status, wire_type: integer, values: [{ wire: 1, name: Done }, { wire: -1, name: Failed }] }
  - { name: Kind, wire_type: string, values: [{ wire: A, name: Alpha }, { wire: B, name: Beta }] }
records:
  - { name: Item, fields: [{ name: amount, type: decimal, wire: string, required: true }, { name: label, type: string }] }
  - { name: Detail, fields: [{ name: status, type: Status }, { name: note, type: json }] }
";

/// The passes through the operations pass run on `yaml` (one file, with [`TYPES`] in
/// another).
pub(super) struct Ran {
    /// What every pass found.
    pub ck: Checker,
    pub declared: Declared,
    pub records: Records,
    pub groups: Vec<model::Group>,
    /// The OTP flow, when asked for.
    pub otp: Option<model::OtpFlow>,
}

/// Runs the passes through the operations pass on `yaml`, and the OTP flow if `otp`.
pub(super) fn run(yaml: &str, otp: bool) -> Ran {
    let files = files(&[("s/a.yaml", TYPES), ("s/t.yaml", yaml)]);
    let mut ck = checker();
    let c = collect(&mut ck, &files);
    let d = declare(&mut ck, &c);
    let records = records(&mut ck, &d.declared, &c.field_sets, &d.records);
    let known = Known {
        declared: &d.declared,
        records: &records,
    };
    let ops = operations(&mut ck, known, &c);
    let flow = otp
        .then(|| otp_flow(&mut ck, &ops.otp_steps, &ops.groups))
        .flatten();
    let mut groups = ops.groups;
    if otp {
        settled_by(&mut ck, &ops.settled_by, &mut groups, flow.as_ref());
    }
    Ran {
        ck,
        declared: d.declared,
        records,
        groups,
        otp: flow,
    }
}

/// The operations of `yaml` through the operations pass, and the checker.
pub(super) fn operations_of(yaml: &str) -> (Vec<model::Group>, Checker) {
    let ran = run(yaml, false);
    (ran.groups, ran.ck)
}

/// As [`operations_of`], then the OTP flow of its operations.
pub(super) fn otp_flow_of(yaml: &str) -> (Option<model::OtpFlow>, Checker) {
    let ran = run(yaml, true);
    (ran.otp, ran.ck)
}

/// Decodes `(display path, YAML)` pairs, in the order given; panics on a decoding error.
pub(super) fn files(sources: &[(&str, &str)]) -> Vec<SpecFile> {
    sources
        .iter()
        .map(|(name, text)| {
            let source = Source {
                name: (*name).to_owned(),
                text: (*text).to_owned(),
            };
            load_file(&source).unwrap_or_else(|e| panic!("{name} does not decode: {e:?}"))
        })
        .collect()
}

/// One decoded file.
pub(super) fn file(text: &str) -> SpecFile {
    files(&[("s/t.yaml", text)]).remove(0)
}

/// A checker with no findings, for the spec root `s`.
pub(super) fn checker() -> Checker {
    Checker::new("s")
}

/// A place in `s/t.yaml`.
pub(super) fn loc(line: usize) -> Location {
    Location {
        file: "s/t.yaml".into(),
        line,
        column: 1,
    }
}

/// The errors so far, in the order found.
pub(super) fn errors(ck: &Checker) -> Vec<String> {
    ck.errors.iter().map(line).collect()
}

/// The warnings so far, in the order found.
pub(super) fn warnings(ck: &Checker) -> Vec<String> {
    ck.warnings.iter().map(line).collect()
}

fn line(d: &crate::diagnostics::Diagnostic) -> String {
    let l = &d.location;
    format!("{}:{}:{}: {}", l.file, l.line, l.column, d.message)
}
