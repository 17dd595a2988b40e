use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use super::adset_lookup::{campaign, id_text, text};
use super::{Call, Endpoint};
use crate::catalog::advertising::{ParamType, goals, objective as objective_row};

pub struct AdSetGoalNotForObjective;

static META: RuleMeta = RuleMeta {
    name: "adset-goal-not-for-objective",
    group: Group::Advertising,
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
    inspects: Inspects::Operations(&[Endpoint::AdSetCreate]),
    bad: example!("adset-goal-not-for-objective/bad.req.yaml"),
    good: example!("adset-goal-not-for-objective/good.req.yaml"),
};

/// The optimization_goal values of the ad set create table.
fn goal_enum() -> &'static [&'static str] {
    match Endpoint::AdSetCreate
        .params()
        .param("optimization_goal")
        .map(|s| &s.ty)
    {
        Some(ParamType::Enum { values, .. }) => values,
        _ => &[],
    }
}

impl Rule for AdSetGoalNotForObjective {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_call(&self, file: &FileContext<'_>, c: &Call<'_>, out: &mut Vec<Diagnostic>) {
        let request = c.request;
        let (Some(goal), Some(campaign_id)) = (
            super::valid_param(file, request, "optimization_goal"),
            request.param("campaign_id"),
        ) else {
            return;
        };
        let Some(goal_text) = goal.value.as_str().map(str::trim) else {
            return;
        };
        if !goal_enum().contains(&goal_text) {
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
        let seed_name = objective_row(objective).map_or("", |o| o.seed);
        out.push(
            Diagnostic::new(
                &META,
                goal.value.span,
                format!("optimization goal {goal_text} is not one the campaign's objective {objective} ({seed_name}) offers"),
            )
            .with_label(campaign_id.value.span, format!("{objective} campaign"))
            .with_help(format!("the goals of {objective} are {}", goals.join(", "))),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../../seeds/002_df9fd792f0eab53c.txt");

    /// Splits at `sep` outside parentheses.
    fn split_top(text: &str, sep: char) -> Vec<&str> {
        let mut out = Vec::new();
        let (mut depth, mut start) = (0i32, 0);
        for (i, c) in text.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                c if c == sep && depth == 0 => {
                    out.push(&text[start..i]);
                    start = i + c.len_utf8();
                }
                _ => {}
            }
        }
        out.push(&text[start..]);
        out
    }

    /// The goal words of a row of the seed's objective table: the goals after each
    /// `location:`, and after `goals`; parts without goals (events, closed betas) are
    /// left out.
    fn seed_words(objective: &str) -> Vec<String> {
        let start = SEED.find("### Objective mapping").unwrap();
        let end = SEED[start..].find("From version 20.0").unwrap() + start;
        let row = SEED[start..end]
            .lines()
            .find(|l| l.starts_with(&format!("| {objective} |")))
            .unwrap_or_else(|| panic!("no row {objective}"));
        let cell = row.split('|').nth(2).unwrap().trim();
        let mut words: Vec<String> = Vec::new();
        for part in split_top(cell, ';') {
            let part = part.trim();
            let goals = match split_top(part, ':').as_slice() {
                [_, goals] => goals.trim(),
                _ => match part.strip_prefix("goals ") {
                    Some(goals) => goals,
                    None => continue,
                },
            };
            for w in goals.split(", ") {
                if !words.iter().any(|x| x == w) {
                    words.push(w.trim().to_string());
                }
            }
        }
        words
    }

    use crate::catalog::advertising::{GOAL_WORDS, OBJECTIVES, UNMAPPED_GOAL_WORDS};

    #[test]
    fn mapping_is_the_seed_table() {
        assert_eq!(OBJECTIVES.len(), 6);
        for (objective, o) in OBJECTIVES {
            let mut seed = seed_words(o.seed);
            let mut data = o.words.to_vec();
            seed.sort();
            data.sort();
            assert_eq!(data, seed, "{objective} ({})", o.seed);
            assert_eq!(
                *objective,
                format!("OUTCOME_{}", o.seed.to_uppercase().replace(' ', "_"))
            );
        }
    }

    #[test]
    fn every_word_is_mapped_to_enum_values_or_left_out() {
        let goals = goal_enum();
        for (_, o) in OBJECTIVES {
            for w in o.words {
                let mapped = GOAL_WORDS.iter().any(|(g, _)| g == w);
                let left_out = UNMAPPED_GOAL_WORDS.contains(w);
                assert!(mapped != left_out, "{w}: mapped or left out, not both");
            }
        }
        for (w, values) in GOAL_WORDS {
            assert!(!values.is_empty(), "{w}");
            for v in values.iter() {
                assert!(goals.contains(v), "{w}: {v} is not an optimization_goal");
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
    use super::super::adset_lookup::testing::spans;

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
