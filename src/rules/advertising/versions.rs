//! The advertising API's version calendar (`versions.tsv`), loaded once.

use std::sync::LazyLock;

use crate::model::Version;

/// A calendar date, comparable as (year, month, day).
pub type Date = (i32, u32, u32);

#[derive(Debug)]
pub struct Release {
    pub version: Version,
    pub released: Date,
    pub ends: Option<Date>,
    /// The end date is the project's estimate (written `~YYYY-MM-DD`), not the vendor's.
    pub ends_estimated: bool,
}

#[derive(Debug)]
pub struct Calendar {
    pub checked: String,
    pub releases: Vec<Release>,
}

const TABLE: &str = include_str!("versions.tsv");

pub static CALENDAR: LazyLock<Calendar> = LazyLock::new(|| {
    let checked = TABLE
        .lines()
        .find_map(|l| l.strip_prefix("# checked: "))
        .map(|l| l.split('.').next().unwrap_or(l).to_string())
        .unwrap_or_default();
    let releases = TABLE
        .lines()
        .filter(|l| l.starts_with('v') && l.as_bytes().get(1).is_some_and(u8::is_ascii_digit))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            Release {
                version: Version::parse(cols[0]).expect("versions.tsv: version"),
                released: parse_date(cols[1]).expect("versions.tsv: released"),
                ends: cols
                    .get(2)
                    .and_then(|d| parse_date(d.trim().trim_start_matches('~'))),
                ends_estimated: cols.get(2).is_some_and(|d| d.trim().starts_with('~')),
            }
        })
        .collect();
    Calendar { checked, releases }
});

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
    let cal = &*CALENDAR;
    if let Some(r) = cal.releases.iter().find(|r| r.version == version) {
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
    let oldest = cal.releases.first()?;
    if version < oldest.version {
        let when = oldest
            .ends
            .map(|e| {
                format!(
                    ", and {} itself ended on {}",
                    oldest.version,
                    format_date(e)
                )
            })
            .unwrap_or_default();
        return Some((
            format!("{version} is older than {}{when}", oldest.version),
            oldest.ends.is_some() && !oldest.ends_estimated,
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
