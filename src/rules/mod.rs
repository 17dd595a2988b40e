//! The registry of rules: every rule, in the order `reqlint rules` lists them, and the
//! names `select` and `ignore` take. What a rule is lives in [`rule`]; each folder beside
//! it holds the rules of one group, one rule a file.

pub mod advertising;
pub mod codehost;
pub mod core;
pub mod rule;

pub use crate::model::facts::{RunContext, RunFacts};
pub use crate::model::file::FileContext;
pub use rule::{Declared, Example, FixMeta, Group, Inspects, Rule, RuleMeta};

/// Every rule, in the order `reqlint rules` lists them.
pub static REGISTRY: &[&dyn Rule] = &[
    &core::invalid_syntax::InvalidSyntax,
    &core::limit_exceeded::LimitExceeded,
    &core::duplicate_key::DuplicateKey,
    &core::duplicate_param::DuplicateParam,
    &core::not_a_request_file::NotARequestFile,
    &core::request_list_without_key::RequestListWithoutKey,
    &core::unknown_request_key::UnknownRequestKey,
    &core::malformed_request_line::MalformedRequestLine,
    &core::http_request_not_separated::HttpRequestNotSeparated,
    &core::invalid_request_field::InvalidRequestField,
    &core::literal_secret::LiteralSecret,
    &core::unknown_suppressed_rule::UnknownSuppressedRule,
    &codehost::token_permission_invalid::TokenPermissionInvalid,
    &codehost::token_undefined::TokenUndefined,
    &codehost::unknown_endpoint::UnknownEndpoint,
    &codehost::token_missing_permission::TokenMissingPermission,
    &codehost::token_resource_out_of_reach::TokenResourceOutOfReach,
    &codehost::token_over_privileged::TokenOverPrivileged,
    &codehost::token_cannot_call::TokenCannotCall,
    &codehost::rest_param_unknown::RestParamUnknown,
    &codehost::rest_param_invalid::RestParamInvalid,
    &codehost::rest_param_missing::RestParamMissing,
    &codehost::job_token_missing_permission::JobTokenMissingPermission,
    &codehost::job_token_unused_permission::JobTokenUnusedPermission,
    &codehost::job_token_unrestricted::JobTokenUnrestricted,
    &codehost::job_permissions_invalid::JobPermissionsInvalid,
    &advertising::ad_unknown_endpoint::AdUnknownEndpoint,
    &advertising::ad_version_deprecated::AdVersionDeprecated,
    &advertising::ad_version_newer_than_catalog::AdVersionNewerThanCatalog,
    &advertising::ad_param_invalid::AdParamInvalid,
    &advertising::ad_param_missing::AdParamMissing,
    &advertising::ad_param_unknown::AdParamUnknown,
    &advertising::ad_param_not_updatable::AdParamNotUpdatable,
    &advertising::ad_field_unknown::AdFieldUnknown,
    &advertising::ad_param_not_a_list::AdParamNotAList,
    &advertising::audience_retention_days_range::AudienceRetentionDaysRange,
    &advertising::audience_retention_days_not_customer_file::AudienceRetentionDaysNotCustomerFile,
    &advertising::audience_subtype_invalid::AudienceSubtypeInvalid,
    &advertising::audience_travel_content_type_missing::AudienceTravelContentTypeMissing,
    &advertising::audience_event_sources_invalid::AudienceEventSourcesInvalid,
    &advertising::audience_lookalike_spec_invalid::AudienceLookalikeSpecInvalid,
    &advertising::audience_lookalike_spec_without_lookalike::AudienceLookalikeSpecWithoutLookalike,
    &advertising::audience_origin_too_small::AudienceOriginTooSmall,
    &advertising::audience_flagged_edit::AudienceFlaggedEdit,
    &advertising::audience_delete_with_lookalikes::AudienceDeleteWithLookalikes,
    &advertising::audience_delete_permanent::AudienceDeletePermanent,
    &advertising::audience_tos_not_accepted::AudienceTosNotAccepted,
    &advertising::audience_opt_out_empty::AudienceOptOutEmpty,
    // ad set rules, group A: EU payor and beneficiary, create basics
    &advertising::adset_name_missing::AdSetNameMissing,
    &advertising::adset_countries_missing::AdSetCountriesMissing,
    &advertising::adset_country_code_invalid::AdSetCountryCodeInvalid,
    &advertising::adset_dsa_payor_missing::AdSetDsaPayorMissing,
    &advertising::adset_dsa_beneficiary_missing::AdSetDsaBeneficiaryMissing,
    &advertising::adset_dsa_not_eu::AdSetDsaNotEu,
    // ad set rules, group B: budgets, promoted_object, time based ad rotation
    &advertising::adset_budget_below_minimum::AdSetBudgetBelowMinimum,
    &advertising::adset_bid_amount_missing::AdSetBidAmountMissing,
    &advertising::adset_lifetime_budget_without_end_time::AdSetLifetimeBudgetWithoutEndTime,
    &advertising::adset_both_budgets::AdSetBothBudgets,
    &advertising::adset_spend_cap_unlimited::AdSetSpendCapUnlimited,
    &advertising::adset_promoted_object_missing::AdSetPromotedObjectMissing,
    &advertising::adset_ad_rotation_invalid::AdSetAdRotationInvalid,
    // ad set rules, group C: states, flagged assets, copies, versions, reads, objectives
    &advertising::adset_archived_edit::AdSetArchivedEdit,
    &advertising::adset_flagged_audience::AdSetFlaggedAudience,
    &advertising::adset_flagged_conversion::AdSetFlaggedConversion,
    &advertising::adset_audience_unusable::AdSetAudienceUnusable,
    &advertising::adset_deep_copy_too_many::AdSetDeepCopyTooMany,
    &advertising::adset_date_preset_lifetime::AdSetDatePresetLifetime,
    &advertising::adset_impressions_on_post::AdSetImpressionsOnPost,
    &advertising::adset_read_unknown_field::AdSetReadUnknownField,
    &advertising::adset_time_range_invalid::AdSetTimeRangeInvalid,
    &advertising::adset_goal_not_for_objective::AdSetGoalNotForObjective,
    &advertising::ad_call_not_checked::AdCallNotChecked,
    &advertising::campaign_both_budgets::CampaignBothBudgets,
];

pub fn find(name: &str) -> Option<&'static dyn Rule> {
    REGISTRY.iter().copied().find(|r| r.meta().name == name)
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|r| r.meta().name).collect()
}

/// The rules that say a file could not be read whole. A `select` keeps them, as ruff
/// reports syntax errors whatever is selected: a file that was not read must not pass
/// in silence. `ignore` or `off` still turn them off.
pub static ALWAYS_SELECTED: &[&RuleMeta] =
    &[&core::invalid_syntax::META, &core::limit_exceeded::META];

/// Whether a rule is one of [`ALWAYS_SELECTED`].
pub fn always_selected(name: &str) -> bool {
    ALWAYS_SELECTED.iter().any(|m| m.name == name)
}

/// The names `select`, `extend-select` and `ignore` take besides a rule's: its group's,
/// or `ALL`.
pub const GROUP_NAMES: &[&str] = &["files", "code-hosting", "advertising", "ALL"];

/// The rules a name in `select`, `extend-select` or `ignore` stands for: a rule, a
/// group, or `ALL` (in any case).
pub fn named(name: &str) -> Result<Vec<&'static str>, String> {
    let name = name.trim();
    if name.eq_ignore_ascii_case("all") {
        return Ok(names());
    }
    let group: Vec<&'static str> = REGISTRY
        .iter()
        .filter(|r| r.meta().group.as_str() == name)
        .map(|r| r.meta().name)
        .collect();
    if !group.is_empty() {
        return Ok(group);
    }
    if let Some(rule) = find(name) {
        return Ok(vec![rule.meta().name]);
    }
    let candidates = names().into_iter().chain(GROUP_NAMES.iter().copied());
    Err(match crate::suggest::did_you_mean(name, candidates) {
        Some(s) => format!("unknown rule or group `{name}` (did you mean `{s}`?)"),
        None => format!("unknown rule or group `{name}`; `reqlint rules` lists them"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The param tables route findings to rules by a typed name: each must be a rule.
    #[test]
    fn every_param_route_names_a_rule() {
        let names = names();
        for route in crate::catalog::advertising::ParamRule::ALL {
            assert!(
                names.contains(&route.name()),
                "catalog/advertising/params.yaml routes to `{}`, which is no rule",
                route.name()
            );
        }
    }

    /// The group names `select` takes are the registry's groups, in its order, and `ALL`.
    #[test]
    fn group_names_are_the_registrys_groups() {
        let mut groups: Vec<&str> = Vec::new();
        for rule in REGISTRY {
            let group = rule.meta().group.as_str();
            if !groups.contains(&group) {
                groups.push(group);
            }
        }
        groups.push("ALL");
        assert_eq!(GROUP_NAMES, groups.as_slice());
    }

    #[test]
    fn names_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in REGISTRY {
            let m = rule.meta();
            assert!(seen.insert(m.name), "duplicate rule {}", m.name);
            assert!(
                m.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{} is not kebab-case",
                m.name
            );
            assert!(
                !m.summary.ends_with('.'),
                "{}: a summary is a phrase",
                m.name
            );
            assert!(!m.what.is_empty() && !m.why.is_empty() && !m.source.is_empty());
            assert!(m.bad.path.contains(m.name) && m.good.path.contains(m.name));
        }
    }
}
