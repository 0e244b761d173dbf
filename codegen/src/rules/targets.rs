//! What each rule kind becomes in each output: the runtime validator call, JSON Schema
//! keywords, the syntax of a decimal sent as text, example values.

use serde_json::{json, Map, Value};

use super::{RuleKey, RuleKind};
use crate::model::number::Number;
use crate::model::types::{DecimalWire, TypeRef};

/// Where a check applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckLevel {
    /// To each value (each element of an array).
    Value,
    /// To the array as a whole.
    Array,
}

/// The form in which the validator reads the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckValue {
    /// The text (`&str`).
    Text,
    /// The integer, widened to 64 bits.
    Integer,
    /// The exact decimal (`&Amount`).
    Amount,
    /// The array's length.
    Length,
    /// The wire text of a value set's value (`"KES"`; listed or not).
    Wire,
    /// A document's size in bytes (before Base64).
    Size,
}

/// An argument of a validator call after the path and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckArg {
    /// A count (`u64`).
    Count(u64),
    /// Decimal places (`u32`).
    Places(u32),
    /// An optional integer bound.
    Integer(Option<i64>),
    /// An optional exact decimal bound.
    Amount(Option<Number>),
    /// Wire texts (a list of strings).
    Texts(Vec<String>),
}

/// A runtime validator call: `validator.<method>(path, value, args...)`. Every runtime
/// (one per language) has a method of this name taking these arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The validator's method.
    pub method: &'static str,
    /// How it reads the value.
    pub value: CheckValue,
    /// Its arguments after the path and the value.
    pub args: Vec<CheckArg>,
    /// Whether it applies to each value or to the array.
    pub level: CheckLevel,
}

impl Check {
    fn value(method: &'static str, value: CheckValue, args: Vec<CheckArg>) -> Option<Check> {
        Some(Check {
            method,
            value,
            args,
            level: CheckLevel::Value,
        })
    }

    fn array(method: &'static str, count: u64) -> Option<Check> {
        Some(Check {
            method,
            value: CheckValue::Length,
            args: vec![CheckArg::Count(count)],
            level: CheckLevel::Array,
        })
    }
}

/// Every validator call any rule kind can name (a [`RuleKey::sample`] on each type it
/// applies to), with its kind: what the validator of each language's runtime must have.
pub fn every_check() -> Vec<(RuleKey, Check)> {
    let decimal = |wire| TypeRef::Decimal { wire };
    let types = [
        TypeRef::String,
        TypeRef::Int,
        TypeRef::Long,
        decimal(DecimalWire::String),
        decimal(DecimalWire::Number),
        TypeRef::Bool,
        TypeRef::Document,
        TypeRef::Enum { name: "E".into() },
        TypeRef::Array {
            item: Box::new(TypeRef::String),
        },
    ];
    let mut checks: Vec<(RuleKey, Check)> = Vec::new();
    for key in RuleKey::ALL {
        let Some(rule) = key.sample() else { continue };
        for check in types.iter().filter_map(|ty| rule.check(ty)) {
            if !checks.iter().any(|(k, c)| *k == key && *c == check) {
                checks.push((key, check));
            }
        }
    }
    checks
}

/// How a decimal sent as a JSON string may be written, narrowed by its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecimalSyntax {
    /// A `-` may lead.
    pub negative: bool,
    /// At most this many places.
    pub places: Option<u32>,
    /// No fraction at all.
    pub whole: bool,
}

impl Default for DecimalSyntax {
    fn default() -> DecimalSyntax {
        DecimalSyntax {
            negative: true,
            places: None,
            whole: false,
        }
    }
}

/// JSON Schema output of the rules of one value: keywords, patterns (several become
/// `allOf`), server-side texts.
#[derive(Debug, Default)]
pub struct SchemaOut {
    /// Keywords of the value's schema.
    pub map: Map<String, Value>,
    /// Patterns the value must match.
    pub patterns: Vec<String>,
    /// Texts of the rules only the service checks.
    pub server_side: Vec<String>,
}

/// What the rules of a field say about an example value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// At most this many characters.
    pub max_chars: u64,
    /// At least this many characters.
    pub min_chars: u64,
    /// Integer bounds.
    pub int_min: Option<i64>,
    /// Integer bounds.
    pub int_max: Option<i64>,
    /// A positive lower bound of a decimal.
    pub decimal_min: Option<Number>,
    /// At least this many items.
    pub min_items: Option<u64>,
    /// Only these wire values of a value set.
    pub one_of: Option<Vec<String>>,
}

impl Default for Example {
    fn default() -> Example {
        Example {
            max_chars: u64::MAX,
            min_chars: 0,
            int_min: None,
            int_max: None,
            decimal_min: None,
            min_items: None,
            one_of: None,
        }
    }
}

impl RuleKind {
    /// The runtime validator call checking this rule on a value whose (element) type is
    /// `elem`. `None` for a server-side rule (documented, never checked), and for a type
    /// the rule does not apply to (the checker refuses those).
    pub fn check(&self, elem: &TypeRef) -> Option<Check> {
        use CheckValue as V;
        let integer = matches!(elem, TypeRef::Int | TypeRef::Long);
        let decimal = matches!(elem, TypeRef::Decimal { .. });
        let text = matches!(elem, TypeRef::String);
        match self {
            RuleKind::MaxChars { max } if text => {
                Check::value("max_chars", V::Text, vec![CheckArg::Count(*max)])
            }
            RuleKind::MinChars { min } if text => {
                Check::value("min_chars", V::Text, vec![CheckArg::Count(*min)])
            }
            RuleKind::Alphanumeric if text => Check::value("alphanumeric", V::Text, vec![]),
            RuleKind::Base64MaxBytes { max } if matches!(elem, TypeRef::Document) => {
                Check::value("max_bytes", V::Size, vec![CheckArg::Count(*max)])
            }
            // Base64 text in a string (specs before the `document` type): valid, and its
            // decoded size within `max`.
            RuleKind::Base64MaxBytes { max } if text => {
                Check::value("base64_max_bytes", V::Text, vec![CheckArg::Count(*max)])
            }
            // Integer bounds have scale 0 (the checker parsed them as integers).
            RuleKind::Range { min, max } if integer => Check::value(
                "range_int",
                V::Integer,
                vec![
                    CheckArg::Integer(min.map(|n| n.mantissa)),
                    CheckArg::Integer(max.map(|n| n.mantissa)),
                ],
            ),
            RuleKind::Range { min, max } if decimal => Check::value(
                "range_amount",
                V::Amount,
                vec![CheckArg::Amount(*min), CheckArg::Amount(*max)],
            ),
            RuleKind::Positive if integer => Check::value("positive_int", V::Integer, vec![]),
            RuleKind::Positive if decimal => Check::value("positive_amount", V::Amount, vec![]),
            RuleKind::Whole if decimal => Check::value("whole", V::Amount, vec![]),
            RuleKind::DecimalPlaces { places } if decimal => {
                Check::value("decimal_places", V::Amount, vec![CheckArg::Places(*places)])
            }
            RuleKind::MaxItems { max } => Check::array("max_items", *max),
            RuleKind::MinItems { min } => Check::array("min_items", *min),
            RuleKind::OneOf { values } if matches!(elem, TypeRef::Enum { .. }) => {
                Check::value("one_of", V::Wire, vec![CheckArg::Texts(values.clone())])
            }
            RuleKind::MaxChars { .. }
            | RuleKind::MinChars { .. }
            | RuleKind::Alphanumeric
            | RuleKind::Base64MaxBytes { .. }
            | RuleKind::Range { .. }
            | RuleKind::Positive
            | RuleKind::Whole
            | RuleKind::DecimalPlaces { .. }
            | RuleKind::OneOf { .. }
            | RuleKind::ServerSide { .. } => None,
        }
    }

    /// Narrows the syntax of a decimal sent as a JSON string.
    pub fn decimal_syntax(&self, syntax: &mut DecimalSyntax) {
        match self {
            RuleKind::Positive => syntax.negative = false,
            RuleKind::Range { min: Some(min), .. } if min.mantissa >= 0 => {
                syntax.negative = false;
            }
            RuleKind::DecimalPlaces { places } => syntax.places = Some(*places),
            RuleKind::Whole => syntax.whole = true,
            RuleKind::Range { .. }
            | RuleKind::MaxChars { .. }
            | RuleKind::MinChars { .. }
            | RuleKind::Alphanumeric
            | RuleKind::Base64MaxBytes { .. }
            | RuleKind::MaxItems { .. }
            | RuleKind::MinItems { .. }
            | RuleKind::OneOf { .. }
            | RuleKind::ServerSide { .. } => {}
        }
    }

    /// The JSON Schema keywords of this rule on a sent value of (element) type `elem`.
    /// Array-level rules write nothing here (see [`RuleKind::json_schema_array`]).
    pub fn json_schema(&self, elem: &TypeRef, out: &mut SchemaOut) {
        let string_decimal = matches!(
            elem,
            TypeRef::Decimal {
                wire: DecimalWire::String
            }
        );
        let number_decimal = matches!(
            elem,
            TypeRef::Decimal {
                wire: DecimalWire::Number
            }
        );
        let map = &mut out.map;
        match self {
            RuleKind::MaxChars { max } => {
                map.insert("maxLength".into(), json!(max));
            }
            RuleKind::MinChars { min } => {
                map.insert("minLength".into(), json!(min));
            }
            RuleKind::Range { min, max } => {
                let text_bounds = |map: &mut Map<String, Value>| {
                    if let Some(min) = min {
                        map.insert("x-baas-minimum".into(), json!(min.to_string()));
                    }
                    if let Some(max) = max {
                        map.insert("x-baas-maximum".into(), json!(max.to_string()));
                    }
                };
                if string_decimal {
                    text_bounds(map);
                } else {
                    if let Some(min) = min {
                        map.insert("minimum".into(), json_number(min));
                    }
                    if let Some(max) = max {
                        map.insert("maximum".into(), json_number(max));
                    }
                    if number_decimal {
                        text_bounds(map);
                    }
                }
            }
            RuleKind::Positive => {
                if string_decimal {
                    map.insert("x-baas-exclusive-minimum".into(), json!("0"));
                } else {
                    map.insert("exclusiveMinimum".into(), json!(0));
                }
            }
            RuleKind::Whole => {
                if number_decimal {
                    map.insert("multipleOf".into(), json!(1));
                }
                map.insert("x-baas-whole".into(), json!(true));
            }
            RuleKind::DecimalPlaces { places } => {
                map.insert("x-baas-decimal-places".into(), json!(places));
            }
            RuleKind::Alphanumeric => out.patterns.push("^[A-Za-z0-9]*$".to_owned()),
            // The document type writes the Base64 keywords; this bounds its length.
            RuleKind::Base64MaxBytes { max } => {
                map.insert("maxLength".into(), json!(max.div_ceil(3) * 4));
                map.insert("x-baas-base64-max-bytes".into(), json!(max));
                // Base64 text in a string (specs before the `document` type, which writes
                // these keywords itself).
                if *elem == TypeRef::String {
                    map.insert("contentEncoding".into(), json!("base64"));
                    out.patterns.push("^[A-Za-z0-9+/]*={0,2}$".to_owned());
                }
            }
            RuleKind::ServerSide { text } => out.server_side.push(text.clone()),
            RuleKind::OneOf { values } => {
                map.insert("enum".into(), json!(values));
            }
            RuleKind::MaxItems { .. } | RuleKind::MinItems { .. } => {}
        }
    }

    /// The JSON Schema keywords of an array-level rule on a sent array.
    pub fn json_schema_array(&self, array: &mut Map<String, Value>) {
        match self {
            RuleKind::MaxItems { max } => {
                array.insert("maxItems".into(), json!(max));
            }
            RuleKind::MinItems { min } => {
                array.insert("minItems".into(), json!(min));
            }
            RuleKind::MaxChars { .. }
            | RuleKind::MinChars { .. }
            | RuleKind::Range { .. }
            | RuleKind::Positive
            | RuleKind::Whole
            | RuleKind::DecimalPlaces { .. }
            | RuleKind::Alphanumeric
            | RuleKind::Base64MaxBytes { .. }
            | RuleKind::OneOf { .. }
            | RuleKind::ServerSide { .. } => {}
        }
    }

    /// Narrows an example value to this rule.
    pub fn example(&self, example: &mut Example) {
        match self {
            RuleKind::MaxChars { max } => example.max_chars = example.max_chars.min(*max),
            RuleKind::MinChars { min } => example.min_chars = *min,
            RuleKind::Range { min, max } => {
                if let Some(min) = min.filter(|m| m.scale == 0) {
                    example.int_min = Some(min.mantissa);
                }
                if let Some(max) = max.filter(|m| m.scale == 0) {
                    example.int_max = Some(max.mantissa);
                }
                if let Some(min) = min.filter(|m| m.mantissa > 0) {
                    example.decimal_min = Some(min);
                }
            }
            RuleKind::MinItems { min } => {
                example.min_items.get_or_insert(*min);
            }
            RuleKind::OneOf { values } => example.one_of = Some(values.clone()),
            RuleKind::Positive
            | RuleKind::Whole
            | RuleKind::DecimalPlaces { .. }
            | RuleKind::Alphanumeric
            | RuleKind::Base64MaxBytes { .. }
            | RuleKind::MaxItems { .. }
            | RuleKind::ServerSide { .. } => {}
        }
    }
}

/// An exact decimal as a JSON number (its text, parsed as an f64 only when it has no
/// exact integer form).
pub fn json_number(n: &Number) -> Value {
    if n.scale == 0 {
        return json!(n.mantissa);
    }
    n.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}
