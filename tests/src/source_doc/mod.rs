//! The source document's side of `tests/tests/spec_matches_source.rs`: what the bank's
//! Markdown API document (`../shared/reference/baas-api-spec.md`) says, read with no
//! knowledge of `spec/`.
//!
//! - [`parse_source`] reads the `## Endpoints` section into operations ([`SrcDoc`]):
//!   endpoint paths from `###`/`####` headings, table cells and the text ([`find_paths`]);
//!   parameters from parameter tables (`| Parameter | Type | Required |`), from
//!   `| Path | Parameters |` tables and from inline sentences ("Parameters: name (type,
//!   TRUE); ...", "Each takes ...", "Order item fields: ...", "... of items ...").
//! - [`parse_resources`] reads the `## Resources and their fields` section into field
//!   lists by label ([`SrcResField`]).
//!
//! The pieces: [`tables`](table_cells) (Markdown table rows), [inline
//! parameters](parse_inline_params) with their [required flags](Flag), operations and
//! resources. Every failure is a message naming the source line, never a panic.

mod inline;
mod operations;
mod resources;
mod tables;

pub use inline::{param_segment, parse_flag, parse_inline_params, Flag, SrcParam};
pub use operations::{find_paths, parse_source, response_sentence, SrcDoc, SrcOp};
pub use resources::{list_items, note_type, parse_resources, SrcResField};
pub use tables::{is_separator_row, table_cells, tables_in, Table};

/// Whether `c` may be part of a parameter or field name (ASCII letter, digit or `_`).
pub fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}
