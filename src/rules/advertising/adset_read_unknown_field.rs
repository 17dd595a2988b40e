use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::encoded::SourceMap;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};
use crate::suggest::did_you_mean;

use crate::apis::advertising::Operation;
use crate::apis::advertising::field_list;
use crate::catalog::advertising::{AD_SET_FIELDS, DESCRIBED_UNNAMED, READ_ONLY};
use crate::catalog::graph::GNode;

crate::declare_rule! {
    pub struct AdSetReadUnknownField {
        name: "adset-read-unknown-field",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an ad set read that asks for a field the ad set does not have",
        what: "For an ad set read, splits `fields` (comma-separated, as a param or in the query \
               string) into names and reports a name that is not an AdSet field, pointing \
               inside the string, with the closest field. The fields are the AdSet fields of the \
               vendor's specs and the reference's AdSet field table (the fields an update may send, `ad_set_fields` in catalog/advertising/params.yaml, and the \
               read-only ones in adset_read_fields.yaml) and the two read fields the reference \
               describes without naming. A name followed by an expansion or a modifier \
               (`campaign{name}`, `ads.limit(5)`) may be an edge, and is left to \
               `ad-field-unknown`, which judges edges and what is inside the braces.",
        why: "A misspelt field is not returned; the read fails or the caller works without the \
              data it asked for.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Resources and their fields\" (AdSet fields) and \"Endpoints\": \
                 Read an ad set",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetRead]),
        bad: example!("adset-read-unknown-field/bad.req.yaml"),
        good: example!("adset-read-unknown-field/good.req.yaml"),
    }
}

/// Every field name an ad set read may ask for: the fields an update may send, the
/// read-only ones, and the ones the reference describes without naming; and the AdSet
/// fields of the vendor's specs.
pub fn known_fields() -> impl Iterator<Item = &'static str> {
    let graph = GNode::parse("ad_set").map_or(&[][..], |n| n.info().fields.as_slice());
    AD_SET_FIELDS
        .iter()
        .chain(READ_ONLY)
        .chain(DESCRIBED_UNNAMED)
        .chain(graph.iter().map(|(f, _)| f.as_str()))
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Rule for AdSetReadUnknownField {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(entry) = request.param("fields") else {
            return;
        };
        let Some(value) = entry.value.as_str() else {
            return;
        };
        let map = SourceMap::for_scalar(file.text, entry.value.span, value);
        for name in field_list::parse(value) {
            let word = &value[name.start..name.end];
            if !is_name(word) || known_fields().any(|f| f == word) {
                continue;
            }
            if name.nested {
                continue; // an edge: ad-field-unknown judges edges and expansions
            }
            let help = match did_you_mean(word, known_fields()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => {
                    "the reference's AdSet field table does not list it; remove it or check its name"
                        .into()
                }
            };
            out.push(
                Diagnostic::new(
                    &META,
                    map.span(name.start..name.end),
                    format!("`{word}` is not an AdSet field"),
                )
                .with_help(help),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AdSet field table of Meta's Marketing API reference for ad sets
    /// (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/): its 62
    /// field names.
    const REFERENCE_FIELDS: [&str; 62] = [
        "id",
        "account_id",
        "adlabels",
        "adset_schedule",
        "asset_feed_id",
        "attribution_spec",
        "bid_adjustments",
        "bid_amount",
        "bid_constraints",
        "bid_info",
        "bid_strategy",
        "billing_event",
        "brand_safety_config",
        "budget_remaining",
        "campaign",
        "campaign_active_time",
        "campaign_attribution",
        "campaign_id",
        "configured_status",
        "contextual_bundling_spec",
        "created_time",
        "creative_sequence",
        "daily_budget",
        "daily_min_spend_target",
        "daily_spend_cap",
        "destination_type",
        "dsa_beneficiary",
        "dsa_payor",
        "effective_status",
        "end_time",
        "frequency_control_specs",
        "issues_info",
        "is_incremental_attribution_enabled",
        "learning_stage_info",
        "lifetime_budget",
        "lifetime_imps",
        "lifetime_min_spend_target",
        "lifetime_spend_cap",
        "min_budget_spend_percentage",
        "multi_optimization_goal_weight",
        "name",
        "optimization_goal",
        "optimization_sub_event",
        "pacing_type",
        "promoted_object",
        "recommendations",
        "recurring_budget_semantics",
        "regional_regulated_categories",
        "regional_regulation_identities",
        "review_feedback",
        "rf_prediction_id",
        "source_adset",
        "source_adset_id",
        "start_time",
        "status",
        "targeting",
        "targeting_optimization_types",
        "time_based_ad_rotation_id_blocks",
        "time_based_ad_rotation_intervals",
        "updated_time",
        "use_new_app_click",
        "value_rule_set_id",
    ];

    fn names(text: &str) -> Vec<(&str, bool)> {
        field_list::parse(text)
            .into_iter()
            .map(|n| (&text[n.start..n.end], n.nested))
            .collect()
    }

    #[test]
    fn splits_top_level_names() {
        assert_eq!(
            names(
                " id, name ,campaign{name,objective},ads.limit(5){id},insights.date_preset(maximum),,"
            ),
            vec![
                ("id", false),
                ("name", false),
                ("campaign", true),
                ("ads", true),
                ("insights", true)
            ]
        );
        assert_eq!(names(""), vec![]);
        assert_eq!(names("a{b{c}},d"), vec![("a", true), ("d", false)]);
    }

    #[test]
    fn field_lists_are_the_reference_table() {
        let mut distinct = REFERENCE_FIELDS.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 62);
        for f in REFERENCE_FIELDS {
            let read_only = READ_ONLY.contains(&f);
            let update = AD_SET_FIELDS.contains(&f);
            assert!(read_only != update, "{f}: in exactly one list");
        }
        for f in AD_SET_FIELDS.iter().chain(READ_ONLY) {
            assert!(
                REFERENCE_FIELDS.contains(&f),
                "{f} is not in the reference's table"
            );
        }
        assert_eq!((READ_ONLY.len(), AD_SET_FIELDS.len()), (13, 49));
        // The photo-sharing account ID and the dynamic creative flag, which the reference
        // describes without naming them: by their names in the API, and no more.
        assert_eq!(
            DESCRIBED_UNNAMED.iter().collect::<Vec<_>>(),
            [
                "instagram_actor_id",
                "instagram_user_id",
                "is_dynamic_creative"
            ]
        );
        assert!(
            DESCRIBED_UNNAMED
                .iter()
                .all(|f| !REFERENCE_FIELDS.contains(&f))
        );
    }

    /// The reference's table against the vendor's specs (catalog/advertising/vendor/specs,
    /// AdSet.json, compiled into the graph): every field but one is an AdSet field there
    /// too, so a misspelt name in either list is caught.
    #[test]
    fn reference_fields_are_fields_of_the_vendor_specs() {
        let ad_set = GNode::parse("ad_set").unwrap();
        let missing: Vec<&str> = REFERENCE_FIELDS
            .into_iter()
            .filter(|f| ad_set.field(f).is_none())
            .collect();
        assert_eq!(missing, ["contextual_bundling_spec"]);
        // The specs name the photo-sharing account `instagram_user_id`; reads still
        // ask for its older name too.
        let unnamed_missing: Vec<&str> = DESCRIBED_UNNAMED
            .iter()
            .filter(|f| ad_set.field(f).is_none())
            .collect();
        assert_eq!(unnamed_missing, ["instagram_actor_id"]);
    }
}

#[cfg(test)]
mod rule_tests {
    use crate::testing::spans;

    const CONTEXT: &str = "ad_sets:\n  - {id: '901'}\n";

    fn found(yaml: &str) -> Vec<String> {
        spans("adset-read-unknown-field", CONTEXT, yaml)
    }

    #[test]
    fn names_in_params_and_query() {
        let yaml = "requests:\n  - GET /v24.0/901?fields=id,nmae,is_dynamic_creative\n  - request: GET /v24.0/901\n    params: {fields: \"id, daily_budgt, ads{name}, insights.date_preset(maximum){spend}, campain{nmae}, colour\"}\n";
        assert_eq!(found(yaml), vec!["nmae", "daily_budgt", "colour"]);
    }

    #[test]
    fn percent_encoded_query_points_at_the_value() {
        let yaml = "request: GET /v24.0/901?fields=id%2Cnmae\n";
        assert_eq!(found(yaml), vec!["id%2Cnmae"]);
    }
}
