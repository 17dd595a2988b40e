//! The enum lists of the ad set tables in catalog/advertising/params.yaml, checked twice:
//! against the values of Meta's Marketing API reference for ad sets
//! (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), written
//! here as expected values, and against the enums of the vendor's specs
//! (catalog/advertising/vendor/specs, compiled into the graph), which must hold every
//! value the reference gives but the few named here.

use crate::catalog::advertising::{Operation, ParamType};
use crate::catalog::graph::{GNode, GType, enum_values};
use crate::model::request_line::Method;

/// `billing_event`: the same list in the AdSet field table and the create table.
const BILLING_EVENT: [&str; 11] = [
    "APP_INSTALLS",
    "CLICKS",
    "IMPRESSIONS",
    "LINK_CLICKS",
    "NONE",
    "OFFER_CLAIMS",
    "PAGE_LIKES",
    "POST_ENGAGEMENT",
    "THRUPLAY",
    "PURCHASE",
    "LISTING_INTERACTION",
];

/// `bid_strategy`: the same list in the AdSet field table and the create table.
const BID_STRATEGY: [&str; 4] = [
    "LOWEST_COST_WITHOUT_CAP",
    "LOWEST_COST_WITH_BID_CAP",
    "COST_CAP",
    "LOWEST_COST_WITH_MIN_ROAS",
];

/// `optimization_goal`, in the reference's order. `VISIT_PLATFORM_PROFILE` is the
/// reference's neutral name for the specs' `VISIT_INSTAGRAM_PROFILE`.
const OPTIMIZATION_GOAL: [&str; 31] = [
    "NONE",
    "APP_INSTALLS",
    "AD_RECALL_LIFT",
    "ENGAGED_USERS",
    "EVENT_RESPONSES",
    "IMPRESSIONS",
    "LEAD_GENERATION",
    "QUALITY_LEAD",
    "LINK_CLICKS",
    "OFFSITE_CONVERSIONS",
    "PAGE_LIKES",
    "POST_ENGAGEMENT",
    "QUALITY_CALL",
    "REACH",
    "LANDING_PAGE_VIEWS",
    "VISIT_PLATFORM_PROFILE",
    "VALUE",
    "THRUPLAY",
    "DERIVED_EVENTS",
    "APP_INSTALLS_AND_OFFSITE_CONVERSIONS",
    "CONVERSATIONS",
    "IN_APP_VALUE",
    "MESSAGING_PURCHASE_CONVERSION",
    "SUBSCRIBERS",
    "REMINDERS_SET",
    "MEANINGFUL_CALL_ATTEMPT",
    "PROFILE_VISIT",
    "PROFILE_AND_PAGE_ENGAGEMENT",
    "ADVERTISER_SILOED_VALUE",
    "AUTOMATIC_OBJECTIVE",
    "MESSAGING_APPOINTMENT_CONVERSION",
];

/// The other closed enums of the create table.
const CREATE_ENUMS: [(&str, &[&str]); 7] = [
    (
        "optimization_sub_event",
        &[
            "NONE",
            "VIDEO_SOUND_ON",
            "TRIP_CONSIDERATION",
            "TRAVEL_INTENT",
            "TRAVEL_INTENT_NO_DESTINATION_INTENT",
            "TRAVEL_INTENT_BUCKET_01",
            "TRAVEL_INTENT_BUCKET_02",
            "TRAVEL_INTENT_BUCKET_03",
            "TRAVEL_INTENT_BUCKET_04",
            "TRAVEL_INTENT_BUCKET_05",
            "POST_INTERACTION",
        ],
    ),
    ("status", &["ACTIVE", "PAUSED", "DELETED", "ARCHIVED"]),
    ("automatic_manual_state", &["UNSET", "AUTOMATIC", "MANUAL"]),
    ("budget_source", &["NONE", "RMN"]),
    (
        "multi_optimization_goal_weight",
        &["UNDEFINED", "BALANCED", "PREFER_INSTALL", "PREFER_EVENT"],
    ),
    (
        "tune_for_category",
        &[
            "NONE",
            "EMPLOYMENT",
            "HOUSING",
            "CREDIT",
            "ISSUES_ELECTIONS_POLITICS",
            "ONLINE_GAMBLING_AND_GAMING",
            "FINANCIAL_PRODUCTS_SERVICES",
        ],
    ),
    (
        "execution_options",
        &["validate_only", "include_recommendations"],
    ),
];

/// `destination_type`: the values the reference names; it omits twelve more that name
/// messaging or social products.
const DESTINATION_TYPE: [&str; 10] = [
    "WEBSITE",
    "APP",
    "APPLINKS_AUTOMATIC",
    "SHOP_AUTOMATIC",
    "ON_AD",
    "ON_POST",
    "ON_EVENT",
    "ON_VIDEO",
    "ON_PAGE",
    "IMAGINE",
];

/// A read's `date_preset`.
const DATE_PRESET: [&str; 20] = [
    "today",
    "yesterday",
    "this_month",
    "last_month",
    "this_quarter",
    "maximum",
    "data_maximum",
    "last_3d",
    "last_7d",
    "last_14d",
    "last_28d",
    "last_30d",
    "last_90d",
    "last_week_mon_sun",
    "last_week_sun_sat",
    "last_quarter",
    "last_year",
    "this_week_mon_today",
    "this_week_sun_today",
    "this_year",
];

/// The values of a param's enum in params.yaml (of the items, for a list), and whether
/// the enum is open.
fn table_enum(endpoint: &str, param: &str) -> (Vec<String>, bool) {
    let op = Operation::ALL
        .iter()
        .find(|o| o.name() == endpoint)
        .unwrap();
    let spec = op
        .params()
        .param(param)
        .unwrap_or_else(|| panic!("params.yaml: no {endpoint}.{param}"));
    let ty = match &spec.ty {
        ParamType::List(item) => &item.ty,
        ty => ty,
    };
    match ty {
        ParamType::Enum { values, open, .. } => {
            (values.iter().map(|v| v.to_string()).collect(), *open)
        }
        other => panic!("params.yaml: {endpoint}.{param} is {other:?}, not an enum"),
    }
}

/// The values of a param's enum in the vendor's specs (of the items, for a list).
fn specs_enum(node: &str, method: Method, edge: &str, param: &str) -> &'static [&'static str] {
    let call = GNode::parse(node)
        .and_then(|n| n.call(method, edge))
        .unwrap_or_else(|| panic!("specs: no {method} {node}/{edge}"));
    let spec = call
        .get()
        .param(param)
        .unwrap_or_else(|| panic!("specs: no {param} on {method} {node}/{edge}"));
    match spec.ty.item() {
        GType::Enum(e) => enum_values(e),
        other => panic!("specs: {param} is {other:?}, not an enum"),
    }
}

/// The reference's values of an ad set create param that the specs' enum lacks.
fn not_in_create_specs(param: &str, reference: &[&'static str]) -> Vec<&'static str> {
    let specs = specs_enum("ad_account", Method::Post, "adsets", param);
    reference
        .iter()
        .copied()
        .filter(|v| !specs.contains(v))
        .collect()
}

fn assert_closed(endpoint: &str, param: &str, reference: &[&str]) {
    let (table, open) = table_enum(endpoint, param);
    assert_eq!(
        table, reference,
        "{endpoint}.{param} differs from Meta's Marketing API reference for ad sets"
    );
    assert!(!open, "{endpoint}.{param}: the reference lists every value");
    // The update takes what create takes (`like: ad_set_create`).
    if endpoint == "ad_set_create" {
        assert_eq!(table_enum("ad_set_update", param).0, reference);
    }
}

#[test]
fn billing_event_is_the_reference_list() {
    assert_closed("ad_set_create", "billing_event", &BILLING_EVENT);
    assert!(not_in_create_specs("billing_event", &BILLING_EVENT).is_empty());
}

#[test]
fn bid_strategy_is_the_reference_list() {
    assert_closed("ad_set_create", "bid_strategy", &BID_STRATEGY);
    assert!(not_in_create_specs("bid_strategy", &BID_STRATEGY).is_empty());
}

#[test]
fn optimization_goal_is_the_reference_list() {
    assert_closed("ad_set_create", "optimization_goal", &OPTIMIZATION_GOAL);
    assert_eq!(
        not_in_create_specs("optimization_goal", &OPTIMIZATION_GOAL),
        ["VISIT_PLATFORM_PROFILE"]
    );
    let specs = specs_enum("ad_account", Method::Post, "adsets", "optimization_goal");
    assert!(specs.contains(&"VISIT_INSTAGRAM_PROFILE"));
}

#[test]
fn create_enums_match_the_create_table() {
    for (param, reference) in CREATE_ENUMS {
        assert_closed("ad_set_create", param, reference);
        let specs = specs_enum("ad_account", Method::Post, "adsets", param);
        for v in reference {
            assert!(specs.contains(v), "{param}: {v} is not in the specs");
        }
    }
    // TRAVEL_INTENT_BUCKET_01 to TRAVEL_INTENT_BUCKET_05: five values.
    assert_eq!(
        table_enum("ad_set_create", "optimization_sub_event")
            .0
            .len(),
        11
    );
}

#[test]
fn destination_type_is_open() {
    let (table, open) = table_enum("ad_set_create", "destination_type");
    assert_eq!(table, DESTINATION_TYPE);
    assert!(open, "the reference omits twelve destination_type values");
    // The specs name the omitted ones (13 of them, with products' names): every value
    // of the reference is there, and more.
    let specs = specs_enum("ad_account", Method::Post, "adsets", "destination_type");
    assert!(DESTINATION_TYPE.iter().all(|v| specs.contains(v)));
    assert_eq!(specs.len(), DESTINATION_TYPE.len() + 13);
}

#[test]
fn copy_status_option() {
    let reference = ["ACTIVE", "PAUSED", "INHERITED_FROM_SOURCE"];
    assert_closed("ad_set_copy", "status_option", &reference);
    let mut specs = specs_enum("ad_set", Method::Post, "copies", "status_option").to_vec();
    specs.sort_unstable();
    let mut sorted = reference;
    sorted.sort_unstable();
    assert_eq!(specs, sorted);
}

#[test]
fn read_date_preset_and_date_format() {
    let (mut table, open) = table_enum("ad_set_read", "date_preset");
    assert!(!open);
    // `lifetime` is deprecated from v10.0 and not in the read's list; params.yaml lists
    // it for the versions that still take it.
    table.retain(|v| v != "lifetime");
    assert_eq!(table, DATE_PRESET);
    let mut specs = specs_enum("ad_set", Method::Get, "", "date_preset").to_vec();
    specs.sort_unstable();
    let mut sorted = DATE_PRESET;
    sorted.sort_unstable();
    assert_eq!(specs, sorted);
    assert_eq!(table_enum("ad_set_read", "date_format").0, vec!["U"]);
}
