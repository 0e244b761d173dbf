//! Operations compared path by path and parameter by parameter: names, types and required
//! flags, with the decisions that explain a difference.

use super::*;

/// Whether the field lists a decision whose `about:` names it.
pub(crate) fn has_decision_about(spec: &Spec, f: &SpecField) -> bool {
    f.decisions.iter().any(|d| {
        spec.decision_about
            .get(d)
            .is_some_and(|about| about.contains(&f.name))
    })
}

/// Whether a spec type renders the declared source type on the wire.
pub(crate) fn type_compatible(spec: &Spec, src_ty: &str, spec_ty: &str) -> bool {
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
        // A date and a document (Base64 text) are JSON strings too (decisions date-type,
        // document-type).
        "string" => {
            matches!(spec_ty, "string" | "date" | "document") || enum_wire == Some("string")
        }
        "int" | "integer" => spec_ty == "int" || spec_ty == "long" || enum_wire == Some("integer"),
        "long" => spec_ty == "long",
        "decimal" => spec_ty == "decimal",
        _ => false,
    }
}

pub(crate) fn compare_fields(
    spec: &Spec,
    ctx: &str,
    src: &[SrcParam],
    fields: &[SpecField],
    constraints: &[ConstraintKind],
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
        check_notes(spec, ctx, p, f, constraints, out);
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

pub(crate) fn compare_op(spec: &Spec, src: &SrcOp, op: &SpecOp, out: &mut Vec<String>) {
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
            compare_fields(spec, &ctx, &src.params, fields, &op.constraints, out);
            check_at_least_one(&ctx, src, &op.constraints, out);
            for (owner, item_src) in &src.items {
                let Some(f) = fields.iter().find(|f| &f.name == owner) else {
                    continue;
                };
                let record =
                    f.ty.strip_prefix("array<")
                        .and_then(|s| s.strip_suffix('>'))
                        .unwrap_or("");
                match spec.records.get(record) {
                    Some(rf) => compare_fields(
                        spec,
                        &format!("{ctx} {owner}[] ({record})"),
                        item_src,
                        rf,
                        &[],
                        out,
                    ),
                    None => out.push(format!(
                        "{ctx}: `{owner}` has item fields in the source but is `{}` in the spec, not an array of a record",
                        f.ty
                    )),
                }
            }
        }
    }
    check_response(spec, &ctx, src, op, out);
    if src.response_not_shown && op.response_kind != "unspecified" && op.response_source == "seed" {
        out.push(format!(
            "{ctx}: the source says the response is not shown, the spec gives a `{}` response with source seed",
            op.response_kind
        ));
    }
}

/// Pairs source and spec operations path by path and lists every mismatch.
pub(crate) fn compare(src: &SrcDoc, spec: &Spec) -> Vec<String> {
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
