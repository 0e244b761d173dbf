//! Exact decimal text (`-12.50`): parse and compare without floating point.

use std::cmp::Ordering;

use crate::model::Number;

/// A decimal number written as text: optional `-`, digits, optional `.` and digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dec {
    negative: bool,
    /// Integer digits without leading zeros (empty for zero).
    int: String,
    /// Fraction digits without trailing zeros.
    frac: String,
}

impl Dec {
    /// Parses `-?[0-9]+(\.[0-9]+)?`; anything else (exponents, `+`, spaces) is refused.
    pub(crate) fn parse(text: &str) -> Option<Dec> {
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
            return None;
        }
        let int = int.trim_start_matches('0').to_owned();
        let frac = frac.unwrap_or("").trim_end_matches('0').to_owned();
        let zero = int.is_empty() && frac.is_empty();
        Some(Dec {
            negative: negative && !zero,
            int,
            frac,
        })
    }

    /// The exact value as a model [`Number`] (`mantissa × 10^-scale`), or `None` when the
    /// mantissa does not fit an `i64` or the scale exceeds 28 (what the generated
    /// `Amount::new` takes).
    pub(crate) fn number(&self) -> Option<Number> {
        let scale = u32::try_from(self.frac.len()).ok().filter(|s| *s <= 28)?;
        let mut mantissa: i64 = 0;
        for b in self.int.bytes().chain(self.frac.bytes()) {
            mantissa = mantissa.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
        }
        Some(Number {
            mantissa: if self.negative { -mantissa } else { mantissa },
            scale,
        })
    }

    fn cmp_magnitude(&self, other: &Dec) -> Ordering {
        self.int
            .len()
            .cmp(&other.int.len())
            .then_with(|| self.int.cmp(&other.int))
            .then_with(|| self.frac.cmp(&other.frac))
    }
}

impl PartialOrd for Dec {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dec {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dec {
        Dec::parse(s).expect(s)
    }

    #[test]
    fn numbers_are_exact_or_refused() {
        let n = |s: &str| d(s).number().map(|n| n.to_string());
        assert_eq!(n("0.01").as_deref(), Some("0.01"));
        assert_eq!(n("-12.50").as_deref(), Some("-12.5"));
        assert_eq!(n("99999999").as_deref(), Some("99999999"));
        assert_eq!(n("000").as_deref(), Some("0"));
        assert_eq!(
            n("9223372036854775807").as_deref(),
            Some("9223372036854775807")
        );
        assert_eq!(n("99999999999999999999"), None, "beyond i64");
        assert_eq!(n(&format!("0.{}1", "0".repeat(28))), None, "scale above 28");
    }

    #[test]
    fn parses_and_orders() {
        assert!(d("1") < d("99999999"));
        assert!(d("0.5") < d("1"));
        assert!(d("-2") < d("-1.5"));
        assert_eq!(d("1.50"), d("01.5"));
        assert_eq!(d("-0"), d("0.00"));
        assert!(d("100.01") > d("100.001"));
        for bad in ["", "-", "1.", ".5", "1e3", "+1", " 1", "1,5", "abc"] {
            assert!(Dec::parse(bad).is_none(), "{bad}");
        }
    }
}
