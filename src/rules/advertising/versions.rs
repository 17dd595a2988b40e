//! The advertising API's version calendar (compiled from
//! `catalog/advertising/versions.tsv`) and the date arithmetic that judges it.

use crate::catalog::advertising::{RELEASES, Release, VERSIONS_CHECKED};
use crate::model::Version;

pub use crate::rules::shelf::time::Date;

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

pub use crate::rules::shelf::time::{format_date, today};

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
