use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use crate::apis::advertising::{Call, Endpoint};

pub struct AudienceDeletePermanent;

static META: RuleMeta = RuleMeta {
    name: "audience-delete-permanent",
    group: Group::Advertising,
    severity: Severity::Info,
    summary: "deleting an audience is permanent and stops its ads",
    what: "Notes every audience delete: the deletion is permanent, and the ads that use \
           the audience stop running and cannot be restarted.",
    why: "A delete kept in a request file is easy to run by mistake; nothing undoes it.",
    source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Delete an audience",
    fixes: &[],
    inspects: Inspects::Operations(&[Endpoint::AudienceDelete]),
    bad: example!("audience-delete-permanent/bad.req.yaml"),
    good: example!("audience-delete-permanent/good.req.yaml"),
};

impl Rule for AudienceDeletePermanent {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_call(&self, _file: &FileContext<'_>, c: &Call<'_>, out: &mut Vec<Diagnostic>) {
        let request = c.request;

        out.push(
            Diagnostic::new(&META, request.line_span, "deleting an audience is permanent: ads that use it stop and cannot be restarted")
                .with_help("pause the ad sets that use it first; silence this note with `# reqlint: ignore[audience-delete-permanent]`"),
        );
    }
}
