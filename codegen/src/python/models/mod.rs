//! The data classes of the SDK, as Python source: `enums.py` ([`enums`]), `records.py`
//! ([`records`]: sent and received shapes), each group's requests and responses
//! ([`operations`]), the notifications' payloads ([`notifications`]), and the rule
//! checks of sent shapes ([`validation`]).

mod enums;
mod notifications;
mod operations;
mod records;
mod slotted;
mod validation;

pub use enums::enums_module;
pub use notifications::notifications_module;
pub use operations::{field_ident, group_module, request_name, response_name};
pub use records::{records_module, required_first};
