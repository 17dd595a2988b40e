use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Rule, RuleMeta};

pub struct AudienceSubtypeInvalid;

static META: RuleMeta = RuleMeta {
    name: "audience-subtype-invalid",
    group: Group::Advertising,
    severity: Severity::Error,
    summary: "a custom audience `subtype` outside the enum, or COMBINATION",
    what: "Reports a `subtype` of audience create that is not one of the seed's values, with the closest one, and `COMBINATION`, which only the advertiser tool uses and the API refuses.",
    why: "The API refuses the call with error 100 (invalid parameter).",
    source: "seed 001, \"Endpoints\": Create an audience (subtype)",
    bad: example!("audience-subtype-invalid/bad.req.yaml"),
    good: example!("audience-subtype-invalid/good.req.yaml"),
};

impl Rule for AudienceSubtypeInvalid {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        super::report_routed(file, &META, 100, out);
    }
}
