use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{major, version};

crate::declare_rule! {
    pub struct AdSetDatePresetLifetime {
        name: "adset-date-preset-lifetime",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "`date_preset: lifetime` on version 10.0 or later, where `maximum` replaces it",
        what: "For an ad set read (the `date_preset` param or query pair) on a path of version \
               v10.0 or later, reports `date_preset` `lifetime` at its value, with the fix \
               `maximum`. On v9.0 and older the API still takes `lifetime` (as `maximum`, \
               returning the last 37 months), so older versions are not reported here.",
        why: "`lifetime` is deprecated from version 10.0 and replaced by `maximum`; a read \
              that keeps it does not get the statistics window it asks for.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Versioning\" and \"Endpoints\": Read an ad set (date_preset)",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "`date_preset: lifetime` becomes `maximum`",
        }],
        inspects: Inspects::Requests(&[Operation::AdSetRead]),
        bad: example!("adset-date-preset-lifetime/bad.req.yaml"),
        good: example!("adset-date-preset-lifetime/good.req.yaml"),
    }
}

/// The first version without `lifetime`.
const REPLACED_IN: u32 = 10;

impl Rule for AdSetDatePresetLifetime {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(v) = version(request).filter(|v| *v >= major(REPLACED_IN)) else {
            return;
        };
        let Some(entry) = crate::apis::advertising::valid_param(file, request, "date_preset")
        else {
            return;
        };
        if entry.value.as_str().map(str::trim) != Some("lifetime") {
            return;
        }
        out.push(
            Diagnostic::new(
                &META,
                entry.value.span,
                format!(
                    "`date_preset` `lifetime` is deprecated since v{REPLACED_IN}.0 (this call is {v}); `maximum` replaces it"
                ),
            )
            .with_help("write `date_preset: maximum` (statistics of up to the last 37 months)")
            .with_fix_opt(crate::model::edits::written_once_fix(
                file,
                crate::model::edits::rename(
                    file.text,
                    entry.value.span,
                    "lifetime",
                    "maximum",
                    crate::diagnostic::Applicability::Safe,
                ),
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    const CONTEXT: &str = "ad_sets:\n  - {id: '901'}\n";

    #[test]
    fn from_version_10() {
        let yaml = "requests:\n  - GET /v9.0/901?date_preset=lifetime\n  - GET /v10.0/901?date_preset=lifetime\n  - request: GET /v24.0/901\n    params: {date_preset: lifetime}\n  - GET /v24.0/901?date_preset=maximum\n  - request: POST /v24.0/act_1/adsets\n    params: {date_preset: lifetime}\n";
        assert_eq!(
            spans("adset-date-preset-lifetime", CONTEXT, yaml),
            vec!["lifetime", "lifetime"]
        );
    }
}
