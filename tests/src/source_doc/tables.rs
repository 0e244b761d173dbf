//! Markdown tables: the cells of a row, separator rows, and the tables of a run of lines.

/// Cells of a Markdown table row (`| a | b |`), trimmed; `None` if not a row.
pub fn table_cells(line: &str) -> Option<Vec<String>> {
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

/// Whether a row is the `|---|:--:|` line under a header: every cell dashes and colons.
pub fn is_separator_row(cells: &[String]) -> bool {
    cells
        .iter()
        .all(|c| !c.is_empty() && c.chars().all(|ch| ch == '-' || ch == ':'))
}

/// A Markdown table: header cells, then (line, cells) per row, separator rows left out.
pub type Table = (Vec<String>, Vec<(usize, Vec<String>)>);

/// The tables among numbered `lines`: each run of consecutive table rows is one table,
/// its first row the header.
pub fn tables_in(lines: &[(usize, String)]) -> Vec<Table> {
    let mut tables: Vec<Table> = Vec::new();
    let mut cur: Option<Table> = None;
    for (ln, l) in lines {
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
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered(text: &str) -> Vec<(usize, String)> {
        text.lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect()
    }

    #[test]
    fn a_row_is_its_trimmed_cells_and_anything_else_is_not_a_row() {
        assert_eq!(
            table_cells("  | amount |  decimal| TRUE |  "),
            Some(vec!["amount".into(), "decimal".into(), "TRUE".into()])
        );
        assert_eq!(table_cells("| a | | c |").unwrap()[1], "");
        assert_eq!(table_cells("amount | decimal"), None);
        assert_eq!(table_cells("| not closed"), None);
        assert_eq!(table_cells("|"), None);
    }

    #[test]
    fn a_separator_row_is_dashes_and_colons_in_every_cell() {
        let cells = |l: &str| table_cells(l).unwrap();
        assert!(is_separator_row(&cells("|---|:--:|--:|")));
        assert!(!is_separator_row(&cells("| --- | |")));
        assert!(!is_separator_row(&cells("| --- | TRUE |")));
        assert!(!is_separator_row(&cells("| amount | decimal |")));
    }

    #[test]
    fn tables_are_runs_of_rows_headed_by_their_first_row_without_separators() {
        let text = "Intro text.\n\
                    | Parameter | Type | Required |\n\
                    |-----------|:----:|----------|\n\
                    | amount | decimal | TRUE |\n\
                    | memo | string | FALSE |\n\
                    \n\
                    | Path | Parameters |\n\
                    | /rate/get | currency (string, TRUE) |";
        let tables = tables_in(&numbered(text));
        assert_eq!(tables.len(), 2, "{tables:?}");
        let (header, rows) = &tables[0];
        assert_eq!(header, &["Parameter", "Type", "Required"]);
        assert_eq!(
            rows.iter()
                .map(|(ln, c)| (*ln, c[0].as_str()))
                .collect::<Vec<_>>(),
            [(4, "amount"), (5, "memo")],
            "the separator row (line 3) is not a row"
        );
        assert_eq!(tables[1].0, ["Path", "Parameters"]);
        assert_eq!(
            tables[1].1,
            [(
                8,
                vec!["/rate/get".to_string(), "currency (string, TRUE)".into()]
            )]
        );
        assert!(tables_in(&numbered("no table\nhere")).is_empty());
    }
}
