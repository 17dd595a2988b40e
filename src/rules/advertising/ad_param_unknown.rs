use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use super::params::IssueKind;

pub struct AdParamUnknown;

static META: RuleMeta = RuleMeta {
    name: "ad-param-unknown",
    group: Group::Advertising,
    severity: Severity::Warning,
    summary: "an advertising param, or an enum value, that the reference's tables do not list",
    what: "Reports a param that the endpoint's table does not list, with the closest \
           known name, and a value outside an enum whose list the reference says is incomplete \
           (destination_type). A warning, not an error: the references' tables are not the \
           whole API. `access_token` and `appsecret_proof` are taken by every call.",
    why: "A misspelt param is silently ignored by the API: the ad set or audience is \
          created without what the author meant to set.",
    source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/) and Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\"",
    inspects: Inspects::File,
    bad: example!("ad-param-unknown/bad.req.yaml"),
    good: example!("ad-param-unknown/good.req.yaml"),
};

impl Rule for AdParamUnknown {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        super::report_param_issues(
            file,
            &META,
            |k| matches!(k, IssueKind::Unknown | IssueKind::OutsideOpenEnum),
            None,
            out,
        );
    }
}
