use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{Operation, params};

/// The value that removes a spend cap (Meta's Marketing API reference for ad sets,
/// https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/, "Limits").
pub const NO_CAP: i64 = 922_337_203_685_478;

crate::declare_rule! {
    pub struct AdSetSpendCapUnlimited {
        name: "adset-spend-cap-unlimited",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Info,
        summary: "`daily_spend_cap` or `lifetime_spend_cap` is 922337203685478, which removes the cap",
        what: "For an ad set create or update, points out a `daily_spend_cap` or \
               `lifetime_spend_cap` of 922337203685478: the API reads it as \"no cap\", not as an \
               amount.",
        why: "The value looks like an overflow or a typo, and someone may \"fix\" it into a real \
              amount, which would cap the ad set's spending; or someone meant a cap and the ad \
              set has none. The note says what it does so that either is a choice.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Create an ad set (daily_spend_cap, lifetime_spend_cap) \
                 and \"Limits\" (value that removes a spend cap)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-spend-cap-unlimited/bad.req.yaml"),
        good: example!("adset-spend-cap-unlimited/good.req.yaml"),
    }
}

impl Rule for AdSetSpendCapUnlimited {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        for (name, kind) in [
            ("daily_spend_cap", "daily"),
            ("lifetime_spend_cap", "lifetime"),
        ] {
            let Some(cap) = request.param(name) else {
                continue;
            };
            if params::integer(&cap.value) != Some(Ok(NO_CAP)) {
                continue;
            }
            out.push(
                Diagnostic::new(
                    &META,
                    cap.value.span,
                    format!("{name} {NO_CAP} removes the {kind} spend cap: the ad set has no {kind} spend cap"),
                )
                .with_help(format!(
                    "this is the API's value for \"no cap\", not an amount: keep it to spend without a {kind} cap, or give the cap in the account currency's minor unit"
                )),
            );
        }
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
            .map(|d| yaml[d.span.range()].to_string())
            .collect()
    }

    #[test]
    fn the_no_cap_value_as_number_or_string() {
        let p = "  daily_spend_cap: 922337203685478\n  lifetime_spend_cap: '922337203685478'\n";
        assert_eq!(
            found("POST /v24.0/act_1/adsets", p),
            vec!["922337203685478", "'922337203685478'"]
        );
        assert_eq!(found("POST /v24.0/23862000000000099", p).len(), 2);
        assert!(
            found(
                "POST /v24.0/act_1/adsets",
                "  daily_spend_cap: 92233720368547\n"
            )
            .is_empty()
        );
    }
}
