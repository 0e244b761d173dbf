//! Responses, the records of the "Resources" section field by field, and the message envelope,
//! against the spec; the tables of what is compared where.

use super::*;

/// What the document states `data` holds, against the spec's response: a field list
/// (`txId (string), paymentId (string)`, `data.applicationId (string)`, `accounts: array
/// of a, b`) must be the `fields` response's names exactly, or lie within the `record`
/// response's fields, with the stated types; `code, msg` / `code and msg only` is an
/// `empty` response. Prose ("personal KYC record", "not shown") names no fields.
pub(crate) fn check_response(
    spec: &Spec,
    ctx: &str,
    src: &SrcOp,
    op: &SpecOp,
    out: &mut Vec<String>,
) {
    /// A field of a prose list: name and the text in its parenthesis.
    type Item = (String, String);
    let Some(text) = &src.response else {
        return;
    };
    let text = text.trim();
    if text == "code, msg" || text.contains("code and msg") {
        if op.response_kind != "empty" {
            out.push(format!(
                "{ctx}: the source says the response is `{text}`, the spec's response is `{}`, not `empty`",
                op.response_kind
            ));
        }
        return;
    }
    // `accounts: array of accountId, accountName, ...`
    let (items, nested): (Vec<Item>, Option<(String, Vec<Item>)>) =
        match text.split_once(": array of ") {
            Some((name, list)) if name.chars().all(is_ident_char) => match list_items(list) {
                Ok(sub) => (
                    vec![(name.to_string(), "array".into())],
                    Some((name.to_string(), sub)),
                ),
                Err(_) => return,
            },
            _ => match list_items(text.strip_prefix("data.").unwrap_or(text)) {
                Ok(items) => (items, None),
                Err(_) => return, // prose: a record named in words, or "not shown"
            },
        };
    let fields: Vec<SpecField> = match (op.response_kind.as_str(), &op.response_record) {
        ("fields", _) => op.response_fields.clone(),
        ("record", Some(r)) => spec.records.get(r).cloned().unwrap_or_default(),
        (kind, _) => {
            out.push(format!(
                "{ctx}: the source lists the response fields `{text}`, the spec's response is `{kind}`"
            ));
            return;
        }
    };
    let by_name: BTreeMap<&str, &SpecField> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    for (name, paren) in &items {
        match by_name.get(name.as_str()) {
            None => out.push(format!(
                "{ctx}: response field `{name}` of the source is missing"
            )),
            Some(f) => {
                if let Some(ty) = note_type(paren) {
                    if !type_compatible(spec, &ty, &f.ty) && !has_decision_about(spec, f) {
                        out.push(format!(
                            "{ctx}: response field `{name}` is `{}` in the spec, declared `{ty}` in the source, and no decision about the field explains it",
                            f.ty
                        ));
                    }
                }
            }
        }
    }
    if op.response_kind == "fields" {
        let names: BTreeSet<&str> = items.iter().map(|(n, _)| n.as_str()).collect();
        for f in &fields {
            if !names.contains(f.name.as_str()) && op.response_source == "seed" {
                out.push(format!(
                    "{ctx}: the spec's response has `{}`, which the source does not list",
                    f.name
                ));
            }
        }
    }
    if let Some((owner, sub)) = nested {
        let item = by_name
            .get(owner.as_str())
            .and_then(|f| f.ty.strip_prefix("array<"))
            .and_then(|s| s.strip_suffix('>'))
            .and_then(|r| spec.records.get(r));
        match item {
            Some(rf) => {
                let want: BTreeSet<&str> = sub.iter().map(|(n, _)| n.as_str()).collect();
                let got: BTreeSet<&str> = rf.iter().map(|f| f.name.as_str()).collect();
                if want != got {
                    out.push(format!(
                        "{ctx}: items of `{owner}` have {got:?} in the spec, the source lists {want:?}"
                    ));
                }
            }
            None => out.push(format!(
                "{ctx}: `{owner}` is an array of records in the source, not in the spec"
            )),
        }
    }
}

/// The tables of `tests/data/source_tables.yaml` (see its header): which lists of the
/// "Resources" section make up each record of the spec (the record must have exactly
/// the fields of these lists, which come from the document, plus its `live_only`
/// fields), which records are not resources, and the value sets of the enums.
#[derive(serde::Deserialize)]
pub(crate) struct Tables {
    pub(crate) source_operations: SourceOperations,
    pub(crate) resource_records: Vec<ResourceRecord>,
    pub(crate) non_resource_records: Vec<NonResource>,
    pub(crate) value_sets: Vec<ValueSet>,
}

/// What the extraction of the source document must find.
#[derive(serde::Deserialize)]
pub(crate) struct SourceOperations {
    pub(crate) with_params: usize,
    pub(crate) without_params: Vec<String>,
}

#[derive(serde::Deserialize)]
pub(crate) struct ResourceRecord {
    pub(crate) record: String,
    pub(crate) lists: Vec<String>,
    #[serde(default)]
    pub(crate) live_only: Vec<String>,
}

#[derive(serde::Deserialize)]
pub(crate) struct NonResource {
    pub(crate) record: String,
    #[allow(dead_code)]
    pub(crate) why: String,
}

#[derive(serde::Deserialize)]
pub(crate) struct ValueSet {
    pub(crate) name: String,
    pub(crate) wire_type: String,
    pub(crate) doc: Doc,
    pub(crate) list: String,
    /// Later texts of the same document that add values to the list ("adds `6` waiting
    /// for account opening and `8` failed to open the account"): each one's values joined
    /// by "and" or ",", merged into the list in wire order (in order, for text values).
    #[serde(default)]
    pub(crate) adds: Vec<String>,
}

pub(crate) fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/source_tables.yaml");
        let text = std::fs::read_to_string(&path).expect("tests/data/source_tables.yaml");
        serde_yaml::from_str(&text).expect("tests/data/source_tables.yaml parses")
    })
}

/// Compares each record with its lists in the "Resources" section: same field names,
/// and a stated type only where it matches (or a decision about the field explains it).
pub(crate) fn compare_records(
    spec: &Spec,
    res: &BTreeMap<String, Vec<SrcResField>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for r in &tables().resource_records {
        let (record, labels) = (&r.record, &r.lists);
        let Some(fields) = spec.records.get(record.as_str()) else {
            out.push(format!("record {record}: missing from the spec"));
            continue;
        };
        let src: Vec<&SrcResField> = labels
            .iter()
            .flat_map(|l| res.get(l.as_str()).into_iter().flatten())
            .collect();
        let by_name: BTreeMap<&str, &SpecField> =
            fields.iter().map(|f| (f.name.as_str(), f)).collect();
        for s in &src {
            match by_name.get(s.name.as_str()) {
                None => out.push(format!(
                    "record {record}: field `{}` of the source ({labels:?}) is missing",
                    s.name
                )),
                Some(f) => {
                    if let Some(ty) = &s.ty {
                        if !type_compatible(spec, ty, &f.ty) && !has_decision_about(spec, f) {
                            out.push(format!(
                                "record {record}: `{}` is `{}` in the spec, declared `{ty}` in the source, and no decision about the field explains it",
                                s.name, f.ty
                            ));
                        }
                    }
                }
            }
        }
        let src_names: BTreeSet<&str> = src.iter().map(|s| s.name.as_str()).collect();
        for f in fields {
            // A field seen only live may stand beside the document's when the table
            // names it.
            let live = r.live_only.contains(&f.name);
            if !src_names.contains(f.name.as_str()) && !live {
                out.push(format!(
                    "record {record}: the spec has field `{}`, which the source ({labels:?}) does not list",
                    f.name
                ));
            }
        }
    }
    let known: BTreeSet<&str> = tables()
        .resource_records
        .iter()
        .map(|r| r.record.as_str())
        .chain(
            tables()
                .non_resource_records
                .iter()
                .map(|r| r.record.as_str()),
        )
        .collect();
    for r in spec.records.keys() {
        if !known.contains(r.as_str()) {
            out.push(format!(
                "record {r}: not mapped to a list of the Resources section nor explained (resource_records / non_resource_records of tests/data/source_tables.yaml)"
            ));
        }
    }
    out
}

/// The "Message envelope" table against `envelope:` of the spec: request fields are
/// the rows not marked "response only", response fields the rows not marked "request
/// only"; types as declared.
pub(crate) fn compare_envelope(spec: &Spec, doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let mut in_table = false;
    for line in doc.lines() {
        if line.starts_with("### ") {
            in_table = line.trim() == "### Message envelope";
            continue;
        }
        if !in_table {
            continue;
        }
        if let Some(c) = table_cells(line) {
            if c.len() == 3 && !is_separator_row(&c) && c[0] != "Field" {
                rows.push((c[0].clone(), c[1].clone(), c[2].to_ascii_lowercase()));
            }
        }
    }
    if rows.is_empty() {
        out.push("source: no `### Message envelope` table found".into());
    }
    for (side, fields, skip) in [
        ("request", &spec.envelope_request, "response only"),
        ("response", &spec.envelope_response, "request only"),
    ] {
        let want: Vec<&(String, String, String)> = rows
            .iter()
            .filter(|(_, _, n)| !n.starts_with(skip))
            .collect();
        let by_name: BTreeMap<&str, &SpecField> =
            fields.iter().map(|f| (f.name.as_str(), f)).collect();
        for (name, ty, _) in &want {
            match by_name.get(name.as_str()) {
                None => out.push(format!("envelope {side}: `{name}` is missing")),
                Some(f) => {
                    let ok = match ty.as_str() {
                        "object" => f.ty == "json",
                        t => type_compatible(spec, t, &f.ty),
                    };
                    if !ok {
                        out.push(format!(
                            "envelope {side}: `{name}` is `{}` in the spec, declared `{ty}`",
                            f.ty
                        ));
                    }
                }
            }
        }
        let names: BTreeSet<&str> = want.iter().map(|(n, _, _)| n.as_str()).collect();
        for f in fields {
            if !names.contains(f.name.as_str()) {
                out.push(format!(
                    "envelope {side}: the spec has `{}`, which the table does not list for a {side}",
                    f.name
                ));
            }
        }
    }
    out
}
