use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AudienceSubtypeInvalid {
        name: "audience-subtype-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "a custom audience `subtype` outside the enum, or COMBINATION",
        what: "Reports a `subtype` of audience create that is not one of the reference's values, with the closest one, and `COMBINATION`, which only the advertiser tool uses and the API refuses.",
        why: "The API refuses the call with error 100 (invalid parameter).",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Create an audience (subtype)",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "a subtype with one close candidate is replaced (`WEBSIT` → `WEBSITE`)",
        }],
        inspects: Inspects::File,
        bad: example!("audience-subtype-invalid/bad.req.yaml"),
        good: example!("audience-subtype-invalid/good.req.yaml"),
    }
}

impl Rule for AudienceSubtypeInvalid {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_routed(
            file,
            &META,
            crate::catalog::advertising::ParamRule::AudienceSubtypeInvalid,
            100,
            out,
        );
    }
}
