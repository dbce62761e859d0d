//! The date of a record in the PDN form, `YYYY.MM.DD` in UTC, from a Unix time in milliseconds
//! (the server's stored creation time). The calendar is the `time` crate's; a time it cannot
//! place gives PDN's unknown date.

use time::OffsetDateTime;

/// PDN's date for an unknown day.
pub const UNKNOWN_DATE: &str = "????.??.??";

/// `YYYY.MM.DD` of a Unix time in milliseconds, in UTC; [`UNKNOWN_DATE`] outside the years the
/// calendar covers (±9999).
#[must_use]
pub fn utc_date(unix_ms: i64) -> String {
    match OffsetDateTime::from_unix_timestamp(unix_ms.div_euclid(1000)) {
        Ok(time) => format!(
            "{:04}.{:02}.{:02}",
            time.year(),
            u8::from(time.month()),
            time.day()
        ),
        Err(_) => UNKNOWN_DATE.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_counted_in_utc_across_leap_days_and_before_1970() {
        assert_eq!(utc_date(0), "1970.01.01");
        assert_eq!(utc_date(86_399_999), "1970.01.01");
        assert_eq!(utc_date(86_400_000), "1970.01.02");
        assert_eq!(utc_date(-1), "1969.12.31");
        assert_eq!(utc_date(1_709_208_000_000), "2024.02.29");
        assert_eq!(utc_date(1_795_392_000_000), "2026.11.23");
        assert_eq!(utc_date(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn a_time_beyond_the_calendar_is_an_unknown_date() {
        assert_eq!(utc_date(i64::MAX), UNKNOWN_DATE);
        assert_eq!(utc_date(i64::MIN), UNKNOWN_DATE);
    }
}
