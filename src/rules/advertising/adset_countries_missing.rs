use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Value;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::adset_geo::geo_locations;
use crate::apis::advertising::{Operation, Sent};

crate::declare_rule! {
    pub struct AdSetCountriesMissing {
        name: "adset-countries-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set create whose targeting names no geo_locations.countries",
        what: "For an ad set create, reports targeting without `geo_locations.countries`: at \
               the `params` key (or the request line) when there is no `targeting`, at \
               `targeting` when it has no `geo_locations`, at `geo_locations` when it has no \
               `countries`, and at `countries` when the list is empty. Targeting may be a \
               mapping or a JSON-encoded string; targeting or geo_locations that is not a \
               mapping is left to the rules about types and syntax. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "The create call takes targeting with `countries` inside `geo_locations`, and \
              requires it; the API answers error 100 (invalid parameter) without it.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Create an ad set (targeting: countries is required \
                 inside geo_locations)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate]),
        bad: example!("adset-countries-missing/bad.req.yaml"),
        good: example!("adset-countries-missing/good.req.yaml"),
    }
}

const HELP: &str = "add `targeting: {geo_locations: {countries: [...]}}` with the ISO codes \
                    of the countries to reach, for example [US]";

impl Rule for AdSetCountriesMissing {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let targeting = match crate::apis::advertising::sent(request, "targeting") {
            Sent::Given(t) => Some(t),
            Sent::Absent => None,
            Sent::Unknown => return,
        };
        let (span, message) = match targeting {
            None => (
                request.params.map_or(request.line_span, |p| p.key_span),
                "ad set create has no `targeting`; the API requires \
                 targeting.geo_locations.countries",
            ),
            Some(t) if t.value.as_map().is_none() => return,
            Some(t) => match geo_locations(&t.value) {
                None => (
                    t.key_span,
                    "`targeting` has no `geo_locations`; the API requires \
                     geo_locations.countries",
                ),
                Some(geo) if geo.value.as_map().is_none() => return,
                Some(geo) => match geo.value.get("countries") {
                    None => (
                        geo.key_span,
                        "`geo_locations` has no `countries`; the API requires them",
                    ),
                    Some(c) if c.value.as_seq().is_some_and(<[_]>::is_empty) => (
                        c.value.span,
                        "`countries` is empty; the API requires at least one country",
                    ),
                    Some(c) if matches!(c.value.value, Value::Null) => (
                        c.key_span,
                        "`countries` is empty; the API requires at least one country",
                    ),
                    Some(_) => return,
                },
            },
        };
        out.push(
            Diagnostic::new(&META, span, message)
                .with_help(HELP)
                .with_api_error(100, None),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::apis::advertising::adset_geo::testing::CONTEXT;
    use crate::testing::spans;

    const RULE: &str = "adset-countries-missing";

    fn create(params: &str) -> String {
        format!("request: POST /v24.0/act_1/adsets\nparams:\n  name: x\n{params}")
    }

    #[test]
    fn points_where_the_countries_are_missing() {
        assert_eq!(
            spans(RULE, CONTEXT, &create("  status: PAUSED\n")),
            ["params"]
        );
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                "requests:\n  - POST /v24.0/act_1/adsets?name=x\n"
            ),
            ["POST /v24.0/act_1/adsets?name=x"]
        );
        assert_eq!(
            spans(RULE, CONTEXT, &create("  targeting: {age_min: 18}\n")),
            ["targeting"]
        );
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &create("  targeting: {geo_locations: {cities: [{key: '1'}]}}\n")
            ),
            ["geo_locations"]
        );
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &create("  targeting: {geo_locations: {countries: []}}\n")
            ),
            ["[]"]
        );
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &create("  targeting: {geo_locations: {countries: null}}\n")
            ),
            ["countries"]
        );
        // Inside a JSON-encoded string.
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &create("  targeting: '{\"geo_locations\":{\"location_types\":[\"home\"]}}'\n")
            ),
            ["\"geo_locations\""]
        );
    }

    #[test]
    fn silent_when_present_or_not_a_mapping() {
        for silent in [
            create("  targeting: {geo_locations: {countries: [US]}}\n"),
            create("  targeting: '{\"geo_locations\":{\"countries\":[\"US\"]}}'\n"),
            create("  targeting: 42\n"),
            create("  targeting: {geo_locations: [US]}\n"),
            // Updates and copies keep the targeting they have.
            "request: POST /v24.0/11\nparams: {name: y}\n".to_string(),
            "request: POST /v24.0/11/copies\nparams: {deep_copy: false}\n".to_string(),
        ] {
            assert!(spans(RULE, CONTEXT, &silent).is_empty(), "{silent}");
        }
    }
}
