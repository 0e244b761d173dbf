//! Building the whole API: top-level keys, groups and operations, constraints, responses,
//! and the checks that need everything at once (names, paths, decisions, record usage).

use std::collections::{BTreeMap, BTreeSet};

use super::collect::Collected;
use super::decimal::Dec;
use super::decisions::Decisions;
use super::declare::{type_name, Declarations, Declared};
use super::fields::fields;
use super::records::Records;
use super::types::type_text;
use super::{at, names, Checker, Owner};
use crate::model::{
    self, Condition, Constraint, ConstraintKind, EnumWireType, Field, Location, ParamRef, Params,
    Requirement, Response, TypeRef,
};
use crate::spec_file::{
    ConstraintBody, ConstraintSpec, OperationSpec, ParamsSpec, RequiredIfSpec, Spanned,
};

/// Checks the `name:` of a result code (the variant of the generated `ResultCode`):
/// UpperCamelCase, not a keyword, not `Unknown`, unique among the codes checked so far.
/// Returns the name as written (errors are recorded).
fn result_code_name(
    ck: &mut Checker,
    name: &Spanned<String>,
    code: &str,
    text: &str,
    earlier: &[model::ResultCode],
) -> String {
    let n = name.value.as_str();
    let hint = names::camel(text);
    let example = if names::is_upper_camel(&hint) && !names::is_keyword(&hint) && hint != "Unknown"
    {
        format!("`{hint}`")
    } else {
        "`InsufficientBalance`".to_owned()
    };
    if n.is_empty() {
        ck.error(
            &name.loc,
            format!("result code `{code}` has an empty name"),
            Some(format!(
                "name it in UpperCamelCase after its text, e.g. {example}: it becomes a variant of the generated `ResultCode`"
            )),
        );
    } else if n == "Unknown" {
        ck.error(
            &name.loc,
            format!("name `Unknown` of result code `{code}` is reserved"),
            Some(format!(
                "the generated `ResultCode` keeps unseen codes in `Unknown`; name this code otherwise, e.g. {example}"
            )),
        );
    } else if !names::is_upper_camel(n) || names::is_keyword(n) {
        let own = names::camel(n);
        let help = if names::is_upper_camel(&own) && !names::is_keyword(&own) && own != "Unknown" {
            format!("rename it, e.g. `{own}`")
        } else {
            format!("rename it to an UpperCamelCase identifier, e.g. {example}")
        };
        ck.error(
            &name.loc,
            format!("name `{n}` of result code `{code}` is not an UpperCamelCase Rust identifier"),
            Some(help),
        );
    } else if let Some(prev) = earlier.iter().find(|p| p.name == n) {
        ck.error(
            &name.loc,
            format!(
                "result code name `{n}` is used twice (also by `{}`)",
                prev.code
            ),
            Some(format!(
                "each code becomes its own variant of `ResultCode`; give `{code}` another name, e.g. `{n}Alias`"
            )),
        );
    }
    n.to_owned()
}

/// Builds the model; `None` when something essential is missing (errors are recorded).
pub(super) fn build(
    ck: &mut Checker,
    collected: &Collected<'_>,
    decisions: Decisions,
    declarations: Declarations<'_>,
) -> Option<model::Api> {
    let files = collected.files;
    let api = collected.api;
    let envelope = collected.envelope;

    let declared = &declarations.declared;
    let type_locs = &declared.types;
    let enum_defs = declarations.enums;
    let record_specs = declarations.records;
    let mut records = super::records::records(ck, declared, &collected.field_sets, &record_specs);
    let envelope_model = super::envelope::envelope(ck, declared, envelope);

    // Groups and operations.
    let mut groups: Vec<model::Group> = Vec::new();
    let mut otp_steps = Vec::new();
    let mut group_locs: BTreeMap<String, Location> = BTreeMap::new();
    for f in files {
        if let (Some(doc), None) = (&f.group_doc, &f.group) {
            ck.error(
                &doc.key,
                "`group_doc` without `group`",
                Some("add `group:` (the module name) to this file".into()),
            );
        }
        let group = match (&f.group, &f.operations) {
            (Some(g), Some(_)) => g,
            (None, Some(ops)) => {
                ck.error(
                    &ops.key,
                    "`operations` without `group` in this file",
                    Some("add `group: <module name>` (snake_case) to this file".into()),
                );
                continue;
            }
            (Some(g), None) => {
                ck.error(
                    &g.key,
                    "`group` without `operations` in this file",
                    Some("add the group's `operations:`, or remove `group:`".into()),
                );
                continue;
            }
            (None, None) => continue,
        };
        let gname = &group.value;
        if gname.value.is_empty() {
            ck.error(
                &gname.loc,
                "empty group name",
                Some("name the group in snake_case, e.g. `cny`".into()),
            );
        } else if !names::is_snake(&gname.value) || names::is_keyword(&gname.value) {
            let hint = names::snake(&gname.value);
            ck.error(
                &gname.loc,
                format!(
                    "group name `{}` is not a snake_case Rust module name, or is a keyword",
                    gname.value
                ),
                Some(
                    if names::is_identifier(&hint) && !names::is_keyword(&hint) {
                        format!("rename it, e.g. `{hint}`")
                    } else {
                        "rename it to a snake_case identifier that is not a Rust keyword".into()
                    },
                ),
            );
        } else if crate::reserved::MODULES.contains(&gname.value.as_str()) {
            ck.error(
                &gname.loc,
                format!(
                    "group name `{}` is taken by the generated crate",
                    gname.value
                ),
                Some(format!(
                    "rename the group; the generated crate reserves the module names {}",
                    super::code_list(crate::reserved::MODULES)
                )),
            );
        }
        if let Some(prev) = group_locs.get(&gname.value) {
            let prev = at(prev);
            ck.error(
                &gname.loc,
                format!("group `{}` is defined in two files", gname.value),
                Some(format!(
                    "it is also defined at {prev}; a group (module) lives in one file"
                )),
            );
        }
        group_locs.insert(gname.value.clone(), gname.loc.clone());
        let mut ops = Vec::new();
        for op in f.operations.iter().flat_map(|o| o.value.iter()) {
            if let Some(step) = &op.value.otp_step {
                otp_steps.push((step, op.value.name.value.clone()));
            }
            ops.push(operation(ck, declared, &records, op, &gname.value));
        }
        groups.push(model::Group {
            name: gname.value.clone(),
            doc: f
                .group_doc
                .as_ref()
                .map(|d| d.value.clone())
                .unwrap_or_default(),
            operations: ops,
        });
    }
    let all_ops: Vec<&model::Operation> = groups.iter().flat_map(|g| g.operations.iter()).collect();
    operation_names(ck, &all_ops, type_locs);
    shared_paths(ck, &all_ops, &decisions.list);
    usage(ck, &mut records.defs, &all_ops);
    shape_names(ck, &mut records.defs, &mut groups, type_locs);
    let otp_flow = otp_flow(ck, &otp_steps, &groups);
    let all_ops: Vec<&model::Operation> = groups.iter().flat_map(|g| g.operations.iter()).collect();

    // Result codes.
    let mut codes: Vec<model::ResultCode> = Vec::new();
    for c in collected.result_codes.iter().copied() {
        let s = &c.value;
        ck.non_empty(&s.code, "result code");
        if codes.iter().any(|p| p.code == s.code.value) {
            ck.error(
                &s.code.loc,
                format!("result code `{}` is listed twice", s.code.value),
                Some("list each code once".into()),
            );
            continue;
        }
        let name = result_code_name(ck, &s.name, &s.code.value, &s.text, &codes);
        codes.push(model::ResultCode {
            code: s.code.value.clone(),
            name,
            text: s.text.clone(),
            source: s.source.map_or(model::Source::Seed, Into::into),
            retryable: s.retryable.unwrap_or(false),
        });
    }

    // Notifications.
    let op_names: Vec<&str> = all_ops.iter().map(|o| o.name.as_str()).collect();
    let mut notes: Vec<model::Notification> = Vec::new();
    for n in collected.notifications.iter().copied() {
        let s = &n.value;
        ck.non_empty(&s.notification_type, "notification type");
        if notes
            .iter()
            .any(|p| p.notification_type == s.notification_type.value)
        {
            ck.error(
                &s.notification_type.loc,
                format!(
                    "notification type `{}` is listed twice",
                    s.notification_type.value
                ),
                Some("list each notification type once".into()),
            );
        }
        if s.name.value == "Unknown" {
            ck.error(
                &s.name.loc,
                format!(
                    "notification name `Unknown` (type `{}`) is reserved",
                    s.notification_type.value
                ),
                Some("the generated `NotificationType` keeps unseen types in `Unknown`; name this notification after what it reports".into()),
            );
        } else if type_name(ck, &s.name, "notification")
            && notes.iter().any(|p| p.name == s.name.value)
        {
            ck.error(
                &s.name.loc,
                format!("notification name `{}` is used twice", s.name.value),
                Some("notification names are unique".into()),
            );
        }
        let mut relates = Vec::new();
        for r in s.relates_to.iter().flatten() {
            if !op_names.contains(&r.value.as_str()) {
                let help = match names::did_you_mean(&r.value, op_names.iter().copied()) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => "name an operation defined under `operations:`".into(),
                };
                ck.error(
                    &r.loc,
                    format!(
                        "notification `{}` relates to unknown operation `{}`",
                        s.name.value, r.value
                    ),
                    Some(help),
                );
            }
            relates.push(r.value.clone());
        }
        notes.push(model::Notification {
            notification_type: s.notification_type.value.clone(),
            name: s.name.value.clone(),
            doc: s.doc.clone().unwrap_or_default(),
            relates_to: relates,
            payload_note: s
                .payload
                .as_ref()
                .map(|p| p.unspecified.clone())
                .unwrap_or_default(),
            source: s.source.map_or(model::Source::Seed, Into::into),
        });
    }

    // Decision references, now that every reference is collected.
    super::decisions::references(ck, &decisions);

    // The api header.
    let Some(api) = api else {
        let root = ck.root.clone();
        ck.error(
            &root,
            "no file defines `api:`",
            Some(
                "add `api:` with title, source_document and success_code (see spec/SCHEMA.md)"
                    .into(),
            ),
        );
        return None;
    };
    let a = &api.value;
    ck.non_empty(&a.title, "api title");
    ck.non_empty(&a.source_document, "api source_document");
    ck.non_empty(&a.success_code, "api success_code");
    if let Some(v) = &a.version {
        ck.non_empty(v, "api version");
    }
    if let Some(v) = &a.client_version {
        if model::Semver::parse(&v.value).is_none() {
            ck.error(
                &v.loc,
                format!("client_version `{}` is not MAJOR.MINOR.PATCH", v.value),
                Some(
                    "write three numbers, e.g. `client_version: \"1.4.0\"` (see spec/SCHEMA.md)"
                        .into(),
                ),
            );
        }
    }
    if let Some(m) = &a.method {
        if m.value != "POST" {
            ck.error(
                &m.loc,
                format!("method `{}` is not supported", m.value),
                Some("every endpoint is called with POST; write `method: POST`".into()),
            );
        }
    }
    if let Some(c) = &a.content_type {
        if c.value != "application/json" {
            ck.error(
                &c.loc,
                format!("content type `{}` is not supported", c.value),
                Some("the client sends JSON; write `content_type: application/json`".into()),
            );
        }
    }
    Some(model::Api {
        title: a.title.value.clone(),
        source_document: a.source_document.value.clone(),
        success_code: a.success_code.value.clone(),
        version: a
            .version
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        client_version: a
            .client_version
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_else(|| model::DEFAULT_CLIENT_VERSION.to_owned()),
        envelope: envelope_model?,
        result_codes: codes,
        groups,
        records: records.defs,
        enums: enum_defs,
        notifications: notes,
        decisions: decisions.list,
        otp_flow,
    })
}

fn operation(
    ck: &mut Checker,
    declared: &Declared,
    records: &Records,
    op: &Spanned<OperationSpec>,
    group: &str,
) -> model::Operation {
    let s = &op.value;
    let name = s.name.value.clone();
    let owner = Owner::Operation(name.clone());
    if name.is_empty() {
        ck.error(
            &s.name.loc,
            "operation with an empty name",
            Some("name it in lowerCamelCase, e.g. `applyForCnyExpress`".into()),
        );
    } else if !names::is_lower_camel(&name) {
        let hint = heck::ToLowerCamelCase::to_lower_camel_case(name.as_str());
        ck.error(
            &s.name.loc,
            format!("operation name `{name}` is not lowerCamelCase"),
            Some(if names::is_lower_camel(&hint) {
                format!("rename it, e.g. `{hint}`")
            } else {
                "rename it: a lowercase letter, then letters and digits".into()
            }),
        );
    }
    let rust_name = names::snake(&name);
    let type_name = names::camel(&name);
    if !name.is_empty() && (names::is_keyword(&rust_name) || names::is_keyword(&type_name)) {
        ck.error(
            &s.name.loc,
            format!(
                "operation `{name}` becomes the Rust keyword `{}`",
                if names::is_keyword(&rust_name) {
                    &rust_name
                } else {
                    &type_name
                }
            ),
            Some("rename the operation (its method and type names come from it)".into()),
        );
    }
    if crate::reserved::CLIENT_METHODS.contains(&rust_name.as_str()) {
        ck.error(
            &s.name.loc,
            format!("operation `{name}` becomes the method `Client::{rust_name}`, which the generated client already has"),
            Some(format!(
                "rename the operation; the generated client reserves the methods {}",
                super::code_list(crate::reserved::CLIENT_METHODS)
            )),
        );
    }
    let path = s.path.value.clone();
    if !path.starts_with('/')
        || path.len() < 2
        || path.contains("//")
        || !path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/-_.~".contains(c))
    {
        ck.error(
            &s.path.loc,
            format!("path `{path}` of {owner} is not a plain URL path"),
            Some("write the path below the base URL, e.g. `/trans/applyForCnyExpress` (letters, digits, `/-_.~`)".into()),
        );
    }
    let params = match &s.params {
        None => {
            ck.error(
                &op.loc,
                format!("{owner} has no `params:`"),
                Some("write `params: []` if it takes none, or `params: { unspecified: \"...\" }` if the document does not show them".into()),
            );
            Params::Fields { fields: Vec::new() }
        }
        Some(p) => match &p.value {
            ParamsSpec::Fields(list) => Params::Fields {
                fields: fields(ck, declared, list, &owner),
            },
            ParamsSpec::Unspecified(note) => Params::Unspecified { note: note.clone() },
        },
    };
    let constraints = constraints(
        ck,
        declared,
        records,
        s.constraints.as_deref().unwrap_or(&[]),
        &params,
        &owner,
    );
    if let Params::Fields { fields } = &params {
        conditional_backed(ck, fields, &constraints, &owner);
    }
    let response = match &s.response {
        None => {
            ck.error(
                &op.loc,
                format!("{owner} has no `response:`"),
                Some("write one of `{ fields: [...] }`, `{ record: Name }`, `{ unspecified: \"...\" }`, `{ empty: \"...\" }`".into()),
            );
            Response::Empty {
                note: String::new(),
            }
        }
        Some(r) => response(ck, declared, r, &name),
    };
    let decisions = ck.decisions_of(&s.decisions, &owner.to_string());
    let deprecated = ck.deprecation(s.deprecated.as_ref(), &owner.to_string());
    let paging = s
        .paging
        .as_ref()
        .and_then(|p| paging(ck, p, &params, &response, &owner));
    let business_id = s.business_id.as_ref().and_then(|b| {
        let field = match &response {
            Response::Fields { fields, .. } => fields
                .iter()
                .find(|f| f.wire_name == b.value && f.ty == TypeRef::String),
            _ => None,
        };
        if field.is_none() {
            ck.error(
                &b.loc,
                format!(
                    "`business_id: {}` of {owner} is not a string field of its response",
                    b.value
                ),
                Some(
                    "name the response field that sendOtp and confirmOperation take as businessId"
                        .into(),
                ),
            );
        } else if s.otp != Some(true) {
            ck.error(
                &b.loc,
                format!("{owner} has a `business_id` but is not `otp: true`"),
                Some("a business id is what an OTP confirms; add `otp: true` or remove it".into()),
            );
        }
        field.map(|f| f.rust_name.clone())
    });
    let final_states = s
        .final_states
        .as_ref()
        .and_then(|f| final_states(ck, declared, records, f, &response, &owner));
    model::Operation {
        deprecated,
        paging,
        business_id,
        final_states,
        name,
        rust_name,
        type_name,
        path,
        group: group.to_owned(),
        doc: s.doc.clone().unwrap_or_default(),
        source: s.source.map_or(model::Source::Seed, Into::into),
        moves_money: s.moves_money.unwrap_or(false),
        otp: s.otp.unwrap_or(false),
        params,
        constraints,
        response,
        decisions,
        location: op.loc.clone(),
    }
}

fn response(
    ck: &mut Checker,
    declared: &Declared,
    r: &Spanned<crate::spec_file::ResponseSpec>,
    op: &str,
) -> Response {
    let s = &r.value;
    let forms = [
        s.fields.is_some(),
        s.record.is_some(),
        s.unspecified.is_some(),
        s.empty.is_some(),
    ];
    let count = forms.iter().filter(|x| **x).count();
    if count != 1 {
        ck.error(
            &r.loc,
            format!("the response of operation `{op}` must have exactly one of `fields`, `record`, `unspecified`, `empty` (found {count})"),
            Some("keep one form".into()),
        );
        return Response::Empty {
            note: String::new(),
        };
    }
    let source = s.source.map_or(model::Source::Seed, Into::into);
    if let Some(f) = &s.fields {
        return Response::Fields {
            fields: fields(ck, declared, f, &Owner::Response(op.to_owned())),
            source,
        };
    }
    if let Some(rec) = &s.record {
        if !declared.records.contains(&rec.value) {
            let help = match names::did_you_mean(
                &rec.value,
                declared.records.iter().map(String::as_str),
            ) {
                Some(m) => format!("did you mean `{m}`?"),
                None => "name a record declared under `records:`".into(),
            };
            ck.error(
                &rec.loc,
                format!(
                    "unknown record `{}` for the response of operation `{op}`",
                    rec.value
                ),
                Some(help),
            );
        }
        return Response::Record {
            record: rec.value.clone(),
            received_name: rec.value.clone(),
            source,
        };
    }
    if s.source.is_some() {
        ck.error(
            &r.loc,
            format!("`source:` on a response of operation `{op}` that has no shape"),
            Some("`source:` says where a response shape comes from; remove it here".into()),
        );
    }
    match (&s.unspecified, &s.empty) {
        (Some(note), _) => Response::Unspecified { note: note.clone() },
        (_, Some(note)) => Response::Empty { note: note.clone() },
        _ => Response::Empty {
            note: String::new(),
        },
    }
}

/// Which body a constraint item uses, or `None` after reporting a malformed item.
fn constraint_body<'a>(
    ck: &mut Checker,
    c: &'a Spanned<ConstraintSpec>,
    owner: &Owner,
) -> Option<ConstraintRef<'a>> {
    let s = &c.value;
    let inline = ConstraintRef {
        required_if: s.required_if.as_ref(),
        at_least_one_of: s.at_least_one_of.as_ref(),
        exactly_one_of: s.exactly_one_of.as_ref(),
        server_side: s.server_side.as_ref(),
    };
    let body = match &s.constraint {
        Some(body) => {
            if inline.count() > 0 {
                ck.error(
                    &c.loc,
                    format!("constraint of {owner} mixes `constraint:` with a constraint key"),
                    Some("in the long form, put the constraint under `constraint:` only".into()),
                );
                return None;
            }
            ConstraintRef::of(&body.value)
        }
        None => {
            if s.source.is_some() || s.doc.is_some() || s.decisions.is_some() {
                ck.error(&c.loc, format!("constraint of {owner} has `source:`/`doc:`/`decisions:` without `constraint:`"), Some("write the long form: `- constraint: { ... }` then `source:`/`doc:`/`decisions:`".into()));
                return None;
            }
            inline
        }
    };
    if body.count() != 1 {
        ck.error(
            &c.loc,
            format!("a constraint item of {owner} must hold exactly one of `required_if`, `at_least_one_of`, `exactly_one_of`, `server_side` (found {})", body.count()),
            Some("write each constraint as its own list item".into()),
        );
        return None;
    }
    Some(body)
}

struct ConstraintRef<'a> {
    required_if: Option<&'a Spanned<RequiredIfSpec>>,
    at_least_one_of: Option<&'a Spanned<Vec<Spanned<String>>>>,
    exactly_one_of: Option<&'a Spanned<Vec<Spanned<String>>>>,
    server_side: Option<&'a Spanned<crate::spec_file::ServerSideSpec>>,
}

impl<'a> ConstraintRef<'a> {
    fn of(b: &'a ConstraintBody) -> Self {
        ConstraintRef {
            required_if: b.required_if.as_ref(),
            at_least_one_of: b.at_least_one_of.as_ref(),
            exactly_one_of: b.exactly_one_of.as_ref(),
            server_side: b.server_side.as_ref(),
        }
    }
    fn count(&self) -> usize {
        usize::from(self.required_if.is_some())
            + usize::from(self.at_least_one_of.is_some())
            + usize::from(self.exactly_one_of.is_some())
            + usize::from(self.server_side.is_some())
    }
}

fn param<'f>(
    ck: &mut Checker,
    params: &'f Params,
    name: &Spanned<String>,
    owner: &Owner,
    role: &str,
) -> Option<&'f Field> {
    match params {
        Params::Unspecified { .. } => {
            ck.error(
                &name.loc,
                format!(
                    "{role} names `{}`, but the parameters of {owner} are unspecified",
                    name.value
                ),
                Some("list the parameters, or remove the constraint".into()),
            );
            None
        }
        Params::Fields { fields } => {
            let found = fields.iter().find(|f| f.wire_name == name.value);
            if found.is_none() {
                let help = match names::did_you_mean(
                    &name.value,
                    fields.iter().map(|f| f.wire_name.as_str()),
                ) {
                    Some(m) => format!(
                        "did you mean `{m}`? a constraint names parameters of its operation"
                    ),
                    None => format!("name a parameter of {owner}"),
                };
                ck.error(
                    &name.loc,
                    format!(
                        "{role} names `{}`, which is not a parameter of {owner}",
                        name.value
                    ),
                    Some(help),
                );
            }
            found
        }
    }
}

fn constraints(
    ck: &mut Checker,
    declared: &Declared,
    records: &Records,
    list: &[Spanned<ConstraintSpec>],
    params: &Params,
    owner: &Owner,
) -> Vec<Constraint> {
    let mut out = Vec::new();
    for c in list {
        let Some(body) = constraint_body(ck, c, owner) else {
            continue;
        };
        let kind = if let Some(ri) = body.required_if {
            required_if(ck, declared, records, &ri.value, params, owner)
        } else if let Some(l) = body.at_least_one_of {
            field_set(ck, l, params, owner, "at_least_one_of")
                .map(|fields| ConstraintKind::AtLeastOneOf { fields })
        } else if let Some(l) = body.exactly_one_of {
            field_set(ck, l, params, owner, "exactly_one_of")
                .map(|fields| ConstraintKind::ExactlyOneOf { fields })
        } else if let Some(ss) = body.server_side {
            let mut fields = Vec::new();
            for f in &ss.value.fields {
                param(ck, params, f, owner, "`server_side`");
                fields.push(f.value.clone());
            }
            if ss.value.text.trim().is_empty() {
                ck.error(
                    &ss.loc,
                    format!("`server_side` constraint of {owner} has no text"),
                    Some("say what the service checks".into()),
                );
            }
            Some(ConstraintKind::ServerSide {
                fields,
                text: ss.value.text.clone(),
            })
        } else {
            None
        };
        let s = &c.value;
        let decisions = ck.decisions_of(&s.decisions, &format!("a constraint of {owner}"));
        if let Some(kind) = kind {
            out.push(Constraint {
                kind,
                source: s.source.map_or(model::Source::Seed, Into::into),
                doc: s.doc.clone().unwrap_or_default(),
                decisions,
                location: c.loc.clone(),
            });
        }
    }
    out
}

fn field_set(
    ck: &mut Checker,
    l: &Spanned<Vec<Spanned<String>>>,
    params: &Params,
    owner: &Owner,
    key: &str,
) -> Option<Vec<ParamRef>> {
    let mut ok = true;
    let mut names_: Vec<ParamRef> = Vec::new();
    for n in &l.value {
        if names_.iter().any(|p| p.wire_name == n.value) {
            ck.error(
                &n.loc,
                format!("`{key}` of {owner} names `{}` twice", n.value),
                Some("name each field once".into()),
            );
            ok = false;
        }
        match param(ck, params, n, owner, &format!("`{key}`")) {
            Some(f) => {
                if f.required == Requirement::Required {
                    ck.warn(
                        &n.loc,
                        format!("`{key}` of {owner} names `{}`, which is `required: true`", n.value),
                        "a required field is always present; make it `required: conditional` or drop the constraint",
                    );
                }
                names_.push(param_ref(f));
            }
            None => ok = false,
        }
    }
    if l.value.len() < 2 {
        ck.error(
            &l.loc,
            format!("`{key}` of {owner} names fewer than two fields"),
            Some("name at least two parameters".into()),
        );
        ok = false;
    }
    ok.then_some(names_)
}

/// The resolved reference to a parameter, for the emitter.
fn param_ref(f: &Field) -> ParamRef {
    ParamRef {
        wire_name: f.wire_name.clone(),
        rust_name: f.rust_name.clone(),
        optional: f.optional_when_sent(),
        text: f.ty == TypeRef::String,
    }
}

fn required_if(
    ck: &mut Checker,
    declared: &Declared,
    records: &Records,
    ri: &RequiredIfSpec,
    params: &Params,
    owner: &Owner,
) -> Option<ConstraintKind> {
    let target = param(ck, params, &ri.field, owner, "`required_if`");
    let w = &ri.when.value;
    let cond = match (&w.field, &w.equals, &w.sum, &w.greater_than) {
        (Some(field), Some(value), None, None) => {
            let f = param(ck, params, field, owner, "`required_if` condition")?;
            let mut wire_value = value.value.clone();
            match &f.ty {
                TypeRef::String => {}
                TypeRef::Enum { name } => {
                    if let Some(info) = declared.enums.get(name) {
                        let matched = info.wires.iter().find(|w| {
                            **w == value.value
                                || (info.wire_type == EnumWireType::Integer
                                    && w.parse::<i64>().ok().is_some_and(|a| {
                                        value.value.parse::<i64>().ok() == Some(a)
                                    }))
                        });
                        if let Some(w) = matched {
                            // Compared with the enum's own wire text (`01` means `1`).
                            wire_value = w.clone();
                        } else {
                            let list = info.wires.join(", ");
                            ck.error(&value.loc, format!("`equals: {}` is not a value of enum `{name}` (field `{}` of {owner})", value.value, field.value), Some(format!("use one of its wire values: {list}")));
                            return None;
                        }
                    }
                }
                other => {
                    ck.error(&field.loc, format!("`required_if` compares field `{}` of {owner}, of type `{}`, with `equals`", field.value, type_text(other)), Some("`equals` compares a string or enum parameter with a wire value".into()));
                    return None;
                }
            }
            Condition::Equals {
                field: param_ref(f),
                value: wire_value,
            }
        }
        (None, None, Some(sum), Some(gt)) => {
            let Some((array, item)) = sum.value.split_once("[].") else {
                ck.error(
                    &sum.loc,
                    format!(
                        "`sum: {}` of {owner} is not of the form `array[].field`",
                        sum.value
                    ),
                    Some("write e.g. `sum: \"oderArray[].amount\"`".into()),
                );
                return None;
            };
            let arr = Spanned {
                loc: sum.loc.clone(),
                value: array.to_owned(),
            };
            let f = param(ck, params, &arr, owner, "`sum`")?;
            let array_ref = param_ref(f);
            let record_of_items = match &f.ty {
                TypeRef::Array { item: inner } => match inner.as_ref() {
                    TypeRef::Record { name, .. } => Some(name.clone()),
                    _ => None,
                },
                _ => None,
            };
            let Some(rec) = record_of_items else {
                ck.error(&sum.loc, format!("`sum` over `{array}` of {owner}, which is not an array of records"), Some("`sum` adds a decimal field over the elements of an array-of-record parameter".into()));
                return None;
            };
            // Record field types are known from the records list in the spec files; the
            // checker keeps them on the side.
            let item_ref = match records.field(&rec, item).cloned() {
                Some(item_field) if matches!(item_field.ty, TypeRef::Decimal { .. }) => {
                    param_ref(&item_field)
                }
                Some(other) => {
                    let other = other.ty;
                    ck.error(
                        &sum.loc,
                        format!(
                            "`sum` adds `{item}` of record `{rec}`, of type `{}`, not decimal",
                            type_text(&other)
                        ),
                        Some("`sum` adds a decimal field".into()),
                    );
                    return None;
                }
                None => {
                    ck.error(
                        &sum.loc,
                        format!("`sum` names `{item}`, which is not a field of record `{rec}`"),
                        Some(format!("name a decimal field of `{rec}`")),
                    );
                    return None;
                }
            };
            let Some(threshold) = Dec::parse(&gt.value).and_then(|d| d.number()) else {
                ck.error(
                    &gt.loc,
                    format!(
                        "`greater_than: {}` of {owner} is not a decimal number",
                        gt.value
                    ),
                    Some("write digits with an optional `-` and `.` (at most 18 significant digits), e.g. \"70000\"".into()),
                );
                return None;
            };
            Condition::SumGreaterThan {
                array: array_ref,
                item: item_ref,
                value: threshold,
            }
        }
        _ => {
            ck.error(&ri.when.loc, format!("`when:` of a `required_if` of {owner} must be `{{ field, equals }}` or `{{ sum, greater_than }}`"), Some("e.g. `when: { field: beneficiaryType, equals: \"1\" }`".into()));
            return None;
        }
    };
    if let Some(t) = target {
        if t.required == Requirement::Required {
            let loc = ri.field.loc.clone();
            ck.warn(
                &loc,
                format!(
                    "`required_if` of {owner} targets `{}`, which is `required: true`",
                    ri.field.value
                ),
                "a required field is always present; make it `required: conditional`",
            );
        }
    }
    target.map(|t| ConstraintKind::RequiredIf {
        field: param_ref(t),
        when: cond,
    })
}

/// Resolves `final_states:` against the response: a listed field (or one of the
/// response record), or a member of a raw JSON response.
fn final_states(
    ck: &mut Checker,
    declared: &Declared,
    records: &Records,
    f: &Spanned<crate::spec_file::FinalStatesSpec>,
    response: &Response,
    owner: &Owner,
) -> Option<model::FinalStates> {
    let spec = &f.value;
    let name = &spec.field;
    if spec.values.is_empty() {
        ck.error(
            &f.loc,
            format!("`final_states` of {owner} lists no value"),
            Some("list the wire values after which the state no longer changes".into()),
        );
        return None;
    }
    let field = match response {
        Response::Fields { fields, .. } => {
            fields.iter().find(|x| x.wire_name == name.value).cloned()
        }
        Response::Record { record, .. } => records.field(record, &name.value).cloned(),
        Response::Unspecified { .. } => {
            return Some(model::FinalStates {
                wire_name: name.value.clone(),
                rust_name: None,
                values: spec.values.iter().map(|v| v.value.clone()).collect(),
            })
        }
        Response::Empty { .. } => None,
    };
    let Some(field) = field else {
        ck.error(
            &name.loc,
            format!(
                "`final_states: {{ field: {} }}` of {owner} is not a field of its response",
                name.value
            ),
            Some("name the response field that holds the state".into()),
        );
        return None;
    };
    let fits = match &field.ty {
        TypeRef::String | TypeRef::Int | TypeRef::Long => true,
        TypeRef::Enum { name: e } => {
            if let Some(info) = declared.enums.get(e) {
                let wires = info.wires.clone();
                for v in &spec.values {
                    if !wires.contains(&v.value) {
                        ck.error(
                            &v.loc,
                            format!(
                                "final state `{}` of {owner} is not a value of enum `{e}`",
                                v.value
                            ),
                            Some(format!("use one of its wire values: {}", wires.join(", "))),
                        );
                    }
                }
            }
            true
        }
        _ => false,
    };
    if !fits {
        ck.error(
            &name.loc,
            format!("`final_states: {{ field: {} }}` of {owner} is not a string, int, long or enum field", name.value),
            Some("the state is compared by its wire text".into()),
        );
        return None;
    }
    Some(model::FinalStates {
        wire_name: field.wire_name.clone(),
        rust_name: Some(field.rust_name.clone()),
        values: spec.values.iter().map(|v| v.value.clone()).collect(),
    })
}

/// Resolves `paging:` against the operation's parameters and response.
fn paging(
    ck: &mut Checker,
    p: &Spanned<crate::spec_file::PagingSpec>,
    params: &Params,
    response: &Response,
    owner: &Owner,
) -> Option<model::Paging> {
    let spec = &p.value;
    let number_param = |ck: &mut Checker, name: &Spanned<String>, role: &str| {
        let f = param(ck, params, name, owner, &format!("`paging: {{ {role} }}`"))?;
        let fits = matches!(f.ty, TypeRef::Int | TypeRef::Long | TypeRef::String);
        if !fits || f.required != Requirement::Required {
            ck.error(
                &name.loc,
                format!(
                    "`paging: {{ {role}: {} }}` of {owner} names a parameter that is not a required int, long or string",
                    name.value
                ),
                Some("the page number and size are required integer (or digit string) parameters".into()),
            );
            return None;
        }
        Some(model::PagingField {
            wire_name: f.wire_name.clone(),
            rust_name: f.rust_name.clone(),
            ty: f.ty.clone(),
        })
    };
    let page = number_param(ck, &spec.page, "page");
    let size = number_param(ck, &spec.size, "size");
    let fields = match response {
        Response::Fields { fields, .. } => Some(fields),
        _ => None,
    };
    let response_field = |ck: &mut Checker, name: &Spanned<String>, role: &str| {
        let Some(fields) = fields else {
            ck.error(
                &name.loc,
                format!("`paging: {{ {role} }}` of {owner} names a response field, but the response has no listed fields"),
                Some("leave `items` and `total` out while the response is not shown".into()),
            );
            return None;
        };
        let found = fields.iter().find(|f| f.wire_name == name.value);
        if found.is_none() {
            let help =
                match names::did_you_mean(&name.value, fields.iter().map(|f| f.wire_name.as_str()))
                {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => "name a field of the response".into(),
                };
            ck.error(
                &name.loc,
                format!(
                    "`paging: {{ {role}: {} }}` of {owner} is not a response field",
                    name.value
                ),
                Some(help),
            );
        }
        found
    };
    let items = match &spec.items {
        None => None,
        Some(name) => {
            let f = response_field(ck, name, "items")?;
            match &f.ty {
                TypeRef::Array { item } => Some(model::PagingItems {
                    wire_name: f.wire_name.clone(),
                    rust_name: f.rust_name.clone(),
                    item: (**item).clone(),
                }),
                _ => {
                    ck.error(
                        &name.loc,
                        format!(
                            "`paging: {{ items: {} }}` of {owner} is not an array field",
                            name.value
                        ),
                        Some("`items` names the response array that holds a page".into()),
                    );
                    return None;
                }
            }
        }
    };
    let total = match &spec.total {
        None => None,
        Some(name) => {
            let f = response_field(ck, name, "total")?;
            if !matches!(f.ty, TypeRef::Int | TypeRef::Long) {
                ck.error(
                    &name.loc,
                    format!(
                        "`paging: {{ total: {} }}` of {owner} is not an int or long field",
                        name.value
                    ),
                    Some("`total` names the response field counting every item".into()),
                );
                return None;
            }
            Some(model::PagingField {
                wire_name: f.wire_name.clone(),
                rust_name: f.rust_name.clone(),
                ty: f.ty.clone(),
            })
        }
    };
    let first_page = match &spec.first_page {
        None => 1,
        Some(n) => match i64::try_from(n.value) {
            Ok(v) => v,
            Err(_) => {
                ck.error(
                    &n.loc,
                    format!("`first_page` of {owner} is too large"),
                    Some("pages are numbered from 0 or 1".into()),
                );
                return None;
            }
        },
    };
    Some(model::Paging {
        page: page?,
        size: size?,
        first_page,
        items,
        total,
    })
}

/// Resolves the `otp_step:` marks into the OTP flow: one `send` and one `confirm` step
/// (and at most one `group`), each naming its parameters, with no other required
/// parameter (the client fills them in itself).
fn otp_flow(
    ck: &mut Checker,
    steps: &[(&Spanned<crate::spec_file::OtpStepSpec>, String)],
    groups: &[model::Group],
) -> Option<model::OtpFlow> {
    let mut send = None;
    let mut confirm = None;
    let mut group = None;
    for (spec, op_name) in steps {
        let Some(op) = groups
            .iter()
            .flat_map(|g| g.operations.iter())
            .find(|o| &o.name == op_name)
        else {
            continue;
        };
        let owner = Owner::Operation(op.name.clone());
        let s = &spec.value;
        let count = [s.send.is_some(), s.confirm.is_some(), s.group.is_some()]
            .iter()
            .filter(|b| **b)
            .count();
        if count != 1 {
            ck.error(
                &spec.loc,
                format!("`otp_step` of {owner} must be exactly one of `send`, `confirm`, `group`"),
                Some(
                    "e.g. `otp_step: { send: { business_id: businessId, channel: otpType } }`"
                        .into(),
                ),
            );
            continue;
        }
        let fields: &[Field] = match &op.params {
            Params::Fields { fields } => fields,
            Params::Unspecified { .. } => &[],
        };
        let named = |ck: &mut Checker,
                     n: &Spanned<String>,
                     want: &dyn Fn(&TypeRef) -> bool,
                     what: &str| {
            match fields.iter().find(|f| f.wire_name == n.value) {
                Some(f) if f.required == Requirement::Required && want(&f.ty) => Some(f.clone()),
                _ => {
                    ck.error(
                        &n.loc,
                        format!("`otp_step` of {owner} names `{}`, which is not a required {what} parameter", n.value),
                        Some(format!("name the {what} parameter that carries it")),
                    );
                    None
                }
            }
        };
        let step = |business_id: &Field, other: &Field| model::OtpStep {
            operation: op.name.clone(),
            rust_name: op.rust_name.clone(),
            group: op.group.clone(),
            type_name: op.type_name.clone(),
            business_id: business_id.rust_name.clone(),
            other: other.rust_name.clone(),
            other_wire: other.wire_name.clone(),
            other_ty: other.ty.clone(),
        };
        let is_string = |t: &TypeRef| *t == TypeRef::String;
        let (slot, built, used): (
            &mut Option<model::OtpStep>,
            Option<model::OtpStep>,
            Vec<String>,
        ) = if let Some(x) = &s.send {
            let b = named(ck, &x.business_id, &is_string, "string");
            let c = named(ck, &x.channel, &|_| true, "channel");
            let used = vec![x.business_id.value.clone(), x.channel.value.clone()];
            let built = match (b, c) {
                (Some(b), Some(c)) => Some(step(&b, &c)),
                _ => None,
            };
            (&mut send, built, used)
        } else if let Some(x) = &s.confirm {
            let b = named(ck, &x.business_id, &is_string, "string");
            let c = named(ck, &x.code, &is_string, "string");
            let used = vec![x.business_id.value.clone(), x.code.value.clone()];
            let built = match (b, c) {
                (Some(b), Some(c)) => Some(step(&b, &c)),
                _ => None,
            };
            (&mut confirm, built, used)
        } else if let Some(x) = &s.group {
            let ids = named(
                ck,
                &x.ids,
                &|t| matches!(t, TypeRef::Array { item } if **item == TypeRef::String),
                "array<string>",
            );
            let result = match &op.response {
                Response::Fields { fields, .. } => fields
                    .iter()
                    .find(|f| f.wire_name == x.result.value && f.ty == TypeRef::String)
                    .cloned(),
                _ => None,
            };
            if result.is_none() {
                ck.error(
                        &x.result.loc,
                        format!("`otp_step` of {owner} names `{}`, which is not a string field of its response", x.result.value),
                        Some("name the response field holding the new application id".into()),
                    );
            }
            let used = vec![x.ids.value.clone()];
            let built = match (ids, result) {
                (Some(i), Some(r)) => Some(step(&i, &r)),
                _ => None,
            };
            (&mut group, built, used)
        } else {
            continue;
        };
        for f in fields {
            if f.required == Requirement::Required && !used.contains(&f.wire_name) {
                ck.error(
                    &f.location,
                    format!("{owner} is an `otp_step` but also requires `{}`", f.wire_name),
                    Some("the client calls an OTP step with only the fields `otp_step` names; make the others optional".into()),
                );
            }
        }
        if slot.is_some() {
            ck.error(
                &spec.loc,
                format!("a second `otp_step` of the same kind, on {owner}"),
                Some("each step of the OTP flow is one operation".into()),
            );
        } else {
            *slot = built;
        }
    }
    let any_business_id = groups
        .iter()
        .flat_map(|g| g.operations.iter())
        .find(|o| o.business_id.is_some());
    match (send, confirm) {
        (Some(send), Some(confirm)) => Some(model::OtpFlow {
            send,
            confirm,
            group,
        }),
        (send, confirm) => {
            if let Some(op) = any_business_id {
                if send.is_none() || confirm.is_none() {
                    ck.error(
                        &op.location,
                        format!("operation `{}` has a `business_id`, but no operation is `otp_step: {{ send }}` and `{{ confirm }}`", op.name),
                        Some("mark the operations that send and confirm an OTP with `otp_step:`".into()),
                    );
                }
            }
            None
        }
    }
}

fn conditional_backed(
    ck: &mut Checker,
    fields: &[Field],
    constraints: &[Constraint],
    owner: &Owner,
) {
    let named: BTreeSet<&str> = constraints
        .iter()
        .flat_map(|c| match &c.kind {
            ConstraintKind::RequiredIf { field, .. } => vec![field.wire_name.as_str()],
            ConstraintKind::AtLeastOneOf { fields } | ConstraintKind::ExactlyOneOf { fields } => {
                fields.iter().map(|f| f.wire_name.as_str()).collect()
            }
            ConstraintKind::ServerSide { .. } => Vec::new(),
        })
        .collect();
    for f in fields {
        if f.required == Requirement::Conditional && !named.contains(f.wire_name.as_str()) {
            ck.error(
                &f.location,
                format!("field `{}` of {owner} is `required: conditional`, but no constraint names it", f.wire_name),
                Some(format!("add a `required_if`, `at_least_one_of` or `exactly_one_of` constraint naming `{}`, or make it `required: true`/`false`", f.wire_name)),
            );
        }
    }
}

fn operation_names(
    ck: &mut Checker,
    ops: &[&model::Operation],
    types: &BTreeMap<String, (String, Location)>,
) {
    let mut by_name: BTreeMap<&str, &Location> = BTreeMap::new();
    let mut by_method: BTreeMap<&str, (&str, &Location)> = BTreeMap::new();
    let mut type_names: BTreeMap<String, (String, Location)> = types.clone();
    for op in ops {
        if op.name.is_empty() {
            continue;
        }
        if let Some(prev) = by_name.get(op.name.as_str()) {
            let prev = at(prev);
            ck.error(
                &op.location,
                format!("operation `{}` is defined twice", op.name),
                Some(format!(
                    "first defined at {prev}; operation names are unique"
                )),
            );
            continue;
        }
        by_name.insert(&op.name, &op.location);
        if let Some((other, prev)) = by_method.get(op.rust_name.as_str()) {
            let prev = at(prev);
            ck.error(
                &op.location,
                format!(
                    "operations `{other}` and `{}` both become the Rust method `{}`",
                    op.name, op.rust_name
                ),
                Some(format!("rename one of them (the other is at {prev})")),
            );
            continue;
        }
        by_method.insert(&op.rust_name, (&op.name, &op.location));
        for suffix in ["Request", "Response"] {
            let t = format!("{}{suffix}", op.type_name);
            if let Some((kind, prev)) = type_names.get(&t) {
                let prev = at(prev);
                ck.error(
                    &op.location,
                    format!(
                        "the type `{t}` generated for operation `{}` collides with {kind} `{t}`",
                        op.name
                    ),
                    Some(format!("rename the operation or the other (at {prev})")),
                );
            } else {
                type_names.insert(
                    t,
                    (
                        format!(
                            "the {} type of operation `{}`, ",
                            suffix.to_lowercase(),
                            op.name
                        ),
                        op.location.clone(),
                    ),
                );
            }
        }
    }
}

fn about_names_path(about: &str, path: &str) -> bool {
    about
        .split_whitespace()
        .any(|t| t.trim_matches(|c: char| ",;:()`'\"".contains(c)) == path)
}

fn shared_paths(ck: &mut Checker, ops: &[&model::Operation], decisions: &[model::Decision]) {
    let mut by_path: BTreeMap<&str, Vec<&model::Operation>> = BTreeMap::new();
    for op in ops {
        by_path.entry(op.path.as_str()).or_default().push(op);
    }
    for (path, list) in by_path {
        if list.len() < 2 {
            continue;
        }
        let all: Vec<String> = list.iter().map(|o| format!("`{}`", o.name)).collect();
        for op in &list {
            let recorded = op.decisions.iter().any(|id| {
                decisions
                    .iter()
                    .any(|d| d.id == *id && about_names_path(&d.about, path))
            });
            if !recorded {
                ck.error(
                    &op.location,
                    format!("path `{path}` is shared by operations {} without a recorded decision on operation `{}`", all.join(", "), op.name),
                    Some(format!("list under this operation's `decisions:` a decision whose `about:` names `{path}`, saying why the path is shared")),
                );
            }
        }
    }
}

fn record_refs(t: &TypeRef, out: &mut Vec<String>) {
    match t {
        TypeRef::Record { name, .. } => out.push(name.clone()),
        TypeRef::Array { item } => record_refs(item, out),
        _ => {}
    }
}

/// Marks records used by requests and responses (transitively); request records may not
/// hold `required: conditional` fields.
fn usage(ck: &mut Checker, records: &mut [model::Record], ops: &[&model::Operation]) {
    let mut req = Vec::new();
    let mut resp = Vec::new();
    for op in ops {
        if let Params::Fields { fields } = &op.params {
            fields.iter().for_each(|f| record_refs(&f.ty, &mut req));
        }
        match &op.response {
            Response::Fields { fields, .. } => {
                fields.iter().for_each(|f| record_refs(&f.ty, &mut resp))
            }
            Response::Record { record, .. } => resp.push(record.clone()),
            _ => {}
        }
    }
    let closure = |mut todo: Vec<String>, records: &[model::Record]| {
        let mut seen = BTreeSet::new();
        while let Some(n) = todo.pop() {
            if seen.insert(n.clone()) {
                if let Some(r) = records.iter().find(|r| r.name == n) {
                    r.fields.iter().for_each(|f| record_refs(&f.ty, &mut todo));
                }
            }
        }
        seen
    };
    let req = closure(req, records);
    let resp = closure(resp, records);
    for r in records.iter_mut() {
        r.used_in_request = req.contains(&r.name);
        r.used_in_response = resp.contains(&r.name);
        if r.used_in_request {
            ck.conditional_outside_operation(&r.fields, &Owner::Record(r.name.clone()));
        }
    }
}

/// Names the shapes of records and requests (`<Record>Received` for the received shape
/// of a record used in both directions, `<Type>Required` for the struct of required
/// fields), refuses those that collide with another generated type, and settles
/// `received_name` in every `TypeRef::Record`.
fn shape_names(
    ck: &mut Checker,
    records: &mut [model::Record],
    groups: &mut [model::Group],
    types: &BTreeMap<String, (String, Location)>,
) {
    let mut taken: BTreeMap<String, (String, Location)> = types.clone();
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        for suffix in ["Request", "Response"] {
            taken
                .entry(format!("{}{suffix}", op.type_name))
                .or_insert_with(|| {
                    (
                        format!("a type of operation `{}`,", op.name),
                        op.location.clone(),
                    )
                });
        }
    }
    let mut claim = |ck: &mut Checker, name: String, what: String, loc: &Location| {
        if let Some((kind, prev)) = taken.get(&name) {
            let prev = at(prev);
            ck.error(
                loc,
                format!("the type `{name}` generated for {what} collides with {kind} `{name}`"),
                Some(format!("rename one of them (the other is at {prev})")),
            );
        } else {
            taken.insert(
                name,
                (format!("the type generated for {what},"), loc.clone()),
            );
        }
    };
    let mut received: BTreeMap<String, String> = BTreeMap::new();
    for r in records.iter_mut() {
        r.received_name = if r.has_two_shapes() {
            let name = format!("{}Received", r.name);
            claim(
                ck,
                name.clone(),
                format!("the received shape of record `{}`", r.name),
                &r.location,
            );
            name
        } else {
            r.name.clone()
        };
        received.insert(r.name.clone(), r.received_name.clone());
        if r.used_in_request && r.fields.iter().any(|f| f.required == Requirement::Required) {
            claim(
                ck,
                format!("{}Required", r.name),
                format!("the required fields of record `{}`", r.name),
                &r.location,
            );
        }
    }
    for op in groups.iter().flat_map(|g| g.operations.iter()) {
        if let Params::Fields { fields } = &op.params {
            if fields.iter().any(|f| f.required == Requirement::Required) {
                claim(
                    ck,
                    format!("{}Required", op.type_name),
                    format!("the required parameters of operation `{}`", op.name),
                    &op.location,
                );
            }
        }
    }
    let settle = |fields: &mut [Field]| {
        for f in fields {
            settle_received(&mut f.ty, &received);
        }
    };
    for r in records.iter_mut() {
        settle(&mut r.fields);
    }
    for op in groups.iter_mut().flat_map(|g| g.operations.iter_mut()) {
        if let Params::Fields { fields } = &mut op.params {
            settle(fields);
        }
        match &mut op.response {
            Response::Fields { fields, .. } => settle(fields),
            Response::Record {
                record,
                received_name,
                ..
            } => {
                if let Some(r) = received.get(record.as_str()) {
                    received_name.clone_from(r);
                }
            }
            _ => {}
        }
    }
}

fn settle_received(ty: &mut TypeRef, received: &BTreeMap<String, String>) {
    match ty {
        TypeRef::Record {
            name,
            received_name,
        } => {
            if let Some(r) = received.get(name) {
                received_name.clone_from(r);
            }
        }
        TypeRef::Array { item } => settle_received(item, received),
        _ => {}
    }
}
