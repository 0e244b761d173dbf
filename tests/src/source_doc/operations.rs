//! Operations of the `## Endpoints` section: one per `###`/`####` block with a path in
//! its heading or text, or one per row of a `| Path | ... |` table, each with the
//! parameters of its tables and sentences; and every path the document mentions.

use std::collections::{BTreeMap, BTreeSet};

use super::inline::{param_segment, parse_flag, parse_inline_params, SrcParam};
use super::is_ident_char;
use super::tables::{table_cells, tables_in, Table};

/// An operation as the document describes it.
#[derive(Debug, Clone, Default)]
pub struct SrcOp {
    /// Its endpoint path (`/transfer/apply`).
    pub path: String,
    /// Heading or table row the operation comes from (for messages).
    pub label: String,
    /// Line of its heading or row (1-based).
    pub line: usize,
    /// Its parameters, from tables and sentences.
    pub params: Vec<SrcParam>,
    /// Item fields of array parameters (`oderArray` → order item fields).
    pub items: BTreeMap<String, Vec<SrcParam>>,
    /// "Response: not shown" is written for it.
    pub response_not_shown: bool,
    /// The text of its block (heading operations) or its table row.
    pub text: String,
    /// What the document says `data` holds: the text after `Response:` / `Response
    /// data:` / `Returns` up to the end of the sentence, or the response cell of a
    /// `| Path | ... |` row.
    pub response: Option<String>,
}

/// What the Endpoints section describes.
pub struct SrcDoc {
    /// The operations, then one for each path only referred to (no parameters, response
    /// not shown).
    pub ops: Vec<SrcOp>,
    /// Every path written anywhere in the document.
    pub all_paths: BTreeSet<String>,
}

/// Every endpoint path in `text`: `/segment/segment...` not preceded by a word character
/// or a slash (so `paybill/till`, `USD/KES` are not paths).
pub fn find_paths(text: &str) -> Vec<String> {
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

/// The response sentence of a block: after `Response data:`, `Response:` or `Returns `,
/// up to the end of that sentence (`. ` or the end of the line).
pub fn response_sentence(text: &str) -> Option<String> {
    let start = ["Response data:", "Response:", "Returns "]
        .iter()
        .filter_map(|m| text.find(m).map(|i| i + m.len()))
        .min()?;
    let rest = &text[start..];
    let end = [". ", ".\n"]
        .iter()
        .filter_map(|m| rest.find(m))
        .chain(rest.find('\n'))
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].trim().trim_end_matches('.').to_string())
}

/// A block of the Endpoints section: one `###`/`####` heading and its body.
struct Block {
    heading: String,
    line: usize,
    body: Vec<(usize, String)>,
}

/// Reads the `## Endpoints` section of `doc` (see the [module](super) documentation).
/// Every line the reading cannot place is an error naming it (`source line N: ...`);
/// any error makes the whole result `Err` with all of them.
pub fn parse_source(doc: &str) -> Result<SrcDoc, Vec<String>> {
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

        let tables: Vec<Table> = tables_in(&block.body);

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
            let notes_col = col(&["Rules", "Notes"]);
            for (ln, cells) in rows {
                let name: String = cells[nc]
                    .chars()
                    .take_while(|c| is_ident_char(*c))
                    .collect();
                // The required cell may go on after its flag word
                // (`conditional: either sourceAmount or targetAmount is mandatory`).
                let required_cell = cells.get(rc).map(String::as_str).unwrap_or("");
                let after_flag = required_cell
                    .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                    .trim_start_matches([',', ';', ':', ' ']);
                let notes = [
                    after_flag,
                    notes_col.and_then(|c| cells.get(c)).map_or("", |c| c),
                ]
                .iter()
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
                let flag = match parse_flag(required_cell) {
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
                    notes,
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
                text: body_text.clone(),
                response: response_sentence(&body_text),
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
            let rc = header
                .iter()
                .position(|h| h == "Response" || h == "Response data");
            for (ln, cells) in rows {
                let Some(path) = find_paths(&cells[0]).into_iter().next() else {
                    errors.push(format!("source line {ln}: no path in the first cell"));
                    continue;
                };
                let mut op = SrcOp {
                    path,
                    label: format!("table row at line {ln} under `{}`", block.heading),
                    line: *ln,
                    text: cells.join(" | "),
                    response: rc.and_then(|c| cells.get(c)).cloned(),
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
                        text: body_text.clone(),
                        response: response_sentence(&body_text),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source_doc::Flag;

    const DOC: &str = "\
# Partner API
Intro: see /user/addEmail for e-mail.
## Endpoints
### Transfers
#### Apply for transfer: /transfer/apply
| Parameter | Type | Required | Rules |
|---|---|---|---|
| amount | decimal | TRUE | positive |
| memo | string | optional, max 100 characters | |
Parameters: orderArray (array of order item, TRUE)
Order item fields: sku (string, TRUE), qty (int, FALSE)
Response data: txId (string).
#### Lookups
| Path | Parameters | Response |
|---|---|---|
| /rate/get | currency (string, TRUE) | rate (decimal) |
## Other
Nothing here is an endpoint block.
";

    #[test]
    fn a_path_is_two_or_more_segments_not_glued_to_a_word() {
        assert_eq!(
            find_paths("Call /transfer/apply or (/user/addEmail); paybill/till, USD/KES, /single and a/b/c are not paths"),
            ["/transfer/apply", "/user/addEmail"]
        );
        assert_eq!(find_paths("/v1/x2/y3."), ["/v1/x2/y3"]);
        assert!(find_paths("/Upper/case and // and /").is_empty());
    }

    #[test]
    fn the_response_sentence_ends_with_its_sentence() {
        assert_eq!(
            response_sentence("Moves money. Response data: txId (string), id (string). Then more."),
            Some("txId (string), id (string)".into())
        );
        assert_eq!(
            response_sentence("Returns the account\nnext line"),
            Some("the account".into())
        );
        assert_eq!(response_sentence("No answer is described."), None);
    }

    #[test]
    fn operations_come_from_headings_path_tables_and_references() {
        let doc = parse_source(DOC).unwrap_or_else(|e| panic!("{e:?}"));
        let paths: Vec<&str> = doc.ops.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(paths, ["/transfer/apply", "/rate/get", "/user/addEmail"]);
        assert_eq!(
            doc.all_paths.iter().collect::<Vec<_>>(),
            ["/rate/get", "/transfer/apply", "/user/addEmail"]
        );

        let apply = &doc.ops[0];
        assert_eq!(
            (apply.label.as_str(), apply.line),
            ("#### Apply for transfer: /transfer/apply", 5)
        );
        let params: Vec<(&str, Flag, &str)> = apply
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.flag, p.notes.as_str()))
            .collect();
        assert_eq!(
            params,
            [
                ("amount", Flag::Required, "positive"),
                ("memo", Flag::Optional, "max 100 characters"),
                ("orderArray", Flag::Required, ""),
            ]
        );
        assert_eq!(
            (apply.params[0].ty.as_str(), apply.params[0].line),
            ("decimal", 8)
        );
        let items: Vec<&str> = apply.items["orderArray"]
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(
            items,
            ["sku", "qty"],
            "`Order item fields:` go to the `array of order item`"
        );
        assert_eq!(apply.response.as_deref(), Some("txId (string)"));
        assert!(!apply.response_not_shown);

        let rate = &doc.ops[1];
        assert_eq!(rate.label, "table row at line 16 under `Lookups`");
        assert_eq!(
            rate.params
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>(),
            ["currency"]
        );
        assert_eq!(rate.response.as_deref(), Some("rate (decimal)"));

        let referenced = &doc.ops[2];
        assert!(referenced.params.is_empty() && referenced.response_not_shown);
        assert_eq!(referenced.label, "referenced path");
    }

    #[test]
    fn malformed_input_is_every_error_with_its_line() {
        let errors = parse_source("# Doc\nNo endpoints at all.\n")
            .err()
            .expect("an error");
        assert_eq!(
            errors,
            ["source: no `## Endpoints` section with `###`/`####` blocks found"]
        );

        let doc = "\
## Endpoints
#### Fetch fee
Parameters: amount (decimal, TRUE)
#### Create: /widget/create
| Parameter | Type | Required |
|---|---|---|
| name | string | maybe |
| size | int | TRUE |
Gadget fields: a (string, TRUE)
";
        let errors = parse_source(doc).err().expect("errors");
        assert_eq!(
            errors,
            [
                "source line 2: parameters under `Fetch fee` but no path",
                "source line 7: unknown required flag \"maybe\"",
                "source line 9: `gadget fields:` matches no `array of gadget` parameter",
            ]
        );
    }
}
