//! Names the emitter itself uses, so the spec may not take them. The checker refuses them
//! with a located error, so the emitter never meets them.
//!
//! Each list was found by emitting a spec that uses the name and compiling the result:
//! every name here breaks the generated crate (or, for `validate`, hides a method).

/// Module names of the generated crate root that are not groups: the generated modules,
/// `lib` and `main` (the files `src/lib.rs` and `src/main.rs`: the second would turn the
/// crate into a binary), the runtime crate the generated code names (`baas_runtime::…`)
/// and the runtime modules the root re-exports (`notification`, `transport`).
pub(crate) const MODULES: &[&str] = &[
    "baas_runtime",
    "call",
    "client",
    "decisions",
    "dispatch",
    "enums",
    "lib",
    "main",
    "mock",
    "notification",
    "notifications",
    "pending",
    "records",
    "transport",
];

/// Type names a record or enum may not take: the generated `records` and `enums` modules
/// use Rust's prelude names unqualified (`Option<String>`, `Vec<..>`, `Result<Self, ..>`,
/// `impl From<i64>`, `Some(..)`), and a type of the same name in the module would shadow
/// them. This is the 2021 prelude, types, traits and variants.
pub(crate) const TYPES: &[&str] = &[
    "AsMut",
    "AsRef",
    "Box",
    "Clone",
    "Copy",
    "Default",
    "DoubleEndedIterator",
    "Drop",
    "Eq",
    "Err",
    "ExactSizeIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "FromIterator",
    "Into",
    "IntoIterator",
    "Iterator",
    "None",
    "Ok",
    "Option",
    "Ord",
    "PartialEq",
    "PartialOrd",
    "Result",
    "Send",
    "Sized",
    "Some",
    "String",
    "Sync",
    "ToOwned",
    "ToString",
    "TryFrom",
    "TryInto",
    "Unpin",
    "Vec",
];

/// Type names the generated `enums` module defines itself (from `result_codes:` and
/// `notifications:`, re-exported at the crate root): a record or enum of the same name
/// would collide with them.
pub(crate) const GENERATED_TYPES: &[&str] = &["NotificationType", "ResultCode"];

/// Methods of the generated `Client` that are not operations.
pub(crate) const CLIENT_METHODS: &[&str] = &[
    "from_runtime",
    "group_pending",
    "new",
    "runtime",
    "with_transport",
];

/// Methods that a field's setter (named after the field) would collide with: of generated
/// request structs and records, the constructor, `validate_at` of records, and
/// `Operation::validate`, which an inherent setter of the same name would hide; of the
/// generic `Call`, on which each request's setters are repeated, its own methods.
pub(crate) const STRUCT_METHODS: &[&str] = &[
    "into_request",
    "new",
    "options",
    "pages",
    "pending",
    "request",
    "send",
    "send_with_details",
    "until_final",
    "validate",
    "validate_at",
];
