//! The advertising API's version calendar (compiled from
//! `catalog/advertising/versions.tsv`) and the date arithmetic that judges it.

use crate::catalog::advertising::{RELEASES, Release, VERSIONS_CHECKED};
use crate::model::Version;

pub use crate::model::time::Date;

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

pub use crate::model::time::{format_date, today};

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
        // Every version the vendor lists, v1.0 to v26.0.
        assert_eq!(CALENDAR.releases.len(), 41);
        assert_eq!(CALENDAR.checked, "2026-11-26");
        assert!(
            CALENDAR
                .releases
                .windows(2)
                .all(|w| w[0].version < w[1].version && w[0].released < w[1].released)
        );
        // The vendor's dates, not estimates.
        assert!(CALENDAR.releases.iter().all(|r| !r.ends_estimated));
    }

    #[test]
    fn ended_versions() {
        let v = |s| Version::parse(s).unwrap();
        // v16.0: introduced 2023-02-02, available until 2025-05-14.
        let (why, known) = ended(v("v16.0"), (2025, 5, 15)).unwrap();
        assert!(why.contains("2025-05-14"), "{why}");
        assert!(known);
        assert_eq!(ended(v("v16.0"), (2025, 5, 14)), None);
        // v17.0 ended on 2025-09-12; v2.12 (two digits of minor) on 2020-05-05.
        assert!(
            ended(v("v17.0"), (2026, 11, 26))
                .unwrap()
                .0
                .contains("2025-09-12")
        );
        assert!(
            ended(v("v2.12"), (2026, 11, 26))
                .unwrap()
                .0
                .contains("2020-05-05")
        );
        assert_eq!(ended(v("v2.12"), (2020, 5, 5)), None);
        // Older than every row.
        let (why, known) = ended(v("v0.9"), (2020, 1, 1)).unwrap();
        assert!(why.contains("older than v1.0"), "{why}");
        assert!(known);
        // Available until a date not reached, or no end announced, or newer than the table.
        assert_eq!(ended(v("v24.0"), (2026, 11, 26)), None);
        assert_eq!(ended(v("v26.0"), (2030, 1, 1)), None);
        assert_eq!(ended(v("v99.0"), (2030, 1, 1)), None);
    }
}
