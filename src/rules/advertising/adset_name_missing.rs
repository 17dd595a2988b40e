use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{Operation, Sent};

crate::declare_rule! {
    pub struct AdSetNameMissing {
        name: "adset-name-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set create without a name",
        what: "For an ad set create (`POST /{version}/act_<id>/adsets`), reports a missing \
               `name` at the `params` key (at the request line when there are no params), and \
               a blank one at its value. A name that is not a string is ad-param-invalid's, as \
               is its 400-character limit. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "The create call requires a name; without one the API answers error 100 \
              (invalid parameter).",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Create an ad set (name: required)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate]),
        bad: example!("adset-name-missing/bad.req.yaml"),
        good: example!("adset-name-missing/good.req.yaml"),
    }
}

impl Rule for AdSetNameMissing {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let diagnostic = match crate::apis::advertising::sent(request, "name") {
            Sent::Absent => Diagnostic::new(
                &META,
                request.params.map_or(request.line_span, |p| p.key_span),
                "ad set create has no `name`; the API requires one",
            )
            .with_help("add `name:` with a name of at most 400 characters"),
            Sent::Given(name) if name.value.as_str().is_some_and(|s| s.trim().is_empty()) => {
                Diagnostic::new(
                    &META,
                    name.value.span,
                    "ad set `name` is blank; the API requires one",
                )
                .with_help("give the ad set a name of at most 400 characters")
            }
            Sent::Given(_) | Sent::Unknown => return,
        };
        out.push(diagnostic.with_api_error(100, None));
    }
}

#[cfg(test)]
mod tests {
    use crate::apis::advertising::adset_geo::testing::CONTEXT;
    use crate::testing::spans;

    const RULE: &str = "adset-name-missing";

    #[test]
    fn points_at_params_the_request_line_or_a_blank_name() {
        let geo = "targeting: {geo_locations: {countries: [US]}}";
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &format!("request: POST /v24.0/act_1/adsets\nparams:\n  {geo}\n")
            ),
            ["params"]
        );
        assert_eq!(
            spans(RULE, CONTEXT, "requests:\n  - POST /v24.0/act_1/adsets\n"),
            ["POST /v24.0/act_1/adsets"]
        );
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &format!("request: POST /v24.0/act_1/adsets\nparams:\n  name: ''\n  {geo}\n")
            ),
            ["''"]
        );
        // In the query string, or not a string (ad-param-invalid's): not missing.
        for silent in [
            format!("request: POST /v24.0/act_1/adsets?name=x\nparams:\n  {geo}\n"),
            format!("request: POST /v24.0/act_1/adsets\nparams:\n  name: null\n  {geo}\n"),
            "request: POST /v24.0/11\nparams: {status: PAUSED}\n".to_string(),
            "request: POST /v24.0/11/copies\nparams: {deep_copy: false}\n".to_string(),
        ] {
            assert!(spans(RULE, CONTEXT, &silent).is_empty(), "{silent}");
        }
    }
}
