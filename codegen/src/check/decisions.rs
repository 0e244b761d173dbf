//! Pass 2, decisions: the recorded decisions (`decisions:`), checked first because every
//! other item may refer to them. The references themselves are noted while the other
//! passes run ([`Checker::decisions_of`]) and checked at the end ([`references`]), once
//! every one is known.

use std::collections::BTreeMap;

use super::{at, Checker};
use crate::model::{self, Location};
use crate::spec_file::{DecisionSpec, Spanned};

/// The recorded decisions. Later passes may rely on: ids are unique, and `list` is sorted
/// by id.
pub(super) struct Decisions {
    /// Every decision whose id is not a repeat, sorted by id.
    pub list: Vec<model::Decision>,
    /// Where each decision id is defined.
    pub ids: BTreeMap<String, Location>,
}

/// Checks the decisions: ids (not empty, no spaces, unique) and their texts.
pub(super) fn decisions(ck: &mut Checker, specs: &[&Spanned<DecisionSpec>]) -> Decisions {
    let mut list: Vec<model::Decision> = Vec::new();
    let mut ids: BTreeMap<String, Location> = BTreeMap::new();
    for d in specs {
        let s = &d.value;
        let id = s.id.value.as_str();
        if id.is_empty() || id.chars().any(char::is_whitespace) {
            ck.error(
                &s.id.loc,
                format!("decision id `{id}` is empty or contains spaces"),
                Some("use a short kebab-case id such as `cny-beneficiary-name-type`".into()),
            );
        }
        if let Some(prev) = ids.get(id) {
            let prev = at(prev);
            ck.error(
                &s.id.loc,
                format!("decision `{id}` is defined twice"),
                Some(format!("first defined at {prev}; decision ids are unique")),
            );
            continue;
        }
        ck.non_empty(&s.about, &format!("`about` of decision `{id}`"));
        ck.non_empty(&s.source_text, &format!("`source_text` of decision `{id}`"));
        ck.non_empty(&s.decision, &format!("`decision` of decision `{id}`"));
        ck.non_empty(&s.reason, &format!("`reason` of decision `{id}`"));
        ids.insert(id.to_owned(), s.id.loc.clone());
        list.push(model::Decision {
            id: id.to_owned(),
            about: s.about.value.clone(),
            source_text: s.source_text.value.clone(),
            decision: s.decision.value.clone(),
            reason: s.reason.value.clone(),
        });
    }
    list.sort_by(|a, b| a.id.cmp(&b.id));
    Decisions { list, ids }
}

/// Cross-check: every decision referenced so far (by `decisions:` of any item) exists.
pub(super) fn references(ck: &mut Checker, decisions: &Decisions) {
    let refs = std::mem::take(&mut ck.decision_refs);
    for (r, what) in refs {
        if !decisions.ids.contains_key(&r.value) {
            let help = match crate::diagnostics::suggest::did_you_mean(
                &r.value,
                decisions.ids.keys().map(String::as_str),
            ) {
                Some(m) => format!("did you mean `{m}`? or add the decision under `decisions:`"),
                None => {
                    "add the decision under `decisions:` (id, about, source_text, decision, reason)"
                        .into()
                }
            };
            ck.error(
                &r.loc,
                format!("unknown decision `{}` on {what}", r.value),
                Some(help),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::collect::collect;
    use crate::check::testing::{checker, errors, file, loc};

    const TEXTS: &str = "about: a, source_text: s, decision: d, reason: r";

    #[test]
    fn ids_are_unique_and_sorted() {
        let f = file(&format!(
            "decisions:\n  - {{ id: zeta, {TEXTS} }}\n  - {{ id: alpha, {TEXTS} }}\n  - {{ id: zeta, {TEXTS} }}\n  - {{ id: \"a b\", {TEXTS} }}\n"
        ));
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let d = decisions(&mut ck, &c.decisions);
        let ids: Vec<&str> = d.list.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["a b", "alpha", "zeta"]);
        assert_eq!(d.ids.len(), 3);
        assert_eq!(
            errors(&ck),
            [
                "s/t.yaml:4:11: decision `zeta` is defined twice",
                "s/t.yaml:5:11: decision id `a b` is empty or contains spaces",
            ]
        );
    }

    #[test]
    fn unknown_references_are_reported_with_a_suggestion() {
        let f = file(&format!(
            "decisions:\n  - {{ id: amount-as-string, {TEXTS} }}\n"
        ));
        let mut ck = checker();
        let c = collect(&mut ck, std::slice::from_ref(&f));
        let d = decisions(&mut ck, &c.decisions);
        let refs = Some(vec![
            Spanned {
                loc: loc(7),
                value: "amount-as-string".to_owned(),
            },
            Spanned {
                loc: loc(8),
                value: "amount-as-strng".to_owned(),
            },
        ]);
        assert_eq!(
            ck.decisions_of(&refs, "record `R`"),
            ["amount-as-string", "amount-as-strng"]
        );
        references(&mut ck, &d);
        assert_eq!(
            errors(&ck),
            ["s/t.yaml:8:1: unknown decision `amount-as-strng` on record `R`"]
        );
        assert_eq!(
            ck.errors[0].help.as_deref(),
            Some("did you mean `amount-as-string`? or add the decision under `decisions:`")
        );
        assert!(
            ck.decision_refs.is_empty(),
            "each reference is checked once"
        );
    }
}
