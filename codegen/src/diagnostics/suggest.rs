//! "Did you mean": the closest of the names a spec could have written, for the help of a
//! diagnostic. Used by the loader and the checker alike, so it sits below both.

/// Edit distance counting insertions, deletions, substitutions and swaps of neighbours
/// (optimal string alignment); names are short, so the quadratic table is cheap.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut t = vec![0usize; (a.len() + 1) * w];
    let get =
        |t: &Vec<usize>, i: usize, j: usize| t.get(i * w + j).copied().unwrap_or(usize::MAX / 2);
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            let v = if i == 0 {
                j
            } else if j == 0 {
                i
            } else {
                let (ca, cb) = (a.get(i - 1), b.get(j - 1));
                let mut v = (get(&t, i - 1, j) + 1)
                    .min(get(&t, i, j - 1) + 1)
                    .min(get(&t, i - 1, j - 1) + usize::from(ca != cb));
                if i > 1 && j > 1 && ca == b.get(j - 2) && a.get(i - 2) == cb {
                    v = v.min(get(&t, i - 2, j - 2) + 1);
                }
                v
            };
            if let Some(slot) = t.get_mut(i * w + j) {
                *slot = v;
            }
        }
    }
    get(&t, a.len(), b.len())
}

/// The closest candidate, if close enough to be a likely typo (case-insensitive match, or
/// an edit distance of at most a third of the length, at most 3). Ties go to the first.
pub fn did_you_mean<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if wrong.chars().count() > 200 {
        return None;
    }
    let lower = wrong.to_lowercase();
    let limit = (wrong.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == wrong || c.chars().count() > 200 {
            continue;
        }
        let d = if c.to_lowercase() == lower {
            0
        } else {
            distance(&lower, &c.to_lowercase())
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("Strng", ["string", "int", "long"]),
            Some("string")
        );
        assert_eq!(did_you_mean("STRING", ["string", "int"]), Some("string"));
        assert_eq!(did_you_mean("zzzzzz", ["string", "int"]), None);
        assert_eq!(did_you_mean("nmae", ["doc", "name"]), Some("name"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
