use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::catalog::advertising::COMMON;

crate::declare_rule! {
    pub struct AudienceOptOutEmpty {
        name: "audience-opt-out-empty",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an opt-out call that names no people to remove",
        what: "Reports `DELETE /{v}/act_{id}/usersofanyaudience` without any param besides \
               `access_token`: the call takes the fields of a user update (the people to \
               remove), whose names the reference does not show. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "The opt-out must be made for every person who opted out through the opt-out \
              URL; a call without people removes no one.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Opt a person out of all audiences",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceOptOut]),
        bad: example!("audience-opt-out-empty/bad.req.yaml"),
        good: example!("audience-opt-out-empty/good.req.yaml"),
    }
}

impl Rule for AudienceOptOutEmpty {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let people = request.params().any(|p| !COMMON.contains(&p.key.as_str()));
        // A body that could not be read may name them.
        if !people && crate::apis::advertising::sends_only_known_params(request) {
            out.push(
                Diagnostic::new(&META, request.line_span, "the opt-out call names no people to remove")
                    .with_help("add the people's data (the fields of a user update, such as the schema and the hashed data)"),
            );
        }
    }
}
