//! The data classes of the SDK, as Python source: `enums.py` ([`enums`]), `records.py`
//! ([`records`]: sent and received shapes), each group's requests and responses
//! ([`operations`]), and the rule checks of sent shapes ([`validation`]).

mod enums;
mod notifications;
mod operations;
mod records;
mod validation;

pub use enums::enums_module;
pub use notifications::notifications_module;
pub use operations::{group_module, request_name, response_fields, response_name};
pub use records::records_module;

use super::names::doc_text;
use super::Out;

/// A docstring at the current indentation.
pub fn docstring(out: &mut Out, text: &str) {
    let body = doc_text(text.trim());
    if body.contains('\n') {
        out.line(&format!("\"\"\"{body}"));
        out.line("\"\"\"");
    } else {
        out.line(&format!("\"\"\"{body}\"\"\""));
    }
}
