use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AudienceDeleteWithLookalikes {
        name: "audience-delete-with-lookalikes",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "deleting an audience that lookalike audiences are built from",
        what: "Reports the delete of an audience whose context snapshot lists \
               `lookalike_audience_ids`, naming them.",
        why: "The deletion fails with error 2656 while lookalike audiences built from it exist.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Delete an audience, and \"Errors\" (2656)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceDelete]),
        bad: example!("audience-delete-with-lookalikes/bad.req.yaml"),
        good: example!("audience-delete-with-lookalikes/good.req.yaml"),
    }
}

impl Rule for AudienceDeleteWithLookalikes {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let call = &c.call;
        let Some(id) = call.object else { return };
        let Some(audience) = crate::apis::advertising::audience(file.context, &id.text) else {
            return;
        };
        let lookalikes = crate::apis::advertising::string_list(audience, "lookalike_audience_ids");
        if lookalikes.is_empty() {
            return;
        }
        out.push(
            Diagnostic::new(
                &META,
                id.span,
                format!(
                    "audience {} has lookalike audiences: {}",
                    id.text,
                    lookalikes.join(", ")
                ),
            )
            .with_help("delete the lookalike audiences first")
            .with_api_error(2656, None),
        );
    }
}
