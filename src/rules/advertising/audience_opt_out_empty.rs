use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Rule, RuleMeta};

use super::Endpoint;
use crate::catalog::advertising::COMMON;

pub struct AudienceOptOutEmpty;

static META: RuleMeta = RuleMeta {
    name: "audience-opt-out-empty",
    group: Group::Advertising,
    severity: Severity::Warning,
    summary: "an opt-out call that names no people to remove",
    what: "Reports `DELETE /{v}/act_{id}/usersofanyaudience` without any param besides \
           `access_token`: the call takes the fields of a user update (the people to \
           remove), whose names the reference does not show.",
    why: "The opt-out must be made for every person who opted out through the opt-out \
          URL; a call without people removes no one.",
    source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Opt a person out of all audiences",
    bad: example!("audience-opt-out-empty/bad.req.yaml"),
    good: example!("audience-opt-out-empty/good.req.yaml"),
};

impl Rule for AudienceOptOutEmpty {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for (request, endpoint, _) in super::calls(file) {
            if endpoint != Endpoint::AudienceOptOut {
                continue;
            }
            let people = request.params().any(|p| !COMMON.contains(&p.key.as_str()));
            if !people {
                out.push(
                    Diagnostic::new(&META, request.line_span, "the opt-out call names no people to remove")
                        .with_help("add the people's data (the fields of a user update, such as the schema and the hashed data)"),
                );
            }
        }
    }
}
