//! Mechanical cross-check of `spec/` against the source document
//! (`../shared/reference/baas-api-spec.md`), path by path and parameter by parameter,
//! including required flags.
//!
//! The source side is extracted from the Markdown with no knowledge of the spec:
//! endpoint paths from `####` headings, from table cells and from the text; parameters
//! from parameter tables (`| Parameter | Type | Required |`), from `| Path | Parameters |`
//! tables and from the inline sentences ("Parameters: name (type, TRUE); ...", "Each
//! takes ...", "Order item fields: ...", "... of items ...").
//!
//! Every mismatch is listed in the failure message. A flag the document leaves blank or
//! gives two answers for is accepted only when the spec field lists a decision whose
//! `about:` names the field; the same holds for a type that differs from the declared one.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use baas_codegen::model::{EnumWireType, Field, Params, Requirement, Response, Source, TypeRef};

// ============================================================================ source side

/// A required flag as the document writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flag {
    Required,
    Optional,
    Conditional,
    /// The Required cell is empty (`oderArray`).
    Blank,
    /// Two answers ("TRUE in one definition, FALSE in another").
    Ambiguous,
}

#[derive(Debug, Clone)]
struct SrcParam {
    name: String,
    /// Declared type text, lower case (`string`, `declared int`, `array of order item`).
    ty: String,
    flag: Flag,
    line: usize,
}

#[derive(Debug, Clone, Default)]
struct SrcOp {
    path: String,
    /// Heading or table row the operation comes from (for messages).
    label: String,
    line: usize,
    params: Vec<SrcParam>,
    /// Item fields of array parameters (`oderArray` → order item fields).
    items: BTreeMap<String, Vec<SrcParam>>,
    /// "Response: not shown" is written for it.
    response_not_shown: bool,
}

struct SrcDoc {
    ops: Vec<SrcOp>,
    /// Every path written anywhere in the document.
    all_paths: BTreeSet<String>,
}

fn parse_flag(cell: &str) -> Result<Flag, String> {
    let c = cell.trim().to_ascii_lowercase();
    if c.contains("true") && c.contains("false") {
        Ok(Flag::Ambiguous)
    } else if c.is_empty() {
        Ok(Flag::Blank)
    } else if c.starts_with("true") || c.starts_with("mandatory") {
        Ok(Flag::Required)
    } else if c.starts_with("false") || c.starts_with("optional") {
        Ok(Flag::Optional)
    } else if c.starts_with("conditional") {
        Ok(Flag::Conditional)
    } else {
        Err(format!("unknown required flag {cell:?}"))
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every endpoint path in `text`: `/segment/segment...` not preceded by a word character
/// or a slash (so `paybill/till`, `USD/KES` are not paths).
fn find_paths(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let prev_ok = i == 0 || !(is_ident_char(chars[i - 1]) || chars[i - 1] == '/');
        if chars[i] == '/' && prev_ok && chars.get(i + 1).is_some_and(|c| c.is_ascii_lowercase()) {
            let mut j = i;
            let mut segments = 0;
            while j < chars.len() && chars[j] == '/' {
                let start = j + 1;
                let mut k = start;
                while k < chars.len() && chars[k].is_ascii_alphanumeric() {
                    k += 1;
                }
                if k == start {
                    break;
                }
                segments += 1;
                j = k;
            }
            if segments >= 2 {
                out.push(chars[i..j].iter().collect());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Cells of a Markdown table row (`| a | b |`), trimmed; `None` if not a row.
fn table_cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim();
    if !t.starts_with('|') || !t.ends_with('|') || t.len() < 2 {
        return None;
    }
    Some(
        t[1..t.len() - 1]
            .split('|')
            .map(|c| c.trim().to_string())
            .collect(),
    )
}

fn is_separator_row(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':'))
}

/// Parameters written inline: `name (type, FLAG...)`, `a, b, c (all type, FLAG)`, and
/// `arr (array, TRUE) of items x (..), y (..)` (x and y become items of arr).
/// Parenthesised text whose second part is not a flag is not a parameter.
fn parse_inline_params(
    text: &str,
    line: usize,
    params: &mut Vec<SrcParam>,
    items: &mut BTreeMap<String, Vec<SrcParam>>,
) -> Result<(), String> {
    let bytes: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut last_end = 0; // end of the previous parenthesised group
    let mut item_owner: Option<String> = None;
    while i < bytes.len() {
        if bytes[i] != '(' {
            i += 1;
            continue;
        }
        // The matching ')'.
        let mut depth = 0;
        let mut j = i;
        while j < bytes.len() {
            match bytes[j] {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let content: String = bytes[i + 1..j.min(bytes.len())].iter().collect();
        let before: String = bytes[last_end..i].iter().collect();
        let before_trim = before.trim_end();
        let name: String = before_trim
            .chars()
            .rev()
            .take_while(|c| is_ident_char(*c))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let (ty_part, rest) = match content.split_once(',') {
            Some((a, b)) => (a.trim().to_string(), b.trim().to_string()),
            None => (content.trim().to_string(), String::new()),
        };
        let flag_word: String = rest
            .chars()
            .take_while(|c| !matches!(c, ',' | ';' | ':' | ')'))
            .collect();
        let flag = if rest.is_empty() {
            None
        } else {
            parse_flag(&flag_word).ok()
        };
        if let (Some(flag), false) = (flag, name.is_empty()) {
            if before.contains("of items") {
                // `arr (array, TRUE) of items x (...)`: the previous parameter owns the items.
                item_owner = params.last().map(|p| p.name.clone());
            }
            let mut names = vec![name.clone()];
            let mut ty = ty_part.to_ascii_lowercase();
            if let Some(t) = ty.strip_prefix("all ") {
                // `a, b, c (all string, FALSE)`: the comma list before the parenthesis.
                ty = t.to_string();
                let list = before_trim
                    .rsplit(|c: char| !(is_ident_char(c) || c == ',' || c == ' '))
                    .next()
                    .unwrap_or("");
                names = list
                    .split(',')
                    .map(|s| s.trim().rsplit(' ').next().unwrap_or("").to_string())
                    .filter(|s| !s.is_empty() && s.chars().all(is_ident_char))
                    .collect();
            }
            for n in names {
                let p = SrcParam {
                    name: n,
                    ty: ty.clone(),
                    flag,
                    line,
                };
                match &item_owner {
                    Some(owner) => items.entry(owner.clone()).or_default().push(p),
                    None => params.push(p),
                }
            }
        }
        last_end = (j + 1).min(bytes.len());
        i = j + 1;
    }
    Ok(())
}

/// The part of a sentence that lists parameters: from a trigger to "Response" / "and
/// returns" / the end.
fn param_segment(line: &str) -> Option<&str> {
    const TRIGGERS: [&str; 4] = ["Parameters:", "Parameter:", "Parameters ", "Each takes "];
    let start = TRIGGERS
        .iter()
        .filter_map(|t| line.find(t).map(|i| i + t.len()))
        .min()?;
    let rest = &line[start..];
    let end = ["Response", " and returns"]
        .iter()
        .filter_map(|t| rest.find(t))
        .min()
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// A Markdown table: header cells, then (line, cells) per row.
type Table = (Vec<String>, Vec<(usize, Vec<String>)>);

/// A block of the Endpoints section: one `###`/`####` heading and its body.
struct Block {
    heading: String,
    line: usize,
    body: Vec<(usize, String)>,
}

fn parse_source(doc: &str) -> Result<SrcDoc, Vec<String>> {
    let mut errors = Vec::new();
    let all_paths: BTreeSet<String> = find_paths(doc).into_iter().collect();

    // The Endpoints section, split into blocks.
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_endpoints = false;
    for (idx, raw) in doc.lines().enumerate() {
        let lineno = idx + 1;
        if let Some(h) = raw.strip_prefix("## ") {
            in_endpoints = h.trim() == "Endpoints";
            continue;
        }
        if !in_endpoints {
            continue;
        }
        if let Some(h) = raw
            .strip_prefix("#### ")
            .or_else(|| raw.strip_prefix("### "))
        {
            blocks.push(Block {
                heading: h.trim().to_string(),
                line: lineno,
                body: Vec::new(),
            });
        } else if let Some(b) = blocks.last_mut() {
            b.body.push((lineno, raw.to_string()));
        }
    }
    if blocks.is_empty() {
        errors.push("source: no `## Endpoints` section with `###`/`####` blocks found".into());
    }

    let mut ops: Vec<SrcOp> = Vec::new();
    for block in &blocks {
        let body_text: String = block
            .body
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let response_not_shown = body_text
            .to_ascii_lowercase()
            .contains("response: not shown");

        // Tables of the block.
        let mut tables: Vec<Table> = Vec::new();
        let mut cur: Option<Table> = None;
        for (ln, l) in &block.body {
            match table_cells(l) {
                Some(cells) => match &mut cur {
                    None => cur = Some((cells, Vec::new())),
                    Some((_, rows)) => {
                        if !is_separator_row(&cells) {
                            rows.push((*ln, cells));
                        }
                    }
                },
                None => {
                    if let Some(t) = cur.take() {
                        tables.push(t);
                    }
                }
            }
        }
        if let Some(t) = cur.take() {
            tables.push(t);
        }

        let heading_paths = find_paths(&block.heading);
        let path_table = tables
            .iter()
            .find(|(h, _)| h.first().is_some_and(|c| c == "Path"));

        // Inline parameters of the block (outside tables), and "<X> fields:" item lists.
        let mut inline_params = Vec::new();
        let mut inline_items: BTreeMap<String, Vec<SrcParam>> = BTreeMap::new();
        let mut item_lists: Vec<(String, usize, String)> = Vec::new(); // (x, line, text)
        for (ln, l) in &block.body {
            if table_cells(l).is_some() {
                continue;
            }
            if let Some(seg) = param_segment(l) {
                if let Err(e) = parse_inline_params(seg, *ln, &mut inline_params, &mut inline_items)
                {
                    errors.push(format!("source line {ln}: {e}"));
                }
            } else if let Some((x, rest)) = l.split_once(" fields:") {
                item_lists.push((x.trim().to_ascii_lowercase(), *ln, rest.to_string()));
            }
        }

        // Parameter tables (`| Parameter | Type | Required |` or `| Field | ...`).
        let mut table_params = Vec::new();
        for (header, rows) in &tables {
            let col = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
            let (Some(nc), Some(tc), Some(rc)) = (
                col(&["Parameter", "Field"]),
                col(&["Type"]),
                col(&["Required"]),
            ) else {
                continue;
            };
            for (ln, cells) in rows {
                let name: String = cells[nc]
                    .chars()
                    .take_while(|c| is_ident_char(*c))
                    .collect();
                let flag = match parse_flag(cells.get(rc).map(String::as_str).unwrap_or("")) {
                    Ok(f) => f,
                    Err(e) => {
                        errors.push(format!("source line {ln}: {e}"));
                        continue;
                    }
                };
                table_params.push(SrcParam {
                    name,
                    ty: cells[tc].to_ascii_lowercase(),
                    flag,
                    line: *ln,
                });
            }
        }

        let mut new_ops: Vec<SrcOp> = Vec::new();
        if let Some(path) = heading_paths.first() {
            let mut op = SrcOp {
                path: path.clone(),
                label: format!("#### {}", block.heading),
                line: block.line,
                response_not_shown,
                ..Default::default()
            };
            op.params.extend(table_params.iter().cloned());
            op.params.extend(inline_params.iter().cloned());
            op.items = inline_items.clone();
            new_ops.push(op);
        } else if let Some((header, rows)) = path_table {
            // `| Path | Parameters | ... |` rows, or a `| Path | Type |` list whose
            // parameters are given once in the text ("Each takes ...").
            let pc = header.iter().position(|h| h == "Parameters");
            for (ln, cells) in rows {
                let Some(path) = find_paths(&cells[0]).into_iter().next() else {
                    errors.push(format!("source line {ln}: no path in the first cell"));
                    continue;
                };
                let mut op = SrcOp {
                    path,
                    label: format!("table row at line {ln} under `{}`", block.heading),
                    line: *ln,
                    ..Default::default()
                };
                match pc {
                    Some(pc) => {
                        let mut items = BTreeMap::new();
                        if let Err(e) =
                            parse_inline_params(&cells[pc], *ln, &mut op.params, &mut items)
                        {
                            errors.push(format!("source line {ln}: {e}"));
                        }
                        op.items = items;
                    }
                    None => {
                        op.params.extend(inline_params.iter().cloned());
                        op.items = inline_items.clone();
                    }
                }
                new_ops.push(op);
            }
        } else if !table_params.is_empty() || !inline_params.is_empty() {
            // A heading without a path ("Fetch transaction fee"): the path the text gives.
            match find_paths(&body_text).into_iter().next() {
                Some(path) => {
                    let mut op = SrcOp {
                        path,
                        label: format!("#### {}", block.heading),
                        line: block.line,
                        response_not_shown,
                        ..Default::default()
                    };
                    op.params.extend(table_params.iter().cloned());
                    op.params.extend(inline_params.iter().cloned());
                    op.items = inline_items.clone();
                    new_ops.push(op);
                }
                None => errors.push(format!(
                    "source line {}: parameters under `{}` but no path",
                    block.line, block.heading
                )),
            }
        }

        // "<X> fields: ..." belong to the array parameter declared `array of <x>`.
        for (x, ln, text) in item_lists {
            let mut fields = Vec::new();
            let mut nested = BTreeMap::new();
            if let Err(e) = parse_inline_params(&text, ln, &mut fields, &mut nested) {
                errors.push(format!("source line {ln}: {e}"));
            }
            if fields.is_empty() {
                continue;
            }
            let mut attached = false;
            for op in &mut new_ops {
                let owner = op
                    .params
                    .iter()
                    .find(|p| p.ty.starts_with("array of ") && p.ty.contains(&x))
                    .map(|p| p.name.clone());
                if let Some(owner) = owner {
                    op.items
                        .entry(owner)
                        .or_default()
                        .extend(fields.iter().cloned());
                    attached = true;
                }
            }
            if !attached {
                errors.push(format!(
                    "source line {ln}: `{x} fields:` matches no `array of {x}` parameter"
                ));
            }
        }
        ops.extend(new_ops);
    }

    // Paths the document only refers to ("/user/addEmail ... Shapes ...: not shown").
    let defined: BTreeSet<String> = ops.iter().map(|o| o.path.clone()).collect();
    for p in &all_paths {
        if !defined.contains(p) {
            ops.push(SrcOp {
                path: p.clone(),
                label: "referenced path".into(),
                response_not_shown: true,
                ..Default::default()
            });
        }
    }

    if errors.is_empty() {
        Ok(SrcDoc { ops, all_paths })
    } else {
        Err(errors)
    }
}

// ============================================================================ spec side

#[derive(Debug, Clone)]
struct SpecField {
    name: String,
    /// Type as written in the spec (`string`, `array<OrderItem>`, `BeneficiaryType`).
    ty: String,
    /// `true`, `false` or `conditional`.
    required: String,
    decisions: Vec<String>,
}

#[derive(Debug, Clone)]
struct SpecOp {
    name: String,
    path: String,
    /// `None`: `params: { unspecified }`.
    params: Option<Vec<SpecField>>,
    /// `fields`, `record`, `unspecified` or `empty`.
    response_kind: String,
    /// `source:` of the response (default `seed`).
    response_source: String,
}

#[derive(Debug, Clone, Default)]
struct Spec {
    ops: Vec<SpecOp>,
    records: BTreeMap<String, Vec<SpecField>>,
    /// Enum name → wire type (`string` / `integer`).
    enums: BTreeMap<String, String>,
    /// Decision id → `about:`.
    decision_about: BTreeMap<String, String>,
}

fn type_text(t: &TypeRef) -> String {
    match t {
        TypeRef::String => "string".into(),
        TypeRef::Int => "int".into(),
        TypeRef::Long => "long".into(),
        TypeRef::Decimal { .. } => "decimal".into(),
        TypeRef::Bool => "bool".into(),
        TypeRef::Json => "json".into(),
        TypeRef::Enum { name } | TypeRef::Record { name } => name.clone(),
        TypeRef::Array { item } => format!("array<{}>", type_text(item)),
    }
}

fn spec_fields(fields: &[Field]) -> Vec<SpecField> {
    fields
        .iter()
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
        })
        .collect()
}

fn source_text(s: Source) -> String {
    match s {
        Source::Seed => "seed",
        Source::Docs => "docs",
        Source::Live => "live",
        Source::OnePeer => "one_peer",
    }
    .into()
}

/// The checked model of `spec/` (`baas_codegen::check_spec`), reduced to what the
/// comparison needs.
fn load_spec(spec_dir: &Path) -> Spec {
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
    }
    for d in &api.decisions {
        spec.decision_about.insert(d.id.clone(), d.about.clone());
    }
    spec
}

// ============================================================================ comparison

/// Whether the field lists a decision whose `about:` names it.
fn has_decision_about(spec: &Spec, f: &SpecField) -> bool {
    f.decisions.iter().any(|d| {
        spec.decision_about
            .get(d)
            .is_some_and(|about| about.contains(&f.name))
    })
}

/// Whether a spec type renders the declared source type on the wire.
fn type_compatible(spec: &Spec, src_ty: &str, spec_ty: &str) -> bool {
    let src_ty = src_ty.split(" (").next().unwrap_or(src_ty).trim();
    if let Some(item) = spec_ty
        .strip_prefix("array<")
        .and_then(|s| s.strip_suffix('>'))
    {
        return match src_ty {
            "array" => true,
            s => s.strip_prefix("array of ").is_some_and(|x| {
                let x = x.trim();
                type_compatible(spec, x, item)
                    || (spec.records.contains_key(item)
                        && !matches!(x, "string" | "integer" | "int"))
            }),
        };
    }
    let enum_wire = spec.enums.get(spec_ty).map(String::as_str);
    match src_ty {
        "string" => spec_ty == "string" || enum_wire == Some("string"),
        "int" | "integer" => spec_ty == "int" || spec_ty == "long" || enum_wire == Some("integer"),
        "long" => spec_ty == "long",
        "decimal" => spec_ty == "decimal",
        _ => false,
    }
}

fn compare_fields(
    spec: &Spec,
    ctx: &str,
    src: &[SrcParam],
    fields: &[SpecField],
    out: &mut Vec<String>,
) {
    let by_name: BTreeMap<&str, &SpecField> = fields.iter().map(|f| (f.name.as_str(), f)).collect();
    for p in src {
        let Some(f) = by_name.get(p.name.as_str()) else {
            out.push(format!(
                "{ctx}: parameter `{}` (source line {}) is missing from the spec",
                p.name, p.line
            ));
            continue;
        };
        let want = match p.flag {
            Flag::Required => Some("true"),
            Flag::Optional => Some("false"),
            Flag::Conditional => Some("conditional"),
            Flag::Blank | Flag::Ambiguous => None,
        };
        match want {
            Some(w) if f.required != w => out.push(format!(
                "{ctx}: `{}` is `required: {}` in the spec, the source (line {}) says {:?} (expected `required: {w}`)",
                p.name, f.required, p.line, p.flag
            )),
            None if !has_decision_about(spec, f) => out.push(format!(
                "{ctx}: `{}`: the source (line {}) gives no single flag ({:?}) and the spec field lists no decision about it",
                p.name, p.line, p.flag
            )),
            _ => {}
        }
        if !type_compatible(spec, &p.ty, &f.ty) && !has_decision_about(spec, f) {
            out.push(format!(
                "{ctx}: `{}` is `{}` in the spec, declared `{}` in the source (line {}), and no decision about the field explains it",
                p.name, f.ty, p.ty, p.line
            ));
        }
    }
    let src_names: BTreeSet<&str> = src.iter().map(|p| p.name.as_str()).collect();
    for f in fields {
        if !src_names.contains(f.name.as_str()) {
            out.push(format!(
                "{ctx}: the spec has parameter `{}`, which the source does not list",
                f.name
            ));
        }
    }
}

fn compare_op(spec: &Spec, src: &SrcOp, op: &SpecOp, out: &mut Vec<String>) {
    let ctx = format!(
        "{} `{}` ({}, source line {})",
        op.path, op.name, src.label, src.line
    );
    match &op.params {
        None => {
            if !src.params.is_empty() {
                out.push(format!(
                    "{ctx}: the spec says the parameters are not shown, the source lists {}",
                    src.params.len()
                ));
            }
        }
        Some(fields) => {
            if src.params.is_empty() {
                out.push(format!(
                    "{ctx}: the source shows no parameters, the spec lists {}",
                    fields.len()
                ));
            }
            compare_fields(spec, &ctx, &src.params, fields, out);
            for (owner, item_src) in &src.items {
                let Some(f) = fields.iter().find(|f| &f.name == owner) else {
                    continue;
                };
                let record =
                    f.ty.strip_prefix("array<")
                        .and_then(|s| s.strip_suffix('>'))
                        .unwrap_or("");
                match spec.records.get(record) {
                    Some(rf) => compare_fields(spec, &format!("{ctx} {owner}[] ({record})"), item_src, rf, out),
                    None => out.push(format!(
                        "{ctx}: `{owner}` has item fields in the source but is `{}` in the spec, not an array of a record",
                        f.ty
                    )),
                }
            }
        }
    }
    if src.response_not_shown && op.response_kind != "unspecified" && op.response_source == "seed" {
        out.push(format!(
            "{ctx}: the source says the response is not shown, the spec gives a `{}` response with source seed",
            op.response_kind
        ));
    }
}

/// Pairs source and spec operations path by path and lists every mismatch.
fn compare(src: &SrcDoc, spec: &Spec) -> Vec<String> {
    let mut out = Vec::new();
    let mut src_by_path: BTreeMap<&str, Vec<&SrcOp>> = BTreeMap::new();
    for o in &src.ops {
        src_by_path.entry(&o.path).or_default().push(o);
    }
    let mut spec_by_path: BTreeMap<&str, Vec<&SpecOp>> = BTreeMap::new();
    for o in &spec.ops {
        spec_by_path.entry(&o.path).or_default().push(o);
    }
    for (path, s_ops) in &src_by_path {
        let Some(p_ops) = spec_by_path.get(path) else {
            out.push(format!(
                "{path}: in the source (line {}), missing from the spec",
                s_ops[0].line
            ));
            continue;
        };
        if s_ops.len() != p_ops.len() {
            out.push(format!(
                "{path}: {} operation(s) in the source, {} in the spec",
                s_ops.len(),
                p_ops.len()
            ));
            continue;
        }
        // Pair operations sharing a path by the overlap of their parameter names.
        let mut free: Vec<&SpecOp> = p_ops.clone();
        for s in s_ops {
            let names: BTreeSet<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
            let (best, _) = free
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let n = o
                        .params
                        .iter()
                        .flatten()
                        .filter(|f| names.contains(f.name.as_str()))
                        .count();
                    (i, n)
                })
                .max_by_key(|(_, n)| *n)
                .expect("counts are equal");
            let op = free.remove(best);
            compare_op(spec, s, op, &mut out);
        }
    }
    for (path, p_ops) in &spec_by_path {
        if !src_by_path.contains_key(path) {
            for o in p_ops {
                out.push(format!(
                    "{path}: operation `{}` of the spec is not in the source",
                    o.name
                ));
            }
        }
        if !src.all_paths.contains(*path) {
            out.push(format!("{path}: not written anywhere in the source"));
        }
    }
    out
}

// ============================================================================ tests

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn source() -> SrcDoc {
    let path = root().join("../shared/reference/baas-api-spec.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the source document {} is missing ({e}); this test needs the shared/ folder beside the repository",
            path.display()
        )
    });
    parse_source(&doc)
        .unwrap_or_else(|errs| panic!("cannot read the source document:\n  {}", errs.join("\n  ")))
}

fn report(mismatches: &[String]) -> String {
    let mut s = format!(
        "{} mismatch(es) between spec/ and the source document:\n",
        mismatches.len()
    );
    for m in mismatches {
        let _ = writeln!(s, "  - {m}");
    }
    s
}

#[test]
fn spec_matches_source_document() {
    let src = source();
    let spec = load_spec(&root().join("spec"));

    // The extraction itself: the issue counts 47 operations with parameters and three
    // referenced paths whose shapes are not shown.
    let with_params = src.ops.iter().filter(|o| !o.params.is_empty()).count();
    let without: Vec<&str> = src
        .ops
        .iter()
        .filter(|o| o.params.is_empty())
        .map(|o| o.path.as_str())
        .collect();
    assert_eq!(
        with_params, 47,
        "operations with parameters extracted from the source"
    );
    assert_eq!(
        without,
        [
            "/staticData/getBankCodes",
            "/user/addEmail",
            "/user/verifyEmailAddress"
        ],
        "operations without parameters extracted from the source"
    );

    let mismatches = compare(&src, &spec);
    assert!(mismatches.is_empty(), "{}", report(&mismatches));
}

/// The check is honest: a dropped parameter, a wrong flag, an invented parameter, a
/// missing operation and an unexplained type change each produce a mismatch.
#[test]
fn cross_check_reports_each_kind_of_mismatch() {
    let src = source();
    let good = load_spec(&root().join("spec"));
    let find = |spec: &mut Spec, name: &str| -> usize {
        spec.ops
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("no operation {name}"))
    };

    // Dropped parameter.
    let mut spec = good.clone();
    let i = find(&mut spec, "applyForTransfer");
    spec.ops[i]
        .params
        .as_mut()
        .unwrap()
        .retain(|f| f.name != "payeeBankCode");
    let m = compare(&src, &spec);
    assert!(
        m.iter()
            .any(|m| m.contains("`payeeBankCode`") && m.contains("missing")),
        "{}",
        report(&m)
    );

    // Wrong flag.
    let mut spec = good.clone();
    let i = find(&mut spec, "billQuery");
    let f = spec.ops[i]
        .params
        .as_mut()
        .unwrap()
        .iter_mut()
        .find(|f| f.name == "mobile")
        .unwrap();
    f.required = "true".into();
    let m = compare(&src, &spec);
    assert!(
        m.iter().any(|m| m.contains("`mobile` is `required: true`")),
        "{}",
        report(&m)
    );

    // Wrong flag inside an array item record.
    let mut spec = good.clone();
    let item = spec.records.get_mut("OrderItem").expect("OrderItem record");
    item.iter_mut()
        .find(|f| f.name == "platform")
        .unwrap()
        .required = "false".into();
    let m = compare(&src, &spec);
    assert!(
        m.iter()
            .any(|m| m.contains("oderArray[]") && m.contains("`platform`")),
        "{}",
        report(&m)
    );

    // Invented parameter.
    let mut spec = good.clone();
    let i = find(&mut spec, "getUserKyc");
    spec.ops[i].params.as_mut().unwrap().push(SpecField {
        name: "invented".into(),
        ty: "string".into(),
        required: "false".into(),
        decisions: vec![],
    });
    let m = compare(&src, &spec);
    assert!(m.iter().any(|m| m.contains("`invented`")), "{}", report(&m));

    // Missing operation (one of the two on /trans/txReversal).
    let mut spec = good.clone();
    spec.ops.retain(|o| o.name != "fetchTransactionFee");
    let m = compare(&src, &spec);
    assert!(
        m.iter().any(|m| m.starts_with("/trans/txReversal")),
        "{}",
        report(&m)
    );

    // Unexplained type change, and a blank flag without a decision.
    let mut spec = good.clone();
    let i = find(&mut spec, "applyForCnyExpress");
    for f in spec.ops[i].params.as_mut().unwrap() {
        if f.name == "payerAccountId" {
            f.ty = "int".into();
        }
        if f.name == "oderArray" {
            f.decisions.clear();
        }
    }
    let m = compare(&src, &spec);
    assert!(
        m.iter().any(|m| m.contains("`payerAccountId` is `int`")),
        "{}",
        report(&m)
    );
    assert!(
        m.iter()
            .any(|m| m.contains("`oderArray`") && m.contains("no decision")),
        "{}",
        report(&m)
    );

    // The unchanged spec passes.
    assert!(
        compare(&src, &good).is_empty(),
        "{}",
        report(&compare(&src, &good))
    );
}

/// An operation that shares its wire path with an operation that moves money must itself
/// be `moves_money: true`: the service cannot be assumed to tell the two apart (the
/// document says how it does is "not shown"), so an automatic re-send of the harmless
/// one may land on the handler that moves money.
#[test]
fn operations_sharing_a_money_path_are_never_resent() {
    let checked = baas_codegen::check_spec(&root().join("spec"))
        .unwrap_or_else(|d| panic!("spec/ does not pass the front end's checks:\n{d}"));
    let ops: Vec<_> = checked.api.operations().collect();
    let money_paths: BTreeSet<&str> = ops
        .iter()
        .filter(|o| o.moves_money)
        .map(|o| o.path.as_str())
        .collect();
    let unsafe_ops: Vec<String> = ops
        .iter()
        .filter(|o| !o.moves_money && money_paths.contains(o.path.as_str()))
        .map(|o| format!("{} ({})", o.name, o.path))
        .collect();
    assert!(
        unsafe_ops.is_empty(),
        "operations on a path that moves money but not marked moves_money: {unsafe_ops:?}"
    );
}
