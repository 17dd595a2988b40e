//! The advertising API's rules (Meta's Marketing API): one rule a file. What they share
//! (routing, param tables, context lookups) is the API's wing, `crate::apis::advertising`.

pub mod ad_call_not_checked;
pub mod ad_field_unknown;
pub mod ad_param_invalid;
pub mod ad_param_missing;
pub mod ad_param_not_a_list;
pub mod ad_param_not_updatable;
pub mod ad_param_unknown;
pub mod ad_unknown_endpoint;
pub mod ad_version_deprecated;
pub mod ad_version_newer_than_catalog;
pub mod audience_delete_permanent;
pub mod audience_delete_with_lookalikes;
pub mod audience_event_sources_invalid;
pub mod audience_flagged_edit;
pub mod audience_lookalike_spec_invalid;
pub mod audience_lookalike_spec_without_lookalike;
pub mod audience_opt_out_empty;
pub mod audience_origin_too_small;
pub mod audience_retention_days_not_customer_file;
pub mod audience_retention_days_range;
pub mod audience_subtype_invalid;
pub mod audience_tos_not_accepted;
pub mod audience_travel_content_type_missing;
// ad set rules, group A: EU payor and beneficiary, create basics
pub mod adset_countries_missing;
pub mod adset_country_code_invalid;
pub mod adset_dsa_beneficiary_missing;
pub mod adset_dsa_not_eu;
pub mod adset_dsa_payor_missing;
pub mod adset_name_missing;
// ad set rules, group B: budgets, promoted_object, time based ad rotation
pub mod adset_ad_rotation_invalid;
pub mod adset_bid_amount_missing;
pub mod adset_both_budgets;
pub mod adset_budget_below_minimum;
pub mod adset_lifetime_budget_without_end_time;
pub mod adset_promoted_object_missing;
pub mod adset_spend_cap_unlimited;
// ad set rules, group C: states, flagged assets, copies, versions, reads, objectives
pub mod adset_archived_edit;
pub mod adset_audience_unusable;
pub mod adset_date_preset_lifetime;
pub mod adset_deep_copy_too_many;
pub mod adset_flagged_audience;
pub mod adset_flagged_conversion;
pub mod adset_goal_not_for_objective;
pub mod adset_impressions_on_post;
pub mod adset_read_unknown_field;
pub mod adset_time_range_invalid;
pub mod campaign_both_budgets;
