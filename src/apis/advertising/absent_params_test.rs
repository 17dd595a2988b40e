//! Every advertising rule that reports what a request lacks, or judges a combination
//! from a param's absence, is silent where the request may send params reqlint cannot
//! see (a body a reader could not read, a query string that is a variable whose value is
//! not known), and still reports what the request does send.

use crate::testing::lint;

use super::adset_geo::testing::CONTEXT as GEO;

/// The context of the cases that read an object's snapshot.
const SNAPSHOTS: &str = "ad_accounts:
  - {id: act_1, currency: USD, business_country_code: US}
  - {id: act_2}
campaigns:
  - {id: '501', objective: POST_ENGAGEMENT}
custom_audiences:
  - {id: '71', operation_status: {code: 471}}
  - {id: '81', subtype: CUSTOM, operation_status: {code: 471}, fields_violating_integrity_policy: [description]}
ad_sets:
  - {id: '901', account_id: '1', bid_strategy: LOWEST_COST_WITH_BID_CAP, billing_event: LINK_CLICKS, bid_amount: 300}
  - {id: '911', targeting: {custom_audiences: [{id: '71'}]}}
  - {id: '921', optimization_goal: REACH, destination_type: ON_POST, campaign_id: '501'}
  - {id: '931', account_id: '2', targeting: {geo_locations: {countries: [US]}}}
";

/// (rule, context, request line, the rest of the request): each reports one finding as
/// written.
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "adset-name-missing",
        GEO,
        "POST /v24.0/act_1/adsets",
        "params:\n  targeting: {geo_locations: {countries: [US]}}\n",
    ),
    (
        "adset-promoted-object-missing",
        GEO,
        "POST /v24.0/act_1/adsets",
        "params:\n  optimization_goal: PAGE_LIKES\n",
    ),
    (
        "adset-bid-amount-missing",
        GEO,
        "POST /v24.0/act_1/adsets",
        "params:\n  bid_strategy: COST_CAP\n",
    ),
    (
        "adset-countries-missing",
        GEO,
        "POST /v24.0/act_1/adsets",
        "params:\n  name: x\n",
    ),
    (
        "adset-dsa-payor-missing",
        GEO,
        "POST /v24.0/act_2/adsets",
        "params:\n  targeting: {geo_locations: {countries: [DE]}}\n  dsa_beneficiary: B\n",
    ),
    (
        "adset-dsa-beneficiary-missing",
        GEO,
        "POST /v24.0/act_2/adsets",
        "params:\n  targeting: {geo_locations: {countries: [DE]}}\n  dsa_payor: P\n",
    ),
    (
        "adset-dsa-payor-missing",
        GEO,
        "POST /v24.0/11",
        "object: ad_set\nparams:\n  targeting: {geo_locations: {countries: [NL]}}\n",
    ),
    (
        "adset-lifetime-budget-without-end-time",
        GEO,
        "POST /v24.0/act_1/adsets",
        "params:\n  lifetime_budget: 50000\n",
    ),
    (
        "audience-travel-content-type-missing",
        GEO,
        "POST /v24.0/act_1/customaudiences",
        "params:\n  claim_objective: TRAVEL\n",
    ),
    (
        "ad-param-missing",
        GEO,
        "POST /v24.0/act_1/campaigns",
        "params:\n  name: x\n  objective: OUTCOME_SALES\n",
    ),
    // An update that sends no targeting keeps the ad set's flagged audience.
    (
        "adset-flagged-audience",
        SNAPSHOTS,
        "POST /v24.0/911",
        "params:\n  name: x\n",
    ),
    // An update that sends no targeting keeps the ad set's, outside the EU.
    (
        "adset-dsa-not-eu",
        SNAPSHOTS,
        "POST /v24.0/931",
        "params:\n  dsa_payor: P\n",
    ),
    // The destination the update does not send is the ad set's.
    (
        "adset-impressions-on-post",
        SNAPSHOTS,
        "POST /v24.0/921",
        "params:\n  optimization_goal: IMPRESSIONS\n",
    ),
    // The bid strategy and billing event the update does not send are the ad set's.
    (
        "adset-budget-below-minimum",
        SNAPSHOTS,
        "POST /v24.0/901",
        "object: ad_set\nparams:\n  daily_budget: 2000\n",
    ),
    // A daily budget of 0 is judged only where no lifetime budget may stand beside it.
    (
        "adset-budget-below-minimum",
        SNAPSHOTS,
        "POST /v24.0/act_1/adsets",
        "params:\n  daily_budget: 0\n  bid_strategy: LOWEST_COST_WITHOUT_CAP\n  billing_event: IMPRESSIONS\n",
    ),
    // An edit of a flagged audience that changes none of the fields it must change.
    (
        "audience-flagged-edit",
        SNAPSHOTS,
        "POST /v24.0/81",
        "params:\n  name: x\n",
    ),
    (
        "audience-opt-out-empty",
        GEO,
        "DELETE /v24.0/act_1/usersofanyaudience",
        "",
    ),
];

/// The request with `line` as its request line.
fn request(line: &str, rest: &str, extra: &str) -> String {
    format!("request: {line}\n{rest}{extra}")
}

/// The same request line with a query part that is a variable whose value is unknown.
fn with_unknown_query(line: &str) -> String {
    let joint = if line.contains('?') { '&' } else { '?' };
    format!("{line}{joint}{{{{more_params}}}}")
}

#[test]
fn no_missing_finding_where_the_request_may_send_unknown_params() {
    let mut wrong = Vec::new();
    for &(rule, context, line, rest) in CASES {
        let written = request(line, rest, "");
        assert_eq!(
            lint(rule, context, &written).len(),
            1,
            "{rule} reports the request as written:\n{written}"
        );
        for unseen in [
            request(line, rest, "x-body-unread: true\n"),
            request(&with_unknown_query(line), rest, ""),
        ] {
            if !lint(rule, context, &unseen).is_empty() {
                wrong.push(format!("{rule}:\n{unseen}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "reported where the request may send unknown params:\n{}",
        wrong.join("\n")
    );
}

/// A finding about a value the request does send stays, whatever else it may send.
#[test]
fn a_finding_about_a_value_that_is_sent_stays() {
    for (rule, context, line, rest) in [
        (
            "adset-name-missing",
            GEO,
            "POST /v24.0/act_1/adsets",
            "params:\n  name: ''\n",
        ),
        (
            "adset-countries-missing",
            GEO,
            "POST /v24.0/act_1/adsets",
            "params:\n  targeting: {geo_locations: {countries: []}}\n",
        ),
        (
            "adset-promoted-object-missing",
            GEO,
            "POST /v24.0/act_1/adsets",
            "params:\n  optimization_goal: PAGE_LIKES\n  promoted_object: {pixel_id: '1'}\n",
        ),
        (
            "adset-dsa-payor-missing",
            GEO,
            "POST /v24.0/act_2/adsets",
            "params:\n  targeting: {geo_locations: {countries: [DE]}}\n  dsa_payor: ' '\n",
        ),
        (
            "adset-bid-amount-missing",
            GEO,
            "POST /v24.0/act_1/adsets",
            "params:\n  bid_strategy: COST_CAP\n  bid_amount: null\n",
        ),
        (
            "adset-lifetime-budget-without-end-time",
            GEO,
            "POST /v24.0/act_1/adsets",
            "params:\n  lifetime_budget: 50000\n  end_time: null\n  time_stop: null\n",
        ),
        (
            "adset-budget-below-minimum",
            SNAPSHOTS,
            "POST /v24.0/act_1/adsets",
            "params:\n  daily_budget: 1\n  bid_strategy: LOWEST_COST_WITHOUT_CAP\n  billing_event: IMPRESSIONS\n",
        ),
    ] {
        for unseen in [
            request(line, rest, "x-body-unread: true\n"),
            request(&with_unknown_query(line), rest, ""),
        ] {
            assert_eq!(lint(rule, context, &unseen).len(), 1, "{rule}:\n{unseen}");
        }
    }
}
