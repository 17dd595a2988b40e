use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::versions::{CALENDAR, ended, today};

crate::declare_rule! {
    pub struct AdVersionDeprecated {
        name: "ad-version-deprecated",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "the advertising API version is below the configured minimum, or has ended",
        what: "Reads the `v<major>.<minor>` segment of an advertising path. With \
               `advertising.min-version` in .reqlint.yaml, an older version is an error. \
               Without it, reqlint's built-in calendar tells which versions have ended: every \
               version of the vendor's table of available Graph API versions (v1.0 to v26.0), \
               with the date each was introduced and the date it is available until, and the \
               date the table was last checked. A call to a version past its date, or older \
               than every version of the table, is an error (the API answers 2635). A version \
               whose end the vendor has not announced, or one newer than the table, is not \
               judged (see `ad-version-newer-than-catalog`).",
        why: "A call to a deprecated version fails with error 2635 (or is upgraded to a \
              version whose behaviour the request was not written for).",
        source: "Meta's Graph API changelog, \"Available Graph API Versions\" (https://developers.facebook.com/docs/graph-api/changelog/versions/); Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Errors\" (2635)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("ad-version-deprecated/bad.req.yaml"),
        good: example!("ad-version-deprecated/good.req.yaml"),
    }
}

impl Rule for AdVersionDeprecated {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let today = today();
        for (_, request) in file.requests_of(crate::apis::advertising::ID) {
            let Some(line) = request.line() else {
                continue;
            };
            let Some((version, span)) = line.version else {
                continue;
            };
            if let Some(min) = crate::apis::advertising::settings::settings(file.config).min_version
            {
                if version < min {
                    out.push(
                        Diagnostic::new(
                            &META,
                            span,
                            format!(
                                "{version} is below the minimum version {min} set in .reqlint.yaml"
                            ),
                        )
                        .with_help(format!("call {min} or later"))
                        .with_api_error(2635, None),
                    );
                }
                continue;
            }
            if let Some((why, known)) = ended(version, today) {
                // The vendor's end date: the call fails. An estimate may be wrong.
                let severity = if known {
                    META.severity
                } else {
                    Severity::Warning
                };
                out.push(
                    Diagnostic::new(&META, span, format!("{version} is deprecated: {why}"))
                        .with_severity(severity)
                        .with_help(format!(
                            "call a current version; the calendar was last checked on {} (set `advertising.min-version` to decide yourself)",
                            CALENDAR.checked
                        ))
                        .with_api_error(2635, None),
                );
            }
        }
    }
}
