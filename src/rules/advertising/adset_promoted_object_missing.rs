use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Value};
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

/// Goals whose promoted object is a page: `{page_id}`. Meta's reference for ad sets
/// needs `{page_id}` when the goal is LEAD_GENERATION, and its page likes sample sends
/// promoted_object with page_id.
pub const PAGE_GOALS: &[&str] = &["LEAD_GENERATION", "PAGE_LIKES"];

/// Goals whose promoted object is an app: `{application_id, object_store_url}`, the
/// reference's other shape. These are the optimization_goal values that only app
/// promotion takes (the App Promotion row of its objective mapping: App Installs, App
/// Installs with App Events, and app value). VALUE and OFFSITE_CONVERSIONS are not here:
/// VALUE also optimizes website value, and OFFSITE_CONVERSIONS has a rule of its own that
/// the reference does not give.
pub const APP_GOALS: &[&str] = &[
    "APP_INSTALLS",
    "APP_INSTALLS_AND_OFFSITE_CONVERSIONS",
    "IN_APP_VALUE",
];

const APP_FIELDS: &[&str] = &["application_id", "object_store_url"];

crate::declare_rule! {
    pub struct AdSetPromotedObjectMissing {
        name: "adset-promoted-object-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set's goal needs a `promoted_object` that the create does not give",
        what: "For an ad set create: `optimization_goal` LEAD_GENERATION or PAGE_LIKES without \
               `promoted_object.page_id` (at the goal, or inside `promoted_object` when it is \
               there without page_id); and an app goal (APP_INSTALLS, \
               APP_INSTALLS_AND_OFFSITE_CONVERSIONS, IN_APP_VALUE) whose `promoted_object` lacks \
               `application_id` or `object_store_url`. `promoted_object` may be a mapping or a \
               JSON-encoded string. An app goal without any promoted_object, and updates, are \
               not judged. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "promoted_object is required with certain objectives: a lead or page like ad set \
              promotes a page, an app ad set an app in its store. The API refuses the create \
              with error 100.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Create an ad set (promoted_object) and \"Objective \
                 mapping\" (page likes sample)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate]),
        bad: example!("adset-promoted-object-missing/bad.req.yaml"),
        good: example!("adset-promoted-object-missing/good.req.yaml"),
    }
}

/// A promoted_object field that is there: not null, not an empty string.
fn has(object: &Node, field: &str) -> bool {
    object
        .get_value(field)
        .is_some_and(|v| !matches!(&v.value, Value::Null) && v.as_str() != Some(""))
}

impl Rule for AdSetPromotedObjectMissing {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(goal) = crate::apis::advertising::valid_param(file, request, "optimization_goal")
        else {
            return;
        };
        let Some(goal_name) = goal.value.as_str() else {
            return;
        };
        let promoted = request.param("promoted_object");
        // The decoded object; None when it is there but not an object (another rule).
        let object = promoted.map(|p| p.value.resolved());
        if object.is_some_and(|o| o.as_map().is_none()) {
            return;
        }
        if PAGE_GOALS.contains(&goal_name) {
            match object {
                None if !crate::apis::advertising::absent(request, "promoted_object") => {}
                None => out.push(
                    Diagnostic::new(
                        &META,
                        goal.value.span,
                        format!("optimization_goal {goal_name} needs promoted_object with page_id, which the request does not give"),
                    )
                    .with_help("add promoted_object: {page_id: \"<the page's ID>\"}")
                    .with_api_error(100, None),
                ),
                Some(o) if !has(o, "page_id") => out.push(
                    Diagnostic::new(
                        &META,
                        o.span,
                        format!("promoted_object has no page_id, which optimization_goal {goal_name} needs"),
                    )
                    .with_label(goal.value.span, "the goal that needs it")
                    .with_help("add page_id, the ID of the page the ads promote")
                    .with_api_error(100, None),
                ),
                Some(_) => {}
            }
        } else if APP_GOALS.contains(&goal_name) {
            let Some(o) = object else { return };
            let missing: Vec<&str> = APP_FIELDS.iter().copied().filter(|f| !has(o, f)).collect();
            if missing.is_empty() {
                return;
            }
            out.push(
                Diagnostic::new(
                    &META,
                    o.span,
                    format!(
                        "promoted_object has no {}, which optimization_goal {goal_name} needs",
                        missing.join(" and no ")
                    ),
                )
                .with_label(goal.value.span, "the goal that needs it")
                .with_help("an app's promoted_object names application_id and object_store_url (the app's store page)")
                .with_api_error(100, None),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::META;
    use crate::testing::diagnostics_with_rates as lint;

    /// (line:column, message) of each diagnostic of this rule.
    fn found(params: &str) -> Vec<(String, String)> {
        let yaml = format!("request: POST /v24.0/act_1/adsets\nparams:\n{params}");
        lint(META.name, &yaml, "", &[])
            .into_iter()
            .map(|d| (yaml[d.span.range()].to_string(), d.message))
            .collect()
    }

    #[test]
    fn page_goals() {
        let got = found("  optimization_goal: PAGE_LIKES\n");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, "PAGE_LIKES");
        // Inside a JSON-encoded promoted_object: the span is the decoded object.
        let got = found(
            "  optimization_goal: LEAD_GENERATION\n  promoted_object: '{\"pixel_id\": \"1\"}'\n",
        );
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, "{\"pixel_id\": \"1\"}");
        assert_eq!(
            got[0].1,
            "promoted_object has no page_id, which optimization_goal LEAD_GENERATION needs"
        );
        // A null or empty page_id is no page.
        assert_eq!(
            found("  optimization_goal: PAGE_LIKES\n  promoted_object: {page_id: null}\n").len(),
            1
        );
        assert_eq!(
            found("  optimization_goal: PAGE_LIKES\n  promoted_object: {page_id: ''}\n").len(),
            1
        );
        assert!(
            found("  optimization_goal: PAGE_LIKES\n  promoted_object: {page_id: 12}\n").is_empty()
        );
        assert!(
            found(
                "  optimization_goal: LEAD_GENERATION\n  promoted_object: '{\"page_id\": \"12\"}'\n"
            )
            .is_empty()
        );
    }

    #[test]
    fn app_goals_and_what_is_not_judged() {
        let got = found("  optimization_goal: IN_APP_VALUE\n  promoted_object: {pixel_id: '1'}\n");
        assert_eq!(
            got[0].1,
            "promoted_object has no application_id and no object_store_url, which optimization_goal IN_APP_VALUE needs"
        );
        for quiet in [
            // An app goal without promoted_object: the reference does not say it is needed.
            "  optimization_goal: APP_INSTALLS\n",
            // Other goals, a promoted_object that is not an object (another rule's).
            "  optimization_goal: OFFSITE_CONVERSIONS\n",
            "  optimization_goal: VALUE\n  promoted_object: {pixel_id: '1'}\n",
            "  optimization_goal: PAGE_LIKES\n  promoted_object: 'page 12'\n",
            "  optimization_goal: PAGE_LIKES\n  promoted_object: [12]\n",
        ] {
            assert!(found(quiet).is_empty(), "{quiet}");
        }
        // Updates are not judged.
        let update = "request: POST /v24.0/23862000000000001\nobject: ad_set\nparams: {optimization_goal: LEAD_GENERATION}\n";
        assert!(lint(META.name, update, "", &[]).is_empty());
    }
}
