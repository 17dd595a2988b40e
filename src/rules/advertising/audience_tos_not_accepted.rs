use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Node;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AudienceTosNotAccepted {
        name: "audience-tos-not-accepted",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "creating an audience in an account that has not accepted the custom audience terms",
        what: "For an audience create, looks up the ad account in the context snapshots and \
               reports it when its `tos_accepted` does not hold `custom_audience_tos: 1`. An \
               account the context does not hold, or without `tos_accepted`, is not judged.",
        why: "Business users must accept the custom audience terms of service before using \
              audiences; the create fails with error 2663.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), overview, \"Authentication\" and \"Errors\" (2663)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceCreate]),
        bad: example!("audience-tos-not-accepted/bad.req.yaml"),
        good: example!("audience-tos-not-accepted/good.req.yaml"),
    }
}

impl Rule for AudienceTosNotAccepted {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let call = &c.call;
        let Some(account) = call.account else {
            return;
        };
        let Some(tos) = crate::apis::advertising::account(file.context, &account.text)
            .and_then(|a| a.get_value("tos_accepted"))
        else {
            return;
        };
        let accepted = tos.get_value("custom_audience_tos").and_then(Node::as_i64) == Some(1);
        if !accepted {
            out.push(
                Diagnostic::new(&META, account.span, format!("ad account {} has not accepted the custom audience terms", account.text))
                    .with_help("accept the custom audience terms of service for the account, then create the audience")
                    .with_api_error(2663, None),
            );
        }
    }
}
