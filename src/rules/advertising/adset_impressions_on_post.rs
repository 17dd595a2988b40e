use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Node;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::adset_lookup::{ad_set, campaign, id_text, major, text, version};
use crate::apis::advertising::{Operation, Sent};

crate::declare_rule! {
    pub struct AdSetImpressionsOnPost {
        name: "adset-impressions-on-post",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "the IMPRESSIONS goal for ON_POST or the legacy Post Engagement objective from v20.0",
        what: "For an ad set create or update on version v20.0 or later, reports \
               `optimization_goal` IMPRESSIONS when the ad set's `destination_type` is ON_POST, \
               or when its campaign (context `campaigns`, by `campaign_id`) has the legacy \
               objective POST_ENGAGEMENT. For an update, what the request does not send is read \
               from the ad set's snapshot in the context (`optimization_goal`, \
               `destination_type`, `campaign_id`); an update that sends neither the goal nor \
               the destination is not judged. The diagnostic points at whichever of the two \
               the request sends. \
               An update whose body reqlint could not read, or whose query string is a \
               variable whose value is not known, is not judged on the ad set's snapshot: \
               it may send the param (docs/formats.md).",
        why: "From version 20.0 the Impressions optimization goal is deprecated for the legacy \
              Post Engagement objective and for destination_type ON_POST.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Versioning\" and \"Objective mapping\"",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-impressions-on-post/bad.req.yaml"),
        good: example!("adset-impressions-on-post/good.req.yaml"),
    }
}

/// The first version where the goal is deprecated.
const DEPRECATED_IN: u32 = 20;
/// The legacy objective the deprecation names.
const LEGACY_POST_ENGAGEMENT: &str = "POST_ENGAGEMENT";

impl Rule for AdSetImpressionsOnPost {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint, call) = (c.request, c.endpoint, &c.call);

        let snapshot = match endpoint {
            Operation::AdSetCreate => None,
            Operation::AdSetUpdate => call.object.and_then(|id| ad_set(file.context, &id.text)),
            _ => return,
        };
        let Some(v) = version(request).filter(|v| *v >= major(DEPRECATED_IN)) else {
            return;
        };
        let sent = |name: &str| request.param(name).map(|e| &e.value);
        // The request's value, else the ad set's where the update surely does not send
        // the param.
        let value = |name: &str| -> Option<&str> {
            match crate::apis::advertising::sent(request, name) {
                Sent::Given(e) => e.value.as_str().map(str::trim),
                Sent::Absent => snapshot.and_then(|s| text(s, name)),
                Sent::Unknown => None,
            }
        };
        if value("optimization_goal") != Some("IMPRESSIONS") {
            return;
        }
        let goal = sent("optimization_goal");
        let destination = sent("destination_type");
        let on_post = value("destination_type") == Some("ON_POST");
        let campaign_id: Option<&Node> =
            match crate::apis::advertising::sent(request, "campaign_id") {
                Sent::Given(e) => Some(&e.value),
                Sent::Absent => snapshot.and_then(|s| s.get_value("campaign_id")),
                Sent::Unknown => None,
            };
        let legacy = campaign_id
            .and_then(id_text)
            .and_then(|id| campaign(file.context, &id))
            .and_then(|c| text(c, "objective"))
            == Some(LEGACY_POST_ENGAGEMENT);
        let (reason, primary) = if on_post {
            ("destination_type ON_POST", goal.or(destination))
        } else if legacy {
            ("the legacy Post Engagement objective of its campaign", goal)
        } else {
            return;
        };
        let Some(primary) = primary else { return };
        let mut d = Diagnostic::new(
            &META,
            primary.span,
            format!("the IMPRESSIONS optimization goal is deprecated from v{DEPRECATED_IN}.0 (this call is {v}) for {reason}"),
        )
        .with_help("optimize for POST_ENGAGEMENT or REACH instead");
        if let (true, Some(dest), Some(_)) = (on_post, destination, goal) {
            d = d.with_label(dest.span, "ON_POST");
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    const CONTEXT: &str = "campaigns:\n  - {id: '501', objective: POST_ENGAGEMENT}\n  - {id: '502', objective: OUTCOME_ENGAGEMENT}\nad_sets:\n  - {id: '901', optimization_goal: IMPRESSIONS, destination_type: ON_POST}\n  - {id: '902', optimization_goal: REACH, campaign_id: '501'}\n";

    fn found(yaml: &str) -> Vec<String> {
        spans("adset-impressions-on-post", CONTEXT, yaml)
    }

    #[test]
    fn creates_from_version_20() {
        let yaml = "requests:\n  - request: POST /v19.0/act_1/adsets\n    params: {optimization_goal: IMPRESSIONS, destination_type: ON_POST}\n  - request: POST /v20.0/act_1/adsets\n    params: {optimization_goal: IMPRESSIONS, destination_type: ON_POST}\n  - request: POST /v24.0/act_1/adsets\n    params: {optimization_goal: IMPRESSIONS, destination_type: ON_VIDEO}\n  - request: POST /v24.0/act_1/adsets\n    params: {optimization_goal: IMPRESSIONS, campaign_id: 501}\n  - request: POST /v24.0/act_1/adsets\n    params: {optimization_goal: IMPRESSIONS, campaign_id: 502}\n";
        assert_eq!(found(yaml), vec!["IMPRESSIONS", "IMPRESSIONS"]);
    }

    #[test]
    fn updates_read_the_rest_from_the_context() {
        let yaml = "requests:\n  - request: POST /v24.0/901\n    params: {name: x}\n  - request: POST /v24.0/901\n    params: {destination_type: ON_POST}\n  - request: POST /v24.0/902\n    params: {optimization_goal: IMPRESSIONS}\n  - request: POST /v24.0/901\n    params: {optimization_goal: POST_ENGAGEMENT}\n";
        assert_eq!(found(yaml), vec!["ON_POST", "IMPRESSIONS"]);
    }
}
