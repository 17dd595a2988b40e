use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Value;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{Operation, Sent, params};

crate::declare_rule! {
    pub struct AdSetLifetimeBudgetWithoutEndTime {
        name: "adset-lifetime-budget-without-end-time",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an ad set created with a `lifetime_budget` but no `end_time`",
        what: "For an ad set create that sends `lifetime_budget`, reports a missing `end_time` \
               (the legacy `time_stop` counts as one), at the `lifetime_budget` key. A lifetime \
               budget of 0 is not judged. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "A lifetime budget is spent over the ad set's whole run, so the run needs an end. \
              The reference's lifetime budget sample sends start_time and end_time and the API \
              refuses a lifetime budget without an end; the reference does not show that error's \
              code, hence a warning.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Create an ad set (\"A lifetime budget sample also sends \
                 start_time and end_time\")",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate]),
        bad: example!("adset-lifetime-budget-without-end-time/bad.req.yaml"),
        good: example!("adset-lifetime-budget-without-end-time/good.req.yaml"),
    }
}

impl Rule for AdSetLifetimeBudgetWithoutEndTime {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(lifetime) = request.param("lifetime_budget") else {
            return;
        };
        let zero = params::integer(&lifetime.value) == Some(Ok(0));
        if zero || matches!(lifetime.value.value, Value::Null) {
            return;
        }
        // A null is no end; a body that could not be read may hold one.
        let has_end = ["end_time", "time_stop"].iter().any(|name| {
            match crate::apis::advertising::sent(request, name) {
                Sent::Given(e) => !matches!(e.value.value, Value::Null),
                Sent::Absent => false,
                Sent::Unknown => true,
            }
        });
        if has_end {
            return;
        }
        out.push(
            Diagnostic::new(
                &META,
                lifetime.key_span,
                "lifetime_budget without end_time: a lifetime budget needs the ad set's end, and the API refuses it without one",
            )
            .with_help("add end_time (a UNIX timestamp or an ISO 8601 date-time such as 2025-06-30T23:59:00+0000), and start_time, or use daily_budget for an ad set without an end"),
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
    fn only_a_create_with_a_lifetime_budget_and_no_end() {
        let create = "POST /v24.0/act_1/adsets";
        assert!(fires(create, "  lifetime_budget: 100000\n"));
        assert!(fires(
            create,
            "  lifetime_budget: 100000\n  end_time: null\n"
        ));
        assert!(!fires(
            create,
            "  lifetime_budget: 100000\n  end_time: 1749945600\n"
        ));
        // The legacy time_stop ends the run too; a budget of 0 or null is no budget.
        assert!(!fires(
            create,
            "  lifetime_budget: 100000\n  time_stop: 1749945600\n"
        ));
        assert!(!fires(create, "  lifetime_budget: '0'\n"));
        assert!(!fires(create, "  lifetime_budget: null\n"));
        // An update may change the budget of an ad set that has its end already.
        assert!(!fires(
            "POST /v24.0/23862000000000099",
            "  lifetime_budget: 100000\n"
        ));
    }
}
