//! The spec's side: each operation's fields as the spec declares them (type, requiredness,
//! rules, decisions), loaded with the codegen's own loader, and which source types a spec type
//! may stand for.

use super::*;

#[derive(Debug, Clone)]
pub(crate) struct SpecField {
    pub(crate) name: String,
    /// Type as written in the spec (`string`, `array<OrderItem>`, `BeneficiaryType`).
    pub(crate) ty: String,
    /// `true`, `false` or `conditional`.
    pub(crate) required: String,
    pub(crate) decisions: Vec<String>,
    pub(crate) rules: Vec<RuleKind>,
}

#[derive(Debug, Clone)]
pub(crate) struct SpecOp {
    pub(crate) name: String,
    pub(crate) path: String,
    /// `None`: `params: { unspecified }`.
    pub(crate) params: Option<Vec<SpecField>>,
    /// `fields`, `record`, `unspecified` or `empty`.
    pub(crate) response_kind: String,
    /// `source:` of the response (default `seed`).
    pub(crate) response_source: String,
    /// `fields`: its fields; `record`: the record's name in `response_record`.
    pub(crate) response_fields: Vec<SpecField>,
    pub(crate) response_record: Option<String>,
    pub(crate) constraints: Vec<ConstraintKind>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Spec {
    pub(crate) ops: Vec<SpecOp>,
    pub(crate) records: BTreeMap<String, Vec<SpecField>>,
    /// Enum name → wire type (`string` / `integer`).
    pub(crate) enums: BTreeMap<String, String>,
    /// Enum name → wire values in spec order, with their source.
    pub(crate) enum_values: BTreeMap<String, Vec<(String, Source)>>,
    pub(crate) envelope_request: Vec<SpecField>,
    pub(crate) envelope_response: Vec<SpecField>,
    /// Decision id → `about:`.
    pub(crate) decision_about: BTreeMap<String, String>,
}

pub(crate) fn type_text(t: &TypeRef) -> String {
    match t {
        TypeRef::String => "string".into(),
        TypeRef::Int => "int".into(),
        TypeRef::Long => "long".into(),
        TypeRef::Decimal { .. } => "decimal".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::Date => "date".into(),
        TypeRef::Document => "document".into(),
        TypeRef::Scalar => "scalar".into(),
        TypeRef::Json => "json".into(),
        TypeRef::Enum { name } | TypeRef::Record { name, .. } => name.clone(),
        TypeRef::Array { item } => format!("array<{}>", type_text(item)),
    }
}

/// The fields a document may list: a field graded `sandbox` is the sandbox's own choice,
/// which no document shows.
pub(crate) fn spec_fields(fields: &[Field]) -> Vec<SpecField> {
    fields
        .iter()
        .filter(|f| f.source != Source::Sandbox)
        .map(|f| SpecField {
            name: f.wire_name.clone(),
            ty: type_text(&f.ty),
            required: match f.required {
                Requirement::Required => "true",
                Requirement::Optional => "false",
                Requirement::Conditional => "conditional",
            }
            .into(),
            decisions: f.decisions.clone(),
            rules: f.rules.iter().map(|r| r.kind.clone()).collect(),
        })
        .collect()
}

pub(crate) fn source_text(s: Source) -> String {
    s.spec_word().into()
}

/// The checked model of `spec/` (`baas_codegen::check_spec`), reduced to what the
/// comparison needs.
pub(crate) fn load_spec(spec_dir: &Path) -> Spec {
    let checked = baas_codegen::check_spec(spec_dir)
        .unwrap_or_else(|d| panic!("spec/ does not pass the front end's checks:\n{d}"));
    let api = checked.api;
    let mut spec = Spec::default();
    for op in api.operations() {
        let (response_kind, response_source) = match &op.response {
            Response::Fields { source, .. } => ("fields", source_text(*source)),
            Response::Record { source, .. } => ("record", source_text(*source)),
            Response::Unspecified { .. } => ("unspecified", "seed".into()),
            Response::Empty { .. } => ("empty", "seed".into()),
        };
        spec.ops.push(SpecOp {
            name: op.name.clone(),
            path: op.path.clone(),
            params: match &op.params {
                Params::Fields { fields } => Some(spec_fields(fields)),
                Params::Unspecified { .. } => None,
            },
            response_kind: response_kind.into(),
            response_source,
            response_fields: match &op.response {
                Response::Fields { fields, .. } => spec_fields(fields),
                _ => Vec::new(),
            },
            response_record: match &op.response {
                Response::Record { record, .. } => Some(record.clone()),
                _ => None,
            },
            constraints: op.constraints.iter().map(|c| c.kind.clone()).collect(),
        });
    }
    for r in &api.records {
        spec.records.insert(r.name.clone(), spec_fields(&r.fields));
    }
    for e in &api.enums {
        let w = match e.wire_type {
            EnumWireType::String => "string",
            EnumWireType::Integer => "integer",
        };
        spec.enums.insert(e.name.clone(), w.into());
        spec.enum_values.insert(
            e.name.clone(),
            e.values
                .iter()
                .map(|v| (v.wire.clone(), v.source))
                .collect(),
        );
    }
    spec.envelope_request = spec_fields(&api.envelope.request);
    spec.envelope_response = spec_fields(&api.envelope.response);
    for d in &api.decisions {
        spec.decision_about.insert(d.id.clone(), d.about.clone());
    }
    spec
}
