//! Fields, records, value sets, result codes and notifications as every SDK shows them.

use super::sentences;
use super::{Direction, Doc, Words};
use crate::model::{
    Constraint, ConstraintKind, Emptiness, EnumDef, EnumWireType, Field, Notification, ParamRef,
    Record, Requirement, ResultCode, Rule, Source, TypeRef,
};
use crate::rules::{Check, CheckLevel, RuleKind};
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
    /// The spec's text of it alone, in partner text (`""` when none), for renderers that
    /// lay out a field's doc their own way.
    pub text: String,
    /// Where it is known from, when that is not where what holds it is known from.
    pub evidence: Option<String>,
    /// Its rules (the ones only the service checks included), in spec order.
    pub rules: Vec<RulePlan>,
    /// The recorded decisions that mark it, by id.
    pub decisions: Vec<String>,
}

/// One rule of a field, as its docs list it.
#[derive(Debug, Clone)]
pub struct RulePlan {
    /// The rule kind with its argument (its words: [`RuleKind::words_with`]).
    pub kind: RuleKind,
    /// The spec's note on it, in partner text (`""` when none).
    pub text: String,
    /// Where it is known from, when not the bank's API document.
    pub evidence: Option<String>,
    /// Whether it applies to each element of an array field (not to the array).
    pub each_element: bool,
}

fn rule(rule: &Rule, ty: &TypeRef) -> RulePlan {
    RulePlan {
        kind: rule.kind.clone(),
        text: partner_text(&rule.doc),
        evidence: sentences::evidence(rule.source),
        each_element: matches!(ty, TypeRef::Array { .. }) && !rule.kind.key().on_the_array(),
    }
}

impl FieldPlan {
    /// Whether the sent shape must hold a value (a required named argument, a staged
    /// builder step).
    pub fn required(&self) -> bool {
        self.requirement == Requirement::Required
    }

    /// `Some` when the sent shape must hold a non-empty value: a required field whose type
    /// has an empty value ([`TypeRef::emptiness`]: a string's `""`, a document of no
    /// bytes), which the service reads as not sent. Every runtime's `required` check then
    /// reads the value's emptiness (the rule `required`, as for an absent value), and a
    /// renderer only writes its language's test of the [`Emptiness`] it is given.
    pub fn non_empty(&self) -> Option<Emptiness> {
        self.ty.emptiness().filter(|_| self.required())
    }

    /// `Some(note)` when the field is deprecated (both directions say so).
    pub fn deprecated(&self) -> Option<&str> {
        self.sent_doc.deprecated.as_deref()
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
    if let Some(words) = &evidence {
        sent.push(words.clone());
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
        text: partner_text(&field.doc),
        evidence,
        rules: field.rules.iter().map(|r| rule(r, &field.ty)).collect(),
        decisions: field.decisions.clone(),
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
    /// The spec's note on it (as written).
    pub doc: String,
    /// Where it is known from.
    pub source: Source,
    /// The recorded decisions that mark it, by id.
    pub decisions: Vec<String>,
}

impl ConstraintPlan {
    /// [`ConstraintPlan::sentence`], with the spec's own text passed through `spec_text`
    /// (a renderer whose doc syntax gives some characters a meaning escapes them there).
    pub fn sentence_with(&self, spec_text: &dyn Fn(&str) -> String) -> String {
        sentences::constraint_with(&self.kind, &self.doc, self.source, spec_text)
    }
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
        doc: c.doc.clone(),
        source: c.source,
        decisions: c.decisions.clone(),
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
    /// The spec's text of it alone, in partner text.
    pub text: String,
    /// Where it is known from, when not the bank's API document.
    pub evidence: Option<String>,
    /// The recorded decisions that mark it, by id.
    pub decisions: Vec<String>,
    /// Its fields, in spec order.
    pub fields: Vec<FieldPlan>,
}

impl RecordPlan {
    /// Whether it has a shape in each direction (`Name` sent, `NameReceived` received).
    pub fn two_shapes(&self) -> bool {
        self.sent && self.received
    }

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
        text: partner_text(&r.doc),
        evidence: sentences::evidence(r.source),
        decisions: r.decisions.clone(),
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
    /// The spec's text of it alone, in partner text.
    pub text: String,
    /// Where it is known from, when not the bank's API document.
    pub evidence: Option<String>,
    /// The recorded decisions that mark it, by id.
    pub decisions: Vec<String>,
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
    /// The spec's text of it alone, in partner text.
    pub text: String,
    /// Where it is known from, when that differs from where its set is known from.
    pub evidence: Option<String>,
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
        text: partner_text(&e.doc),
        evidence: sentences::evidence(e.source),
        decisions: e.decisions.clone(),
        values: e
            .values
            .iter()
            .map(|v| ValuePlan {
                wire: v.wire.clone(),
                name: v.name.clone(),
                words: Words::of(&v.name),
                integer: v.integer,
                doc: Doc::of([partner_text(&e.value_doc(v))]).deprecated(v.deprecated.as_deref()),
                text: partner_text(&v.doc),
                evidence: (v.source != e.source)
                    .then(|| sentences::evidence(v.source))
                    .flatten(),
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
    /// Its text alone, as a sentence.
    pub text: String,
    /// Where it is known from, when not the bank's API document.
    pub evidence: Option<String>,
    /// Whether the client retries it.
    pub retryable: bool,
}

/// A result code's plan.
pub fn code(c: &ResultCode) -> CodePlan {
    let text = partner_text(&c.text_sentence());
    let evidence = sentences::evidence(c.source);
    let mut doc = vec![text.clone()];
    if c.retryable {
        doc.push(sentences::MAY_BE_RETRIED.to_owned());
    }
    doc.extend(evidence.clone());
    CodePlan {
        code: c.code.clone(),
        name: c.name.clone(),
        words: Words::of(&c.name),
        doc: doc.join(" "),
        text,
        evidence,
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
    /// The spec's text of it alone, in partner text.
    pub text: String,
    /// Where it is known from, when not the bank's API document.
    pub evidence: Option<String>,
    /// What the spec says of its payload, in partner text (`""` when nothing).
    pub payload_note: String,
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
        text: partner_text(&n.doc),
        evidence: sentences::evidence(n.source),
        payload_note: partner_text(&n.payload_note),
        payload: n.payload.as_ref().map(|p| p.received_name.clone()),
        relates_to: n.relates_to.clone(),
    }
}
