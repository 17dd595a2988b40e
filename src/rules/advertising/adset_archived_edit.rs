use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{ad_set, text};
use crate::catalog::advertising::COMMON;

crate::declare_rule! {
    pub struct AdSetArchivedEdit {
        name: "adset-archived-edit",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an update of an archived or deleted ad set that changes more than the API allows",
        what: "For an ad set update whose ad set the context shows ARCHIVED or DELETED (its \
               `status`, else `configured_status`): an archived ad set may change only `name`, \
               and its status only to DELETED; a deleted ad set may change only `name`. Every \
               other param is reported at its key, and a status other than DELETED at its \
               value. The status field is `status`, `configured_status` or `campaign_status` \
               (the name the reference's statement of the rule uses); sending the status the ad set \
               already has changes nothing and is not reported. `access_token` and \
               `appsecret_proof` do not count. An ad set the context does not hold is not \
               judged.",
        why: "Archived and deleted ad sets are frozen: the API refuses the update with error \
              100, and an archived ad set can only be renamed or deleted.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"States and transitions\" and \"Endpoints\": Update an ad set",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetUpdate]),
        bad: example!("adset-archived-edit/bad.req.yaml"),
        good: example!("adset-archived-edit/good.req.yaml"),
    }
}

/// The names of the status field of an update.
const STATUS_FIELDS: [&str; 3] = ["status", "configured_status", "campaign_status"];

impl Rule for AdSetArchivedEdit {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, call) = (c.request, &c.call);
        let Some(id) = call.object else { return };
        let Some(state) = ad_set(file.context, &id.text)
            .and_then(|s| text(s, "status").or_else(|| text(s, "configured_status")))
        else {
            return;
        };
        let archived = match state {
            "ARCHIVED" => true,
            "DELETED" => false,
            _ => return,
        };
        let allowed = if archived {
            "only `name` and set `status` to DELETED"
        } else {
            "only `name`"
        };
        for entry in request.params() {
            let key = entry.key.as_str();
            if key == "name" || COMMON.contains(&key) {
                continue;
            }
            let mut d = if STATUS_FIELDS.contains(&key) {
                let value = entry.value.as_str();
                if value == Some(state) || (archived && value == Some("DELETED")) {
                    continue;
                }
                let to = value.map_or_else(String::new, |v| format!(" to {v}"));
                let (message, help) = if archived {
                    (
                        format!("ad set {} is archived: its `{key}` can change only to DELETED, not{to}", id.text),
                        "an archived ad set cannot be restored; copy it to run it again, or set DELETED".to_string(),
                    )
                } else {
                    (
                        format!(
                            "ad set {} is deleted: its `{key}` cannot change{to}",
                            id.text
                        ),
                        "a deleted ad set cannot be restored; copy it or create a new one"
                            .to_string(),
                    )
                };
                let span = if value.is_some() {
                    entry.value.span
                } else {
                    entry.key_span
                };
                Diagnostic::new(&META, span, message).with_help(help)
            } else {
                let what = if archived { "archived" } else { "deleted" };
                Diagnostic::new(
                    &META,
                    entry.key_span,
                    format!(
                        "ad set {} is {what}: an update may change {allowed}, not `{key}`",
                        id.text
                    ),
                )
                .with_help(format!(
                    "remove `{key}`; to change it, copy the ad set or create a new one"
                ))
            };
            d = d
                .with_label(id.span, format!("{state} ad set"))
                .with_api_error(100, None);
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    const CONTEXT: &str = "ad_sets:\n  - {id: '901', status: ARCHIVED}\n  - {id: '902', status: DELETED}\n  - {id: '903', configured_status: ARCHIVED}\n  - {id: '904', status: PAUSED}\n";

    fn found(yaml: &str) -> Vec<String> {
        spans("adset-archived-edit", CONTEXT, yaml)
    }

    #[test]
    fn only_name_and_deleted_status() {
        let yaml = "requests:\n  - request: POST /v24.0/901?bid_amount=5\n    params: {name: a, status: DELETED, access_token: '${T}', appsecret_proof: x}\n  - request: POST /v24.0/901\n    params: {status: ARCHIVED, configured_status: PAUSED}\n  - request: POST /v24.0/903\n    params: {campaign_status: ACTIVE}\n";
        assert_eq!(found(yaml), vec!["bid_amount", "PAUSED", "ACTIVE"]);
    }

    #[test]
    fn deleted_may_only_be_renamed() {
        let yaml = "requests:\n  - request: POST /v24.0/902\n    params: {name: a, status: DELETED, targeting: {geo_locations: {countries: [US]}}}\n  - request: POST /v24.0/902\n    params: {status: ARCHIVED}\n";
        assert_eq!(found(yaml), vec!["targeting", "ARCHIVED"]);
    }

    #[test]
    fn silent_without_a_frozen_ad_set_in_the_context() {
        let yaml = "requests:\n  - request: POST /v24.0/904\n    params: {daily_budget: 5000}\n  - request: POST /v24.0/905\n    object: ad_set\n    params: {daily_budget: 5000}\n  - DELETE /v24.0/901\n  - POST /v24.0/901/copies\n";
        assert!(found(yaml).is_empty());
    }
}
