//! Tokens → text: parse as a `syn::File`, print with prettyplease, prepend the
//! `@generated` header.

use std::fmt;

use proc_macro2::TokenStream;

use crate::artifact::{Content, EmittedFile, GeneratedFile, GENERATED_HEADER};

/// The tokens did not parse as a Rust file: a generator bug.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "generated tokens are not a valid Rust file: {}",
            self.message
        )
    }
}

impl std::error::Error for FormatError {}

/// Parses `tokens` as a file and prints it with prettyplease, after the header.
pub fn format_tokens(tokens: TokenStream) -> Result<String, FormatError> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| FormatError {
        message: e.to_string(),
    })?;
    let body = prettyplease::unparse(&file);
    Ok(format!("{GENERATED_HEADER}{body}"))
}

/// Formats emitted files: Rust tokens are printed, text is kept as is.
///
/// # Errors
/// The first file whose tokens do not parse (a generator bug), named.
pub fn format_files(files: Vec<EmittedFile>) -> Result<Vec<GeneratedFile>, FormatError> {
    files
        .into_iter()
        .map(|file| {
            let contents = match file.content {
                Content::Rust(tokens) => format_tokens(tokens).map_err(|e| FormatError {
                    message: format!("{}: {}", file.path, e.message),
                })?,
                Content::Text(text) => text,
            };
            Ok(GeneratedFile {
                path: file.path,
                contents,
            })
        })
        .collect()
}
