use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AdCallNotChecked {
        name: "ad-call-not-checked",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Info,
        summary: "a Graph API call outside the Marketing API catalog, which reqlint does not check",
        what: "The Graph API host serves more than the Marketing API: Pages, Instagram, \
               WhatsApp, a user's videos and reels (`/me/video_reels`, `/<page id>/feed`, \
               `/<phone number id>/register`). A request to that host that no call of the \
               Marketing API catalog matches, and that is not under an ad account or an ads \
               node (a campaign, an ad set, an ad, a creative, a custom audience or a pixel, \
               as `object:` or the context snapshots tell), is said to be not checked: its \
               path, method and params are not judged. Under an ad account or an ads node \
               the catalog holds every call, and `ad-unknown-endpoint` warns instead.",
        why: "A call of another API on the same host is no mistake; saying that it was not \
              checked tells the reader that reqlint's silence about it is no approval.",
        source: "Meta's Graph API reference (https://developers.facebook.com/docs/graph-api/reference/) and Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/): the nodes each documents",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("ad-call-not-checked/bad.req.yaml"),
        good: example!("ad-call-not-checked/good.req.yaml"),
    }
}

impl Rule for AdCallNotChecked {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for unchecked in crate::apis::advertising::unchecked_calls(file) {
            let line = unchecked.line;
            out.push(
                Diagnostic::new(
                    &META,
                    unchecked.span,
                    format!(
                        "`{} {}` is not in the Marketing API catalog; not checked",
                        line.method, line.path
                    ),
                )
                .with_help(unchecked.reason.to_string()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    fn found(yaml: &str) -> Vec<String> {
        spans("ad-call-not-checked", "", yaml)
    }

    #[test]
    fn other_apis_of_the_graph_host_are_not_checked() {
        let yaml = "requests:\n  - GET https://graph.facebook.com/v25.0/me/video_reels\n  - POST https://graph.facebook.com/v25.0/{{phone_number_id}}/register\n  - PUT https://graph.facebook.com/v25.0/{{phone_number_id}}/messages\n  - GET https://graph.facebook.com/v25.0/me/videos/uploaded\n  - GET https://graph.facebook.com/oauth/access_token\n";
        assert_eq!(
            found(yaml),
            vec![
                "video_reels",
                "register",
                "PUT",
                "/v25.0/me/videos/uploaded",
                "/oauth/access_token"
            ]
        );
    }

    #[test]
    fn ads_paths_are_left_to_the_warning() {
        let yaml = "requests:\n  - GET /v25.0/act_1/ad_sets\n  - {request: GET /v25.0/9/insigths, object: campaign}\n  - PUT /v25.0/act_1/campaigns\n  - GET /v25.0/act_1/adsets/extra\n  - GET /v25.0/act_1/adsets\n";
        assert!(found(yaml).is_empty());
    }
}
