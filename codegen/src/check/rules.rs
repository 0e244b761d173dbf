//! The `rules:` of a field, parsed through the rule registry ([`crate::rules`]): each
//! rule fits the field's type, its argument is in the key's shape (range bounds exact
//! and in order), no rule appears twice unless repeatable, and no pair of bounds
//! contradicts ([`BOUND_PAIRS`]). Rules are never matched by their spec key here.

use super::declare::Declared;
use super::types::type_text;
use super::Checker;
use crate::model::{self, EnumWireType, Location, Rule, TypeRef};
use crate::rules::RuleKind;
use crate::rules::{Arg, RuleKey, BOUND_PAIRS};
use crate::spec_file::{RangeSpec, RawArg, RuleSpec, Spanned};

/// The checked rules of `what`, of type `ty` (whose type resolved).
pub(super) fn rules(
    ck: &mut Checker,
    declared: &Declared,
    list: &[Spanned<RuleSpec>],
    ty: &TypeRef,
    what: &str,
) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for r in list {
        let spec = &r.value;
        let Some((key, raw)) = rule_item(ck, r, what) else {
            continue;
        };
        let Some(kind) = rule_kind(ck, declared, key, &raw.loc, &raw.value, ty, what) else {
            continue;
        };
        if let Some(prev) = out
            .iter()
            .find(|p| p.kind.key() == key && !key.repeatable())
        {
            let first = prev.location.clone();
            ck.error(
                &raw.loc,
                format!("rule `{}` appears twice on {what}", key.spec_key()),
                Some(format!(
                    "keep one (the other is at {}:{}:{})",
                    first.file, first.line, first.column
                )),
            );
            continue;
        }
        out.push(Rule {
            kind,
            source: spec.source.map_or(model::Source::Seed, Into::into),
            doc: spec.doc.clone().unwrap_or_default(),
            location: r.loc.clone(),
        });
    }
    rule_bounds(ck, &out, what);
    out
}

/// The one rule key of a rule item (short or long form) with its argument; `None` when
/// the item is malformed (reported).
fn rule_item<'r>(
    ck: &mut Checker,
    r: &'r Spanned<RuleSpec>,
    what: &str,
) -> Option<(RuleKey, &'r Spanned<RawArg>)> {
    let spec = &r.value;
    let items = match &spec.rule {
        Some(body) => {
            if !spec.inline.rules.is_empty() {
                ck.error(
                    &r.loc,
                    format!("rule of {what} mixes `rule:` with a rule key"),
                    Some("in the long form, put the rule under `rule:` only".into()),
                );
                return None;
            }
            &body.value.rules
        }
        None => {
            if spec.source.is_some() || spec.doc.is_some() {
                let example = format!("{}: 100", RuleKey::MaxChars.spec_key());
                ck.error(
                    &r.loc,
                    format!("rule of {what} has `source:`/`doc:` without `rule:`"),
                    Some(format!(
                        "write the long form: `- rule: {{ {example} }}` then `source:`/`doc:`"
                    )),
                );
                return None;
            }
            &spec.inline.rules
        }
    };
    if let [(key, raw)] = items.as_slice() {
        return Some((*key, raw));
    }
    let keys: Vec<String> = items
        .iter()
        .map(|(k, _)| format!("`{}`", k.spec_key()))
        .collect();
    ck.error(
        &r.loc,
        if keys.is_empty() {
            format!("empty rule for {what}")
        } else {
            format!(
                "one rule item of {what} holds several rules: {}",
                keys.join(", ")
            )
        },
        Some(format!(
            "write each rule as its own list item, e.g. `- {}: 100`",
            RuleKey::MaxChars.spec_key()
        )),
    );
    None
}

/// Contradictory pairs ([`BOUND_PAIRS`]): `min_chars` above `max_chars`, ...
fn rule_bounds(ck: &mut Checker, rules: &[Rule], what: &str) {
    let find = |key: RuleKey| {
        rules
            .iter()
            .filter(|r| r.kind.key() == key)
            .find_map(|r| r.kind.count().map(|v| (v, r.location.clone())))
    };
    for (lo, hi) in BOUND_PAIRS {
        if let (Some((min, loc)), Some((max, _))) = (find(lo), find(hi)) {
            if min > max {
                let (lo, hi) = (lo.spec_key(), hi.spec_key());
                ck.error(
                    &loc,
                    format!("`{lo}: {min}` is above `{hi}: {max}` on {what}"),
                    Some(format!("no value can satisfy both; fix `{lo}` or `{hi}`")),
                );
            }
        }
    }
}

fn rule_kind(
    ck: &mut Checker,
    declared: &Declared,
    key: RuleKey,
    loc: &Location,
    raw: &RawArg,
    ty: &TypeRef,
    what: &str,
) -> Option<RuleKind> {
    let elem = match ty {
        TypeRef::Array { item } => item.as_ref(),
        other => other,
    };
    let name = key.spec_key();
    let applies_to = key.applies_to();
    if !applies_to.fits(ty) {
        ck.error(
            loc,
            format!(
                "rule `{name}` does not apply to {what}, of type `{}`",
                type_text(ty)
            ),
            Some(format!(
                "`{name}` applies to {}; remove it or fix the type",
                applies_to.words()
            )),
        );
        return None;
    }
    let arg = match raw {
        RawArg::Count(n) => Arg::Count(*n),
        RawArg::Places(n) => Arg::Places(*n),
        RawArg::Flag(true) => Arg::Flag,
        RawArg::Flag(false) => {
            ck.error(
                loc,
                format!("`{name}: false` on {what} states no rule"),
                Some(format!("remove the rule, or write `{name}: true`")),
            );
            return None;
        }
        RawArg::Text(text) => {
            if text.trim().is_empty() {
                ck.error(
                    loc,
                    format!("`{name}:` rule of {what} has no text"),
                    Some("say what the service checks".into()),
                );
                return None;
            }
            Arg::Text(text.clone())
        }
        RawArg::Range(range) => range_arg(ck, range, loc, elem, what)?,
        RawArg::Values(values) => values_arg(ck, declared, values, loc, elem, what)?,
    };
    // The argument was decoded in the key's own shape, so this always builds.
    key.with(arg)
}

/// The values of a `one_of:` rule: some of the wire values of a text value set, each once.
fn values_arg(
    ck: &mut Checker,
    declared: &Declared,
    values: &[String],
    loc: &Location,
    elem: &TypeRef,
    what: &str,
) -> Option<Arg> {
    let TypeRef::Enum { name } = elem else {
        return None;
    };
    // An unknown enum was reported where the type was resolved.
    let info = declared.enums.get(name)?;
    if info.wire_type != EnumWireType::String {
        ck.error(
            loc,
            format!("`one_of` on {what}: `{name}` is a set of integers"),
            Some("`one_of` restricts a set of text values".into()),
        );
        return None;
    }
    if values.is_empty() {
        ck.error(
            loc,
            format!("`one_of` of {what} lists no value"),
            Some(format!("list the values of `{name}` requests may carry")),
        );
        return None;
    }
    let mut ok = true;
    for (i, v) in values.iter().enumerate() {
        if !info.wires.contains(v) {
            ck.error(
                loc,
                format!("`one_of` of {what} lists `{v}`, which `{name}` does not list"),
                Some(format!(
                    "list it in `{name}` first (a restriction names known values), or remove it"
                )),
            );
            ok = false;
        } else if values[..i].contains(v) {
            ck.error(loc, format!("`one_of` of {what} lists `{v}` twice"), None);
            ok = false;
        }
    }
    ok.then(|| Arg::Values(values.to_vec()))
}

/// The bounds of a `range:` rule, exact, with min not above max.
fn range_arg(
    ck: &mut Checker,
    range: &RangeSpec,
    loc: &Location,
    elem: &TypeRef,
    what: &str,
) -> Option<Arg> {
    let min = bound(ck, range.min.as_ref(), elem, what);
    let max = bound(ck, range.max.as_ref(), elem, what);
    if let (Some(Some((lo, lo_n))), Some(Some((hi, hi_n)))) = (&min, &max) {
        if lo_n.cmp_value(hi_n) == std::cmp::Ordering::Greater {
            ck.error(
                loc,
                format!("range of {what} has min `{lo}` above max `{hi}`"),
                Some("swap or fix the bounds".into()),
            );
            return None;
        }
    }
    let (min, max) = (min?, max?);
    if min.is_none() && max.is_none() {
        ck.error(
            loc,
            format!("range of {what} has neither `min` nor `max`"),
            Some("give at least one bound, or remove the rule".into()),
        );
        return None;
    }
    Some(Arg::Range {
        min: min.map(|m| m.1),
        max: max.map(|m| m.1),
    })
}

/// A range bound: `Some(None)` when absent, `None` when invalid (already reported).
fn bound(
    ck: &mut Checker,
    b: Option<&Spanned<String>>,
    elem: &TypeRef,
    what: &str,
) -> Option<Option<(String, model::Number)>> {
    let Some(b) = b else { return Some(None) };
    let text = b.value.as_str();
    let parsed = model::Number::parse(text);
    if parsed == Err(model::NumberError::NotDecimal) {
        ck.error(
            &b.loc,
            format!("range bound `{text}` of {what} is not a decimal number"),
            Some("write digits with an optional `-` and `.`, e.g. \"0.01\" or \"99999999\"".into()),
        );
        return None;
    }
    let fits = match elem {
        TypeRef::Int => text.parse::<i32>().is_ok(),
        TypeRef::Long => text.parse::<i64>().is_ok(),
        _ => true,
    };
    if !fits {
        ck.error(
            &b.loc,
            format!(
                "range bound `{text}` of {what} is not a whole number that fits `{}`",
                type_text(elem)
            ),
            Some("integer bounds are written as digits within the type's range".into()),
        );
        return None;
    }
    let Ok(number) = parsed else {
        ck.error(
            &b.loc,
            format!("range bound `{text}` of {what} has more digits than the client can represent"),
            Some("a bound is at most 18 significant digits and 28 decimal places (it becomes an `Amount` of an `i64` mantissa)".into()),
        );
        return None;
    };
    Some(Some((text.to_owned(), number)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{checker, errors, file};

    /// The rules `list` (YAML) of a field of type `ty`, checked.
    fn check(list: &str, ty: TypeRef) -> (Vec<RuleKind>, Vec<String>) {
        let f = file(&format!(
            "records:\n  - name: R\n    fields:\n      - name: x\n        type: string\n        rules: {list}\n"
        ));
        let records = f.records.as_ref().map(|r| &r.value[0].value);
        let rules_spec = records
            .and_then(|r| r.fields[0].value.rules.as_deref())
            .unwrap_or(&[]);
        let mut ck = checker();
        let mut declared = Declared {
            enums: Default::default(),
            records: Default::default(),
            types: Default::default(),
        };
        for (name, wire_type) in [
            ("Ccy", EnumWireType::String),
            ("Status", EnumWireType::Integer),
        ] {
            declared.enums.insert(
                name.into(),
                super::super::declare::EnumInfo {
                    wire_type,
                    wires: vec!["KES".into(), "USD".into(), "CNY".into()],
                },
            );
        }
        let out = rules(&mut ck, &declared, rules_spec, &ty, "field `x`");
        (out.into_iter().map(|r| r.kind).collect(), errors(&ck))
    }

    #[test]
    fn rules_fit_their_type_and_appear_once() {
        let (kinds, errors) = check(
            "[{ max_chars: 10 }, { max_chars: 12 }, { max_items: 3 }, { positive: true }]",
            TypeRef::String,
        );
        assert_eq!(kinds, [RuleKind::MaxChars { max: 10 }]);
        assert_eq!(
            errors,
            [
                "s/t.yaml:6:49: rule `max_chars` appears twice on field `x`",
                "s/t.yaml:6:68: rule `max_items` does not apply to field `x`, of type `string`",
                "s/t.yaml:6:85: rule `positive` does not apply to field `x`, of type `string`",
            ]
        );
    }

    #[test]
    fn contradictory_bounds_are_refused() {
        let (kinds, errors) = check("[{ max_chars: 10 }, { min_chars: 20 }]", TypeRef::String);
        assert_eq!(kinds.len(), 2, "each rule is kept; the pair is reported");
        assert_eq!(
            errors,
            ["s/t.yaml:6:36: `min_chars: 20` is above `max_chars: 10` on field `x`"]
        );
        let (kinds, errors) = check("[{ range: { min: \"5\", max: \"1.5\" } }]", TypeRef::Int);
        assert!(kinds.is_empty());
        assert_eq!(
            errors,
            ["s/t.yaml:6:43: range bound `1.5` of field `x` is not a whole number that fits `int`"]
        );
        let (kinds, errors) = check(
            "[{ range: { min: \"5\", max: \"1.5\" } }]",
            TypeRef::Decimal {
                wire: model::DecimalWire::String,
            },
        );
        assert!(kinds.is_empty());
        assert_eq!(
            errors,
            ["s/t.yaml:6:26: range of field `x` has min `5` above max `1.5`"]
        );
    }

    #[test]
    fn a_rule_item_holds_exactly_one_rule() {
        let (kinds, errors) = check(
            "[{ max_chars: 10, min_chars: 1 }, { rule: { max_chars: 5 }, doc: d }, { doc: d }]",
            TypeRef::String,
        );
        assert_eq!(kinds, [RuleKind::MaxChars { max: 5 }]);
        assert_eq!(
            errors,
            [
                "s/t.yaml:6:17: one rule item of field `x` holds several rules: `max_chars`, `min_chars`",
                "s/t.yaml:6:86: rule of field `x` has `source:`/`doc:` without `rule:`",
            ]
        );
    }

    #[test]
    fn one_of_names_some_listed_values_of_a_text_set() {
        let ccy = || TypeRef::Enum { name: "Ccy".into() };
        let (kinds, errors) = check("[{ one_of: [KES, USD] }]", ccy());
        assert_eq!(
            kinds,
            [RuleKind::OneOf {
                values: vec!["KES".into(), "USD".into()]
            }]
        );
        assert!(errors.is_empty(), "{errors:?}");
        let (kinds, errors) = check("[{ one_of: [KES, XAF, KES] }]", ccy());
        assert!(kinds.is_empty());
        assert_eq!(
            errors,
            [
                "s/t.yaml:6:27: `one_of` of field `x` lists `XAF`, which `Ccy` does not list",
                "s/t.yaml:6:27: `one_of` of field `x` lists `KES` twice",
            ]
        );
        let (_, errors) = check("[{ one_of: [] }]", ccy());
        assert_eq!(
            errors,
            ["s/t.yaml:6:27: `one_of` of field `x` lists no value"]
        );
        let (_, errors) = check(
            "[{ one_of: [KES] }]",
            TypeRef::Enum {
                name: "Status".into(),
            },
        );
        assert_eq!(
            errors,
            ["s/t.yaml:6:27: `one_of` on field `x`: `Status` is a set of integers"]
        );
        let (_, errors) = check("[{ one_of: [KES] }]", TypeRef::String);
        assert_eq!(
            errors,
            ["s/t.yaml:6:27: rule `one_of` does not apply to field `x`, of type `string`"]
        );
    }
}
