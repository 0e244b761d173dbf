//! The decoder's error: a message with help, located at the innermost node that
//! claims it.

use std::fmt;

use serde::de;

use crate::diagnostics::Diagnostic;
use crate::load::Node;
use crate::model::Location;

/// A decoding error, located once a node claims it.
#[derive(Debug)]
pub(crate) struct DeError {
    message: String,
    help: Option<String>,
    at: Option<(usize, usize)>,
}

impl DeError {
    /// Locates the error at `node`, unless an inner node claimed it.
    pub(super) fn at(mut self, node: &Node) -> Self {
        if self.at.is_none() {
            self.at = Some((node.line, node.column));
        }
        self
    }

    /// The error as a diagnostic; `fallback` gives the place when no node claimed it.
    pub(crate) fn into_diagnostic(self, file: &str, fallback: &Node) -> Diagnostic {
        let (line, column) = self.at.unwrap_or((fallback.line, fallback.column));
        let d = Diagnostic::error(
            Location {
                file: file.to_owned(),
                line,
                column,
            },
            self.message,
        );
        match self.help {
            Some(h) => d.with_help(h),
            None => d,
        }
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DeError {}

/// `expected` as a list of code spans.
fn one_of(expected: &[&str]) -> String {
    expected
        .iter()
        .map(|e| format!("`{e}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        DeError {
            message: msg.to_string(),
            help: Some("see spec/SCHEMA.md for the shape of this value".to_owned()),
            at: None,
        }
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        let help = match crate::diagnostics::suggest::did_you_mean(field, expected.iter().copied())
        {
            Some(s) => format!("did you mean `{s}`? expected one of {}", one_of(expected)),
            None => format!("expected one of {}", one_of(expected)),
        };
        DeError {
            message: format!("unknown key `{field}`"),
            help: Some(help),
            at: None,
        }
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        let help =
            match crate::diagnostics::suggest::did_you_mean(variant, expected.iter().copied()) {
                Some(s) => format!("did you mean `{s}`? expected one of {}", one_of(expected)),
                None => format!("expected one of {}", one_of(expected)),
            };
        DeError {
            message: format!("unknown value `{variant}`"),
            help: Some(help),
            at: None,
        }
    }

    fn missing_field(field: &'static str) -> Self {
        DeError {
            message: format!("missing key `{field}`"),
            help: Some(format!("add `{field}:` (see spec/SCHEMA.md)")),
            at: None,
        }
    }

    fn duplicate_field(field: &'static str) -> Self {
        DeError {
            message: format!("key `{field}` appears twice"),
            help: Some("remove one of the two entries".to_owned()),
            at: None,
        }
    }
}
