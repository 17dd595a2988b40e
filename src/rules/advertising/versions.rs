//! The advertising API's version calendar (compiled from
//! `catalog/advertising/versions.tsv`) and the date arithmetic that judges it.

use crate::catalog::advertising::{RELEASES, Release, VERSIONS_CHECKED};
use crate::model::Version;

pub use crate::catalog::advertising::Date;

/// The calendar: its releases, oldest first, and when it was last checked.
pub struct Calendar {
    pub checked: &'static str,
    pub releases: &'static [Release],
}

pub static CALENDAR: Calendar = Calendar {
    checked: VERSIONS_CHECKED,
    releases: RELEASES,
};

fn version_of(release: &Release) -> Version {
    Version {
        major: release.version.0,
        minor: release.version.1,
    }
}

pub fn parse_date(text: &str) -> Option<Date> {
    let mut parts = text.trim().split('-');
    let y = parts.next()?.parse().ok()?;
    let m = parts.next()?.parse().ok()?;
    let d = parts.next()?.parse().ok()?;
    Some((y, m, d))
}

pub fn format_date((y, m, d): Date) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

/// Today's date (UTC), from the system clock.
pub fn today() -> Date {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days((secs / 86_400) as i64)
}

/// Days since 1970-01-01 to a (year, month, day), proleptic Gregorian.
fn civil_from_days(days: i64) -> Date {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = (yoe + era * 400 + i64::from(m <= 2)) as i32;
    (y, m, d)
}

/// Why a version can no longer be called on `today`, if it cannot, and whether the end
/// is the vendor's (`true`) or an estimate.
pub fn ended(version: Version, today: Date) -> Option<(String, bool)> {
    let cal = &CALENDAR;
    if let Some(r) = cal.releases.iter().find(|r| version_of(r) == version) {
        return r.ends.filter(|&end| end < today).map(|end| {
            if r.ends_estimated {
                (
                    format!(
                        "{version} is estimated to have stopped working on {}",
                        format_date(end)
                    ),
                    false,
                )
            } else {
                (
                    format!("{version} stopped working on {}", format_date(end)),
                    true,
                )
            }
        });
    }
    let oldest_release = cal.releases.first()?;
    let oldest = version_of(oldest_release);
    if version < oldest {
        let when = oldest_release
            .ends
            .map(|e| format!(", and {oldest} itself ended on {}", format_date(e)))
            .unwrap_or_default();
        return Some((
            format!("{version} is older than {oldest}{when}"),
            oldest_release.ends.is_some() && !oldest_release.ends_estimated,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_loads() {
        assert!(CALENDAR.releases.len() >= 9);
        assert_eq!(CALENDAR.checked, "2026-11-22");
        assert!(
            CALENDAR
                .releases
                .windows(2)
                .all(|w| w[0].version < w[1].version)
        );
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_514), (2026, 3, 2));
    }

    #[test]
    fn ended_versions() {
        let v = |s| Version::parse(s).unwrap();
        let (why, known) = ended(v("v16.0"), (2024, 3, 1)).unwrap();
        assert!(why.contains("2024-02-06"));
        // The vendor stated v16.0's end: the call fails, an error.
        assert!(known);
        assert_eq!(ended(v("v16.0"), (2024, 1, 1)), None);
        let (why, known) = ended(v("v11.0"), (2020, 1, 1)).unwrap();
        assert!(why.contains("older than v16.0"));
        assert!(known);
        assert_eq!(ended(v("v24.0"), (2030, 1, 1)), None);
        assert_eq!(ended(v("v99.0"), (2030, 1, 1)), None);
    }
}
