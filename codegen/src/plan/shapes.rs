//! Fields, records, value sets, result codes and notifications as every SDK shows them.

use super::sentences;
use super::{Direction, Doc, Words};
use crate::model::{
    Constraint, ConstraintKind, EnumDef, EnumWireType, Field, Notification, ParamRef, Record,
    Requirement, ResultCode, Source, TypeRef,
};
use crate::rules::{Check, CheckLevel};
use crate::text::partner_text;

/// One field of a request, an answer or a record.
#[derive(Debug, Clone)]
pub struct FieldPlan {
    /// The exact wire name (`oderArray`).
    pub wire_name: String,
    /// Its words, for languages that case names their own way: the words of the name the
    /// spec gives it ([`Field::rust_name`], which corrects the service's misspellings:
    /// `oderArray` is order array, `benificiaryName` beneficiary name), never of the wire
    /// name, so that every language spells a field alike and no renamed one breaks.
    pub words: Words,
    /// The Rust name the model gives it (for the Rust client and the command line).
    pub rust_name: String,
    /// Its type.
    pub ty: TypeRef,
    /// Whether its value (each element of an array) is of an open value set: the sent
    /// shape takes a value the set does not list too (set by [`super::build`]).
    pub open_values: bool,
    /// Required, optional, or required under a constraint.
    pub requirement: Requirement,
    /// The checks the client makes before sending, in the order the runtimes make them:
    /// array-level checks apply to the array, value-level ones to the value or to each
    /// element of an array. Rules only the service checks have none.
    pub checks: Vec<Check>,
    /// What the sent shape says of it (its rules in words included).
    pub sent_doc: Doc,
    /// What the received shape says of it.
    pub received_doc: Doc,
}

impl FieldPlan {
    /// Whether the sent shape must hold a value (a required named argument, a staged
    /// builder step).
    pub fn required(&self) -> bool {
        self.requirement == Requirement::Required
    }

    /// Whether a required text must also be non-empty (the runtimes' `required` check).
    pub fn required_text(&self) -> bool {
        self.required() && self.ty == TypeRef::String
    }

    /// The doc of the field in one direction.
    pub fn doc(&self, dir: Direction) -> &Doc {
        match dir {
            Direction::Sent => &self.sent_doc,
            Direction::Received => &self.received_doc,
        }
    }
}

/// The innermost value type of a type (the item of an array, of an array...).
pub(super) fn element(ty: &TypeRef) -> &TypeRef {
    match ty {
        TypeRef::Array { item } => element(item),
        ty => ty,
    }
}

/// The checks of a field: a rule that applies to the array as a whole is an array check,
/// any other is a check of each value.
fn checks(field: &Field) -> Vec<Check> {
    let elem = element(&field.ty);
    field
        .rules
        .iter()
        .filter_map(|rule| {
            rule.kind
                .check(&field.ty)
                .filter(|c| c.level == CheckLevel::Array)
                .or_else(|| rule.kind.check(elem))
        })
        .collect()
}

/// A field's plan.
///
/// `within` is the source of what holds the field (its record, its answer): where the field
/// comes from the same place, its doc does not say it again on every field.
pub fn field(field: &Field, within: Option<Source>) -> FieldPlan {
    let evidence = (within != Some(field.source))
        .then(|| sentences::evidence(field.source))
        .flatten();
    let mut received = Doc::of([partner_text(&field.doc)]);
    if let Some(words) = &evidence {
        received.push(words.clone());
    }
    let mut sent = Doc::of([partner_text(&field.doc)]);
    if let Some(rules) = sentences::rules(field) {
        sent.push(rules);
    }
    if let Some(words) = evidence {
        sent.push(words);
    }
    FieldPlan {
        wire_name: field.wire_name.clone(),
        words: Words::of(&field.rust_name),
        rust_name: field.rust_name.clone(),
        ty: field.ty.clone(),
        open_values: false,
        requirement: field.required,
        checks: checks(field),
        sent_doc: sent.deprecated(field.deprecated.as_deref()),
        received_doc: received.deprecated(field.deprecated.as_deref()),
    }
}

/// The words of a parameter a constraint names, as [`FieldPlan::words`] has them.
pub fn param_words(p: &ParamRef) -> Words {
    Words::of(&p.rust_name)
}

/// A constraint of an operation, with its words.
#[derive(Debug, Clone)]
pub struct ConstraintPlan {
    /// The constraint as the checker resolved it (parameters by wire name).
    pub kind: ConstraintKind,
    /// Whether the client checks it before sending (all but the service's own checks).
    pub checked: bool,
    /// The constraint in words.
    pub sentence: String,
    /// The condition in words, for a violation's message (`RequiredIf` only).
    pub condition: Option<String>,
}

/// A constraint's plan.
pub fn constraint(c: &Constraint) -> ConstraintPlan {
    ConstraintPlan {
        checked: !matches!(c.kind, ConstraintKind::ServerSide { .. }),
        sentence: sentences::constraint(c),
        condition: match &c.kind {
            ConstraintKind::RequiredIf { when, .. } => Some(sentences::condition(when)),
            _ => None,
        },
        kind: c.kind.clone(),
    }
}

/// A record, in the shapes it is used in.
#[derive(Debug, Clone)]
pub struct RecordPlan {
    /// Its name (and its sent shape's).
    pub name: String,
    /// Its received shape's name (`name` unless it is used both ways).
    pub received_name: String,
    /// Whether requests use it (a sent shape exists).
    pub sent: bool,
    /// Whether answers or notifications use it (a received shape exists).
    pub received: bool,
    /// Its doc.
    pub doc: Doc,
    /// Its fields, in spec order.
    pub fields: Vec<FieldPlan>,
}

impl RecordPlan {
    /// The name of the record's shape in one direction.
    pub fn name_in(&self, dir: Direction) -> &str {
        match dir {
            Direction::Sent => &self.name,
            Direction::Received => &self.received_name,
        }
    }

    /// The doc of the record's shape in one direction.
    pub fn doc_in(&self, dir: Direction) -> Doc {
        let mut doc = self.doc.clone();
        if dir == Direction::Received {
            doc.push(sentences::received_record(&self.name));
        }
        doc
    }
}

/// A record's plan.
pub fn record(r: &Record) -> RecordPlan {
    let mut doc = Doc::of([partner_text(&r.doc)]);
    if let Some(words) = sentences::evidence(r.source) {
        doc.push(words);
    }
    RecordPlan {
        name: r.name.clone(),
        received_name: r.received_name.clone(),
        // A record no operation uses is still readable (a notification's payload).
        sent: r.used_in_request,
        received: r.used_in_response || !r.used_in_request,
        doc,
        fields: r.fields.iter().map(|f| field(f, Some(r.source))).collect(),
    }
}

/// A value set.
#[derive(Debug, Clone)]
pub struct EnumPlan {
    /// Its name.
    pub name: String,
    /// Whether its wire values are integers (else strings).
    pub integer: bool,
    /// Whether it is open: requests may carry a value it does not list.
    pub open: bool,
    /// Its doc (the sentence on unknown values included).
    pub doc: Doc,
    /// Its values, in spec order.
    pub values: Vec<ValuePlan>,
}

/// One value of a value set.
#[derive(Debug, Clone)]
pub struct ValuePlan {
    /// The wire value as text (`"1"`, `"PURCHASE_GOODS"`).
    pub wire: String,
    /// Its name (UpperCamelCase, never `Unknown`).
    pub name: String,
    /// Its words.
    pub words: Words,
    /// The value as an integer, for integer sets.
    pub integer: Option<i64>,
    /// Its doc (where it is known from, when that differs from its set's source).
    pub doc: Doc,
}

/// A value set's plan.
pub fn enum_plan(e: &EnumDef) -> EnumPlan {
    let mut doc = Doc::of([partner_text(&e.doc)]);
    if let Some(words) = sentences::evidence(e.source) {
        doc.push(words);
    }
    doc.push(if e.open {
        sentences::OPEN_VALUE_SET
    } else {
        sentences::UNKNOWN_VALUE
    });
    EnumPlan {
        name: e.name.clone(),
        integer: e.wire_type == EnumWireType::Integer,
        open: e.open,
        doc,
        values: e
            .values
            .iter()
            .map(|v| ValuePlan {
                wire: v.wire.clone(),
                name: v.name.clone(),
                words: Words::of(&v.name),
                integer: v.integer,
                doc: Doc::of([partner_text(&e.value_doc(v))]).deprecated(v.deprecated.as_deref()),
            })
            .collect(),
    }
}

/// A result code of the service.
#[derive(Debug, Clone)]
pub struct CodePlan {
    /// The code (`14009`).
    pub code: String,
    /// Its name (UpperCamelCase, never `Unknown`).
    pub name: String,
    /// Its words.
    pub words: Words,
    /// Its text as a sentence, whether it may be retried, where it is known from.
    pub doc: String,
    /// Whether the client retries it.
    pub retryable: bool,
}

/// A result code's plan.
pub fn code(c: &ResultCode) -> CodePlan {
    CodePlan {
        code: c.code.clone(),
        name: c.name.clone(),
        words: Words::of(&c.name),
        doc: partner_text(&c.partner_doc()),
        retryable: c.retryable,
    }
}

/// A notification the service sends.
#[derive(Debug, Clone)]
pub struct NotificationPlan {
    /// Its `notificationType` (`0028`).
    pub notification_type: String,
    /// Its name.
    pub name: String,
    /// Its words.
    pub words: Words,
    /// Its doc (the payload note when the payload is not shown).
    pub doc: Doc,
    /// The record its `params` holds (its received shape's name), when shown.
    pub payload: Option<String>,
    /// The operations it relates to, by wire name.
    pub relates_to: Vec<String>,
}

/// A notification's plan.
pub fn notification(n: &Notification) -> NotificationPlan {
    let mut doc = Doc::of([partner_text(&n.doc)]);
    if n.payload.is_none() {
        doc.push(partner_text(&n.payload_note));
    }
    if let Some(words) = sentences::evidence(n.source) {
        doc.push(words);
    }
    NotificationPlan {
        notification_type: n.notification_type.clone(),
        name: n.name.clone(),
        words: Words::of(&n.name),
        doc,
        payload: n.payload.as_ref().map(|p| p.received_name.clone()),
        relates_to: n.relates_to.clone(),
    }
}
