//! Parameters as the document writes them in a sentence or a table cell, with their
//! required flags: `name (type, FLAG, notes)`.

use std::collections::BTreeMap;

use super::is_ident_char;

/// A required flag as the document writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// `TRUE`, `mandatory`.
    Required,
    /// `FALSE`, `optional`.
    Optional,
    /// `conditional` (the condition, if written, goes to the notes).
    Conditional,
    /// The Required cell is empty (`oderArray`).
    Blank,
    /// Two answers ("TRUE in one definition, FALSE in another").
    Ambiguous,
}

/// A parameter (or an item field of an array parameter) of an operation.
#[derive(Debug, Clone)]
pub struct SrcParam {
    /// The name as written (`payerAccountId`).
    pub name: String,
    /// Declared type text, lower case (`string`, `declared int`, `array of order item`).
    pub ty: String,
    /// The required flag.
    pub flag: Flag,
    /// What the document says besides type and flag (the Rules / Notes cell, the rest
    /// of the required cell, or the rest of the parenthesis): `max 100 characters`.
    pub notes: String,
    /// Line of the document it is written on (1-based).
    pub line: usize,
}

/// The flag a Required cell (or the part of a parenthesis after the type) starts
/// with: `TRUE`/`mandatory`, `FALSE`/`optional`, `conditional`; empty is [`Flag::Blank`],
/// both `TRUE` and `FALSE` [`Flag::Ambiguous`]. Anything else is an error naming the cell.
pub fn parse_flag(cell: &str) -> Result<Flag, String> {
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

/// Parameters written inline: `name (type, FLAG...)`, `a, b, c (all type, FLAG)`, and
/// `arr (array, TRUE) of items x (..), y (..)` (x and y become items of arr).
/// Parenthesised text whose second part is not a flag is not a parameter.
pub fn parse_inline_params(
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
        let notes = rest[flag_word.len()..]
            .trim_start_matches([',', ';', ':', ' '])
            .trim()
            .to_string();
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
                    notes: notes.clone(),
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
pub fn param_segment(line: &str) -> Option<&str> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Vec<SrcParam>, BTreeMap<String, Vec<SrcParam>>) {
        let (mut params, mut items) = (Vec::new(), BTreeMap::new());
        parse_inline_params(text, 7, &mut params, &mut items).expect("inline parameters");
        (params, items)
    }

    fn names(params: &[SrcParam]) -> Vec<&str> {
        params.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn a_flag_is_read_from_its_first_word_and_an_unknown_one_is_an_error() {
        assert_eq!(parse_flag(" TRUE "), Ok(Flag::Required));
        assert_eq!(parse_flag("Mandatory"), Ok(Flag::Required));
        assert_eq!(parse_flag("false"), Ok(Flag::Optional));
        assert_eq!(parse_flag("optional"), Ok(Flag::Optional));
        assert_eq!(
            parse_flag("conditional: either a or b is mandatory"),
            Ok(Flag::Conditional)
        );
        assert_eq!(parse_flag(""), Ok(Flag::Blank));
        assert_eq!(
            parse_flag("TRUE in one definition, FALSE in another"),
            Ok(Flag::Ambiguous)
        );
        assert_eq!(
            parse_flag("maybe"),
            Err("unknown required flag \"maybe\"".to_string())
        );
    }

    #[test]
    fn a_parameter_line_gives_names_types_flags_and_notes() {
        let line = "Parameters: payerAccountId (String, TRUE, max 32 characters); \
                    memo (string, FALSE); firstName, lastName (all string, conditional: \
                    required when kind = 1); see the note (below). Response: txId (string)";
        let seg = param_segment(line).expect("a parameter segment");
        assert!(
            !seg.contains("Response") && !seg.contains("txId"),
            "{seg:?}"
        );
        let (params, items) = parse(seg);
        assert_eq!(
            names(&params),
            ["payerAccountId", "memo", "firstName", "lastName"],
            "`note (below)` has no flag, so it is not a parameter"
        );
        let p = &params[0];
        assert_eq!(
            (p.ty.as_str(), p.flag, p.notes.as_str(), p.line),
            ("string", Flag::Required, "max 32 characters", 7)
        );
        assert_eq!(
            (params[1].flag, params[1].notes.as_str()),
            (Flag::Optional, "")
        );
        for p in &params[2..] {
            assert_eq!((p.ty.as_str(), p.flag), ("string", Flag::Conditional));
            assert_eq!(p.notes, "required when kind = 1");
        }
        assert!(items.is_empty());
    }

    #[test]
    fn items_of_an_array_belong_to_it() {
        let (params, items) =
            parse("orders (array, TRUE) of items sku (string, TRUE), qty (int, FALSE)");
        assert_eq!(names(&params), ["orders"]);
        assert_eq!(items.keys().collect::<Vec<_>>(), ["orders"]);
        assert_eq!(names(&items["orders"]), ["sku", "qty"]);
        assert_eq!(items["orders"][1].flag, Flag::Optional);
    }

    #[test]
    fn a_segment_starts_at_a_trigger_and_stops_at_the_response() {
        assert_eq!(
            param_segment("Each takes id (string, TRUE) and returns the record"),
            Some("id (string, TRUE)")
        );
        assert_eq!(param_segment("Moves money (see above)."), None);
    }
}
