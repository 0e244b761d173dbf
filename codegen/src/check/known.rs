//! What the checks of one operation read: the declared names and the checked records.
//! Its own module, so the passes that check parts of an operation (constraints, final
//! states, paging) depend on it and not on the pass that walks every operation.

use super::declare::Declared;
use super::records::Records;

/// The declared names and the checked records, as one operation's checks read them.
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    pub declared: &'a Declared,
    pub records: &'a Records,
}
