//! Validation helpers called by generated code, one per rule kind of the spec.
//!
//! Every check takes the field's path prefix and wire name; the full path
//! (`prefix.field`, or `field` when the prefix is empty) is built only when the rule is
//! violated. All violations of one request are collected and returned together.

use std::fmt;

use crate::amount::Amount;

/// The kind of rule a [`Violation`] breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RuleKind {
    /// Longer than the maximum number of characters.
    MaxChars,
    /// Shorter than the minimum number of characters.
    MinChars,
    /// Not only ASCII letters and digits.
    Alphanumeric,
    /// Not valid Base64.
    Base64,
    /// Decoded Base64 larger than allowed.
    Base64MaxBytes,
    /// Outside an inclusive range.
    Range,
    /// Not greater than zero.
    Positive,
    /// Has a fractional part.
    Whole,
    /// More decimal places than allowed.
    DecimalPlaces,
    /// More array items than allowed.
    MaxItems,
    /// Fewer array items than required.
    MinItems,
    /// A required field is missing or empty.
    Required,
    /// A field required by a condition is missing or empty.
    RequiredIf,
    /// None of a group of fields is present.
    AtLeastOneOf,
    /// Not exactly one of a group of fields is present.
    ExactlyOneOf,
}

/// One violated rule.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// Path of the field (`oderArray[2].amount`); for rules across fields, the paths
    /// joined with `|`.
    pub field: String,
    /// The rule broken.
    pub rule: RuleKind,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Every violation of one request. `Display` lists them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationErrors {
    violations: Vec<Violation>,
}

impl ValidationErrors {
    /// The violations, in the order they were found.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.violations.len();
        write!(f, "{n} rule{} violated: ", if n == 1 { "" } else { "s" })?;
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// Collects violations while a request is checked.
#[derive(Debug, Default)]
pub struct Validator {
    violations: Vec<Violation>,
}

fn join(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}.{field}")
    }
}

impl Validator {
    /// An empty validator.
    pub fn new() -> Validator {
        Validator::default()
    }

    fn push(&mut self, prefix: &str, field: &str, rule: RuleKind, message: String) {
        self.violations.push(Violation {
            field: join(prefix, field),
            rule,
            message,
        });
    }

    /// At most `max` characters (Unicode scalar values).
    pub fn max_chars(&mut self, prefix: &str, field: &str, value: &str, max: u64) {
        let n = value.chars().count() as u64;
        if n > max {
            self.push(
                prefix,
                field,
                RuleKind::MaxChars,
                format!("has {n} characters, at most {max} allowed"),
            );
        }
    }

    /// At least `min` characters (Unicode scalar values).
    pub fn min_chars(&mut self, prefix: &str, field: &str, value: &str, min: u64) {
        let n = value.chars().count() as u64;
        if n < min {
            self.push(
                prefix,
                field,
                RuleKind::MinChars,
                format!("has {n} characters, at least {min} required"),
            );
        }
    }

    /// ASCII letters and digits only.
    pub fn alphanumeric(&mut self, prefix: &str, field: &str, value: &str) {
        if let Some(c) = value.chars().find(|c| !c.is_ascii_alphanumeric()) {
            self.push(
                prefix,
                field,
                RuleKind::Alphanumeric,
                format!("must contain only ASCII letters and digits, found {c:?}"),
            );
        }
    }

    /// Valid standard Base64 (padded) whose decoded size is at most `max` bytes.
    pub fn base64_max_bytes(&mut self, prefix: &str, field: &str, value: &str, max: u64) {
        match base64_decoded_len(value) {
            Err(why) => self.push(
                prefix,
                field,
                RuleKind::Base64,
                format!("is not valid Base64: {why}"),
            ),
            Ok(n) if n > max => self.push(
                prefix,
                field,
                RuleKind::Base64MaxBytes,
                format!("decodes to {n} bytes, at most {max} allowed"),
            ),
            Ok(_) => {}
        }
    }

    /// Inside the inclusive range `min..=max` (each bound optional).
    pub fn range_int(
        &mut self,
        prefix: &str,
        field: &str,
        value: i64,
        min: Option<i64>,
        max: Option<i64>,
    ) {
        if let Some(min) = min.filter(|m| value < *m) {
            self.push(
                prefix,
                field,
                RuleKind::Range,
                format!("is {value}, must be at least {min}"),
            );
        } else if let Some(max) = max.filter(|m| value > *m) {
            self.push(
                prefix,
                field,
                RuleKind::Range,
                format!("is {value}, must be at most {max}"),
            );
        }
    }

    /// Greater than zero.
    pub fn positive_int(&mut self, prefix: &str, field: &str, value: i64) {
        if value <= 0 {
            self.push(
                prefix,
                field,
                RuleKind::Positive,
                format!("is {value}, must be greater than 0"),
            );
        }
    }

    /// Inside the inclusive range `min..=max` (each bound optional).
    pub fn range_amount(
        &mut self,
        prefix: &str,
        field: &str,
        value: &Amount,
        min: Option<Amount>,
        max: Option<Amount>,
    ) {
        if let Some(min) = min.filter(|m| value < m) {
            self.push(
                prefix,
                field,
                RuleKind::Range,
                format!("is {value}, must be at least {min}"),
            );
        } else if let Some(max) = max.filter(|m| value > m) {
            self.push(
                prefix,
                field,
                RuleKind::Range,
                format!("is {value}, must be at most {max}"),
            );
        }
    }

    /// Greater than zero.
    pub fn positive_amount(&mut self, prefix: &str, field: &str, value: &Amount) {
        if *value <= Amount::ZERO {
            self.push(
                prefix,
                field,
                RuleKind::Positive,
                format!("is {value}, must be greater than 0"),
            );
        }
    }

    /// No fractional part (`100` and `100.00` pass, `100.50` does not).
    pub fn whole(&mut self, prefix: &str, field: &str, value: &Amount) {
        if !value.is_whole() {
            self.push(
                prefix,
                field,
                RuleKind::Whole,
                format!("is {value}, must be a whole number"),
            );
        }
    }

    /// At most `places` decimal places in the text that is sent (`100.500` has 3).
    pub fn decimal_places(&mut self, prefix: &str, field: &str, value: &Amount, places: u32) {
        if value.scale() > places {
            self.push(
                prefix,
                field,
                RuleKind::DecimalPlaces,
                format!("is {value}, at most {places} decimal places allowed"),
            );
        }
    }

    /// At most `max` array items.
    pub fn max_items(&mut self, prefix: &str, field: &str, len: usize, max: u64) {
        if len as u64 > max {
            self.push(
                prefix,
                field,
                RuleKind::MaxItems,
                format!("has {len} items, at most {max} allowed"),
            );
        }
    }

    /// At least `min` array items.
    pub fn min_items(&mut self, prefix: &str, field: &str, len: usize, min: u64) {
        if (len as u64) < min {
            self.push(
                prefix,
                field,
                RuleKind::MinItems,
                format!("has {len} items, at least {min} required"),
            );
        }
    }

    /// The field must be present (set and, for strings, non-empty).
    pub fn required(&mut self, prefix: &str, field: &str, present: bool) {
        if !present {
            self.push(prefix, field, RuleKind::Required, "is required".to_owned());
        }
    }

    /// The field must be present when `condition_holds`; `condition` describes it
    /// (e.g. `beneficiaryType = 1`).
    pub fn required_if(
        &mut self,
        prefix: &str,
        field: &str,
        present: bool,
        condition_holds: bool,
        condition: &str,
    ) {
        if condition_holds && !present {
            self.push(
                prefix,
                field,
                RuleKind::RequiredIf,
                format!("is required when {condition}"),
            );
        }
    }

    fn group(prefix: &str, fields: &[(&str, bool)]) -> (String, String) {
        let paths: Vec<String> = fields.iter().map(|(f, _)| join(prefix, f)).collect();
        (paths.join("|"), paths.join(", "))
    }

    /// At least one of `fields` (name, present) must be present.
    pub fn at_least_one_of(&mut self, prefix: &str, fields: &[(&str, bool)]) {
        if !fields.iter().any(|(_, present)| *present) {
            let (field, list) = Self::group(prefix, fields);
            self.violations.push(Violation {
                field,
                rule: RuleKind::AtLeastOneOf,
                message: format!("at least one of {list} is required"),
            });
        }
    }

    /// Exactly one of `fields` (name, present) must be present.
    pub fn exactly_one_of(&mut self, prefix: &str, fields: &[(&str, bool)]) {
        let n = fields.iter().filter(|(_, present)| *present).count();
        if n != 1 {
            let (field, list) = Self::group(prefix, fields);
            self.violations.push(Violation {
                field,
                rule: RuleKind::ExactlyOneOf,
                message: format!("exactly one of {list} is required, {n} given"),
            });
        }
    }

    /// Path of an array element: `("", "oderArray", 2)` gives `oderArray[2]`,
    /// `("a", "oderArray", 2)` gives `a.oderArray[2]`.
    pub fn element_path(prefix: &str, field: &str, index: usize) -> String {
        format!("{}[{index}]", join(prefix, field))
    }

    /// True when no rule has been violated so far.
    pub fn is_clean(&self) -> bool {
        self.violations.is_empty()
    }

    /// `Ok` when no rule was violated, else every violation.
    pub fn finish(self) -> Result<(), ValidationErrors> {
        if self.violations.is_empty() {
            Ok(())
        } else {
            Err(ValidationErrors {
                violations: self.violations,
            })
        }
    }
}

/// Decoded size of padded standard Base64, or why it is not valid.
fn base64_decoded_len(value: &str) -> Result<u64, &'static str> {
    let bytes = value.as_bytes();
    if bytes.len() % 4 != 0 {
        return Err("length is not a multiple of 4");
    }
    let padding = bytes.iter().rev().take_while(|b| **b == b'=').count();
    if padding > 2 {
        return Err("more than two `=` at the end");
    }
    let body = bytes.get(..bytes.len() - padding).unwrap_or_default();
    if !body
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
    {
        return Err("a character outside A-Z a-z 0-9 + / (or `=` before the end)");
    }
    Ok((bytes.len() / 4 * 3 - padding) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(v: Validator) -> Vec<(String, RuleKind)> {
        match v.finish() {
            Ok(()) => Vec::new(),
            Err(e) => e
                .violations()
                .iter()
                .map(|v| (v.field.clone(), v.rule))
                .collect(),
        }
    }

    #[test]
    fn strings() {
        let mut v = Validator::new();
        v.max_chars("", "name", "ééé", 3);
        v.max_chars("", "name", "éééé", 3);
        v.min_chars("a", "b", "", 1);
        v.alphanumeric("", "remark", "abc123");
        v.alphanumeric("", "remark", "abc 123");
        assert_eq!(
            rules(v),
            [
                ("name".into(), RuleKind::MaxChars),
                ("a.b".into(), RuleKind::MinChars),
                ("remark".into(), RuleKind::Alphanumeric)
            ]
        );
    }

    #[test]
    fn base64() {
        assert_eq!(base64_decoded_len(""), Ok(0));
        assert_eq!(base64_decoded_len("TWFu"), Ok(3));
        assert_eq!(base64_decoded_len("TWE="), Ok(2));
        assert_eq!(base64_decoded_len("TQ=="), Ok(1));
        assert!(base64_decoded_len("TQ=").is_err());
        assert!(base64_decoded_len("T===").is_err());
        assert!(base64_decoded_len("TQ=a").is_err());
        assert!(base64_decoded_len("T Q=").is_err());
        let mut v = Validator::new();
        v.base64_max_bytes("", "invoice", "TWFu", 3);
        v.base64_max_bytes("", "invoice", "TWFuTWFu", 5);
        v.base64_max_bytes("", "invoice", "not base64!", 5);
        assert_eq!(
            rules(v),
            [
                ("invoice".into(), RuleKind::Base64MaxBytes),
                ("invoice".into(), RuleKind::Base64)
            ]
        );
    }

    #[test]
    fn numbers() {
        let a = |s: &str| s.parse::<Amount>().unwrap();
        let mut v = Validator::new();
        v.range_int("", "q", 5, Some(1), Some(99_999_999));
        v.range_int("", "q", 0, Some(1), None);
        v.range_int("", "q", 100, None, Some(99));
        v.positive_int("", "q", 0);
        v.range_amount("o[0]", "amount", &a("500000.00"), None, Some(a("500000")));
        v.range_amount("o[1]", "amount", &a("500000.01"), None, Some(a("500000")));
        v.positive_amount("", "amount", &a("0.00"));
        v.whole("", "amount", &a("100.00"));
        v.whole("", "amount", &a("100.50"));
        v.decimal_places("", "amount", &a("1.25"), 2);
        v.decimal_places("", "amount", &a("1.250"), 2);
        assert_eq!(
            rules(v),
            [
                ("q".into(), RuleKind::Range),
                ("q".into(), RuleKind::Range),
                ("q".into(), RuleKind::Positive),
                ("o[1].amount".into(), RuleKind::Range),
                ("amount".into(), RuleKind::Positive),
                ("amount".into(), RuleKind::Whole),
                ("amount".into(), RuleKind::DecimalPlaces),
            ]
        );
    }

    #[test]
    fn arrays_and_constraints() {
        let mut v = Validator::new();
        v.max_items("", "list", 51, 50);
        v.min_items("", "list", 0, 1);
        v.required("", "accountId", false);
        v.required_if(
            "",
            "beneficiaryCountryCode",
            false,
            true,
            "beneficiaryType = 1",
        );
        v.required_if("", "invoice", false, false, "sum > 70000");
        v.at_least_one_of("", &[("userId", false), ("mobile", false)]);
        v.at_least_one_of("", &[("userId", false), ("mobile", true)]);
        v.exactly_one_of("p", &[("sourceAmount", true), ("targetAmount", true)]);
        v.exactly_one_of("", &[("sourceAmount", true), ("targetAmount", false)]);
        let errors = v.finish().unwrap_err();
        let found: Vec<_> = errors
            .violations()
            .iter()
            .map(|v| (v.field.as_str(), v.rule))
            .collect();
        assert_eq!(
            found,
            [
                ("list", RuleKind::MaxItems),
                ("list", RuleKind::MinItems),
                ("accountId", RuleKind::Required),
                ("beneficiaryCountryCode", RuleKind::RequiredIf),
                ("userId|mobile", RuleKind::AtLeastOneOf),
                ("p.sourceAmount|p.targetAmount", RuleKind::ExactlyOneOf),
            ]
        );
        let text = errors.to_string();
        assert!(
            text.starts_with("6 rules violated: list: has 51 items"),
            "{text}"
        );
        assert!(text.contains("beneficiaryCountryCode: is required when beneficiaryType = 1"));
        assert_eq!(Validator::element_path("", "oderArray", 2), "oderArray[2]");
        assert_eq!(
            Validator::element_path("x", "oderArray", 0),
            "x.oderArray[0]"
        );
        assert!(Validator::new().finish().is_ok());
    }
}
