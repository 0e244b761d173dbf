//! Printing a verified answer: JSON (the default when stdout is not a terminal), YAML, or
//! a table (the default on a terminal). Money comes from the typed answer, where it is
//! an exact decimal written as a JSON string: nothing is printed through a float.

use std::io::Write;

use serde_json::Value;

/// How an answer is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// JSON, pretty-printed (JSON lines with `--all`).
    Json,
    /// YAML.
    Yaml,
    /// A table: the answer's members one per row, a list one item per row.
    Table,
}

impl Format {
    /// The format asked for, else JSON when stdout is piped and a table on a terminal.
    pub fn or_default(asked: Option<Format>) -> Format {
        use std::io::IsTerminal;
        asked.unwrap_or(if std::io::stdout().is_terminal() {
            Format::Table
        } else {
            Format::Json
        })
    }
}

/// The text of `value` in `format`.
pub fn render<T: serde::Serialize>(value: &T, format: Format) -> Result<String, String> {
    match format {
        Format::Json => serde_json::to_string_pretty(value).map_err(|e| e.to_string()),
        Format::Yaml => serde_yaml::to_string(value).map_err(|e| e.to_string()),
        Format::Table => serde_json::to_value(value)
            .map(|v| table(&v))
            .map_err(|e| e.to_string()),
    }
}

/// Prints `value` in `format` on stdout.
pub fn print<T: serde::Serialize>(value: &T, format: Format) -> Result<(), String> {
    let text = render(value, format)?;
    let mut out = std::io::stdout().lock();
    quiet_pipe(writeln!(out, "{}", text.trim_end()))
}

/// A reader that went away (`baas … | head`) is not a failure of the command.
fn quiet_pipe(result: std::io::Result<()>) -> Result<(), String> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| e.to_string()),
    }
}

/// One JSON line on stdout (`--all`).
pub fn print_line<T: serde::Serialize>(value: &T) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    quiet_pipe(writeln!(out, "{text}").and_then(|()| out.flush()))
}

fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn grid(header: &[String], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, c) in row.iter().enumerate() {
            widths[i] = widths[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<w$}", w = widths[i]))
            .collect();
        parts.join("  ").trim_end().to_owned()
    };
    let mut out = vec![line(header)];
    out.push(line(
        &widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>(),
    ));
    out.extend(rows.iter().map(|r| line(r)));
    out.join("\n")
}

/// A table of `value`: a list of objects has a column per member; an object a row per
/// member, and its lists of objects follow as tables of their own.
pub fn table(value: &Value) -> String {
    match value {
        Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
            let mut columns: Vec<String> = Vec::new();
            for item in items {
                for key in item.as_object().into_iter().flat_map(|o| o.keys()) {
                    if !columns.contains(key) {
                        columns.push(key.clone());
                    }
                }
            }
            let rows: Vec<Vec<String>> = items
                .iter()
                .map(|item| {
                    columns
                        .iter()
                        .map(|c| item.get(c).map(cell).unwrap_or_default())
                        .collect()
                })
                .collect();
            grid(&columns, &rows)
        }
        Value::Object(members) => {
            let mut rows = Vec::new();
            let mut lists = Vec::new();
            for (key, v) in members {
                match v {
                    Value::Array(items) if items.iter().any(Value::is_object) => {
                        rows.push(vec![key.clone(), format!("({} items below)", items.len())]);
                        lists.push(format!("{key}:\n{}", table(v)));
                    }
                    _ => rows.push(vec![key.clone(), cell(v)]),
                }
            }
            let mut out = grid(&["member".to_owned(), "value".to_owned()], &rows);
            for list in lists {
                out.push_str("\n\n");
                out.push_str(&list);
            }
            out
        }
        other => cell(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_has_a_row_per_member_and_a_column_per_item_member() {
        let v: Value = serde_json::from_str(
            r#"{"total":2,"list":[{"id":"a","amount":"1.50"},{"id":"b","status":8}]}"#,
        )
        .unwrap();
        let t = table(&v);
        assert!(t.contains("total   2"), "{t}");
        // Members in name order (the JSON object's order).
        assert!(t.contains("amount  id  status"), "{t}");
        assert!(t.contains("1.50    a"), "{t}");
        assert!(t.contains("        b   8"), "{t}");
    }
}
