//! The `## Resources and their fields` section: the field lists of each resource, from
//! `| Field | ... |` tables, `<label>: <list>` lines, bullets and paragraphs.

use std::collections::BTreeMap;

use super::is_ident_char;
use super::tables::{is_separator_row, table_cells};

/// Items of a prose field list: `a, b (x, y), c.` → `[("a", ""), ("b", "x, y"), ("c", "")]`.
/// Commas inside parentheses do not split. An item that is not `name` or `name (...)`
/// is an error (the list is not a field list).
pub fn list_items(text: &str) -> Result<Vec<(String, String)>, String> {
    let text = text.trim().trim_end_matches('.');
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .map(|part| {
            let part = part.trim();
            let name: String = part.chars().take_while(|c| is_ident_char(*c)).collect();
            let rest = part[name.len()..].trim();
            let paren = rest
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .map(str::trim);
            match (name.is_empty(), rest.is_empty(), paren) {
                (false, true, _) => Ok((name, String::new())),
                (false, false, Some(p)) => Ok((name, p.to_string())),
                _ => Err(format!("`{part}` is not a field (`name` or `name (...)`)")),
            }
        })
        .collect()
}

/// The declared type a note starts with (`string, ...`, `long epoch ms`, `int: ...`,
/// `array of ...`), as the parameter tables write it; `None` when it names none.
pub fn note_type(note: &str) -> Option<String> {
    let n = note.trim().to_ascii_lowercase();
    if n.starts_with("array") {
        return Some("array".into());
    }
    let w: String = n.chars().take_while(char::is_ascii_alphabetic).collect();
    matches!(
        w.as_str(),
        "string" | "int" | "integer" | "long" | "decimal" | "object"
    )
    .then_some(w)
}

/// A field of a resource as the document describes it.
#[derive(Debug, Clone)]
pub struct SrcResField {
    /// The field name as written.
    pub name: String,
    /// Declared type, if the document states one.
    pub ty: Option<String>,
}

/// The "Resources and their fields" section: field lists by label.
///
/// Labels: `table:<heading>` (a `| Field | ... |` table under a `###` heading),
/// `para:<heading>` (the first plain paragraph under a heading), `<label>` for a line
/// `<label>: <list>` (a leading `- ` dropped; `name (array)` labels become `name`), and
/// `<name>` for an item written `name (array of: <list>)` inside any of those lists.
/// A `<label>:` line with nothing after it collects the names of the `- name ...`
/// bullets that follow it.
///
/// A list that is not a field list (prose) is an error only when its label is one of
/// `needed`; a `needed` label with no list is an error too. Errors name the label and
/// the source line.
pub fn parse_resources<'a>(
    doc: &str,
    needed: impl IntoIterator<Item = &'a str>,
) -> Result<BTreeMap<String, Vec<SrcResField>>, Vec<String>> {
    let mut raw: BTreeMap<String, Vec<(usize, String, String)>> = BTreeMap::new(); // label → (line, name text, note)
    let mut lists: Vec<(String, usize, String)> = Vec::new(); // (label, line, list text)
    let mut in_section = false;
    let mut heading = String::new();
    let mut para_seen = false;
    let mut collecting: Option<String> = None; // a `<label>:` line collecting bullets
    let mut header: Option<Vec<String>> = None;
    for (idx, line) in doc.lines().enumerate() {
        let ln = idx + 1;
        if let Some(h) = line.strip_prefix("## ") {
            in_section = h.trim() == "Resources and their fields";
            continue;
        }
        if !in_section {
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            heading = h.trim().to_string();
            para_seen = false;
            collecting = None;
            header = None;
            continue;
        }
        if let Some(cells) = table_cells(line) {
            match &header {
                None => header = Some(cells),
                Some(h) => {
                    if is_separator_row(&cells) || h.first().map(String::as_str) != Some("Field") {
                        continue;
                    }
                    let note = cells.last().cloned().unwrap_or_default();
                    raw.entry(format!("table:{heading}")).or_default().push((
                        ln,
                        cells[0].clone(),
                        // `| Field | Type | Notes |` or `| Field | Notes |`
                        if h.len() > 2 { cells[1].clone() } else { note },
                    ));
                }
            }
            continue;
        }
        header = None;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let bullet = t.strip_prefix("- ");
        let body = bullet.unwrap_or(t);
        // `<label>: <list>` with the colon outside parentheses.
        let mut depth = 0i32;
        let colon = body.char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ':' if depth == 0 => return Some(i),
                _ => {}
            }
            None
        });
        match colon {
            Some(i) => {
                let label_text = body[..i].trim();
                let ident: String = label_text
                    .chars()
                    .take_while(|c| is_ident_char(*c))
                    .collect();
                let label = if !ident.is_empty()
                    && label_text[ident.len()..].trim_start().starts_with('(')
                {
                    ident
                } else {
                    label_text.to_string()
                };
                let list = body[i + 1..].trim();
                if bullet.is_some() {
                    if let Some(owner) = &collecting {
                        lists.push((owner.clone(), ln, label.clone()));
                    }
                } else {
                    collecting = list.is_empty().then(|| label.clone());
                }
                if !list.is_empty() {
                    lists.push((label, ln, list.to_string()));
                }
            }
            None if bullet.is_none() && !para_seen => {
                para_seen = true;
                lists.push((format!("para:{heading}"), ln, t.to_string()));
            }
            None => {}
        }
    }

    // Lists are parsed only when asked for (prose such as "Value sets of ... : not
    // shown" is not a field list); parse them all here and keep the failures per label.
    let mut out: BTreeMap<String, Vec<SrcResField>> = BTreeMap::new();
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    for (label, ln, cells) in raw.into_iter().flat_map(|(l, rows)| {
        rows.into_iter()
            .map(move |(ln, name, note)| (l.clone(), ln, (name, note)))
    }) {
        let (names, note) = cells;
        match list_items(&names) {
            Ok(items) => out
                .entry(label)
                .or_default()
                .extend(items.into_iter().map(|(n, _)| SrcResField {
                    name: n,
                    ty: note_type(&note),
                })),
            Err(e) => {
                failures.insert(label, format!("source line {ln}: {e}"));
            }
        }
    }
    for (label, ln, text) in lists {
        match list_items(&text) {
            Ok(items) => {
                for (name, paren) in &items {
                    if let Some(inner) = paren.strip_prefix("array of:") {
                        match list_items(inner) {
                            Ok(sub) => {
                                out.entry(name.clone())
                                    .or_default()
                                    .extend(sub.into_iter().map(|(n, p)| SrcResField {
                                        ty: note_type(&p),
                                        name: n,
                                    }));
                            }
                            Err(e) => {
                                failures.insert(name.clone(), format!("source line {ln}: {e}"));
                            }
                        }
                    }
                }
                out.entry(label)
                    .or_default()
                    .extend(items.into_iter().map(|(n, p)| SrcResField {
                        ty: note_type(&p),
                        name: n,
                    }));
            }
            Err(e) => {
                failures.insert(label, format!("source line {ln}: {e}"));
            }
        }
    }
    // A label that failed to parse is an error only if it is needed.
    let mut errors = Vec::new();
    for l in needed {
        if let Some(e) = failures.get(l) {
            errors.push(format!("`{l}`: {e}"));
        } else if !out.contains_key(l) {
            errors.push(format!("`{l}`: no such list in the Resources section"));
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
## Endpoints
Ignored: x, y
## Resources and their fields
### Account
| Field | Type | Notes |
|---|---|---|
| accountId | string | the id |
| balance | decimal | |
### Customer
customerId, name (string), addresses (array of: street, city (string)).
- Contacts: email, phone (string)
Value sets: not shown in this document
Holders:
- primary (object): the first holder
- secondary: joint
## Next
Later: z
";

    fn fields<'a>(
        res: &'a BTreeMap<String, Vec<SrcResField>>,
        label: &str,
    ) -> Vec<(&'a str, Option<&'a str>)> {
        res.get(label)
            .unwrap_or_else(|| panic!("no list `{label}` in {res:?}"))
            .iter()
            .map(|f| (f.name.as_str(), f.ty.as_deref()))
            .collect()
    }

    #[test]
    fn a_list_item_is_a_name_with_an_optional_parenthesis() {
        assert_eq!(
            list_items(" a, b (x, y), c."),
            Ok(vec![
                ("a".into(), String::new()),
                ("b".into(), "x, y".into()),
                ("c".into(), String::new())
            ])
        );
        assert_eq!(
            list_items("a, not a field"),
            Err("`not a field` is not a field (`name` or `name (...)`)".to_string())
        );
    }

    #[test]
    fn a_note_names_a_type_only_when_it_starts_with_one() {
        assert_eq!(note_type("String, max 20").as_deref(), Some("string"));
        assert_eq!(note_type("array of: a, b").as_deref(), Some("array"));
        assert_eq!(note_type("long epoch ms").as_deref(), Some("long"));
        assert_eq!(note_type("see below"), None);
        assert_eq!(note_type(""), None);
    }

    #[test]
    fn lists_come_from_tables_paragraphs_labels_bullets_and_nested_arrays() {
        let needed = [
            "table:Account",
            "para:Customer",
            "addresses",
            "Contacts",
            "Holders",
        ];
        let res = parse_resources(DOC, needed).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            fields(&res, "table:Account"),
            [("accountId", Some("string")), ("balance", Some("decimal"))]
        );
        assert_eq!(
            fields(&res, "para:Customer"),
            [
                ("customerId", None),
                ("name", Some("string")),
                ("addresses", Some("array"))
            ]
        );
        assert_eq!(
            fields(&res, "addresses"),
            [("street", None), ("city", Some("string"))]
        );
        assert_eq!(
            fields(&res, "Contacts"),
            [("email", None), ("phone", Some("string"))]
        );
        assert_eq!(
            fields(&res, "Holders"),
            [("primary", None), ("secondary", None)]
        );
        assert!(
            !res.contains_key("Ignored") && !res.contains_key("Later"),
            "only the Resources section is read: {:?}",
            res.keys().collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_needed_list_that_is_prose_or_missing_is_an_error() {
        assert!(
            parse_resources(DOC, []).is_ok(),
            "prose nobody needs is no error"
        );
        let errors = parse_resources(DOC, ["Value sets", "Missing"]).expect_err("errors");
        assert_eq!(
            errors,
            [
                "`Value sets`: source line 12: `not shown in this document` is not a field (`name` or `name (...)`)",
                "`Missing`: no such list in the Resources section",
            ]
        );
    }
}
