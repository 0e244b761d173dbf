//! The table of operations: the types it is written in, and the generated table itself
//! (`generated/cli/commands.rs`, rendered from the SDK plan by `baas-codegen`).

/// A group of operations: `baas <group> …`.
#[derive(Debug)]
pub struct Group {
    /// The group's command name (`account`).
    pub name: &'static str,
    /// Its help.
    pub about: &'static str,
    /// Its operations, in spec order.
    pub operations: &'static [Operation],
}

/// One operation: `baas <group> <command>`.
#[derive(Debug)]
pub struct Operation {
    /// The command name: the wire name in kebab case (`apply-for-transfer`).
    pub command: &'static str,
    /// The wire name (`applyForTransfer`).
    pub wire: &'static str,
    /// The HTTP path.
    pub path: &'static str,
    /// One line of help.
    pub about: &'static str,
    /// The whole help: the plan's docs, evidence grade included.
    pub long_about: &'static str,
    /// Whether the call may move money (never re-sent once its bytes may have left).
    pub moves_money: bool,
    /// Whether it takes effect only once confirmed with an OTP.
    pub otp: bool,
    /// Whether its parameters are not listed (a JSON object sent as given).
    pub free_params: bool,
    /// Its parameters: one flag each.
    pub fields: &'static [Field],
    /// How it pages (`--all`).
    pub pages: Option<Pages>,
    /// Where its application's business id comes from (`--otp`).
    pub pending: Option<BusinessId>,
    /// The state it reports and its final values (`--wait`).
    pub until_final: Option<Final>,
    /// The status query that settles its application's unknown confirmation (`--otp`).
    pub settle: Option<Settle>,
}

/// One parameter: `--<flag> VALUE`.
#[derive(Debug)]
pub struct Field {
    /// The flag: the wire name in kebab case.
    pub flag: &'static str,
    /// The wire name.
    pub wire: &'static str,
    /// How the flag's text becomes JSON.
    pub kind: Kind,
    /// Whether the request must hold it.
    pub required: bool,
    /// Its doc and rules in words.
    pub help: &'static str,
}

/// How a flag's text becomes the parameter's JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A JSON string, as written.
    Text,
    /// A JSON integer.
    Integer,
    /// Money as a JSON string of its exact text (`"100.50"`).
    Decimal,
    /// A day of the calendar, `YYYY-MM-DD`, as a JSON string.
    Date,
    /// Money as a JSON number of its exact text (`100.50`).
    #[allow(dead_code)] // no parameter of today's spec is one; the generator can write it
    DecimalNumber,
    /// `true` or `false`.
    #[allow(dead_code)] // no parameter of today's spec is one; the generator can write it
    Bool,
    /// One of a value set's wire values.
    Enum {
        /// The value set.
        name: &'static str,
        /// Whether its wire values are integers.
        integer: bool,
        /// Its wire values.
        values: &'static [&'static str],
        /// An open set: any other text value is taken too.
        open: bool,
    },
    /// JSON text (a record, an array, a value not shown).
    Json,
}

/// How a paged operation pages.
#[derive(Debug, Clone, Copy)]
pub struct Pages {
    /// The page-number parameter.
    pub page: &'static str,
    /// Whether the page number is sent as a JSON string (else a number).
    pub page_is_text: bool,
    /// The page-size parameter.
    pub size: &'static str,
    /// The first page's number.
    pub first_page: i64,
    /// The answer field holding the items.
    pub items: &'static str,
}

/// Where an OTP application's business id comes from.
#[derive(Debug, Clone, Copy)]
pub enum BusinessId {
    /// This answer field.
    ResponseField(&'static str),
    /// The requestId the call was sent with.
    RequestId,
}

/// The state a status query reports and its final values.
#[derive(Debug, Clone, Copy)]
pub struct Final {
    /// The answer field.
    pub field: &'static str,
    /// Its final values, as wire text.
    pub values: &'static [&'static str],
}

/// How an OTP application's unknown confirmation is settled: its status query, sent
/// once with the business id, and what the state it reports means.
#[derive(Debug, Clone, Copy)]
pub struct Settle {
    /// The status query's wire name (`getTransResult`).
    pub query: &'static str,
    /// Its parameter taking the business id (wire name).
    pub param: &'static str,
    /// The answer field holding the state.
    pub field: &'static str,
    /// Every state its value set lists, as wire text (empty: the field has no value set,
    /// and any state it reports counts as listed).
    pub states: &'static [&'static str],
    /// The states in which the application still waits for its OTP, as wire text.
    pub awaiting_otp: &'static [&'static str],
    /// The query's final states, as wire text.
    pub finals: &'static [&'static str],
    /// When the OTP may be sent again, in the spec's words.
    pub otp_rule: &'static str,
}

/// What the generated [`visit`] hands an operation's Rust request type to: one method
/// per call the plan gives an operation, the most specific one it offers.
pub trait Visitor {
    /// What a visit gives.
    type Out;
    /// An operation that is only sent.
    fn send<O>(self) -> Self::Out
    where
        O: baas_runtime::Operation + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize;
    /// A paged operation (`--all`).
    fn paged<O>(self) -> Self::Out
    where
        O: baas_runtime::Paged + serde::de::DeserializeOwned,
        O::Response: serde::Serialize,
        O::Item: serde::Serialize;
    /// An operation that waits for an OTP (`--otp`).
    fn pending<O>(self) -> Self::Out
    where
        O: baas_client::pending::OtpApplication + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize + Clone;
    /// A status query with final states (`--wait`).
    fn until_final<O>(self) -> Self::Out
    where
        O: baas_client::FinalState + serde::de::DeserializeOwned + 'static,
        O::Response: serde::Serialize;
}

include!("../../generated/cli/commands.rs");

/// The operation of group `group` (command name) and command `command`.
pub fn find(group: &str, command: &str) -> Option<&'static Operation> {
    GROUPS
        .iter()
        .find(|g| g.name == group)?
        .operations
        .iter()
        .find(|o| o.command == command)
}
