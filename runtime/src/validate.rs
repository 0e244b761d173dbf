//! Validation helpers called by generated code, one per rule kind of the spec.
//!
//! Every check takes the [`FieldPath`] of the value it checks: a chain of borrowed
//! segments on the stack, rendered to text (`oderArray[2].amount`) only when the rule is
//! violated, so a request without violations is checked without allocating. All
//! violations of one request are collected and returned together.

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
    /// A value of a value set this request does not take (the service takes fewer of
    /// its values here).
    OneOf,
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

    /// Iterates over the violations, in the order they were found (also
    /// `for violation in &errors`).
    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.violations.iter()
    }
}

impl<'a> IntoIterator for &'a ValidationErrors {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.violations.iter()
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

/// Where a value sits in a request, e.g. `oderArray[2].amount`.
///
/// A path is a chain of borrowed segments, each pointing to its parent; building one
/// costs nothing and allocates nothing. It becomes text (fields joined with `.`, array
/// indices as `[i]`) only when a violation is recorded, or through `Display`.
///
/// ```
/// use baas_runtime::FieldPath;
///
/// let at = FieldPath::ROOT;
/// let orders = at.field("oderArray");
/// let second = orders.index(2);
/// assert_eq!(second.field("amount").to_string(), "oderArray[2].amount");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FieldPath<'a>(Segment<'a>);

#[derive(Debug, Clone, Copy)]
enum Segment<'a> {
    Root,
    Field(&'a FieldPath<'a>, &'a str),
    Index(&'a FieldPath<'a>, usize),
}

impl FieldPath<'static> {
    /// The request itself: its fields are `ROOT.field(name)`.
    pub const ROOT: FieldPath<'static> = FieldPath(Segment::Root);
}

impl<'a> FieldPath<'a> {
    /// The field `name` (wire name) of the value at this path.
    pub fn field(&'a self, name: &'a str) -> FieldPath<'a> {
        FieldPath(Segment::Field(self, name))
    }

    /// The element `index` of the array at this path.
    pub fn index(&'a self, index: usize) -> FieldPath<'a> {
        FieldPath(Segment::Index(self, index))
    }
}

impl fmt::Display for FieldPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Segment::Root => Ok(()),
            Segment::Field(parent, name) => {
                if matches!(parent.0, Segment::Root) {
                    f.write_str(name)
                } else {
                    write!(f, "{parent}.{name}")
                }
            }
            Segment::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

/// Collects violations while a request is checked.
#[derive(Debug, Default)]
pub struct Validator {
    violations: Vec<Violation>,
}

impl Validator {
    /// An empty validator.
    pub fn new() -> Validator {
        Validator::default()
    }

    /// Records a violation; the only place a path becomes text.
    fn push(&mut self, at: FieldPath<'_>, rule: RuleKind, message: String) {
        self.violations.push(Violation {
            field: at.to_string(),
            rule,
            message,
        });
    }

    /// At most `max` characters (Unicode scalar values).
    pub fn max_chars(&mut self, at: FieldPath<'_>, value: &str, max: u64) {
        let n = value.chars().count() as u64;
        if n > max {
            self.push(
                at,
                RuleKind::MaxChars,
                format!("has {n} characters, at most {max} allowed"),
            );
        }
    }

    /// At least `min` characters (Unicode scalar values).
    pub fn min_chars(&mut self, at: FieldPath<'_>, value: &str, min: u64) {
        let n = value.chars().count() as u64;
        if n < min {
            self.push(
                at,
                RuleKind::MinChars,
                format!("has {n} characters, at least {min} required"),
            );
        }
    }

    /// ASCII letters and digits only.
    pub fn alphanumeric(&mut self, at: FieldPath<'_>, value: &str) {
        if let Some(c) = value.chars().find(|c| !c.is_ascii_alphanumeric()) {
            self.push(
                at,
                RuleKind::Alphanumeric,
                format!("must contain only ASCII letters and digits, found {c:?}"),
            );
        }
    }

    /// Valid standard Base64 (padded) whose decoded size is at most `max` bytes.
    pub fn base64_max_bytes(&mut self, at: FieldPath<'_>, value: &str, max: u64) {
        match base64_decoded_len(value) {
            Err(why) => self.push(at, RuleKind::Base64, format!("is not valid Base64: {why}")),
            Ok(n) if n > max => self.push(
                at,
                RuleKind::Base64MaxBytes,
                format!("decodes to {n} bytes, at most {max} allowed"),
            ),
            Ok(_) => {}
        }
    }

    /// A document of at most `max` bytes (its own size: the Base64 text sent is a third
    /// larger). Violates `base64_max_bytes`.
    pub fn max_bytes(&mut self, at: FieldPath<'_>, len: usize, max: u64) {
        if len as u64 > max {
            self.push(
                at,
                RuleKind::Base64MaxBytes,
                format!("is {len} bytes, at most {max} allowed"),
            );
        }
    }

    /// One of the `allowed` wire values (a value set's field that takes fewer of its values
    /// in this request).
    pub fn one_of(&mut self, at: FieldPath<'_>, value: &str, allowed: &[&str]) {
        if !allowed.contains(&value) {
            self.push(
                at,
                RuleKind::OneOf,
                format!("is `{value}`, must be one of {}", allowed.join(", ")),
            );
        }
    }

    /// Inside the inclusive range `min..=max` (each bound optional).
    pub fn range_int(&mut self, at: FieldPath<'_>, value: i64, min: Option<i64>, max: Option<i64>) {
        if let Some(min) = min.filter(|m| value < *m) {
            self.push(
                at,
                RuleKind::Range,
                format!("is {value}, must be at least {min}"),
            );
        } else if let Some(max) = max.filter(|m| value > *m) {
            self.push(
                at,
                RuleKind::Range,
                format!("is {value}, must be at most {max}"),
            );
        }
    }

    /// Greater than zero.
    pub fn positive_int(&mut self, at: FieldPath<'_>, value: i64) {
        if value <= 0 {
            self.push(
                at,
                RuleKind::Positive,
                format!("is {value}, must be greater than 0"),
            );
        }
    }

    /// Inside the inclusive range `min..=max` (each bound optional).
    pub fn range_amount(
        &mut self,
        at: FieldPath<'_>,
        value: &Amount,
        min: Option<Amount>,
        max: Option<Amount>,
    ) {
        if let Some(min) = min.filter(|m| value < m) {
            self.push(
                at,
                RuleKind::Range,
                format!("is {value}, must be at least {min}"),
            );
        } else if let Some(max) = max.filter(|m| value > m) {
            self.push(
                at,
                RuleKind::Range,
                format!("is {value}, must be at most {max}"),
            );
        }
    }

    /// Greater than zero.
    pub fn positive_amount(&mut self, at: FieldPath<'_>, value: &Amount) {
        if *value <= Amount::ZERO {
            self.push(
                at,
                RuleKind::Positive,
                format!("is {value}, must be greater than 0"),
            );
        }
    }

    /// No fractional part (`100` and `100.00` pass, `100.50` does not).
    pub fn whole(&mut self, at: FieldPath<'_>, value: &Amount) {
        if !value.is_whole() {
            self.push(
                at,
                RuleKind::Whole,
                format!("is {value}, must be a whole number"),
            );
        }
    }

    /// At most `places` decimal places in the text that is sent (`100.500` has 3).
    pub fn decimal_places(&mut self, at: FieldPath<'_>, value: &Amount, places: u32) {
        if value.scale() > places {
            self.push(
                at,
                RuleKind::DecimalPlaces,
                format!("is {value}, at most {places} decimal places allowed"),
            );
        }
    }

    /// At most `max` array items.
    pub fn max_items(&mut self, at: FieldPath<'_>, len: usize, max: u64) {
        if len as u64 > max {
            self.push(
                at,
                RuleKind::MaxItems,
                format!("has {len} items, at most {max} allowed"),
            );
        }
    }

    /// At least `min` array items.
    pub fn min_items(&mut self, at: FieldPath<'_>, len: usize, min: u64) {
        if (len as u64) < min {
            self.push(
                at,
                RuleKind::MinItems,
                format!("has {len} items, at least {min} required"),
            );
        }
    }

    /// The field must be present (set and, for strings, non-empty).
    pub fn required(&mut self, at: FieldPath<'_>, present: bool) {
        if !present {
            self.push(at, RuleKind::Required, "is required".to_owned());
        }
    }

    /// The field must be present when `condition_holds`; `condition` describes it
    /// (e.g. `beneficiaryType = 1`).
    pub fn required_if(
        &mut self,
        at: FieldPath<'_>,
        present: bool,
        condition_holds: bool,
        condition: &str,
    ) {
        if condition_holds && !present {
            self.push(
                at,
                RuleKind::RequiredIf,
                format!("is required when {condition}"),
            );
        }
    }

    /// The paths of the fields `names` of the value at `parent`, joined with `|` (the
    /// violation's field) and with `, ` (its message).
    fn group(parent: FieldPath<'_>, fields: &[(&str, bool)]) -> (String, String) {
        let paths: Vec<String> = fields
            .iter()
            .map(|(name, _)| parent.field(name).to_string())
            .collect();
        (paths.join("|"), paths.join(", "))
    }

    /// At least one of `fields` (wire name, present) of the value at `parent` must be
    /// present.
    pub fn at_least_one_of(&mut self, parent: FieldPath<'_>, fields: &[(&str, bool)]) {
        if !fields.iter().any(|(_, present)| *present) {
            let (field, list) = Self::group(parent, fields);
            self.violations.push(Violation {
                field,
                rule: RuleKind::AtLeastOneOf,
                message: format!("at least one of {list} is required"),
            });
        }
    }

    /// Exactly one of `fields` (wire name, present) of the value at `parent` must be
    /// present.
    pub fn exactly_one_of(&mut self, parent: FieldPath<'_>, fields: &[(&str, bool)]) {
        let n = fields.iter().filter(|(_, present)| *present).count();
        if n != 1 {
            let (field, list) = Self::group(parent, fields);
            self.violations.push(Violation {
                field,
                rule: RuleKind::ExactlyOneOf,
                message: format!("exactly one of {list} is required, {n} given"),
            });
        }
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
    fn errors_iterate_in_order() {
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.max_chars(at.field("remark"), "abcd", 3);
        v.required(at.field("accountId"), false);
        let errors = v.finish().unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|v| v.field.as_str()).collect();
        assert_eq!(fields, ["remark", "accountId"]);
        let mut rules = Vec::new();
        for violation in &errors {
            rules.push(violation.rule);
        }
        assert_eq!(rules, [RuleKind::MaxChars, RuleKind::Required]);
    }

    #[test]
    fn strings() {
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.max_chars(at.field("name"), "ééé", 3);
        v.max_chars(at.field("name"), "éééé", 3);
        v.min_chars(at.field("a").field("b"), "", 1);
        v.alphanumeric(at.field("remark"), "abc123");
        v.alphanumeric(at.field("remark"), "abc 123");
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
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.base64_max_bytes(at.field("invoice"), "TWFu", 3);
        v.base64_max_bytes(at.field("invoice"), "TWFuTWFu", 5);
        v.base64_max_bytes(at.field("invoice"), "not base64!", 5);
        assert_eq!(
            rules(v),
            [
                ("invoice".into(), RuleKind::Base64MaxBytes),
                ("invoice".into(), RuleKind::Base64)
            ]
        );
    }

    #[test]
    fn max_bytes_counts_the_document_not_its_base64() {
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.max_bytes(at.field("invoice"), 3, 3);
        v.max_bytes(at.field("voucher"), 4, 3);
        let e = v.finish().unwrap_err();
        assert_eq!(e.violations().len(), 1);
        let only = &e.violations()[0];
        assert_eq!(
            (only.field.as_str(), only.rule),
            ("voucher", RuleKind::Base64MaxBytes)
        );
        assert_eq!(only.message, "is 4 bytes, at most 3 allowed");
    }

    #[test]
    fn numbers() {
        let a = |s: &str| s.parse::<Amount>().unwrap();
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.range_int(at.field("q"), 5, Some(1), Some(99_999_999));
        v.range_int(at.field("q"), 0, Some(1), None);
        v.range_int(at.field("q"), 100, None, Some(99));
        v.positive_int(at.field("q"), 0);
        v.range_amount(
            at.field("o").index(0).field("amount"),
            &a("500000.00"),
            None,
            Some(a("500000")),
        );
        v.range_amount(
            at.field("o").index(1).field("amount"),
            &a("500000.01"),
            None,
            Some(a("500000")),
        );
        v.positive_amount(at.field("amount"), &a("0.00"));
        v.whole(at.field("amount"), &a("100.00"));
        v.whole(at.field("amount"), &a("100.50"));
        v.decimal_places(at.field("amount"), &a("1.25"), 2);
        v.decimal_places(at.field("amount"), &a("1.250"), 2);
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
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.max_items(at.field("list"), 51, 50);
        v.min_items(at.field("list"), 0, 1);
        v.required(at.field("accountId"), false);
        v.required_if(
            at.field("beneficiaryCountryCode"),
            false,
            true,
            "beneficiaryType = 1",
        );
        v.required_if(at.field("invoice"), false, false, "sum > 70000");
        v.at_least_one_of(at, &[("userId", false), ("mobile", false)]);
        v.at_least_one_of(at, &[("userId", false), ("mobile", true)]);
        v.exactly_one_of(
            at.field("p"),
            &[("sourceAmount", true), ("targetAmount", true)],
        );
        v.exactly_one_of(at, &[("sourceAmount", true), ("targetAmount", false)]);
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
        assert!(Validator::new().finish().is_ok());
    }

    #[test]
    fn one_of_takes_only_the_listed_values() {
        let at = FieldPath::ROOT;
        let mut v = Validator::new();
        v.one_of(at.field("currency"), "KES", &["KES", "USD"]);
        assert!(v.finish().is_ok());
        let mut v = Validator::new();
        v.one_of(at.field("currency"), "CNY", &["KES", "USD"]);
        let errors = v.finish().unwrap_err();
        assert_eq!(errors.violations()[0].rule, RuleKind::OneOf);
        assert_eq!(
            errors.to_string(),
            "1 rule violated: currency: is `CNY`, must be one of KES, USD"
        );
    }

    #[test]
    fn paths_render_only_as_text_of_violations() {
        let at = FieldPath::ROOT;
        assert_eq!(at.to_string(), "");
        assert_eq!(at.field("oderArray").to_string(), "oderArray");
        assert_eq!(at.field("oderArray").index(2).to_string(), "oderArray[2]");
        let element = at.field("oderArray");
        let element = element.index(2);
        assert_eq!(element.field("amount").to_string(), "oderArray[2].amount");
        let nested = at.field("x");
        let nested = nested.field("fees");
        assert_eq!(nested.index(0).index(1).to_string(), "x.fees[0][1]");
        assert_eq!(at.index(3).to_string(), "[3]");
    }
}
