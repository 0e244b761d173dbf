//! The generator's one decimal: exact parsing and comparison of the spec's decimal text
//! (bounds, thresholds), printed in the model JSON as its text.

use serde::Serialize;

/// An exact decimal parsed by the checker (`mantissa × 10^-scale`); integers have scale 0.
/// Printed in the model JSON as its text (`"0.01"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Number {
    pub mantissa: i64,
    pub scale: u32,
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.mantissa.unsigned_abs().to_string();
        let scale = self.scale as usize;
        let sign = if self.mantissa < 0 { "-" } else { "" };
        if scale == 0 {
            return write!(f, "{sign}{digits}");
        }
        let padded = format!("{digits:0>width$}", width = scale + 1);
        let (int, frac) = padded.split_at(padded.len() - scale);
        write!(f, "{sign}{int}.{frac}")
    }
}

/// Why decimal text is not a [`Number`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberError {
    /// Not `-?[0-9]+(\.[0-9]+)?` (exponents, `+`, spaces and commas are refused).
    NotDecimal,
    /// A decimal, but its mantissa does not fit an `i64` or its scale exceeds 28 (what
    /// the generated `Amount::new` takes).
    TooPrecise,
}

impl Number {
    /// Parses decimal text exactly: optional `-`, digits, optional `.` and digits.
    /// Leading zeros of the integer part and trailing zeros of the fraction are dropped
    /// (`01.50` is `1.5`), and `-0` is `0`. The generator's one decimal parser.
    ///
    /// # Errors
    /// [`NumberError`] says whether the text is no decimal or one too precise.
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let (int, frac) = match rest.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (rest, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || frac.is_some_and(|f| !digits(f)) {
            return Err(NumberError::NotDecimal);
        }
        let int = int.trim_start_matches('0');
        let frac = frac.unwrap_or("").trim_end_matches('0');
        let scale = u32::try_from(frac.len())
            .ok()
            .filter(|s| *s <= 28)
            .ok_or(NumberError::TooPrecise)?;
        let mut mantissa: i64 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            mantissa = mantissa
                .checked_mul(10)
                .and_then(|m| m.checked_add(i64::from(b - b'0')))
                .ok_or(NumberError::TooPrecise)?;
        }
        Ok(Number {
            mantissa: if negative { -mantissa } else { mantissa },
            scale,
        })
    }

    /// Compares the values exactly (`1` equals `1.00`), whatever the scales: the
    /// digits are compared as text, so no scaling can overflow.
    pub fn cmp_value(&self, other: &Number) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let sign = |n: &Number| n.mantissa.signum();
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal if self.mantissa == 0 => Ordering::Equal,
            Ordering::Equal => {
                let magnitude = Self::cmp_magnitude(self, other);
                if self.mantissa < 0 {
                    magnitude.reverse()
                } else {
                    magnitude
                }
            }
            other => other,
        }
    }

    /// Compares `|a|` and `|b|`: integer digits by length then text, then fractions.
    fn cmp_magnitude(a: &Number, b: &Number) -> std::cmp::Ordering {
        let parts = |n: &Number| {
            let digits = n.mantissa.unsigned_abs().to_string();
            let scale = n.scale as usize;
            let padded = format!("{digits:0>width$}", width = scale + 1);
            let (int, frac) = padded.split_at(padded.len() - scale);
            (
                int.trim_start_matches('0').to_owned(),
                frac.trim_end_matches('0').to_owned(),
            )
        };
        let ((ai, af), (bi, bf)) = (parts(a), parts(b));
        ai.len()
            .cmp(&bi.len())
            .then_with(|| ai.cmp(&bi))
            .then_with(|| af.cmp(&bf))
    }
}

impl Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::{Number, NumberError};
    use std::cmp::Ordering;

    fn n(text: &str) -> Number {
        Number::parse(text).expect(text)
    }

    #[test]
    fn numbers_are_exact_or_refused() {
        let text = |s: &str| Number::parse(s).map(|n| n.to_string());
        assert_eq!(text("0.01").as_deref(), Ok("0.01"));
        assert_eq!(text("-12.50").as_deref(), Ok("-12.5"));
        assert_eq!(text("99999999").as_deref(), Ok("99999999"));
        assert_eq!(text("000").as_deref(), Ok("0"));
        assert_eq!(text("-0.00").as_deref(), Ok("0"));
        assert_eq!(
            text("9223372036854775807").as_deref(),
            Ok("9223372036854775807")
        );
        assert_eq!(text("99999999999999999999"), Err(NumberError::TooPrecise));
        let fine = format!("0.{}1", "0".repeat(28));
        assert_eq!(text(&fine), Err(NumberError::TooPrecise), "scale above 28");
        for bad in ["", "-", "1.", ".5", "1e3", "+1", " 1", "1,5", "abc"] {
            assert_eq!(Number::parse(bad), Err(NumberError::NotDecimal), "{bad}");
        }
    }

    #[test]
    fn values_compare_exactly_whatever_the_scale() {
        assert_eq!(n("1").cmp_value(&n("99999999")), Ordering::Less);
        assert_eq!(n("0.5").cmp_value(&n("1")), Ordering::Less);
        assert_eq!(n("-2").cmp_value(&n("-1.5")), Ordering::Less);
        assert_eq!(n("1.50").cmp_value(&n("01.5")), Ordering::Equal);
        assert_eq!(n("100.01").cmp_value(&n("100.001")), Ordering::Greater);
        let big = Number {
            mantissa: i64::MAX,
            scale: 0,
        };
        let tiny = Number {
            mantissa: i64::MAX,
            scale: 28,
        };
        assert_eq!(big.cmp_value(&tiny), Ordering::Greater);
        assert_eq!(tiny.cmp_value(&big), Ordering::Less);
        let same = Number {
            mantissa: 100,
            scale: 2,
        };
        assert_eq!(same.cmp_value(&n("1")), Ordering::Equal);
    }
}
