//! [`Date`]: a day of the calendar, sent and received as `YYYY-MM-DD` (decision `date-type`).
//!
//! The SDK depends on no date crate (neither `chrono` nor `time` is in its tree), so this is
//! a small validated type: a proleptic Gregorian date from year 0001 to 9999, built from its
//! parts ([`Date::new`]), its text ([`str::parse`]), its day number ([`Date::from_days`]) or
//! the clock ([`Date::today_utc`]), and moved by whole days ([`Date::add_days`]). A
//! `chrono::NaiveDate` or `time::Date` converts through [`Date::new`] and [`Date::year`],
//! [`Date::month`], [`Date::day`].

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

/// A day of the calendar (proleptic Gregorian, years 1 to 9999), written `YYYY-MM-DD` on the
/// wire. Always a real day: `2026-02-30` cannot be built.
///
/// ```
/// use baas_runtime::Date;
///
/// let day: Date = "2026-11-27".parse()?;
/// assert_eq!(day.to_string(), "2026-11-27");
/// assert_eq!(day.add_days(-1), Some(Date::new(2026, 11, 26)?));
/// let yesterday = Date::today_utc().add_days(-1); // the last day that has ended (UTC)
/// # let _ = yesterday;
/// assert!("2026-02-30".parse::<Date>().is_err());
/// # Ok::<(), baas_runtime::DateError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// Why a text or parts are no [`Date`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateError {
    what: String,
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a date YYYY-MM-DD of the calendar (years 0001 to 9999)",
            self.what
        )
    }
}

impl std::error::Error for DateError {}

fn leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl Date {
    /// The date of these parts, when they name a day of the calendar.
    pub fn new(year: i32, month: u32, day: u32) -> Result<Date, DateError> {
        let (y, m, d) = (i64::from(year), i64::from(month), i64::from(day));
        if !(1..=9999).contains(&y) || !(1..=days_in_month(y, m)).contains(&d) {
            return Err(DateError {
                what: format!("{year:04}-{month:02}-{day:02}"),
            });
        }
        // In range: the casts cannot truncate.
        Ok(Date {
            year: y as u16,
            month: m as u8,
            day: d as u8,
        })
    }

    /// Its year (1 to 9999).
    pub fn year(self) -> i32 {
        i32::from(self.year)
    }

    /// Its month (1 to 12).
    pub fn month(self) -> u32 {
        u32::from(self.month)
    }

    /// Its day of the month (1 to 31).
    pub fn day(self) -> u32 {
        u32::from(self.day)
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn days(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let (y, m, d) = (
            i64::from(self.year),
            i64::from(self.month),
            i64::from(self.day),
        );
        let y = if m <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` days after 1970-01-01; `None` outside years 1 to 9999.
    pub fn from_days(days: i64) -> Option<Date> {
        // Howard Hinnant's civil_from_days.
        let z = days.checked_add(719_468)?;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let d = doy - (153 * mp + 2) / 5 + 1;
        let m = if mp < 10 { mp + 3 } else { mp - 9 };
        let y = yoe + era * 400 + i64::from(m <= 2);
        Date::new(
            i32::try_from(y).ok()?,
            u32::try_from(m).ok()?,
            u32::try_from(d).ok()?,
        )
        .ok()
    }

    /// The date `n` days later (earlier for a negative `n`); `None` outside years 1 to 9999.
    pub fn add_days(self, n: i64) -> Option<Date> {
        Date::from_days(self.days().checked_add(n)?)
    }

    /// Today in UTC, by the system clock (the service's dates are UTC days).
    pub fn today_utc() -> Date {
        let secs = match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
            Err(before) => -i64::try_from(before.duration().as_secs()).unwrap_or(i64::MAX),
        };
        // A clock outside years 1 to 9999 is a broken clock: the nearest day it can name.
        Date::from_days(secs.div_euclid(86_400)).unwrap_or(if secs < 0 {
            Date {
                year: 1,
                month: 1,
                day: 1,
            }
        } else {
            Date {
                year: 9999,
                month: 12,
                day: 31,
            }
        })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = DateError;

    /// Exactly `YYYY-MM-DD` (four, two and two ASCII digits) naming a day of the calendar.
    fn from_str(text: &str) -> Result<Date, DateError> {
        let err = || DateError {
            what: format!("`{}`", text.chars().take(40).collect::<String>()),
        };
        let b = text.as_bytes();
        let shape = b.len() == 10
            && b.iter().enumerate().all(|(i, c)| match i {
                4 | 7 => *c == b'-',
                _ => c.is_ascii_digit(),
            });
        if !shape {
            return Err(err());
        }
        let part = |r: std::ops::Range<usize>| text[r].parse::<u32>().map_err(|_| err());
        let year = i32::try_from(part(0..4)?).map_err(|_| err())?;
        Date::new(year, part(5..7)?, part(8..10)?).map_err(|_| err())
    }
}

impl serde::Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Date {
    /// A JSON string `YYYY-MM-DD`; any other text or type is refused with the field named.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Date, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Date;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a date YYYY-MM-DD")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Date, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_only_real_days_parse() {
        for text in [
            "0001-01-01",
            "1970-01-01",
            "2024-02-29",
            "2026-11-27",
            "9999-12-31",
        ] {
            assert_eq!(text.parse::<Date>().unwrap().to_string(), text);
        }
        for bad in [
            "2026-13-45",
            "2026-02-30",
            "2025-02-29",
            "2100-02-29",
            "2026-00-10",
            "0000-01-01",
            "2026-1-01",
            "26-01-01x",
            "2026/01/01",
            "+2026-01-01",
            "2026-01-01T00:00:00Z",
            "",
        ] {
            let e = bad.parse::<Date>().unwrap_err();
            assert!(
                e.to_string().contains("is not a date YYYY-MM-DD"),
                "{bad}: {e}"
            );
        }
        assert!(Date::new(2026, 2, 29).is_err());
        assert_eq!(Date::new(2026, 11, 27).unwrap().month(), 11);
    }

    #[test]
    fn days_are_counted_from_1970_both_ways() {
        let d = |t: &str| t.parse::<Date>().unwrap();
        assert_eq!(d("1970-01-01").days(), 0);
        assert_eq!(d("2000-03-01").days(), 11_017);
        assert_eq!(d("2024-02-29").days(), 19_782);
        assert_eq!(d("1969-12-31").days(), -1);
        for days in (-719_162..=2_932_896).step_by(997) {
            assert_eq!(Date::from_days(days).unwrap().days(), days);
        }
        assert_eq!(Date::from_days(-719_163), None, "before 0001-01-01");
        assert_eq!(Date::from_days(2_932_897), None, "after 9999-12-31");
        assert_eq!(d("2026-03-01").add_days(-1), Some(d("2026-02-28")));
        assert_eq!(d("2024-12-31").add_days(1), Some(d("2025-01-01")));
        assert_eq!(d("9999-12-31").add_days(1), None);
        assert!(Date::today_utc() > d("2026-01-01"));
    }

    #[test]
    fn serde_is_the_text() {
        let day: Date = serde_json::from_str("\"2026-11-27\"").unwrap();
        assert_eq!(serde_json::to_string(&day).unwrap(), "\"2026-11-27\"");
        assert!(serde_json::from_str::<Date>("\"27/11/2026\"").is_err());
        assert!(serde_json::from_str::<Date>("20261127").is_err());
    }
}
