use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AudienceEventSourcesInvalid {
        name: "audience-event-sources-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an `event_sources` item lacks its `id` (int64) or `type` (APP, OFFLINE_EVENTS, PAGE, PIXEL)",
        what: "Checks each item of `event_sources` (create and update): it needs `id`, an int64, and `type`, one of APP, OFFLINE_EVENTS, PAGE and PIXEL.",
        why: "The API refuses the call with error 100 (invalid parameter).",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Create an audience and Update an audience (event_sources)",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "an event source's `type` with one close candidate is replaced (`PIXL` → `PIXEL`)",
        }],
        inspects: Inspects::File,
        bad: example!("audience-event-sources-invalid/bad.req.yaml"),
        good: example!("audience-event-sources-invalid/good.req.yaml"),
    }
}

impl Rule for AudienceEventSourcesInvalid {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_routed(
            file,
            &META,
            crate::catalog::advertising::ParamRule::AudienceEventSourcesInvalid,
            100,
            out,
        );
    }
}
