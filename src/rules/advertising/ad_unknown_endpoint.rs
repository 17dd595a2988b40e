use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use super::endpoint::{Recognized, recognize};

pub struct AdUnknownEndpoint;

static META: RuleMeta = RuleMeta {
    name: "ad-unknown-endpoint",
    group: Group::Advertising,
    severity: Severity::Warning,
    summary: "an advertising path or method that no endpoint of the references matches",
    what: "Recognizes the advertising endpoints of Meta's Marketing API reference (custom audiences and ad sets) from method and \
           path: create an audience (`POST /{v}/act_{id}/customaudiences`), read, update \
           and delete an object by id (`GET|POST|DELETE /{v}/{id}`), the opt-out \
           (`DELETE /{v}/act_{id}/usersofanyaudience`), create an ad set \
           (`POST /{v}/act_{id}/adsets`) and copy one (`POST /{v}/{id}/copies`). Any \
           other advertising path or method is reported, and its params are not checked.",
    why: "A typo in the path sends the call nowhere (the API answers an unknown path \
          error), and reqlint cannot check what it does not recognize.",
    source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/) and Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\"",
    inspects: Inspects::File,
    bad: example!("ad-unknown-endpoint/bad.req.yaml"),
    good: example!("ad-unknown-endpoint/good.req.yaml"),
};

impl Rule for AdUnknownEndpoint {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for request in &file.model.requests {
            if let Some(Recognized::NoEndpoint { line, reason }) = recognize(request, file.context)
            {
                out.push(
                    Diagnostic::new(
                        &META,
                        line.path_span,
                        format!(
                            "no advertising endpoint matches `{} {}`",
                            line.method, line.path
                        ),
                    )
                    .with_help(reason),
                );
            }
        }
    }
}
