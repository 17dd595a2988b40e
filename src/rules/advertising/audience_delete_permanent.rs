use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AudienceDeletePermanent {
        name: "audience-delete-permanent",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Info,
        summary: "deleting an audience is permanent and stops its ads",
        what: "Notes every audience delete: the deletion is permanent, and the ads that use \
               the audience stop running and cannot be restarted.",
        why: "A delete kept in a request file is easy to run by mistake; nothing undoes it.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Delete an audience",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceDelete]),
        bad: example!("audience-delete-permanent/bad.req.yaml"),
        good: example!("audience-delete-permanent/good.req.yaml"),
    }
}

impl Rule for AudienceDeletePermanent {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;

        out.push(
            Diagnostic::new(&META, request.line_span, "deleting an audience is permanent: ads that use it stop and cannot be restarted")
                .with_help("pause the ad sets that use it first; silence this note with `# reqlint: ignore[audience-delete-permanent]`"),
        );
    }
}
