//! Review dates: the window reviews are written in, leaning towards recent
//! years, and the calendar arithmetic behind it (integer only, after Howard
//! Hinnant's `days_from_civil`), so no date library or clock is involved.

use super::rng::Rng;

/// First and last review date (inclusive).
const FIRST_DAY: (i64, i64, i64) = (2019, 1, 1);
const LAST_DAY: (i64, i64, i64) = (2026, 10, 31);

/// Days since 1970-01-01 of a proleptic Gregorian date (years ≥ 1).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Inverse of [`days_from_civil`].
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A date in the review window, leaning towards recent years as the site grew.
pub(in crate::demo) fn random_date(rng: &mut Rng) -> String {
    let first = days_from_civil(FIRST_DAY.0, FIRST_DAY.1, FIRST_DAY.2);
    let last = days_from_civil(LAST_DAY.0, LAST_DAY.1, LAST_DAY.2);
    let span = (last - first + 1) as usize;
    let mut offset = rng.below(span);
    if rng.chance(0.5) {
        offset = offset.max(rng.below(span));
    }
    let (y, m, d) = civil_from_days(first + offset as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Whether `s` is a real date written `YYYY-MM-DD`.
    pub(in super::super) fn is_valid_date(s: &str) -> bool {
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return false;
        }
        let num = |r: std::ops::Range<usize>| s[r].parse::<u32>().ok();
        let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
            return false;
        };
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let days = match m {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return false,
        };
        (1..=days).contains(&d)
    }

    #[test]
    fn dates_round_trip() {
        let first = days_from_civil(2019, 1, 1);
        let last = days_from_civil(2026, 10, 31);
        assert_eq!(last - first + 1, 2861);
        for day in first..=last {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
            assert!(is_valid_date(&format!("{y:04}-{m:02}-{d:02}")));
        }
        assert_eq!(civil_from_days(days_from_civil(2024, 2, 29)), (2024, 2, 29));
        assert_eq!(
            civil_from_days(days_from_civil(2024, 3, 1) - 1),
            (2024, 2, 29)
        );
    }
}
