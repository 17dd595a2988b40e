use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AudienceTravelContentTypeMissing {
        name: "audience-travel-content-type-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "`claim_objective: TRAVEL` without `content_type`",
        what: "Reports an audience create or update with `claim_objective` TRAVEL and no \
               `content_type`, which the reference calls mandatory for that objective. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "The API refuses the call with error 100 (invalid parameter).",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Create an audience (content_type: mandatory for the \
                 TRAVEL claim objective)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceCreate, Operation::AudienceUpdate]),
        bad: example!("audience-travel-content-type-missing/bad.req.yaml"),
        good: example!("audience-travel-content-type-missing/good.req.yaml"),
    }
}

impl Rule for AudienceTravelContentTypeMissing {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint) = (c.request, c.endpoint);

        if !matches!(
            endpoint,
            Operation::AudienceCreate | Operation::AudienceUpdate
        ) {
            return;
        }
        let Some(objective) =
            crate::apis::advertising::valid_param(file, request, "claim_objective")
        else {
            return;
        };
        if objective.value.as_str() == Some("TRAVEL")
            && crate::apis::advertising::absent(request, "content_type")
        {
            out.push(
                Diagnostic::new(
                    &META,
                    objective.value.span,
                    "claim_objective TRAVEL needs a `content_type`",
                )
                .with_help("add `content_type`, for example DESTINATION, FLIGHT or HOTEL")
                .with_api_error(100, None),
            );
        }
    }
}
