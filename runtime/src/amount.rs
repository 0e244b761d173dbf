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

    /// Exact sum, with the larger scale of the two (`1.50 + 2.5` is `4.00`); `None` when
    /// the exact sum does not fit an amount (more than 96 bits of digits at 28 places
    /// or fewer). Never rounds: `rust_decimal`'s own addition rounds such a sum to fewer
    /// places (`10000000000000000000.5 + 0.000000000001` gives
    /// `10000000000000000000.500000000`); this gives `None`.
    pub fn checked_add(self, other: Amount) -> Option<Amount> {
        exact_sum(self.0, other.0)
            .or_else(|| exact_sum(self.0.normalize(), other.0.normalize()))
            .map(Amount)
    }

    /// Exact difference, `None` when it does not fit an amount (never rounds, as
    /// [`Amount::checked_add`]).
    pub fn checked_sub(self, other: Amount) -> Option<Amount> {
        self.checked_add(Amount(-other.0))
    }

    /// Exact total of any number of amounts (owned or borrowed), `None` as soon as a
    /// partial sum does not fit an amount; the total of nothing is `Some(ZERO)`.
    ///
    /// `Option`, as `u64::checked_add`, because adding amounts can fail: an amount is a
    /// 96-bit integer and a scale, so a sum can need more digits than it holds. The
    /// SDK never rounds money and never panics on it, so there is no `Amount: Sum` or
    /// `Amount: AddAssign` that would have to do one or the other; `iter.sum::<Option<Amount>>()`
    /// and `total += amount` on an `Option<Amount>` do the same as this.
    ///
    /// ```
    /// use baas_runtime::Amount;
    /// let fees = ["1.50", "2.25", "0.25"].map(|t| t.parse::<Amount>().unwrap());
    /// assert_eq!(Amount::checked_sum(&fees), Some("4.00".parse().unwrap()));
    /// assert_eq!(fees.iter().sum::<Option<Amount>>(), Amount::checked_sum(fees));
    ///
    /// let mut total = Some(Amount::ZERO);
    /// for fee in fees {
    ///     total += fee;
    /// }
    /// assert_eq!(total.map(|t| t.to_string()).as_deref(), Some("4.00"));
    /// ```
    pub fn checked_sum<I>(amounts: I) -> Option<Amount>
    where
        I: IntoIterator,
        I::Item: std::borrow::Borrow<Amount>,
    {
        use std::borrow::Borrow;
        amounts
            .into_iter()
            .try_fold(Amount::ZERO, |acc, a| acc.checked_add(*a.borrow()))
    }

    /// The underlying decimal.
    pub fn as_decimal(&self) -> Decimal {
        self.0
    }
}

/// `a + b` at the larger scale of the two, when that fits an amount: the operand with the
/// smaller scale is multiplied up in 128 bits, the sum is kept if it fits 96 bits, else
/// its trailing zeros are dropped until it fits (`None` when it never does).
fn exact_sum(a: Decimal, b: Decimal) -> Option<Decimal> {
    let scale = a.scale().max(b.scale());
    let up = |d: Decimal| -> Option<i128> {
        10i128
            .checked_pow(scale - d.scale())
            .and_then(|f| d.mantissa().checked_mul(f))
    };
    let (mut mantissa, mut scale) = (up(a)?.checked_add(up(b)?)?, scale);
    // Largest mantissa an amount holds: 2^96 - 1.
    const MAX: i128 = (1 << 96) - 1;
    while mantissa.unsigned_abs() > MAX.unsigned_abs() {
        if scale == 0 || mantissa % 10 != 0 {
            return None;
        }
        mantissa /= 10;
        scale -= 1;
    }
    Decimal::try_from_i128_with_scale(mantissa, scale).ok()
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

/// Exact addition ([`Amount::checked_add`]); `None` when the exact sum does not fit an
/// amount (`Amount + Amount + Amount` chains through `Option<Amount>`). Never panics,
/// never saturates, never rounds.
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

/// Continues a running total: `total += amount` on a `Some(ZERO)` start; `None` once a
/// partial sum does not fit an amount, and stays `None` (see [`Amount::checked_sum`]).
impl std::ops::AddAssign<Amount> for Option<Amount> {
    fn add_assign(&mut self, other: Amount) {
        *self = self.and_then(|a| a.checked_add(other));
    }
}

/// [`AddAssign<Amount>`](std::ops::AddAssign) for a borrowed amount.
impl<'a> std::ops::AddAssign<&'a Amount> for Option<Amount> {
    fn add_assign(&mut self, other: &'a Amount) {
        *self += *other;
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

    fn a(text: &str) -> Amount {
        text.parse().unwrap()
    }

    #[test]
    fn sums_never_round() {
        // rust_decimal rounds each of these to fewer places; an amount sum refuses.
        assert_eq!(a("10000000000000000000.5") + a("0.000000000001"), None);
        assert_eq!(Amount::from(Decimal::MAX) + a("0.1"), None);
        assert_eq!(
            a("7.9228162514264337593543950335") + Amount::new(1, 28),
            None
        );
        assert_eq!(
            a("1")
                .checked_sub(a("0.0000000000000000000000000001"))
                .map(|d| d.to_string()),
            Some("0.9999999999999999999999999999".to_owned())
        );
        assert_eq!(
            a("-10000000000000000000.5").checked_sub(a("0.000000000001")),
            None
        );
        // Exact sums that only fit once trailing zeros go are kept, at fewer places.
        let big = a("10000000000000000000000000000");
        let sum = big + a("5.0000000000000000000000000000");
        assert_eq!(
            sum.map(|s| s.to_string()).as_deref(),
            Some("10000000000000000000000000005")
        );
        assert_eq!(
            a("-39614081257132168796771975168") + a("-39614081257132168796771975167"),
            Some(a("-79228162514264337593543950335"))
        );
        assert_eq!(
            a("-39614081257132168796771975168") + a("-39614081257132168796771975168"),
            None
        );
        // The larger scale is kept; zero adds nothing but its places.
        assert_eq!(
            (a("0.00") + a("5")).map(|s| s.to_string()).as_deref(),
            Some("5.00")
        );
        assert_eq!(
            (a("1.50") + a("-1.5")).map(|s| s.to_string()).as_deref(),
            Some("0.00")
        );
        // Against i128 arithmetic on a spread of mantissas and scales.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (m1, m2) = (x as i64 >> (x % 40), (x.rotate_left(21) as i64) >> (x % 23));
            // Scales at most 9 apart: the exact sum fits an amount.
            let s1 = (x % 29) as u32;
            let s2 = (s1 + (x.rotate_left(7) % 19) as u32)
                .saturating_sub(9)
                .min(28);
            let sum = Amount::new(m1, s1)
                .checked_add(Amount::new(m2, s2))
                .unwrap();
            let s = s1.max(s2);
            let want = i128::from(m1) * 10i128.pow(s - s1) + i128::from(m2) * 10i128.pow(s - s2);
            assert_eq!(
                sum.as_decimal(),
                Decimal::from_i128_with_scale(want, s),
                "{m1}e-{s1} + {m2}e-{s2}"
            );
            assert_eq!(sum.scale(), s);
        }
    }

    #[test]
    fn totals() {
        let fees = [a("1.50"), a("2.25"), a("0.25")];
        assert_eq!(
            Amount::checked_sum(fees).map(|t| t.to_string()).as_deref(),
            Some("4.00")
        );
        assert_eq!(Amount::checked_sum(fees.iter()), Some(a("4")));
        assert_eq!(
            Amount::checked_sum(Vec::<Amount>::new()),
            Some(Amount::ZERO)
        );
        let mut total = Some(Amount::ZERO);
        for fee in &fees {
            total += fee;
        }
        total += a("1");
        assert_eq!(total, Some(a("5")));
        total += Amount::from(Decimal::MAX);
        assert_eq!(total, None);
        total += Amount::ZERO;
        assert_eq!(total, None, "a total that did not fit stays None");
        let over = [Amount::from(Decimal::MAX), a("1"), a("-1")];
        assert_eq!(Amount::checked_sum(over), None);
        assert_eq!(over.iter().sum::<Option<Amount>>(), None);
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
