use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::Method;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct CampaignBothBudgets {
        name: "campaign-both-budgets",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "a campaign request gives both `daily_budget` and `lifetime_budget`",
        what: "For a campaign create (`POST /act_<id>/campaigns`) or update (`POST \
               /<campaign id>`, the node type told by `object:`, the context or the \
               params), reports a request that sends both `daily_budget` and \
               `lifetime_budget`, at the one written second. A budget of 0 beside the \
               other (a switch from one kind to the other) is not judged; nor is a call \
               whose node type nothing tells.",
        why: "A campaign's budget (an Advantage campaign budget) is shared by its ad sets \
              per day or over the campaign's run, not both, as an ad set's is; which one \
              the API keeps, or whether it refuses the request, the reference does not say.",
        source: "Meta's Marketing API reference for campaigns (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign-group/), \"Creating\" and \"Updating\" (daily_budget, lifetime_budget); Meta's Marketing API guide \"Budgets\" (https://developers.facebook.com/docs/marketing-api/bidding/overview/budgets/): a daily or a lifetime budget, for an ad set or a campaign",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("campaign-both-budgets/bad.req.yaml"),
        good: example!("campaign-both-budgets/good.req.yaml"),
    }
}

/// A campaign create or update: the calls that take a campaign's budgets.
fn sets_campaign_budget(call: &crate::catalog::graph::GraphCall) -> bool {
    call.method == Method::Post
        && matches!(
            (call.node.name(), call.edge.as_str()),
            ("campaign", "") | ("ad_account", "campaigns")
        )
}

impl Rule for CampaignBothBudgets {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for (request, target, _) in crate::apis::advertising::graph_calls(file) {
            if !sets_campaign_budget(target.graph.get()) {
                continue;
            }
            let Some((first, second)) = crate::apis::advertising::both_budgets(request) else {
                continue;
            };
            out.push(
                Diagnostic::new(
                    &META,
                    second.key_span,
                    format!(
                        "{} beside {}: a campaign has a daily or a lifetime budget, not both",
                        second.key, first.key
                    ),
                )
                .with_label(first.key_span, "the other budget")
                .with_help("keep daily_budget for a campaign that spends per day, or lifetime_budget (with stop_time) for one that spends over its run"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::META;
    use crate::testing::diagnostics_with_rates as lint;

    fn found(request: &str, object: &str, params: &str) -> Vec<String> {
        let yaml = format!("request: {request}\n{object}params:\n{params}");
        lint(META.name, &yaml, "", &[])
            .into_iter()
            .map(|d| format!("{} @ {}", d.message, &yaml[d.span.range()]))
            .collect()
    }

    #[test]
    fn the_second_budget_is_reported_on_create_and_update() {
        let both = "  lifetime_budget: '100000'\n  daily_budget: 2000\n";
        let want = vec![
            "daily_budget beside lifetime_budget: a campaign has a daily or a lifetime budget, not both @ daily_budget",
        ];
        assert_eq!(found("POST /v25.0/act_1/campaigns", "", both), want);
        assert_eq!(
            found("POST /v25.0/120210000000000001", "object: campaign\n", both),
            want
        );
        // An ad set's are adset-both-budgets'; an id of unknown kind is not judged.
        assert!(found("POST /v25.0/act_1/adsets", "", both).is_empty());
        assert!(
            found(
                "POST /v25.0/120210000000000001",
                "",
                "  daily_budget: 1\n  lifetime_budget: 2\n  name: x\n"
            )
            .is_empty()
        );
        // A budget of 0 beside the other switches budgets; null is no budget.
        assert!(
            found(
                "POST /v25.0/120210000000000001",
                "object: campaign\n",
                "  daily_budget: 0\n  lifetime_budget: 100000\n"
            )
            .is_empty()
        );
        assert!(
            found(
                "POST /v25.0/act_1/campaigns",
                "",
                "  daily_budget: null\n  lifetime_budget: 100000\n"
            )
            .is_empty()
        );
    }
}
