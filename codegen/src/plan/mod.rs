//! The SDK plan: what every language's SDK offers and says, decided once from the checked
//! model (the role progenitor's `OperationMethod` plays between an OpenAPI document and
//! code). Each renderer (Python, TypeScript, Java, PHP, the command line) walks the plan
//! and writes names, syntax and layout only: which calls an operation has (send, pages,
//! pending, until-final), each field's wire name, direction, requiredness and rule checks,
//! the OTP steps by wire name, and every sentence partners read are here.
//!
//! The plan is built from a checked model and cannot fail: every name it resolves (a
//! business id's field, an OTP step's operation) the checker has already resolved.
//!
//! | module | what it holds |
//! |--------|---------------|
//! | [`words`] | names as words, cased by each language's table |
//! | [`sentences`] | every partner-facing sentence kind, written once |
//! | `operations` | operations and their calls |
//! | `otp` | the OTP flow's steps |
//! | `decisions` | the recorded decisions |
//! | `shapes` | fields, records, value sets, result codes, notifications |

mod decisions;
pub mod examples;
mod operations;
mod otp;
pub mod sentences;
mod shapes;
pub mod words;

pub use decisions::DecisionPlan;
pub use operations::{
    BusinessIdPlan, Calls, FinalCall, GroupPlan, OperationPlan, PagesCall, PagesRust, PendingCall,
    RequestPlan, ResponsePlan, SettleCall,
};
pub use otp::{OtpPlan, OtpStepPlan};
pub use shapes::{
    param_words, CodePlan, ConstraintPlan, EnumPlan, FieldPlan, NotificationPlan, RecordPlan,
    RulePlan, ValuePlan,
};
pub use words::Words;

use crate::model::Api;

/// Which shape of a record a field or type is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Built by the partner, validated, written strictly.
    Sent,
    /// Decoded from the service: every field optional, unknown members ignored.
    Received,
}

/// The doc of one item: paragraphs of partner text (Markdown code spans), and a
/// deprecation note the renderer places as its language marks one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Doc {
    /// Paragraphs, none empty.
    pub paragraphs: Vec<String>,
    /// `Some(note)`: deprecated, and what to use instead.
    pub deprecated: Option<String>,
}

impl Doc {
    /// A doc of these paragraphs (empty ones dropped).
    pub fn of(paragraphs: impl IntoIterator<Item = String>) -> Doc {
        Doc {
            paragraphs: paragraphs
                .into_iter()
                .map(|p| p.trim().to_owned())
                .filter(|p| !p.is_empty())
                .collect(),
            deprecated: None,
        }
    }

    /// Adds a paragraph (nothing for empty text).
    pub fn push(&mut self, paragraph: impl Into<String>) {
        let p = paragraph.into();
        if !p.trim().is_empty() {
            self.paragraphs.push(p.trim().to_owned());
        }
    }

    /// Marks the item deprecated.
    pub fn deprecated(mut self, note: Option<&str>) -> Doc {
        self.deprecated = note.map(crate::text::partner_text);
        self
    }

    /// The paragraphs joined by blank lines, the deprecation last as `Deprecated: note`
    /// (for languages without a deprecation marker in docs).
    pub fn plain(&self) -> String {
        let mut parts = self.paragraphs.clone();
        if let Some(note) = &self.deprecated {
            parts.push(format!("Deprecated: {note}"));
        }
        parts.join("\n\n")
    }
}

/// Everything an SDK offers and says.
#[derive(Debug, Clone)]
pub struct SdkPlan {
    /// The API's title (`BaaS partner API`).
    pub title: String,
    /// The generated packages' version (`api.client_version`).
    pub client_version: String,
    /// The bank's API revision the spec describes (`""` when not given).
    pub api_version: String,
    /// The result code of a success (`00000`).
    pub success_code: String,
    /// Groups in spec order, each with its operations in spec order.
    pub groups: Vec<GroupPlan>,
    /// Records by name.
    pub records: Vec<RecordPlan>,
    /// Value sets by name.
    pub enums: Vec<EnumPlan>,
    /// The service's result codes, in spec order.
    pub result_codes: Vec<CodePlan>,
    /// The notifications the service sends, in spec order.
    pub notifications: Vec<NotificationPlan>,
    /// The OTP flow, when the spec marks its steps.
    pub otp: Option<OtpPlan>,
    /// The recorded decisions, in spec order.
    pub decisions: Vec<DecisionPlan>,
}

impl SdkPlan {
    /// All operations in spec order.
    pub fn operations(&self) -> impl Iterator<Item = &OperationPlan> {
        self.groups.iter().flat_map(|g| g.operations.iter())
    }

    /// The operation of this wire name.
    pub fn operation(&self, wire_name: &str) -> Option<&OperationPlan> {
        self.operations().find(|o| o.wire_name == wire_name)
    }

    /// The fields of an operation's answer: its own, or its record's (none when the
    /// answer is not shown or empty).
    pub fn answer_fields<'a>(&'a self, op: &'a OperationPlan) -> &'a [FieldPlan] {
        match &op.response {
            ResponsePlan::Fields { fields, .. } => fields,
            ResponsePlan::Record { record, .. } => self.record(record).map_or(&[], |r| &r.fields),
            ResponsePlan::Raw { .. } | ResponsePlan::Empty { .. } => &[],
        }
    }

    /// The record of this name.
    pub fn record(&self, name: &str) -> Option<&RecordPlan> {
        self.records.iter().find(|r| r.name == name)
    }

    /// The result codes the client retries (the spec marks them retryable), in spec order.
    pub fn retryable_codes(&self) -> impl Iterator<Item = &str> {
        self.result_codes
            .iter()
            .filter(|c| c.retryable)
            .map(|c| c.code.as_str())
    }

    /// The recorded decision of this id.
    pub fn decision(&self, id: &str) -> Option<&DecisionPlan> {
        self.decisions.iter().find(|d| d.id == id)
    }

    /// The value set of this name.
    pub fn enum_plan(&self, name: &str) -> Option<&EnumPlan> {
        self.enums.iter().find(|e| e.name == name)
    }
}

impl SdkPlan {
    /// True when some operation's application is settled by a status query.
    pub fn settles(&self) -> bool {
        self.groups
            .iter()
            .flat_map(|g| g.operations.iter())
            .any(|o| o.calls.settle.is_some())
    }

    /// The rule for sending an OTP again, when some application is settled.
    pub fn otp_rule(&self) -> Option<&str> {
        self.groups
            .iter()
            .flat_map(|g| g.operations.iter())
            .find_map(|o| o.calls.settle.as_ref())
            .map(|s| s.otp_rule.as_str())
    }
}

/// The plan of a checked model.
pub fn build(api: &Api) -> SdkPlan {
    let otp = otp::otp_plan(api);
    let mut plan = SdkPlan {
        title: api.title.clone(),
        client_version: api.client_version.clone(),
        api_version: api.version.clone(),
        success_code: api.success_code.clone(),
        groups: api
            .groups
            .iter()
            .map(|g| operations::group(api, g, otp.as_ref()))
            .collect(),
        records: api.records.iter().map(shapes::record).collect(),
        enums: api.enums.iter().map(shapes::enum_plan).collect(),
        result_codes: api.result_codes.iter().map(shapes::code).collect(),
        notifications: api.notifications.iter().map(shapes::notification).collect(),
        otp,
        decisions: decisions::decisions(api),
    };
    mark_open_values(&mut plan, api);
    plan
}

/// Marks every field whose value is of an open value set ([`FieldPlan::open_values`]).
fn mark_open_values(plan: &mut SdkPlan, api: &Api) {
    let open = |f: &FieldPlan| match shapes::element(&f.ty) {
        crate::model::TypeRef::Enum { name } => api.enum_def(name).is_some_and(|e| e.open),
        _ => false,
    };
    let mark = |fields: &mut Vec<FieldPlan>| {
        for f in fields.iter_mut() {
            f.open_values = open(f);
        }
    };
    for op in plan.groups.iter_mut().flat_map(|g| g.operations.iter_mut()) {
        if let RequestPlan::Fields(fields) = &mut op.request {
            mark(fields);
        }
        if let ResponsePlan::Fields { fields, .. } = &mut op.response {
            mark(fields);
        }
    }
    for r in &mut plan.records {
        mark(&mut r.fields);
    }
}

#[cfg(test)]
mod tests;
