//! [`Amount`], decimal money that never touches a float.
//!
//! On the wire an amount is a JSON string with its exact text (`"100.50"`) by default:
//! nobody has shown how the service renders numbers, every working integration signs
//! the text it sends, and a string keeps `100.50` from becoming `100.5` in any JSON
//! library on either side (public-facts.md: amounts sent as strings work live;
//! response amounts such as `balance` come back as strings). Fields the spec marks
//! `wire: number` use the [`number`], [`option_number`] and [`vec_number`] modules,
//! which write a JSON number from the same exact text.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Most decimal places an amount can have.
pub const MAX_SCALE: u32 = 28;

/// Decimal money. Serializes as a JSON string with its exact text (`"100.50"`);
/// deserializes from a JSON string or a JSON number, from the literal text (no `f64`).
///
/// Equality and ordering are by value (`1.0 == 1.00`); `Display` keeps the scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Amount(Decimal);

/// Why a text is not an amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AmountError {
    text: String,
    reason: &'static str,
}

impl AmountError {
    fn new(text: &str, reason: &'static str) -> AmountError {
        let mut shown: String = text.chars().take(64).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        AmountError {
            text: shown,
            reason,
        }
    }

    /// Why the text was refused.
    pub fn reason(&self) -> &str {
        self.reason
    }
}

impl fmt::Display for AmountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid amount {:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for AmountError {}

impl Amount {
    /// Zero.
    pub const ZERO: Amount = Amount(Decimal::ZERO);

    /// `mantissa * 10^-scale`, e.g. `Amount::new(10050, 2)` is `100.50`. A scale above
    /// [`MAX_SCALE`] is clamped to it.
    pub const fn new(mantissa: i64, scale: u32) -> Amount {
        let scale = if scale > MAX_SCALE { MAX_SCALE } else { scale };
        let abs = mantissa.unsigned_abs();
        Amount(Decimal::from_parts(
            abs as u32,
            (abs >> 32) as u32,
            0,
            mantissa < 0,
            scale,
        ))
    }

    /// Number of decimal places in the text (`100.50` has 2).
    pub fn scale(&self) -> u32 {
        self.0.scale()
    }

    /// True when there is no fractional part (`100.00` is whole).
    pub fn is_whole(&self) -> bool {
        self.0.fract().is_zero()
    }

    /// True when the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.0.is_sign_negative() && !self.0.is_zero()
    }

    /// Exact sum, `None` on overflow.
    pub fn checked_add(self, other: Amount) -> Option<Amount> {
        self.0.checked_add(other.0).map(Amount)
    }

    /// Exact difference, `None` on overflow.
    pub fn checked_sub(self, other: Amount) -> Option<Amount> {
        self.0.checked_sub(other.0).map(Amount)
    }

    /// The underlying decimal.
    pub fn as_decimal(&self) -> Decimal {
        self.0
    }
}

impl From<Decimal> for Amount {
    fn from(d: Decimal) -> Amount {
        Amount(d)
    }
}

impl FromStr for Amount {
    type Err = AmountError;

    /// Exact: `-?digits(.digits)?`, at most 28 decimal places, nothing else (no
    /// exponent, sign `+`, whitespace, `NaN`, empty text or lone `.`); never rounds.
    fn from_str(text: &str) -> Result<Amount, AmountError> {
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        let (int, frac) = match unsigned.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (unsigned, None),
        };
        if int.is_empty() {
            return Err(AmountError::new(
                text,
                "digits expected before the decimal point",
            ));
        }
        if !int.bytes().all(|b| b.is_ascii_digit()) {
            return Err(AmountError::new(
                text,
                "only digits, one `.` and a leading `-` are allowed",
            ));
        }
        if let Some(frac) = frac {
            if frac.is_empty() {
                return Err(AmountError::new(
                    text,
                    "digits expected after the decimal point",
                ));
            }
            if !frac.bytes().all(|b| b.is_ascii_digit()) {
                return Err(AmountError::new(
                    text,
                    "only digits, one `.` and a leading `-` are allowed",
                ));
            }
            if frac.len() > MAX_SCALE as usize {
                return Err(AmountError::new(text, "more than 28 decimal places"));
            }
        }
        let mut d =
            Decimal::from_str_exact(text).map_err(|_| AmountError::new(text, "too many digits"))?;
        if d.is_zero() {
            d.set_sign_positive(true);
        }
        Ok(Amount(d))
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// Exact addition; `None` on overflow (`Amount + Amount + Amount` chains through
/// `Option<Amount>`). Never panics, never saturates.
impl std::ops::Add for Amount {
    type Output = Option<Amount>;
    fn add(self, other: Amount) -> Option<Amount> {
        self.checked_add(other)
    }
}

/// Continues a checked sum: `None` stays `None`.
impl std::ops::Add<Amount> for Option<Amount> {
    type Output = Option<Amount>;
    fn add(self, other: Amount) -> Option<Amount> {
        self.and_then(|a| a.checked_add(other))
    }
}

/// Checked sum of amounts: `None` on overflow; the sum of nothing is `Some(ZERO)`.
impl std::iter::Sum<Amount> for Option<Amount> {
    fn sum<I: Iterator<Item = Amount>>(mut iter: I) -> Option<Amount> {
        iter.try_fold(Amount::ZERO, Amount::checked_add)
    }
}

/// Checked sum of borrowed amounts.
impl<'a> std::iter::Sum<&'a Amount> for Option<Amount> {
    fn sum<I: Iterator<Item = &'a Amount>>(mut iter: I) -> Option<Amount> {
        iter.try_fold(Amount::ZERO, |acc, a| acc.checked_add(*a))
    }
}

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// Parses the literal JSON text of a string or number into an amount.
fn from_raw<E: serde::de::Error>(raw: &RawValue) -> Result<Amount, E> {
    let text = raw.get();
    if text.starts_with('"') {
        let s: std::borrow::Cow<'_, str> = serde_json::from_str(text).map_err(E::custom)?;
        s.parse().map_err(E::custom)
    } else {
        text.parse().map_err(E::custom)
    }
}

impl<'de> Deserialize<'de> for Amount {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Amount, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        from_raw(&raw)
    }
}

fn to_raw<E: serde::ser::Error>(a: &Amount) -> Result<Box<RawValue>, E> {
    RawValue::from_string(a.to_string()).map_err(E::custom)
}

/// `#[serde(with = "baas_runtime::amount::number")]`: an [`Amount`] written as a JSON
/// number from its exact text (`100.50`), read from a number or a string.
pub mod number {
    use super::*;

    /// Writes the amount as a JSON number with its exact text.
    pub fn serialize<S: Serializer>(a: &Amount, s: S) -> Result<S::Ok, S::Error> {
        to_raw(a)?.serialize(s)
    }

    /// Reads an amount from a JSON number or string, from its literal text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Amount, D::Error> {
        Amount::deserialize(d)
    }
}

/// [`number`] for `Option<Amount>` (pair with `skip_serializing_if = "Option::is_none"`:
/// a null is never sent).
pub mod option_number {
    use super::*;

    /// Writes `Some` as a JSON number; `None` as null (skip it instead).
    pub fn serialize<S: Serializer>(a: &Option<Amount>, s: S) -> Result<S::Ok, S::Error> {
        match a {
            Some(a) => to_raw(a)?.serialize(s),
            None => s.serialize_none(),
        }
    }

    /// Reads `null` as `None`, a number or string as `Some`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Amount>, D::Error> {
        let raw = Option::<Box<RawValue>>::deserialize(d)?;
        raw.map(|r| from_raw(&r)).transpose()
    }
}

/// [`number`] for `Vec<Amount>`.
pub mod vec_number {
    use super::*;
    use serde::ser::SerializeSeq;

    /// Writes each amount as a JSON number.
    pub fn serialize<S: Serializer>(v: &[Amount], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for a in v {
            seq.serialize_element(&to_raw::<S::Error>(a)?)?;
        }
        seq.end()
    }

    /// Reads an array of numbers or strings.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Amount>, D::Error> {
        let raws = Vec::<Box<RawValue>>::deserialize(d)?;
        raws.iter().map(|r| from_raw(r)).collect()
    }
}

/// [`vec_number`] for `Option<Vec<Amount>>` (pair with `skip_serializing_if =
/// "Option::is_none"`).
pub mod option_vec_number {
    use super::*;

    /// Writes `Some` as an array of JSON numbers; `None` as null (skip it instead).
    pub fn serialize<S: Serializer>(v: &Option<Vec<Amount>>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => vec_number::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    /// Reads `null` as `None`, an array of numbers or strings as `Some`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Amount>>, D::Error> {
        let raws = Option::<Vec<Box<RawValue>>>::deserialize(d)?;
        raws.map(|raws| raws.iter().map(|r| from_raw(r)).collect())
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_arrays_of_number_amounts_round_trip() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct S {
            #[serde(
                with = "option_vec_number",
                default,
                skip_serializing_if = "Option::is_none"
            )]
            v: Option<Vec<Amount>>,
        }
        let s: S = serde_json::from_str(r#"{"v":[1.50,"2"]}"#).unwrap();
        assert_eq!(s.v.as_ref().map(Vec::len), Some(2));
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"v":[1.50,2]}"#);
        let none: S = serde_json::from_str("{}").unwrap();
        assert_eq!(none.v, None);
        assert_eq!(serde_json::to_string(&none).unwrap(), "{}");
    }

    #[test]
    fn parse_exact() {
        for ok in [
            "0",
            "100.50",
            "-1.5",
            "0.0000000000000000000000000001",
            "007.10",
        ] {
            assert!(ok.parse::<Amount>().is_ok(), "{ok}");
        }
        assert_eq!("100.50".parse::<Amount>().unwrap().to_string(), "100.50");
        assert_eq!("-0.00".parse::<Amount>().unwrap().to_string(), "0.00");
        for bad in [
            "",
            "+1",
            " 1",
            "1 ",
            "1e5",
            "1E5",
            "NaN",
            ".",
            ".5",
            "5.",
            "1.2.3",
            "--1",
            "-",
            "1_000",
            "0.00000000000000000000000000001",
            "99999999999999999999999999999999",
        ] {
            assert!(bad.parse::<Amount>().is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn new_and_arithmetic() {
        assert_eq!(Amount::new(10050, 2).to_string(), "100.50");
        assert_eq!(Amount::new(-5, 0).to_string(), "-5");
        assert_eq!(Amount::new(i64::MIN, 0).to_string(), i64::MIN.to_string());
        assert_eq!(Amount::new(1, 40).scale(), 28);
        let sum = Amount::new(150, 2) + Amount::new(25, 1);
        assert_eq!(sum.map(|s| s.to_string()), Some("4.00".to_owned()));
        let max = Amount::from(Decimal::MAX);
        assert_eq!(max + Amount::new(1, 0), None);
        assert_eq!((max + Amount::new(1, 0)) + Amount::ZERO, None);
        let total: Option<Amount> = [Amount::new(1, 0), Amount::new(2, 0)].iter().sum();
        assert_eq!(total, Some(Amount::new(3, 0)));
        assert!(Amount::new(1, 0) > Amount::ZERO);
        assert_eq!(Amount::new(100, 2), Amount::new(1, 0));
    }

    #[test]
    fn serde_forms() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct T {
            s: Amount,
            #[serde(with = "number")]
            n: Amount,
            #[serde(
                with = "option_number",
                skip_serializing_if = "Option::is_none",
                default
            )]
            o: Option<Amount>,
            #[serde(with = "vec_number")]
            v: Vec<Amount>,
        }
        let t = T {
            s: Amount::new(10050, 2),
            n: Amount::new(10050, 2),
            o: Some(Amount::new(1, 3)),
            v: vec![Amount::new(10, 1), Amount::new(-2, 0)],
        };
        let text = serde_json::to_string(&t).unwrap();
        assert_eq!(text, r#"{"s":"100.50","n":100.50,"o":0.001,"v":[1.0,-2]}"#);
        let back: T = serde_json::from_str(&text).unwrap();
        assert_eq!(back.n.to_string(), "100.50");
        assert_eq!(back, t);
        let back: T = serde_json::from_str(r#"{"s":12.30,"n":"7.10","v":["1.10"]}"#).unwrap();
        assert_eq!(
            (back.s.to_string(), back.n.to_string(), back.o),
            ("12.30".into(), "7.10".into(), None)
        );
        assert!(serde_json::from_str::<Amount>("1e3").is_err());
        assert!(serde_json::from_str::<Amount>("true").is_err());
        assert!(serde_json::from_str::<Amount>(r#""1,5""#).is_err());
        // More digits than an f64 holds survive exactly.
        let a: Amount = serde_json::from_str("12345678901234567890.12").unwrap();
        assert_eq!(a.to_string(), "12345678901234567890.12");
    }
}
