//! Valid requests in the shapes of the vendor's own samples: reqlint must find nothing
//! wrong with them. The ad set samples follow Meta's Marketing API reference for ad sets
//! (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/): creating,
//! updating, reading, deleting and copying an ad set, and an outcome-driven ad set for
//! page likes. The audience samples follow its reference for custom audiences
//! (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/):
//! creating, updating and reading an audience.

use std::process::Command;

fn lint(yaml: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".reqlint.yaml"), "").unwrap();
    std::fs::write(dir.path().join("samples.req.yaml"), yaml).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_reqlint"))
        .args(["check", ".", "--format", "concise"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn ad_set_samples_pass() {
    let samples = r#"
requests:
  # An outcome-driven ad set for page likes: destination_type ON_PAGE, optimization_goal
  # PAGE_LIKES, billing_event IMPRESSIONS, promoted_object with page_id; created PAUSED,
  # with a boolean autobid.
  - request: POST /v24.0/act_1234567890/adsets
    params:
      name: Page likes ad set
      campaign_id: "120210000000000001"
      daily_budget: 2000
      destination_type: ON_PAGE
      optimization_goal: PAGE_LIKES
      billing_event: IMPRESSIONS
      promoted_object: {page_id: "100000000000001"}
      autobid: true
      targeting: {geo_locations: {countries: [US]}}
      status: PAUSED
  # A lifetime budget, with start_time and end_time.
  - request: POST /v24.0/act_1234567890/adsets
    params:
      name: Lifetime budget ad set
      campaign_id: "120210000000000001"
      lifetime_budget: 100000
      start_time: 2025-06-01T00:00:00+0000
      end_time: 2025-06-30T23:59:59+0000
      bid_strategy: LOWEST_COST_WITHOUT_CAP
      billing_event: IMPRESSIONS
      optimization_goal: REACH
      targeting: '{"geo_locations": {"countries": ["US", "CA"]}}'
      status: PAUSED
  # An update of billing_event, optimization_goal, bid_amount, targeting, end_time (an
  # ISO 8601 date-time) and status.
  - request: POST /v24.0/23851000000000001
    object: ad_set
    params:
      billing_event: IMPRESSIONS
      optimization_goal: REACH
      bid_amount: 150
      targeting: {geo_locations: {countries: [US]}}
      end_time: 2025-07-31T23:59:59+0000
      status: ACTIVE
  # Read, delete and copy.
  - GET /v24.0/23851000000000001?fields=name,status,daily_budget&date_preset=last_7d
  - request: GET /v24.0/23851000000000001
    object: ad_set
    params: {time_range: {since: "2025-06-01", until: "2025-06-30"}}
  - request: DELETE /v24.0/23851000000000001
    object: ad_set
  - request: POST /v24.0/23851000000000001/copies
    params: {deep_copy: false, status_option: PAUSED}
"#;
    let out = lint(samples);
    assert!(out.starts_with("All checks passed"), "{out}");
}

#[test]
fn custom_audience_samples_pass() {
    let samples = r#"
requests:
  # A minimal create: name, subtype, description, customer_file_source.
  - request: POST /v24.0/act_1234567890/customaudiences
    params:
      name: Newsletter subscribers
      subtype: CUSTOM
      description: People who subscribed to the newsletter
      customer_file_source: USER_PROVIDED_ONLY
  - request: POST /v24.0/act_1234567890/customaudiences
    params:
      name: Lookalike of subscribers
      subtype: LOOKALIKE
      origin_audience_id: "23850000000000006"
      lookalike_spec: '{"type": "similarity", "country": "US"}'
  - request: POST /v24.0/23850000000000006
    object: custom_audience
    params: {name: Newsletter subscribers 2025, use_in_campaigns: true}
  - request: GET /v24.0/23850000000000006
    object: custom_audience
    params: {ad_account_id: "1234567890"}
"#;
    let out = lint(samples);
    assert!(out.starts_with("All checks passed"), "{out}");
}
