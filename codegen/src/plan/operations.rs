//! Operations as every SDK offers them: their request and answer, and the calls they have
//! (send, and pages, pending, until-final and settle where the spec says).

use super::otp::OtpPlan;
use super::sentences;
use super::shapes::{self, ConstraintPlan, FieldPlan};
use super::{Doc, Words};
use crate::model::{Api, BusinessId, Group, Operation, OtpFlow, Paging, Params, Response, TypeRef};
use crate::text::partner_text;

/// A group of operations (a module, a namespace, a command group).
#[derive(Debug, Clone)]
pub struct GroupPlan {
    /// The group's name as the spec writes it (`cny`, `account`).
    pub name: String,
    /// Its words.
    pub words: Words,
    /// Its doc.
    pub doc: Doc,
    /// Its operations, in spec order.
    pub operations: Vec<OperationPlan>,
}

/// One operation.
#[derive(Debug, Clone)]
pub struct OperationPlan {
    /// The operation's name on the wire and in the API document (`applyForTransfer`).
    pub wire_name: String,
    /// Its words (method names, command names).
    pub words: Words,
    /// The words of its types' stem (`ApplyForTransfer` → `…Request`, `…Response`).
    pub type_words: Words,
    /// The Rust method name the model gives it.
    pub rust_name: String,
    /// The stem of its Rust type names the model gives it (`ApplyForTransfer`).
    pub type_name: String,
    /// The spec's text of it alone, in partner text (`""` when none).
    pub text: String,
    /// Where it is known from, when not the bank's API document.
    pub evidence: Option<String>,
    /// The recorded decisions that mark it (not its constraints'), by id.
    pub decisions: Vec<String>,
    /// The spec's note on an answer it does not show or that has no `data`, in partner
    /// text (`""` otherwise).
    pub answer_note: String,
    /// Where its answer's fields are known from, when listed and not from the bank's API
    /// document.
    pub answer_evidence: Option<String>,
    /// Example parameters that pass its rules (the Postman collection's, every decimal as
    /// its text), for examples.
    pub example: serde_json::Value,
    /// The HTTP path (`/trans/applyForTransfer`).
    pub path: String,
    /// Its group's name.
    pub group: String,
    /// Whether it moves money: never re-sent once its bytes may have left.
    pub moves_money: bool,
    /// Whether it takes effect only once confirmed with an OTP.
    pub otp: bool,
    /// That it takes effect only once confirmed, and with which steps, in words (an OTP
    /// operation of a spec with an OTP flow).
    pub needs_otp: Option<String>,
    /// The doc of the call (client method, command help).
    pub doc: Doc,
    /// The doc of its request type.
    pub request_doc: Doc,
    /// Its parameters.
    pub request: RequestPlan,
    /// Its constraints across parameters.
    pub constraints: Vec<ConstraintPlan>,
    /// Its answer.
    pub response: ResponsePlan,
    /// The calls it offers beside sending.
    pub calls: Calls,
}

impl OperationPlan {
    /// The parameters' fields (none when they are not shown).
    pub fn params(&self) -> &[FieldPlan] {
        match &self.request {
            RequestPlan::Fields(fields) => fields,
            RequestPlan::Free { .. } => &[],
        }
    }

    /// The parameter of this wire name.
    pub fn param(&self, wire: &str) -> Option<&FieldPlan> {
        self.params().iter().find(|f| f.wire_name == wire)
    }
}

/// An operation's parameters.
#[derive(Debug, Clone)]
pub enum RequestPlan {
    /// Listed fields.
    Fields(Vec<FieldPlan>),
    /// Not shown: a JSON object is sent as given.
    Free {
        /// Why, in partner text.
        note: String,
    },
}

/// An operation's answer (its `data`).
#[derive(Debug, Clone)]
pub enum ResponsePlan {
    /// These fields.
    Fields {
        /// The fields, every one optional when received.
        fields: Vec<FieldPlan>,
        /// The answer type's doc.
        doc: Doc,
    },
    /// A record's received shape.
    Record {
        /// The record.
        record: String,
        /// Its received shape's name.
        received_name: String,
        /// The answer type's doc.
        doc: Doc,
    },
    /// Not shown: the JSON value as received.
    Raw {
        /// The answer type's doc.
        doc: Doc,
    },
    /// Code and message only.
    Empty {
        /// The answer type's doc.
        doc: Doc,
    },
}

impl ResponsePlan {
    /// The answer type's doc.
    pub fn doc(&self) -> &Doc {
        match self {
            ResponsePlan::Fields { doc, .. }
            | ResponsePlan::Record { doc, .. }
            | ResponsePlan::Raw { doc }
            | ResponsePlan::Empty { doc } => doc,
        }
    }
}

/// The calls an operation offers beside sending it.
#[derive(Debug, Clone, Default)]
pub struct Calls {
    /// Every page, every item (a paged operation whose items are shown).
    pub pages: Option<PagesCall>,
    /// The application waiting for its OTP (an OTP operation).
    pub pending: Option<PendingCall>,
    /// Polling to a final state (a status query whose final values are known).
    pub until_final: Option<FinalCall>,
    /// Settling an unknown confirmation of the application (an OTP application whose
    /// status query the spec names).
    pub settle: Option<SettleCall>,
}

/// How an OTP application's unknown confirmation is settled: its status query, sent once
/// with the business id, and the states that mean it still waits for its OTP.
#[derive(Debug, Clone)]
pub struct SettleCall {
    /// The query's wire name (`getTransResult`).
    pub query: String,
    /// Its group.
    pub query_group: String,
    /// Its words (method names).
    pub query_words: Words,
    /// The words of its types' stem.
    pub query_type_words: Words,
    /// The Rust method name of the query.
    pub query_rust_name: String,
    /// The stem of the query's Rust type names.
    pub query_type_name: String,
    /// The query's parameter taking the business id (wire name).
    pub param: String,
    /// The Rust name of that parameter.
    pub param_rust: String,
    /// The answer field holding the state (wire name).
    pub field: String,
    /// The Rust name of that field in the query's answer.
    pub field_rust: Option<String>,
    /// The field's value set, when it has one.
    pub enum_name: Option<String>,
    /// The states in which the application still waits for its OTP, as wire text.
    pub awaiting_otp: Vec<String>,
    /// The query's final states, as wire text.
    pub finals: Vec<String>,
    /// When the OTP may be sent again, in partner text (the spec's confirm step).
    pub otp_rule: String,
    /// The call's doc.
    pub doc: Doc,
}

/// How a paged operation pages.
#[derive(Debug, Clone)]
pub struct PagesCall {
    /// The page-number parameter's wire name.
    pub page: String,
    /// Its type (`int`, `long` or `string`).
    pub page_ty: TypeRef,
    /// The page-size parameter's wire name.
    pub size: String,
    /// The number of the first page.
    pub first_page: i64,
    /// The answer field holding the items.
    pub items: String,
    /// The type of one item (received).
    pub item: TypeRef,
    /// The answer field holding the total number of items, when there is one.
    pub total: Option<String>,
    /// The pager's doc.
    pub doc: Doc,
    /// How it pages, in words.
    pub paging_doc: String,
    /// The Rust names and types of the page, size, items and total fields.
    pub rust: PagesRust,
}

/// The fields a paged operation pages by, as the Rust client names them.
#[derive(Debug, Clone)]
pub struct PagesRust {
    /// The page-number parameter's Rust name.
    pub page: String,
    /// The page-size parameter's Rust name.
    pub size: String,
    /// Its type.
    pub size_ty: TypeRef,
    /// The items field's Rust name.
    pub items: String,
    /// The total field's Rust name and type, when there is one.
    pub total: Option<(String, TypeRef)>,
}

/// Where an OTP application's business id comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BusinessIdPlan {
    /// This string field of the answer (wire name).
    ResponseField(String),
    /// The requestId the call was sent with.
    RequestId,
}

/// An OTP operation's pending call.
#[derive(Debug, Clone)]
pub struct PendingCall {
    /// Where the business id comes from.
    pub business_id: BusinessIdPlan,
    /// The Rust name of the answer field holding it, when it is one.
    pub business_id_rust: Option<String>,
    /// The call's doc.
    pub doc: Doc,
}

/// A status query's waiting call.
#[derive(Debug, Clone)]
pub struct FinalCall {
    /// The answer field holding the state (wire name).
    pub field: String,
    /// Whether that field is typed in the answer (else read as the member's text).
    pub typed: bool,
    /// The final values, as wire text.
    pub values: Vec<String>,
    /// The field's value set, when it has one.
    pub enum_name: Option<String>,
    /// The Rust name of the field in the answer, when typed.
    pub field_rust: Option<String>,
    /// The call's doc.
    pub doc: Doc,
}

/// The example params of an operation, every decimal as its text (the marks of the ones
/// sent as JSON numbers dropped: see `examples`).
fn example(api: &Api, op: &Operation) -> serde_json::Value {
    fn plain(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::String(s) => *s = super::examples::decimal_text(s).to_owned(),
            serde_json::Value::Array(items) => items.iter_mut().for_each(plain),
            serde_json::Value::Object(members) => members.values_mut().for_each(plain),
            _ => {}
        }
    }
    let mut v = super::examples::example_params(api, op);
    plain(&mut v);
    v
}

/// A group's plan.
pub fn group(api: &Api, g: &Group, otp: Option<&OtpPlan>) -> GroupPlan {
    GroupPlan {
        name: g.name.clone(),
        words: Words::of(&g.name),
        doc: Doc::of([partner_text(&g.doc)]),
        operations: g
            .operations
            .iter()
            .map(|o| operation(api, o, otp))
            .collect(),
    }
}

fn request(op: &Operation) -> RequestPlan {
    match &op.params {
        Params::Fields { fields } => RequestPlan::Fields(
            fields
                .iter()
                .map(|f| shapes::field(f, Some(op.source)))
                .collect(),
        ),
        Params::Unspecified { note } => RequestPlan::Free {
            note: sentences::free_params(note),
        },
    }
}

fn response(op: &Operation) -> ResponsePlan {
    let mut answer = Doc::of([sentences::response(&op.name)]);
    match &op.response {
        Response::Fields { fields, source } => {
            if let Some(words) = sentences::evidence(*source) {
                answer.push(words);
            }
            ResponsePlan::Fields {
                fields: fields
                    .iter()
                    .map(|f| shapes::field(f, Some(*source)))
                    .collect(),
                doc: answer,
            }
        }
        Response::Record {
            record,
            received_name,
            source,
        } => {
            if let Some(words) = sentences::evidence(*source) {
                answer.push(words);
            }
            ResponsePlan::Record {
                record: record.clone(),
                received_name: received_name.clone(),
                doc: answer,
            }
        }
        Response::Unspecified { note } => ResponsePlan::Raw {
            doc: Doc::of([sentences::raw_response(&op.name, note)]),
        },
        Response::Empty { note } => ResponsePlan::Empty {
            doc: Doc::of([sentences::empty_response(&op.name, note)]),
        },
    }
}

/// The pager of a paged operation whose answer lists its items.
fn pages(op: &Operation, p: &Paging) -> Option<PagesCall> {
    let items = p.items.as_ref()?;
    Some(PagesCall {
        page: p.page.wire_name.clone(),
        page_ty: p.page.ty.clone(),
        size: p.size.wire_name.clone(),
        first_page: p.first_page,
        items: items.wire_name.clone(),
        item: items.item.clone(),
        total: p.total.as_ref().map(|t| t.wire_name.clone()),
        doc: Doc::of([sentences::pages(
            &op.name,
            &p.page.wire_name,
            &p.size.wire_name,
        )]),
        paging_doc: sentences::paging(&op.name, &p.page.wire_name, p.first_page, &p.size.wire_name),
        rust: PagesRust {
            page: p.page.rust_name.clone(),
            size: p.size.rust_name.clone(),
            size_ty: p.size.ty.clone(),
            items: items.rust_name.clone(),
            total: p
                .total
                .as_ref()
                .map(|t| (t.rust_name.clone(), t.ty.clone())),
        },
    })
}

fn calls(op: &Operation, otp: Option<&OtpPlan>, flow: Option<&OtpFlow>) -> Calls {
    let pages = op.paging.as_ref().and_then(|p| pages(op, p));
    let pending = match (&op.business_id, otp) {
        (Some(id), Some(_)) => {
            let business_id = match id {
                BusinessId::ResponseField { wire_name, .. } => {
                    BusinessIdPlan::ResponseField(wire_name.clone())
                }
                BusinessId::RequestId => BusinessIdPlan::RequestId,
            };
            let field = match &business_id {
                BusinessIdPlan::ResponseField(wire) => Some(wire.as_str()),
                BusinessIdPlan::RequestId => None,
            };
            Some(PendingCall {
                doc: Doc::of([sentences::pending(&op.name, field)]),
                business_id,
                business_id_rust: match id {
                    BusinessId::ResponseField { rust_name, .. } => Some(rust_name.clone()),
                    BusinessId::RequestId => None,
                },
            })
        }
        _ => None,
    };
    let until_final = op.final_states.as_ref().map(|f| FinalCall {
        field: f.wire_name.clone(),
        typed: f.rust_name.is_some(),
        values: f.values.clone(),
        enum_name: f.enum_name.clone(),
        field_rust: f.rust_name.clone(),
        doc: Doc::of([sentences::until_final(&op.name, &f.wire_name, &f.values)]),
    });
    let settle = match (&op.settled_by, flow) {
        (Some(s), Some(flow)) if pending.is_some() => Some(SettleCall {
            query: s.query.clone(),
            query_group: s.group.clone(),
            query_words: Words::of(&s.query),
            query_type_words: Words::of(&s.type_name),
            query_rust_name: s.rust_name.clone(),
            query_type_name: s.type_name.clone(),
            param: s.param_wire.clone(),
            param_rust: s.param_rust.clone(),
            field: s.states.wire_name.clone(),
            field_rust: s.states.rust_name.clone(),
            enum_name: s.states.enum_name.clone(),
            awaiting_otp: s.states.awaiting_otp.clone(),
            finals: s.states.values.clone(),
            otp_rule: partner_text(flow.otp_reuse.as_deref().unwrap_or_default()),
            doc: Doc::of([sentences::settle(
                &s.query,
                &s.states.wire_name,
                &s.states.awaiting_otp,
                &flow.confirm.operation,
            )]),
        }),
        _ => None,
    };
    Calls {
        pages,
        pending,
        until_final,
        settle,
    }
}

fn operation(api: &Api, op: &Operation, otp: Option<&OtpPlan>) -> OperationPlan {
    let flow = api.otp_flow.as_ref();
    let summary = match partner_text(&op.doc) {
        s if s.is_empty() => format!("Calls `{}`.", op.name),
        s => s,
    };
    let mut doc = Doc::of([
        summary.clone(),
        sentences::operation_call(&op.name, &op.path),
    ]);
    let mut request_doc = Doc::of([
        sentences::request(&op.name),
        summary,
        sentences::operation_call(&op.name, &op.path),
    ]);
    if op.moves_money {
        doc.push(sentences::MOVES_MONEY);
        request_doc.push(sentences::MOVES_MONEY);
    }
    let needs_otp = match (op.otp, otp) {
        (true, Some(flow)) => Some(sentences::needs_otp(
            &flow.send.operation,
            &flow.confirm.operation,
        )),
        _ => None,
    };
    if let Some(needs) = &needs_otp {
        doc.push(needs.clone());
        request_doc.push(needs.clone());
    }
    let constraints: Vec<ConstraintPlan> = op.constraints.iter().map(shapes::constraint).collect();
    for c in &constraints {
        request_doc.push(c.sentence.clone());
    }
    if let Some(words) = sentences::evidence(op.source) {
        doc.push(words.clone());
        request_doc.push(words);
    }
    OperationPlan {
        wire_name: op.name.clone(),
        words: Words::of(&op.name),
        type_words: Words::of(&op.type_name),
        rust_name: op.rust_name.clone(),
        type_name: op.type_name.clone(),
        text: partner_text(&op.doc),
        evidence: sentences::evidence(op.source),
        decisions: op.decisions.clone(),
        answer_note: match &op.response {
            Response::Unspecified { note } | Response::Empty { note } => partner_text(note),
            Response::Fields { .. } | Response::Record { .. } => String::new(),
        },
        answer_evidence: match &op.response {
            Response::Fields { source, .. } => sentences::evidence(*source),
            _ => None,
        },
        example: example(api, op),
        path: op.path.clone(),
        group: op.group.clone(),
        moves_money: op.moves_money,
        otp: op.otp,
        needs_otp,
        doc: doc.deprecated(op.deprecated.as_deref()),
        request_doc: request_doc.deprecated(op.deprecated.as_deref()),
        request: request(op),
        constraints,
        response: response(op),
        calls: calls(op, otp, flow),
    }
}
