use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Value;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{Operation, Sent};

/// Bid strategies whose bid is `bid_amount`: the bid cap, or the target cost.
const NEEDS_BID_AMOUNT: &[(&str, &str)] = &[
    ("LOWEST_COST_WITH_BID_CAP", "the bid cap"),
    ("COST_CAP", "the target cost"),
];

crate::declare_rule! {
    pub struct AdSetBidAmountMissing {
        name: "adset-bid-amount-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set created with a bid cap or cost cap strategy but no `bid_amount`",
        what: "For an ad set create whose `bid_strategy` is LOWEST_COST_WITH_BID_CAP or \
               COST_CAP, reports a missing (or null) `bid_amount`, at the `bid_strategy` value. \
               Updates are not judged: the ad set may hold its bid already. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "`bid_amount` is the bid cap or the target cost: these strategies have nothing to \
              bid without it, and the API refuses the create with error 100.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Resources and their fields\" (bid_amount: bid cap or target cost) and \
                 \"Endpoints\": Create an ad set (bid_amount, bid_strategy)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate]),
        bad: example!("adset-bid-amount-missing/bad.req.yaml"),
        good: example!("adset-bid-amount-missing/good.req.yaml"),
    }
}

impl Rule for AdSetBidAmountMissing {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(strategy) = crate::apis::advertising::valid_param(file, request, "bid_strategy")
        else {
            return;
        };
        let Some((name, what)) = strategy
            .value
            .as_str()
            .and_then(|s| NEEDS_BID_AMOUNT.iter().find(|(n, _)| *n == s))
        else {
            return;
        };
        // A null is no bid; a body that could not be read may hold one.
        let may_bid = match crate::apis::advertising::sent(request, "bid_amount") {
            Sent::Given(b) => !matches!(b.value.value, Value::Null),
            Sent::Absent => false,
            Sent::Unknown => true,
        };
        if may_bid {
            return;
        }
        out.push(
            Diagnostic::new(
                &META,
                strategy.value.span,
                format!("bid_strategy {name} needs bid_amount ({what}), which the request does not give"),
            )
            .with_help(format!(
                "add bid_amount: {what} in the account currency's minor unit (cents for USD), or choose LOWEST_COST_WITHOUT_CAP"
            ))
            .with_api_error(100, None),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::META;
    use crate::testing::diagnostics_with_rates as lint;

    fn fires(request: &str, params: &str) -> bool {
        let yaml = format!("request: {request}\nobject: ad_set\nparams:\n{params}");
        !lint(META.name, &yaml, "", &[]).is_empty()
    }

    #[test]
    fn bid_cap_and_cost_cap_need_a_bid() {
        let create = "POST /v24.0/act_1/adsets";
        assert!(fires(create, "  bid_strategy: LOWEST_COST_WITH_BID_CAP\n"));
        assert!(fires(
            create,
            "  bid_strategy: COST_CAP\n  bid_amount: null\n"
        ));
        assert!(!fires(
            create,
            "  bid_strategy: COST_CAP\n  bid_amount: '250'\n"
        ));
        assert!(!fires(create, "  bid_strategy: LOWEST_COST_WITHOUT_CAP\n"));
        assert!(!fires(
            create,
            "  bid_strategy: LOWEST_COST_WITH_MIN_ROAS\n"
        ));
        // An update: the ad set may hold its bid already.
        assert!(!fires(
            "POST /v24.0/23862000000000099",
            "  bid_strategy: COST_CAP\n"
        ));
    }
}
