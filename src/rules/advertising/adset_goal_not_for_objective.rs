use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{campaign, id_text, text};
use crate::catalog::advertising::{ParamType, goals, objective as objective_row};

crate::declare_rule! {
    pub struct AdSetGoalNotForObjective {
        name: "adset-goal-not-for-objective",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set optimization goal that its campaign's objective does not offer",
        what: "For an ad set create, looks up the campaign (`campaign_id`) in the context \
               snapshots and, when its `objective` is outcome-driven (OUTCOME_AWARENESS, \
               OUTCOME_TRAFFIC, OUTCOME_ENGAGEMENT, OUTCOME_LEADS, OUTCOME_APP_PROMOTION, \
               OUTCOME_SALES), reports an `optimization_goal` that the reference's objective mapping \
               does not list for that objective at any of its locations. The table is data \
               (adset_objective_goals.yaml): the reference's goal words map to optimization_goal \
               values (Daily Unique Reach is REACH, Conversions and App Events are \
               OFFSITE_CONVERSIONS, Leads are LEAD_GENERATION and QUALITY_LEAD, Calls are \
               QUALITY_CALL); \"2 second continuous view\" names no value of the reference's list and \
               adds none. Legacy objectives, campaigns the context does not hold and goals \
               outside the enum (ad-param-invalid's) are not judged.",
        why: "An outcome-driven campaign takes only the optimization goals its objective \
              offers: the API refuses an ad set with another goal.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Objective mapping\"",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate]),
        bad: example!("adset-goal-not-for-objective/bad.req.yaml"),
        good: example!("adset-goal-not-for-objective/good.req.yaml"),
    }
}

/// The optimization_goal values of the ad set create table.
fn goal_enum() -> impl Iterator<Item = &'static str> {
    let values = match Operation::AdSetCreate
        .params()
        .param("optimization_goal")
        .map(|s| &s.ty)
    {
        Some(ParamType::Enum { values, .. }) => Some(*values),
        _ => None,
    };
    values.into_iter().flat_map(|v| v.strs())
}

impl Rule for AdSetGoalNotForObjective {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let (Some(goal), Some(campaign_id)) = (
            crate::apis::advertising::valid_param(file, request, "optimization_goal"),
            request.param("campaign_id"),
        ) else {
            return;
        };
        let Some(goal_text) = goal.value.as_str().map(str::trim) else {
            return;
        };
        if !goal_enum().any(|g| g == goal_text) {
            return;
        }
        let Some(objective) = id_text(&campaign_id.value)
            .and_then(|id| campaign(file.context, &id))
            .and_then(|c| text(c, "objective"))
        else {
            return;
        };
        let Some(goals) = goals(objective) else {
            return;
        };
        if goals.contains(&goal_text) {
            return;
        }
        let objective_name = objective_row(objective).map_or("", |o| o.name.as_str());
        out.push(
            Diagnostic::new(
                &META,
                goal.value.span,
                format!("optimization goal {goal_text} is not one the campaign's objective {objective} ({objective_name}) offers"),
            )
            .with_label(campaign_id.value.span, format!("{objective} campaign"))
            .with_help(format!("the goals of {objective} are {}", goals.join(", "))),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::catalog::advertising::{GOAL_WORDS, OBJECTIVES, UNMAPPED_GOAL_WORDS};

    /// The objective mapping of Meta's Marketing API reference for ad sets
    /// (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/): each
    /// outcome-driven objective by its name there, and the optimization goals its row
    /// names over all its locations (events and closed betas left out), in the row's
    /// order.
    const REFERENCE_MAPPING: [(&str, &[&str]); 6] = [
        ("Awareness", &["Ad Recall Lift", "Reach", "Impressions"]),
        (
            "Traffic",
            &[
                "Link Clicks",
                "Landing Page Views",
                "Impressions",
                "Daily Unique Reach",
            ],
        ),
        (
            "Engagement",
            &[
                "ThruPlay",
                "2 second continuous view",
                "Post Engagement",
                "Impressions",
                "Daily Unique Reach",
                "Event Response",
                "Conversations",
                "Link Clicks",
                "Conversions",
                "Landing Page Views",
                "App Events",
                "Page Likes",
            ],
        ),
        (
            "Leads",
            &[
                "Conversions",
                "Landing Page Views",
                "Link Clicks",
                "Impressions",
                "Daily Unique Reach",
                "Leads",
                "Calls",
                "App Events",
            ],
        ),
        (
            "App Promotion",
            &[
                "Link Clicks",
                "App Installs",
                "App Events",
                "Value",
                "App Installs with App Events",
            ],
        ),
        (
            "Sales",
            &[
                "Conversions",
                "Value",
                "Landing Page Views",
                "Link Clicks",
                "Impressions",
                "Daily Unique Reach",
                "App Events",
                "Conversations",
                "Reach",
            ],
        ),
    ];

    #[test]
    fn mapping_is_the_reference_table() {
        assert_eq!(OBJECTIVES.len(), REFERENCE_MAPPING.len());
        for (name, words) in REFERENCE_MAPPING {
            let objective = format!("OUTCOME_{}", name.to_uppercase().replace(' ', "_"));
            let o = objective_row(&objective).unwrap_or_else(|| panic!("no {objective}"));
            assert_eq!(o.name, name);
            let mut data: Vec<&str> = o.words.iter().collect();
            let mut reference = words.to_vec();
            data.sort_unstable();
            reference.sort_unstable();
            assert_eq!(data, reference, "{objective} ({name})");
        }
    }

    /// The campaign objectives are values of the vendor's specs' enum of a campaign's
    /// `objective` (catalog/advertising/vendor/specs, compiled into the graph).
    #[test]
    fn objectives_are_campaign_objectives_of_the_specs() {
        use crate::catalog::graph::{GNode, GType, enum_values};
        use crate::model::request_line::Method;
        let call = GNode::parse("ad_account")
            .and_then(|n| n.call(Method::Post, "campaigns"))
            .unwrap();
        let GType::Enum(e) = call.get().param("objective").unwrap().ty.item() else {
            panic!("objective is not an enum");
        };
        for (objective, _) in &OBJECTIVES {
            assert!(enum_values(e).contains(&objective.as_str()), "{objective}");
        }
    }

    #[test]
    fn every_word_is_mapped_to_enum_values_or_left_out() {
        let goals: Vec<&str> = goal_enum().collect();
        for (_, o) in &OBJECTIVES {
            for w in o.words {
                let mapped = GOAL_WORDS.iter().any(|(g, _)| g == w);
                let left_out = UNMAPPED_GOAL_WORDS.contains(w);
                assert!(mapped != left_out, "{w}: mapped or left out, not both");
            }
        }
        for (w, values) in GOAL_WORDS {
            assert!(!values.is_empty(), "{w}");
            for v in values.iter() {
                assert!(goals.contains(&v), "{w}: {v} is not an optimization_goal");
            }
        }
    }

    #[test]
    fn goals_of_an_objective() {
        assert_eq!(
            goals("OUTCOME_AWARENESS").unwrap(),
            vec!["AD_RECALL_LIFT", "REACH", "IMPRESSIONS"]
        );
        let leads = goals("OUTCOME_LEADS").unwrap();
        assert!(leads.contains(&"QUALITY_CALL") && leads.contains(&"LEAD_GENERATION"));
        assert!(!leads.contains(&"THRUPLAY"));
        assert!(goals("LINK_CLICKS").is_none());
    }
}

#[cfg(test)]
mod rule_tests {
    use crate::testing::spans;

    const CONTEXT: &str = "campaigns:\n  - {id: '501', objective: OUTCOME_LEADS}\n  - {id: '502', objective: LINK_CLICKS}\n  - {id: '503', objective: OUTCOME_SALES}\n";

    #[test]
    fn outcome_objectives_only() {
        let yaml = "requests:\n  - request: POST /v24.0/act_1/adsets\n    params: {campaign_id: 501, optimization_goal: THRUPLAY}\n  - request: POST /v24.0/act_1/adsets\n    params: {campaign_id: '501', optimization_goal: QUALITY_CALL}\n  - request: POST /v24.0/act_1/adsets\n    params: {campaign_id: '502', optimization_goal: THRUPLAY}\n  - request: POST /v24.0/act_1/adsets\n    params: {campaign_id: '504', optimization_goal: THRUPLAY}\n  - request: POST /v24.0/act_1/adsets\n    params: {campaign_id: '503', optimization_goal: VIDEO_VIEWS}\n  - request: POST /v24.0/act_1/adsets\n    params: {campaign_id: '503', optimization_goal: PAGE_LIKES}\n  - request: POST /v24.0/901\n    object: ad_set\n    params: {campaign_id: '503', optimization_goal: PAGE_LIKES}\n";
        assert_eq!(
            spans("adset-goal-not-for-objective", CONTEXT, yaml),
            vec!["THRUPLAY", "PAGE_LIKES"]
        );
    }
}
