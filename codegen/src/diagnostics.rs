//! Located diagnostics: what the front end reports about a spec.
//!
//! Every diagnostic names a place in `spec/` (`file:line:column`), says what is wrong and,
//! when there is one, how to fix it. Rendering is deterministic so that snapshots of the
//! messages are identical on every machine.

pub mod suggest;

use std::fmt;

use crate::model::Location;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The spec is refused.
    Error,
    /// The spec is accepted, but something deserves a look.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One located finding about the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where the problem is. `line == 0` means "the whole file or folder" (no position).
    pub location: Location,
    /// What is wrong, naming the item (field, operation, record, ...) and the rule broken.
    pub message: String,
    /// How to fix it, when there is something useful to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `location`.
    pub fn error(location: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            location,
            message: message.into(),
            help: None,
        }
    }

    /// A warning at `location`.
    pub fn warning(location: Location, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            location,
            message: message.into(),
            help: None,
        }
    }

    /// The same diagnostic with a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:column: severity: message`, then `  help: ...` on its own line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let loc = &self.location;
        if loc.line == 0 {
            write!(f, "{}: {}: {}", loc.file, self.severity, self.message)?;
        } else {
            write!(
                f,
                "{}:{}:{}: {}: {}",
                loc.file, loc.line, loc.column, self.severity, self.message
            )?;
        }
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

/// Every error found in a spec (never empty when returned by `check_spec`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Diagnostics {
    /// One block per diagnostic, each block ending the line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Sorts diagnostics by file, line and column, keeping discovery order for equal places.
pub(crate) fn sort(list: &mut [Diagnostic]) {
    list.sort_by(|a, b| {
        (&a.location.file, a.location.line, a.location.column).cmp(&(
            &b.location.file,
            b.location.line,
            b.location.column,
        ))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: usize) -> Location {
        Location {
            file: "spec/operations/cny.yaml".into(),
            line,
            column: 7,
        }
    }

    #[test]
    fn renders_located_error_with_help() {
        let d = Diagnostic::error(loc(12), "unknown type `Strng`").with_help("use `string`");
        assert_eq!(
            d.to_string(),
            "spec/operations/cny.yaml:12:7: error: unknown type `Strng`\n  help: use `string`"
        );
    }

    #[test]
    fn renders_unpositioned_warning() {
        let d = Diagnostic::warning(loc(0), "no files");
        assert_eq!(d.to_string(), "spec/operations/cny.yaml: warning: no files");
    }

    #[test]
    fn sorts_by_place_then_discovery() {
        let mut v = vec![
            Diagnostic::error(loc(3), "b"),
            Diagnostic::error(loc(1), "a"),
            Diagnostic::error(loc(3), "c"),
        ];
        sort(&mut v);
        let msgs: Vec<_> = v.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(msgs, ["a", "b", "c"]);
    }
}
