use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AudienceRetentionDaysRange {
        name: "audience-retention-days-range",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "`retention_days` is outside 1 to 180",
        what: "Reports a custom audience's `retention_days` that is not an integer from 1 to 180 (the default, when it is left out, is forever).",
        why: "The API refuses the call with error 100 (invalid parameter).",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Resources and their fields\" (retention_days) and \"Limits\"",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("audience-retention-days-range/bad.req.yaml"),
        good: example!("audience-retention-days-range/good.req.yaml"),
    }
}

impl Rule for AudienceRetentionDaysRange {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_routed(
            file,
            &META,
            crate::catalog::advertising::ParamRule::AudienceRetentionDaysRange,
            100,
            out,
        );
    }
}
