use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AdSetBothBudgets {
        name: "adset-both-budgets",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an ad set request gives both `daily_budget` and `lifetime_budget`",
        what: "For an ad set create or update, reports a request that sends both \
               `daily_budget` and `lifetime_budget`, at the one written second. A budget of 0 \
               beside the other (a switch from one kind to the other) is not judged.",
        why: "An ad set shares a daily or a lifetime budget among its ads, not both; which one \
              the API keeps, or whether it refuses the request, the reference does not say.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), overview (a daily or lifetime budget) and \
                 \"Endpoints\": Create an ad set (daily_budget, lifetime_budget)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-both-budgets/bad.req.yaml"),
        good: example!("adset-both-budgets/good.req.yaml"),
    }
}

impl Rule for AdSetBothBudgets {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some((first, second)) = crate::apis::advertising::both_budgets(request) else {
            return;
        };
        out.push(
            Diagnostic::new(
                &META,
                second.key_span,
                format!(
                    "{} beside {}: an ad set has a daily or a lifetime budget, not both",
                    second.key, first.key
                ),
            )
            .with_label(first.key_span, "the other budget")
            .with_help("keep daily_budget for an ad set that spends per day, or lifetime_budget (with end_time) for one that spends over its run"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::META;
    use crate::testing::diagnostics_with_rates as lint;

    fn found(request: &str, params: &str) -> Vec<String> {
        let yaml = format!("request: {request}\nobject: ad_set\nparams:\n{params}");
        lint(META.name, &yaml, "", &[])
            .into_iter()
            .map(|d| format!("{} @ {}", d.message, &yaml[d.span.range()]))
            .collect()
    }

    #[test]
    fn the_second_budget_is_reported_on_create_and_update() {
        let both = "  lifetime_budget: '100000'\n  daily_budget: 2000\n";
        let want = vec![
            "daily_budget beside lifetime_budget: an ad set has a daily or a lifetime budget, not both @ daily_budget",
        ];
        assert_eq!(found("POST /v24.0/act_1/adsets", both), want);
        assert_eq!(found("POST /v24.0/23862000000000099", both), want);
        // A budget of 0 beside the other switches budgets; null is no budget.
        assert!(
            found(
                "POST /v24.0/23862000000000099",
                "  daily_budget: 0\n  lifetime_budget: 100000\n"
            )
            .is_empty()
        );
        assert!(
            found(
                "POST /v24.0/act_1/adsets",
                "  daily_budget: null\n  lifetime_budget: 100000\n"
            )
            .is_empty()
        );
    }
}
